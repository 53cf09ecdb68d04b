/* minimise.c: certificate minimisation (minimise.h): the graph of questions and answers that the
 * databases offer, a greedy choice of answers over it, and the removal of facts it can do without. */
#include "minimise.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "expand.h"
#include "grow.h"
#include "keylist.h"
#include "merge.h"
#include "rng.h"
#include "tune.h"
#include "verify.h"

/* Answers kept per question: the first found (in the order of the moves), so that the graph stays
 * within a bound however many facts the databases offer. */
#define MAX_ANSWERS 32
/* The land memo starts again beyond this many lands: bounded memory. */
#define MEMO_LANDS (1u << 20)
/* The large neighbourhood search: rounds per --rounds, and one fact in LNS_HOLD of the best set held
 * back in each. */
#define LNS_PER_ROUND 4
#define LNS_HOLD 8

typedef struct vec {
    uint32_t *v;
    size_t n, cap;
} vec;

static int push(vec *a, uint32_t x)
{
    if (sp_grow((void **)&a->v, &a->cap, a->n + 1, sizeof *a->v))
        return -1;
    a->v[a->n++] = x;
    return 0;
}

static void vec_free(vec *a)
{
    free(a->v);
    memset(a, 0, sizeof *a);
}

/* Per land expanded: its children whose lands all have facts, each as the XOR of their nimbers and
 * the facts (node ids). The lands' entries are appended whole, one land after the other. */
typedef struct memo {
    sp_children keys;
    vec first;  /* land i: entries first[i] .. first[i + 1] */
    vec exor;   /* entry e: XOR of its facts' nimbers */
    vec e0;     /* entry e: ids[e0[e] .. e0[e + 1]) */
    vec ids;
} memo;

/* The graph. Node v < db.facts.n is fact v of the database; node `root` is the root's claim. A node's
 * questions are q0[v] .. q0[v] + qn[v]; question q's answers qa[q] .. qa[q + 1]; answer a's facts
 * al[a] .. al[a + 1] in lands (sorted, no repeats). */
typedef struct graph {
    sp_cert db;
    uint32_t nodes, root;
    size_t own;      /* the first database's facts are nodes 0 .. own - 1 */
    uint32_t *q0, *qn;
    uint16_t *lives;
    uint8_t *queued, *listed;
    bool lazy;       /* facts are listed as the rounds choose them, not all first */
    bool sealed;     /* qa and al end with their sentinels */
    vec qa, qowner, al, lands;
    vec todo;        /* nodes queued for listing */
    memo m;
    sp_canon_ctx *ctx;
    sp_children kids, scratch;
    uint64_t positions;
    int oom;
} graph;

/* ---------------------------------------------------------------- the land memo */

static void memo_init(memo *m)
{
    memset(m, 0, sizeof *m);
    sp_children_init(&m->keys);
}

static void memo_free(memo *m)
{
    sp_children_free(&m->keys);
    vec_free(&m->first), vec_free(&m->exor), vec_free(&m->e0), vec_free(&m->ids);
}

static void memo_clear(memo *m)
{
    sp_children_clear(&m->keys);
    m->first.n = m->exor.n = m->e0.n = m->ids.n = 0;
}

/* The nimber XOR of a position's lands and their facts (into ids); -1 when a land has none. */
static long position_facts(const sp_cert *db, const sp_tok *key, size_t len, vec *ids, int *oom)
{
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    unsigned n = sp_key_lands(key, len, off, lens, SP_MAX_LANDS);
    long x = 0;
    size_t had = ids->n;
    for (unsigned i = 0; i < n; i++) {
        long f = sp_cert_find(db, key + off[i], lens[i], 0);
        if (f < 0) {
            ids->n = had;
            return -1;
        }
        x ^= db->k[f];
        if (push(ids, (uint32_t)f))
            *oom = 1;
    }
    return x;
}

/* Expands a land into the memo; its index, or -1 when out of memory. */
static long memo_add(graph *g, const sp_tok *land, size_t len)
{
    memo *m = &g->m;
    if (m->keys.n >= MEMO_LANDS)
        memo_clear(m);
    if (sp_expand_land(g->ctx, NULL, land, len, &g->scratch) || sp_children_add(&m->keys, land, len) < 0)
        return -1;
    g->positions += g->scratch.n;
    if (m->first.n == 0 && push(&m->first, 0))
        return -1;
    for (size_t c = 0; c < g->scratch.n; c++) {
        uint32_t at = (uint32_t)m->ids.n;
        long x = position_facts(&g->db, g->scratch.tok + g->scratch.off[c], g->scratch.len[c], &m->ids, &g->oom);
        if (x >= 0 && (push(&m->exor, (uint32_t)x) || push(&m->e0, at)))
            return -1;
    }
    if (push(&m->first, (uint32_t)m->exor.n))
        return -1;
    return (long)m->keys.n - 1;
}

/* The memo's index of a land, expanding it when absent; -1 when out of memory. */
static long memo_get(graph *g, const sp_tok *land, size_t len)
{
    long i = sp_children_find(&g->m.keys, land, len);
    return i >= 0 ? i : memo_add(g, land, len);
}

/* The facts of entry e: ids[from .. to). */
static void memo_entry(const memo *m, size_t e, size_t *from, size_t *to)
{
    *from = m->e0.v[e];
    *to = e + 1 < m->e0.n ? m->e0.v[e + 1] : m->ids.n;
}

/* ---------------------------------------------------------------- listing the questions */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Whether the answer just appended (lands from `at`) repeats one of this question's (from a0). */
static bool repeats(const graph *g, size_t a0, size_t at)
{
    size_t n = g->lands.n - at;
    for (size_t a = a0; a < g->al.n; a++) {
        size_t s = g->al.v[a], e = a + 1 < g->al.n ? g->al.v[a + 1] : at;
        if (e - s == n && !memcmp(g->lands.v + s, g->lands.v + at, n * sizeof *g->lands.v))
            return true;
    }
    return false;
}

/* Closes the answer whose facts were appended from `at`: sorted, without repeats, queued for listing;
 * dropped when the question has it already. */
static void close_answer(graph *g, size_t a0, size_t at)
{
    uint32_t *l = g->lands.v + at;
    size_t n = g->lands.n - at, k = 0;
    qsort(l, n, sizeof *l, cmp_u32);
    for (size_t i = 0; i < n; i++)
        if (k == 0 || l[i] != l[k - 1])
            l[k++] = l[i];
    g->lands.n = at + k;
    if (repeats(g, a0, at)) {
        g->lands.n = at;
        return;
    }
    if (push(&g->al, (uint32_t)at))
        g->oom = 1;
    for (size_t i = 0; i < k; i++)
        if (!g->queued[l[i]] && (g->queued[l[i]] = 1, push(&g->todo, l[i])))
            g->oom = 1;
}

