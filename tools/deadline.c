/* deadline.c: a solver call with a time budget (deadline.h). A thread waits on a condition variable
 * until the call ends or the monotonic clock passes the deadline, whichever comes first; no signal,
 * no global state. */
#include "deadline.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <time.h>

typedef struct watch {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool done;
    struct timespec until;
    volatile sig_atomic_t *stop;
} watch;

static void *watchdog(void *arg)
{
    watch *w = arg;
    pthread_mutex_lock(&w->mu);
    while (!w->done) {
        if (pthread_cond_timedwait(&w->cv, &w->mu, &w->until) == ETIMEDOUT) {
            *w->stop = 1;
            break;
        }
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

static bool watch_init(watch *w, volatile sig_atomic_t *stop, unsigned ms)
{
    pthread_condattr_t ca;
    if (pthread_condattr_init(&ca))
        return false;
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    bool ok = pthread_cond_init(&w->cv, &ca) == 0;
    pthread_condattr_destroy(&ca);
    if (!ok)
        return false;
    pthread_mutex_init(&w->mu, NULL);
    w->done = false;
    w->stop = stop;
    clock_gettime(CLOCK_MONOTONIC, &w->until);
    w->until.tv_sec += ms / 1000;
    w->until.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (w->until.tv_nsec >= 1000000000L) {
        w->until.tv_sec++;
        w->until.tv_nsec -= 1000000000L;
    }
    return true;
}

sp_outcome sp_deadline_outcome(sp_solver *s, volatile sig_atomic_t *stop, const sp_tok *key, size_t len,
                               sp_play play, unsigned ms)
{
    *stop = 0;
    watch w;
    pthread_t t;
    if (!watch_init(&w, stop, ms))
        return SP_UNKNOWN;
    if (pthread_create(&t, NULL, watchdog, &w)) {
        pthread_cond_destroy(&w.cv);
        pthread_mutex_destroy(&w.mu);
        return SP_UNKNOWN; /* no watchdog: better no answer than a search without end */
    }
    sp_outcome o = sp_solver_outcome(s, key, len, play);
    pthread_mutex_lock(&w.mu);
    w.done = true;
    pthread_cond_signal(&w.cv);
    pthread_mutex_unlock(&w.mu);
    pthread_join(t, NULL);
    pthread_cond_destroy(&w.cv);
    pthread_mutex_destroy(&w.mu);
    return o;
}
