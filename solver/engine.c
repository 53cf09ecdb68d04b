/* engine.c: df-pn (Nagai; Kishimoto and Müller's formulation with the 1+epsilon threshold of
 * Pawlewicz and Lew) over the nodes of a rule set, with the shared transposition table; per-thread
 * frames that are reused so that the search allocates nothing once warm. */
#include "engine.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "clock.h"
#include "grow.h"
#include "tune.h"

/* ---------------------------------------------------------------- nodes and frames */

void sp_node_hash(sp_node *n, sp_play play)
{
    assert(n->len <= SP_KEY_MAX && (n->key || n->len == 0));
    XXH128_hash_t h = XXH3_128bits_withSeed(n->key, n->len * sizeof(sp_tok), ((uint64_t)n->k << 1) | play);
    n->h[0] = h.low64;
    n->h[1] = h.high64;
}

void sp_engine_root_view(const sp_worker *w, sp_root_view *v)
{
    const sp_frame *f = w->nframes > 0 ? w->frames[0] : NULL; /* allocated at depth 0 first */
    *v = (sp_root_view){0, 0, SP_PN_INF, 0};
    for (size_t i = 0; f && i < f->n; i++, v->moves++) {
        v->refuted += f->c[i].pn == 0;
        v->pn = f->c[i].dn < v->pn ? f->c[i].dn : v->pn;
        uint64_t dn = (uint64_t)v->dn + f->c[i].pn;
        v->dn = dn >= SP_PN_INF ? SP_PN_INF : (uint32_t)dn;
    }
    if (v->moves == 0)
        v->pn = 0; /* not expanded: no numbers */
}

sp_frame *sp_worker_frame(sp_worker *w, unsigned depth)
{
    if (depth >= w->nframes) {
        unsigned n = w->nframes ? w->nframes : 64;
        while (n <= depth)
            n *= 2;
        sp_frame **fr = realloc(w->frames, n * sizeof *fr);
        if (!fr)
            return NULL;
        memset(fr + w->nframes, 0, (n - w->nframes) * sizeof *fr);
        w->frames = fr;
        w->nframes = n;
    }
    if (!w->frames[depth]) {
        sp_frame *f = calloc(1, sizeof *f);
        if (!f)
            return NULL;
        w->frames[depth] = f;
    }
    return w->frames[depth];
}

void sp_worker_release(sp_worker *w)
{
    for (unsigned d = 0; d < w->nframes; d++) {
        sp_frame *f = w->frames[d];
        if (!f)
            continue;
        free(f->c);
        free(f->tok);
        free(f->node_tok[0]);
        free(f->node_tok[1]);
        free(f->seen);
        free(f);
    }
    free(w->frames);
    w->frames = NULL;
    w->nframes = 0;
    free(w->trail);
    w->trail = NULL;
    w->trail_cap = 0;
    sp_team_member_free(&w->tm);
}

sp_tok *sp_frame_node_room(sp_frame *f, const sp_tok *reading, size_t len)
{
    int i = reading == f->node_tok[0];
    if (f->node_cap[i] < len) {
        sp_tok *t = realloc(f->node_tok[i], (len + 256) * sizeof(sp_tok));
        if (!t)
            return NULL;
        f->node_tok[i] = t;
        f->node_cap[i] = len + 256;
    }
    return f->node_tok[i];
}

void sp_frame_reset(sp_frame *f)
{
    f->n = 0;
    f->cut_stamp = 0;
    f->tok_len = 0;
    if (f->seen)
        memset(f->seen, 0, f->seen_cap * sizeof *f->seen);
}

/* The seen set holds child index + 1, placed by the child's hash: repeats are found by the full
 * 128-bit hash (a false repeat needs a 128-bit collision). */
static int seen_grow(sp_frame *f)
{
    size_t cap = f->seen_cap ? f->seen_cap * 2 : 256;
    uint64_t *s = calloc(cap, sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < f->n; i++) {
        size_t j = f->c[i].h[0] & (cap - 1);
        while (s[j])
            j = (j + 1) & (cap - 1);
        s[j] = i + 1;
    }
    free(f->seen);
    f->seen = s;
    f->seen_cap = cap;
    return 0;
}

