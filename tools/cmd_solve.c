/* cmd_solve.c: `sprouts solve POS`: the outcome (and nimber) of one position, with the work done. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "clock.h"
#include "cmds.h"
#include "farm.h"
#include "options.h"
#include "posarg.h"
#include "progress.h"
#include "signals.h"

static const char usage[] =
    "Usage: sprouts solve POS [--misere [--misere-lives T] [--misere-sum-lives T2]] [--nimber]\n"
    "                         [--threads N] [--tt-mb M] [--nim-mb M] [--game-mb M] [--json]\n"
    "                         [--quiet] [--farm [--worker-threads T] [--lost-seconds S] | --team]\n"
    "Decides who wins POS (the player to move or the other) by exhaustive search, and prints the\n"
    "work done. POS is a position string or 0*n.\n"
    "  --misere     misère play (the player who cannot move wins); default: normal play\n"
    "  --misere-lives T  lands of at most T lives are replaced by their misère game in simplest\n"
    "               form (default 10); 0: plain search over whole positions\n"
    "  --misere-sum-lives T2  so are the lands of a sum but its largest, up to T2 lives (default 12);\n"
    "               0: no more than T\n"
    "  --nimber     also compute the nimber (normal play only)\n"
    "  --threads N  search threads (default: all cores); normal play on 8 or more runs on the\n"
    "               farm (below), fewer on the team (the threads share each expansion): the\n"
    "               faster of the two for N (docs/performance.md)\n"
    "  --tt-mb M    transposition table size in MiB (default: a quarter of memory,\n"
    "               at most 4096; the largest power of two within M)\n"
    "  --nim-mb M   nimber store (misère: land store) in MiB (default: an eighth of the table, at\n"
    "               least 16); once full, nimbers proven later are not kept\n"
    "  --game-mb M  misère game table in MiB (default: half of the table, at least 16; touched as\n"
    "               used)\n"
    "  --json       print one JSON object instead of text\n"
    "  --farm       normal play: the tree-level parallel search instead (a leader's proof-number\n"
    "               tree, its leaves searched as jobs by --threads workers, each with a table of\n"
    "               its own, --tt-mb shared out; docs/design.md), at any --threads\n"
    "  --worker-threads T  the farm (implies --farm), each worker a team of T threads that share\n"
    "               each expansion of its job: --threads N make N / T workers; under mpirun each\n"
    "               rank runs T threads (default: 2 from 16 threads on, else 1; under mpirun 1)\n"
    "  --team       normal play: the team at any --threads (deterministic node counts)\n"
    "  --lost-seconds S  under mpirun: a job unanswered after S seconds (or ten times the longest\n"
    "               job, if more) is lost with its worker, which gets no more jobs (default 600;\n"
    "               give mpirun --mca orte_enable_recovery 1,\n"
    "               or Open MPI ends the run when a rank dies; mpirun's exit status then says\n"
    "               nothing: read the output)\n"
    "  --rules R    a variant instead: bw, brussels, antwerp-cold, antwerp-hot (see 'sprouts solve\n"
    "               --rules bw --help': also how Antwerp positions give their spots colours)\n"
    "  --quiet      no progress lines on stderr\n"
    "  -h, --help\n"
    "Exit status: 0 solved, 1 interrupted or out of memory, 2 bad usage.\n";

typedef struct solve_args {
    sp_solver_opts opts;
    int misere, nimber, json, quiet, lives_given, farm, team;
    unsigned worker_threads;
    double lost_seconds;
    const char *pos;
} solve_args;

static int parse(int argc, char **argv, solve_args *a)
{
    static const struct option opts[] = {
        {"misere", no_argument, 0, 'm'},       {"nimber", no_argument, 0, 'n'}, {"threads", required_argument, 0, 't'},
        {"misere-lives", required_argument, 0, 'L'}, {"misere-sum-lives", required_argument, 0, 'S'},
        {"tt-mb", required_argument, 0, 'T'},  {"json", no_argument, 0, 'j'},   {"quiet", no_argument, 0, 'q'},
        {"nim-mb", required_argument, 0, 'N'}, {"game-mb", required_argument, 0, 'G'},
        {"farm", no_argument, 0, 'F'},         {"team", no_argument, 0, 'M'},   {"help", no_argument, 0, 'h'},
        {"lost-seconds", required_argument, 0, 'l'}, {"worker-threads", required_argument, 0, 'W'},
        {0, 0, 0, 0}};
    const char *prog = "sprouts solve";
    const char *wt = NULL;
    int c, rc = 0;
    while (rc == 0 && (c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'h': fputs(usage, stdout); return -1;
        case 'W': wt = optarg; break;
        case 'm': a->misere = 1; break;
        case 'n': a->nimber = 1; break;
        case 'j': a->json = 1; break;
        case 'q': a->quiet = 1; break;
        case 'F': a->farm = 1; break;
        case 'M': a->team = 1; break;
        case 'l': {
            uint64_t secs;
            rc = sp_cli_parse_u64(optarg, 1, 100000000, &secs)
                     ? (a->lost_seconds = (double)secs, 0)
                     : sp_cli_usage(prog, "--lost-seconds needs a number of seconds, not '%s'", optarg);
            break;
        }
        case 't': rc = sp_opt_threads(prog, optarg, &a->opts); break;
        case 'T': rc = sp_opt_tt_mb(prog, optarg, &a->opts); break;
        case 'N': rc = sp_opt_nim_mb(prog, optarg, &a->opts); break;
        case 'G': rc = sp_opt_game_mb(prog, optarg, &a->opts); break;
        case 'L':
        case 'S':
            rc = sp_opt_misere_lives(prog, c == 'L' ? "misere-lives" : "misere-sum-lives", optarg,
                                        c == 'L' ? &a->opts.misere_lives : &a->opts.misere_sum_lives);
            a->lives_given = 1;
            break;
        default: return sp_cli_bad_option(prog, argv, "");
        }
    }
    if (rc == 0 && wt)
        rc = sp_opt_worker_threads(prog, wt, &a->opts, &a->worker_threads);
    if (rc)
        return rc;
    if (optind != argc - 1)
        return sp_cli_usage(prog, "expects exactly one position (see --help)");
    if (wt && (a->misere || a->team))
        return sp_cli_usage(prog, "--worker-threads is for the farm: normal play, not --misere or --team");
    a->farm |= wt != NULL;
    if (a->misere && a->nimber)
        return sp_cli_usage(prog, "--nimber is a normal-play notion; it cannot go with --misere");
    if (a->misere && a->farm)
        return sp_cli_usage(prog, "--farm searches normal play only");
    if (a->farm && a->team)
        return sp_cli_usage(prog, "--farm and --team exclude each other");
    if (a->lost_seconds > 0 && a->misere)
        return sp_cli_usage(prog, "--lost-seconds is for the farm, which searches normal play only");
    if (!a->misere && a->lives_given)
        return sp_cli_usage(prog, "--misere-lives and --misere-sum-lives go with --misere");
    a->pos = argv[optind];
    return 0;
}

static void print_text(const solve_args *a, const char *canon, sp_outcome o, int nimber, const sp_solver_stats *s)
{
    char nodes[32], rate[32];
    sp_progress_count(nodes, sizeof nodes, (double)s->nodes);
    sp_progress_count(rate, sizeof rate, s->seconds > 0 ? (double)s->nodes / s->seconds : 0);
    printf("position: %s (canonical %s)\n", a->pos, canon);
    printf("play: %s\n", a->misere ? "misere" : "normal");
    printf("outcome: %s (the player to move %s)\n", o == SP_WIN ? "win" : "loss", o == SP_WIN ? "wins" : "loses");
    if (a->nimber)
        printf("nimber: %d\n", nimber);
    printf("work: %s nodes (%llu), %.3f s, %s nodes/s, %u thread%s, tt hits %.1f%%\n", nodes,
           (unsigned long long)s->nodes, s->seconds, rate, s->threads, s->threads == 1 ? "" : "s",
           s->tt_probes ? 100.0 * (double)s->tt_hits / (double)s->tt_probes : 0.0);
    printf("memory: tt %zu MiB (%.1f%% full, %zu MiB in use), ", s->tt_bytes >> 20,
           100.0 * (double)s->tt_filled / (double)s->tt_capacity, s->tt_used_bytes >> 20);
    if (a->misere)
        printf("misère values (lands up to %u lives, %u in sums): %llu lands, %llu games, %llu sums (%.1f of "
               "%zu MiB%s)",
               s->misere_lives, s->misere_sum_lives, (unsigned long long)s->mis_lands, (unsigned long long)s->games,
               (unsigned long long)s->sums, (double)s->game_used_bytes / (1 << 20), s->game_bytes >> 20,
               s->games_full ? ", full" : "");
    else
        printf("nimber store %llu lands (%.1f of %zu MiB%s)", (unsigned long long)s->nimbers,
               (double)s->nim_used_bytes / (1 << 20), s->nim_bytes >> 20, s->nim_full ? ", full" : "");
    printf(", land cache %.1f of %zu MiB (%.1f%% hits), peak %.0f MiB\n", (double)s->lcache_used_bytes / (1 << 20),
           s->lcache_bytes >> 20,
           s->lcache_lookups ? 100.0 * (double)s->lcache_hits / (double)s->lcache_lookups : 0.0,
           (double)s->peak_bytes / (1 << 20));
}

static void print_json(const solve_args *a, const char *canon, sp_outcome o, int nimber, const sp_solver_stats *s)
{
    printf("{\"position\": \"%s\", \"canonical\": \"%s\", \"play\": \"%s\", \"outcome\": \"%s\"", a->pos, canon,
           a->misere ? "misere" : "normal", o == SP_WIN ? "win" : "loss");
    if (a->nimber)
        printf(", \"nimber\": %d", nimber);
    printf(", \"nodes\": %llu, \"seconds\": %.3f, \"threads\": %u, \"tt_hits\": %llu, \"tt_probes\": %llu, "
           "\"tt_mb\": %zu, \"tt_used_mb\": %zu, \"tt_filled\": %llu, \"nimbers_stored\": %llu, \"land_cache_mb\": %zu, "
           "\"land_cache_hits\": %llu, \"land_cache_partial\": %llu, \"land_cache_lookups\": %llu, \"peak_mb\": %.1f",
           (unsigned long long)s->nodes, s->seconds, s->threads, (unsigned long long)s->tt_hits,
           (unsigned long long)s->tt_probes, s->tt_bytes >> 20, s->tt_used_bytes >> 20, (unsigned long long)s->tt_filled,
           (unsigned long long)s->nimbers, s->lcache_bytes >> 20, (unsigned long long)s->lcache_hits,
           (unsigned long long)s->lcache_partial, (unsigned long long)s->lcache_lookups, (double)s->peak_bytes / (1 << 20));
    if (a->misere) /* after the keys both plays share */
        printf(", \"misere_lives\": %u, \"misere_sum_lives\": %u, \"land_values\": %llu, \"games\": %llu, "
               "\"game_sums\": %llu, \"games_full\": %s, \"lost_kept\": %llu",
               s->misere_lives, s->misere_sum_lives, (unsigned long long)s->mis_lands, (unsigned long long)s->games,
               (unsigned long long)s->sums, s->games_full ? "true" : "false", (unsigned long long)s->mis_lost);
    printf("}\n");
}

