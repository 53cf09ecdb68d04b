/* team.c: the threads of one search (team.h): rounds posted by the leader, joined by the helpers
 * that come in time, the moves taken one at a time, each child prepared once, the join in move order. */
#include "team.h"

#include <assert.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "engine.h"
#include "grow.h"
#include "tune.h"

#define CLOSED ((uint64_t)1 << 31) /* in entry: the leader's part has ended */
#define JOINED (CLOSED - 1)        /* in entry: the helpers who joined */

static void relax(unsigned *spins)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
    if (++*spins % 1024 == 0)
        sched_yield(); /* another process may need this core more than a spinning thread */
}

/* ---------------------------------------------------------------- the children seen in a round */

/* A child that two moves in two parts give is prepared once, by the part with the earlier move (the
 * very copy the join keeps, so the frame is the same whatever the threads), if that part got there
 * first; a part going down, which meets the later move first, prepares it too. Each worker notes the
 * children it prepares in a table of its own, which only it writes and the other members of the
 * round read: a worker writes a slot once per round, data first, then the round as the tag, so a
 * reader that finds its round in the tag finds the data complete, and nothing is ever cleared. A
 * reader still on a round that has ended (a helper finishing its move after the leader went on) may
 * read a slot being rewritten: its answers, like the rest of its round, are thrown away. A note
 * read a moment too early only costs a second preparation: the join keeps the copy of the earlier
 * move, by the child's hash. */
#define SEEN_SLOTS 2048
#define SEEN_PROBES 8

struct sp_team_seen {
    atomic_uint round; /* the round the slot was written in (0: never) */
    atomic_uint move;
    _Atomic uint64_t h[2];
};

sp_team_seen *sp_team_seen_new(void)
{
    return calloc(SEEN_SLOTS, sizeof(sp_team_seen));
}

void sp_team_seen_free(sp_team_seen *s)
{
    free(s);
}

void sp_team_seen_put(sp_team_seen *seen, uint32_t round, const uint64_t h[2], uint32_t move)
{
    for (unsigned p = 0; p < SEEN_PROBES; p++) {
        sp_team_seen *s = &seen[(h[0] + p) & (SEEN_SLOTS - 1)];
        if (atomic_load_explicit(&s->round, memory_order_relaxed) == round)
            continue; /* written this round: final */
        atomic_store_explicit(&s->h[0], h[0], memory_order_relaxed);
        atomic_store_explicit(&s->h[1], h[1], memory_order_relaxed);
        atomic_store_explicit(&s->move, move, memory_order_relaxed);
        atomic_store_explicit(&s->round, round, memory_order_release);
        return;
    }
}

bool sp_team_seen_get(const sp_team_seen *seen, uint32_t round, const uint64_t h[2], uint32_t *move)
{
    for (unsigned p = 0; p < SEEN_PROBES; p++) {
        const sp_team_seen *s = &seen[(h[0] + p) & (SEEN_SLOTS - 1)];
        if (atomic_load_explicit(&s->round, memory_order_acquire) != round)
            return false; /* put fills the first slot free this round: the notes of the round end here */
        if (atomic_load_explicit(&s->h[0], memory_order_relaxed) == h[0] &&
            atomic_load_explicit(&s->h[1], memory_order_relaxed) == h[1]) {
            *move = atomic_load_explicit(&s->move, memory_order_relaxed);
            return true;
        }
    }
    return false;
}

/* Whether another member of w's round made the child ready from an earlier move (a false match
 * needs a 128-bit collision of the keys' hashes); if not, w notes it as its own. */
static bool seen_before(sp_worker *w, const sp_tok *key, size_t len, uint32_t move)
{
    const sp_team *t = &w->eng->team;
    sp_worker *all = w - w->id; /* the workers lie side by side */
    uint32_t round = w->round_part.round;
    XXH128_hash_t x = XXH3_128bits(key, len * sizeof *key);
    uint64_t h[2] = {x.low64, x.high64};
    for (unsigned i = 0; i < t->size; i++) {
        uint32_t mv;
        if (i != w->id && atomic_load_explicit(&all[i].joined, memory_order_acquire) == round &&
            sp_team_seen_get(all[i].seen, round, h, &mv) && mv < move)
            return true;
    }
    sp_team_seen_put(w->seen, round, h, move);
    return false;
}

/* ---------------------------------------------------------------- setting up */

void sp_team_init(sp_team *t, unsigned size)
{
    assert(size >= 1 && size <= SP_MAX_TEAM);
    t->size = size;
}

