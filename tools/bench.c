/* bench.c: `sprouts-bench`, the benchmarks (not tests): canonical forms and children per second,
 * exact versus GLOP-style canonical forms, and solve times of 0*n in normal and misère play. Every
 * figure is a median over --runs runs of the same work in this one process. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "cli.h"
#include "clock.h"
#include "cmds.h"
#include "expand.h"
#include "mem.h"
#include "options.h"
#include "progress.h"
#include "random.h"
#include "rng.h"
#include "solver.h"
#include "symmetry.h"


/* ---------------------------------------------------------------- canon */

typedef struct sample {
    sp_tok *tok;
    size_t *off, *len, n;
} sample;

static int sample_positions(sp_canon_ctx *ctx, size_t count, uint64_t seed, sample *s)
{
    s->tok = malloc(count * SP_KEY_MAX * sizeof(sp_tok) / 8 + SP_KEY_MAX * sizeof(sp_tok));
    s->off = malloc(count * sizeof(size_t));
    s->len = malloc(count * sizeof(size_t));
    if (!s->tok || !s->off || !s->len)
        return -1;
    size_t cap = count * SP_KEY_MAX / 8 + SP_KEY_MAX, used = 0;
    uint64_t rng = seed;
    sp_tok key[SP_KEY_MAX];
    s->n = 0;
    while (s->n < count) {
        unsigned n = 10 + (unsigned)(sp_rng_next(&rng) % 11);
        size_t len = sp_random_game(ctx, n, (unsigned)(sp_rng_next(&rng) % (2 * n)), &rng, key);
        if (len == 0 || used + len > cap)
            continue;
        memcpy(s->tok + used, key, len * sizeof(sp_tok));
        s->off[s->n] = used;
        s->len[s->n++] = len;
        used += len;
    }
    return 0;
}

/* Exact versus heuristic: for each position, images under random symmetries; a form "splits" a
 * position when its images do not all get the key of the original. */
static void compare_forms(sp_canon_ctx *ctx, const sample *s, uint64_t seed)
{
    uint64_t rng = seed ^ 0x5eed;
    size_t split_exact = 0, split_glop = 0, images = 0;
    for (size_t i = 0; i < s->n; i++) {
        sp_pos p, q;
        sp_key_decode(s->tok + s->off[i], s->len[i], &p);
        sp_tok a[SP_KEY_MAX], b[SP_KEY_MAX], g0[SP_KEY_MAX], g1[SP_KEY_MAX];
        size_t la = sp_canon_pos(ctx, &p, a), lg = sp_sym_glop_form(&p, g0);
        int se = 0, sg = 0;
        for (int k = 0; k < 8; k++, images++) {
            sp_sym_random_image(&p, &q, &rng);
            size_t lb = sp_canon_pos(ctx, &q, b), lh = sp_sym_glop_form(&q, g1);
            se |= sp_key_cmp(a, la, b, lb) != 0;
            sg |= sp_key_cmp(g0, lg, g1, lh) != 0;
        }
        split_exact += se;
        split_glop += sg;
    }
    printf("forms: %zu positions, 8 random images each (%zu images)\n", s->n, images);
    printf("  exact form: %zu positions (%.2f%%) had an image with another key\n", split_exact,
           100.0 * (double)split_exact / (double)s->n);
    printf("  GLOP-style: %zu positions (%.2f%%) had an image with another key\n", split_glop,
           100.0 * (double)split_glop / (double)s->n);
}

static int bench_canon(int argc, char **argv)
{
    const char *prog = "sprouts-bench canon";
    uint64_t count = 2000, seed = 1, runs = 5;
    int rc = sp_bench_sample_options(argc, argv, prog, "positions", 10000000, &count, &seed, &runs);
    if (rc >= 0)
        return rc;
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    sample s;
    if (!ctx || sample_positions(ctx, count, seed, &s))
        return sp_cli_fail(prog, "out of memory");
    double canon_rate[99], child_rate[99];
    size_t children = 0;
    sp_children ch;
    sp_children_init(&ch);
    for (uint64_t r = 0; r < runs; r++) {
        double t0 = sp_clock_now();
        size_t forms = 0;
        for (size_t i = 0; i < s.n; i++) {
            sp_pos p;
            sp_tok key[SP_KEY_MAX];
            sp_key_decode(s.tok + s.off[i], s.len[i], &p);
            sp_canon_pos(ctx, &p, key);
            forms++;
        }
        canon_rate[r] = (double)forms / (sp_clock_now() - t0);
        t0 = sp_clock_now();
        children = 0;
        for (size_t i = 0; i < s.n; i++) {
            sp_expand_pos(ctx, NULL, s.tok + s.off[i], s.len[i], &ch);
            children += ch.n;
        }
        child_rate[r] = (double)children / (sp_clock_now() - t0);
    }
    printf("sample: %zu positions from random games of 0*10..0*20 (seed %llu), %zu distinct children\n", s.n,
           (unsigned long long)seed, children);
    printf("canonical forms: %.0f per second (median of %llu runs)\n", sp_bench_median(canon_rate, (int)runs),
           (unsigned long long)runs);
    printf("canonical children: %.0f per second (median of %llu runs)\n", sp_bench_median(child_rate, (int)runs),
           (unsigned long long)runs);
    printf("inexact keys (search cap reached): %llu\n", (unsigned long long)sp_canon_ctx_inexact(ctx));
    compare_forms(ctx, &s, seed);
    sp_children_free(&ch);
    sp_canon_ctx_free(ctx);
    free(s.tok), free(s.off), free(s.len);
    return SP_EXIT_OK;
}

