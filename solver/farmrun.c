/* farmrun.c: the farm's messages and its two drivers (farmrun.h): worker threads of this process, and
 * workers simulated one after another in virtual time. */
#include "farmrun.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "grow.h"

/* ---------------------------------------------------------------- messages */

bool sp_farm_msg_start(sp_farm_msg *m, const sp_tok *key, uint32_t len, uint32_t k)
{
    if (sp_grow((void **)&m->tok, &m->tok_cap, len ? len : 1, sizeof *m->tok))
        return false;
    memcpy(m->tok, key, len * sizeof *key);
    m->tok_len = m->len = len;
    m->k = k;
    m->nnim = 0;
    m->outcome = SP_UNKNOWN;
    m->pn = m->dn = 1;
    m->nodes = 0;
    m->failed = false;
    m->cost = 0;
    m->step = SP_STEP_FAILED;
    return true;
}

bool sp_farm_msg_add_nimber(sp_farm_msg *m, const sp_tok *land, uint32_t len, uint32_t nimber)
{
    if (sp_grow((void **)&m->tok, &m->tok_cap, m->tok_len + len, sizeof *m->tok) ||
        sp_grow((void **)&m->nim, &m->nim_cap, 2 * (m->nnim + 1), sizeof *m->nim))
        return false;
    memcpy(m->tok + m->tok_len, land, len * sizeof *land);
    m->tok_len += len;
    m->nim[2 * m->nnim] = len;
    m->nim[2 * m->nnim + 1] = nimber;
    m->nnim++;
    return true;
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
    sp_solver_stats st;
    sp_solver_stats_get(s, &st);
    uint64_t nodes = st.nodes, mark = sp_solver_nimber_mark(s);
    m->outcome = sp_solver_job(s, m->tok, m->len, m->k, m->th, m->max_nodes, &m->pn, &m->dn, &m->failed);
    sp_solver_stats_get(s, &st);
    m->nodes = st.nodes - nodes;
    m->tok_len = m->len; /* the nimbers sent have been read: the result carries those proven */
    m->nnim = 0;
    if (sp_solver_each_nimber(s, mark, sp_solver_nimber_mark(s), add_to_msg, m))
        m->failed = true;
    m->step = SP_STEP_FAILED;
    if (m->outcome == SP_UNKNOWN && !m->failed && (m->want_step || (m->max_nodes && m->nodes >= m->max_nodes)) &&
        !step_into(m, s))
        m->failed = true;
    m->cost = sp_clock_thread() - t0;
}

static void swap_msg(sp_farm_msg *a, sp_farm_msg *b)
{
    sp_farm_msg t = *a;
    *a = *b;
    *b = t;
}

/* ---------------------------------------------------------------- drivers */

typedef enum { IDLE, POSTED, DONE } slot_state;

typedef struct slot {
    sp_solver *solver;
    sp_farm_msg msg;
    slot_state state;
    double free_at, arrives; /* simulated: when the worker is free again, when its result arrives */
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
    /* threads: one lock for every slot; done[] is the queue of workers whose result is in */
    pthread_mutex_t lock;
    pthread_cond_t posted, finished;
    bool quit;
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
                                   double message_seconds)
{
    assert(workers >= 1 && wopts);
    sp_farm_driver *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->kind = kind;
    d->n = workers;
    d->message = message_seconds;
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
    o.threads = 1;
    o.progress = NULL;
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
    if (d->kind == SP_FARM_SIMULATED) {
        leader_worked(d);
        swap_msg(&w->msg, job);
        sp_farm_msg_run(&w->msg, w->solver);
        double start = d->clock + d->message > w->free_at ? d->clock + d->message : w->free_at;
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

bool sp_farm_driver_wait(sp_farm_driver *d, sp_farm_msg *res)
{
    if (d->out == 0)
        return false;
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
    return true;
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