/* The answers to (key, j) that move in land i (the others stay: f their facts), from the memo. */
static void land_answers(graph *g, const sp_tok *land, size_t len, const long *f, unsigned n, unsigned i,
                         uint32_t want, size_t a0)
{
    long mi = memo_get(g, land, len);
    if (mi < 0) {
        g->oom = 1;
        return;
    }
    const memo *m = &g->m;
    for (size_t e = m->first.v[mi]; e < m->first.v[mi + 1] && g->al.n - a0 < MAX_ANSWERS && !g->oom; e++) {
        if (m->exor.v[e] != want)
            continue;
        size_t at = g->lands.n, from, to;
        memo_entry(m, e, &from, &to);
        for (unsigned k = 0; k < n; k++)
            if (k != i && push(&g->lands, (uint32_t)f[k]))
                g->oom = 1;
        for (size_t x = from; x < to; x++)
            if (push(&g->lands, m->ids.v[x]))
                g->oom = 1;
        close_answer(g, a0, at);
    }
}

/* Lists the question "the player to move in (key, j) has a move to a claimed loss" for node v: every
 * answer the database offers, up to MAX_ANSWERS. */
static void question(graph *g, uint32_t v, const sp_tok *key, size_t len, uint32_t j)
{
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    long f[SP_MAX_LANDS];
    unsigned n = sp_key_lands(key, len, off, lens, SP_MAX_LANDS), missing = 0;
    uint32_t x = 0;
    size_t a0 = g->al.n;
    if (push(&g->qa, (uint32_t)a0) || push(&g->qowner, v)) {
        g->oom = 1;
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        f[i] = sp_cert_find(&g->db, key + off[i], lens[i], 0);
        missing += f[i] < 0;
        x ^= f[i] < 0 ? 0 : g->db.k[f[i]];
    }
    if (missing == 0 && x < j) { /* the Nim move */
        size_t at = g->lands.n;
        for (unsigned i = 0; i < n; i++)
            if (push(&g->lands, (uint32_t)f[i]))
                g->oom = 1;
        close_answer(g, a0, at);
    }
    for (unsigned i = 0; i < n && !g->oom; i++) {
        if (missing > (f[i] < 0) || (i > 0 && lens[i] == lens[i - 1] &&
                                     !memcmp(key + off[i], key + off[i - 1], lens[i] * sizeof *key)))
            continue; /* another land has no fact, or the same land was just tried */
        uint32_t others = x ^ (f[i] < 0 ? 0 : g->db.k[f[i]]);
        land_answers(g, key + off[i], lens[i], f, n, i, j ^ others, a0);
    }
}

/* Lists the questions of fact v, (L, g): the moves to (L, j), j < g, and to (C, g), C a child of L. */
static void list_fact(graph *g, uint32_t v)
{
    size_t len;
    const sp_tok *key = sp_cert_fact(&g->db, v, &len);
    uint32_t k = g->db.k[v];
    g->q0[v] = (uint32_t)g->qa.n;
    for (uint32_t j = 0; j < k && !g->oom; j++)
        question(g, v, key, len, j);
    if (sp_expand_land(g->ctx, NULL, key, len, &g->kids)) {
        g->oom = 1;
        return;
    }
    g->positions += g->kids.n;
    for (size_t c = 0; c < g->kids.n && !g->oom; c++)
        question(g, v, g->kids.tok + g->kids.off[c], g->kids.len[c], k);
    g->qn[v] = (uint32_t)(g->qa.n - g->q0[v]);
}

/* A root's question: a claimed loss needs its own lands' facts, with XOR 0 (an answer of its own);
 * a claimed win a move to a claimed loss. */
static void root_question(graph *g, const sp_tok *key, size_t len, int outcome)
{
    if (outcome == SP_CERT_WIN) {
        question(g, g->root, key, len, 0);
    } else if (!push(&g->qa, (uint32_t)g->al.n) && !push(&g->qowner, g->root)) {
        size_t at = g->lands.n;
        if (position_facts(&g->db, key, len, &g->lands, &g->oom) == 0)
            close_answer(g, g->al.n, at);
    } else {
        g->oom = 1;
    }
}

/* The root node asks one question per root (the further roots of a fact base too). */
static void list_root(graph *g)
{
    const sp_cert *c = &g->db;
    g->q0[g->root] = (uint32_t)g->qa.n;
    root_question(g, c->root, c->root_len, c->outcome);
    for (size_t i = 0; i < c->nmore; i++)
        root_question(g, c->more[i].key, c->more[i].len, c->more[i].outcome);
    g->qn[g->root] = (uint32_t)(g->qa.n - g->q0[g->root]);
}

/* Lists the questions of node v once. qa and al keep a sentinel each at their end (the end of the
 * last question's answers and of the last answer's facts), taken off while a node is listed. */
static void list_node(graph *g, uint32_t v)
{
    if (g->listed[v])
        return;
    if (g->sealed)
        g->qa.n--, g->al.n--;
    if (v == g->root)
        list_root(g);
    else
        list_fact(g, v);
    g->listed[v] = 1;
    g->sealed = !push(&g->qa, (uint32_t)g->al.n) && !push(&g->al, (uint32_t)g->lands.n);
    g->oom |= !g->sealed;
}

static bool stopped(const sp_minimise_opts *o)
{
    return o->stop && atomic_load_explicit(o->stop, memory_order_relaxed);
}

/* Lists the questions of the root and (unless lazy) of every fact an answer names, transitively.
 * Returns 0, 1 stopped, -1 out of memory. */
static int explore(graph *g, const sp_minimise_opts *o)
{
    double t0 = sp_clock_now(), last = t0;
    list_node(g, g->root);
    for (size_t i = 0; !g->lazy && i < g->todo.n && !g->oom; i++) {
        if (stopped(o))
            return 1;
        double t = o->progress ? sp_clock_now() : 0;
        if (o->progress && t - last >= SP_TUNE_PROGRESS_SECONDS) {
            last = t;
            o->progress(o->arg, i, g->todo.n, t - t0);
        }
        list_node(g, g->todo.v[i]);
    }
    return g->oom ? -1 : 0;
}

/* ---------------------------------------------------------------- the graph */

/* The root to prove: db[0]'s, or its root 0*spots (spots not 0); -1 when it has none such. */
static int pick_root(const sp_cert *d0, unsigned spots, sp_cert_root *root)
{
    *root = (sp_cert_root){d0->spots, d0->outcome, d0->root, d0->root_len};
    for (size_t i = 0; spots && root->spots != spots && i < d0->nmore; i++)
        *root = d0->more[i];
    return spots && root->spots != spots ? -1 : 0;
}

/* The union of the databases (the first's nimber wins a disagreement: the check will judge), with
 * the root chosen; joint: with the roots of all of them; else, no root given, with db[0]'s. */
static int merge_db(sp_cert *u, const sp_cert *const *db, size_t ndb, bool joint, const sp_cert_root *root,
                    bool root_given)
{
    if (sp_cert_init(u, SP_CERT_NORMAL, root->spots, root->key, root->len, root->outcome))
        return -1;
    for (size_t d = 0; d < ndb; d++) {
        char why[256];
        if ((joint || (d == 0 && !root_given)) && sp_cert_merge_roots(u, db[d], why, sizeof why))
            return -1;
        for (size_t i = 0; i < db[d]->facts.n; i++) {
            size_t len;
            const sp_tok *key = sp_cert_fact(db[d], i, &len);
            if (sp_cert_add(u, key, len, db[d]->k[i]) < 0)
                return -1;
        }
    }
    return 0;
}

