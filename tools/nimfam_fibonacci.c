/* nimfam_fibonacci.c: `nimfam fibonacci verify|play`: the checks of the Fibonacci Nim seed (losing
 * starts, the Zeckendorf strategy, the example game from 75) and play in the terminal. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clock.h"
#include "fibonacci.h"
#include "nimfam.h"

#define PLAY_MAX_N 20000

static const char verify_usage[] =
    "Usage: nimfam fibonacci verify [--max-n N] [--max-mem MIB] [--out DIR]\n"
    "Builds the game-value table of every state (tokens left n, maximum take m), 1 <= m <= n <= N,\n"
    "from the rules alone; checks that the first player loses from a pile of N exactly when N is a\n"
    "Fibonacci number, that the Zeckendorf strategy moves every won state to a lost one, and that the\n"
    "seed's example game from 75 is legal and won by the second player. Exit 0 only when all held.\n"
    "  --max-n N      largest pile (default 10000, at most 200000)\n"
    "  --max-mem MIB  refuse a table larger than this (default 4096)\n"
    "  --out DIR      also write the summary to DIR/fibonacci.md\n"
    "  --plant-error  check deliberately wrong claims instead (Lucas numbers, the largest Zeckendorf\n"
    "                 term), to see the checks fail: exit 1 expected\n"
    "  -h, --help\n";

static const char play_usage[] =
    "Usage: nimfam fibonacci play [--tokens N] [--first me|machine]\n"
    "Play Fibonacci Nim against the machine: one pile; the first move must leave at least one token;\n"
    "each take is at least 1 and at most twice the previous take; who takes the last token wins.\n"
    "Type how many tokens you take. The machine plays perfectly from a brute-force table.\n"
    "  --tokens N     the pile to start from, 2 to 20000 (asked when not given)\n"
    "  --first WHO    who moves first: me or machine (asked when not given)\n"
    "  -h, --help\n";

/* The seed's example: Anna (A) and Bert (B) from 75. */
static const uint64_t example_takes[] = {24, 16, 6, 5, 2, 4, 5, 4, 2, 2, 1, 1, 1, 2};
#define EXAMPLE_START 75

/* ---------------------------------------------------------------- verify */

/* What is checked: the seed's claims, or deliberately wrong ones (--plant-error). */
typedef struct claims {
    sp_fib_prediction first_loses;
    sp_fib_strategy strategy;
} claims;

static const claims seed_claims = {sp_fib_is_fibonacci, sp_fib_zeckendorf_take};
static const claims wrong_claims = {sp_fib_is_lucas, sp_fib_largest_term_take};

static bool check_starts(nf_report *rep, const claims *cl, const sp_fib_table *t)
{
    sp_fib_start_report r;
    bool ok = sp_fib_check_starts(t, cl->first_loses, &r);
    nf_say(rep, "- starting piles 2 .. %llu: %llu; the table says the first player loses from %llu of them:\n  ",
           (unsigned long long)sp_fib_table_max_n(t), (unsigned long long)r.piles, (unsigned long long)r.first_loses);
    for (uint64_t n = 2, shown = 0; n <= sp_fib_table_max_n(t); n++)
        if (!sp_fib_wins(t, n, n - 1))
            nf_say(rep, shown++ ? ", %llu" : "%llu", (unsigned long long)n);
    nf_say(rep, "\n- piles where that disagrees with \"N is a Fibonacci number\": %llu\n", (unsigned long long)r.mismatches);
    if (!ok)
        nf_say(rep, "  first disagreement at N = %llu\n", (unsigned long long)r.first_bad);
    return ok;
}

static bool check_strategy(nf_report *rep, const claims *cl, const sp_fib_table *t, nf_progress *pg)
{
    sp_fib_strategy_report r;
    bool ok = sp_fib_check_strategy(t, cl->strategy, &pg->p, &r);
    nf_say(rep, "- states: %llu, of which won for the player to move: %llu\n"
                "- won states where the strategy declined, moved illegally or left a won state: %llu\n"
                "- lost states where it still offers a move (no claim there): %llu\n",
           (unsigned long long)r.states, (unsigned long long)r.won, (unsigned long long)r.failures,
           (unsigned long long)r.offered_in_lost);
    if (!ok)
        nf_say(rep, "  first failure at n = %llu, m = %llu\n", (unsigned long long)r.first_bad_n,
               (unsigned long long)r.first_bad_m);
    return ok;
}

static void say_error(nf_report *rep, const sp_fib_game_report *g, unsigned who, unsigned ntakes)
{
    const char *name = who ? "B" : "A";
    if (g->first_error[who] == ntakes)
        nf_say(rep, "- %s never turned a won state into a lost one\n", name);
    else
        nf_say(rep, "- %s's first take that gave a won state away: take %u (%llu)\n", name,
               g->first_error[who] + 1, (unsigned long long)example_takes[g->first_error[who]]);
}