/* ---------------------------------------------------------------- solving 0*n */

typedef struct solve_result {
    int outcome;
    double seconds;
    unsigned long long nodes, lands, games;
    long peak_kb;
    unsigned lives, sum_lives;
    int full;
} solve_result;

/* Solves 0*from..0*to with one solver in a child process (so that its peak memory is its own),
 * writing one solve_result per n: work and time per n, the peak memory so far. */
static void child_solves(int fd, unsigned from, unsigned to, sp_play play, const sp_solver_opts *o)
{
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    sp_solver *s = sp_solver_new(o);
    uint64_t nodes_before = 0;
    for (unsigned n = from; n <= to; n++) {
        sp_pos p;
        sp_tok key[SP_KEY_MAX];
        sp_pos_spots(&p, n);
        size_t len = sp_canon_pos(ctx, &p, key);
        solve_result r = {.outcome = -1};
        if (s) {
            r.outcome = sp_solver_outcome(s, key, len, play);
            sp_solver_stats st;
            sp_solver_stats_get(s, &st);
            r.seconds = st.seconds;
            r.nodes = (unsigned long long)(st.nodes - nodes_before);
            nodes_before = st.nodes;
            r.lands = (unsigned long long)st.mis_lands;
            r.games = (unsigned long long)st.games;
            r.lives = st.misere_lives;
            r.sum_lives = st.misere_sum_lives;
            r.full = st.games_full;
        }
        r.peak_kb = (long)(sp_mem_peak() >> 10);
        if (write(fd, &r, sizeof r) != (ssize_t)sizeof r)
            break;
    }
}

/* Starts the solves of 0*from..0*to in a child process; its results come through *fd. */
static pid_t start_solves(unsigned from, unsigned to, sp_play play, const sp_solver_opts *o, int *fd)
{
    int p[2];
    if (pipe(p))
        return -1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        child_solves(p[1], from, to, play, o);
        _exit(0);
    }
    close(p[1]);
    if (pid < 0)
        close(p[0]);
    *fd = p[0];
    return pid;
}