static void graph_free(graph *g)
{
    sp_cert_free(&g->db);
    free(g->q0), free(g->qn), free(g->lives), free(g->queued), free(g->listed);
    vec_free(&g->qa), vec_free(&g->qowner), vec_free(&g->al), vec_free(&g->lands), vec_free(&g->todo);
    memo_free(&g->m);
    sp_children_free(&g->kids);
    sp_children_free(&g->scratch);
    sp_canon_ctx_free(g->ctx);
}

static int graph_init(graph *g, const sp_cert *const *db, size_t ndb, bool joint, const sp_cert_root *root,
                      bool root_given)
{
    memset(g, 0, sizeof *g);
    memo_init(&g->m);
    sp_children_init(&g->kids);
    sp_children_init(&g->scratch);
    if (merge_db(&g->db, db, ndb, joint, root, root_given))
        return -1;
    g->own = db[0]->facts.n;
    g->root = (uint32_t)g->db.facts.n;
    g->nodes = g->root + 1;
    g->q0 = calloc(g->nodes, sizeof *g->q0);
    g->qn = calloc(g->nodes, sizeof *g->qn);
    g->lives = calloc(g->nodes, sizeof *g->lives);
    g->queued = calloc(g->nodes, 1);
    g->listed = calloc(g->nodes, 1);
    g->ctx = sp_canon_ctx_new();
    if (!g->q0 || !g->qn || !g->lives || !g->queued || !g->listed || !g->ctx)
        return -1;
    unsigned top = 0;
    for (uint32_t v = 0; v < g->root; v++) {
        size_t len;
        const sp_tok *key = sp_cert_fact(&g->db, v, &len);
        unsigned l = sp_key_lives(key, len);
        g->lives[v] = (uint16_t)(l < UINT16_MAX - 1 ? l : UINT16_MAX - 1);
        top = g->lives[v] > top ? g->lives[v] : top;
    }
    g->lives[g->root] = (uint16_t)(top + 1); /* asked first */
    return 0;
}

/* ---------------------------------------------------------------- choosing answers */

/* What a choice works with: the facts it may use (allowed), those chosen (in), the tie-breaks. */
typedef struct choice {
    graph *g;
    const uint8_t *allowed;
    uint8_t *in;
    const double *weight;  /* per node: what adding it is thought to cost */
    const uint32_t *tie;   /* per node: the lesser is preferred among answers of equal cost */
    vec *bucket;           /* per lives: nodes chosen and not yet asked */
    size_t chosen;
    bool failed;           /* a question with no answer among the allowed facts */
    uint32_t failed_at;    /* the fact asking it */
} choice;

static void choose_node(choice *ch, uint32_t v)
{
    if (ch->in[v])
        return;
    ch->in[v] = 1;
    ch->chosen += v != ch->g->root;
    if (push(&ch->bucket[ch->g->lives[v]], v))
        ch->failed = true;
}

/* The cost of answer a: the weights of the facts it adds (-1 when one is not allowed), ties in *tie. */
static double answer_cost(const choice *ch, size_t a, uint64_t *tie)
{
    const graph *g = ch->g;
    double cost = 0;
    *tie = 0;
    for (size_t x = g->al.v[a]; x < g->al.v[a + 1]; x++) {
        uint32_t u = g->lands.v[x];
        if (!ch->allowed[u])
            return -1;
        if (!ch->in[u])
            cost += ch->weight[u], *tie += ch->tie[u];
    }
    return cost;
}

/* Answers question q: nothing when an answer costs nothing, else the cheapest allowed one. */
static void answer(choice *ch, size_t q)
{
    const graph *g = ch->g;
    long best = -1;
    double best_cost = 0;
    uint64_t best_tie = 0, tie;
    for (size_t a = g->qa.v[q]; a < g->qa.v[q + 1]; a++) {
        double cost = answer_cost(ch, a, &tie);
        if (cost == 0)
            return;
        if (cost > 0 && (best < 0 || cost < best_cost || (cost == best_cost && tie < best_tie)))
            best = (long)a, best_cost = cost, best_tie = tie;
    }
    if (best < 0) {
        ch->failed = true;
        ch->failed_at = g->qowner.v[q];
        return;
    }
    for (size_t x = g->al.v[best]; x < g->al.v[best + 1]; x++)
        choose_node(ch, g->lands.v[x]);
}

/* ---------------------------------------------------------------- answers many questions share */

/* A land that alone settles some open questions of one level: its pairs lie at [from, to). */
typedef struct offer_of {
    double score;
    uint32_t tie, u, from, to;
} offer_of;

static bool better(const offer_of *a, const offer_of *b)
{
    return a->score > b->score || (a->score == b->score && (a->tie < b->tie || (a->tie == b->tie && a->u < b->u)));
}

/* A binary heap of offers, the best on top. */
typedef struct heap {
    offer_of *v;
    size_t n, cap;
} heap;

static int heap_push(heap *h, offer_of o)
{
    if (sp_grow((void **)&h->v, &h->cap, h->n + 1, sizeof *h->v))
        return -1;
    size_t i = h->n++;
    for (; i > 0 && better(&o, &h->v[(i - 1) / 2]); i = (i - 1) / 2)
        h->v[i] = h->v[(i - 1) / 2];
    h->v[i] = o;
    return 0;
}

static offer_of heap_pop(heap *h)
{
    offer_of top = h->v[0], last = h->v[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && better(&h->v[c + 1], &h->v[c]))
            c++;
        if (!better(&h->v[c], &last))
            break;
        h->v[i] = h->v[c];
        i = c;
    }
    if (h->n)
        h->v[i] = last;
    return top;
}

/* The one fact answer a lacks (allowed, not chosen), or UINT32_MAX when it lacks none, several, or
 * one not allowed. */
static uint32_t lone_missing(const choice *ch, size_t a)
{
    const graph *g = ch->g;
    uint32_t m = UINT32_MAX;
    for (size_t x = g->al.v[a]; x < g->al.v[a + 1]; x++) {
        uint32_t u = g->lands.v[x];
        if (ch->in[u])
            continue;
        if (m != UINT32_MAX || !ch->allowed[u])
            return UINT32_MAX;
        m = u;
    }
    return m;
}

/* Whether question q has an answer among the facts chosen. */
static bool settled(const choice *ch, size_t q)
{
    const graph *g = ch->g;
    for (size_t a = g->qa.v[q]; a < g->qa.v[q + 1]; a++) {
        size_t x = g->al.v[a];
        while (x < g->al.v[a + 1] && ch->in[g->lands.v[x]])
            x++;
        if (x == g->al.v[a + 1])
            return true;
    }
    return false;
}

/* The pairs (land, question) of a level: the land alone would settle the open question. Sorted by
 * land, without repeats. */
