/* nimfam_marienbad.c: `nimfam marienbad verify|play`: the checks of the Marienbad seed (Bouton's misère
 * rule against brute force, the seed's strategy against every opponent line) and play in the terminal. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "marienbad.h"
#include "nimfam.h"

#define MAX_START_MATCHES 24 /* the strategy play-out grows exponentially with the matches */

static const char verify_usage[] =
    "Usage: nimfam marienbad verify [--start LIST] [--max-row N] [--max-mem MIB] [--out DIR]\n"
    "Brute-forces the misere outcome (who takes the last match loses) of every position up to the\n"
    "start rows and of every position with as many rows and each row up to N, compares each with\n"
    "Bouton's misere rule, and plays the seed's strategy as second player from the start against every\n"
    "possible line of the first player. Exit 0 only when everything held.\n"
    "  --start LIST   starting rows (default 1,3,5,7; 1 to 8 rows, at most 24 matches in all)\n"
    "  --max-row N    largest row of the box check (default 15)\n"
    "  --max-mem MIB  refuse a box table larger than this (default 4096)\n"
    "  --out DIR      also write the summary to DIR/marienbad.md\n"
    "  --plant-error  check deliberately wrong claims instead (normal-play Nim's rule and strategy), to\n"
    "                 see the checks fail: exit 1 expected\n"
    "  -h, --help\n";

static const char play_usage[] =
    "Usage: nimfam marienbad play [--rows LIST] [--first me|machine]\n"
    "Play Marienbad against the machine: take one or more matches from one row; who takes the last\n"
    "match loses. Type a move as ROW COUNT (e.g. '4 2' takes 2 matches from row 4). The machine plays\n"
    "perfectly from a brute-force table of every position.\n"
    "  --rows LIST    the rows to start from (default 1,3,5,7; 1 to 8 rows of at most 40 matches)\n"
    "  --first WHO    who moves first: me or machine (asked when not given)\n"
    "  -h, --help\n";

typedef struct rowset {
    unsigned n, r[SP_MB_MAX_ROWS];
} rowset;

static const char *rows_str(const unsigned *r, unsigned n, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, i ? ",%u" : "(%u", r[i]);
    if (len < cap)
        snprintf(buf + len, cap - len, ")");
    return buf;
}

/* ---------------------------------------------------------------- verify */

/* What is checked: the seed's claims, or deliberately wrong ones (--plant-error). */
typedef struct claims {
    sp_mb_rule rule;
    sp_mb_strategy strategy;
} claims;

static const claims seed_claims = {sp_mb_bouton_misere, sp_mb_seed_strategy};
static const claims wrong_claims = {sp_mb_normal_play_rule, sp_mb_xor_only_strategy};

static bool check_box(nf_report *rep, const claims *cl, const unsigned *max, unsigned n, const char *what,
                      nf_progress *pg)
{
    char b[96];
    sp_mb_table *t = sp_mb_table_new(max, n, &pg->p);
    if (!t) {
        nf_say(rep, "- %s: out of memory\n", what);
        return false;
    }
    sp_mb_rule_report rr;
    bool ok = sp_mb_check_rule(t, cl->rule, &rr);
    nf_say(rep, "- %s: %llu positions, %llu won by the player to move, %llu lost; "
                "%llu disagree with Bouton's misere rule\n",
           what, (unsigned long long)rr.positions, (unsigned long long)rr.wins,
           (unsigned long long)(rr.positions - rr.wins), (unsigned long long)rr.mismatches);
    if (!ok)
        nf_say(rep, "  first disagreement at %s\n", rows_str(rr.first_bad, n, b, sizeof b));
    sp_mb_table_free(t);
    return ok;
}

