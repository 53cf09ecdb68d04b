/* cmd_variants.c: `sprouts solve POS --rules R` and `sprouts table --rules R` for the variants of
 * solver/variants.h (black-and-white, Brussels, Antwerp): what one position is worth under them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "cli.h"
#include "cmds.h"
#include "posarg.h"
#include "quote.h"
#include "sp_config.h"
#include "sp_revision.h"
#include "variants.h"
#include "vtable.h"

static const char usage[] =
    "Usage: sprouts solve POS --rules bw|brussels|antwerp-cold|antwerp-hot [--mb M] [--json]\n"
    "Decides POS under a variant of the seed article by plain exhaustive search with memoisation:\n"
    "  bw            black-and-white sprouts (a curve with or without a new spot): outcome and nimber\n"
    "  brussels      Brussels sprouts (POS: 'x*n' or regions of boundaries of free arms, e.g.\n"
    "                'x.22|222'): the shortest and longest game over every line of play, the nimber\n"
    "  antwerp-cold, antwerp-hot  Antwerp sprouts (partizan): Left may join spots that are not red,\n"
    "                Right spots that are not blue; cold: Left draws red spots, Right blue ones; hot:\n"
    "                the other way round. The outcome class by two memoised minimax searches over whole\n"
    "                positions (Left first, Right first). POS may give 1-life spots colours: a suffix\n"
    "                ':r' (red) or ':b' (blue) on a '2' or on each occurrence of a letter, e.g.\n"
    "                'AB:r|AB:r' (no suffix: white; '0' and '1' are always white)\n"
    "  --mb M        memo tables in MiB (default 1024)\n"
    "  --json        print one JSON object instead of text\n"
    "  -h, --help\n"
    "Exit status: 0 solved, 1 out of room, 2 bad usage.\n";

typedef struct variant_args {
    sp_rules rules;
    size_t bytes;
    int json;
    const char *pos;
} variant_args;

/* The rule set named by --rules in argv, 0 when --rules is absent, -1 when it names none. */
int sp_cmd_rules_arg(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        if (!strcmp(argv[i], "--rules"))
            v = i + 1 < argc ? argv[i + 1] : "";
        else if (!strncmp(argv[i], "--rules=", 8))
            v = argv[i] + 8;
        if (v)
            return sp_rules_parse(v) ? (int)sp_rules_parse(v) : -1;
    }
    return 0;
}

static int parse(int argc, char **argv, variant_args *a)
{
    static const struct option opts[] = {{"rules", required_argument, 0, 'r'}, {"mb", required_argument, 0, 'M'},
                                         {"json", no_argument, 0, 'j'},        {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *prog = "sprouts solve";
    uint64_t mb;
    int c;
    a->bytes = (size_t)1024 << 20;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'h': fputs(usage, stdout); return -1;
        case 'r':
            if (!(a->rules = sp_rules_parse(optarg)))
                return sp_cli_usage(prog, "--rules is bw, brussels, antwerp-cold or antwerp-hot, not '%s'", optarg);
            break;
        case 'M':
            if (!sp_cli_parse_u64(optarg, 16, 1 << 20, &mb))
                return sp_cli_usage(prog, "--mb needs a number of MiB from 16 to 1048576, not '%s'", optarg);
            a->bytes = (size_t)mb << 20;
            break;
        case 'j': a->json = 1; break;
        default: return sp_cli_bad_option(prog, argv, "");
        }
    }
    if (optind != argc - 1)
        return sp_cli_usage(prog, "expects exactly one position (see --help)");
    a->pos = argv[optind];
    return 0;
}

static int solve_bw(const variant_args *a, sp_variants *v, double t0)
{
    const char *prog = "sprouts solve";
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    sp_tok key[SP_KEY_MAX];
    size_t len;
    if (!ctx)
        return sp_cli_fail(prog, "out of memory");
    int rc = sp_tool_pos_key(prog, ctx, a->pos, key, &len);
    sp_canon_ctx_free(ctx);
    if (rc)
        return rc;
    char canon[4096];
    sp_tool_key_string(key, len, 0, canon, sizeof canon);
    int g = sp_variants_bw_nimber(v, key, len);
    if (g < 0)
        return sp_cli_fail(prog, "out of room after %llu positions; nothing decided",
                           (unsigned long long)sp_variants_nodes(v));
    double secs = sp_clock_now() - t0;
    const char *o = g ? "win" : "loss";
    if (a->json)
        printf("{\"position\": \"%s\", \"canonical\": \"%s\", \"rules\": \"bw\", \"outcome\": \"%s\", "
               "\"nimber\": %d, \"nodes\": %llu, \"stored\": %llu, \"seconds\": %.3f}\n",
               a->pos, canon, o, g, (unsigned long long)sp_variants_nodes(v),
               (unsigned long long)sp_variants_stored(v), secs);
    else
        printf("position: %s (canonical %s)\nrules: bw (black-and-white, normal play)\n"
               "outcome: %s (the player to move %s)\nnimber: %d\n"
               "work: %llu lands expanded, %llu stored, %.3f s\n",
               a->pos, canon, o, g ? "wins" : "loses", g, (unsigned long long)sp_variants_nodes(v),
               (unsigned long long)sp_variants_stored(v), secs);
    return SP_EXIT_OK;
}