void sp_team_start(sp_team *t)
{
    atomic_store(&t->quit, false);
    t->start = atomic_load(&t->seq);
}

void sp_team_quit(sp_team *t)
{
    atomic_store(&t->quit, true);
    atomic_fetch_add_explicit(&t->seq, 1, memory_order_release);
}

/* ---------------------------------------------------------------- one part */

/* A member whose part found a child that decides the node stops the others of a shared round. */
static void announce_won(sp_worker *w)
{
    if (w->won && w->round_part.share)
        atomic_store_explicit(&w->eng->team.won_round, w->round_part.round, memory_order_release);
}

/* Hands a child to prepare() as soon as it is made; stops the round once a child decides the node
 * (or memory ran out): the moves left are not worth making. */
static int prepare_hook(void *arg, const sp_tok *child, size_t len, uint32_t move)
{
    sp_worker *w = arg;
    if (w->round_part.share && seen_before(w, child, len, move))
        return 0;
    size_t nready = w->nready;
    w->prepare(w, child, len, move);
    if (w->nready > nready)
        w->ready[nready].child = (uint32_t)(w->part.n - 1); /* listed just before the hook's call */
    announce_won(w);
    return w->won || w->failed;
}

/* Looks up the ready children in the transposition table but the last `pending`, whose buckets are
 * on their way: each child is looked up once the next is made, so that the miss overlaps that work
 * (a child lost for its mover, which wins the node, is thus seen one child late). */
static void probe_ready(sp_worker *w, size_t pending)
{
    for (; w->nprobed + pending < w->nready; w->nprobed++) {
        sp_ready *r = &w->ready[w->nprobed];
        sp_tt_entry e;
        if (sp_engine_probe(w, r->h, &e)) {
            r->pn = e.pn;
            r->dn = e.dn;
            w->won |= e.dn == 0; /* a child lost for its mover: the node is won */
        }
    }
}

static int by_move(const void *a, const void *b)
{
    const sp_ready *x = a, *y = b;
    return (x->move > y->move) - (x->move < y->move);
}

/* A part going down made its children from the last move down, and may have met one again from a
 * lower move since: each takes the least move that gave it (its list has it), and they are put in
 * move order for the join, as a part going up lists them. */
static void order_down_part(sp_worker *w)
{
    for (size_t i = 0; i < w->nready; i++)
        w->ready[i].move = w->part.first[w->ready[i].child];
    if (w->nready > 1)
        qsort(w->ready, w->nready, sizeof *w->ready, by_move);
}

/* Worker w's part of its round: the moves it takes (all of them without a share), each child made
 * ready as it comes. */
static void team_part(sp_worker *w, const sp_tok *land, size_t len)
{
    w->nready = w->nprobed = w->rtok_len = 0;
    w->won = false;
    const sp_move_part *part = w->round_part.share ? &w->round_part : NULL;
    int rc;
    if (w->replaying) {
        sp_children_clear(&w->part);
        rc = sp_expand_replay_part(w->list, part, prepare_hook, w, &w->part);
    } else {
        rc = sp_expand_land_part(w->canon, w->lands, land, len, part, prepare_hook, w, &w->part);
    }
    if (rc < 0 || w->failed)
        atomic_store(&w->eng->team.failed, true);
    probe_ready(w, 0);
    if (part && part->down)
        order_down_part(w);
    announce_won(w);
}

/* ---------------------------------------------------------------- the helpers */

/* A helper joins round r unless the leader has closed it (or moved on). */
static bool join(sp_team *t, uint32_t r)
{
    uint64_t cur = atomic_load_explicit(&t->entry, memory_order_acquire);
    while ((cur >> 32) == r && !(cur & CLOSED))
        if (atomic_compare_exchange_weak_explicit(&t->entry, &cur, cur + 1, memory_order_acq_rel,
                                                  memory_order_acquire))
            return true;
    return false;
}

/* Copies what the part needs of the post: the leader may go on (and reuse all of it) once every
 * helper who joined has started. */
static bool copy_post(sp_worker *w, const sp_team *t)
{
    if (sp_grow((void **)&w->land, &w->land_cap, t->len, sizeof *w->land) ||
        (t->list && sp_grow(&w->list, &w->list_cap, t->list_bytes, 1)))
        return false;
    memcpy(w->land, t->key, t->len * sizeof *w->land);
    if (t->list)
        memcpy(w->list, t->list, t->list_bytes);
    w->replaying = t->list != NULL;
    w->land_len = t->len;
    w->parent_k = t->k;
    w->prepare = t->prepare;
    return true;
}

