/* nimstore.c: the lock-free, insert-only land store (nimstore.h): open-addressing slots pointing into
 * an arena of keys, in a slot table that doubles as it fills. A land key ends with its only
 * SP_TK_END_L token, so a slot needs no length: a stored key ends where that token is. A key of
 * several lands (rare: misère lost positions) is marked in its slot's hash and stored after a token
 * that holds its length. */
#include "nimstore.h"

#include <assert.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

#define EMPTY 0ull
#define BUSY 2ull   /* claimed, being filled; published hashes are odd */
#define LANDS 2ull  /* in a published hash: a key of several lands, its length in the token before it */

_Static_assert(SP_KEY_MAX <= UINT16_MAX, "a key's length fits in one token");
#define FIRST_SLOTS 4096

typedef struct slot {
    _Atomic uint64_t hash;
    uint32_t off;     /* in tokens, into the arena */
    uint32_t value;
} slot;

/* One size of the slot table. The table starts small and doubles when half full, rather than taking
 * its whole share of the budget at once: the slots are hit at random, so a table sized for the budget
 * has every page touched (dear on a virtual machine) and every lookup a cache miss, long before it
 * holds much (docs/performance.md). A slot is claimed with a compare-and-swap, filled, then published
 * with a release store of its hash. */
typedef struct table {
    slot *slots;
    uint64_t mask;
    struct table *older; /* kept until the store is freed: a lookup may still be reading it */
    char pad[64];        /* the fields below change as it fills; the ones above, never */
    atomic_uint_fast64_t count;
    atomic_bool closed;  /* being copied into the next size: an insert that finds it so goes there too */
} table;

struct sp_nimstore {
    _Atomic(table *) cur;
    uint64_t max_slots;
    sp_tok *arena;
    size_t arena_cap;            /* tokens */
    size_t bytes;
    char pad[64];                /* the fields below change with every insert */
    atomic_size_t arena_top;     /* tokens handed out; a land's place in the arena is its place in history */
    atomic_size_t putting;       /* puts under way (sp_nimstore_mark waits for them) */
    atomic_size_t table_bytes;   /* every size of the table so far */
    atomic_bool full;
};

static table *table_new(uint64_t nslots)
{
    table *t = calloc(1, sizeof *t);
    if (t && !(t->slots = sp_mem_table(nslots * sizeof(slot)))) {
        free(t);
        return NULL;
    }
    if (t)
        t->mask = nslots - 1;
    return t;
}

sp_nimstore *sp_nimstore_new(size_t bytes)
{
    sp_nimstore *ns = calloc(1, sizeof *ns);
    if (!ns)
        return NULL;
    /* the table may reach a quarter of the budget, its smaller sizes (kept) less than another
     * quarter; the rest is for keys */
    ns->max_slots = 1024;
    while (ns->max_slots * 2 * sizeof(slot) <= bytes / 4)
        ns->max_slots *= 2;
    uint64_t first = ns->max_slots < FIRST_SLOTS ? ns->max_slots : FIRST_SLOTS;
    size_t tables = 2 * ns->max_slots * sizeof(slot);
    ns->arena_cap = (tables < bytes ? bytes - tables : 0) / sizeof(sp_tok);
    if (ns->arena_cap < 4096)
        ns->arena_cap = 4096;
    ns->arena = sp_mem_table(ns->arena_cap * sizeof(sp_tok));
    table *t = table_new(first);
    atomic_init(&ns->cur, t);
    if (!t || !ns->arena) {
        sp_nimstore_free(ns);
        return NULL;
    }
    atomic_init(&ns->table_bytes, first * sizeof(slot));
    ns->bytes = tables + ns->arena_cap * sizeof(sp_tok);
    return ns;
}

void sp_nimstore_free(sp_nimstore *ns)
{
    if (!ns)
        return;
    for (table *t = atomic_load(&ns->cur), *older; t; t = older) {
        older = t->older;
        sp_mem_table_free(t->slots, (t->mask + 1) * sizeof(slot));
        free(t);
    }
    sp_mem_table_free(ns->arena, ns->arena_cap * sizeof(sp_tok));
    free(ns);
}

