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
    sp_worker *const *all = t->members;
    uint32_t round = w->tm.round_part.round;
    XXH128_hash_t x = XXH3_128bits(key, len * sizeof *key);
    uint64_t h[2] = {x.low64, x.high64};
    for (unsigned i = 0; i < t->size; i++) {
        uint32_t mv;
        if (i != w->id && atomic_load_explicit(&all[i]->tm.joined, memory_order_acquire) == round &&
            sp_team_seen_get(all[i]->tm.seen, round, h, &mv) && mv < move)
            return true;
    }
    sp_team_seen_put(w->tm.seen, round, h, move);
    return false;
}

/* ---------------------------------------------------------------- setting up */

bool sp_team_member_init(sp_team_member *m, unsigned size)
{
    memset(m, 0, sizeof *m);
    sp_children_init(&m->part);
    m->seen = size > 1 ? sp_team_seen_new() : NULL;
    return size == 1 || m->seen;
}

void sp_team_member_free(sp_team_member *m)
{
    sp_children_free(&m->part);
    free(m->ready);
    free(m->rtok);
    free(m->land);
    free(m->rest);
    free(m->merged);
    free(m->list);
    sp_team_seen_free(m->seen);
    memset(m, 0, sizeof *m);
}

void sp_team_init(sp_team *t, unsigned size, sp_worker *const *workers)
{
    assert(size >= 1 && size <= SP_MAX_TEAM);
    t->size = size;
    for (unsigned i = 0; i < size; i++) {
        assert(workers[i]->id == i);
        t->members[i] = workers[i];
    }
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
    if (w->tm.won && w->tm.round_part.share)
        atomic_store_explicit(&w->eng->team.won_round, w->tm.round_part.round, memory_order_release);
}

/* Hands a child to prepare() as soon as it is made; stops the round once a child decides the node
 * (or memory ran out): the moves left are not worth making. */
static int prepare_hook(void *arg, const sp_tok *child, size_t len, uint32_t move)
{
    sp_worker *w = arg;
    if (w->tm.round_part.share && seen_before(w, child, len, move))
        return 0;
    size_t nready = w->tm.nready;
    w->tm.won |= w->tm.prepare(w, w->tm.parent_k, child, len, move);
    if (w->tm.nready > nready)
        w->tm.ready[nready].child = (uint32_t)(w->tm.part.n - 1); /* listed just before the hook's call */
    announce_won(w);
    return w->tm.won || w->failed;
}

/* prepare_hook() of a land's child made the child of the position the land is one of. */
static int rest_hook(void *arg, const sp_tok *child, size_t len, uint32_t move)
{
    sp_worker *w = arg;
    size_t n = sp_key_merge(w->tm.rest, w->tm.rest_len, child, len, w->tm.merged);
    return prepare_hook(w, w->tm.merged, n, move);
}

/* Room for the merged children of a position whose other lands are rest_len tokens. */
static bool merged_room(sp_worker *w)
{
    return !w->tm.rest_len || !sp_grow((void **)&w->tm.merged, &w->tm.merged_cap, w->tm.rest_len + SP_KEY_MAX,
                                       sizeof *w->tm.merged);
}

/* Looks up the ready children in the transposition table but the last `pending`, whose buckets are
 * on their way: each child is looked up once the next is made, so that the miss overlaps that work
 * (a child lost for its mover, which wins the node, is thus seen one child late). */