int sp_frame_add_child(sp_frame *f, const sp_tok *key, size_t len, uint32_t k, sp_play play, uint32_t order,
                       uint32_t dn)
{
    assert(len <= SP_KEY_MAX);
    sp_node n = {key, (uint32_t)len, k, {0, 0}};
    sp_node_hash(&n, play);
    if (2 * (f->n + 1) > f->seen_cap && seen_grow(f))
        return -1;
    size_t j = n.h[0] & (f->seen_cap - 1);
    for (; f->seen[j]; j = (j + 1) & (f->seen_cap - 1)) {
        const sp_child *c = &f->c[f->seen[j] - 1];
        if (c->h[0] == n.h[0] && c->h[1] == n.h[1])
            return 0; /* the same child reached by two moves */
    }
    if (sp_grow((void **)&f->c, &f->cap, f->n + 1, sizeof *f->c) ||
        sp_grow((void **)&f->tok, &f->tok_cap, f->tok_len + len, sizeof *f->tok))
        return -1;
    f->seen[j] = f->n + 1;
    memcpy(f->tok + f->tok_len, key, len * sizeof(sp_tok));
    f->c[f->n++] = (sp_child){(uint32_t)f->tok_len, (uint32_t)len, k, 1, dn, order, {n.h[0], n.h[1]}, false};
    f->tok_len += len;
    return 1;
}

int sp_frame_add_ready(sp_frame *f, const sp_tok *key, const sp_ready *r)
{
    assert(r->len <= SP_KEY_MAX && (key || r->len == 0));
    if (2 * (f->n + 1) > f->seen_cap && seen_grow(f))
        return -1;
    size_t j = r->h[0] & (f->seen_cap - 1);
    for (; f->seen[j]; j = (j + 1) & (f->seen_cap - 1)) {
        const sp_child *c = &f->c[f->seen[j] - 1];
        if (c->h[0] == r->h[0] && c->h[1] == r->h[1])
            return 0;
    }
    if (sp_grow((void **)&f->c, &f->cap, f->n + 1, sizeof *f->c) ||
        sp_grow((void **)&f->tok, &f->tok_cap, f->tok_len + r->len, sizeof *f->tok))
        return -1;
    f->seen[j] = f->n + 1;
    memcpy(f->tok + f->tok_len, key, r->len * sizeof(sp_tok));
    f->c[f->n++] = (sp_child){(uint32_t)f->tok_len, r->len, r->k, r->pn, r->dn, r->order, {r->h[0], r->h[1]}, true};
    f->tok_len += r->len;
    return 1;
}

/* df-pn with knowledge (df-pn+): an unexplored node is lost only once each of its moves is answered,
 * so its disproof number starts at (an estimate of) its number of moves; one winning move proves it
 * won, so its proof number starts at 1. Measured on 0*12..0*16 this cuts the nodes by up to four. */
uint32_t sp_engine_dn_of(uint64_t moves)
{
    return moves < 1 ? 1 : moves > SP_TUNE_INITIAL_DN_MAX ? SP_TUNE_INITIAL_DN_MAX : (uint32_t)moves;
}

uint32_t sp_engine_initial_dn(const sp_tok *key, size_t len, uint32_t k)
{
    return sp_engine_dn_of(sp_key_moves_estimate(key, len) + k);
}

/* ---------------------------------------------------------------- clock, stop, progress */

static bool halted(sp_engine *e)
{
    return atomic_load_explicit(&e->aborted, memory_order_relaxed);
}

static bool should_stop(sp_worker *w)
{
    sp_engine *e = w->eng;
    if (w->nodes >= w->next_check) {
        w->next_check = w->nodes + SP_TUNE_CHECK_EVERY;
        bool clock = w->id == 0 && (e->report || e->deadline > 0);
        double t = clock ? sp_clock_now() : 0;
        bool told = e->stop && atomic_load_explicit(e->stop, memory_order_relaxed);
        if (told || (clock && e->deadline > 0 && t >= e->deadline))
            atomic_store(&e->aborted, true);
        if (clock && e->report && t - e->last_report >= SP_TUNE_PROGRESS_SECONDS) {
            e->last_report = t;
            e->report(e->report_arg);
        }
    }
    return w->failed || halted(e);
}

/* ---------------------------------------------------------------- df-pn */