static uint64_t stored_hash(uint64_t h, bool lands)
{
    return lands ? h | 1 | LANDS : (h | 1) & ~LANDS;
}

/* Whether a published hash may be that of a key whose sp_key_hash64 is h, whichever its shape: a
 * lookup need not scan its key for lands (same_key tells them apart by the stored flag). */
static bool hash_matches(uint64_t stored, uint64_t h)
{
    return (stored | LANDS) == (h | 1 | LANDS);
}

/* Whether key is of several lands: an SP_TK_END_L before its last token. */
static bool several_lands(const sp_tok *key, size_t len)
{
    for (size_t i = 0; i + 1 < len; i++)
        if (key[i] == SP_TK_END_L)
            return true;
    return false;
}

/* Where the probes for a hash start (above its two low bits, which a published hash sets). */
static uint64_t first_slot(const table *t, uint64_t h)
{
    return (h >> 2) & t->mask;
}

/* Whether the stored key at off, published with hash `stored`, is key; never reads a stored key past
 * its end. */
static bool same_key(const sp_nimstore *ns, uint64_t stored, uint32_t off, const sp_tok *key, size_t len)
{
    const sp_tok *k = ns->arena + off;
    if (stored & LANDS)
        return k[0] == len && memcmp(k + 1, key, len * sizeof *key) == 0;
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
    assert(key || len == 0);
    const table *t = atomic_load_explicit(&ns->cur, memory_order_acquire);
    for (uint64_t i = first_slot(t, h);; i = (i + 1) & t->mask) {
        const slot *s = &t->slots[i];
        uint64_t got = atomic_load_explicit(&s->hash, memory_order_acquire);
        if (got == EMPTY)
            return -1;
        if (hash_matches(got, h) && same_key(ns, got, s->off, key, len))
            return (int)s->value;
    }
}

/* Puts key, stored at off, into t: 1 done, 0 when it is there already. */
static int insert(const sp_nimstore *ns, table *t, uint32_t off, const sp_tok *key, size_t len, uint64_t want,
                  unsigned value)
{
    for (uint64_t i = first_slot(t, want);; i = (i + 1) & t->mask) {
        slot *s = &t->slots[i];
        uint64_t expect = EMPTY;
        if (atomic_compare_exchange_strong(&s->hash, &expect, BUSY)) {
            s->off = off;
            s->value = value;
            atomic_store_explicit(&s->hash, want, memory_order_release);
            atomic_fetch_add_explicit(&t->count, 1, memory_order_relaxed);
            return 1;
        }
        while (expect == BUSY) /* another insert is filling the slot: it may be this very land */
            expect = atomic_load_explicit(&s->hash, memory_order_acquire);
        if (hash_matches(expect, want) && same_key(ns, expect, s->off, key, len))
            return 0;
    }
}

/* Waits until t is no longer the table (or the store is full). Growing takes a few milliseconds at
 * most, and happens a few times in a run. */
static void wait_moved(const sp_nimstore *ns, const table *t)
{
    while (atomic_load_explicit(&ns->cur, memory_order_acquire) == t && !atomic_load(&ns->full))
        sched_yield();
}

/* Replaces the half-full table t by one twice its size holding all it holds (or waits for the thread
 * that does); false when the store is full. Inserts racing the copy find t closed and insert again
 * into the new table: the fences make sure each such insert is seen either by the copy or by its
 * inserter's check of `closed`. */
static bool grow(sp_nimstore *ns, table *t)
{
    bool open = false;
    if (!atomic_compare_exchange_strong(&t->closed, &open, true)) {
        wait_moved(ns, t);
        return !atomic_load(&ns->full);
    }
    uint64_t n = 2 * (t->mask + 1);
    table *nt = n <= ns->max_slots ? table_new(n) : NULL;
    if (!nt) {
        atomic_store(&ns->full, true);
        return false;
    }
    atomic_thread_fence(memory_order_seq_cst);
    uint64_t count = 0;
    for (uint64_t i = 0; i <= t->mask; i++) {
        const slot *s = &t->slots[i];
        uint64_t h = atomic_load_explicit(&s->hash, memory_order_acquire);
        if (h == EMPTY || h == BUSY)
            continue;
        uint64_t j = first_slot(nt, h);
        while (atomic_load_explicit(&nt->slots[j].hash, memory_order_relaxed) != EMPTY)
            j = (j + 1) & nt->mask;
        nt->slots[j].off = s->off;
        nt->slots[j].value = s->value;
        atomic_store_explicit(&nt->slots[j].hash, h, memory_order_relaxed);
        count++;
    }
    atomic_store_explicit(&nt->count, count, memory_order_relaxed);
    nt->older = t;
    atomic_fetch_add(&ns->table_bytes, n * sizeof(slot));
    atomic_store_explicit(&ns->cur, nt, memory_order_release);
    return true;
}

