/* bench_common.c: what the benchmarks of `sprouts-bench` share (bench.h): the usage text, medians,
 * and the options of a benchmark over a sample. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "cli.h"

const char sp_bench_usage[] =
    "Usage: sprouts-bench canon [--positions N] [--seed S] [--runs R]\n"
    "       sprouts-bench normal|misere [--from A] [--to B] [--threads T] [--tt-mb M] [--runs R]\n"
    "                                   [--sequential] [--misere-lives L] [--misere-sum-lives L2]\n"
    "       sprouts-bench scaling [--from A] [--to B] [--threads T] [--tt-mb M] [--runs R] [--misere]\n"
    "       sprouts-bench moves [--games N] [--seed S] [--runs R]\n"
    "       sprouts-bench simulate [--workers P,P,...] [--from A] [--to B] [--min-seconds S]\n"
    "                              [--job-nodes N] [--seed-leaves L] [--expand-after J]\n"
    "                              [--message-us U] [--tt-mb M] [--worker-tt-mb M] [--team T]\n"
    "canon: canonical forms and canonical children per second (one thread) on positions sampled from\n"
    "       random games of 0*10..0*20, and how often a GLOP-style heuristic form fails to identify\n"
    "       equivalent positions (random images under the symmetries) where the exact form does not.\n"
    "normal, misere: solves 0*A..0*B one by one, each in a fresh process (so that peak memory is its\n"
    "       own), and prints per n: outcome, seconds, nodes, nodes/s, peak memory, threads; with\n"
    "       --runs R the median of R runs; with --sequential one solver goes through all n in\n"
    "       turn, keeping what it learned (as 'sprouts table' does). misere: --misere-lives L values\n"
    "       the lands of at most L lives (0: plain search over whole positions), --misere-sum-lives L2\n"
    "       every land of a sum but the largest up to L2 lives (0: up to L); the solver's defaults\n"
    "       without them. The table then also gives both limits, the land values and games stored,\n"
    "       and whether the game table or the land store ran out of room.\n"
    "scaling: for each n, rounds of: 0*n on one thread, on T threads (--threads, default 2), then\n"
    "       T one-thread solves at once, each in a fresh process; prints the medians of the times,\n"
    "       of the speed-up, of the ceiling (the summed speed of the T solves at once, in units of\n"
    "       one alone: what T cores give on this machine just now) and of the speed-up's share of it.\n"
    "       Defaults: --from 15 --to 15 --runs 3 --tt-mb 1024; --misere for misere play.\n"
    "moves: what simplifying a child and making it canonical costs per move when two threads share\n"
    "       the moves of each land (both on the same land at the same time), by how they split\n"
    "       them: one thread alone, a half each, every other move, blocks of 16, and from both ends\n"
    "       (one up from the first move, one down from the last, as the solver's shared rounds do);\n"
    "       on the lands of N random games (default 300) of 0*18..0*21, 6 to 15 moves in; the\n"
    "       median of R runs (default 9).\n"
    "simulate: the farm (a leader's proof-number tree, jobs of N nodes on its most-proving leaves,\n"
    "       land nimbers forwarded) with P workers simulated one after another on this thread in\n"
    "       virtual time: a job costs the thread time it took, the leader its own, a message U us\n"
    "       each way (default 50). Per n, today's search on one thread first (tt M MiB, default\n"
    "       1024); a size it solves in under S seconds (default 10) is skipped; then one line per\n"
    "       (n, P): speed-up (one thread's time over the virtual time), nodes ratio, idle share of\n"
    "       the workers. Defaults: --workers 1,2,4,8,16,32,64 --from 21 --to 30, N 20000, L 4, J 1,\n"
    "       each worker's table 256 MiB (touched as used). --team T: P cores as P/T workers, each\n"
    "       a team of T threads (a job then costs its wall time here: true while T cores are free);\n"
    "       of the default --workers, those T divides.\n";

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double sp_bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int sp_bench_sample_options(int argc, char **argv, const char *prog, const char *name, uint64_t max, uint64_t *count,
                            uint64_t *seed, uint64_t *runs)
{
    const struct option opts[] = {{name, required_argument, 0, 'n'}, {"seed", required_argument, 0, 's'},
                                  {"runs", required_argument, 0, 'r'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h')
            return fputs(sp_bench_usage, stdout), SP_EXIT_OK;
        uint64_t *dst = c == 'n' ? count : c == 's' ? seed : c == 'r' ? runs : NULL;
        if (!dst)
            return sp_cli_bad_option(prog, argv, "");
        if (!sp_cli_parse_u64(optarg, c == 's' ? 0 : 1, c == 'r' ? 99 : max, dst))
            return sp_cli_usage(prog, "bad value '%s'", optarg);
    }
    return -1;
}