/* A job's budget is spent (sp_engine_job): every node on the stack returns with the numbers it has,
 * stored as usual, since each comes from children whose searches ended normally. */
static bool job_over(const sp_worker *w)
{
    return w->job_end && w->nodes >= w->job_end;
}

static uint32_t sat_add(uint32_t a, uint32_t b)
{
    uint64_t s = (uint64_t)a + b;
    return s >= SP_PN_INF ? SP_PN_INF - 1 : (uint32_t)s;
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
    return a < b ? a : b;
}

/* Only the owner writes its counters, so a plain add is enough; they are atomics because the
 * leader reads the helpers' for progress while a helper may still be finishing a move. */
static void count(_Atomic uint64_t *c, uint64_t by)
{
    atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + by, memory_order_relaxed);
}

bool sp_engine_probe(sp_worker *w, const uint64_t h[2], sp_tt_entry *e)
{
    bool hit = sp_tt_probe(w->eng->tt, h, e);
    count(&w->tt_probes, 1);
    count(&w->tt_hits, hit);
    return hit;
}

static void store(sp_worker *w, const uint64_t h[2], uint32_t pn, uint32_t dn, uint64_t work)
{
    /* a proof, a disproof, or two finite numbers that are not zero (engine.h) */
    assert((pn == 0) == (dn == SP_PN_INF) && (dn == 0) == (pn == SP_PN_INF));
    sp_tt_entry e = {pn, dn, work > UINT32_MAX ? UINT32_MAX : (uint32_t)work};
    sp_tt_store(w->eng->tt, h, &e);
}

/* pn = min over children of dn; dn = sum of children's pn. A proven child decides at once. */
static void numbers(const sp_frame *f, uint32_t *pn, uint32_t *dn)
{
    uint32_t mpn = SP_PN_INF, sdn = 0;
    bool child_lost = false;
    for (size_t i = 0; i < f->n; i++) {
        child_lost |= f->c[i].dn == 0;
        mpn = f->c[i].dn < mpn ? f->c[i].dn : mpn;
        sdn = sat_add(sdn, f->c[i].pn);
    }
    *pn = mpn;
    *dn = child_lost ? SP_PN_INF : sdn;
}

/* The child to search next (least disproof number, ties to the better rank) and the second-best
 * disproof number. */
static size_t select_child(const sp_frame *f, uint32_t *dn2)
{
    uint32_t bestv = SP_PN_INF, second = SP_PN_INF;
    size_t b = 0;
    for (size_t i = 0; i < f->n; i++) {
        const sp_child *c = &f->c[i];
        if (c->dn < bestv || (c->dn == bestv && c->order < f->c[b].order)) {
            second = bestv;
            bestv = c->dn;
            b = i;
        } else if (c->dn < second) {
            second = c->dn;
        }
    }
    *dn2 = second;
    return b;
}

static void mid(sp_worker *w, const sp_rules *rules, const sp_node *n, uint32_t thpn, uint32_t thdn,
                uint32_t *pn, uint32_t *dn, unsigned depth);

/* Looks every child up in the transposition table; true when one is a proven loss (n is won). */
static bool seed_children(sp_worker *w, sp_frame *f)
{
    for (size_t i = 0; i < f->n; i++)
        if (!f->c[i].probed)
            sp_tt_prefetch(w->eng->tt, f->c[i].h);
    for (size_t i = 0; i < f->n; i++) {
        sp_tt_entry e;
        if (f->c[i].probed) {
            if (f->c[i].dn == 0)
                return true;
        } else if (sp_engine_probe(w, f->c[i].h, &e)) {
            f->c[i].pn = e.pn;
            f->c[i].dn = e.dn;
            if (e.dn == 0)
                return true;
        }
    }
    return false;
}