/* --farm: the tree-level search on worker threads (farm.h), each with a share of the budgets. */
static int solve_farm(const solve_args *a, const char *canon, const sp_tok *key, size_t len)
{
    const char *prog = "sprouts solve";
    sp_farm_opts fo;
    sp_opt_farm(&a->opts, a->lost_seconds, a->worker_threads, &fo);
    fo.worker.stop = fo.leader.stop = &sp_signals_stop;
    sp_progress fp;
    sp_progress_init(&fp, a->pos, a->quiet ? NULL : stderr);
    fo.progress = sp_progress_farm;
    fo.progress_arg = &fp;
    sp_farm *f = sp_farm_new(&fo);
    if (!f)
        return sp_cli_fail(prog, "cannot allocate %u workers (try a smaller --tt-mb)", fo.workers);
    double t0 = sp_clock_now();
    sp_outcome o = sp_farm_couple(f, key, len, 0);
    int nimber = o == SP_WIN && a->nimber ? sp_farm_nimber(f, key, len) : 0;
    sp_farm_stats st;
    sp_farm_stats_get(f, &st);
    st.seconds = sp_clock_now() - t0;
    sp_farm_free(f);
    if (o == SP_UNKNOWN || nimber < 0)
        return sp_cli_fail(prog, atomic_load(&sp_signals_stop) ? "interrupted after %llu nodes; nothing decided"
                                 : st.lost >= st.workers ? "every worker was lost after %llu nodes; nothing decided"
                                                         : "out of memory after %llu nodes; nothing decided",
                           (unsigned long long)st.nodes);
    const char *out = o == SP_WIN ? "win" : "loss";
    if (a->json) {
        printf("{\"position\": \"%s\", \"canonical\": \"%s\", \"play\": \"normal\", \"outcome\": \"%s\"", a->pos,
               canon, out);
        if (a->nimber)
            printf(", \"nimber\": %d", nimber);
        printf(", \"nodes\": %llu, \"seconds\": %.3f, \"workers\": %u, \"worker_threads\": %u, \"jobs\": %llu, "
               "\"nimbers_sent\": %llu, \"couples_sent\": %llu, \"cancelled\": %llu, \"lost\": %llu}\n",
               (unsigned long long)st.nodes, st.seconds, st.workers, fo.team, (unsigned long long)st.jobs,
               (unsigned long long)st.nimbers_sent, (unsigned long long)st.couples_sent,
               (unsigned long long)st.cancelled, (unsigned long long)st.lost);
        return SP_EXIT_OK;
    }
    printf("position: %s (canonical %s)\nplay: normal\noutcome: %s (the player to move %s)\n", a->pos, canon, out,
           o == SP_WIN ? "wins" : "loses");
    if (a->nimber)
        printf("nimber: %d\n", nimber);
    printf("work: %llu nodes, %.3f s, %u workers of %u thread%s, %llu jobs (%.0f%% of the workers' time busy; "
           "%llu called back), %llu land nimbers and %llu decided couples forwarded\n",
           (unsigned long long)st.nodes, st.seconds, st.workers, fo.team, fo.team == 1 ? "" : "s",
           (unsigned long long)st.jobs,
           st.seconds > 0 ? 100 * st.busy / (st.workers * st.seconds) : 0, (unsigned long long)st.cancelled,
           (unsigned long long)st.nimbers_sent, (unsigned long long)st.couples_sent);
    if (st.lost)
        printf("lost: %llu jobs with their workers (no answer in %.0f s; handed out again)\n",
               (unsigned long long)st.lost, st.lost_seconds);
    return SP_EXIT_OK;
}

