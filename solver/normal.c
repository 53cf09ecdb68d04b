/* normal.c: the normal-play rule set: nodes are couples (P, k) = P + *k (Lemoine and Viennot).
 * Lands whose nimber is stored are folded into k; a sum of several unknown lands is reduced to its
 * largest land by computing the nimbers of the others first, each by proving (L, 0), (L, 1), ... */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

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

static int node_room(sp_frame *f, size_t len)
{
    if (f->node_cap >= len)
        return 0;
    sp_tok *t = realloc(f->node_tok, (len + 256) * sizeof(sp_tok));
    if (!t)
        return -1;
    f->node_tok = t;
    f->node_cap = len + 256;
    return 0;
}

static sp_outcome normal_resolve(sp_worker *w, sp_node *n, unsigned depth)
{
    uint32_t k = n->k;
    lands l;
    fold_known(w, n->key, n->len, &k, &l);
    if (l.n == 0)
        return k ? SP_WIN : SP_LOSS;
    if (l.n > 1) {
        /* Sprague-Grundy: the nimbers of all lands but the largest, then one couple is left */
        unsigned keep = largest(n->key, &l);
        for (unsigned i = 0; i < l.n; i++) {
            if (i == keep)
                continue;
            int g = sp_normal_land_nimber(w, n->key + l.off[i], l.len[i], depth + 1);
            if (g < 0)
                return SP_UNKNOWN;
            k ^= (uint32_t)g;
        }
        l.off[0] = l.off[keep];
        l.len[0] = l.len[keep];
        l.n = 1;
    }
    if (l.len[0] == n->len && k == n->k)
        return SP_UNKNOWN;
    sp_frame *f = sp_worker_frame(w, depth);
    if (!f || node_room(f, l.len[0])) {
        w->failed = true;
        return SP_UNKNOWN;
    }
    n->len = (uint32_t)gather(n->key, &l, f->node_tok);
    n->key = f->node_tok;
    n->k = k;
    sp_node_hash(n, SP_PLAY_NORMAL);
    return SP_UNKNOWN;
}

/* Children of (L, k): (L, j) for every j < k, and (L', k) for every child L' of L, with the
 * stored nimbers of L's lands folded in. */
static sp_outcome normal_expand(sp_worker *w, const sp_node *n, sp_frame *f)
{
    unsigned lives = sp_key_lives(n->key, n->len);
    for (uint32_t j = 0; j < n->k; j++)
        if (sp_frame_add_child(f, n->key, n->len, j, SP_PLAY_NORMAL, lives + 4 * j) < 0)
            return w->failed = true, SP_UNKNOWN;
    if (sp_land_children(w->canon, n->key, n->len, &f->raw))
        return w->failed = true, SP_UNKNOWN;
    sp_tok *buf = w->scratch;
    for (size_t c = 0; c < f->raw.n; c++) {
        const sp_tok *ck = f->raw.tok + f->raw.off[c];
        uint32_t k = n->k;
        lands l;
        fold_known(w, ck, f->raw.len[c], &k, &l);
        if (l.n == 0) {
            if (k == 0)
                return SP_WIN; /* a move to a lost position */
            continue;          /* a move to a won position proves nothing */
        }
        size_t len = gather(ck, &l, buf);
        uint32_t order = sp_key_lives(buf, len) + 4 * k;
        if (sp_frame_add_child(f, buf, len, k, SP_PLAY_NORMAL, order) < 0)
            return w->failed = true, SP_UNKNOWN;
    }
    return SP_UNKNOWN;
}

static void normal_proven(sp_worker *w, const sp_node *n, sp_outcome o)
{
    /* a lost couple (L, k) of one land says nimber(L) = k */
    if (o == SP_LOSS && n->len > 0 && sp_key_lands(n->key, n->len, NULL, NULL, 0) == 1)
        sp_nimstore_put(w->eng->nim, n->key, n->len, sp_key_hash64(n->key, n->len), n->k);
}

const sp_rules sp_rules_normal = {SP_PLAY_NORMAL, normal_resolve, normal_expand, normal_proven};

int sp_normal_land_nimber(sp_worker *w, const sp_tok *land, size_t len, unsigned depth)
{
    int g = sp_nimstore_get(w->eng->nim, land, len, sp_key_hash64(land, len));
    if (g >= 0)
        return g;
    for (uint32_t k = 0;; k++) {
        sp_node n = {land, (uint32_t)len, k, {0, 0}};
        sp_node_hash(&n, SP_PLAY_NORMAL);
        sp_outcome o = sp_engine_prove(w, &sp_rules_normal, &n, depth);
        if (o == SP_UNKNOWN)
            return -1;
        if (o == SP_LOSS)
            return (int)k;
    }
}
