/* farmrun.c: the farm's messages and its drivers (farmrun.h): worker threads of this process, workers
 * simulated one after another in virtual time, and worker ranks of an MPI run (through farmmpi.c). */
#include "farmrun.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "grow.h"

/* ---------------------------------------------------------------- messages */

/* m with no couple, no nimbers and no result (its buffers kept). */
static void msg_clear(sp_farm_msg *m)
{
    m->tok_len = m->len = m->k = 0;
    m->nnim = m->ncpl = m->ctok_len = 0;
    m->outcome = SP_UNKNOWN;
    m->pn = m->dn = 1;
    m->nodes = 0;
    m->failed = m->lost = false;
    m->cost = 0;
    m->step = SP_STEP_FAILED;
}

bool sp_farm_msg_start(sp_farm_msg *m, const sp_tok *key, uint32_t len, uint32_t k)
{
    if (sp_grow((void **)&m->tok, &m->tok_cap, len ? len : 1, sizeof *m->tok))
        return false;
    msg_clear(m);
    memcpy(m->tok, key, len * sizeof *key);
    m->tok_len = m->len = len;
    m->k = k;
    return true;
}

bool sp_farm_keys_append(sp_tok **tok, size_t *tok_len, size_t *tok_cap, uint32_t **rec, size_t *n, size_t *cap,
                        unsigned width, const sp_tok *key, uint32_t len, const uint32_t *v)
{
    if (sp_grow((void **)tok, tok_cap, *tok_len + len, sizeof **tok) ||
        sp_grow((void **)rec, cap, width * (*n + 1), sizeof **rec))
        return false;
    memcpy(*tok + *tok_len, key, len * sizeof *key);
    *tok_len += len;
    (*rec)[width * *n] = len;
    memcpy(*rec + width * *n + 1, v, (width - 1) * sizeof *v);
    ++*n;
    return true;
}

bool sp_farm_msg_add_nimber(sp_farm_msg *m, const sp_tok *land, uint32_t len, uint32_t nimber)
{
    return sp_farm_keys_append(&m->tok, &m->tok_len, &m->tok_cap, &m->nim, &m->nnim, &m->nim_cap, 2, land, len, &nimber);
}

bool sp_farm_msg_add_couple(sp_farm_msg *m, const sp_tok *key, uint32_t len, uint32_t k, sp_outcome o)
{
    assert(o == SP_WIN || o == SP_LOSS);
    const uint32_t v[2] = {k, (uint32_t)o};
    return sp_farm_keys_append(&m->ctok, &m->ctok_len, &m->ctok_cap, &m->cpl, &m->ncpl, &m->cpl_cap, 3, key, len, v);
}

int sp_farm_msg_each_nimber(const sp_farm_msg *m, int (*fn)(void *arg, const sp_tok *land, uint32_t len,
                                                            uint32_t nimber), void *arg)
{
    size_t off = m->len;
    for (size_t i = 0; i < m->nnim; i++) {
        int rc = fn(arg, m->tok + off, m->nim[2 * i], m->nim[2 * i + 1]);
        if (rc)
            return rc;
        off += m->nim[2 * i];
    }
    return 0;
}

void sp_farm_msg_free(sp_farm_msg *m)
{
    free(m->tok);
    free(m->nim);
    free(m->ctok);
    free(m->cpl);
    free(m->kids);
    free(m->kid_tok);
    memset(m, 0, sizeof *m);
}

static int add_to_solver(void *arg, const sp_tok *land, uint32_t len, uint32_t nimber)
{
    sp_solver_add_nimber(arg, land, len, nimber); /* false: known already, or the store is full */
    return 0;
}

static int add_to_msg(void *arg, const sp_tok *land, size_t len, unsigned nimber)
{
    return sp_farm_msg_add_nimber(arg, land, (uint32_t)len, nimber) ? 0 : -1;
}

