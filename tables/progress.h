/* progress.h: progress lines for long searches (at most one a second, rewritten in place on a
 * terminal), written where the caller says, and compact counts for people. */
#ifndef SP_PROGRESS_H
#define SP_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "farm.h"
#include "solver.h"

typedef struct sp_progress {
    char label[64]; /* what is being solved, e.g. "normal 0*14" */
    const char *phase; /* for sp_progress_facts: "building the certificate", ... */
    size_t answers, of; /* in a phase, the moves answered of the fact at hand (of 0: not said) */
    FILE *out;      /* where the lines go; NULL: nowhere */
    bool tty;
    bool printed;
    double start;   /* sp_clock_now() at init */
    uint64_t nodes0; /* the solver's (or farm's) node count when the label's search began (0 at init):
                      * a search's lines count from there, so that a run of several sizes shows
                      * each size's own nodes and rate */
} sp_progress;

/* Lines about `label` to out (a terminal gets them rewritten in place); out NULL: print nothing. */
void sp_progress_init(sp_progress *p, const char *label, FILE *out);
/* A progress callback for sp_solver_opts (arg: the sp_progress). */
void sp_progress_line(void *arg, const sp_solver_stats *s);
/* A progress callback for sp_farm_opts (arg: the sp_progress): seconds since init, nodes, jobs,
 * workers, the root's numbers and the free leaves. */
void sp_progress_farm(void *arg, const sp_farm_stats *s);
/* A progress callback for the passes over a certificate (sp_cert_progress; arg: the sp_progress,
 * whose phase names the pass). */
void sp_progress_facts(void *arg, uint64_t done, uint64_t items, double seconds);
/* A callback for sp_certify_watch.answered (arg: the sp_progress): the lines of the phase's
 * searches say how far the fact at hand is. */
void sp_progress_answers(void *arg, size_t done, size_t of);
/* Ends the progress line (a newline after in-place updates). */
void sp_progress_done(sp_progress *p);

/* "12.3M", "456.1k", "789" */
void sp_progress_count(char *buf, size_t cap, double v);

#endif
