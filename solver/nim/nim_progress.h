/* nim_progress.h: the progress callback through which the long Nim-family computations report.
 * The library never prints; the caller decides how often a report reaches the terminal. */
#ifndef SP_NIM_PROGRESS_H
#define SP_NIM_PROGRESS_H

#include <stdint.h>

#include "nim_parallel.h"

/* fn(arg, stage, done, total) is called often, and only ever from one thread (the main one of a
 * parallel loop), so it need not be thread-safe; a NULL sp_nim_progress or a NULL fn means nobody
 * listens. */
typedef struct sp_nim_progress {
    void (*fn)(void *arg, const char *stage, uint64_t done, uint64_t total);
    void *arg;
} sp_nim_progress;

static inline void sp_nim_report(const sp_nim_progress *p, const char *stage, uint64_t done, uint64_t total)
{
    if (p && p->fn && sp_nim_main_thread())
        p->fn(p->arg, stage, done, total);
}

#endif