static bool check_strategy(nf_report *rep, const claims *cl, const rowset *start)
{
    char b[96];
    sp_mb_play_report pr;
    bool ok = sp_mb_check_strategy(start->r, start->n, cl->strategy, &pr);
    nf_say(rep, "- games played out: %llu (every line of the first player, times every move the seed's "
                "rule allows)\n"
                "- won by the strategy: %llu; lost: %llu; rule had no move: %llu\n"
                "- turns where the rule allowed more than one move: %llu; longest game: %u moves\n",
           (unsigned long long)pr.games, (unsigned long long)pr.won, (unsigned long long)pr.lost,
           (unsigned long long)pr.stuck, (unsigned long long)pr.choice_points, pr.longest);
    if (!ok && pr.games)
        nf_say(rep, "  first failure at %s\n", rows_str(pr.first_bad, start->n, b, sizeof b));
    return ok;
}

/* The positions of the seed's worked examples and the move the seed makes there (rows 0-based). */
static const struct {
    unsigned rows[4];
    sp_mb_move move;
    const char *where;
} examples[] = {
    {{1, 3, 5, 0}, {2, 3}, "example 1, opening: after the first player empties row 4"},
    {{1, 2, 2, 0}, {0, 1}, "example 1, continued: keep the column sums even"},
    {{0, 1, 2, 0}, {2, 2}, "example 1, end: the first player took one match"},
    {{0, 0, 2, 0}, {2, 1}, "example 1, end: the first player took a whole row"},
    {{1, 1, 5, 0}, {2, 4}, "example 2: leave an odd number of one-match rows"},
};

static bool check_examples(nf_report *rep, const claims *cl)
{
    static const unsigned box[4] = {1, 3, 5, 7};
    sp_mb_table *t = sp_mb_table_new(box, 4, NULL);
    bool all = t != NULL;
    for (size_t i = 0; t && i < sizeof examples / sizeof examples[0]; i++) {
        sp_mb_move m[64];
        unsigned n = cl->strategy(examples[i].rows, 4, m, 64), after[4];
        bool offered = false;
        for (unsigned j = 0; j < n; j++)
            offered |= m[j].row == examples[i].move.row && m[j].take == examples[i].move.take;
        memcpy(after, examples[i].rows, sizeof after);
        after[examples[i].move.row] -= examples[i].move.take;
        bool wins = !sp_mb_table_wins(t, after), ok = offered && n == 1 && wins;
        char b1[64], b2[64];
        nf_say(rep, "- %s: %s, take %u from row %u -> %s: %s\n", examples[i].where,
               rows_str(examples[i].rows, 4, b1, sizeof b1), examples[i].move.take, examples[i].move.row + 1,
               rows_str(after, 4, b2, sizeof b2),
               ok ? "the only move the rule allows, and a win by brute force" : "MISMATCH");
        all &= ok;
    }
    sp_mb_table_free(t);
    return all;
}

typedef struct mb_opts {
    rowset start;
    unsigned max_row;
    uint64_t max_mem;
    const char *out;
    const claims *claims;
} mb_opts;