static int solve_antwerp(const variant_args *a, sp_variants *v, double t0)
{
    const char *prog = "sprouts solve";
    sp_pos *p = malloc(sizeof *p);
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    uint8_t col[SP_MAX_SYMS];
    sp_tok key[SP_KEY_MAX];
    size_t len = 0;
    int rc = !p || !ctx ? sp_cli_fail(prog, "out of memory") : sp_tool_parse_pos_colours(prog, a->pos, p, col);
    if (rc == 0)
        len = sp_pos_key_colours(ctx, p, col, key);
    sp_canon_ctx_free(ctx);
    free(p);
    if (rc)
        return rc;
    char canon[4096];
    sp_tool_key_string(key, len, 0, canon, sizeof canon);
    int l = sp_variants_antwerp_wins(v, key, len, SP_LEFT);
    uint64_t nodes_l = sp_variants_nodes(v);
    int r = l < 0 ? -1 : sp_variants_antwerp_wins(v, key, len, SP_RIGHT);
    if (r < 0)
        return sp_cli_fail(prog, "out of room after %llu positions; nothing decided",
                           (unsigned long long)sp_variants_nodes(v));
    double secs = sp_clock_now() - t0;
    const char *cls = sp_aw_class_name((sp_aw_class)(l | r << 1)), *rules = sp_rules_name(a->rules);
    unsigned long long nodes = sp_variants_nodes(v), stored = sp_variants_stored(v);
    if (a->json)
        printf("{\"position\": \"%s\", \"canonical\": \"%s\", \"rules\": \"%s\", \"outcome\": \"%s\", "
               "\"left_first\": \"%s\", \"right_first\": \"%s\", \"nodes\": %llu, \"nodes_left_first\": %llu, "
               "\"stored\": %llu, \"seconds\": %.3f}\n",
               a->pos, canon, rules, cls, l ? "win" : "loss", r ? "win" : "loss", nodes,
               (unsigned long long)nodes_l, stored, secs);
    else
        printf("position: %s (canonical %s)\nrules: %s (Antwerp sprouts, %s, normal play)\n"
               "outcome: %s (Left moving first %s, Right moving first %s)\n"
               "work: %llu positions expanded (%llu with Left first), %llu stored, %.3f s\n",
               a->pos, canon, rules,
               a->rules == SP_RULES_ANTWERP_HOT ? "Left draws blue spots, Right red ones"
                                                : "Left draws red spots, Right blue ones",
               cls, l ? "wins" : "loses", r ? "wins" : "loses", nodes, (unsigned long long)nodes_l, stored, secs);
    return SP_EXIT_OK;
}

static int solve_brussels(const variant_args *a, sp_variants *v, double t0)
{
    const char *prog = "sprouts solve";
    sp_br_pos p;
    sp_parse_error err;
    if (sp_br_parse(a->pos, &p, &err)) {
        char q[4 * SP_QUOTE_MAX + 8];
        sp_quote(a->pos, SP_QUOTE_MAX, q, sizeof q);
        return sp_cli_usage(prog, "bad Brussels position '%s': column %d: %s", q, err.column, err.message);
    }
    char canon[4096];
    sp_br_print(&p, canon, sizeof canon);
    sp_br_lengths L;
    if (sp_variants_brussels(v, &p, &L))
        return sp_cli_fail(prog, "out of room after %llu regions; nothing decided",
                           (unsigned long long)sp_variants_nodes(v));
    double secs = sp_clock_now() - t0;
    const char *o = L.nimber ? "win" : "loss";
    if (a->json)
        printf("{\"position\": \"%s\", \"canonical\": \"%s\", \"rules\": \"brussels\", \"outcome\": \"%s\", "
               "\"nimber\": %u, \"shortest\": %u, \"longest\": %u, \"arms\": %u, \"regions\": %llu, "
               "\"seconds\": %.3f}\n",
               a->pos, canon, o, L.nimber, L.shortest, L.longest, sp_br_arms(&p), (unsigned long long)L.regions, secs);
    else
        printf("position: %s (canonical %s)\nrules: brussels (normal play)\n"
               "outcome: %s (the player to move %s)\nnimber: %u\n"
               "games: every game lasts %s%u moves%s (shortest %u, longest %u)\n"
               "work: %llu regions, every one reachable expanded, %.3f s\n",
               a->pos, canon, o, L.nimber ? "wins" : "loses", L.nimber, L.shortest == L.longest ? "exactly " : "",
               L.shortest == L.longest ? L.shortest : L.longest, L.shortest == L.longest ? "" : " at most",
               L.shortest, L.longest, (unsigned long long)L.regions, secs);
    return SP_EXIT_OK;
}

