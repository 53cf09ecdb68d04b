/* cmd_children.c: `sprouts children POS`: the distinct positions one move away, sorted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmds.h"
#include "expand.h"
#include "posarg.h"

static const char usage[] =
    "Usage: sprouts children POS [--count] [--v1]\n"
    "Prints every distinct position one move away from POS, one canonical form per line, sorted.\n"
    "  --count   print only how many there are\n"
    "  --v1      print in GLOP 1.x syntax\n"
    "  -h, --help\n";

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int print_sorted(const sp_children *ch, int v1)
{
    char **lines = calloc(ch->n ? ch->n : 1, sizeof *lines);
    if (!lines)
        return SP_EXIT_FAIL;
    int rc = SP_EXIT_OK;
    for (size_t i = 0; i < ch->n && rc == SP_EXIT_OK; i++) {
        size_t n = sp_tool_key_string(ch->tok + ch->off[i], ch->len[i], v1, NULL, 0);
        lines[i] = malloc(n + 1);
        if (!lines[i])
            rc = SP_EXIT_FAIL;
        else
            sp_tool_key_string(ch->tok + ch->off[i], ch->len[i], v1, lines[i], n + 1);
    }
    if (rc == SP_EXIT_OK) {
        qsort(lines, ch->n, sizeof *lines, cmp_str);
        for (size_t i = 0; i < ch->n; i++)
            puts(lines[i]);
    }
    for (size_t i = 0; i < ch->n; i++)
        free(lines[i]);
    free(lines);
    return rc;
}

int sp_cmd_children(int argc, char **argv)
{
    static const struct option opts[] = {{"count", no_argument, 0, 'c'}, {"v1", no_argument, 0, '1'},
                                         {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    int v1 = 0, count = 0, c;
    const char *prog = "sprouts children";
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h')
            return fputs(usage, stdout), SP_EXIT_OK;
        if (c == '1')
            v1 = 1;
        else if (c == 'c')
            count = 1;
        else
            return sp_cli_bad_option(prog, argv, "");
    }
    if (optind != argc - 1)
        return sp_cli_usage(prog, "expects exactly one position (see --help)");
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    sp_tok key[SP_KEY_MAX];
    size_t len;
    sp_children ch;
    sp_children_init(&ch);
    int rc = ctx ? sp_tool_pos_key(prog, ctx, argv[optind], key, &len) : SP_EXIT_FAIL;
    if (rc == 0 && sp_expand_pos(ctx, NULL, key, len, &ch))
        rc = sp_cli_fail(prog, "out of memory");
    if (rc == 0 && count)
        printf("%zu\n", ch.n);
    else if (rc == 0)
        rc = print_sorted(&ch, v1);
    sp_children_free(&ch);
    sp_canon_ctx_free(ctx);
    return rc;
}
