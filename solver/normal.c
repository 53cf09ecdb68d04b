/* normal.c: the normal-play rule set: nodes are couples (P, k) = P + *k (Lemoine and Viennot).
 * Lands whose nimber is stored are folded into k; a sum of several unknown lands is settled one
 * land's nimber at a time inside the search, each by proving (L, 0), (L, 1), ... in turn. */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "tune.h"

#define MAX_LANDS SP_MAX_LANDS

typedef struct lands {
    unsigned n;
    uint32_t off[MAX_LANDS], len[MAX_LANDS];
} lands;

/* Splits a key into lands and folds the known ones into *k; the unknown ones stay in l. */
static void fold_known(sp_worker *w, const sp_tok *key, size_t len, uint32_t *k, lands *l)
{
    lands all;
    all.n = sp_key_lands(key, len, all.off, all.len, MAX_LANDS);
    l->n = 0;
    for (unsigned i = 0; i < all.n; i++) {
        const sp_tok *lk = key + all.off[i];
        int g = sp_nimstore_get(w->eng->nim, lk, all.len[i], sp_key_hash64(lk, all.len[i]));
        if (g >= 0) {
            *k ^= (uint32_t)g;
        } else {
            l->off[l->n] = all.off[i];
            l->len[l->n++] = all.len[i];
        }
    }
}

static size_t gather(const sp_tok *key, const lands *l, sp_tok *out)
{
    size_t len = 0;
    for (unsigned i = 0; i < l->n; i++) {
        memcpy(out + len, key + l->off[i], l->len[i] * sizeof(sp_tok));
        len += l->len[i];
    }
    return len;
}


/* The least j such that (L, j) is not known to be won: the candidate nimber of L; *lost when (L, j)
 * is known to be lost, i.e. nimber(L) = j though the nimber store did not keep it (it was full). */
static uint32_t candidate_nimber(sp_worker *w, const sp_tok *land, uint32_t len, bool *lost)
{
    for (uint32_t j = 0;; j++) {
        sp_node c = {land, len, j, {0, 0}};
        sp_tt_entry e;
        sp_node_hash(&c, SP_PLAY_NORMAL);
        bool hit = sp_engine_probe(w, c.h, &e);
        if (!hit || e.pn != 0) {
            *lost = hit && e.dn == 0;
            return j;
        }
    }
}

static unsigned largest(const sp_tok *key, const lands *l)
{
    unsigned best = 0, best_lives = 0;
    for (unsigned i = 0; i < l->n; i++) {
        unsigned lives = sp_key_lives(key + l->off[i], l->len[i]);
        if (i == 0 || lives >= best_lives) {
            best = i;
            best_lives = lives;
        }
    }
    return best;
}

/* The part of a sum to settle next: the couple (L, j) of the smallest land but the largest, with j
 * its candidate nimber; returns L's index in l (*lost as candidate_nimber says). */
static unsigned settle_next(sp_worker *w, const sp_tok *key, const lands *l, unsigned last, sp_node *sub, bool *lost)
{
    unsigned best = last == 0 && l->n > 1 ? 1 : 0, best_lives = ~0u;
    for (unsigned i = 0; i < l->n; i++) {
        unsigned v = sp_key_lives(key + l->off[i], l->len[i]);
        if (i != last && v < best_lives) {
            best = i;
            best_lives = v;
        }
    }
    sub->key = key + l->off[best];
    sub->len = l->len[best];
    sub->k = candidate_nimber(w, sub->key, sub->len, lost);
    sp_node_hash(sub, SP_PLAY_NORMAL);
    return best;
}

/* Rewrites n as the unknown lands l of its key beside a heap of k; false when memory is short. */
static bool rewrite(sp_worker *w, sp_node *n, const lands *l, uint32_t k, unsigned depth)
{
    size_t total = 0;
    for (unsigned i = 0; i < l->n; i++)
        total += l->len[i];
    if (total == n->len && k == n->k)
        return true;
    sp_frame *f = sp_worker_frame(w, depth);
    sp_tok *dst = f ? sp_frame_node_room(f, n->key, total) : NULL;
    if (!dst)
        return false;
    n->len = (uint32_t)gather(n->key, l, dst);
    n->key = dst;
    n->k = k;
    sp_node_hash(n, SP_PLAY_NORMAL);
    return true;
}

