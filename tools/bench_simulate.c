/* bench_simulate.c: `sprouts-bench simulate`: the farm (farm.h) with P workers simulated in virtual
 * time on this thread, against today's one-thread search, for machines this one is not. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "canonical.h"
#include "cli.h"
#include "clock.h"
#include "farm.h"
#include "options.h"

#define MAX_P 16 /* how many worker counts one run takes */

typedef struct sim_opts {
    unsigned from, to, np, p[MAX_P];
    unsigned team; /* cores per farm worker: P cores are P / team workers, each a team */
    double min_seconds;
    sp_farm_opts farm;
    sp_solver_opts one; /* today's one-thread search */
} sim_opts;

static int parse_workers(const char *prog, const char *arg, sim_opts *s)
{
    char *end;
    s->np = 0;
    for (const char *p = arg; *p; p = *end == ',' ? end + 1 : end) {
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || v < 1 || v > 4096 || s->np == MAX_P || (*end && *end != ','))
            return sp_cli_usage(prog, "--workers needs up to %d numbers from 1 to 4096 joined by commas, not '%s'",
                                MAX_P, arg);
        s->p[s->np++] = (unsigned)v;
    }
    return s->np ? 0 : sp_cli_usage(prog, "--workers needs at least one number");
}

static int set_number(const char *prog, int c, uint64_t v, sim_opts *s)
{
    if ((c == 'f' || c == 't') && v > 200)
        return sp_cli_usage(prog, "0*%llu is too large (at most 200 spots)", (unsigned long long)v);
    switch (c) {
    case 'f': s->from = (unsigned)v; break;
    case 't': s->to = (unsigned)v; break;
    case 's': s->min_seconds = (double)v; break;
    case 'j': s->farm.job_nodes = v; break;
    case 'l': s->farm.seed_leaves = (unsigned)v; break;
    case 'e': s->farm.expand_after = (unsigned)v; break;
    case 'T': s->team = (unsigned)v; break;
    default: s->farm.message_seconds = (double)v * 1e-6; break;
    }
    return 0;
}

