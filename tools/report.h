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

/* Parses --threads / --tt-mb values into opts; returns 0, or 2 after printing the error. */
int sp_report_threads(const char *prog, const char *arg, sp_solver_opts *opts);
int sp_report_tt_mb(const char *prog, const char *arg, sp_solver_opts *opts);


#endif
