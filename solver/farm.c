/* farm.c: the leader of the farm (farm.h): its proof-number tree over couples, the choice of leaves
 * for jobs, what comes back from them, and the land nimbers forwarded to every worker. */
#include "farm.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "farmrun.h"
#include "grow.h"
#include "keys.h"

#define INF SP_SOLVER_PN_INF
#define NONE UINT32_MAX

#define DEFAULT_SEED_LEAVES 4
#define DEFAULT_JOB_NODES 20000
#define DEFAULT_EXPAND_AFTER 1
#define DEFAULT_LOST_SECONDS 600.0

typedef enum { LEAF, INNER, SUM, DONE } node_kind;

/* What the leader forwards to every worker with its next job: keys one after another in tok, and per
 * item `width` numbers in rec, the key's length first; worker w has had the first sent[w] items,
 * whose keys end at sent_tok[w]. */
typedef struct fwd_queue {
    unsigned width;
    sp_tok *tok;
    size_t tok_len, tok_cap;
    uint32_t *rec;
    size_t n, cap;
    size_t *sent, *sent_tok;
} fwd_queue;

/* A couple of the tree. Children lie side by side (first .. first + n); a SUM has one, its part. A
 * subtree cut off (a node decided, a sum stepped again) is left where it is and never reached again. */
typedef struct tnode {
    uint32_t parent, first, n;
    uint32_t off, len, k; /* key in the leader's arena */
    uint32_t pn, dn, order;
    uint32_t rest[2];     /* SUM */
    uint32_t free;        /* leaves below that no job holds (itself, for a leaf) */
    uint32_t jobs;        /* unfinished jobs run on it */
    int32_t worker;       /* the worker whose job holds it; -1: none */
    uint8_t kind;
} tnode;

struct sp_farm {
    sp_farm_opts o;
    sp_solver *leader;
    sp_farm_driver *driver;
    tnode *t;
    size_t nt, cap_t;
    sp_tok *arena;
    size_t arena_len, arena_cap;
    uint32_t root;
    bool failed;
    fwd_queue nimbers;    /* land nimbers to forward: (length, nimber) */
    fwd_queue couples;    /* decided couples to forward: (length, k, outcome) */
    uint32_t *home;       /* per worker: the node its next job goes below, or NONE */
    uint32_t *job;        /* per worker: the leaf of its job out, or NONE */
    uint32_t *path;       /* scratch: a path up the tree */
    size_t path_cap;
    sp_farm_msg msg;
    sp_farm_stats st;
    double last_report;   /* wall time of the last progress call */
    double deadline;      /* wall time (sp_clock_now) at which calls end; 0: none */
};

static uint32_t sat_add(uint32_t a, uint32_t b)
{
    uint64_t s = (uint64_t)a + b;
    return s >= INF ? INF - 1 : (uint32_t)s;
}

/* ---------------------------------------------------------------- knowledge */

static bool fwd_init(fwd_queue *q, unsigned width, unsigned workers)
{
    assert(width >= 2);
    q->width = width;
    q->sent = calloc(workers, sizeof *q->sent);
    q->sent_tok = calloc(workers, sizeof *q->sent_tok);
    return q->sent && q->sent_tok;
}

static void fwd_free(fwd_queue *q)
{
    free(q->tok);
    free(q->rec);
    free(q->sent);
    free(q->sent_tok);
}

/* Queues a key and its numbers (v: width - 1 of them); false when memory is short. */
static bool fwd_push(fwd_queue *q, const sp_tok *key, uint32_t len, const uint32_t *v)
{
    return sp_farm_keys_append(&q->tok, &q->tok_len, &q->tok_cap, &q->rec, &q->n, &q->cap, q->width, key, len, v);
}

/* Adds to m what worker w has not had yet (add: one item), then counts it sent; the items added, or
 * -1 when memory is short. */
static long fwd_send(fwd_queue *q, unsigned w, sp_farm_msg *m,
                     bool (*add)(sp_farm_msg *m, const sp_tok *key, uint32_t len, const uint32_t *v))
{
    const sp_tok *key = q->tok + q->sent_tok[w];
    size_t from = q->sent[w];
    for (size_t i = from; i < q->n; key += q->rec[q->width * i], i++)
        if (!add(m, key, q->rec[q->width * i], q->rec + q->width * i + 1))
            return -1;
    q->sent[w] = q->n;
    q->sent_tok[w] = q->tok_len;
    return (long)(q->n - from);
}

