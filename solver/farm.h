/* farm.h: tree-level parallel search of normal-play couples (P, k): a leader keeps a proof-number tree
 * over couples and hands its most-proving free leaves to workers as jobs of a bounded number of nodes.
 *
 * The design of Cizek, Balko and Schmid (SPOTS, arXiv 2511.10339), rebuilt here from its description:
 * - the leader grows its tree (seeding) until it has seed_leaves free leaves per worker, then gives
 *   each idle worker the most-proving leaf not held by another (locked while its job runs);
 * - a worker runs df-pn on its leaf with a table of its own for job_nodes nodes and sends back the
 *   leaf's numbers and the land nimbers it proved; the leader forwards those, and the couples of its
 *   tree once decided, to every other worker with its next job, so that knowledge spreads without a
 *   shared table;
 * - a leaf whose jobs came back unfinished expand_after times is expanded in the leader, so that
 *   the tree grows where the work is;
 * - a worker whose job is not answered within lost_seconds, or ten times the longest job answered
 *   when that is more (MPI: a rank killed, or one that stops answering), is taken for dead: its
 *   leaf is free again for the others, and it gets no more jobs; the run fails (unsolved, never
 *   wrong) only when every worker is dead. Open MPI ends the whole job when a rank dies unless
 *   mpirun is given `--mca orte_enable_recovery 1`.
 * Drivers (farmrun.h) say where the workers run: threads of this process, or workers simulated one
 * after another on this thread in virtual time (each job's cost is the thread time it took).
 *
 * Contract:
 * - Results are those of one solver: outcomes and nimbers never depend on the workers or the driver;
 *   the work does, except that one worker gives the same nodes whatever the driver.
 * - Normal play only (in misère play k names a game in one solver's own table).
 * - Memory: each worker is a solver of its own (opts.worker, opts.team threads each: the team of
 *   solver.h inside every worker), the leader another (one thread).
 */
#ifndef SP_FARM_H
#define SP_FARM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "solver.h"

/* Where the workers run: threads of this process, one after another in virtual time, or the other
 * ranks of an MPI run (sp_farm_mpi_ranks; only in a build with MPI). */
typedef enum { SP_FARM_THREADS, SP_FARM_SIMULATED, SP_FARM_MPI } sp_farm_driver_kind;

/* MPI: the ranks of the run this process belongs to (1 outside mpirun or without MPI).
 * sp_farm_mpi_start is called first thing in main(): under mpirun it starts MPI; a rank other
 * than 0 then serves jobs until the leader ends the run, and the
 * function returns true (the program then exits at once). sp_farm_mpi_end at exit (rank 0 ends
 * the workers). A worker's solver gets the budgets the leader's farm gives its workers. */
unsigned sp_farm_mpi_ranks(void);
bool sp_farm_mpi_start(int *argc, char ***argv);
void sp_farm_mpi_end(void);

typedef struct sp_farm_stats {
    uint64_t nodes;        /* all workers' job nodes and the leader's steps, all calls (so below) */
    uint64_t leader_steps; /* couples the leader resolved or expanded */
    uint64_t jobs;
    uint64_t lost;         /* workers taken for dead, each with its job (MPI), all calls */
    double lost_seconds;   /* how long an unanswered job is waited for */
    uint64_t nimbers_sent; /* land nimbers forwarded to workers */
    uint64_t couples_sent; /* decided couples of the tree forwarded to workers */
    uint64_t cancelled;    /* jobs called back (the tree cut their leaves off, or the call ended; MPI: sent) */
    double seconds;        /* of the last call: wall time, or virtual time when simulated */
    double busy;           /* worker-seconds spent on jobs, all calls */
    unsigned workers;
    uint32_t root_pn, root_dn; /* the root's numbers now */
    uint32_t free_leaves;  /* leaves no job holds now */
} sp_farm_stats;

typedef struct sp_farm_opts {
    unsigned workers;            /* at least 1 */
    sp_farm_driver_kind driver;
    sp_solver_opts worker;       /* each worker's solver (its threads are set to team) */
    unsigned team;               /* threads of each worker: a team that shares each expansion; 0: 1 */
    sp_solver_opts leader;       /* the leader's (threads set to 1; its progress callback unused) */
    unsigned seed_leaves;        /* free leaves per worker before the first jobs; 0: the default */
    uint64_t job_nodes;          /* a job's budget of nodes; 0: the default */
    unsigned expand_after;       /* unfinished jobs on a leaf before the leader expands it; 0: default */
    double message_seconds;      /* simulated: the cost of a message, each way */
    double lost_seconds;         /* MPI: a job unanswered this long is lost with its worker; 0: default */
    /* called by the leader about once a second during a call (wall time), or never when NULL */
    void (*progress)(void *arg, const sp_farm_stats *st);
    void *progress_arg;
} sp_farm_opts;

typedef struct sp_farm sp_farm;

/* NULL when memory is short. */
sp_farm *sp_farm_new(const sp_farm_opts *opts);
void sp_farm_free(sp_farm *f);

/* Outcome of (P, k) (P + *k) for the player to move; SP_UNKNOWN when stopped or out of memory. */
sp_outcome sp_farm_couple(sp_farm *f, const sp_tok *key, size_t len, uint32_t k);

/* Nimber of a position key (XOR of its lands' nimbers); -1 when stopped or out of memory. */
int sp_farm_nimber(sp_farm *f, const sp_tok *key, size_t len);

/* A time limit for the calls that follow, as sp_solver_set_time_limit: once `seconds` of wall time
 * have passed since this call, they end with SP_UNKNOWN (or -1) after the jobs out come back; 0:
 * none, as made. */
void sp_farm_set_time_limit(sp_farm *f, double seconds);

/* What the farm knows, shared with a caller that keeps it (a table run): a land nimber proven
 * elsewhere, learned by the leader and forwarded to every worker with its next job (false when
 * memory is short); and the land nimbers the leader learned between two of its marks (solver.h's
 * sp_solver_mark and sp_solver_each of SP_KEPT_NIMBERS, the leader's store). */
bool sp_farm_learn_nimber(sp_farm *f, const sp_tok *land, size_t len, unsigned nimber);
uint64_t sp_farm_nimber_mark(sp_farm *f);
int sp_farm_each_nimber(sp_farm *f, uint64_t from, uint64_t to,
                        int (*fn)(void *arg, const sp_tok *key, size_t len, unsigned nimber), void *arg);

void sp_farm_stats_get(const sp_farm *f, sp_farm_stats *out);

#endif
