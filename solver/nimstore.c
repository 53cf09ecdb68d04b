/* nimstore.c: the lock-free, insert-only land store (nimstore.h): an open-addressing table of
 * slots pointing into an arena of keys; a slot is claimed with a compare-and-swap, filled, then
 * published with a release store of its hash. A land key ends with its only SP_TK_END_L token, so a
 * slot needs no length: a stored key ends where that token is. */
#include "nimstore.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define EMPTY 0ull
#define BUSY 2ull /* claimed, being filled; published hashes are odd */

typedef struct slot {
    _Atomic uint64_t hash;
    uint32_t off;     /* in tokens, into the arena */
    uint32_t value;
} slot;

struct sp_nimstore {
    slot *slots;
    uint64_t mask;
    sp_tok *arena;
    size_t arena_cap;            /* tokens */
    atomic_size_t arena_top;     /* tokens handed out */
    atomic_uint_fast64_t count;
    atomic_bool full;
    size_t bytes;
};

sp_nimstore *sp_nimstore_new(size_t bytes)
{
    sp_nimstore *ns = calloc(1, sizeof *ns);
    if (!ns)
        return NULL;
    /* a quarter of the budget for slots (kept at most half full), the rest for keys */
    uint64_t nslots = 1024;
    while (nslots * 2 * sizeof(slot) <= bytes / 4)
        nslots *= 2;
    ns->slots = calloc(nslots, sizeof(slot));
    ns->arena_cap = (bytes - nslots * sizeof(slot) < bytes ? bytes - nslots * sizeof(slot) : 0) / sizeof(sp_tok);
    if (ns->arena_cap < 4096)
        ns->arena_cap = 4096;
    ns->arena = malloc(ns->arena_cap * sizeof(sp_tok));
    if (!ns->slots || !ns->arena) {
        sp_nimstore_free(ns);
        return NULL;
    }
    ns->mask = nslots - 1;
    ns->bytes = nslots * sizeof(slot) + ns->arena_cap * sizeof(sp_tok);
    return ns;
}

void sp_nimstore_free(sp_nimstore *ns)
{
    if (!ns)
        return;
    free(ns->slots);
    free(ns->arena);
    free(ns);
}

static uint64_t stored_hash(uint64_t h)
{
    return h | 1;
}

/* Whether the stored key at off is key; never reads a stored key past its SP_TK_END_L. */
static bool same_key(const sp_nimstore *ns, uint32_t off, const sp_tok *key, size_t len)
{
    const sp_tok *k = ns->arena + off;
    for (size_t i = 0; i < len; i++) {
        if (k[i] != key[i])
            return false;
        if (k[i] == SP_TK_END_L)
            return i == len - 1;
    }
    return false;
}

int sp_nimstore_get(const sp_nimstore *ns, const sp_tok *key, size_t len, uint64_t h)
{
    uint64_t want = stored_hash(h);
    for (uint64_t i = h & ns->mask;; i = (i + 1) & ns->mask) {
        const slot *s = &ns->slots[i];
        uint64_t got = atomic_load_explicit(&s->hash, memory_order_acquire);
        if (got == EMPTY)
            return -1;
        if (got == want && same_key(ns, s->off, key, len))
            return (int)s->value;
    }
}

bool sp_nimstore_put(sp_nimstore *ns, const sp_tok *key, size_t len, uint64_t h, unsigned value)
{
    if (len == 0 || key[len - 1] != SP_TK_END_L || value > INT32_MAX || atomic_load(&ns->full))
        return false;
    if (2 * (atomic_load_explicit(&ns->count, memory_order_relaxed) + 1) > ns->mask + 1) {
        atomic_store(&ns->full, true);
        return false;
    }
    size_t off = atomic_fetch_add(&ns->arena_top, len);
    if (off + len > ns->arena_cap) {
        atomic_store(&ns->full, true);
        return false;
    }
    memcpy(ns->arena + off, key, len * sizeof(sp_tok));
    uint64_t want = stored_hash(h);
    for (uint64_t i = h & ns->mask;; i = (i + 1) & ns->mask) {
        slot *s = &ns->slots[i];
        uint64_t expect = EMPTY;
        if (atomic_compare_exchange_strong(&s->hash, &expect, BUSY)) {
            s->off = (uint32_t)off;
            s->value = value;
            atomic_store_explicit(&s->hash, want, memory_order_release);
            atomic_fetch_add_explicit(&ns->count, 1, memory_order_relaxed);
            return true;
        }
        if (expect == want && same_key(ns, s->off, key, len))
            return false; /* already known (its arena copy is wasted; rare) */
    }
}

uint64_t sp_nimstore_count(const sp_nimstore *ns)
{
    return atomic_load_explicit(&ns->count, memory_order_relaxed);
}

size_t sp_nimstore_bytes(const sp_nimstore *ns)
{
    return ns->bytes;
}

size_t sp_nimstore_used_bytes(const sp_nimstore *ns)
{
    size_t top = atomic_load(&ns->arena_top);
    if (top > ns->arena_cap)
        top = ns->arena_cap;
    return (ns->mask + 1) * sizeof(slot) + top * sizeof(sp_tok);
}

bool sp_nimstore_full(const sp_nimstore *ns)
{
    return atomic_load(&ns->full);
}

int sp_nimstore_each(const sp_nimstore *ns, int (*fn)(void *arg, const sp_tok *key, size_t len, unsigned value),
                     void *arg)
{
    for (uint64_t i = 0; i <= ns->mask; i++) {
        const slot *s = &ns->slots[i];
        uint64_t h = atomic_load_explicit(&s->hash, memory_order_acquire);
        if (h == EMPTY || h == BUSY)
            continue;
        size_t len = 1;
        while (ns->arena[s->off + len - 1] != SP_TK_END_L)
            len++;
        int rc = fn(arg, ns->arena + s->off, len, s->value);
        if (rc)
            return rc;
    }
    return 0;
}
