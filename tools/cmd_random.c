/* cmd_random.c: `sprouts random POS --moves K --seed S`: a reproducible random game. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmds.h"
#include "posarg.h"
#include "random.h"

static const char usage[] =
    "Usage: sprouts random POS --moves K [--seed S] [--v1]\n"
    "Plays K random moves from POS (each distinct child equally likely) and prints every position\n"
    "reached, one canonical form per line. Stops early, with a note on stderr, when no move is left.\n"
    "  --moves K   number of moves to play (required)\n"
    "  --seed S    seed of the random choices (default 1); the same seed gives the same game\n"
    "  --v1        print in GLOP 1.x syntax\n"
    "  -h, --help\n";

int sp_cmd_random(int argc, char **argv)
{
    static const struct option opts[] = {{"moves", required_argument, 0, 'k'}, {"seed", required_argument, 0, 's'},
                                         {"v1", no_argument, 0, '1'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *prog = "sprouts random";
    uint64_t moves = 0, seed = 1;
    int v1 = 0, have_moves = 0, c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h')
            return fputs(usage, stdout), SP_EXIT_OK;
        if (c == '1')
            v1 = 1;
        else if (c == 'k') {
            if (!sp_cli_parse_u64(optarg, 0, 1000000, &moves))
                return sp_cli_usage(prog, "--moves needs a number from 0 to 1000000, not '%s'", optarg);
            have_moves = 1;
        } else if (c == 's') {
            if (!sp_cli_parse_u64(optarg, 0, UINT64_MAX, &seed))
                return sp_cli_usage(prog, "--seed needs a non-negative number, not '%s'", optarg);
        } else
            return sp_cli_bad_option(prog, argv, "");
    }
    if (optind != argc - 1)
        return sp_cli_usage(prog, "expects exactly one position (see --help)");
    if (!have_moves)
        return sp_cli_usage(prog, "--moves K is required (see --help)");
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    sp_tok key[SP_KEY_MAX];
    size_t len;
    sp_children ch;
    sp_children_init(&ch);
    int rc = ctx ? sp_tool_pos_key(prog, ctx, argv[optind], key, &len) : SP_EXIT_FAIL;
    uint64_t state = seed;
    for (uint64_t m = 0; m < moves && rc == 0; m++) {
        long next = sp_random_move(ctx, key, len, &state, &ch);
        if (next < 0) {
            fprintf(stderr, "%s: the game is over after %llu moves\n", prog, (unsigned long long)m);
            break;
        }
        len = (size_t)next;
        sp_tool_print_key(stdout, key, len, v1);
    }
    sp_children_free(&ch);
    sp_canon_ctx_free(ctx);
    return rc;
}