static bool add_nimber(sp_farm_msg *m, const sp_tok *key, uint32_t len, const uint32_t *v)
{
    return sp_farm_msg_add_nimber(m, key, len, v[0]);
}

static bool add_couple(sp_farm_msg *m, const sp_tok *key, uint32_t len, const uint32_t *v)
{
    return sp_farm_msg_add_couple(m, key, len, v[0], (sp_outcome)v[1]);
}

/* A land nimber the leader learned: kept, and queued for every worker, unless known already. */
static int learn_nimber(void *arg, const sp_tok *land, uint32_t len, uint32_t nimber)
{
    sp_farm *f = arg;
    if (!sp_solver_add_nimber(f->leader, land, len, nimber))
        return 0;
    if (!fwd_push(&f->nimbers, land, len, &nimber))
        return f->failed = true, -1;
    return 0;
}

static const sp_tok *key_of(const sp_farm *f, uint32_t x)
{
    return f->arena + f->t[x].off;
}

/* A couple decided: the leader's table keeps it, every worker is told (another may meet it again,
 * where its own table would search it anew), and a lost single land gives its nimber. */
static void learn_outcome(sp_farm *f, uint32_t x, sp_outcome o)
{
    const tnode *n = &f->t[x];
    sp_solver_add_proven(f->leader, key_of(f, x), n->len, n->k, SP_PLAY_NORMAL, o);
    const uint32_t v[2] = {n->k, (uint32_t)o};
    if (!fwd_push(&f->couples, key_of(f, x), n->len, v))
        f->failed = true;
    if (o == SP_LOSS && n->len > 0 && sp_key_lands(key_of(f, x), n->len, NULL, NULL, 0) == 1)
        learn_nimber(f, key_of(f, x), n->len, n->k);
}

/* ---------------------------------------------------------------- the tree */

/* n nodes side by side at the end of the tree; NONE when memory is short. */
static uint32_t add_nodes(sp_farm *f, uint32_t parent, const sp_step_couple *c, size_t n)
{
    size_t toks = 0;
    for (size_t i = 0; i < n; i++)
        toks += c[i].len;
    /* a sum's part lies inside the sum's own key when the leader did not rewrite it: in the arena,
     * which growing may move */
    uintptr_t lo = (uintptr_t)f->arena, hi = lo + f->arena_len * sizeof *f->arena;
    if (f->nt + n >= NONE || sp_grow((void **)&f->t, &f->cap_t, f->nt + n, sizeof *f->t) ||
        sp_grow((void **)&f->arena, &f->arena_cap, f->arena_len + toks + 1, sizeof *f->arena))
        return f->failed = true, NONE;
    uint32_t first = (uint32_t)f->nt;
    for (size_t i = 0; i < n; i++) {
        const sp_tok *key = c[i].key;
        if ((uintptr_t)key >= lo && (uintptr_t)key < hi)
            key = f->arena + ((uintptr_t)key - lo) / sizeof *key;
        memmove(f->arena + f->arena_len, key, c[i].len * sizeof *key);
        bool won = c[i].pn == 0, lost = c[i].dn == 0;
        f->t[f->nt++] = (tnode){parent, 0, 0, (uint32_t)f->arena_len, c[i].len, c[i].k, c[i].pn, c[i].dn,
                                c[i].order, {0, 0}, won || lost ? 0 : 1, 0, -1, won || lost ? DONE : LEAF};
        f->arena_len += c[i].len;
    }
    return first;
}

static void numbers_of(sp_farm *f, uint32_t x)
{
    tnode *n = &f->t[x];
    if (n->kind == INNER) {
        uint32_t pn = INF, dn = 0, free = 0;
        for (uint32_t i = n->first; i < n->first + n->n; i++) {
            const tnode *c = &f->t[i];
            pn = c->dn < pn ? c->dn : pn;
            dn = c->pn == INF ? INF : sat_add(dn, c->pn);
            free += c->free;
        }
        n->pn = pn, n->dn = pn == 0 ? INF : dn, n->free = free;
    } else if (n->kind == SUM) {
        const tnode *c = &f->t[n->first];
        uint32_t m = c->pn < c->dn ? c->pn : c->dn;
        n->pn = sat_add(m, n->rest[0]), n->dn = sat_add(m, n->rest[1]), n->free = c->free;
    } else if (n->kind == LEAF) {
        n->free = n->worker < 0;
    } else {
        n->free = 0;
    }
    if (n->kind != DONE && (n->pn == 0 || n->dn == 0)) {
        n->kind = DONE;
        n->free = 0;
        if (n->pn == 0)
            n->dn = INF;
        else
            n->pn = INF;
        learn_outcome(f, x, n->pn == 0 ? SP_WIN : SP_LOSS);
    }
}