/* The step of m's couple by s, into m with copies of its keys; false when memory is short. */
static bool step_into(sp_farm_msg *m, sp_solver *s)
{
    m->step = sp_solver_step(s, m->tok, m->len, m->k, &m->stepped);
    bool sum = m->step == SP_STEP_SUM;
    size_t n = m->step == SP_STEP_EXPAND ? m->stepped.children : sum ? 1 : 0, toks = 0;
    if (sp_grow((void **)&m->kids, &m->kids_cap, n ? n : 1, sizeof *m->kids))
        return false;
    for (size_t i = 0; i < n; i++) {
        m->kids[i] = sum ? m->stepped.sub : sp_solver_step_child(s, i);
        toks += m->kids[i].len;
    }
    if (sp_grow((void **)&m->kid_tok, &m->kid_tok_cap, toks ? toks : 1, sizeof *m->kid_tok))
        return false;
    toks = 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(m->kid_tok + toks, m->kids[i].key, m->kids[i].len * sizeof *m->kid_tok);
        m->kids[i].key = m->kid_tok + toks;
        toks += m->kids[i].len;
    }
    if (sum)
        m->stepped.sub = m->kids[0];
    return true;
}

void sp_farm_msg_run(sp_farm_msg *m, sp_solver *s)
{
    double t0 = sp_clock_thread();
    sp_farm_msg_each_nimber(m, add_to_solver, s);
    const sp_tok *key = m->ctok;
    for (size_t i = 0; i < m->ncpl; key += m->cpl[3 * i], i++)
        sp_solver_add_proven(s, key, m->cpl[3 * i], m->cpl[3 * i + 1], SP_PLAY_NORMAL, (sp_outcome)m->cpl[3 * i + 2]);
    m->ncpl = m->ctok_len = 0; /* read: the result does not carry them back */
    sp_solver_stats st;
    sp_solver_stats_get(s, &st);
    uint64_t nodes = st.nodes, mark = sp_solver_mark(s, SP_KEPT_NIMBERS);
    m->outcome = sp_solver_job(s, m->tok, m->len, m->k, m->th, m->max_nodes, &m->pn, &m->dn, &m->failed);
    sp_solver_stats_get(s, &st);
    m->nodes = st.nodes - nodes;
    m->tok_len = m->len; /* the nimbers sent have been read: the result carries those proven */
    m->nnim = 0;
    if (sp_solver_each(s, SP_KEPT_NIMBERS, mark, sp_solver_mark(s, SP_KEPT_NIMBERS), add_to_msg, m))
        m->failed = true;
    m->step = SP_STEP_FAILED;
    if (m->outcome == SP_UNKNOWN && !m->failed && (m->want_step || (m->max_nodes && m->nodes >= m->max_nodes)) &&
        !step_into(m, s))
        m->failed = true;
    m->cost = sp_clock_thread() - t0;
}

/* ---------------------------------------------------------------- messages as bytes */

typedef struct packer {
    uint8_t *p;
    size_t len, cap;
    bool failed;
} packer;

static void put(packer *k, const void *v, size_t n)
{
    if (k->failed || sp_grow((void **)&k->p, &k->cap, k->len + n, 1)) {
        k->failed = true;
        return;
    }
    if (n)
        memcpy(k->p + k->len, v, n);
    k->len += n;
}

static void put32(packer *k, uint32_t v) { put(k, &v, sizeof v); }
static void put64(packer *k, uint64_t v) { put(k, &v, sizeof v); }

#define PACK_MAGIC 0x53504d33u /* "SPM3" */

