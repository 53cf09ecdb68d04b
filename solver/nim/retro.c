/* retro.c: retrograde win/loss/draw analysis over an implicit graph (retro.h), parallel with OpenMP
 * when it is there. One byte per state and repeated sweeps instead of a queue, so that memory is the
 * label array only. */
#include "retro.h"

#include <stdbool.h>

/* A label is either the number of successors not yet known to be won by the opponent, or one of
 * these; *_NEW marks a state whose predecessors have not been told yet. */
enum { WIN_NEW = 250, WIN_DONE = 251, LOSS_NEW = 252, LOSS_DONE = 253 };

#define CHUNK 4096u /* states per unit of work */

sp_retro_outcome_t sp_retro_outcome(uint8_t label)
{
    if (label == WIN_DONE || label == WIN_NEW)
        return SP_RETRO_WIN;
    if (label == LOSS_DONE || label == LOSS_NEW)
        return SP_RETRO_LOSS;
    return SP_RETRO_DRAW;
}

/* The states a sweep looks at: [lo, hi). */
typedef struct range {
    uint64_t lo, hi;
} range;

static range init_counts(const sp_retro_graph *g, uint8_t *lab, const sp_nim_progress *pr, bool *too_many)
{
    uint64_t lo = g->n, hi = 0, nchunks = (g->n + CHUNK - 1) / CHUNK;
    bool bad = false;
SP_NIM_PARALLEL_FOR(schedule(dynamic, 16) reduction(min : lo) reduction(max : hi) reduction(|| : bad) if (nchunks > 64))
    for (uint64_t c = 0; c < nchunks; c++) {
        unsigned count[CHUNK];
        uint64_t first = c * CHUNK, len = g->n - first < CHUNK ? g->n - first : CHUNK;
        g->succ_counts(g->ctx, first, len, count);
        for (uint64_t i = 0; i < len; i++) {
            bad = bad || count[i] > SP_RETRO_MAX_DEGREE;
            lab[first + i] = count[i] ? (uint8_t)count[i] : LOSS_NEW;
            if (!count[i]) {
                lo = first + i < lo ? first + i : lo;
                hi = first + i + 1 > hi ? first + i + 1 : hi;
            }
        }
        if ((c & 0xff) == 0)
            sp_nim_report(pr, "counting moves", first, g->n);
    }
    *too_many = bad;
    return (range){lo, hi > lo ? g->n : 0};
}

/* Tells predecessor p that a successor is settled (lost: p is won; won: one fewer open successor).
 * Returns whether p became settled. Atomic, since other threads may tell p at the same time. */
static bool tell(uint8_t *lab, uint64_t p, bool successor_lost)
{
    uint8_t c = __atomic_load_n(&lab[p], __ATOMIC_RELAXED), v;
    do {
        if (c >= WIN_NEW)
            return false;
        v = successor_lost ? WIN_NEW : c > 1 ? (uint8_t)(c - 1) : LOSS_NEW;
    } while (!__atomic_compare_exchange_n(&lab[p], &c, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return v >= WIN_NEW;
}

typedef struct sweep_out {
    range next; /* every state settled during the sweep lies in it */
    uint64_t edges, settled;
} sweep_out;

/* Settles every *_NEW state of chunk c of r; adds to out (the thread's own). */
static void sweep_chunk(const sp_retro_graph *g, uint8_t *lab, range r, uint64_t c, sweep_out *out)
{
    uint64_t buf[SP_RETRO_MAX_PREDS];
    uint64_t end = r.lo + (c + 1) * CHUNK < r.hi ? r.lo + (c + 1) * CHUNK : r.hi;
    for (uint64_t s = r.lo + c * CHUNK; s < end; s++) {
        uint8_t v = __atomic_load_n(&lab[s], __ATOMIC_RELAXED);
        if (v != WIN_NEW && v != LOSS_NEW)
            continue;
        __atomic_store_n(&lab[s], v == WIN_NEW ? WIN_DONE : LOSS_DONE, __ATOMIC_RELAXED);
        unsigned np = g->preds(g->ctx, s, buf);
        for (unsigned i = 0; i < np; i++) {
            if (!tell(lab, buf[i], v == LOSS_NEW))
                continue;
            out->next.lo = buf[i] < out->next.lo ? buf[i] : out->next.lo;
            out->next.hi = buf[i] + 1 > out->next.hi ? buf[i] + 1 : out->next.hi;
        }
        out->edges += np;
        out->settled++;
    }
}

/* One pass over r. States settled behind a thread's position wait for the next pass; those ahead
 * may be settled in this one, and the next pass skips them. A pass always runs to the last state,
 * since stopping at the highest state known to be pending would leave more for later passes. */
static sweep_out sweep(const sp_retro_graph *g, uint8_t *lab, range r, uint64_t settled_before,
                       const sp_nim_progress *pr)
{
    uint64_t lo = g->n, hi = 0, edges = 0, settled = 0, nchunks = (r.hi - r.lo + CHUNK - 1) / CHUNK;
SP_NIM_PARALLEL_FOR(schedule(dynamic, 4) reduction(min : lo) reduction(max : hi) reduction(+ : edges, settled) if (nchunks > 64))
    for (uint64_t c = 0; c < nchunks; c++) {
        sweep_out o = {{lo, hi}, 0, 0};
        sweep_chunk(g, lab, r, c, &o);
        lo = o.next.lo;
        hi = o.next.hi;
        edges += o.edges;
        settled += o.settled;
        if ((c & 0xff) == 0)
            sp_nim_report(pr, "retrograde", settled_before + settled, g->n);
    }
    return (sweep_out){{lo, hi > lo ? g->n : 0}, edges, settled};
}

int sp_retro_solve(const sp_retro_graph *g, uint8_t *lab, const sp_nim_progress *pr, sp_retro_stats *stats)
{
    sp_retro_stats st = {0, 0};
    bool too_many;
    if (g->max_preds > SP_RETRO_MAX_PREDS)
        return -1;
    range r = init_counts(g, lab, pr, &too_many);
    if (too_many)
        return -1;
    uint64_t settled = 0;
    while (r.lo < r.hi) {
        sweep_out o = sweep(g, lab, r, settled, pr);
        settled += o.settled;
        st.edges += o.edges;
        st.sweeps++;
        r = o.next;
    }
    if (stats)
        *stats = st;
    return 0;
}
