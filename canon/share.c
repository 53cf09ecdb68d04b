/* share.c: the share of a round (share.h): two atomic counters, the items taken from the front and
 * those taken from the top, each tagged with its round. */
#include "share.h"

#include <assert.h>
#include <stdatomic.h>

/* Parts going up take the least move number nobody has taken (state), parts going down the greatest
 * (back counts those taken from the top), so that each thread makes moves one after the other in
 * the enumeration's order, or in its reverse: a move made right after its neighbour in the same
 * thread is cheaper (its child is much like the last: sprouts-bench moves), and the two ends
 * together come to a child that decides the node sooner than taking every other move from the
 * start does (docs/performance.md). The two counters are read apart, so where the ends meet a move may be taken
 * from both (made twice: harmless, its child is the same); none is ever left out. */
#define STOPPED ((uint64_t)1 << 31)
#define NEXT ((uint64_t)SP_SHARE_MAX)
#define ROUND_OF(x) ((uint32_t)((x) >> 32))

void sp_move_share_start(sp_move_share *s, uint32_t round, uint32_t from)
{
    atomic_store_explicit(&s->back, (uint64_t)round << 32, memory_order_relaxed);
    atomic_store_explicit(&s->state, (uint64_t)round << 32 | (from < NEXT ? from : NEXT), memory_order_release);
}

uint32_t sp_move_share_next(const sp_move_share *s)
{
    return (uint32_t)(atomic_load_explicit(&s->state, memory_order_acquire) & NEXT);
}

void sp_move_share_stop(sp_move_share *s, uint32_t round)
{
    uint64_t st = atomic_load_explicit(&s->state, memory_order_relaxed);
    while (ROUND_OF(st) == round && !(st & STOPPED) &&
           !atomic_compare_exchange_weak_explicit(&s->state, &st, st | STOPPED, memory_order_release,
                                                  memory_order_relaxed))
        ;
}

/* How many moves the part's round has taken from the top (set before state, so a part that saw its
 * round in state sees it here, or a later one: then its round has ended). False once it has. */
static bool taken_from_top(const sp_move_part *part, uint64_t *bk)
{
    *bk = atomic_load_explicit(&part->share->back, memory_order_acquire);
    return ROUND_OF(*bk) == part->round;
}

/* Whether the moves taken from the front (state) and from the top (bk) are all n of them. */
static bool all_taken(uint32_t n, uint64_t st, uint64_t bk)
{
    return (st & NEXT) + (uint32_t)bk >= n;
}

/* The next of n moves for a part going up (sp_move_part_take). */
static sp_take take_up(const sp_move_part *part, uint32_t n, uint32_t *m)
{
    sp_move_share *s = part->share;
    uint64_t st = atomic_load_explicit(&s->state, memory_order_acquire), bk;
    do {
        if (ROUND_OF(st) != part->round || (st & STOPPED) || !taken_from_top(part, &bk))
            return SP_ENDED;
        if (all_taken(n, st, bk))
            return SP_EXHAUSTED;
    } while (!atomic_compare_exchange_weak_explicit(&s->state, &st, st + 1, memory_order_acquire,
                                                    memory_order_acquire));
    *m = (uint32_t)(st & NEXT);
    return SP_TAKEN;
}

static sp_take take_down(const sp_move_part *part, uint32_t n, uint32_t *m)
{
    sp_move_share *s = part->share;
    uint64_t st = atomic_load_explicit(&s->state, memory_order_acquire), bk;
    if (ROUND_OF(st) != part->round || (st & STOPPED) || !taken_from_top(part, &bk))
        return SP_ENDED;
    do {
        if (ROUND_OF(bk) != part->round)
            return SP_ENDED;
        if (all_taken(n, st, bk))
            return SP_EXHAUSTED;
    } while (!atomic_compare_exchange_weak_explicit(&s->back, &bk, bk + 1, memory_order_acquire,
                                                    memory_order_acquire));
    *m = n - 1 - (uint32_t)bk;
    return SP_TAKEN;
}

sp_take sp_move_part_take(const sp_move_part *part, uint32_t n, uint32_t *next, uint32_t *item)
{
    assert(n <= SP_SHARE_MAX);
    if (!part || !part->share) {
        if (*next >= n)
            return SP_EXHAUSTED;
        *item = (*next)++;
        return SP_TAKEN;
    }
    return part->down ? take_down(part, n, item) : take_up(part, n, item);
}