size_t sp_farm_msg_pack(const sp_farm_msg *m, uint8_t **buf, size_t *cap)
{
    packer k = {*buf, 0, *cap, false};
    size_t kids = m->step == SP_STEP_EXPAND ? m->stepped.children : m->step == SP_STEP_SUM ? 1 : 0, kid_toks = 0;
    for (size_t i = 0; i < kids; i++)
        kid_toks += m->kids[i].len;
    put32(&k, PACK_MAGIC);
    put64(&k, m->id), put64(&k, m->max_nodes), put64(&k, m->nodes);
    put32(&k, m->len), put32(&k, m->k), put32(&k, m->th[0]), put32(&k, m->th[1]), put32(&k, m->want_step);
    put32(&k, (uint32_t)(m->outcome + 1)), put32(&k, m->pn), put32(&k, m->dn), put32(&k, m->failed);
    put(&k, &m->cost, sizeof m->cost);
    put64(&k, m->tok_len), put64(&k, m->nnim), put(&k, m->tok, m->tok_len * sizeof *m->tok);
    put(&k, m->nim, 2 * m->nnim * sizeof *m->nim);
    put64(&k, m->ctok_len), put64(&k, m->ncpl), put(&k, m->ctok, m->ctok_len * sizeof *m->ctok);
    put(&k, m->cpl, 3 * m->ncpl * sizeof *m->cpl);
    put32(&k, (uint32_t)m->step), put32(&k, m->stepped.rest[0]), put32(&k, m->stepped.rest[1]);
    put64(&k, kids), put64(&k, kid_toks), put64(&k, m->stepped.cut_child);
    for (size_t i = 0; i < kids; i++) {
        const sp_step_couple *c = &m->kids[i];
        put32(&k, c->len), put32(&k, c->k), put32(&k, c->pn), put32(&k, c->dn), put32(&k, c->order);
        put(&k, c->key, c->len * sizeof *c->key);
    }
    *buf = k.p, *cap = k.cap;
    return k.failed ? 0 : k.len;
}

typedef struct reader {
    const uint8_t *p;
    size_t len, at;
    bool bad;
} reader;

static void get(reader *r, void *v, size_t n)
{
    if (r->bad || n > r->len - r->at) {
        r->bad = true;
        memset(v, 0, n);
        return;
    }
    memcpy(v, r->p + r->at, n);
    r->at += n;
}

static uint32_t get32(reader *r) { uint32_t v; get(r, &v, sizeof v); return v; }
static uint64_t get64(reader *r) { uint64_t v; get(r, &v, sizeof v); return v; }

bool sp_farm_msg_unpack(sp_farm_msg *m, const uint8_t *buf, size_t len)
{
    reader r = {buf, len, 0, false};
    if (get32(&r) != PACK_MAGIC)
        return false;
    m->id = get64(&r), m->max_nodes = get64(&r), m->nodes = get64(&r);
    m->len = get32(&r), m->k = get32(&r), m->th[0] = get32(&r), m->th[1] = get32(&r), m->want_step = get32(&r);
    m->outcome = (sp_outcome)((int)get32(&r) - 1), m->pn = get32(&r), m->dn = get32(&r), m->failed = get32(&r);
    get(&r, &m->cost, sizeof m->cost);
    uint64_t toks = get64(&r), nnim = get64(&r);
    if (r.bad || toks > len || nnim > len || m->len > toks || sp_grow((void **)&m->tok, &m->tok_cap, toks + 1, sizeof *m->tok) ||
        sp_grow((void **)&m->nim, &m->nim_cap, 2 * nnim + 1, sizeof *m->nim))
        return false;
    get(&r, m->tok, toks * sizeof *m->tok), m->tok_len = toks;
    get(&r, m->nim, 2 * nnim * sizeof *m->nim), m->nnim = nnim;
    uint64_t ctoks = get64(&r), ncpl = get64(&r);
    if (r.bad || ctoks > len || ncpl > len || sp_grow((void **)&m->ctok, &m->ctok_cap, ctoks + 1, sizeof *m->ctok) ||
        sp_grow((void **)&m->cpl, &m->cpl_cap, 3 * ncpl + 1, sizeof *m->cpl))
        return false;
    get(&r, m->ctok, ctoks * sizeof *m->ctok), m->ctok_len = ctoks;
    get(&r, m->cpl, 3 * ncpl * sizeof *m->cpl), m->ncpl = ncpl;
    m->step = (sp_step_kind)get32(&r), m->stepped.rest[0] = get32(&r), m->stepped.rest[1] = get32(&r);
    uint64_t kids = get64(&r), kid_toks = get64(&r), cut_child = get64(&r);
    if (r.bad || kids > len || kid_toks > len || sp_grow((void **)&m->kids, &m->kids_cap, kids + 1, sizeof *m->kids) ||
        sp_grow((void **)&m->kid_tok, &m->kid_tok_cap, kid_toks + 1, sizeof *m->kid_tok))
        return false;
    size_t at = 0;
    for (size_t i = 0; i < kids && !r.bad; i++) {
        sp_step_couple *c = &m->kids[i];
        c->len = get32(&r), c->k = get32(&r), c->pn = get32(&r), c->dn = get32(&r), c->order = get32(&r);
        if (c->len > kid_toks - at)
            return false;
        get(&r, m->kid_tok + at, c->len * sizeof *m->kid_tok);
        c->key = m->kid_tok + at;
        at += c->len;
    }
    m->stepped.children = m->step == SP_STEP_EXPAND ? kids : 0;
    m->stepped.cut_child = cut_child < (m->step == SP_STEP_SUM ? 1 : m->stepped.children) ? (size_t)cut_child : SIZE_MAX;
    if (m->step == SP_STEP_SUM && kids == 1)
        m->stepped.sub = m->kids[0];
    size_t lands = 0, couples = 0;
    for (size_t i = 0; i < m->nnim; i++)
        lands += m->nim[2 * i];
    for (size_t i = 0; i < m->ncpl; i++)
        if (m->cpl[3 * i] > SP_KEY_MAX || (m->cpl[3 * i + 2] != SP_WIN && m->cpl[3 * i + 2] != SP_LOSS))
            return false;
        else
            couples += m->cpl[3 * i];
    return !r.bad && r.at == len && m->len + lands == m->tok_len && couples == m->ctok_len && m->step <= SP_STEP_FAILED &&
           (m->outcome == SP_UNKNOWN || m->outcome == SP_WIN || m->outcome == SP_LOSS);
}

