/* table.h: the table generator: solves 0*A..0*B in normal and/or misère play, one size after the
 * other with one solver (so what it learns carries over), writes the result tables, certificates and
 * what it learned, and resumes after a crash.
 *
 * Contract:
 * - Every finished size is on disk before the next starts: rows, README and certificate are each
 *   written atomically, and what was learned (DIR/state/nimbers.chunks, misere-proven.chunks) is
 *   appended as a chunk of what is new since the last save (chunks.h), so a kill at any moment loses
 *   at most the size in progress.
 * - With resume, rows already solved are kept and skipped; unsolved ones are tried again; the state
 *   written before is read back (a corrupt or foreign file stops the run with its reason; a torn last
 *   chunk is left out with a warning), older store files (.store) included, which are rewritten as
 *   chunk files at once and removed.
 * - A size that exceeds the time limit is recorded as unsolved (never as a result), and the run goes on;
 *   a row's nodes and seconds add up every attempt at its size, in this run and the ones before.
 * - Every solved size gets a certificate, checked before its row is written (cert.h, verify.h).
 */
#ifndef SP_TABLE_H
#define SP_TABLE_H

#include <stdatomic.h>
#include <stdio.h>

#include "farm.h"
#include "solver.h"

typedef struct sp_table_opts {
    int normal, misere;        /* which plays to run */
    unsigned from, to;
    sp_solver_opts solver;     /* threads, memory; progress and stop are set by the generator */
    const sp_farm_opts *farm;  /* or NULL: normal play's searches (outcome and nimber) run on this farm
                                  instead (farm.h: threads, or the ranks of an MPI run); the solver
                                  still builds the certificates, and the two share their land nimbers,
                                  so what the farm proves is saved; the generator sets its stop flag,
                                  progress, and its nimber stores to the solver's budget (each worker
                                  holds every nimber) */
    const char *out;           /* the directory of the tables */
    int resume;
    double time_limit;         /* seconds per size and play (the certificate not included); 0: none */
    double checkpoint;         /* seconds between the saves of a long size (the stores, and the row of
                                  the size as unsolved with the work so far); 0: SP_TUNE_CHECKPOINT_SECONDS */
    int retry;                 /* with a time limit: the sizes left unsolved are tried again, the one
                                  of fewest nodes so far first, each attempt with as many seconds as
                                  all before it together, until every size is solved or the run is
                                  stopped (a frontier run) */
    int quiet;                 /* no progress lines */
    unsigned minimise;         /* normal play: minimise each certificate (minimise.h) with this many
                                  rounds after the first; 0: write it as built */
    int base_only;             /* normal play: start from the checked fact base alone, without the
                                  land nimbers of DIR/state (what it proves is still saved there) */
    unsigned state_lives;      /* DIR/state keeps the nimbers of lands of at least this many lives
                                  (0 or 1: all); smaller ones are cheap to find again */
    int no_certificates;       /* rows solved are saved without a certificate (a quick table: their
                                  certificates are made by a later run with --resume --recertify) */
    int recertify;             /* with resume: a kept row solved without a certificate is solved again
                                  and certified (its row then that of the new run) */
    int reminimise;            /* with minimise: the kept normal-play rows too, each size's certificate
                                  minimised again from the fact base (its row's count then that of the
                                  result) */
    const char *minimise_db;   /* or NULL: with reminimise, the fact base to minimise from instead of
                                  DIR's (its root 0*n must claim the row's outcome) */
    const char *snapshot;      /* or NULL: a file (outside DIR) where a size stopped unsolved leaves
                                  its search whole (snapshot.h), also written every snapshot_every
                                  seconds of its search, and from which a resumed run beside the
                                  same state (or one grown since) takes the search up */
    double snapshot_every;     /* 0: SP_TUNE_SNAPSHOT_SECONDS */
    const char *version;       /* the program's version, for provenance */
    const char *command;       /* the command line of the run, named in the README (NULL: not said) */
    const atomic_bool *stop;   /* set from outside (Ctrl-C) to end the run cleanly */
    FILE *rows;                /* a line per finished size (the command: standard output) */
    FILE *log;                 /* progress lines and what went wrong (the command: standard error) */
} sp_table_opts;

/* Runs the generator; writes one line per finished size to rows. Returns 0 when every requested
 * size is done (solved or recorded unsolved), 1 when stopped from outside or on an error (reported
 * to log), 2 on a usage problem (reported). */
int sp_table_run(const sp_table_opts *o);

#endif