void sp_engine_child_thresholds(uint32_t thpn, uint32_t thdn, uint32_t dn, uint32_t dn2, uint32_t cpn, uint32_t cdn,
                                uint32_t *cthpn, uint32_t *cthdn)
{
    assert(cpn > 0 && cdn > 0 && cpn < SP_PN_INF && cdn < SP_PN_INF);
    /* the 1+epsilon trick: let the best child run until it is a little worse than the second */
    uint32_t eps = dn2 >= SP_PN_INF ? SP_PN_INF : sat_add(dn2, dn2 / SP_TUNE_EPSILON_DIV + 1);
    *cthdn = thpn < eps ? thpn : eps;
    *cthpn = thdn >= SP_PN_INF ? SP_PN_INF : sat_add(thdn - dn, cpn);
    /* numbers saturate below SP_PN_INF: a threshold of a saturated number would send the child back
     * at once, as often as the node chose it again */
    if (*cthdn <= cdn)
        *cthdn = cdn + 1;
    if (*cthpn <= cpn)
        *cthpn = cpn + 1;
    assert(*cthpn > cpn && *cthdn > cdn);
}

/* ---------------------------------------------------------------- the trail of a cut job */

/* A job cut by its budget loses its stack: the children each node on it had, with their numbers,
 * and the thresholds each child was searched with, which under the 1+epsilon rule let the child in
 * hand run on a little past its best sibling. Choosing afresh, the next job went elsewhere: jobs of
 * 20,000 nodes made 2.25 times the nodes of one search on 0*18 (docs/design.md). So a cut keeps
 * it: the frames stay as the cut left them, and the trail says, per depth, which child each node
 * was in and with what thresholds; the next job on that path takes it up where it stopped. */

static bool same_hash(const uint64_t a[2], const uint64_t b[2])
{
    return a[0] == b[0] && a[1] == b[1];
}

/* The search is being cut in the child of hash `child` (thresholds cth) of the node `parent` at this
 * depth, whose children are in f (NULL for a sum, which has none). Out of memory, the trail is only
 * shorter: it never decides anything. */
static void trail_mark(sp_worker *w, unsigned depth, const uint64_t parent[2], sp_frame *f, const uint64_t child[2],
                       const uint32_t cth[2])
{
    size_t had = w->trail_cap;
    if (sp_grow((void **)&w->trail, &w->trail_cap, depth + 1, sizeof *w->trail))
        return;
    memset(w->trail + had, 0, (w->trail_cap - had) * sizeof *w->trail); /* stamp 0: no entry */
    w->trail[depth] = (sp_trail){{parent[0], parent[1]}, {child[0], child[1]}, {cth[0], cth[1]}, w->trail_stamp};
    if (f) {
        f->cut_h[0] = parent[0], f->cut_h[1] = parent[1];
        f->cut_stamp = w->trail_stamp;
    }
}

/* Rotates the n elements of `size` bytes at p left by d < n; false when memory is short. */
static bool rotate_left(void *p, size_t n, size_t d, size_t size)
{
    void *head = malloc(d * size);
    if (!head)
        return false;
    memcpy(head, p, d * size);
    memmove(p, (char *)p + d * size, (n - d) * size);
    memcpy((char *)p + (n - d) * size, head, d * size);
    free(head);
    return true;
}

/* Moves depth d of the trail and of the frames to depth 0: the job starts at the trail's node d. */
static void trail_shift(sp_worker *w, unsigned d)
{
    assert(d < w->trail_cap && d < w->nframes);
    for (unsigned i = 0; i < d; i++)
        w->trail[i].stamp = 0;
    if (!rotate_left(w->trail, w->trail_cap, d, sizeof *w->trail) ||
        !rotate_left(w->frames, w->nframes, d, sizeof *w->frames))
        w->trail_use = 0; /* trail and frames out of step: the trail's entries no longer say where */
}

/* The trail's entry at this depth written by the job of this stamp, or NULL. */
static sp_trail *trail_entry(const sp_worker *w, unsigned depth, uint32_t stamp)
{
    return stamp && depth < w->trail_cap && w->trail[depth].stamp == stamp ? &w->trail[depth] : NULL;
}

/* Whether f holds the children of the node of hash h as the cut of the job of this stamp left them. */
static bool frame_cut_by(const sp_frame *f, uint32_t stamp, const uint64_t h[2])
{
    return stamp && f->cut_stamp == stamp && same_hash(f->cut_h, h);
}

/* At a job's start: the trail of the job before it, where the job's node n is one of its nodes. */
static void trail_start(sp_worker *w, const sp_node *n)
{
    w->trail_use = 0;
    for (unsigned d = 0; d < w->trail_cap; d++)
        if (trail_entry(w, d, w->trail_stamp) && same_hash(w->trail[d].parent, n->h)) {
            w->trail_use = w->trail_stamp;
            if (d > 0)
                trail_shift(w, d);
            break;
        }
    if (++w->trail_stamp == 0)
        w->trail_stamp = 1;
}

