/* derive.c: which land nimbers one expansion recovers (derive.h): each land expanded, on several
 * threads, its children's lands looked up in the set, which no thread changes. */
#include "derive.h"

#include <stdbool.h>
#include <stddef.h>

#include "clock.h"
#include "expand.h"
#include "keys.h"
#include "tune.h"

#ifdef _OPENMP
#include <omp.h>
#endif

/* Whether every land of every child of the land at key is in keys; false too when it cannot tell. */
static bool derivable(const sp_children *keys, sp_canon_ctx *ctx, sp_children *kids, const sp_tok *key, size_t len)
{
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    if (sp_key_lands(key, len, off, lens, SP_MAX_LANDS) != 1 || sp_expand_land(ctx, NULL, key, len, kids))
        return false;
    for (size_t c = 0; c < kids->n; c++) {
        const sp_tok *child = kids->tok + kids->off[c];
        unsigned n = sp_key_lands(child, kids->len[c], off, lens, SP_MAX_LANDS);
        for (unsigned i = 0; i < n; i++)
            if (sp_children_find(keys, child + off[i], lens[i]) < 0)
                return false;
    }
    return true;
}

int sp_derive_drop(void *arg, const sp_children *keys, const uint32_t *value, uint8_t *drop)
{
    sp_derive_opts *o = arg;
    (void)value;
    int failed = 0;
    uint64_t dropped = 0, done = 0;
    double t0 = sp_clock_now(), last = t0;
#ifdef _OPENMP
    int threads = o->threads ? (int)o->threads : omp_get_num_procs();
#pragma omp parallel num_threads(threads) reduction(+ : dropped) reduction(| : failed)
#endif
    {
        sp_canon_ctx *ctx = sp_canon_ctx_new();
        sp_children kids;
        sp_children_init(&kids);
        failed |= !ctx;
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 4096)
#endif
        for (size_t i = 0; i < keys->n; i++) {
            if (!ctx)
                continue;
            drop[i] = derivable(keys, ctx, &kids, keys->tok + keys->off[i], keys->len[i]);
            dropped += drop[i];
            uint64_t now = __atomic_add_fetch(&done, 1, __ATOMIC_RELAXED);
            if (o->progress && (now & 4095) == 0) {
#ifdef _OPENMP
#pragma omp critical(sp_derive_progress)
#endif
                {
                    double t = sp_clock_now();
                    if (t - last >= SP_TUNE_PROGRESS_SECONDS) {
                        last = t;
                        o->progress(o->arg, now, keys->n, t - t0);
                    }
                }
            }
        }
        sp_children_free(&kids);
        sp_canon_ctx_free(ctx);
    }
    o->dropped = dropped;
    return failed ? -1 : 0;
}

int sp_derive_drop_small(void *arg, const sp_children *keys, const uint32_t *value, uint8_t *drop)
{
    sp_derive_opts *o = arg;
    if (o->derivable && sp_derive_drop(arg, keys, value, drop))
        return -1;
    uint64_t dropped = o->derivable ? o->dropped : 0;
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    for (size_t i = 0; i < keys->n; i++) {
        const sp_tok *key = keys->tok + keys->off[i];
        if (drop[i] || sp_key_lands(key, keys->len[i], off, lens, SP_MAX_LANDS) != 1)
            continue;
        drop[i] = sp_key_lives(key, keys->len[i]) < o->min_lives;
        dropped += drop[i];
    }
    o->dropped = dropped;
    return 0;
}