static void step(sp_farm *f, uint32_t x);

/* x changed: its numbers and those above it again; a part decided steps its sum again. */
static void update(sp_farm *f, uint32_t x)
{
    for (; x != NONE && !f->failed; x = f->t[x].parent) {
        numbers_of(f, x);
        uint32_t p = f->t[x].parent;
        if (p != NONE && f->t[p].kind == SUM && f->t[x].kind == DONE) {
            step(f, p); /* the sum asks for its next part, or is decided, or becomes one couple */
            if (!f->failed)
                numbers_of(f, p);
            x = p;
        }
    }
}

/* x as a step found it (sp_solver_step): decided, a sum beside its part, or a couple and its
 * children (kids[0 .. s->children), with the numbers of the table that made them). */
static void apply_step(sp_farm *f, uint32_t x, sp_step_kind kind, const sp_step *s, const sp_step_couple *kids)
{
    tnode *n = &f->t[x];
    if (kind == SP_STEP_FAILED) {
        f->failed = true;
        return;
    }
    if (kind == SP_STEP_WIN || kind == SP_STEP_LOSS) {
        n->kind = LEAF, n->worker = -1; /* decided: numbers_of marks it done */
        n->pn = kind == SP_STEP_WIN ? 0 : INF, n->dn = kind == SP_STEP_WIN ? INF : 0;
        return;
    }
    bool sum = kind == SP_STEP_SUM;
    uint32_t c = add_nodes(f, x, sum ? &s->sub : kids, sum ? 1 : s->children);
    if (c == NONE)
        return;
    n = &f->t[x];
    n->kind = sum ? SUM : INNER, n->first = c, n->n = sum ? 1 : (uint32_t)s->children;
    n->rest[0] = s->rest[0], n->rest[1] = s->rest[1];
    for (uint32_t i = c; !sum && i < c + n->n; i++)
        if (f->t[i].kind == DONE) /* proven in a worker's table: the leader learns it too */
            learn_outcome(f, i, f->t[i].pn == 0 ? SP_WIN : SP_LOSS);
}

/* Resolves or expands x in the leader. */
static void step(sp_farm *f, uint32_t x)
{
    sp_step s;
    f->st.leader_steps++;
    sp_step_kind kind = sp_solver_step(f->leader, key_of(f, x), f->t[x].len, f->t[x].k, &s);
    sp_step_couple *kids = kind == SP_STEP_EXPAND ? malloc((s.children ? s.children : 1) * sizeof *kids) : NULL;
    if (kind == SP_STEP_EXPAND && !kids)
        kind = SP_STEP_FAILED;
    for (size_t i = 0; kids && i < s.children; i++)
        kids[i] = sp_solver_step_child(f->leader, i);
    apply_step(f, x, kind, &s, kids); /* copies the keys before the leader's next call */
    free(kids);
}

/* Whether x is still part of the tree (its job's result then counts). */
static bool alive(const sp_farm *f, uint32_t x)
{
    for (uint32_t p; x != f->root; x = p) {
        p = f->t[x].parent;
        if (p == NONE || f->t[p].kind == DONE || x < f->t[p].first || x >= f->t[p].first + f->t[p].n)
            return false;
    }
    return true;
}

/* The free child to search below x: least disproof number, ties to the better rank. */
static uint32_t select_child(const sp_farm *f, uint32_t x)
{
    const tnode *n = &f->t[x];
    uint32_t best = NONE;
    for (uint32_t i = n->first; i < n->first + n->n; i++) {
        const tnode *c = &f->t[i];
        if (c->free && (best == NONE || c->dn < f->t[best].dn ||
                        (c->dn == f->t[best].dn && c->order < f->t[best].order)))
            best = i;
    }
    assert(best != NONE);
    return best;
}

/* From x's thresholds th to those of its child c, as df-pn gives them, beside the other free
 * children only: a job runs as df-pn would were the leaves that jobs hold not there (their workers
 * are on them already). */
