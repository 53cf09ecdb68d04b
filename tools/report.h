/* report.h: what the solving subcommands share: the solver options on the command line (--threads,
 * --tt-mb) and Ctrl-C handling. */
#ifndef SP_REPORT_H
#define SP_REPORT_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "solver.h"

/* Set by SIGINT / SIGTERM once sp_report_catch_signals() ran; searches watch it. */
extern volatile sig_atomic_t sp_report_stop;
void sp_report_catch_signals(void);

/* Parses --threads / --tt-mb / --nim-mb values into opts; returns 0, or 2 after printing the error. */
int sp_report_threads(const char *prog, const char *arg, sp_solver_opts *opts);
int sp_report_tt_mb(const char *prog, const char *arg, sp_solver_opts *opts);
int sp_report_nim_mb(const char *prog, const char *arg, sp_solver_opts *opts);
/* --misere-lives T (lands of at most T lives get their misère game; 0: none, plain search) or
 * --misere-sum-lives T (every land of a sum but the largest, up to T lives; 0: no more than the
 * former): the option's name, its value, and where it goes (opts->misere_lives or _sum_lives). */
int sp_report_misere_lives(const char *prog, const char *name, const char *arg, int *dst);


#endif