static void probe_ready(sp_worker *w, size_t pending)
{
    for (; w->tm.nprobed + pending < w->tm.nready; w->tm.nprobed++) {
        sp_ready *r = &w->tm.ready[w->tm.nprobed];
        sp_tt_entry e;
        if (sp_engine_probe(w, r->h, &e)) {
            r->pn = e.pn;
            r->dn = e.dn;
            w->tm.won |= e.dn == 0; /* a child lost for its mover: the node is won */
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
    for (size_t i = 0; i < w->tm.nready; i++)
        w->tm.ready[i].move = w->tm.part.first[w->tm.ready[i].child];
    if (w->tm.nready > 1)
        qsort(w->tm.ready, w->tm.nready, sizeof *w->tm.ready, by_move);
}

/* Worker w's part of its round: the moves it takes (all of them without a share), each child made
 * ready as it comes. */
static void team_part(sp_worker *w, const sp_tok *land, size_t len)
{
    w->tm.nready = w->tm.nprobed = w->tm.rtok_len = 0;
    w->tm.won = false;
    const sp_move_part *part = w->tm.round_part.share ? &w->tm.round_part : NULL;
    sp_child_hook hook = w->tm.rest_len ? rest_hook : prepare_hook;
    int rc;
    if (w->tm.replaying) {
        sp_children_clear(&w->tm.part);
        rc = sp_expand_replay_part(w->tm.list, part, hook, w, &w->tm.part);
    } else {
        rc = sp_expand_land_part(w->canon, w->lands, land, len, part, hook, w, &w->tm.part);
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
    w->tm.rest_len = 0; /* till its copy is whole */
    if (sp_grow((void **)&w->tm.land, &w->tm.land_cap, t->len, sizeof *w->tm.land) ||
        (t->list && sp_grow(&w->tm.list, &w->tm.list_cap, t->list_bytes, 1)) ||
        (t->rest_len && sp_grow((void **)&w->tm.rest, &w->tm.rest_cap, t->rest_len, sizeof *w->tm.rest)))
        return false;
    memcpy(w->tm.land, t->key, t->len * sizeof *w->tm.land);
    if (t->rest_len)
        memcpy(w->tm.rest, t->rest, t->rest_len * sizeof *w->tm.rest);
    w->tm.rest_len = t->rest_len;
    if (!merged_room(w))
        return false;
    if (t->list)
        memcpy(w->tm.list, t->list, t->list_bytes);
    w->tm.replaying = t->list != NULL;
    w->tm.land_len = t->len;
    w->tm.parent_k = t->k;
    w->tm.prepare = t->prepare;
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
        w->tm.round_part = (sp_move_part){&t->share, seen, w->id % 2 == 1};
        atomic_store_explicit(&w->tm.joined, seen, memory_order_relaxed);
        atomic_fetch_add_explicit(&t->started, 1, memory_order_release);
        if (copied)
            team_part(w, w->tm.land, w->tm.land_len);
        else
            atomic_store(&t->failed, true);
        atomic_store_explicit(&w->tm.done, seen, memory_order_release);
        finish(t, seen);
    }
}

/* ---------------------------------------------------------------- the leader */

void sp_team_quiesce(sp_team *t)
{
    for (unsigned i = 1; i < t->size; i++) {
        const sp_team_member *m = &t->members[i]->tm;
        unsigned spins = 0; /* a round joined has its joined stored before the leader leaves it */
        while (atomic_load_explicit(&m->done, memory_order_acquire) !=
               atomic_load_explicit(&m->joined, memory_order_relaxed))
            relax(&spins);
    }
}

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
    atomic_store_explicit(&w->tm.joined, r, memory_order_relaxed);
    w->tm.round_part = (sp_move_part){&t->share, r, false};
    atomic_store_explicit(&t->seq, r, memory_order_release);
    team_part(w, t->key, t->len);
    unsigned joined = (unsigned)(atomic_fetch_or_explicit(&t->entry, CLOSED, memory_order_acq_rel) & JOINED);
    wait_until(&t->started, joined); /* every helper in the round has its own copy of the post */
    *won = w->tm.won || atomic_load_explicit(&t->won_round, memory_order_acquire) == r;
    uint64_t done = (uint64_t)r << 32 | joined;
    if (*won && atomic_load_explicit(&t->finished, memory_order_acquire) != done)
        return 0; /* the helpers' moves in hand no longer matter: they finish them on their own */
    unsigned spins = 0;
    while (atomic_load_explicit(&t->finished, memory_order_acquire) != done)
        relax(&spins); /* each of them is at most one move from done */
    unsigned n = 0;
    m[n++] = w;
    for (unsigned i = 1; i < t->size; i++)
        if (atomic_load_explicit(&t->members[i]->tm.joined, memory_order_relaxed) == r)
            m[n++] = t->members[i];
    for (unsigned i = 1; i < n; i++)
        *won |= m[i]->tm.won; /* found after the leader looked */
    return atomic_load(&t->failed) ? 0 : n;
}

void sp_team_ready(sp_worker *w, const sp_tok *key, size_t len, uint32_t k, sp_play play, uint32_t order, uint32_t dn,
                   uint32_t move)
{
    assert(len <= SP_KEY_MAX && (key || len == 0));
    if (sp_grow((void **)&w->tm.ready, &w->tm.ready_cap, w->tm.nready + 1, sizeof *w->tm.ready) ||
        sp_grow((void **)&w->tm.rtok, &w->tm.rtok_cap, w->tm.rtok_len + len, sizeof *w->tm.rtok)) {
        w->failed = true;
        return;
    }
    sp_node n = {key, (uint32_t)len, k, {0, 0}};
    sp_node_hash(&n, play);
    sp_ready *r = &w->tm.ready[w->tm.nready++];
    *r = (sp_ready){(uint32_t)w->tm.rtok_len, (uint32_t)len, k, order, move, 0, 1, dn, {n.h[0], n.h[1]}};
    memcpy(w->tm.rtok + w->tm.rtok_len, key, len * sizeof(sp_tok));
    w->tm.rtok_len += len;
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
            if (at[i] < m[i]->tm.nready && (best < 0 || m[i]->tm.ready[at[i]].move < m[best]->tm.ready[at[best]].move))
                best = (int)i;
        if (best < 0)
            return 0;
        const sp_ready *r = &m[best]->tm.ready[at[best]++];
        if (sp_frame_add_ready(f, m[best]->tm.rtok + r->off, r) < 0)
            return -1;
    }
}