/* The trail's entry at this depth, taken, when the trail leads through the node `parent` here;
 * NULL when it has none at this depth (a sum's part had none before the trail was kept) or the
 * search is off the trail (which is then dropped). */
static const sp_trail *trail_at(sp_worker *w, unsigned depth, const uint64_t parent[2])
{
    sp_trail *t = trail_entry(w, depth, w->trail_use);
    if (!t)
        return NULL;
    t->stamp = 0;
    if (!same_hash(t->parent, parent))
        w->trail_use = 0;
    return w->trail_use ? t : NULL;
}

/* The trail's thresholds for its child, now of numbers (cpn, cdn), within lim: false (and the trail
 * dropped) when the child already reaches them, i.e. it had returned when the job was cut. */
static bool trail_thresholds(sp_worker *w, const sp_trail *t, uint32_t cpn, uint32_t cdn, const uint32_t lim[2],
                             uint32_t cth[2])
{
    uint32_t tp = min_u32(t->th[0], lim[0]), td = min_u32(t->th[1], lim[1]);
    if (tp <= cpn || td <= cdn)
        return w->trail_use = 0, false;
    cth[0] = tp, cth[1] = td;
    return true;
}

/* The first choice of the node `parent` (numbers below its thresholds, disproof number dn) when the
 * trail leads through it: the trail's child and thresholds, while they hold (*ci and cth then set). */
static void trail_follow(sp_worker *w, unsigned depth, const uint64_t parent[2], const sp_frame *f, uint32_t thpn,
                         uint32_t thdn, uint32_t dn, size_t *ci, uint32_t cth[2])
{
    const sp_trail *t = trail_at(w, depth, parent);
    if (!t)
        return;
    size_t i = 0;
    while (i < f->n && !same_hash(f->c[i].h, t->child))
        i++;
    if (i == f->n) {
        w->trail_use = 0;
        return;
    }
    const sp_child *c = &f->c[i];
    /* the node's own thresholds bound its child's as df-pn's rule does */
    const uint32_t lim[2] = {thdn >= SP_PN_INF ? SP_PN_INF : sat_add(thdn - dn, c->pn), thpn};
    if (trail_thresholds(w, t, c->pn, c->dn, lim, cth))
        *ci = i;
}

/* Searches below n (hash h, as its parent knows it) until its numbers reach a threshold; the
 * children live in frame(depth). */
static void search_children(sp_worker *w, const sp_rules *rules, const uint64_t h[2], sp_frame *f, uint32_t thpn,
                            uint32_t thdn, uint32_t *pn, uint32_t *dn, unsigned depth)
{
    for (bool first = true;; first = false) {
        uint32_t dn2, cth[2];
        numbers(f, pn, dn);
        if (*pn >= thpn || *dn >= thdn || *pn == 0 || *dn == 0 || should_stop(w) || job_over(w))
            return;
        size_t ci = select_child(f, &dn2);
        sp_child *c = &f->c[ci];
        sp_engine_child_thresholds(thpn, thdn, *dn, dn2, c->pn, c->dn, &cth[0], &cth[1]);
        if (first && w->trail_use) {
            trail_follow(w, depth, h, f, thpn, thdn, *dn, &ci, cth);
            c = &f->c[ci];
        }
        sp_node cn = {f->tok + c->off, c->len, c->k, {c->h[0], c->h[1]}};
        mid(w, rules, &cn, cth[0], cth[1], &c->pn, &c->dn, depth + 1);
        if (w->failed)
            return;
        if (job_over(w) && !halted(w->eng))
            trail_mark(w, depth, h, f, c->h, cth);
    }
}

static void set_outcome(uint32_t *pn, uint32_t *dn, sp_outcome o)
{
    *pn = o == SP_WIN ? 0 : SP_PN_INF;
    *dn = o == SP_WIN ? SP_PN_INF : 0;
}