static int parse(int argc, char **argv, sim_opts *s)
{
    static const struct option opts[] = {
        {"workers", required_argument, 0, 'w'},     {"from", required_argument, 0, 'f'},
        {"to", required_argument, 0, 't'},          {"min-seconds", required_argument, 0, 's'},
        {"job-nodes", required_argument, 0, 'j'},   {"seed-leaves", required_argument, 0, 'l'},
        {"expand-after", required_argument, 0, 'e'}, {"message-us", required_argument, 0, 'u'},
        {"tt-mb", required_argument, 0, 'm'},       {"worker-tt-mb", required_argument, 0, 'W'},
        {"team", required_argument, 0, 'T'},        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    const char *prog = "sprouts-bench simulate";
    int c, rc = 0, given = 0;
    uint64_t v;
    while (rc == 0 && (c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h')
            return fputs(sp_bench_usage, stdout), SP_EXIT_OK;
        if (c == 'w') {
            rc = parse_workers(prog, optarg, s), given = 1;
        } else if (c == 'm') {
            rc = sp_opt_tt_mb(prog, optarg, &s->one);
        } else if (c == 'W') {
            rc = sp_opt_tt_mb(prog, optarg, &s->farm.worker);
            s->farm.leader.tt_bytes = s->farm.worker.tt_bytes;
        } else if (strchr("ftsjleuT", c) &&
                   sp_cli_parse_u64(optarg, c == 's' || c == 'u' ? 0 : 1, c == 'T' ? 64 : 1000000000, &v)) {
            rc = set_number(prog, c, v, s);
        } else {
            return strchr("ftsjleuT", c) ? sp_cli_usage(prog, "bad value '%s'", optarg) : sp_cli_bad_option(prog, argv, "");
        }
    }
    if (rc == 0 && s->from > s->to)
        rc = sp_cli_usage(prog, "--from is after --to");
    unsigned kept = 0; /* the default counts that a team divides; given ones must all be */
    for (unsigned i = 0; rc == 0 && i < s->np; i++)
        if (s->p[i] % s->team == 0)
            s->p[kept++] = s->p[i];
        else if (given)
            rc = sp_cli_usage(prog, "--workers %u is not a multiple of --team %u", s->p[i], s->team);
    s->np = kept;
    if (rc == 0 && kept == 0)
        rc = sp_cli_usage(prog, "--team %u divides none of the default --workers", s->team);
    return rc ? rc : -1;
}

/* Today's search on one thread: its outcome, thread seconds and nodes. */
static int one_thread(const sim_opts *s, const sp_tok *key, size_t len, sp_outcome *o, double *secs, uint64_t *nodes)
{
    sp_solver *solver = sp_solver_new(&s->one);
    if (!solver)
        return -1;
    double t0 = sp_clock_thread();
    *o = sp_solver_outcome(solver, key, len, SP_PLAY_NORMAL);
    *secs = sp_clock_thread() - t0;
    sp_solver_stats st;
    sp_solver_stats_get(solver, &st);
    *nodes = st.nodes;
    sp_solver_free(solver);
    return *o == SP_UNKNOWN ? -1 : 0;
}

static int simulate(const sim_opts *s, unsigned n, unsigned p, const sp_tok *key, size_t len, sp_outcome want,
                    double t1, uint64_t n1)
{
    sp_farm_opts fo = s->farm;
    fo.workers = p / s->team;
    fo.team = s->team;
    fo.driver = SP_FARM_SIMULATED;
    sp_farm *f = sp_farm_new(&fo);
    if (!f)
        return sp_cli_fail("sprouts-bench simulate", "cannot allocate %u workers", p);
    sp_outcome o = sp_farm_couple(f, key, len, 0);
    sp_farm_stats st;
    sp_farm_stats_get(f, &st);
    sp_farm_free(f);
    char team[32] = "";
    if (s->team > 1)
        snprintf(team, sizeof team, " team=%u", s->team);
    if (o != want)
        return sp_cli_fail("sprouts-bench simulate", "0*%u with %u workers: %s, not %s", n, p,
                           o == SP_UNKNOWN ? "undecided" : o == SP_WIN ? "win" : "loss", want == SP_WIN ? "win" : "loss");
    printf("n=%u workers=%u%s speedup=%.2f nodes_ratio=%.2f idle=%.2f seconds=%.2f jobs=%llu cancelled=%llu "
           "leader_steps=%llu\n", n, p, team, t1 / st.seconds, (double)st.nodes / (double)n1,
           1 - st.busy / (fo.workers * st.seconds),
           st.seconds, (unsigned long long)st.jobs, (unsigned long long)st.cancelled,
           (unsigned long long)st.leader_steps);
    fflush(stdout);
    return 0;
}

int sp_bench_simulate(int argc, char **argv)
{
    sim_opts s = {.from = 21, .to = 30, .np = 7, .p = {1, 2, 4, 8, 16, 32, 64}, .min_seconds = 10, .team = 1};
    s.one = (sp_solver_opts){.tt_bytes = (size_t)1024 << 20, .threads = 1};
    s.farm.worker = s.farm.leader = (sp_solver_opts){.tt_bytes = (size_t)256 << 20, .threads = 1};
    s.farm.message_seconds = 50e-6;
    int rc = parse(argc, argv, &s);
    if (rc >= 0)
        return rc;
    printf("mode: the farm, workers simulated in virtual time (a job costs its thread time, a message %.0f us\n"
           "each way), against today's search on one thread (tt %zu MiB; the workers' %zu MiB each)\n",
           s.farm.message_seconds * 1e6, s.one.tt_bytes >> 20, s.farm.worker.tt_bytes >> 20);
    if (s.team > 1)
        printf("each worker a team of %u threads on as many cores (a job costs its wall time on this machine:\n"
               "true only while %u of its cores are free)\n", s.team, s.team);
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    if (!ctx)
        return sp_cli_fail("sprouts-bench simulate", "out of memory");
    for (unsigned n = s.from; n <= s.to && rc < 0; n++) {
        sp_tok key[SP_KEY_MAX];
        sp_pos pos;
        sp_pos_spots(&pos, n);
        size_t len = sp_canon_pos(ctx, &pos, key);
        sp_outcome o;
        double t1;
        uint64_t n1;
        if (one_thread(&s, key, len, &o, &t1, &n1)) {
            rc = sp_cli_fail("sprouts-bench simulate", "0*%u: the one-thread search failed", n);
            break;
        }
        printf("n=%u one_thread_seconds=%.2f nodes=%llu outcome=%s%s\n", n, t1, (unsigned long long)n1,
               o == SP_WIN ? "win" : "loss", t1 < s.min_seconds ? " (under --min-seconds: skipped)" : "");
        for (unsigned i = 0; i < s.np && t1 >= s.min_seconds && rc < 0; i++)
            if (simulate(&s, n, s.p[i], key, len, o, t1, n1))
                rc = 1;
    }
    sp_canon_ctx_free(ctx);
    return rc < 0 ? 0 : rc;
}