static int level_pairs(const choice *ch, const vec *nodes, vec *pairs_u, vec *pairs_q)
{
    const graph *g = ch->g;
    vec tmp = {0};
    int rc = 0;
    for (size_t i = 0; i < nodes->n && rc == 0; i++) {
        uint32_t v = nodes->v[i];
        for (uint32_t q = g->q0[v]; q < g->q0[v] + g->qn[v] && rc == 0; q++) {
            if (settled(ch, q))
                continue;
            for (size_t a = g->qa.v[q]; a < g->qa.v[q + 1] && rc == 0; a++) {
                uint32_t u = lone_missing(ch, a);
                if (u != UINT32_MAX && (push(&tmp, u) || push(&tmp, q)))
                    rc = -1;
            }
        }
    }
    size_t n = tmp.n / 2;
    uint64_t *k = malloc((n + 1) * sizeof *k);
    if (!k)
        rc = -1;
    for (size_t i = 0; i < n && rc == 0; i++)
        k[i] = (uint64_t)tmp.v[2 * i] << 32 | tmp.v[2 * i + 1];
    if (rc == 0)
        qsort(k, n, sizeof *k, cmp_u64);
    for (size_t i = 0; i < n && rc == 0; i++)
        if ((i == 0 || k[i] != k[i - 1]) && (push(pairs_u, (uint32_t)(k[i] >> 32)) || push(pairs_q, (uint32_t)k[i])))
            rc = -1;
    free(k);
    vec_free(&tmp);
    return rc;
}

/* The open questions among pairs [from, to) and the score of choosing their land. */
static offer_of rate(const choice *ch, const vec *pq, uint32_t u, uint32_t from, uint32_t to)
{
    uint32_t open = 0;
    for (uint32_t i = from; i < to; i++)
        open += !settled(ch, pq->v[i]);
    return (offer_of){open / ch->weight[u], ch->tie[u], u, from, to};
}

/* Chooses for the questions of one level's nodes, before they are answered one by one, the lands that
 * alone settle the most of them for their weight (answers that many claimed losses share). */
static void share_level(choice *ch, const vec *nodes)
{
    vec pu = {0}, pq = {0};
    heap h = {0};
    if (level_pairs(ch, nodes, &pu, &pq))
        ch->failed = true;
    for (size_t i = 0; i < pu.n && !ch->failed;) {
        size_t j = i;
        while (j < pu.n && pu.v[j] == pu.v[i])
            j++;
        if (j - i > 1 && heap_push(&h, rate(ch, &pq, pu.v[i], (uint32_t)i, (uint32_t)j)))
            ch->failed = true;
        i = j;
    }
    while (h.n && !ch->failed) {
        offer_of top = heap_pop(&h), now = rate(ch, &pq, top.u, top.from, top.to);
        if (ch->in[top.u] || now.score * ch->weight[top.u] < 2)
            continue; /* one question only: the answers one by one do as well */
        if (now.score < top.score) {
            ch->failed |= heap_push(&h, now) != 0;
            continue;
        }
        choose_node(ch, top.u);
    }
    free(h.v);
    vec_free(&pu), vec_free(&pq);
}

/* A greedy pass from the root over the allowed facts: nodes are asked in order of decreasing lives
 * (an answer's lands have fewer lives than the fact asking), so that a fact's questions come after
 * those of every fact that may choose it; a fact not listed yet is listed when asked. in receives
 * the facts chosen; returns how many, or SIZE_MAX when some question has no allowed answer (then
 * *failed_at is the fact asking it) or memory ran out. */
static size_t greedy(graph *g, const uint8_t *allowed, const double *weight, const uint32_t *tie, uint8_t *in,
                     vec *bucket, bool share, uint32_t *failed_at)
{
    choice ch = {g, allowed, in, weight, tie, bucket, 0, false, UINT32_MAX};
    unsigned top = g->lives[g->root];
    memset(in, 0, g->nodes);
    for (unsigned l = 0; l <= top; l++)
        bucket[l].n = 0;
    choose_node(&ch, g->root);
    for (unsigned l = top + 1; l-- > 0 && !ch.failed;) {
        for (size_t i = 0; i < bucket[l].n && !ch.failed; i++)
            list_node(g, bucket[l].v[i]);
        ch.failed |= g->oom;
        if (share && !ch.failed)
            share_level(&ch, &bucket[l]);
        for (size_t i = 0; i < bucket[l].n && !ch.failed; i++) {
            uint32_t v = bucket[l].v[i];
            for (uint32_t q = g->q0[v]; q < g->q0[v] + g->qn[v] && !ch.failed; q++)
                answer(&ch, q);
        }
    }
    *failed_at = ch.failed_at;
    return ch.failed ? SIZE_MAX : ch.chosen;
}

/* ---------------------------------------------------------------- removing facts */

/* Counts over the chosen facts: per answer, its facts not alive; per question, its answers with none
 * missing; an alive fact needs each of its questions answered. */
typedef struct prune {
    const graph *g;
    uint8_t *alive;
    uint32_t *missing;  /* per answer */
    uint32_t *ok;       /* per question */
    uint32_t *r0, *rv;  /* node u: the answers naming it, rv[r0[u] .. r0[u + 1]) */
    vec killed, stack;
} prune;

static int prune_init(prune *p, const graph *g, uint8_t *alive)
{
    size_t na = g->al.n - 1, nq = g->qa.n - 1;
    memset(p, 0, sizeof *p);
    p->g = g;
    p->alive = alive;
    p->missing = calloc(na + 1, sizeof *p->missing);
    p->ok = calloc(nq + 1, sizeof *p->ok);
    p->r0 = calloc((size_t)g->nodes + 1, sizeof *p->r0);
    p->rv = malloc((g->lands.n + 1) * sizeof *p->rv);
    if (!p->missing || !p->ok || !p->r0 || !p->rv)
        return -1;
    for (size_t x = 0; x < g->lands.n; x++)
        p->r0[g->lands.v[x] + 1]++;
    for (uint32_t u = 0; u < g->nodes; u++)
        p->r0[u + 1] += p->r0[u];
    uint32_t *at = malloc(((size_t)g->nodes + 1) * sizeof *at);
    if (!at)
        return -1;
    memcpy(at, p->r0, ((size_t)g->nodes + 1) * sizeof *at);
    size_t q = 0;
    for (size_t a = 0; a < na; a++) {
        while (g->qa.v[q + 1] <= a)
            q++;
        for (size_t x = g->al.v[a]; x < g->al.v[a + 1]; x++) {
            p->rv[at[g->lands.v[x]]++] = (uint32_t)a;
            p->missing[a] += !alive[g->lands.v[x]];
        }
        p->ok[q] += p->missing[a] == 0;
    }
    free(at);
    return 0;
}

static void prune_free(prune *p)
{
    free(p->missing), free(p->ok), free(p->r0), free(p->rv);
    vec_free(&p->killed), vec_free(&p->stack);
}

