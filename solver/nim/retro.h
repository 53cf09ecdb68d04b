/* retro.h: retrograde analysis of a finite game graph that may have cycles: every state is labelled
 * a win, a loss or a draw for the player to move.
 *
 * Contract:
 * - The graph is implicit: states are 0 .. n-1; succ_counts(first, count, out) writes the number of
 *   distinct successors of each state first .. first+count-1 (so that a graph can walk a run of states
 *   faster than it decodes them one by one); preds(s, out) writes the distinct predecessors of s (at
 *   most max_preds) and returns how many. The two must describe the same edges.
 * - A state without successors is lost for the player to move (who cannot move loses). A state is won
 *   when some successor is lost, lost when every successor is won; what is neither after the analysis
 *   is a draw (play can be kept going forever from it).
 * - The labels are one byte per state, in memory the caller owns; read them with sp_retro_outcome.
 *   Nothing else of size n is allocated; nothing at all is allocated on the heap.
 */
#ifndef SP_RETRO_H
#define SP_RETRO_H

#include <stdint.h>

#include "nim_progress.h"

#define SP_RETRO_MAX_DEGREE 249u
#define SP_RETRO_MAX_PREDS 4096u

typedef struct sp_retro_graph {
    uint64_t n;
    unsigned max_preds;
    void (*succ_counts)(const void *ctx, uint64_t first, uint64_t count, unsigned *out);
    unsigned (*preds)(const void *ctx, uint64_t s, uint64_t *out);
    const void *ctx;
} sp_retro_graph;

typedef enum { SP_RETRO_LOSS = 0, SP_RETRO_WIN = 1, SP_RETRO_DRAW = 2 } sp_retro_outcome_t;

typedef struct sp_retro_stats {
    uint64_t sweeps;   /* passes over the label array after the first */
    uint64_t edges;    /* predecessor edges followed */
} sp_retro_stats;

/* Labels every state of g in lab[0 .. g->n), on every OpenMP thread when built with OpenMP (the
 * labels do not depend on the order in which states are settled). Returns 0, or -1 when a state has
 * more than SP_RETRO_MAX_DEGREE successors or max_preds exceeds SP_RETRO_MAX_PREDS. stats may be
 * NULL. The callbacks are called from several threads at once. */
int sp_retro_solve(const sp_retro_graph *g, uint8_t *lab, const sp_nim_progress *pr, sp_retro_stats *stats);

/* The outcome a label of a solved array stands for. */
sp_retro_outcome_t sp_retro_outcome(uint8_t label);

#endif