static void down(const sp_farm *f, uint32_t x, uint32_t c, uint32_t th[2])
{
    const tnode *n = &f->t[x];
    uint32_t child[2] = {f->t[c].pn, f->t[c].dn}, cth[2];
    if (n->kind == SUM) {
        sp_solver_part_thresholds(th, child, n->rest, cth);
    } else {
        uint32_t numbers[2] = {n->pn, n->dn}, dn2 = INF;
        for (uint32_t i = n->first; i < n->first + n->n; i++)
            if (i != c && f->t[i].free && f->t[i].dn < dn2)
                dn2 = f->t[i].dn;
        sp_solver_child_thresholds(th, numbers, dn2, child, cth);
    }
    th[0] = cth[0], th[1] = cth[1];
}

/* The most-proving free leaf below x (x's thresholds th), or NONE; th becomes the leaf's. */
static uint32_t select_below(const sp_farm *f, uint32_t x, uint32_t th[2])
{
    if (f->t[x].free == 0)
        return NONE;
    while (f->t[x].kind != LEAF) {
        uint32_t c = f->t[x].kind == SUM ? f->t[x].first : select_child(f, x);
        down(f, x, c, th);
        x = c;
    }
    return x;
}

static uint32_t select_leaf(const sp_farm *f, uint32_t th[2])
{
    th[0] = th[1] = INF;
    return select_below(f, f->root, th);
}

/* The thresholds of x, down the path from the root; false when memory is short. */
static bool path_thresholds(sp_farm *f, uint32_t x, uint32_t th[2])
{
    size_t depth = 0;
    for (uint32_t y = x; y != f->root; y = f->t[y].parent, depth++)
        if (sp_grow((void **)&f->path, &f->path_cap, depth + 1, sizeof *f->path))
            return false;
        else
            f->path[depth] = y;
    th[0] = th[1] = INF;
    for (uint32_t y = f->root; depth > 0; y = f->path[--depth])
        down(f, y, f->path[depth - 1], th);
    return true;
}

/* The leaf for an idle worker w: below where its last job used its whole budget while it is still
 * worth searching (the worker's table knows that part of the tree), else the most-proving one. */
static uint32_t leaf_for(sp_farm *f, unsigned w, uint32_t th[2])
{
    uint32_t home = f->home[w], x = NONE;
    f->home[w] = NONE;
    if (home != NONE && alive(f, home) && f->t[home].free && path_thresholds(f, home, th) &&
        f->t[home].pn < th[0] && f->t[home].dn < th[1])
        x = select_below(f, home, th);
    return x != NONE ? x : select_leaf(f, th);
}


/* ---------------------------------------------------------------- jobs */

static bool post(sp_farm *f, unsigned w, uint32_t x, const uint32_t th[2])
{
    tnode *n = &f->t[x];
    sp_farm_msg *m = &f->msg;
    if (!sp_farm_msg_start(m, key_of(f, x), n->len, n->k))
        return f->failed = true, false;
    long nimbers = fwd_send(&f->nimbers, w, m, add_nimber), couples = fwd_send(&f->couples, w, m, add_couple);
    if (nimbers < 0 || couples < 0)
        return f->failed = true, false;
    f->st.nimbers_sent += (uint64_t)nimbers;
    f->st.couples_sent += (uint64_t)couples;
    m->id = x;
    m->worker = w;
    m->max_nodes = f->o.job_nodes;
    m->th[0] = th[0], m->th[1] = th[1];
    m->want_step = f->t[f->root].free <= f->o.workers; /* with x taken: fewer free leaves than workers */
    n->worker = (int32_t)w;
    f->job[w] = x;
    update(f, x);
    sp_farm_driver_post(f->driver, m);
    f->st.jobs++;
    return true;
}

/* A job's result: its nimbers are learned whatever became of its leaf. */
static void take(sp_farm *f, sp_farm_msg *m)
{
    f->st.nodes += m->nodes;
    f->job[m->worker] = NONE;
    sp_farm_msg_each_nimber(m, learn_nimber, f);
    if (m->failed) {
        f->failed = true;
        return;
    }
    uint32_t x = (uint32_t)m->id;
    if (!alive(f, x) || f->t[x].kind != LEAF || f->t[x].worker != (int32_t)m->worker)
        return;
    tnode *n = &f->t[x];
    n->worker = -1;
    if (m->lost) { /* its worker is taken for dead: the leaf is free for the others */
        update(f, x);
        return;
    }
    if (m->outcome == SP_UNKNOWN) { /* only a proof decides: an unproven job's numbers never do */
        if (m->pn != 0 && m->dn != 0 && m->pn < INF && m->dn < INF)
            n->pn = m->pn, n->dn = m->dn;
        bool spent = m->nodes >= m->max_nodes, short_of_leaves = f->t[f->root].free < f->o.workers;
        if (m->step != SP_STEP_FAILED && ((spent && ++n->jobs >= f->o.expand_after) || short_of_leaves)) {
            apply_step(f, x, m->step, &m->stepped, m->kids); /* the work is here: grow the tree */
            /* the worker's next job: where its search was cut, when it says (its trail goes on there) */
            size_t c = m->stepped.cut_child;
            const tnode *n = &f->t[x];
            f->home[m->worker] = (n->kind == INNER || n->kind == SUM) && c < n->n ? n->first + (uint32_t)c : x;
        }
    } else {
        n->pn = m->outcome == SP_WIN ? 0 : INF, n->dn = m->outcome == SP_WIN ? INF : 0;
    }
    update(f, x);
}

