/* farmrun.h: where the farm's workers run (farm.h), and the messages between them and the leader;
 * internal to solver/. A driver takes a job for an idle worker and gives results back one at a time.
 *
 * Contract:
 * - A message is a job going out (a couple, a budget, the land nimbers the worker has not seen yet)
 *   or its result coming back (the couple's numbers, the nodes, the land nimbers the job proved).
 *   Messages own their buffers; post and wait swap them with the driver's, so nothing is copied.
 * - Only the leader's thread calls a driver. A worker runs one job at a time, with a solver of its
 *   own that keeps its table from job to job.
 * - The simulated driver runs each job at once, on the leader's thread, and delivers its result at
 *   the virtual time it would arrive: the worker's clock advances by the job's thread time (that of
 *   its team's leader, which waits for its helpers spinning: the job's wall time, on a machine with a
 *   core for each of the team's threads), the leader's by its own between calls, a message by
 *   message_seconds each way. Since workers share nothing but messages, what each job knows is
 *   exactly what it would know on real machines (except after a job called back:
 *   sp_farm_driver_cancel).
 */
#ifndef SP_FARMRUN_H
#define SP_FARMRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "farm.h"
#include "solver.h"

typedef struct sp_farm_msg {
    uint64_t id;          /* the leader's name for the job (its leaf) */
    unsigned worker;
    uint32_t len, k;      /* the couple: its key is tok[0 .. len) */
    uint64_t max_nodes;   /* a job's budget ... */
    uint32_t th[2];       /* ... and thresholds (pn, dn) */
    bool want_step;       /* the leader is short of leaves: step the couple after the job, whatever */
    sp_tok *tok;          /* the key, then the lands of the nimbers one after another */
    size_t tok_len, tok_cap;
    uint32_t *nim;        /* per land: its length and its nimber */
    size_t nnim, nim_cap;
    sp_tok *ctok;         /* decided couples the leader forwards: keys one after another ... */
    size_t ctok_len, ctok_cap;
    uint32_t *cpl;        /* ... and per couple its key's length, k and outcome */
    size_t ncpl, cpl_cap;
    /* a result */
    sp_outcome outcome;
    uint32_t pn, dn;
    uint64_t nodes;
    bool failed;          /* the worker ran out of memory */
    bool lost;            /* no result: the driver took the worker for dead (only id and worker mean
                           * anything), or a result from a worker taken for dead (its nimbers count) */
    double cost;          /* seconds the job took (thread time) */
    /* a job left unproven that used its whole budget (or was asked to: want_step) steps its couple
     * once more and sends what it found, with the numbers of its table: the leader grows its tree
     * from that (else SP_STEP_FAILED) */
    sp_step_kind step;
    sp_step stepped;      /* its sub's key lies in kid_tok */
    sp_step_couple *kids; /* keys in kid_tok */
    size_t kids_cap;
    sp_tok *kid_tok;
    size_t kid_tok_cap;
} sp_farm_msg;

/* Empties m for a new couple (keeping its buffers); false when memory is short. */
bool sp_farm_msg_start(sp_farm_msg *m, const sp_tok *key, uint32_t len, uint32_t k);
/* Keys one after another in tok (its length and room) with a record of `width` numbers per key in rec
 * (n records, room): the key's length, then v. Appends one; false when memory is short. */
bool sp_farm_keys_append(sp_tok **tok, size_t *tok_len, size_t *tok_cap, uint32_t **rec, size_t *n, size_t *cap,
                         unsigned width, const sp_tok *key, uint32_t len, const uint32_t *v);
/* Appends a land nimber; false when memory is short. */
bool sp_farm_msg_add_nimber(sp_farm_msg *m, const sp_tok *land, uint32_t len, uint32_t nimber);
/* Appends a decided couple (a job carries them to its worker); false when memory is short. */
bool sp_farm_msg_add_couple(sp_farm_msg *m, const sp_tok *key, uint32_t len, uint32_t k, sp_outcome o);
/* Calls fn on each land nimber of m in turn; stops at the first non-zero return and gives it. */
int sp_farm_msg_each_nimber(const sp_farm_msg *m, int (*fn)(void *arg, const sp_tok *land, uint32_t len,
                                                            uint32_t nimber), void *arg);