/* The question answer a belongs to (qa is sorted: a binary search). */
static size_t question_of(const graph *g, uint32_t a)
{
    size_t lo = 0, hi = g->qa.n - 1;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (g->qa.v[mid] <= a)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Kills u and every alive fact left with a question unanswered; false when the root is among them
 * (or memory ran out). Every kill is logged for undo. */
static bool kill(prune *p, uint32_t u)
{
    const graph *g = p->g;
    bool root_ok = true;
    p->stack.n = 0;
    if (push(&p->stack, u))
        return false;
    p->alive[u] = 0;
    while (p->stack.n) {
        uint32_t v = p->stack.v[--p->stack.n];
        if (push(&p->killed, v))
            return false;
        for (uint32_t r = p->r0[v]; r < p->r0[v + 1]; r++) {
            uint32_t a = p->rv[r];
            if (p->missing[a]++ != 0)
                continue;
            size_t q = question_of(g, a);
            uint32_t owner = g->qowner.v[q];
            if (--p->ok[q] != 0 || !p->alive[owner])
                continue;
            if (owner == g->root)
                root_ok = false;
            p->alive[owner] = 0;
            if (push(&p->stack, owner))
                return false;
        }
    }
    return root_ok;
}

/* Brings back the facts killed since the log was at `mark`. */
static void revive(prune *p, size_t mark)
{
    const graph *g = p->g;
    while (p->killed.n > mark) {
        uint32_t v = p->killed.v[--p->killed.n];
        p->alive[v] = 1;
        for (uint32_t r = p->r0[v]; r < p->r0[v + 1]; r++) {
            uint32_t a = p->rv[r];
            if (--p->missing[a] == 0)
                p->ok[question_of(g, a)]++;
        }
    }
}

/* The order facts are tried for removal in: larger lands first (their answers need the most), then
 * by the tie-break, then by node. */
typedef struct ranked {
    uint32_t lives, tie, v;
} ranked;

static int by_rank(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->lives != y->lives)
        return x->lives > y->lives ? -1 : 1;
    if (x->tie != y->tie)
        return x->tie < y->tie ? -1 : 1;
    return (x->v > y->v) - (x->v < y->v);
}

/* Tries to remove each alive fact in turn (in the order above). Returns
 * -1 when out of memory. */
static int remove_facts(const graph *g, uint8_t *alive, const uint32_t *tie)
{
    prune p;
    int rc = prune_init(&p, g, alive);
    ranked *order = malloc(((size_t)g->root + 1) * sizeof *order);
    size_t n = 0;
    if (!order)
        rc = -1;
    for (uint32_t v = 0; v < g->root && rc == 0; v++)
        if (alive[v])
            order[n++] = (ranked){g->lives[v], tie[v], v};
    if (rc == 0)
        qsort(order, n, sizeof *order, by_rank);
    for (size_t i = 0; i < n && rc == 0; i++) {
        uint32_t v = order[i].v;
        if (!alive[v])
            continue;
        size_t mark = p.killed.n;
        if (!kill(&p, v))
            revive(&p, mark);
        else
            p.killed.n = mark; /* kept dead */
    }
    free(order);
    prune_free(&p);
    return rc;
}

/* ---------------------------------------------------------------- weights */

#define HUGE_WEIGHT 1e300

/* The least weight of an answer to question q (HUGE_WEIGHT when none has every fact weighed). */
static double least_answer(const graph *g, size_t q, const double *w)
{
    double least = HUGE_WEIGHT;
    for (size_t a = g->qa.v[q]; a < g->qa.v[q + 1]; a++) {
        double sum = 0;
        for (size_t x = g->al.v[a]; x < g->al.v[a + 1] && sum < least; x++)
            sum += w[g->lands.v[x]];
        least = sum < least ? sum : least;
    }
    return least;
}

/* The size of each fact's proof were nothing shared (each question's least answer, recursively),
 * from smaller lands up: answers name lands of fewer lives than the fact asking. With a set (or
 * NULL), what a fact of the set costs is `shared` and no more: it is there already. */
static int tree_weights(const graph *g, const uint8_t *set, double shared, double *w)
{
    uint32_t top = g->lives[g->root];
    uint32_t *at = calloc((size_t)top + 2, sizeof *at), *order = malloc((size_t)g->nodes * sizeof *order);
    if (!at || !order) {
        free(at), free(order);
        return -1;
    }
    for (uint32_t v = 0; v < g->nodes; v++)
        at[g->lives[v] + 1]++;
    for (uint32_t l = 0; l <= top; l++)
        at[l + 1] += at[l];
    for (uint32_t v = 0; v < g->nodes; v++)
        order[at[g->lives[v]]++] = v;
    for (uint32_t i = 0; i < g->nodes; i++) {
        uint32_t v = order[i];
        double sum = 1;
        for (uint32_t q = g->q0[v]; q < g->q0[v] + g->qn[v]; q++)
            sum += least_answer(g, q, w);
        /* a fact not listed yet (lazy) is weighed as one: the rounds that choose it list it */
        w[v] = set && set[v] ? shared : !g->listed[v] ? 1 : sum < HUGE_WEIGHT ? sum : HUGE_WEIGHT;
    }
    free(at), free(order);
    return 0;
}

/* ---------------------------------------------------------------- the rounds */

/* The state of the search for a small set: the best found, and scratch for a round. */
typedef struct rounds {
    graph *g;
    uint8_t *all, *best, *in, *pool;
    uint32_t *tie;
    double *unit, *tree, *rel; /* weights: 1 per fact; the size of a fact's proof as a tree; the same
                                  beside the best set so far */
    uint8_t *own;              /* the facts of the first database */
    vec *bucket;
    size_t best_n;
} rounds;

static int rounds_init(rounds *r, graph *g, uint32_t own)
{
    memset(r, 0, sizeof *r);
    r->g = g;
    r->all = malloc(g->nodes);
    r->best = malloc(g->nodes);
    r->in = malloc(g->nodes);
    r->pool = malloc(g->nodes);
    r->tie = malloc((size_t)g->nodes * sizeof *r->tie);
    r->unit = malloc((size_t)g->nodes * sizeof *r->unit);
    r->tree = malloc((size_t)g->nodes * sizeof *r->tree);
    r->bucket = calloc((size_t)g->lives[g->root] + 1, sizeof *r->bucket);
    r->best_n = SIZE_MAX;
    if (!r->all || !r->best || !r->in || !r->pool || !r->tie || !r->unit || !r->tree || !r->bucket)
        return -1;
    for (uint32_t v = 0; v < g->nodes; v++) {
        r->all[v] = g->lazy || g->queued[v] || v == g->root;
        r->unit[v] = 1;
    }
    r->own = malloc(g->nodes);
    r->rel = malloc((size_t)g->nodes * sizeof *r->rel);
    if (!r->own || !r->rel)
        return -1;
    for (uint32_t v = 0; v < g->nodes; v++)
        r->own[v] = r->all[v] && (v < own || v == g->root);
    return tree_weights(g, NULL, 0, r->tree);
}

static void rounds_free(rounds *r)
{
    if (r->bucket)
        for (unsigned l = 0; l <= r->g->lives[r->g->root]; l++)
            vec_free(&r->bucket[l]);
    free(r->all), free(r->best), free(r->in), free(r->tie), free(r->unit), free(r->tree), free(r->bucket);
    free(r->own), free(r->rel), free(r->pool);
}

/* One greedy round over the allowed facts; keeps it when it is the smallest so far. */
/* A fact whose question has no allowed answer (a database not closed: a fact of a nimber store
 * whose answers it lacks; facts held back) is allowed no more in this set, and the round is run
 * again. */
