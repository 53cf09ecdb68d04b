/* options.c: the solver options of the solving subcommands, parsed from the command line
 * (options.h). */
#include "options.h"

#include <unistd.h>

#include "cli.h"
#include "tune.h"

int sp_opt_threads(const char *prog, const char *arg, sp_solver_opts *opts)
{
    uint64_t v;
    if (!sp_cli_parse_u64(arg, 1, 1024, &v))
        return sp_cli_usage(prog, "--threads needs a number from 1 to 1024, not '%s'", arg);
    opts->threads = (unsigned)v;
    return 0;
}

static int parse_mb(const char *prog, const char *name, uint64_t least, const char *arg, size_t *bytes)
{
    uint64_t v, most = (uint64_t)1 << 22;
    if (!sp_cli_parse_u64(arg, least, most, &v))
        return sp_cli_usage(prog, "--%s needs a size in MiB from %llu to %llu, not '%s'", name,
                            (unsigned long long)least, (unsigned long long)most, arg);
    *bytes = (size_t)v << 20;
    return 0;
}

int sp_opt_tt_mb(const char *prog, const char *arg, sp_solver_opts *opts)
{
    return parse_mb(prog, "tt-mb", 1, arg, &opts->tt_bytes);
}

int sp_opt_nim_mb(const char *prog, const char *arg, sp_solver_opts *opts)
{
    return parse_mb(prog, "nim-mb", 16, arg, &opts->nim_bytes);
}

int sp_opt_game_mb(const char *prog, const char *arg, sp_solver_opts *opts)
{
    return parse_mb(prog, "game-mb", 16, arg, &opts->game_bytes);
}

int sp_opt_misere_lives(const char *prog, const char *name, const char *arg, int *dst)
{
    uint64_t v;
    if (!sp_cli_parse_u64(arg, 0, 1000, &v))
        return sp_cli_usage(prog, "--%s needs a number from 0 to 1000, not '%s'", name, arg);
    *dst = v ? (int)v : -1;
    return 0;
}

/* --threads, or all cores when it is not given. */
static unsigned threads_of(const sp_solver_opts *so)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return so->threads ? so->threads : cores > 0 ? (unsigned)cores : 1;
}

int sp_opt_worker_threads(const char *prog, const char *arg, const sp_solver_opts *so, unsigned *dst)
{
    uint64_t v;
    if (!sp_cli_parse_u64(arg, 1, 1024, &v))
        return sp_cli_usage(prog, "--worker-threads needs a number from 1 to 1024, not '%s'", arg);
    if (sp_farm_mpi_ranks() <= 1 && v > threads_of(so))
        return sp_cli_usage(prog, "--worker-threads %llu is more than the %u threads of the run (--threads)",
                            (unsigned long long)v, threads_of(so));
    *dst = (unsigned)v;
    return 0;
}

bool sp_opt_farm_chosen(const sp_solver_opts *so, int farm, int team)
{
    return farm || sp_farm_mpi_ranks() > 1 || (!team && threads_of(so) >= SP_TUNE_FARM_THREADS);
}

void sp_opt_farm(const sp_solver_opts *so, double lost_seconds, unsigned team, sp_farm_opts *fo)
{
    unsigned n = threads_of(so);
    if (!team) /* ranks are placed by mpirun, one a core as a rule: a team of one each */
        team = n >= SP_TUNE_FARM_TEAM_THREADS && sp_farm_mpi_ranks() <= 1 ? SP_TUNE_FARM_TEAM : 1;
    *fo = (sp_farm_opts){.workers = n / team, .team = team, .driver = SP_FARM_THREADS, .lost_seconds = lost_seconds};
    if (sp_farm_mpi_ranks() > 1) /* under mpirun: every other rank is a worker (and --threads unused) */
        fo->workers = sp_farm_mpi_ranks() - 1, fo->driver = SP_FARM_MPI;
    size_t tt = so->tt_bytes ? so->tt_bytes : sp_solver_default_tt_bytes();
    fo->worker = *so;
    fo->worker.tt_bytes = tt / (fo->workers + 1);
    fo->worker.nim_bytes = so->nim_bytes ? so->nim_bytes / (fo->workers + 1) : 0;
    fo->worker.progress = NULL;
    fo->leader = fo->worker;
}