void sp_farm_msg_free(sp_farm_msg *m);

/* Runs the job m on solver s: its nimbers and couples first, then the search; m becomes the result. */
void sp_farm_msg_run(sp_farm_msg *m, sp_solver *s);

/* m as bytes for a driver that sends it (into *buf, grown as needed; its length), and back: false
 * when memory is short or the bytes are not a message this program packed. */
size_t sp_farm_msg_pack(const sp_farm_msg *m, uint8_t **buf, size_t *cap);
bool sp_farm_msg_unpack(sp_farm_msg *m, const uint8_t *buf, size_t len);

/* The MPI transport (farmmpi.c): the workers' budgets to every worker rank (false without MPI or
 * with one rank), a job to worker w (rank w + 1), a call-back of the job last posted to w (false
 * when it cannot be sent, or when MPI gives a rank no second thread to listen for it while its
 * job runs), and the next result from any within `seconds` (1; 0 when none came; -1 when it cannot
 * be read). A worker taken for dead is forgotten: no message goes to its rank again, not even the
 * one that ends the run. */
bool sp_farm_mpi_configure(const sp_solver_opts *wopts);
bool sp_farm_mpi_post(unsigned worker, const sp_farm_msg *job);
bool sp_farm_mpi_cancel(unsigned worker);
int sp_farm_mpi_wait(sp_farm_msg *res, unsigned *worker, double seconds);
void sp_farm_mpi_forget(unsigned worker);

typedef struct sp_farm_driver sp_farm_driver;

/* A driver of `workers` workers, each with a solver made from wopts (of wopts.threads threads, 0:
 * one); NULL when memory is short or a thread cannot start. MPI: a job unanswered for lost_seconds, or for ten times the
 * longest job answered when that is more, comes back lost, and its worker is dead from then on
 * (never idle again). */
sp_farm_driver *sp_farm_driver_new(sp_farm_driver_kind kind, unsigned workers, const sp_solver_opts *wopts,
                                   double message_seconds, double lost_seconds);
void sp_farm_driver_free(sp_farm_driver *d);

/* The start of a call: its clock starts at 0. */
void sp_farm_driver_begin(sp_farm_driver *d);
/* Whether worker w has no job (a dead one never has); the workers not taken for dead. */
bool sp_farm_driver_idle(const sp_farm_driver *d, unsigned w);
unsigned sp_farm_driver_live(const sp_farm_driver *d);
/* Hands job (for the idle worker job->worker) to the driver, swapping buffers with it. */
void sp_farm_driver_post(sp_farm_driver *d, sp_farm_msg *job);
/* The job out with worker w is no longer wanted: it ends as soon as it can, and its result still
 * comes (with its nodes and nimbers). Threads: the worker's search is interrupted. Simulated: the
 * job is cut where it would have been when the leader's message reached the worker (its cost and
 * nodes in proportion; its table keeps the whole job, a little in its favour). MPI: a message
 * tells the rank, whose listening thread interrupts the search. Whether the job was called back
 * (false when it had ended, or over an MPI that gives no listening thread; over MPI true once the
 * message is sent, since the leader cannot tell a job that ended while it was on its way, which
 * the rank then drops). */
bool sp_farm_driver_cancel(sp_farm_driver *d, unsigned w);
/* Waits for the next result and swaps it into *res; false when no job is out. */
bool sp_farm_driver_wait(sp_farm_driver *d, sp_farm_msg *res);
/* Seconds since begin (virtual when simulated), and the worker-seconds spent on jobs. */
double sp_farm_driver_clock(sp_farm_driver *d);
double sp_farm_driver_busy(const sp_farm_driver *d);

#endif