static size_t greedy_once(rounds *r, uint8_t *allowed, const double *weight, bool share);

static void round_once(rounds *r, uint8_t *allowed, const double *weight, bool share)
{
    size_t n = greedy_once(r, allowed, weight, share);
    if (n < r->best_n) {
        r->best_n = n;
        memcpy(r->best, r->in, r->g->nodes);
    }
}

/* Tie-breaks: round 0 prefers smaller lands; a later round is a random order seeded by (seed,
 * round), the facts of the best set so far first (GLOP's: known losses first). */
static void set_ties(rounds *r, unsigned round, uint64_t seed)
{
    uint64_t st = seed ^ (0x51ed270b27a8f3c5ull * (round + 1));
    for (uint32_t v = 0; v < r->g->nodes; v++) {
        uint32_t rnd = (uint32_t)(sp_rng_next(&st) >> 40);
        r->tie[v] = round == 0 ? r->g->lives[v] : (r->best[v] ? 0 : 1u << 30) + rnd;
    }
}

/* A greedy pass over the allowed facts into r->in; SIZE_MAX when none is found. */
static size_t greedy_once(rounds *r, uint8_t *allowed, const double *weight, bool share)
{
    uint32_t bad;
    size_t n;
    while ((n = greedy(r->g, allowed, weight, r->tie, r->in, r->bucket, share, &bad)) == SIZE_MAX && !r->g->oom &&
           bad != r->g->root && bad != UINT32_MAX)
        allowed[bad] = 0;
    return n;
}

/* r->in (a set that proves the root) with every fact it can do without removed, then what the root
 * still reaches of it; kept when smaller than the best. Returns -1 when out of memory. */
static int polish(rounds *r)
{
    if (remove_facts(r->g, r->in, r->tie))
        return -1;
    memcpy(r->pool, r->in, r->g->nodes);
    round_once(r, r->pool, r->unit, false);
    memcpy(r->pool, r->in, r->g->nodes);
    round_once(r, r->pool, r->unit, true);
    return 0;
}

/* Polishes the best set until it shrinks no more (or the call is stopped). */
static int shrink(rounds *r, const sp_minimise_opts *o)
{
    while (!stopped(o)) {
        size_t had = r->best_n;
        memcpy(r->in, r->best, r->g->nodes);
        if (polish(r))
            return -1;
        if (r->best_n >= had)
            return 0;
    }
    return 0;
}

/* The pool for a round of the large neighbourhood search: every fact allowed but about one in
 * LNS_HOLD of the best set's, drawn from (seed, round). */
static void hold_back(rounds *r, uint64_t seed, unsigned k)
{
    uint64_t st = seed ^ (0x2545f4914f6cdd1dull * (k + 7));
    for (uint32_t v = 0; v < r->g->nodes; v++) {
        uint64_t x = sp_rng_next(&st);
        r->pool[v] = r->all[v] && !(r->best[v] && v != r->g->root && x % LNS_HOLD == 0);
    }
}

/* The greedy rounds, then removals and a last greedy pass over what is left (deterministic), until
 * that shrinks no more. Returns -1 when out of memory or no round finds a set (the databases do not
 * prove the root). */