int sp_cmd_variant_solve(int argc, char **argv)
{
    variant_args a;
    memset(&a, 0, sizeof a);
    int rc = parse(argc, argv, &a);
    if (rc)
        return rc < 0 ? SP_EXIT_OK : rc;
    double t0 = sp_clock_now();
    sp_variants *v = sp_variants_new(a.rules, a.bytes);
    if (!v)
        return sp_cli_fail("sprouts solve", "out of memory");
    if (a.rules == SP_RULES_BW)
        rc = solve_bw(&a, v, t0);
    else if (a.rules == SP_RULES_BRUSSELS)
        rc = solve_brussels(&a, v, t0);
    else
        rc = solve_antwerp(&a, v, t0);
    sp_variants_free(v);
    return rc;
}

static const char table_usage[] =
    "Usage: sprouts table --rules bw|brussels|antwerp-cold|antwerp-hot [--from A] [--to B] [--out DIR]\n"
    "                     [--mb M] [--time-limit S]\n"
    "Solves 0*A..0*B (black-and-white, Antwerp) or x*A..x*B (Brussels) one after the other with one\n"
    "solver and writes DIR/variants.csv (a row per rule set and n, with provenance; rows of other rule\n"
    "sets and sizes kept) and DIR/variants.md (the results README's section on the variants) after\n"
    "each size; DIR/README.md's copy of that section too, when it has one.\n"
    "  --from A, --to B  sizes (default 1..6)\n"
    "  --out DIR     where the table goes (default results)\n"
    "  --mb M        memo tables in MiB (default 1024)\n"
    "  --time-limit S  start no size after S seconds\n"
    "  -h, --help\n"
    "Exit status: 0 done, 1 out of room or time, 2 bad usage.\n";

int sp_cmd_variant_table(int argc, char **argv)
{
    static const struct option opts[] = {
        {"rules", required_argument, 0, 'r'}, {"from", required_argument, 0, 'f'}, {"to", required_argument, 0, 't'},
        {"out", required_argument, 0, 'o'},   {"mb", required_argument, 0, 'M'},   {"time-limit", required_argument, 0, 'l'},
        {"help", no_argument, 0, 'h'},        {0, 0, 0, 0}};
    const char *prog = "sprouts table";
    sp_vtable_opts o = {.from = 1, .to = 6, .out = "results", .bytes = (size_t)1024 << 20, .rows = stdout,
                        .version = "sprouts " SP_VERSION " (git " SP_REVISION ")"};
    uint64_t x;
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'h': fputs(table_usage, stdout); return SP_EXIT_OK;
        case 'r': o.rules = sp_rules_parse(optarg); break;
        case 'f':
        case 't':
            if (!sp_cli_parse_u64(optarg, 1, 200, &x))
                return sp_cli_usage(prog, "--%s needs a size from 1 to 200, not '%s'", c == 'f' ? "from" : "to", optarg);
            *(c == 'f' ? &o.from : &o.to) = (unsigned)x;
            break;
        case 'o': o.out = optarg; break;
        case 'M':
            if (!sp_cli_parse_u64(optarg, 16, 1 << 20, &x))
                return sp_cli_usage(prog, "--mb needs a number of MiB from 16 to 1048576, not '%s'", optarg);
            o.bytes = (size_t)x << 20;
            break;
        case 'l':
            if (!sp_cli_parse_u64(optarg, 1, 100000000, &x))
                return sp_cli_usage(prog, "--time-limit needs a number of seconds, not '%s'", optarg);
            o.time_limit = (double)x;
            break;
        default: return sp_cli_bad_option(prog, argv, "");
        }
    }
    if (optind != argc)
        return sp_cli_usage(prog, "unexpected argument '%s' (see --help)", argv[optind]);
    if (!o.rules)
        return sp_cli_usage(prog, "--rules is bw, brussels, antwerp-cold or antwerp-hot");
    if (o.from > o.to)
        return sp_cli_usage(prog, "--from %u is after --to %u", o.from, o.to);
    char err[256];
    int rc = sp_vtable_run(&o, err, sizeof err);
    if (rc < 0)
        return sp_cli_fail(prog, "%s", err);
    if (rc > 0)
        return sp_cli_fail(prog, "stopped: out of room or time (the sizes done are written)");
    return SP_EXIT_OK;
}