static int finish_solves(pid_t pid, int fd, unsigned count, solve_result *res)
{
    int bad = 0;
    for (unsigned i = 0; i < count; i++)
        bad |= read(fd, &res[i], sizeof *res) != (ssize_t)sizeof *res || res[i].outcome < 0;
    close(fd);
    int status;
    waitpid(pid, &status, 0);
    return !bad && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int solve_in_child(unsigned from, unsigned to, sp_play play, const sp_solver_opts *o, solve_result *res)
{
    int fd;
    pid_t pid = start_solves(from, to, play, o, &fd);
    return pid < 0 ? -1 : finish_solves(pid, fd, to - from + 1, res);
}

/* --from A, --to B, --runs R (options 'f', 't', 'r') of the solve benchmarks. */
static int range_option(const char *prog, int c, const char *arg, uint64_t *from, uint64_t *to, uint64_t *runs)
{
    const char *name = c == 'f' ? "--from" : c == 't' ? "--to" : "--runs";
    uint64_t *v = c == 'f' ? from : c == 't' ? to : runs;
    return sp_cli_parse_u64(arg, 1, c == 'r' ? 99 : 200, v) ? 0 : sp_cli_usage(prog, "bad %s '%s'", name, arg);
}

static int bench_solve(int argc, char **argv, sp_play play)
{
    static const struct option opts[] = {{"from", required_argument, 0, 'f'}, {"to", required_argument, 0, 't'},
                                         {"threads", required_argument, 0, 'T'}, {"tt-mb", required_argument, 0, 'm'},
                                         {"runs", required_argument, 0, 'r'}, {"sequential", no_argument, 0, 's'},
                                         {"misere-lives", required_argument, 0, 'L'},
                                         {"misere-sum-lives", required_argument, 0, 'S'},
                                         {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *prog = play == SP_PLAY_NORMAL ? "sprouts-bench normal" : "sprouts-bench misere";
    uint64_t from = 10, to = play == SP_PLAY_NORMAL ? 14 : 9, runs = 1;
    sp_solver_opts o = {.tt_bytes = (size_t)1024 << 20, .threads = 1};
    int c, rc = 0, sequential = 0;
    while (rc == 0 && (c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'h': return fputs(sp_bench_usage, stdout), SP_EXIT_OK;
        case 'f':
        case 't':
        case 'r': rc = range_option(prog, c, optarg, &from, &to, &runs); break;
        case 's': sequential = 1; break;
        case 'T': rc = sp_opt_threads(prog, optarg, &o); break;
        case 'm': rc = sp_opt_tt_mb(prog, optarg, &o); break;
        case 'L':
        case 'S':
            rc = play != SP_PLAY_MISERE ? sp_cli_usage(prog, "--misere-lives and --misere-sum-lives go with misere")
                 : sp_opt_misere_lives(prog, c == 'L' ? "misere-lives" : "misere-sum-lives", optarg,
                                          c == 'L' ? &o.misere_lives : &o.misere_sum_lives);
            break;
        default: return sp_cli_bad_option(prog, argv, "");
        }
    }
    if (rc || from > to)
        return rc ? rc : sp_cli_usage(prog, "--from is after --to");
    unsigned count = (unsigned)(to - from + 1);
    solve_result *res = calloc((size_t)count * runs, sizeof *res);
    if (!res)
        return sp_cli_fail(prog, "out of memory");
    /* run k of every n: fresh mode solves each n in its own process, sequential mode all n in one */
    for (uint64_t k = 0; k < runs && rc == 0; k++)
        for (unsigned n = (unsigned)from; n <= to && rc == 0; n = sequential ? (unsigned)to + 1 : n + 1)
            if (solve_in_child(n, sequential ? (unsigned)to : n, play, &o, res + k * count + (n - from)))
                rc = sp_cli_fail(prog, "0*%u: the solver failed", n);
    printf("mode: %s, %u thread%s, tt %zu MiB, median of %llu run%s\n",
           sequential ? "sequential (one solver for all n, as sprouts table)" : "fresh (one process per n)", o.threads,
           o.threads == 1 ? "" : "s", o.tt_bytes >> 20, (unsigned long long)runs, runs == 1 ? "" : "s");
    bool mis = play == SP_PLAY_MISERE;
    printf("%-4s %-8s %10s %14s %12s %10s%s\n", "n", "outcome", "seconds", "nodes", "nodes/s", "peak MiB",
           mis ? "   lives  in sums   land values        games  full" : "");
    double total = 0;
    for (unsigned i = 0; i < count && rc == 0; i++) {
        double secs[99];
        for (uint64_t k = 0; k < runs; k++)
            secs[k] = res[k * count + i].seconds;
        const solve_result *r = &res[i];
        double med = sp_bench_median(secs, (int)runs);
        total += med;
        printf("%-4llu %-8s %10.2f %14llu %12.0f %10.1f", (unsigned long long)from + i,
               r->outcome == SP_WIN ? "win" : "loss", med, r->nodes, med > 0 ? (double)r->nodes / med : 0,
               (double)r->peak_kb / 1024);
        if (mis)
            printf(" %7u %8u %13llu %12llu  %s", r->lives, r->sum_lives, r->lands, r->games, r->full ? "yes" : "no");
        printf("\n");
        fflush(stdout);
    }
    if (rc == 0)
        printf("total %.2f s\n", total);
    free(res);
    return rc;
}

/* ---------------------------------------------------------------- scaling */

#define SCALING_MAX 64 /* threads */

/* One round for 0*n: one thread alone, T threads, then T one-thread solves at once. The last says
 * what T cores of this machine can do together just now (shared caches, memory, turbo, other
 * tenants), in units of one core alone: the ceiling the T-thread speed-up is measured against. */
static int scaling_round(unsigned n, sp_play play, const sp_solver_opts *o, double *t1, double *tt, double *ceiling,
                         solve_result *one)
{
    sp_solver_opts single = *o;
    single.threads = 1;
    solve_result many, alone[SCALING_MAX];
    pid_t pid[SCALING_MAX];
    int fd[SCALING_MAX], rc = 0;
    if (solve_in_child(n, n, play, &single, one) || solve_in_child(n, n, play, o, &many))
        return -1;
    for (unsigned i = 0; i < o->threads; i++)
        pid[i] = start_solves(n, n, play, &single, &fd[i]);
    for (unsigned i = 0; i < o->threads; i++)
        rc |= pid[i] < 0 || finish_solves(pid[i], fd[i], 1, &alone[i]);
    if (rc || one->outcome != many.outcome)
        return -1;
    *t1 = one->seconds;
    *tt = many.seconds;
    *ceiling = 0;
    for (unsigned i = 0; i < o->threads; i++)
        *ceiling += one->seconds / alone[i].seconds;
    return 0;
}

static int bench_scaling(int argc, char **argv)
{
    static const struct option opts[] = {{"from", required_argument, 0, 'f'}, {"to", required_argument, 0, 't'},
                                         {"threads", required_argument, 0, 'T'}, {"tt-mb", required_argument, 0, 'm'},
                                         {"runs", required_argument, 0, 'r'}, {"misere", no_argument, 0, 'M'},
                                         {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *prog = "sprouts-bench scaling";
    uint64_t from = 15, to = 15, runs = 3;
    sp_solver_opts o = {.tt_bytes = (size_t)1024 << 20, .threads = 2};
    sp_play play = SP_PLAY_NORMAL;
    int c, rc = 0;
    while (rc == 0 && (c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'h': return fputs(sp_bench_usage, stdout), SP_EXIT_OK;
        case 'f':
        case 't':
        case 'r': rc = range_option(prog, c, optarg, &from, &to, &runs); break;
        case 'T': rc = sp_opt_threads(prog, optarg, &o); break;
        case 'm': rc = sp_opt_tt_mb(prog, optarg, &o); break;
        case 'M': play = SP_PLAY_MISERE; break;
        default: return sp_cli_bad_option(prog, argv, "");
        }
    }
    if (rc || from > to)
        return rc ? rc : sp_cli_usage(prog, "--from is after --to");
    if (o.threads < 2 || o.threads > SCALING_MAX)
        return sp_cli_usage(prog, "--threads must be from 2 to %d", SCALING_MAX);
    printf("mode: %u threads against 1, %s play, tt %zu MiB per solve, median of %llu round%s; a round: one\n"
           "thread alone, %u threads, then %u one-thread solves at once (their summed speed, in units of one\n"
           "alone, is the ceiling: what %u cores of this machine give just now)\n",
           o.threads, play == SP_PLAY_NORMAL ? "normal" : "misere", o.tt_bytes >> 20, (unsigned long long)runs,
           runs == 1 ? "" : "s", o.threads, o.threads, o.threads);
    printf("%-4s %-8s %14s %12s %12s %9s %9s %11s\n", "n", "outcome", "nodes", "1 thread s", "threads s", "speed-up",
           "ceiling", "of ceiling");
    for (unsigned n = (unsigned)from; n <= to && rc == 0; n++) {
        double t1[99], tt[99], ceil[99], speed[99], share[99];
        solve_result one;
        for (uint64_t k = 0; k < runs && rc == 0; k++) {
            if (scaling_round(n, play, &o, &t1[k], &tt[k], &ceil[k], &one))
                rc = sp_cli_fail(prog, "0*%u: the solver failed", n);
            speed[k] = t1[k] / tt[k];
            share[k] = speed[k] / ceil[k];
        }
        if (rc == 0)
            printf("%-4u %-8s %14llu %12.2f %12.2f %9.2f %9.2f %10.0f%%\n", n, one.outcome == SP_WIN ? "win" : "loss",
                   one.nodes, sp_bench_median(t1, (int)runs), sp_bench_median(tt, (int)runs), sp_bench_median(speed, (int)runs),
                   sp_bench_median(ceil, (int)runs), 100 * sp_bench_median(share, (int)runs));
        fflush(stdout);
    }
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return sp_cli_usage("sprouts-bench", "missing benchmark (see --help)");
    sp_cli_getopt_reset();
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
        return fputs(sp_bench_usage, stdout), SP_EXIT_OK;
    if (!strcmp(argv[1], "canon"))
        return bench_canon(argc - 1, argv + 1);
    if (!strcmp(argv[1], "normal"))
        return bench_solve(argc - 1, argv + 1, SP_PLAY_NORMAL);
    if (!strcmp(argv[1], "misere"))
        return bench_solve(argc - 1, argv + 1, SP_PLAY_MISERE);
    if (!strcmp(argv[1], "scaling"))
        return bench_scaling(argc - 1, argv + 1);
    if (!strcmp(argv[1], "moves"))
        return sp_bench_moves(argc - 1, argv + 1);
    if (!strcmp(argv[1], "simulate"))
        return sp_bench_simulate(argc - 1, argv + 1);
    return sp_cli_usage("sprouts-bench", "unknown benchmark '%s' (see --help)", argv[1]);
}
