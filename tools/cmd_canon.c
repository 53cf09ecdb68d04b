/* cmd_canon.c: `sprouts canon POS`: the canonical form of a position, one line. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmds.h"
#include "posarg.h"

static const char usage[] =
    "Usage: sprouts canon POS [--v1]\n"
    "Prints the canonical form of POS (simplified, split into lands, least under the symmetries).\n"
    "POS is a position string in GLOP 2.x syntax ('0*5', '0.1a1a.AB|AB') or 1.x syntax ('1a1a.}]!').\n"
    "  --v1      print in GLOP 1.x syntax\n"
    "  -h, --help\n";

int sp_cmd_canon(int argc, char **argv)
{
    static const struct option opts[] = {{"v1", no_argument, 0, '1'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    int v1 = 0, c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h')
            return fputs(usage, stdout), SP_EXIT_OK;
        if (c == '1')
            v1 = 1;
        else
            return sp_cli_bad_option("sprouts canon", argv, "");
    }
    if (optind != argc - 1)
        return sp_cli_usage("sprouts canon", "expects exactly one position (see --help)");
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    sp_tok key[SP_KEY_MAX];
    size_t len;
    int rc = ctx ? sp_tool_pos_key("sprouts canon", ctx, argv[optind], key, &len) : SP_EXIT_FAIL;
    if (rc == 0)
        sp_tool_print_key(stdout, key, len, v1);
    sp_canon_ctx_free(ctx);
    return rc;
}