int sp_cmd_solve(int argc, char **argv)
{
    const char *prog = "sprouts solve";
    if (sp_cmd_rules_arg(argc, argv))
        return sp_cmd_variant_solve(argc, argv);
    solve_args a;
    memset(&a, 0, sizeof a);
    int rc = parse(argc, argv, &a);
    if (rc)
        return rc < 0 ? SP_EXIT_OK : rc;

    sp_canon_ctx *ctx = sp_canon_ctx_new();
    sp_tok key[SP_KEY_MAX];
    size_t len;
    if (!ctx)
        return sp_cli_fail(prog, "out of memory");
    rc = sp_tool_pos_key(prog, ctx, a.pos, key, &len);
    sp_canon_ctx_free(ctx);
    if (rc)
        return rc;
    char canon[4096];
    sp_tool_key_string(key, len, 0, canon, sizeof canon);

    sp_signals_catch();
    if (!a.misere && sp_opt_farm_chosen(&a.opts, a.farm, a.team))
        return solve_farm(&a, canon, key, len);
    sp_progress prog_line;
    sp_progress_init(&prog_line, a.pos, a.quiet ? NULL : stderr);
    a.opts.stop = &sp_signals_stop;
    a.opts.progress = sp_progress_line;
    a.opts.progress_arg = &prog_line;
    sp_solver *s = sp_solver_new(&a.opts);
    if (!s)
        return sp_cli_fail(prog, "cannot allocate the transposition table (try a smaller --tt-mb)");
    sp_outcome o = sp_solver_outcome(s, key, len, a.misere ? SP_PLAY_MISERE : SP_PLAY_NORMAL);
    int nimber = o == SP_UNKNOWN || !a.nimber ? 0 : o == SP_LOSS ? 0 : sp_solver_nimber(s, key, len);
    sp_progress_done(&prog_line);
    sp_solver_stats st;
    sp_solver_stats_get(s, &st);
    sp_solver_free(s);
    if (o == SP_UNKNOWN || nimber < 0) {
        char root[96] = ""; /* how far the outcome's search came */
        if (o == SP_UNKNOWN && st.root_moves > 0)
            snprintf(root, sizeof root, " (%u of %u first moves refuted, root pn %u dn %u)", st.root_refuted,
                     st.root_moves, st.root_pn, st.root_dn);
        return sp_cli_fail(prog, atomic_load(&sp_signals_stop) ? "interrupted after %llu nodes%s; nothing decided"
                                                : "out of memory after %llu nodes%s; nothing decided",
                           (unsigned long long)st.nodes, root);
    }
    (a.json ? print_json : print_text)(&a, canon, o, nimber, &st);
    return SP_EXIT_OK;
}