/* Jobs whose leaves the tree has cut off (a node above decided, a sum stepped again), or every job
 * out (all) are called back: a stale job would keep its worker from work that counts. */
static void cancel_stale(sp_farm *f, bool all)
{
    for (unsigned w = 0; w < f->o.workers; w++)
        if (f->job[w] != NONE && (all || !alive(f, f->job[w]))) {
            f->st.cancelled += sp_farm_driver_cancel(f->driver, w);
            f->job[w] = NONE;
        }
}

/* Grows the tree until each worker has seed_leaves free leaves to choose from, with what the
 * leader knows: at the start of a call, before any job (expanded later, a leaf would get naive
 * numbers where a worker's table knows better). */
static void seed(sp_farm *f)
{
    while (!f->failed && f->t[f->root].kind != DONE && f->t[f->root].free < f->o.seed_leaves * f->o.workers) {
        uint32_t th[2], x = select_leaf(f, th);
        if (x == NONE)
            return;
        step(f, x);
        update(f, x);
    }
}

/* The progress callback, at most once a second of wall time. */
static void report(sp_farm *f)
{
    double now = sp_clock_now();
    if (!f->o.progress || now - f->last_report < 1)
        return;
    f->last_report = now;
    sp_farm_stats st;
    sp_farm_stats_get(f, &st);
    f->o.progress(f->o.progress_arg, &st);
}

static bool stopped(const sp_farm *f)
{
    return (f->o.worker.stop && atomic_load(f->o.worker.stop)) || (f->deadline > 0 && sp_clock_now() >= f->deadline);
}

void sp_farm_set_time_limit(sp_farm *f, double seconds)
{
    assert(f && seconds >= 0);
    f->deadline = seconds > 0 ? sp_clock_now() + seconds : 0;
}

sp_outcome sp_farm_couple(sp_farm *f, const sp_tok *key, size_t len, uint32_t k)
{
    assert(f && (key || len == 0) && len <= SP_KEY_MAX);
    sp_step_couple c = {key, (uint32_t)len, k, 1, 1, 0};
    f->nt = f->arena_len = 0;
    f->failed = false;
    for (unsigned w = 0; w < f->o.workers; w++)
        f->home[w] = f->job[w] = NONE;
    sp_farm_driver_begin(f->driver);
    f->last_report = sp_clock_now();
    uint64_t steps0 = f->st.leader_steps;
    f->root = add_nodes(f, NONE, &c, 1);
    if (f->root == NONE)
        return SP_UNKNOWN;
    f->t[f->root].kind = LEAF, f->t[f->root].free = 1;
    step(f, f->root);
    update(f, f->root);
    seed(f); /* once: later the tree grows from what the jobs send back, with their tables' numbers */
    while (!f->failed && f->t[f->root].kind != DONE && !stopped(f)) {
        for (unsigned w = 0; w < f->o.workers && !f->failed && f->t[f->root].kind != DONE; w++) {
            uint32_t th[2], x = sp_farm_driver_idle(f->driver, w) ? leaf_for(f, w, th) : NONE;
            if (x != NONE)
                post(f, w, x, th);
        }
        if (f->failed || f->t[f->root].kind == DONE)
            break;
        sp_farm_msg *m = &f->msg;
        if (!sp_farm_driver_wait(f->driver, m)) {
            uint32_t th[2];
            if (select_leaf(f, th) == NONE || sp_farm_driver_live(f->driver) == 0)
                f->failed = true; /* none to give, or no one to give it to (every worker lost) */
            continue;
        }
        take(f, m);
        cancel_stale(f, false);
        report(f);
    }
    cancel_stale(f, true);
    while (sp_farm_driver_wait(f->driver, &f->msg)) /* the jobs still out: their nimbers count */
        take(f, &f->msg);
    f->st.nodes += f->st.leader_steps - steps0;
    f->st.seconds = sp_farm_driver_clock(f->driver);
    f->st.busy += sp_farm_driver_busy(f->driver);
    const tnode *r = &f->t[f->root];
    if (f->failed || r->kind != DONE)
        return SP_UNKNOWN;
    return r->pn == 0 ? SP_WIN : SP_LOSS;
}