/* Counts a helper done with round r, unless the leader has moved on (then nobody waits for it). */
static void finish(sp_team *t, uint32_t r)
{
    uint64_t cur = atomic_load_explicit(&t->finished, memory_order_relaxed);
    while ((cur >> 32) == r && !atomic_compare_exchange_weak_explicit(&t->finished, &cur, cur + 1,
                                                                     memory_order_release, memory_order_relaxed))
        ;
}

void sp_team_help(sp_worker *w)
{
    sp_team *t = &w->eng->team;
    unsigned seen = t->start; /* not the current seq: the leader may have posted before we got here */
    for (;;) {
        unsigned spins = 0;
        while (atomic_load_explicit(&t->seq, memory_order_acquire) == seen) {
            sp_tt_help_grow(w->eng->tt); /* the leader may be doubling the table: no rounds till then */
            relax(&spins);
        }
        seen = atomic_load_explicit(&t->seq, memory_order_acquire);
        if (atomic_load(&t->quit))
            return;
        if (!join(t, seen))
            continue;
        bool copied = copy_post(w, t);
        w->round_part = (sp_move_part){&t->share, seen, w->id % 2 == 1};
        atomic_store_explicit(&w->joined, seen, memory_order_relaxed);
        atomic_fetch_add_explicit(&t->started, 1, memory_order_release);
        if (copied)
            team_part(w, w->land, w->land_len);
        else
            atomic_store(&t->failed, true);
        finish(t, seen);
    }
}

/* ---------------------------------------------------------------- the leader */

static void wait_until(const atomic_uint *v, unsigned want)
{
    unsigned spins = 0;
    while (atomic_load_explicit(v, memory_order_acquire) != want)
        relax(&spins);
}

/* Runs round r on the leader w and the helpers who join before its own part ends, the moves from
 * number `from` on. Returns the number of members whose parts are complete (the leader first in m),
 * or 0 when a member ran out of memory. When the node is won (*won), their parts hold the children of
 * the moves below sp_move_share_next(); a helper still finishing its move in hand is not waited for
 * (it would cost the leader that move): then 0. */
static unsigned run_round(sp_worker *w, uint32_t from, sp_worker **m, bool *won)
{
    sp_team *t = &w->eng->team;
    uint32_t r = atomic_load_explicit(&t->seq, memory_order_relaxed) + 1;
    atomic_store_explicit(&t->failed, false, memory_order_relaxed);
    atomic_store_explicit(&t->started, 0, memory_order_relaxed);
    atomic_store_explicit(&t->finished, (uint64_t)r << 32, memory_order_relaxed);
    sp_move_share_start(&t->share, r, from);
    atomic_store_explicit(&t->entry, (uint64_t)r << 32, memory_order_relaxed);
    atomic_store_explicit(&w->joined, r, memory_order_relaxed);
    w->round_part = (sp_move_part){&t->share, r, false};
    atomic_store_explicit(&t->seq, r, memory_order_release);
    team_part(w, t->key, t->len);
    unsigned joined = (unsigned)(atomic_fetch_or_explicit(&t->entry, CLOSED, memory_order_acq_rel) & JOINED);
    wait_until(&t->started, joined); /* every helper in the round has its own copy of the post */
    *won = w->won || atomic_load_explicit(&t->won_round, memory_order_acquire) == r;
    uint64_t done = (uint64_t)r << 32 | joined;
    if (*won && atomic_load_explicit(&t->finished, memory_order_acquire) != done)
        return 0; /* the helpers' moves in hand no longer matter: they finish them on their own */
    unsigned spins = 0;
    while (atomic_load_explicit(&t->finished, memory_order_acquire) != done)
        relax(&spins); /* each of them is at most one move from done */
    unsigned n = 0;
    m[n++] = w;
    for (unsigned i = 1; i < t->size; i++)
        if (atomic_load_explicit(&w[i].joined, memory_order_relaxed) == r) /* the workers lie side by side */
            m[n++] = &w[i];
    for (unsigned i = 1; i < n; i++)
        *won |= m[i]->won; /* found after the leader looked */
    return atomic_load(&t->failed) ? 0 : n;
}

