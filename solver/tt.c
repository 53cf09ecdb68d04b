/* tt.c: the shared transposition table (tt.h): 64-byte buckets of three entries and a sequence
 * lock, replacement of the least-work entry. */
#include "tt.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define WAYS 3

typedef struct entry {
    uint64_t check; /* h[1]; 0 marks an empty entry (a real 0 is stored as 1) */
    uint32_t pn, dn, work;
} __attribute__((packed)) entry;

/* Writers make seq odd while they change the entries; readers copy the entries and keep the copy only
 * if seq was even and unchanged around it. A probe thus never writes the line: threads that read a
 * bucket share it instead of taking it from each other (the helpers probe the children they make,
 * which the leader then searches). */
typedef struct bucket {
    entry e[WAYS];
    atomic_uint seq;
} __attribute__((aligned(64))) bucket;

_Static_assert(sizeof(bucket) == 64, "a bucket is one cache line");

struct sp_tt {
    bucket *b;
    uint64_t mask;
    atomic_uint_fast64_t filled;
};

sp_tt *sp_tt_new(size_t bytes)
{
    uint64_t n = 1;
    while (n * 2 * sizeof(bucket) <= bytes)
        n *= 2;
    sp_tt *tt = malloc(sizeof *tt);
    if (!tt)
        return NULL;
    /* anonymous pages come zeroed and are only touched when used: no start-up cost, honest RSS */
    void *m = mmap(NULL, n * sizeof(bucket), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        free(tt);
        return NULL;
    }
    /* Huge pages mean far fewer faults and TLB misses, but each first touch clears 2 MiB: worth it
     * only where a search soon touches most of the table anyway. Advisory. */
    if (n * sizeof(bucket) <= ((size_t)1 << 30))
        madvise(m, n * sizeof(bucket), MADV_HUGEPAGE);
    tt->b = m;
    tt->mask = n - 1;
    atomic_init(&tt->filled, 0);
    return tt;
}

void sp_tt_free(sp_tt *tt)
{
    if (tt)
        munmap(tt->b, (tt->mask + 1) * sizeof(bucket));
    free(tt);
}

static void pause_a_while(unsigned *spins)
{
    if (++*spins % 64 == 0)
        sched_yield(); /* the writer may have been preempted: let it finish */
}

static void lock(bucket *b)
{
    unsigned spins = 0;
    for (;;) {
        unsigned s = atomic_load_explicit(&b->seq, memory_order_relaxed);
        if (!(s & 1) && atomic_compare_exchange_weak_explicit(&b->seq, &s, s + 1, memory_order_acquire,
                                                              memory_order_relaxed))
            break;
        pause_a_while(&spins);
    }
    atomic_thread_fence(memory_order_release); /* seq is odd before any entry changes */
}

static void unlock(bucket *b)
{
    atomic_fetch_add_explicit(&b->seq, 1, memory_order_release);
}

/* A consistent copy of the bucket's entries, taken without writing to it. */
static void read_entries(const bucket *b, entry *out)
{
    unsigned spins = 0;
    for (;;) {
        unsigned s = atomic_load_explicit(&b->seq, memory_order_acquire);
        if (!(s & 1)) {
            memcpy(out, (const void *)b->e, sizeof b->e);
            atomic_thread_fence(memory_order_acquire);
            if (atomic_load_explicit(&b->seq, memory_order_relaxed) == s)
                return;
        }
        pause_a_while(&spins);
    }
}

static uint64_t check_of(const uint64_t h[2])
{
    return h[1] ? h[1] : 1;
}

bool sp_tt_probe(sp_tt *tt, const uint64_t h[2], sp_tt_entry *out)
{
    bucket *b = &tt->b[h[0] & tt->mask];
    uint64_t c = check_of(h);
    entry e[WAYS];
    read_entries(b, e);
    for (int i = 0; i < WAYS; i++) {
        if (e[i].check == c) {
            *out = (sp_tt_entry){e[i].pn, e[i].dn, e[i].work};
            return true;
        }
    }
    return false;
}

void sp_tt_prefetch(const sp_tt *tt, const uint64_t h[2])
{
    __builtin_prefetch(&tt->b[h[0] & tt->mask]);
}

/* Proven entries are final results: they outrank unproven ones of the same work. */
static uint64_t value(const entry *e)
{
    return ((uint64_t)e->work << 1) | (e->pn == 0 || e->dn == 0);
}

void sp_tt_store(sp_tt *tt, const uint64_t h[2], const sp_tt_entry *in)
{
    bucket *b = &tt->b[h[0] & tt->mask];
    uint64_t c = check_of(h);
    lock(b);
    int victim = -1;
    for (int i = 0; i < WAYS; i++) {
        if (b->e[i].check == c) {
            victim = i;
            break;
        }
    }
    if (victim >= 0) {
        entry *e = &b->e[victim];
        bool proven = e->pn == 0 || e->dn == 0;
        if (!proven) { /* a proof is final: never overwrite it with an estimate */
            e->pn = in->pn;
            e->dn = in->dn;
        }
        e->work = e->work > in->work ? e->work : in->work;
        unlock(b);
        return;
    }
    victim = 0;
    for (int i = 0; i < WAYS; i++) {
        if (b->e[i].check == 0) {
            victim = i;
            break;
        }
        if (value(&b->e[i]) < value(&b->e[victim]))
            victim = i;
    }
    if (b->e[victim].check == 0)
        atomic_fetch_add_explicit(&tt->filled, 1, memory_order_relaxed);
    b->e[victim] = (entry){c, in->pn, in->dn, in->work};
    unlock(b);
}

size_t sp_tt_bytes(const sp_tt *tt)
{
    return (tt->mask + 1) * sizeof(bucket);
}

uint64_t sp_tt_capacity(const sp_tt *tt)
{
    return (tt->mask + 1) * WAYS;
}

uint64_t sp_tt_filled(const sp_tt *tt)
{
    return atomic_load_explicit(&tt->filled, memory_order_relaxed);
}
