/* signals.c: the stop flag of the long subcommands and the handler that sets it (signals.h). */
#include "signals.h"

#include <assert.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>

/* A handler may touch only lock-free atomics (C11 7.14.1.1): the flag must be one. */
static_assert(ATOMIC_BOOL_LOCK_FREE == 2, "the stop flag must be a lock-free atomic");

atomic_bool sp_signals_stop;

static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&sp_signals_stop, true);
}

void sp_signals_catch(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}