static void swap_msg(sp_farm_msg *a, sp_farm_msg *b)
{
    sp_farm_msg t = *a;
    *a = *b;
    *b = t;
}

/* ---------------------------------------------------------------- drivers */

typedef enum { IDLE, POSTED, DONE, DEAD } slot_state;

typedef struct slot {
    sp_solver *solver;
    sp_farm_msg msg;
    slot_state state;
    double free_at, arrives; /* simulated: when the worker is free again, when its result arrives */
    double began;            /* simulated: when its job began */
    double posted_at;        /* MPI: when its job went out (wall clock) */
    uint64_t job;            /* MPI: the id of that job */
    pthread_t thread;
    bool started;
    struct sp_farm_driver *d;
    unsigned id;
} slot;

struct sp_farm_driver {
    sp_farm_driver_kind kind;
    unsigned n, out;        /* workers, jobs out */
    slot *w;
    double message, start, clock, leader_mark, busy;
    double lost;            /* MPI: seconds after which a job unanswered is lost with its worker ... */
    double longest;         /* ... or LOST_SLOWEST times the longest job answered, when that is more */
    unsigned dead;
    /* threads: one lock for every slot; done[] is the queue of workers whose result is in */
    pthread_mutex_t lock;
    pthread_cond_t posted, finished;
    bool quit, mpi_failed;
    unsigned *done, done_head, done_n;
};

static void *worker_main(void *arg)
{
    slot *w = arg;
    sp_farm_driver *d = w->d;
    pthread_mutex_lock(&d->lock);
    for (;;) {
        while (w->state != POSTED && !d->quit)
            pthread_cond_wait(&d->posted, &d->lock);
        if (d->quit)
            break;
        pthread_mutex_unlock(&d->lock);
        sp_farm_msg_run(&w->msg, w->solver);
        pthread_mutex_lock(&d->lock);
        w->state = DONE;
        d->done[(d->done_head + d->done_n++) % d->n] = w->id;
        pthread_cond_signal(&d->finished);
    }
    pthread_mutex_unlock(&d->lock);
    return NULL;
}