/* Sprague-Grundy: known nimbers fold into k. A sum of several unknown lands waits for the nimber of
 * its smallest land: the couple (L, j) for the least j not yet known to be won is settled next (a
 * loss there says nimber(L) = j). A single unknown land is a couple to expand. */
static sp_resolved normal_resolve(sp_worker *w, sp_node *n, unsigned depth, sp_node *sub, uint32_t rest[2])
{
    uint32_t k = n->k;
    lands l;
    fold_known(w, n->key, n->len, &k, &l);
    for (;;) {
        if (l.n == 0)
            return k ? SP_RESOLVED_WIN : SP_RESOLVED_LOSS;
        if (!rewrite(w, n, &l, k, depth)) {
            w->failed = true;
            return SP_EXPAND;
        }
        if (l.n == 1)
            return SP_EXPAND;
        for (unsigned j = 0, off = 0; j < l.n; off += l.len[j++])
            l.off[j] = off; /* the lands now lie one after the other in n's key */
        unsigned last = largest(n->key, &l);
        bool lost;
        unsigned i = settle_next(w, n->key, &l, last, sub, &lost);
        if (!lost) {
            /* after it: the other lands to settle (at least 1 each), then the largest as a couple,
             * unexplored */
            rest[0] = l.n - 1;
            rest[1] = l.n - 2 + sp_engine_initial_dn(n->key + l.off[last], l.len[last], k);
            return SP_SUM;
        }
        /* settled already, its nimber known from the table alone: settling it again would find the
         * same and loop for ever */
        k ^= sub->k;
        l.n--;
        memmove(l.off + i, l.off + i + 1, (l.n - i) * sizeof *l.off);
        memmove(l.len + i, l.len + i + 1, (l.n - i) * sizeof *l.len);
    }
}

/* A child position C of L, beside the parent's heap k: stored nimbers folded in, then ready. */
static bool normal_prepare(sp_worker *w, uint32_t k, const sp_tok *ck, size_t clen, uint32_t move)
{
    lands l;
    fold_known(w, ck, clen, &k, &l);
    if (l.n == 0)
        return k == 0; /* a move to a lost position; a move to a won one proves nothing */
    size_t len = gather(ck, &l, w->scratch);
    sp_team_ready(w, w->scratch, len, k, SP_PLAY_NORMAL, sp_key_lives(w->scratch, len) + SP_TUNE_ORDER_HEAP * k,
                    sp_engine_initial_dn(w->scratch, len, k), move);
    return false;
}

/* Children of (L, k): (L, j) for every j < k, and (L', k) for every child L' of L, with the
 * stored nimbers of L's lands folded in. */
static sp_outcome normal_expand(sp_worker *w, const sp_node *n, sp_frame *f)
{
    unsigned lives = n->k ? sp_key_lives(n->key, n->len) : 0;
    uint64_t moves = n->k ? sp_key_moves_estimate(n->key, n->len) : 0;
    for (uint32_t j = 0; j < n->k; j++)
        if (sp_frame_add_child(f, n->key, n->len, j, SP_PLAY_NORMAL, lives + SP_TUNE_ORDER_HEAP * j,
                               sp_engine_dn_of(moves + j)) < 0)
            return w->failed = true, SP_UNKNOWN;
    return sp_team_expand(w, n->key, n->len, n->k, normal_prepare, f);
}

static void normal_proven(sp_worker *w, const sp_node *n, sp_outcome o, uint64_t work)
{
    (void)work;
    /* a lost couple (L, k) of one land says nimber(L) = k */
    if (o == SP_LOSS && n->len > 0 && sp_key_lands(n->key, n->len, NULL, NULL, 0) == 1)
        sp_nimstore_put(w->eng->nim, n->key, n->len, sp_key_hash64(n->key, n->len), n->k);
}

const sp_rules sp_rules_normal = {SP_PLAY_NORMAL, normal_resolve, normal_expand, normal_proven};