void sp_team_ready(sp_worker *w, const sp_tok *key, size_t len, uint32_t k, sp_play play, uint32_t order, uint32_t dn,
                   uint32_t move)
{
    assert(len <= SP_KEY_MAX && (key || len == 0));
    if (sp_grow((void **)&w->ready, &w->ready_cap, w->nready + 1, sizeof *w->ready) ||
        sp_grow((void **)&w->rtok, &w->rtok_cap, w->rtok_len + len, sizeof *w->rtok)) {
        w->failed = true;
        return;
    }
    sp_node n = {key, (uint32_t)len, k, {0, 0}};
    sp_node_hash(&n, play);
    sp_ready *r = &w->ready[w->nready++];
    *r = (sp_ready){(uint32_t)w->rtok_len, (uint32_t)len, k, order, move, 0, 1, dn, {n.h[0], n.h[1]}};
    memcpy(w->rtok + w->rtok_len, key, len * sizeof(sp_tok));
    w->rtok_len += len;
    sp_tt_prefetch(w->eng->tt, r->h);
    probe_ready(w, 1);
}

/* Joins the members' ready children into f in move order. */
static int join_ready(sp_worker *const *m, unsigned n, sp_frame *f)
{
    size_t at[SP_MAX_TEAM] = {0};
    for (;;) {
        int best = -1;
        for (unsigned i = 0; i < n; i++)
            if (at[i] < m[i]->nready && (best < 0 || m[i]->ready[at[i]].move < m[best]->ready[at[best]].move))
                best = (int)i;
        if (best < 0)
            return 0;
        const sp_ready *r = &m[best]->ready[at[best]++];
        if (sp_frame_add_ready(f, m[best]->rtok + r->off, r) < 0)
            return -1;
    }
}

/* Whether the leader's part was stopped among the children the cache gave it (expand.h): then it
 * lacks some of the moves below those the others took, and the cache's entry stays as it is. A part
 * lists each child once, from its first move, so the first moves rise along it. */
static bool stopped_in_cache(const sp_worker *w, uint32_t from)
{
    const sp_children *p = &w->part;
    return w->won && (p->n == 0 || p->first[p->n - 1] < from);
}

/* The leader's copy of the whole list cached for hash h (w->list), posted for the team (t->list)
 * when it is long enough to share; false when memory is short (the cache then gives it as usual). */
static bool copy_cached(sp_worker *w, sp_lcache *cache, const uint64_t h[2])
{
    sp_team *t = &w->eng->team;
    sp_lcache_entry e;
    if (!sp_lcache_get(cache, h, &e) || sp_grow(&w->list, &w->list_cap, e.bytes, 1))
        return false;
    memcpy(w->list, e.block, e.bytes);
    t->list = e.n >= SP_TUNE_TEAM_MIN_REPLAY ? w->list : NULL;
    t->list_bytes = e.bytes;
    return true;
}

sp_outcome sp_team_expand(sp_worker *w, const sp_tok *land, size_t len, uint32_t k, sp_team_prepare prepare,
                          sp_frame *f)
{
    assert(w->id == 0 && land && len > 0 && prepare && f); /* the leader, on a land */
    sp_team *t = &w->eng->team;
    sp_lcache *cache = w->lands;
    sp_worker *m[SP_MAX_TEAM] = {w};
    sp_children *parts[SP_MAX_TEAM];
    uint64_t h[2] = {0, 0};
    uint32_t from = 0; /* the moves whose children the cache holds */
    unsigned n = 1;
    bool won = false, team = t->size >= 2 && sp_key_moves_estimate(land, len) >= SP_TUNE_TEAM_MIN_MOVES;
    w->parent_k = k;
    w->prepare = prepare;
    w->replaying = false;
    t->list = NULL;
    if (team && cache) {
        sp_lcache_hash(land, len, h);
        from = sp_lcache_made(cache, h);
        if (from == SP_LCACHE_WHOLE) { /* replayed, by the team if it is long */
            w->replaying = copy_cached(w, cache, h);
            team = w->replaying && t->list;
        }
    }
    if (!team) {
        w->round_part = (sp_move_part){NULL, 0, false};
        atomic_store(&t->failed, false);
        team_part(w, land, len);
        won = w->won;
        n = atomic_load(&t->failed) ? 0 : 1;
    } else {
        t->key = land;
        t->len = len;
        t->k = k;
        t->prepare = prepare;
        n = run_round(w, w->replaying ? 0 : from, m, &won);
        for (unsigned i = 0; i < n; i++)
            parts[i] = &m[i]->part;
        if (cache && n && !w->replaying && !stopped_in_cache(w, from)) /* the leader's part has the cached children */
            sp_lcache_put(cache, h, parts, n, won ? sp_move_share_next(&t->share) : SP_LCACHE_WHOLE);
    }
    if (won)
        return SP_WIN;
    if (!n || join_ready(m, n, f)) {
        w->failed = true;
        return SP_UNKNOWN;
    }
    return SP_UNKNOWN;
}