static int search(rounds *r, const sp_minimise_opts *o, size_t *greedy_n)
{
    /* the weights, the facts allowed and the sharing of answers take turns: each does best somewhere */
    for (unsigned k = 0; k <= o->rounds && !stopped(o); k++) {
        set_ties(r, k, o->seed);
        unsigned kind = k % 3;
        if ((kind == 1 && tree_weights(r->g, NULL, 0, r->tree)) ||
            (kind == 2 && tree_weights(r->g, r->best_n == SIZE_MAX ? NULL : r->best, 0.5, r->rel)))
            return -1;
        round_once(r, k / 6 % 2 ? r->own : r->all, kind == 0 ? r->unit : kind == 1 ? r->tree : r->rel, k % 2 == 0);
    }
    if (r->best_n == SIZE_MAX)
        return -1;
    *greedy_n = r->best_n;
    set_ties(r, 0, o->seed);
    if (shrink(r, o))
        return -1;
    /* then the best set with some of its facts held back, answered again beside the rest */
    for (unsigned k = 1; k <= o->rounds * LNS_PER_ROUND && !stopped(o); k++) {
        set_ties(r, o->rounds + k, o->seed);
        if (tree_weights(r->g, r->best, 0.5, r->rel))
            return -1;
        hold_back(r, o->seed, k);
        if (greedy_once(r, r->pool, r->rel, k % 2 == 0) != SIZE_MAX && polish(r))
            return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- local search */

/* The best set refined one fact at a time (GLOP's check run, repeated): a fact of the set is
 * forbidden, every question whose answer names it takes the cheapest other answer (the facts of the
 * set first, then the fewest new ones, each new fact answered in turn, larger lands first), and
 * whatever no answer names any more goes; the move stays when the set is no larger, else it is
 * undone. Per question of a fact of the set, the answer chosen; per fact, the chosen answers naming
 * it. */
#define NO_ANSWER UINT32_MAX

typedef struct refine {
    graph *g;
    uint8_t *in, *forbidden;
    uint32_t *ans;       /* per question: the answer chosen (NO_ANSWER: its fact is not in the set) */
    uint32_t *ref;       /* per node: chosen answers naming it (the root: one more) */
    uint32_t *aq;        /* per answer: its question */
    uint32_t *r0, *rv;   /* node u: the answers naming it, rv[r0[u] .. r0[u + 1]) */
    uint64_t *tie;       /* per node: random, drawn again each pass */
    vec log;             /* undo: (what, index, old value) triples */
    vec *bucket;         /* per lives: facts added, their questions not yet answered */
    vec zero;            /* facts whose count fell to 0 */
    size_t n;            /* facts in the set */
    bool failed;
} refine;

enum { LOG_IN, LOG_ANS, LOG_REF };

static void set_val(refine *f, int what, uint32_t i, uint32_t v)
{
    uint32_t old = what == LOG_IN ? f->in[i] : what == LOG_ANS ? f->ans[i] : f->ref[i];
    if (push(&f->log, (uint32_t)what) || push(&f->log, i) || push(&f->log, old))
        f->failed = true;
    if (what == LOG_IN)
        f->in[i] = (uint8_t)v, f->n += v ? 1 : -1;
    else if (what == LOG_ANS)
        f->ans[i] = v;
    else
        f->ref[i] = v;
}

static void undo(refine *f, size_t mark)
{
    while (f->log.n > mark) {
        uint32_t old = f->log.v[--f->log.n], i = f->log.v[--f->log.n], what = f->log.v[--f->log.n];
        if (what == LOG_IN)
            f->n += old ? 1 : -1, f->in[i] = (uint8_t)old;
        else if (what == LOG_ANS)
            f->ans[i] = old;
        else
            f->ref[i] = old;
    }
}

/* The answers naming each node, and each answer's question. */
static int reverse_index(const graph *g, uint32_t **r0, uint32_t **rv, uint32_t **aq)
{
    size_t na = g->al.n - 1;
    *r0 = calloc((size_t)g->nodes + 2, sizeof **r0);
    *rv = malloc((g->lands.n + 1) * sizeof **rv);
    *aq = malloc((na + 1) * sizeof **aq);
    if (!*r0 || !*rv || !*aq)
        return -1;
    for (size_t x = 0; x < g->lands.n; x++)
        (*r0)[g->lands.v[x] + 2]++;
    for (uint32_t u = 0; u < g->nodes; u++)
        (*r0)[u + 2] += (*r0)[u + 1];
    for (size_t q = 0, a = 0; a < na; a++) {
        while (g->qa.v[q + 1] <= a)
            q++;
        (*aq)[a] = (uint32_t)q;
        for (size_t x = g->al.v[a]; x < g->al.v[a + 1]; x++)
            (*rv)[(*r0)[g->lands.v[x] + 1]++] = (uint32_t)a;
    }
    return 0;
}

static void add_fact(refine *f, uint32_t u)
{
    set_val(f, LOG_IN, u, 1);
    if (push(&f->bucket[f->g->lives[u]], u))
        f->failed = true;
}

/* Takes answer a's facts (count up, the new ones into the set) or lets them go (count down). */
static void take(refine *f, uint32_t a, int up)
{
    const graph *g = f->g;
    for (size_t x = g->al.v[a]; x < g->al.v[a + 1]; x++) {
        uint32_t u = g->lands.v[x];
        set_val(f, LOG_REF, u, f->ref[u] + (up ? 1 : -1));
        if (up && !f->in[u])
            add_fact(f, u);
        if (!up && f->ref[u] == 0 && push(&f->zero, u))
            f->failed = true;
    }
}

/* The cheapest allowed answer of q: fewest facts new to the set, then the least ties; NO_ANSWER when
 * none is allowed (a fact forbidden, or not listed). */
static uint32_t cheapest(const refine *f, size_t q)
{
    const graph *g = f->g;
    uint32_t best = NO_ANSWER;
    uint64_t best_cost = UINT64_MAX;
    for (size_t a = g->qa.v[q]; a < g->qa.v[q + 1]; a++) {
        uint64_t cost = 0;
        for (size_t x = g->al.v[a]; x < g->al.v[a + 1] && cost < best_cost; x++) {
            uint32_t u = g->lands.v[x];
            if (f->forbidden[u] || !g->listed[u])
                cost = UINT64_MAX;
            else
                cost += f->in[u] ? f->tie[u] >> 44 : (1ull << 40) + (f->tie[u] >> 24);
        }
        if (cost < best_cost)
            best_cost = cost, best = (uint32_t)a;
    }
    return best;
}

/* Answers question q afresh (its fact is in the set). */
static void reanswer(refine *f, size_t q)
{
    uint32_t a = cheapest(f, q), old = f->ans[q];
    if (a == NO_ANSWER) {
        f->failed = true;
        return;
    }
    set_val(f, LOG_ANS, (uint32_t)q, a);
    take(f, a, 1);
    if (old != NO_ANSWER)
        take(f, old, 0);
}

/* The questions of the facts added, larger lands first: an answer names smaller lands only. */
static void answer_added(refine *f)
{
    const graph *g = f->g;
    for (unsigned l = g->lives[g->root] + 1; l-- > 0 && !f->failed;) {
        while (f->bucket[l].n && !f->failed) {
            uint32_t v = f->bucket[l].v[--f->bucket[l].n];
            for (uint32_t q = g->q0[v]; q < g->q0[v] + g->qn[v] && !f->failed && f->in[v]; q++)
                if (f->ans[q] == NO_ANSWER)
                    reanswer(f, q);
        }
    }
}

/* Facts no chosen answer names leave the set, and with them what only their answers named. */
static void drop_unnamed(refine *f)
{
    const graph *g = f->g;
    while (f->zero.n && !f->failed) {
        uint32_t v = f->zero.v[--f->zero.n];
        if (!f->in[v] || f->ref[v] != 0)
            continue;
        set_val(f, LOG_IN, v, 0);
        for (uint32_t q = g->q0[v]; q < g->q0[v] + g->qn[v]; q++) {
            uint32_t a = f->ans[q];
            set_val(f, LOG_ANS, q, NO_ANSWER);
            take(f, a, 0);
        }
    }
}

/* Forbids u for one move: the answers naming it are replaced. Kept when the set is no larger. */
static bool kick(refine *f, uint32_t u)
{
    const graph *g = f->g;
    size_t mark = f->log.n, had = f->n;
    f->forbidden[u] = 1;
    f->zero.n = 0;
    for (uint32_t r = f->r0[u]; r < f->r0[u + 1] && !f->failed; r++) {
        uint32_t a = f->rv[r], q = f->aq[a];
        if (f->ans[q] == a && f->in[g->qowner.v[q]])
            reanswer(f, q);
    }
    answer_added(f);
    drop_unnamed(f);
    f->forbidden[u] = 0;
    for (unsigned l = 0; l <= g->lives[g->root]; l++)
        f->bucket[l].n = 0;
    bool keep = !f->failed && f->n <= had;
    if (!keep)
        undo(f, mark);
    f->failed = false;
    f->log.n = 0;
    return keep;
}

static void refine_free(refine *f)
{
    if (f->bucket)
        for (unsigned l = 0; l <= f->g->lives[f->g->root]; l++)
            vec_free(&f->bucket[l]);
    free(f->in), free(f->forbidden), free(f->ans), free(f->ref), free(f->aq), free(f->r0), free(f->rv);
    free(f->tie), free(f->bucket);
    vec_free(&f->log), vec_free(&f->zero);
}

static void draw_ties(refine *f, uint64_t seed, unsigned pass)
{
    uint64_t st = seed ^ (0x9e3779b97f4a7c15ull * (pass + 3));
    for (uint32_t v = 0; v < f->g->nodes; v++)
        f->tie[v] = sp_rng_next(&st);
}

/* The refinement's state for the set `set` (which proves the root): an answer inside the set for
 * each question of its facts. -1 when out of memory or the set does not prove the root. */
static int refine_init(refine *f, graph *g, const uint8_t *set, uint64_t seed)
{
    memset(f, 0, sizeof *f);
    f->g = g;
    size_t nq = g->qa.n - 1;
    f->in = calloc(g->nodes, 1);
    f->forbidden = calloc(g->nodes, 1);
    f->ans = malloc((nq + 1) * sizeof *f->ans);
    f->ref = calloc(g->nodes, sizeof *f->ref);
    f->tie = malloc((size_t)g->nodes * sizeof *f->tie);
    f->bucket = calloc((size_t)g->lives[g->root] + 1, sizeof *f->bucket);
    if (!f->in || !f->forbidden || !f->ans || !f->ref || !f->tie || !f->bucket ||
        reverse_index(g, &f->r0, &f->rv, &f->aq))
        return -1;
    for (size_t q = 0; q < nq; q++)
        f->ans[q] = NO_ANSWER;
    draw_ties(f, seed, 0);
    for (uint32_t v = 0; v < g->nodes; v++)
        f->forbidden[v] = !set[v]; /* the first answers lie inside the set */
    f->ref[g->root] = 1;
    add_fact(f, g->root);
    answer_added(f);
    memset(f->forbidden, 0, g->nodes);
    f->log.n = 0;
    return f->failed ? -1 : 0;
}

/* Refines r->best by kicks in passes over its facts (rounds passes, at least one), each in a random
 * order; r->best follows the smallest set met. -1 when out of memory. */
static int refine_best(rounds *r, const sp_minimise_opts *o)
{
    graph *g = r->g;
    refine f;
    vec order = {0};
    int rc = refine_init(&f, g, r->best, o->seed);
    for (unsigned pass = 0; rc == 0 && pass < (o->rounds ? o->rounds : 1) && !stopped(o); pass++) {
        draw_ties(&f, o->seed, pass + 1);
        order.n = 0;
        for (uint32_t v = 0; v < g->root && rc == 0; v++)
            if (f.in[v] && push(&order, v))
                rc = -1;
        for (size_t i = order.n; i > 1; i--) { /* a shuffle */
            size_t j = f.tie[order.v[i - 1]] % i;
            uint32_t t = order.v[i - 1];
            order.v[i - 1] = order.v[j], order.v[j] = t;
        }
        for (size_t i = 0; i < order.n && rc == 0; i++) {
            if (!f.in[order.v[i]] || !kick(&f, order.v[i]))
                continue;
            if (f.n - 1 < r->best_n) {
                r->best_n = f.n - 1;
                memcpy(r->best, f.in, g->nodes);
            }
        }
    }
    vec_free(&order);
    refine_free(&f);
    return rc;
}

/* The certificate of the chosen facts, in the database's order. */
static int write_out(const graph *g, const uint8_t *in, sp_cert *out)
{
    const sp_cert *d = &g->db;
    if (sp_cert_init(out, SP_CERT_NORMAL, d->spots, d->root, d->root_len, d->outcome))
        return -1;
    for (size_t i = 0; i < d->nmore; i++) {
        if (sp_cert_add_root(out, d->more[i].spots, d->more[i].key, d->more[i].len, d->more[i].outcome)) {
            sp_cert_free(out);
            return -1;
        }
    }
    for (uint32_t v = 0; v < g->root; v++) {
        size_t len;
        const sp_tok *key = sp_cert_fact(d, v, &len);
        if (in[v] && sp_cert_add(out, key, len, d->k[v]) < 0) {
            sp_cert_free(out);
            return -1;
        }
    }
    return 0;
}

static int refuse(char *why, size_t cap, int rc, const char *what)
{
    snprintf(why, cap, "%s", what);
    return rc;
}

/* Chooses the facts and writes them to out (not yet checked). */
static int choose(graph *g, const sp_minimise_opts *o, sp_cert *out, sp_minimise_stats *st, char *why,
                  size_t cap)
{
    int rc = explore(g, o);
    if (rc)
        return refuse(why, cap, rc, rc > 0 ? "stopped" : "out of memory");
    rounds r;
    rc = rounds_init(&r, g, (uint32_t)g->own) ? -1 : search(&r, o, &st->greedy);
    if (rc == 0)
        rc = refine_best(&r, o); /* over the facts listed (lazy: those some round chose) */
    for (uint32_t v = 0; v < g->root; v++)
        st->explored += g->listed[v];
    st->positions = g->positions;
    if (rc == 0 && stopped(o))
        rc = 1;
    if (rc == 0 && write_out(g, r.best, out))
        rc = -2;
    rounds_free(&r);
    if (rc == -1 && r.best_n == SIZE_MAX)
        return refuse(why, cap, -1, "the databases' facts do not prove the root's claim");
    if (rc)
        return refuse(why, cap, rc > 0 ? 1 : -1, rc > 0 ? "stopped" : "out of memory");
    return 0;
}

/* The result must pass the checker, or it is not handed out. */
static int check(sp_cert *out, const sp_minimise_opts *o, char *why, size_t cap)
{
    sp_verify_result res;
    sp_verify_watch w = {NULL, NULL, o->stop};
    int rc = sp_verify(out, o->threads, &w, &res);
    if (rc == 0 && !res.ok)
        snprintf(why, cap, "the checker rejects the minimised certificate: %s", res.reason);
    else if (rc)
        refuse(why, cap, rc, rc > 0 ? "stopped" : "out of memory");
    if (rc || !res.ok)
        sp_cert_free(out);
    return rc ? rc : res.ok ? 0 : -1;
}

int sp_minimise(const sp_cert *const *db, size_t ndb, const sp_minimise_opts *o, sp_cert *out,
                sp_minimise_stats *st, char *why, size_t errcap)
{
    double t0 = sp_clock_now();
    memset(st, 0, sizeof *st);
    if (ndb == 0)
        return refuse(why, errcap, -1, "no certificate to minimise");
    for (size_t d = 0; d < ndb; d++)
        if (db[d]->play != SP_CERT_NORMAL)
            return refuse(why, errcap, -1, "only normal-play certificates can be minimised");
    st->before = db[0]->facts.n;
    sp_cert_root root;
    if (pick_root(db[0], o->root, &root))
        return refuse(why, errcap, -1, "the first certificate has no such root");
    graph g;
    int rc = graph_init(&g, db, ndb, o->joint, &root, o->root != 0) ? refuse(why, errcap, -1, "out of memory") : 0;
    if (rc == 0 && o->joint)
        st->before = g.db.facts.n;
    g.lazy = o->lazy;
    if (rc == 0)
        rc = choose(&g, o, out, st, why, errcap);
    graph_free(&g);
    if (rc == 0)
        rc = check(out, o, why, errcap);
    st->after = rc == 0 ? out->facts.n : 0;
    st->seconds = sp_clock_now() - t0;
    return rc;
}

/* ---------------------------------------------------------------- nimber stores */

typedef struct loading {
    sp_cert *c;
    unsigned max_lives;
} loading;

static int load_land(void *arg, const sp_tok *key, size_t len, uint32_t value)
{
    loading *l = arg;
    if (sp_key_lives(key, len) > l->max_lives)
        return 0;
    return sp_cert_add(l->c, key, len, value) < 0 ? 1 : 0;
}

int sp_minimise_load_nimbers(sp_cert *c, const char *path, unsigned max_lives, char *err, size_t errcap)
{
    void *payload;
    size_t len;
    sp_store_kind kind;
    if (sp_store_read_either(path, SP_STORE_NIMBERS_SORTED, SP_STORE_NIMBERS, &kind, &payload, &len, err, errcap))
        return -1;
    loading l = {c, max_lives};
    int rc = sp_cert_init(c, SP_CERT_NORMAL, 0, NULL, 0, SP_CERT_LOSS) ? 1 : 0;
    if (rc == 0 && (rc = sp_keylist_each(payload, len, kind == SP_STORE_NIMBERS_SORTED, load_land, &l)) != 0)
        sp_cert_free(c);
    free(payload);
    if (rc)
        snprintf(err, errcap, "%s: %s", path, rc > 0 ? "out of memory" : "a malformed nimber store");
    return rc ? -1 : 0;
}