sp_farm_driver *sp_farm_driver_new(sp_farm_driver_kind kind, unsigned workers, const sp_solver_opts *wopts,
                                   double message_seconds, double lost_seconds)
{
    assert(workers >= 1 && wopts);
    sp_farm_driver *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->kind = kind;
    d->n = workers;
    d->message = message_seconds;
    d->lost = lost_seconds;
    pthread_mutex_init(&d->lock, NULL);
    pthread_cond_init(&d->posted, NULL);
    pthread_cond_init(&d->finished, NULL);
    d->w = calloc(workers, sizeof *d->w);
    d->done = calloc(workers, sizeof *d->done);
    if (!d->w || !d->done) {
        sp_farm_driver_free(d);
        return NULL;
    }
    sp_solver_opts o = *wopts;
    o.threads = o.threads ? o.threads : 1;
    o.progress = NULL;
    if (kind == SP_FARM_MPI) {
        if (workers + 1 != sp_farm_mpi_ranks() || !sp_farm_mpi_configure(&o)) {
            sp_farm_driver_free(d);
            return NULL;
        }
        workers = 0; /* no solver here: each is a rank of its own */
    }
    for (unsigned i = 0; i < workers; i++) {
        slot *w = &d->w[i];
        w->d = d;
        w->id = i;
        if (!(w->solver = sp_solver_new(&o))) {
            sp_farm_driver_free(d);
            return NULL;
        }
        if (kind == SP_FARM_THREADS) {
            if (pthread_create(&w->thread, NULL, worker_main, w)) {
                sp_farm_driver_free(d);
                return NULL;
            }
            w->started = true;
        }
    }
    return d;
}

void sp_farm_driver_free(sp_farm_driver *d)
{
    if (!d)
        return;
    pthread_mutex_lock(&d->lock);
    d->quit = true;
    pthread_cond_broadcast(&d->posted);
    pthread_mutex_unlock(&d->lock);
    for (unsigned i = 0; d->w && i < d->n; i++) {
        if (d->w[i].started)
            pthread_join(d->w[i].thread, NULL);
        sp_solver_free(d->w[i].solver);
        sp_farm_msg_free(&d->w[i].msg);
    }
    pthread_mutex_destroy(&d->lock);
    pthread_cond_destroy(&d->posted);
    pthread_cond_destroy(&d->finished);
    free(d->w);
    free(d->done);
    free(d);
}

void sp_farm_driver_begin(sp_farm_driver *d)
{
    assert(d->out == 0);
    d->start = sp_clock_now();
    d->clock = d->busy = 0;
    d->leader_mark = sp_clock_thread();
    for (unsigned i = 0; i < d->n; i++)
        d->w[i].free_at = 0;
}

/* Simulated: the leader's clock takes the thread time it spent since it last called the driver. */
static void leader_worked(sp_farm_driver *d)
{
    double now = sp_clock_thread();
    d->clock += now - d->leader_mark;
    d->leader_mark = now;
}

void sp_farm_driver_post(sp_farm_driver *d, sp_farm_msg *job)
{
    assert(job->worker < d->n && d->w[job->worker].state == IDLE);
    slot *w = &d->w[job->worker];
    d->out++;
    if (d->kind == SP_FARM_MPI) {
        w->state = POSTED;
        w->posted_at = sp_clock_now();
        w->job = job->id;
        if (!sp_farm_mpi_post(job->worker, job))
            d->mpi_failed = true;
        return;
    }
    if (d->kind == SP_FARM_SIMULATED) {
        leader_worked(d);
        swap_msg(&w->msg, job);
        sp_farm_msg_run(&w->msg, w->solver);
        double start = d->clock + d->message > w->free_at ? d->clock + d->message : w->free_at;
        w->began = start;
        w->free_at = start + w->msg.cost;
        w->arrives = w->free_at + d->message;
        w->state = DONE;
        d->busy += w->msg.cost;
        d->leader_mark = sp_clock_thread(); /* the job's time is the worker's, not the leader's */
        return;
    }
    pthread_mutex_lock(&d->lock);
    swap_msg(&w->msg, job);
    w->state = POSTED;
    pthread_cond_broadcast(&d->posted);
    pthread_mutex_unlock(&d->lock);
}

bool sp_farm_driver_cancel(sp_farm_driver *d, unsigned w)
{
    assert(w < d->n);
    slot *s = &d->w[w];
    if (d->kind == SP_FARM_THREADS) {
        pthread_mutex_lock(&d->lock); /* its worker thread sets the state when the job ends */
        bool running = s->state == POSTED;
        pthread_mutex_unlock(&d->lock);
        if (running)
            sp_solver_interrupt(s->solver); /* harmless if the job has just ended: the next call resets it */
        return running;
    }
    if (d->kind == SP_FARM_MPI)
        return s->state == POSTED && sp_farm_mpi_cancel(w);
    if (s->state != DONE)
        return false;
    leader_worked(d);
    double at = d->clock + d->message; /* when the call reaches the worker */
    if (at >= s->free_at)
        return false;
    double stop = at > s->began ? at : s->began, kept = stop - s->began;
    d->busy -= s->msg.cost - kept;
    s->msg.nodes = s->msg.cost > 0 ? (uint64_t)((double)s->msg.nodes * (kept / s->msg.cost)) : 0;
    s->msg.cost = kept;
    s->free_at = stop;
    s->arrives = stop + d->message;
    return true;
}