bool sp_engine_part_thresholds(uint32_t spn, uint32_t sdn, const uint32_t rest[2], uint32_t thpn, uint32_t thdn,
                               uint32_t *pn, uint32_t *dn, uint32_t *tp, uint32_t *td)
{
    assert(spn > 0 && sdn > 0 && spn < SP_PN_INF && sdn < SP_PN_INF);
    uint32_t m = min_u32(spn, sdn);
    *pn = sat_add(m, rest[0]);
    *dn = sat_add(m, rest[1]);
    if (*pn >= thpn || *dn >= thdn)
        return false;
    uint32_t t = min_u32(thpn - rest[0], thdn - rest[1]); /* settle the part until min(pn, dn) reaches t */
    if (t <= m)
        t = m + 1; /* the sum saturated short of its thresholds: the part must still move */
    *tp = spn >= t ? SP_PN_INF : t;
    *td = spn < t && sdn >= t ? SP_PN_INF : t;
    assert(*tp > spn && *td > sdn);
    return true;
}

/* A sum whose outcome waits for one part: the sum's numbers are the part's cost to settle either way
 * (min of its pn and dn) plus what comes after; the part is searched until that cost crosses the
 * sum's thresholds (Cizek, Balko and Schmid's treatment of sums in SPOTS). Returns true while the
 * sum stays below its thresholds, so that the caller settles the next part. */
static bool settle_part(sp_worker *w, const sp_rules *rules, const uint64_t h[2], sp_node *sub, const uint32_t rest[2],
                        uint32_t thpn, uint32_t thdn, uint32_t *pn, uint32_t *dn, unsigned depth)
{
    uint32_t spn = 1, sdn = sp_engine_initial_dn(sub->key, sub->len, sub->k);
    sp_tt_entry e;
    if (sp_engine_probe(w, sub->h, &e)) {
        spn = e.pn;
        sdn = e.dn;
    }
    uint32_t th[2];
    if (!sp_engine_part_thresholds(spn, sdn, rest, thpn, thdn, pn, dn, &th[0], &th[1]) || job_over(w))
        return false;
    /* the part's thresholds hang on whether its numbers had reached the sum's: a cut job's part
     * goes on with those it had */
    const sp_trail *t = trail_at(w, depth, h);
    const uint32_t lim[2] = {SP_PN_INF, SP_PN_INF};
    if (t && same_hash(t->child, sub->h))
        trail_thresholds(w, t, spn, sdn, lim, th);
    else if (t)
        w->trail_use = 0;
    mid(w, rules, sub, th[0], th[1], &spn, &sdn, depth + 1);
    if (job_over(w) && !halted(w->eng))
        trail_mark(w, depth, h, NULL, sub->h, th);
    return true;
}

static void mid(sp_worker *w, const sp_rules *rules, const sp_node *n0, uint32_t thpn, uint32_t thdn,
                uint32_t *pn, uint32_t *dn, unsigned depth)
{
    uint64_t start = w->nodes++;
    sp_node n = *n0, sub;
    uint32_t rest[2];
    sp_frame *f = sp_worker_frame(w, depth);
    if (!f) {
        w->failed = true;
        return;
    }
    sp_resolved r;
    while ((r = rules->resolve(w, &n, depth, &sub, rest)) == SP_SUM) {
        if (should_stop(w))
            return;
        if (!settle_part(w, rules, n0->h, &sub, rest, thpn, thdn, pn, dn, depth)) {
            store(w, n0->h, *pn, *dn, w->nodes - start);
            return;
        }
    }
    if (should_stop(w))
        return; /* resolve() may have been cut short */
    sp_outcome o = r == SP_EXPAND ? SP_UNKNOWN : (sp_outcome)r;
    if (o == SP_UNKNOWN && (n.h[0] != n0->h[0] || n.h[1] != n0->h[1])) {
        sp_tt_entry e; /* rewritten: the simpler node may be known */
        if (sp_engine_probe(w, n.h, &e) && (e.pn == 0 || e.dn == 0))
            o = e.pn == 0 ? SP_WIN : SP_LOSS;
    }
    if (o == SP_UNKNOWN && frame_cut_by(f, w->trail_use, n0->h)) {
        f->cut_stamp = 0; /* its children as the cut left them: search on */
    } else if (o == SP_UNKNOWN) {
        sp_frame_reset(f);
        o = rules->expand(w, &n, f);
        if (o == SP_UNKNOWN && (w->failed || seed_children(w, f)))
            o = w->failed ? SP_UNKNOWN : SP_WIN;
        if (o == SP_UNKNOWN && f->n == 0)
            o = SP_LOSS;
    }
    if (o != SP_UNKNOWN) {
        set_outcome(pn, dn, o);
    } else {
        search_children(w, rules, n0->h, f, thpn, thdn, pn, dn, depth);
        if (w->failed || halted(w->eng))
            return; /* an interrupted search stores nothing: its numbers are incomplete */
    }
    uint64_t work = w->nodes - start;
    store(w, n0->h, *pn, *dn, work);
    if (n.h[0] != n0->h[0] || n.h[1] != n0->h[1])
        store(w, n.h, *pn, *dn, work);
    if (*pn == 0 || *dn == 0)
        rules->proven(w, &n, *pn == 0 ? SP_WIN : SP_LOSS, work);
}

