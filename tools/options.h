/* options.h: the solver options that the solving subcommands share on the command line (--threads,
 * --tt-mb, --nim-mb, --game-mb, --misere-lives, --misere-sum-lives). */
#ifndef SP_OPTIONS_H
#define SP_OPTIONS_H

#include <stdbool.h>

#include "farm.h"
#include "solver.h"

/* Parses --threads / --tt-mb / --nim-mb / --game-mb values into opts; returns 0, or 2 after printing the error. */
int sp_opt_threads(const char *prog, const char *arg, sp_solver_opts *opts);
int sp_opt_tt_mb(const char *prog, const char *arg, sp_solver_opts *opts);
int sp_opt_nim_mb(const char *prog, const char *arg, sp_solver_opts *opts);
int sp_opt_game_mb(const char *prog, const char *arg, sp_solver_opts *opts);
/* --misere-lives T (lands of at most T lives get their misère game; 0: none, plain search) or
 * --misere-sum-lives T (every land of a sum but the largest, up to T lives; 0: no more than the
 * former): the option's name, its value, and where it goes (opts->misere_lives or _sum_lives). */
int sp_opt_misere_lives(const char *prog, const char *name, const char *arg, int *dst);

/* --worker-threads T: the threads of each farm worker; more than --threads (all cores when not
 * given) is an error, except under mpirun, where each rank runs T. Returns 0, or 2 after the error. */
int sp_opt_worker_threads(const char *prog, const char *arg, const sp_solver_opts *so, unsigned *dst);

/* The farm of --farm or mpirun (farm.h) from the solver options: --threads N (all cores when 0)
 * make N / T workers of T threads each (T: team, or when 0 SP_TUNE_FARM_TEAM from
 * SP_TUNE_FARM_TEAM_THREADS threads on, else 1); under mpirun every rank but the leader's is a
 * worker of T threads (when 0: 1). Each worker and the leader get a share of --tt-mb and --nim-mb;
 * the stop flag, the progress callback and its argument stay to set. */
void sp_opt_farm(const sp_solver_opts *so, double lost_seconds, unsigned team, sp_farm_opts *fo);

/* Whether normal play's searches run on the farm: asked for (--farm), under mpirun, or on
 * --threads N (all cores when not given) of at least SP_TUNE_FARM_THREADS unless the team is asked
 * for (--team): where the farm is measured (simulated) to be faster (solver/tune.h). */
bool sp_opt_farm_chosen(const sp_solver_opts *so, int farm, int team);

#endif