static bool check_example(nf_report *rep, const sp_fib_table *t)
{
    const unsigned n = sizeof example_takes / sizeof example_takes[0];
    sp_fib_game_report g;
    sp_fib_check_game(sp_fib_table_max_n(t) >= EXAMPLE_START ? t : NULL, EXAMPLE_START, example_takes, n, &g);
    nf_say(rep, "- from %d:", EXAMPLE_START);
    for (unsigned i = 0; i < n; i++)
        nf_say(rep, " %s %llu", i % 2 ? "B" : "A", (unsigned long long)example_takes[i]);
    bool ok = g.legal && g.finished && g.winner == 1;
    nf_say(rep, "\n- every take legal: %s; %s\n", g.legal ? "yes" : "NO",
           g.finished ? (g.winner ? "B takes the last token: B wins" : "A takes the last token: A wins")
                      : "the pile is not empty at the end");
    if (!g.legal)
        nf_say(rep, "  take %u is illegal\n", g.bad_move + 1);
    if (sp_fib_table_max_n(t) >= EXAMPLE_START) {
        nf_say(rep, "- by the table, A %s from %d (first take at most %d)\n",
               sp_fib_wins(t, EXAMPLE_START, EXAMPLE_START - 1) ? "could have forced a win" : "loses",
               EXAMPLE_START, EXAMPLE_START - 1);
        say_error(rep, &g, 0, n);
        say_error(rep, &g, 1, n);
    }
    return ok;
}

/* The seed's own reasoning: 2 and 3 are lost for the first player, 4 is won. */
static bool check_worked_cases(nf_report *rep, const sp_fib_table *t)
{
    if (sp_fib_table_max_n(t) < 4)
        return true;
    bool ok = !sp_fib_wins(t, 2, 1) && !sp_fib_wins(t, 3, 2) && sp_fib_wins(t, 4, 3);
    nf_say(rep, "- N = 2 and N = 3 lost, N = 4 won for the first player, as the seed works out: %s\n",
           ok ? "yes" : "NO");
    return ok;
}

typedef struct fib_opts {
    uint64_t max_n, max_mem;
    const char *out;
    const claims *claims;
} fib_opts;