sp_outcome sp_engine_job(sp_worker *w, const sp_rules *rules, sp_node *n, uint32_t thpn, uint32_t thdn,
                         uint64_t max_nodes, uint32_t *pn, uint32_t *dn)
{
    assert(w->id == 0 && rules && n && pn && dn);
    sp_tt_entry e;
    *pn = 1, *dn = sp_engine_initial_dn(n->key, n->len, n->k);
    if (sp_engine_probe(w, n->h, &e)) {
        *pn = e.pn, *dn = e.dn;
        if (e.pn == 0 || e.dn == 0)
            return e.pn == 0 ? SP_WIN : SP_LOSS;
    }
    w->job_end = max_nodes ? w->nodes + max_nodes : 0;
    trail_start(w, n);
    while (*pn != 0 && *dn != 0 && *pn < thpn && *dn < thdn && !job_over(w)) {
        mid(w, rules, n, thpn, thdn, pn, dn, 0);
        if (w->failed || halted(w->eng)) {
            w->job_end = 0;
            return SP_UNKNOWN;
        }
    }
    w->job_end = 0;
    return *pn == 0 ? SP_WIN : *dn == 0 ? SP_LOSS : SP_UNKNOWN;
}

sp_resolved sp_engine_step(sp_worker *w, const sp_rules *rules, sp_node *n, sp_node *sub, uint32_t rest[2],
                           sp_frame **children, size_t *cut_child)
{
    assert(w->id == 0 && rules && n && sub && children && cut_child);
    *children = NULL;
    *cut_child = SIZE_MAX;
    /* the trail of a job on n just cut, at n: the child (or part) it was in */
    const sp_trail *t = trail_entry(w, 0, w->trail_stamp);
    if (t && !same_hash(t->parent, n->h))
        t = NULL;
    const uint64_t h0[2] = {n->h[0], n->h[1]};
    sp_resolved r = rules->resolve(w, n, 0, sub, rest);
    if (r == SP_SUM && t && same_hash(t->child, sub->h))
        *cut_child = 0;
    if (r != SP_EXPAND || w->failed)
        return r;
    sp_tt_entry e;
    if (sp_engine_probe(w, n->h, &e) && (e.pn == 0 || e.dn == 0))
        return e.pn == 0 ? SP_RESOLVED_WIN : SP_RESOLVED_LOSS;
    sp_frame *f = sp_worker_frame(w, 0);
    if (f && frame_cut_by(f, w->trail_stamp, h0)) {
        /* the job just cut left n's children here: those, as it left them (the frame stays so for
         * the next job) */
        for (size_t i = 0; t && i < f->n; i++)
            if (same_hash(f->c[i].h, t->child))
                *cut_child = i;
        *children = f;
        return SP_EXPAND;
    }
    f = sp_worker_frame(w, 1); /* depth 0 holds n's key as rewritten */
    if (!f)
        return w->failed = true, SP_EXPAND;
    sp_frame_reset(f);
    sp_outcome o = rules->expand(w, n, f);
    if (o == SP_UNKNOWN && !w->failed && seed_children(w, f))
        o = SP_WIN;
    if (o == SP_UNKNOWN && !w->failed && f->n == 0)
        o = SP_LOSS;
    *children = f;
    return o == SP_UNKNOWN ? SP_EXPAND : (sp_resolved)o;
}