/* Whether the leader's part was stopped among the children the cache gave it (expand.h): then it
 * lacks some of the moves below those the others took, and the cache's entry stays as it is. A part
 * lists each child once, from its first move, so the first moves rise along it. */
static bool stopped_in_cache(const sp_worker *w, uint32_t from)
{
    const sp_children *p = &w->tm.part;
    return w->tm.won && (p->n == 0 || p->first[p->n - 1] < from);
}

/* The leader's copy of the whole list cached for hash h (w->tm.list), posted for the team (t->list)
 * when it is long enough to share; false when memory is short (the cache then gives it as usual). */
static bool copy_cached(sp_worker *w, sp_lcache *cache, const uint64_t h[2])
{
    sp_team *t = &w->eng->team;
    sp_lcache_entry e;
    if (!sp_lcache_get(cache, h, &e) || sp_grow(&w->tm.list, &w->tm.list_cap, e.bytes, 1))
        return false;
    memcpy(w->tm.list, e.block, e.bytes);
    t->list = e.n >= SP_TUNE_TEAM_MIN_REPLAY ? w->tm.list : NULL;
    t->list_bytes = e.bytes;
    return true;
}

/* sp_team_expand() of a land, the position's other lands in w->tm.rest (rest_len 0: none). */
static sp_outcome expand(sp_worker *w, const sp_tok *land, size_t len, uint32_t k, sp_team_prepare prepare,
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
    w->tm.parent_k = k;
    w->tm.prepare = prepare;
    w->tm.replaying = false;
    t->list = NULL;
    if (team && cache) {
        sp_lcache_hash(land, len, h);
        from = sp_lcache_made(cache, h);
        if (from == SP_LCACHE_WHOLE) { /* replayed, by the team if it is long */
            w->tm.replaying = copy_cached(w, cache, h);
            team = w->tm.replaying && t->list;
        }
    }
    if (!team) {
        w->tm.round_part = (sp_move_part){NULL, 0, false};
        atomic_store(&t->failed, false);
        team_part(w, land, len);
        won = w->tm.won;
        n = atomic_load(&t->failed) ? 0 : 1;
    } else {
        t->key = land;
        t->len = len;
        t->rest = w->tm.rest;
        t->rest_len = w->tm.rest_len;
        t->k = k;
        t->prepare = prepare;
        n = run_round(w, w->tm.replaying ? 0 : from, m, &won);
        for (unsigned i = 0; i < n; i++)
            parts[i] = &m[i]->tm.part;
        if (cache && n && !w->tm.replaying && !stopped_in_cache(w, from)) /* the leader's part has the cached children */
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

sp_outcome sp_team_expand(sp_worker *w, const sp_tok *land, size_t len, uint32_t k, sp_team_prepare prepare,
                          sp_frame *f)
{
    w->tm.rest_len = 0;
    return expand(w, land, len, k, prepare, f);
}

sp_outcome sp_team_expand_in(sp_worker *w, const sp_tok *pos, size_t pos_len, size_t off, size_t len, uint32_t k,
                             sp_team_prepare prepare, sp_frame *f)
{
    assert(off + len <= pos_len && len < pos_len);
    w->tm.rest_len = 0;
    if (sp_grow((void **)&w->tm.rest, &w->tm.rest_cap, pos_len - len, sizeof *w->tm.rest)) {
        w->failed = true;
        return SP_UNKNOWN;
    }
    w->tm.rest_len = sp_key_drop_land(pos, pos_len, off, len, w->tm.rest);
    if (!merged_room(w)) {
        w->failed = true;
        return SP_UNKNOWN;
    }
    return expand(w, pos + off, len, k, prepare, f);
}