static int parse_verify(int argc, char **argv, const char *prog, mb_opts *o)
{
    static const struct option opts[] = {{"start", required_argument, 0, 's'}, {"max-row", required_argument, 0, 'm'},
                                         {"max-mem", required_argument, 0, 'M'}, {"out", required_argument, 0, 'o'},
                                         {"plant-error", no_argument, 0, 'P'}, {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    uint64_t v;
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h')
            return fputs(verify_usage, stdout), -1;
        if (c == 's' && !(o->start.n = nf_parse_list(optarg, 0, SP_MB_MAX_ROW, o->start.r, SP_MB_MAX_ROWS)))
            return sp_cli_usage(prog, "--start needs 1 to 8 row sizes like 1,3,5,7, not '%s'", optarg);
        if (c == 'm' && !sp_cli_parse_u64(optarg, 1, SP_MB_MAX_ROW, &v))
            return sp_cli_usage(prog, "--max-row needs a number from 1 to %u, not '%s'", SP_MB_MAX_ROW, optarg);
        if (c == 'm')
            o->max_row = (unsigned)v;
        if (c == 'M' && !sp_cli_parse_u64(optarg, 1, UINT64_C(1) << 30, &o->max_mem))
            return sp_cli_usage(prog, "--max-mem needs a number of MiB, not '%s'", optarg);
        if (c == 'o')
            o->out = optarg;
        if (c == 'P')
            o->claims = &wrong_claims;
        if (c == '?' || c == ':')
            return sp_cli_bad_option(prog, argv, "");
    }
    if (optind != argc)
        return sp_cli_usage(prog, "unexpected argument '%s' (see --help)", argv[optind]);
    unsigned total = 0;
    for (unsigned i = 0; i < o->start.n; i++)
        total += o->start.r[i];
    if (total > MAX_START_MATCHES)
        return sp_cli_usage(prog, "--start: at most %d matches in all (the play-out is exhaustive)", MAX_START_MATCHES);
    double cells = 1;
    for (unsigned i = 0; i < o->start.n; i++)
        cells *= o->max_row + 1;
    if (cells > (double)o->max_mem * 1048576.0 || cells > 4294967296.0)
        return sp_cli_usage(prog, "a box of %u rows up to %u has %.3g positions: over --max-mem or 2^32",
                            o->start.n, o->max_row, cells);
    return 0;
}

static int verify(int argc, char **argv, const nf_cmdline *cl)
{
    const char *prog = "nimfam marienbad verify";
    mb_opts o = {{4, {1, 3, 5, 7}}, 15, 4096, NULL, &seed_claims};
    int rc = parse_verify(argc, argv, prog, &o);
    if (rc)
        return rc < 0 ? SP_EXIT_OK : rc;
    nf_report rep;
    nf_progress pg;
    char b[96], what[160];
    if (!nf_report_begin(&rep, prog))
        return sp_cli_fail(prog, "out of memory");
    nf_progress_init(&pg, "marienbad");
    unsigned box[SP_MB_MAX_ROWS];
    for (unsigned i = 0; i < o.start.n; i++)
        box[i] = o.max_row;
    if (o.claims == &wrong_claims)
        nf_say(&rep, "PLANTED ERROR: checking normal-play Nim's rule and strategy instead of the seed's; this "
                     "run must fail.\n\n");
    nf_say(&rep, "## Brute-force misere outcomes against Bouton's rule\n\n");
    snprintf(what, sizeof what, "every position up to %s", rows_str(o.start.r, o.start.n, b, sizeof b));
    bool held = check_box(&rep, o.claims, o.start.r, o.start.n, what, &pg);
    snprintf(what, sizeof what, "every %u-row position with rows up to %u", o.start.n, o.max_row);
    held &= check_box(&rep, o.claims, box, o.start.n, what, &pg);
    nf_say(&rep, "\n## The seed's strategy as second player from %s\n\n", rows_str(o.start.r, o.start.n, b, sizeof b));
    held &= check_strategy(&rep, o.claims, &o.start);
    nf_say(&rep, "\n## The seed's worked examples\n\n");
    held &= check_examples(&rep, o.claims);
    return nf_report_end(&rep, "Marienbad (misere Nim): verification", o.out, "marienbad.md", cl, held);
}

/* ---------------------------------------------------------------- play */

static void show(const rowset *p, unsigned widest)
{
    printf("\n");
    for (unsigned i = 0; i < p->n; i++) {
        char bars[2 * 40 + 1] = "";
        for (unsigned j = 0; j < p->r[i]; j++)
            strcat(bars, "| ");
        printf("  row %u: %-*s (%u)\n", i + 1, (int)(2 * widest), bars, p->r[i]);
    }
}

static unsigned matches(const rowset *p)
{
    unsigned s = 0;
    for (unsigned i = 0; i < p->n; i++)
        s += p->r[i];
    return s;
}

/* Asks until the person types a legal move; false at end of input. */
static bool human_move(const rowset *p, sp_mb_move *m)
{
    char line[256];
    for (;;) {
        uint64_t v[2];
        if (!nf_prompt("Your move (ROW COUNT): ", line, sizeof line))
            return false;
        int n = nf_numbers(line, v, 2);
        if (n != 2)
            printf("Type a row number and how many matches to take, e.g. '%u 1'.\n", p->n);
        else if (v[0] < 1 || v[0] > p->n)
            printf("There is no row %llu: the rows are 1 to %u.\n", (unsigned long long)v[0], p->n);
        else if (p->r[v[0] - 1] == 0)
            printf("Row %llu is empty; pick a row with matches.\n", (unsigned long long)v[0]);
        else if (v[1] < 1 || v[1] > p->r[v[0] - 1])
            printf("Row %llu has %u matches: take from 1 to %u of them.\n", (unsigned long long)v[0],
                   p->r[v[0] - 1], p->r[v[0] - 1]);
        else {
            *m = (sp_mb_move){(unsigned)v[0] - 1, (unsigned)v[1]};
            return true;
        }
    }
}

/* A move to a lost position when there is one; otherwise one match from the largest row. */
static sp_mb_move machine_move(const sp_mb_table *t, const rowset *p)
{
    sp_mb_move m = {0, 1};
    if (sp_mb_table_winning_move(t, p->r, &m))
        return m;
    for (unsigned i = 0; i < p->n; i++)
        if (p->r[i] > p->r[m.row])
            m.row = i;
    return m;
}

static int parse_play(int argc, char **argv, const char *prog, rowset *start, const char **first)
{
    static const struct option opts[] = {{"rows", required_argument, 0, 'r'}, {"first", required_argument, 0, 'f'},
                                         {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    bool dummy;
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h')
            return fputs(play_usage, stdout), -1;
        if (c == 'r' && !(start->n = nf_parse_list(optarg, 0, 40, start->r, SP_MB_MAX_ROWS)))
            return sp_cli_usage(prog, "--rows needs 1 to 8 row sizes from 0 to 40 like 1,3,5,7, not '%s'", optarg);
        if (c == 'f' && !nf_parse_first(optarg, &dummy))
            return sp_cli_usage(prog, "--first needs 'me' or 'machine', not '%s'", optarg);
        if (c == 'f')
            *first = optarg;
        if (c == '?' || c == ':')
            return sp_cli_bad_option(prog, argv, "");
    }
    if (optind != argc)
        return sp_cli_usage(prog, "unexpected argument '%s' (see --help)", argv[optind]);
    double cells = 1;
    for (unsigned i = 0; i < start->n; i++)
        cells *= start->r[i] + 1;
    if (cells > 1e8)
        return sp_cli_usage(prog, "--rows: the machine's table would hold %.3g positions (at most 1e8)", cells);
    if (matches(start) == 0)
        return sp_cli_usage(prog, "--rows: there must be at least one match");
    return 0;
}

static int play(int argc, char **argv, const nf_cmdline *cl)
{
    (void)cl;
    const char *prog = "nimfam marienbad play", *first = NULL;
    rowset p = {4, {1, 3, 5, 7}};
    int rc = parse_play(argc, argv, prog, &p, &first);
    if (rc)
        return rc < 0 ? SP_EXIT_OK : rc;
    sp_mb_table *t = sp_mb_table_new(p.r, p.n, NULL);
    if (!t)
        return sp_cli_fail(prog, "out of memory");
    bool human;
    unsigned widest = 0;
    for (unsigned i = 0; i < p.n; i++)
        widest = p.r[i] > widest ? p.r[i] : widest;
    printf("Marienbad: take one or more matches from one row; who takes the last match loses.\n");
    if (!nf_who_starts(first, &human)) {
        sp_mb_table_free(t);
        return nf_input_ended();
    }
    for (;;) {
        sp_mb_move m;
        show(&p, widest);
        if (human && !human_move(&p, &m)) {
            sp_mb_table_free(t);
            return nf_input_ended();
        }
        if (!human) {
            m = machine_move(t, &p);
            printf("The machine takes %u from row %u.\n", m.take, m.row + 1);
        }
        p.r[m.row] -= m.take;
        if (matches(&p) == 0) {
            printf(human ? "You took the last match: the machine wins.\n"
                         : "The machine took the last match: you win!\n");
            break;
        }
        human = !human;
    }
    sp_mb_table_free(t);
    return SP_EXIT_OK;
}

const nf_game nf_marienbad = {"marienbad", "Marienbad: misere Nim from rows 1, 3, 5, 7", verify, play};