static bool put(sp_nimstore *ns, const sp_tok *key, size_t len, uint64_t h, unsigned value)
{
    bool lands = several_lands(key, len);
    size_t off = atomic_fetch_add(&ns->arena_top, len + lands);
    if (off + len + lands > ns->arena_cap) {
        atomic_store(&ns->full, true);
        return false;
    }
    if (lands)
        ns->arena[off] = (sp_tok)len;
    memcpy(ns->arena + off + lands, key, len * sizeof(sp_tok));
    uint64_t want = stored_hash(h, lands);
    bool stored = false;
    for (;;) {
        table *t = atomic_load_explicit(&ns->cur, memory_order_acquire);
        if (2 * (atomic_load_explicit(&t->count, memory_order_relaxed) + 1) > t->mask + 1) {
            if (!grow(ns, t))
                return stored;
            continue;
        }
        if (!insert(ns, t, (uint32_t)off, key, len, want, value))
            return stored; /* there already (from a racing insert, or this one copied over) */
        stored = true;
        atomic_thread_fence(memory_order_seq_cst);
        if (!atomic_load_explicit(&t->closed, memory_order_relaxed))
            return true;
        wait_moved(ns, t); /* the copy may have missed it */
        if (atomic_load(&ns->full))
            return true;
    }
}

bool sp_nimstore_put(sp_nimstore *ns, const sp_tok *key, size_t len, uint64_t h, unsigned value)
{
    assert(key || len == 0);
    if (len == 0 || key[len - 1] != SP_TK_END_L || value > INT32_MAX || atomic_load(&ns->full))
        return false;
    atomic_fetch_add(&ns->putting, 1); /* before the key takes its place in the arena */
    bool stored = put(ns, key, len, h, value);
    atomic_fetch_sub(&ns->putting, 1);
    return stored;
}

/* A put counted in `putting` before it took its place below `top` is visible once it is counted out:
 * the counter's updates and reads are sequentially consistent, and the count-out releases the slot. */
uint64_t sp_nimstore_mark(const sp_nimstore *ns)
{
    size_t top = atomic_load(&ns->arena_top);
    while (atomic_load(&ns->putting))
        sched_yield();
    return top;
}

uint64_t sp_nimstore_count(const sp_nimstore *ns)
{
    return atomic_load_explicit(&atomic_load(&ns->cur)->count, memory_order_relaxed);
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
    return atomic_load(&ns->table_bytes) + top * sizeof(sp_tok);
}

bool sp_nimstore_full(const sp_nimstore *ns)
{
    return atomic_load(&ns->full);
}

int sp_nimstore_each(const sp_nimstore *ns, uint64_t from, uint64_t to,
                     int (*fn)(void *arg, const sp_tok *key, size_t len, unsigned value), void *arg)
{
    const table *t = atomic_load(&ns->cur);
    for (uint64_t i = 0; i <= t->mask; i++) {
        const slot *s = &t->slots[i];
        uint64_t h = atomic_load_explicit(&s->hash, memory_order_acquire);
        if (h == EMPTY || h == BUSY || s->off < from || s->off >= to)
            continue;
        const sp_tok *key = ns->arena + s->off;
        size_t len = 1;
        if (h & LANDS)
            len = *key++;
        else
            while (key[len - 1] != SP_TK_END_L)
                len++;
        int rc = fn(arg, key, len, s->value);
        if (rc)
            return rc;
    }
    return 0;
}