/* A slow machine (or build) makes every job slow: the wait scales with the jobs seen. */
#define LOST_SLOWEST 10.0

/* MPI: the worker whose job has waited longest, or d->n when none is out. */
static unsigned oldest_job(const sp_farm_driver *d)
{
    unsigned at = d->n;
    for (unsigned i = 0; i < d->n; i++)
        if (d->w[i].state == POSTED && (at == d->n || d->w[i].posted_at < d->w[at].posted_at))
            at = i;
    return at;
}

/* MPI: the next result, or the oldest job lost with its worker once lost_seconds (or ten times the
 * longest job answered, when that is more) have passed without it. The worker is dead from then
 * on; a result it sends later is marked lost, so that only its nimbers count. */
static void mpi_wait(sp_farm_driver *d, sp_farm_msg *res)
{
    unsigned late = oldest_job(d), from = d->n;
    double wait = d->lost > LOST_SLOWEST * d->longest ? d->lost : LOST_SLOWEST * d->longest;
    double left = d->w[late].posted_at + wait - sp_clock_now();
    int got = d->mpi_failed ? -1 : sp_farm_mpi_wait(res, &from, left > 0 ? left : 0);
    if (got == 0) {
        msg_clear(res);
        res->id = d->w[late].job;
        res->worker = late;
        res->lost = true;
        d->w[late].state = DEAD;
        d->dead++;
        d->out--;
        sp_farm_mpi_forget(late);
        return;
    }
    if (got < 0 || from >= d->n) {
        res->failed = true; /* the leader gives up: the run ends unsolved, never wrong */
        from = res->worker < d->n ? res->worker : late;
    }
    slot *w = &d->w[from];
    res->worker = from;
    res->lost = w->state == DEAD;
    if (w->state == POSTED) {
        double took = sp_clock_now() - w->posted_at;
        d->longest = took > d->longest ? took : d->longest;
        w->state = IDLE;
        d->out--;
        d->busy += res->cost;
    }
}

bool sp_farm_driver_wait(sp_farm_driver *d, sp_farm_msg *res)
{
    if (d->out == 0)
        return false;
    if (d->kind == SP_FARM_MPI) {
        mpi_wait(d, res);
        return true;
    }
    slot *w = NULL;
    if (d->kind == SP_FARM_SIMULATED) {
        leader_worked(d);
        for (unsigned i = 0; i < d->n; i++)
            if (d->w[i].state == DONE && (!w || d->w[i].arrives < w->arrives))
                w = &d->w[i];
        assert(w);
        if (w->arrives > d->clock)
            d->clock = w->arrives;
    } else {
        pthread_mutex_lock(&d->lock);
        while (d->done_n == 0)
            pthread_cond_wait(&d->finished, &d->lock);
        w = &d->w[d->done[d->done_head]];
        d->done_head = (d->done_head + 1) % d->n;
        d->done_n--;
        d->busy += w->msg.cost;
        pthread_mutex_unlock(&d->lock);
    }
    w->state = IDLE;
    d->out--;
    swap_msg(&w->msg, res);
    res->worker = w->id;
    res->lost = false;
    return true;
}

bool sp_farm_driver_idle(const sp_farm_driver *d, unsigned w)
{
    assert(w < d->n);
    return d->w[w].state == IDLE;
}

unsigned sp_farm_driver_live(const sp_farm_driver *d)
{
    return d->n - d->dead;
}

double sp_farm_driver_clock(sp_farm_driver *d)
{
    if (d->kind == SP_FARM_SIMULATED) {
        leader_worked(d);
        return d->clock;
    }
    return sp_clock_now() - d->start;
}

double sp_farm_driver_busy(const sp_farm_driver *d)
{
    return d->busy;
}