static int parse_verify(int argc, char **argv, const char *prog, fib_opts *o)
{
    static const struct option opts[] = {{"max-n", required_argument, 0, 'n'}, {"max-mem", required_argument, 0, 'M'},
                                         {"out", required_argument, 0, 'o'}, {"plant-error", no_argument, 0, 'P'},
                                         {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h')
            return fputs(verify_usage, stdout), -1;
        if (c == 'P')
            o->claims = &wrong_claims;
        if (c == 'n' && !sp_cli_parse_u64(optarg, 2, SP_FIB_MAX_N, &o->max_n))
            return sp_cli_usage(prog, "--max-n needs a number from 2 to %u, not '%s'", SP_FIB_MAX_N, optarg);
        if (c == 'M' && !sp_cli_parse_u64(optarg, 1, UINT64_C(1) << 30, &o->max_mem))
            return sp_cli_usage(prog, "--max-mem needs a number of MiB, not '%s'", optarg);
        if (c == 'o')
            o->out = optarg;
        if (c == '?' || c == ':')
            return sp_cli_bad_option(prog, argv, "");
    }
    if (optind != argc)
        return sp_cli_usage(prog, "unexpected argument '%s' (see --help)", argv[optind]);
    double mib = (double)o->max_n * (double)(o->max_n + 1) / 2 / 8 / 1048576;
    if (mib > (double)o->max_mem)
        return sp_cli_usage(prog, "the table for --max-n %llu needs %.0f MiB, over --max-mem %llu",
                            (unsigned long long)o->max_n, mib, (unsigned long long)o->max_mem);
    return 0;
}

static int verify(int argc, char **argv, const nf_cmdline *cl)
{
    const char *prog = "nimfam fibonacci verify";
    fib_opts o = {10000, 4096, NULL, &seed_claims};
    int rc = parse_verify(argc, argv, prog, &o);
    if (rc)
        return rc < 0 ? SP_EXIT_OK : rc;
    nf_report rep;
    nf_progress pg;
    if (!nf_report_begin(&rep, prog))
        return sp_cli_fail(prog, "out of memory");
    nf_progress_init(&pg, "fibonacci");
    double t0 = sp_clock_now();
    sp_fib_table *t = sp_fib_table_new(o.max_n, &pg.p);
    if (!t) {
        free(rep.text);
        return sp_cli_fail(prog, "out of memory for the table");
    }
    if (o.claims == &wrong_claims)
        nf_say(&rep, "PLANTED ERROR: checking the Lucas numbers and the largest Zeckendorf term instead of the "
                     "seed's claims; this run must fail.\n\n");
    nf_say(&rep, "## The game-value table\n\n- every state (n tokens left, maximum take m), 1 <= m <= n <= %llu: "
                 "%llu states, from the rules alone, in %.2f s; %.1f MiB\n",
           (unsigned long long)o.max_n, (unsigned long long)sp_fib_table_states(t), sp_clock_now() - t0,
           (double)sp_fib_table_bytes(t) / 1048576);
    nf_say(&rep, "\n## The first player loses exactly from a Fibonacci number\n\n");
    bool held = check_starts(&rep, o.claims, t);
    held &= check_worked_cases(&rep, t);
    nf_say(&rep, "\n## The Zeckendorf strategy: take the smallest Zeckendorf term when the limit allows\n\n");
    held &= check_strategy(&rep, o.claims, t, &pg);
    nf_say(&rep, "\n## The seed's example game\n\n");
    held &= check_example(&rep, t);
    sp_fib_table_free(t);
    return nf_report_end(&rep, "Fibonacci Nim: verification", o.out, "fibonacci.md", cl, held);
}

/* ---------------------------------------------------------------- play */

/* Asks until the person types a legal take; 0 at end of input. */
static uint64_t human_take(uint64_t n, uint64_t m)
{
    char line[256];
    uint64_t lim = m < n ? m : n;
    for (;;) {
        uint64_t v;
        if (!nf_prompt("Your take: ", line, sizeof line))
            return 0;
        if (nf_numbers(line, &v, 1) != 1)
            printf("Type how many tokens you take, a number from 1 to %llu.\n", (unsigned long long)lim);
        else if (v < 1 || v > lim)
            printf("You may take from 1 to %llu tokens%s.\n", (unsigned long long)lim,
                   m < n ? " (at most twice the previous take, and the first move must leave one)" : "");
        else
            return v;
    }
}

static bool ask_tokens(const char *prog, const char *opt, uint64_t *n)
{
    char line[256];
    if (opt)
        return sp_cli_parse_u64(opt, 2, PLAY_MAX_N, n) || (sp_cli_usage(prog, "bad --tokens"), false);
    for (;;) {
        if (!nf_prompt("How many tokens on the pile (2 to 20000)? ", line, sizeof line))
            return false;
        if (nf_numbers(line, n, 1) == 1 && *n >= 2 && *n <= PLAY_MAX_N)
            return true;
        printf("Please type a number from 2 to %d.\n", PLAY_MAX_N);
    }
}

static int parse_play(int argc, char **argv, const char *prog, const char **tokens, const char **first)
{
    static const struct option opts[] = {{"tokens", required_argument, 0, 't'}, {"first", required_argument, 0, 'f'},
                                         {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    uint64_t v;
    bool dummy;
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h')
            return fputs(play_usage, stdout), -1;
        if (c == 't' && !sp_cli_parse_u64(optarg, 2, PLAY_MAX_N, &v))
            return sp_cli_usage(prog, "--tokens needs a number from 2 to %d, not '%s'", PLAY_MAX_N, optarg);
        if (c == 't')
            *tokens = optarg;
        if (c == 'f' && !nf_parse_first(optarg, &dummy))
            return sp_cli_usage(prog, "--first needs 'me' or 'machine', not '%s'", optarg);
        if (c == 'f')
            *first = optarg;
        if (c == '?' || c == ':')
            return sp_cli_bad_option(prog, argv, "");
    }
    if (optind != argc)
        return sp_cli_usage(prog, "unexpected argument '%s' (see --help)", argv[optind]);
    return 0;
}

/* Plays from n tokens until the pile is empty; false at end of input. */
static bool play_game(const sp_fib_table *t, uint64_t n, bool human)
{
    uint64_t m = n - 1;
    while (n > 0) {
        uint64_t lim = m < n ? m : n, k;
        printf("Pile: %llu token%s; %s may take 1 to %llu.\n", (unsigned long long)n, n == 1 ? "" : "s",
               human ? "you" : "the machine", (unsigned long long)lim);
        if (human && !(k = human_take(n, m)))
            return false;
        if (!human) {
            k = sp_fib_winning_take(t, n, m);
            k = k ? k : 1;
            printf("The machine takes %llu.\n", (unsigned long long)k);
        }
        n -= k;
        m = 2 * k;
        human = !human;
    }
    printf(human ? "The machine took the last token: the machine wins.\n" : "You took the last token: you win!\n");
    return true;
}

static int play(int argc, char **argv, const nf_cmdline *cl)
{
    (void)cl;
    const char *prog = "nimfam fibonacci play", *tokens = NULL, *first = NULL;
    int rc = parse_play(argc, argv, prog, &tokens, &first);
    if (rc)
        return rc < 0 ? SP_EXIT_OK : rc;
    uint64_t n;
    bool human;
    printf("Fibonacci Nim: the first move must leave a token; then each take is 1 to twice the previous\n"
           "take; who takes the last token wins.\n");
    if (!ask_tokens(prog, tokens, &n) || !nf_who_starts(first, &human))
        return nf_input_ended();
    sp_fib_table *t = sp_fib_table_new(n, NULL);
    if (!t)
        return sp_cli_fail(prog, "out of memory");
    bool finished = play_game(t, n, human);
    sp_fib_table_free(t);
    return finished ? SP_EXIT_OK : nf_input_ended();
}

const nf_game nf_fibonacci = {"fibonacci", "Fibonacci Nim: one pile, take 1 to twice the previous take", verify, play};