int sp_farm_nimber(sp_farm *f, const sp_tok *key, size_t len)
{
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    unsigned nl = sp_key_lands(key, len, off, lens, SP_MAX_LANDS);
    int g = 0;
    for (unsigned i = 0; i < nl && g >= 0; i++) {
        int x = sp_solver_known_nimber(f->leader, key + off[i], lens[i]);
        for (uint32_t k = 0; x < 0; k++) {
            sp_outcome o = sp_farm_couple(f, key + off[i], lens[i], k);
            if (o == SP_UNKNOWN)
                return -1;
            if (o == SP_LOSS)
                x = (int)k;
        }
        g ^= x;
    }
    return g;
}

bool sp_farm_learn_nimber(sp_farm *f, const sp_tok *land, size_t len, unsigned nimber)
{
    assert(f && land && len > 0 && len <= SP_KEY_MAX);
    return learn_nimber(f, land, (uint32_t)len, nimber) == 0;
}

uint64_t sp_farm_nimber_mark(sp_farm *f)
{
    return sp_solver_mark(f->leader, SP_KEPT_NIMBERS);
}

int sp_farm_each_nimber(sp_farm *f, uint64_t from, uint64_t to,
                        int (*fn)(void *arg, const sp_tok *key, size_t len, unsigned nimber), void *arg)
{
    return sp_solver_each(f->leader, SP_KEPT_NIMBERS, from, to, fn, arg);
}

/* ---------------------------------------------------------------- life */

sp_farm *sp_farm_new(const sp_farm_opts *opts)
{
    assert(opts && opts->workers >= 1);
    sp_farm *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->o = *opts;
    if (!f->o.seed_leaves)
        f->o.seed_leaves = DEFAULT_SEED_LEAVES;
    if (!f->o.job_nodes)
        f->o.job_nodes = DEFAULT_JOB_NODES;
    if (!f->o.expand_after)
        f->o.expand_after = DEFAULT_EXPAND_AFTER;
    if (!(f->o.lost_seconds > 0))
        f->o.lost_seconds = DEFAULT_LOST_SECONDS;
    sp_solver_opts lo = f->o.leader;
    lo.threads = 1;
    lo.progress = NULL;
    f->leader = sp_solver_new(&lo);
    f->o.worker.threads = f->o.team ? f->o.team : 1;
    f->driver = sp_farm_driver_new(f->o.driver, f->o.workers, &f->o.worker, f->o.message_seconds, f->o.lost_seconds);
    bool queues = fwd_init(&f->nimbers, 2, f->o.workers) && fwd_init(&f->couples, 3, f->o.workers);
    f->home = malloc(f->o.workers * sizeof *f->home);
    f->job = malloc(f->o.workers * sizeof *f->job);
    if (!f->leader || !f->driver || !queues || !f->home || !f->job) {
        sp_farm_free(f);
        return NULL;
    }
    for (unsigned w = 0; w < f->o.workers; w++)
        f->home[w] = f->job[w] = NONE;
    f->st.workers = f->o.workers;
    f->st.lost_seconds = f->o.lost_seconds;
    return f;
}

void sp_farm_free(sp_farm *f)
{
    if (!f)
        return;
    sp_farm_driver_free(f->driver);
    sp_solver_free(f->leader);
    sp_farm_msg_free(&f->msg);
    free(f->t);
    free(f->arena);
    fwd_free(&f->nimbers);
    fwd_free(&f->couples);
    free(f->home);
    free(f->job);
    free(f->path);
    free(f);
}

void sp_farm_stats_get(const sp_farm *f, sp_farm_stats *out)
{
    *out = f->st;
    out->lost = f->o.workers - sp_farm_driver_live(f->driver);
    if (f->nt) {
        const tnode *r = &f->t[f->root];
        out->root_pn = r->pn, out->root_dn = r->dn, out->free_leaves = r->free;
    }
}
