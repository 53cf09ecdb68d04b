/* tt.c: the shared transposition table (tt.h): pairs of 64-byte buckets of three entries, each with a
 * sequence lock, two pairs to choose from per entry, replacement of the least-work entry, and a used
 * part that doubles rather than replace one. */
#include "tt.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "mem.h"

#define WAYS 3

#define EXT_BITS 8 /* the used part grows at most 2^EXT_BITS-fold */
#define ALT_FLAG (1u << EXT_BITS) /* the entry lies in its second pair */
#define WORK_SHIFT (EXT_BITS + 1)
#define WORK_MAX ((1u << (32 - WORK_SHIFT)) - 1)

typedef struct entry {
    uint64_t check; /* h[1]; 0 marks an empty entry (a real 0 is stored as 1) */
    uint32_t pn, dn;
    uint32_t work_ext; /* work (saturating) << WORK_SHIFT | ALT_FLAG | the bits of h[0] just above the
                        * first part's */
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

/* The table uses the first `used` buckets of its budget and doubles that part when an entry would
 * otherwise replace another. A search that needs little memory touches little, which matters where
 * the first touch of a page is dear (zeroing it; in a virtual machine, a trip to the host). Each
 * entry keeps the next EXT_BITS bits of h[0] above the first part's index, so that a doubling moves
 * every entry whose bucket changes (nothing is lost). Growing at a fixed fill instead replaced few
 * entries, mostly proven ones, and that alone made the search several times larger
 * (docs/performance.md): df-pn leans on the proofs it keeps. */
struct sp_tt {
    bucket *b;
    uint64_t mask;                /* of the whole budget */
    unsigned first_bits;          /* log2 of the first part's buckets */
    _Atomic uint64_t used_mask;   /* of the part in use */
    atomic_uint grows;            /* doublings begun and ended: odd while one moves entries */
    atomic_uint_fast64_t filled;
    _Atomic uint64_t grow_at;     /* while one runs: the buckets it has gone through */
    _Atomic uint64_t present_from; /* ... and where the new part is made present from, to its end */
};

#define FIRST_PART ((size_t)16 << 20) /* bytes: the least first part */

sp_tt *sp_tt_new(size_t bytes)
{
    uint64_t n = 2; /* a pair at least */
    while (n * 2 * sizeof(bucket) <= bytes)
        n *= 2;
    sp_tt *tt = malloc(sizeof *tt);
    if (!tt)
        return NULL;
    uint64_t first = n >> EXT_BITS > 2 ? n >> EXT_BITS : 2;
    while (first < n && first * sizeof(bucket) < FIRST_PART)
        first *= 2;
    tt->first_bits = 0;
    while (((uint64_t)1 << tt->first_bits) < first)
        tt->first_bits++;
    atomic_init(&tt->used_mask, first - 1);
    atomic_init(&tt->grows, 0);
    atomic_init(&tt->grow_at, 0);
    atomic_init(&tt->present_from, 0);
    /* pages are only touched when used: no start-up cost, honest RSS; huge ones where the system
     * allows, each first touch clearing 2 MiB, which the part in use soon fills anyway */
    void *m = sp_mem_table(n * sizeof(bucket));
    if (!m) {
        free(tt);
        return NULL;
    }
    tt->b = m;
    tt->mask = n - 1;
    atomic_init(&tt->filled, 0);
    return tt;
}

void sp_tt_free(sp_tt *tt)
{
    if (tt)
        sp_mem_table_free(tt->b, (tt->mask + 1) * sizeof(bucket));
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

static bucket *home(const sp_tt *tt, const uint64_t h[2], uint64_t used_mask)
{
    return &tt->b[h[0] & used_mask];
}

/* The second pair an entry may live in: its home's, moved by bits of its check (which the entry
 * keeps, so that a doubling can tell where each entry goes). With one pair to overflow into, the part
 * in use doubled at a fill of 6-12% (the fullest of many pairs overflows early); with the less full of
 * two pairs chosen, the fullest pair stays close to the mean. The offset keeps the low bit, so the
 * second pair is a pair; it is the home pair itself for one key in used/2 (then there is one choice). */
static bucket *second(const sp_tt *tt, const bucket *home, uint64_t c, uint64_t used_mask)
{
    return &tt->b[(size_t)(home - tt->b) ^ (c & used_mask & ~(uint64_t)1)];
}

/* The other bucket of b's pair (two buckets of three ways overflow far later than one). A pair lies
 * in one 128-byte block, which the hardware tends to fetch together. Doubling keeps pairs: bucket i
 * and i + used have the same low bit. */
static bucket *partner(const sp_tt *tt, const bucket *b)
{
    return &tt->b[(size_t)(b - tt->b) ^ 1];
}

/* The buckets an entry may lie in: its home pair, then its second pair unless that is the same. */
typedef struct place {
    bucket *b[4];
    unsigned n; /* 2 or 4 */
} place;

static place place_of(const sp_tt *tt, const uint64_t h[2], uint64_t used_mask)
{
    uint64_t c = check_of(h);
    bucket *b = home(tt, h, used_mask), *a = second(tt, b, c, used_mask);
    return (place){{b, partner(tt, b), a, partner(tt, a)}, a == b ? 2 : 4};
}

static uint32_t work_of(const entry *e)
{
    return e->work_ext >> WORK_SHIFT;
}

/* The way of b holding check c, or -1; copy gets b's entries, read consistently. */
static int find(const bucket *b, uint64_t c, entry *copy)
{
    read_entries(b, copy);
    for (int i = 0; i < WAYS; i++)
        if (copy[i].check == c)
            return i;
    return -1;
}

bool sp_tt_probe(sp_tt *tt, const uint64_t h[2], sp_tt_entry *out)
{
    place p = place_of(tt, h, atomic_load_explicit(&tt->used_mask, memory_order_acquire));
    uint64_t c = check_of(h);
    entry e[WAYS];
    int i = -1;
    for (unsigned k = 0; k < p.n && i < 0; k++)
        i = find(p.b[k], c, e);
    if (i < 0)
        return false;
    *out = (sp_tt_entry){e[i].pn, e[i].dn, work_of(&e[i])};
    return true;
}

void sp_tt_prefetch(const sp_tt *tt, const uint64_t h[2])
{
    place p = place_of(tt, h, atomic_load_explicit(&tt->used_mask, memory_order_acquire));
    for (unsigned k = 0; k < p.n; k++)
        __builtin_prefetch(p.b[k]);
}

/* Proven entries are final results: they outrank unproven ones of the same work. */
static uint64_t value(const entry *e)
{
    return ((uint64_t)work_of(e) << 1) | (e->pn == 0 || e->dn == 0);
}

static uint32_t pack(const sp_tt *tt, const uint64_t h[2], uint32_t work, bool in_second)
{
    uint32_t ext = (uint32_t)(h[0] >> tt->first_bits) & ((1u << EXT_BITS) - 1);
    return (work > WORK_MAX ? WORK_MAX : work) << WORK_SHIFT | (in_second ? ALT_FLAG : 0) | ext;
}

/* Doubles the part in use, moving each entry of bucket i whose next bit of h[0] is set to bucket
 * i + used (never used so far, so it has room for all of them). A probe meanwhile may miss an entry
 * being moved, which only costs a search. A store by another thread meanwhile could land in a bucket
 * already done, where the larger part will not look: stores wait while a doubling runs, and one that
 * a doubling began during is made again (the copy left behind is never found and only takes a way;
 * without this, entries stored by other threads were lost). */
/* Buckets made present at a time by a helper (2 MiB: a huge page). The first touch of a page is
 * what a doubling spends most of its time on where memory is dear to map (a virtual machine:
 * docs/performance.md). */
#define PRESENT_BLOCK ((uint64_t)(2u << 20) / sizeof(bucket))

void sp_tt_help_grow(sp_tt *tt)
{
#ifdef MADV_POPULATE_WRITE
    unsigned g = atomic_load_explicit(&tt->grows, memory_order_acquire);
    if (!(g & 1))
        return;
    uint64_t used = atomic_load_explicit(&tt->used_mask, memory_order_acquire) + 1;
    uint64_t from = atomic_load_explicit(&tt->present_from, memory_order_acquire);
    while (atomic_load_explicit(&tt->grows, memory_order_acquire) == g) {
        uint64_t at = used + atomic_load_explicit(&tt->grow_at, memory_order_relaxed) + PRESENT_BLOCK;
        if (from < at + PRESENT_BLOCK || from > 2 * used)
            return; /* met the doubling (or read a doubling's numbers half set: skip it) */
        if (!atomic_compare_exchange_weak_explicit(&tt->present_from, &from, from - PRESENT_BLOCK,
                                                   memory_order_acq_rel, memory_order_acquire))
            continue;
        from -= PRESENT_BLOCK;
        if (madvise(&tt->b[from], PRESENT_BLOCK * sizeof(bucket), MADV_POPULATE_WRITE))
            return; /* not supported here: the doubling touches them itself */
    }
#else
    (void)tt;
#endif
}

/* Whether the doubling of the part in use from 2^ubits buckets (the ext bit `bit` being the new bit
 * of h[0]) moves entry e up by that much: its home moves by the bit, and its second pair, home ^
 * (check & mask), by the bit xor the check's. */
static bool moves(const entry *e, unsigned bit, unsigned ubits)
{
    unsigned up = (e->work_ext >> bit) & 1;
    if (e->work_ext & ALT_FLAG)
        up ^= (unsigned)(e->check >> ubits) & 1;
    return e->check && up;
}

/* Whether a doubling moves any entry of b (read without writing it: a store under way there began
 * before the doubling and is made again after it). */
static bool moves_any(const bucket *b, unsigned bit, unsigned ubits)
{
    entry copy[WAYS];
    read_entries(b, copy);
    for (int w = 0; w < WAYS; w++)
        if (moves(&copy[w], bit, ubits))
            return true;
    return false;
}

void sp_tt_grow(sp_tt *tt)
{
    unsigned g = atomic_load_explicit(&tt->grows, memory_order_relaxed);
    if ((g & 1) || !atomic_compare_exchange_strong_explicit(&tt->grows, &g, g + 1, memory_order_acq_rel,
                                                            memory_order_relaxed))
        return; /* another thread is at it */
    uint64_t used = atomic_load_explicit(&tt->used_mask, memory_order_relaxed) + 1;
    if (used <= tt->mask) {
        unsigned bit = 0;
        while (((uint64_t)1 << (tt->first_bits + bit)) < used)
            bit++;
        atomic_store_explicit(&tt->grow_at, 0, memory_order_relaxed);
        atomic_store_explicit(&tt->present_from, 2 * used, memory_order_release);
        for (uint64_t i = 0; i < used; i++) {
            bucket *lo = &tt->b[i], *hi = &tt->b[i + used];
            if (i % PRESENT_BLOCK == 0)
                atomic_store_explicit(&tt->grow_at, i, memory_order_relaxed);
            if (!moves_any(lo, bit, tt->first_bits + bit))
                continue;
            lock(lo);
            lock(hi);
            for (int w = 0, v = 0; w < WAYS; w++) {
                if (moves(&lo->e[w], bit, tt->first_bits + bit)) {
                    hi->e[v++] = lo->e[w];
                    lo->e[w] = (entry){0, 0, 0, 0};
                }
            }
            unlock(hi);
            unlock(lo);
        }
        atomic_store_explicit(&tt->used_mask, 2 * used - 1, memory_order_release);
    }
    atomic_store_explicit(&tt->grows, g + 2, memory_order_release);
}

/* The way holding check c, else an empty one, else -1 (a doubling leaves holes: the entry sought may
 * lie after an empty way). */
static int way_of(const bucket *b, uint64_t c)
{
    int empty = -1;
    for (int i = 0; i < WAYS; i++) {
        if (b->e[i].check == c)
            return i;
        if (b->e[i].check == 0 && empty < 0)
            empty = i;
    }
    return empty;
}

static unsigned empty_ways(const bucket *b)
{
    unsigned n = 0;
    for (int i = 0; i < WAYS; i++)
        n += b->e[i].check == 0;
    return n;
}

/* The entry of check c in place p, else an empty way of the emptier pair (home on a tie, and the
 * first bucket of a pair first), else NULL; *in_second says which pair. */
static entry *slot_of(const place *p, uint64_t c, bool *in_second)
{
    for (unsigned k = 0; k < p->n; k++) {
        int i = way_of(p->b[k], c);
        if (i >= 0 && p->b[k]->e[i].check == c)
            return *in_second = k >= 2, &p->b[k]->e[i];
    }
    unsigned pair = p->n == 4 && empty_ways(p->b[2]) + empty_ways(p->b[3]) >
                                     empty_ways(p->b[0]) + empty_ways(p->b[1]);
    *in_second = pair;
    for (unsigned k = 2 * pair; k < 2 * pair + 2; k++) {
        int i = way_of(p->b[k], c);
        if (i >= 0)
            return &p->b[k]->e[i];
    }
    return NULL;
}

/* The entry to replace in a full place: the least worth. */
static entry *cheapest(const place *p, bool *in_second)
{
    entry *v = &p->b[0]->e[0];
    *in_second = false;
    for (unsigned k = 0; k < p->n; k++)
        for (int i = 0; i < WAYS; i++)
            if (value(&p->b[k]->e[i]) < value(v))
                v = &p->b[k]->e[i], *in_second = k >= 2;
    return v;
}

/* Whether the part in use is less than the budget. */
static bool can_grow(const sp_tt *tt)
{
    return atomic_load_explicit(&tt->used_mask, memory_order_acquire) < tt->mask;
}

/* Writes the entry of check c into e (its place locked), in the second pair or not; true when e was
 * empty. */
static bool put(const sp_tt *tt, entry *e, uint64_t c, const uint64_t h[2], const sp_tt_entry *in, bool in_second)
{
    if (e->check == c) {
        bool proven = e->pn == 0 || e->dn == 0;
        if (!proven) { /* a proof is final: never overwrite it with an estimate */
            e->pn = in->pn;
            e->dn = in->dn;
        }
        e->work_ext = pack(tt, h, work_of(e) > in->work ? work_of(e) : in->work, in_second);
        return false;
    }
    bool fresh = e->check == 0;
    *e = (entry){c, in->pn, in->dn, pack(tt, h, in->work, in_second)};
    return fresh;
}

/* The count of doublings begun and ended, once none is under way. */
static unsigned quiet_grows(sp_tt *tt)
{
    unsigned spins = 0, g;
    while ((g = atomic_load_explicit(&tt->grows, memory_order_acquire)) & 1)
        pause_a_while(&spins);
    return g;
}

/* Locks the buckets of a place in address order (as a doubling takes its two), so that no two
 * threads wait on each other. */
static void lock_place(const place *p)
{
    bucket *b[4];
    memcpy(b, p->b, sizeof b);
    for (unsigned i = 1; i < p->n; i++)
        for (unsigned j = i; j > 0 && b[j - 1] > b[j]; j--) {
            bucket *x = b[j];
            b[j] = b[j - 1];
            b[j - 1] = x;
        }
    for (unsigned i = 0; i < p->n; i++)
        lock(b[i]);
}

static void unlock_place(const place *p)
{
    for (unsigned i = 0; i < p->n; i++)
        unlock(p->b[i]);
}

void sp_tt_store(sp_tt *tt, const uint64_t h[2], const sp_tt_entry *in)
{
    uint64_t c = check_of(h);
    for (;;) {
        unsigned g = quiet_grows(tt);
        place p = place_of(tt, h, atomic_load_explicit(&tt->used_mask, memory_order_acquire));
        lock_place(&p);
        bool in_second;
        entry *e = slot_of(&p, c, &in_second);
        if (!e && can_grow(tt)) {
            unlock_place(&p); /* full: double the part in use rather than lose an entry */
            sp_tt_grow(tt);
            continue;
        }
        if (!e)
            e = cheapest(&p, &in_second);
        bool fresh = put(tt, e, c, h, in, in_second);
        unlock_place(&p);
        if (fresh)
            atomic_fetch_add_explicit(&tt->filled, 1, memory_order_relaxed);
        if (atomic_load_explicit(&tt->grows, memory_order_acquire) == g)
            return; /* no doubling overlapped: the entry lies where probes look */
    }
}

/* ---------------------------------------------------------------- snapshots */

#define IO_BLOCK ((uint64_t)1 << 20) /* buckets per call: 64 MiB */

int sp_tt_save(const sp_tt *tt, sp_tt_put put, void *arg)
{
    uint64_t used = atomic_load_explicit(&tt->used_mask, memory_order_acquire) + 1;
    const uint64_t head[4] = {tt->mask, tt->first_bits, used, atomic_load(&tt->filled)};
    if (put(arg, head, sizeof head))
        return -1;
    for (uint64_t i = 0; i < used; i += IO_BLOCK)
        if (put(arg, &tt->b[i], (used - i < IO_BLOCK ? used - i : IO_BLOCK) * sizeof(bucket)))
            return -1;
    return 0;
}

int sp_tt_load(sp_tt *tt, sp_tt_get get, void *arg)
{
    uint64_t head[4];
    if (get(arg, head, sizeof head))
        return -1;
    uint64_t first = (uint64_t)1 << tt->first_bits, used = head[2];
    if (head[0] != tt->mask || head[1] != tt->first_bits || used < first || used > tt->mask + 1 ||
        (used & (used - 1)) || atomic_load(&tt->used_mask) != first - 1 || atomic_load(&tt->filled) != 0)
        return -2;
    for (uint64_t i = 0; i < used; i += IO_BLOCK) {
        uint64_t n = used - i < IO_BLOCK ? used - i : IO_BLOCK;
        if (get(arg, &tt->b[i], n * sizeof(bucket))) {
            atomic_store(&tt->used_mask, used - 1); /* so that clear empties all it read */
            sp_tt_clear(tt);
            return -1;
        }
        for (uint64_t j = i; j < i + n; j++) /* while the block is in cache: no bucket is locked now */
            atomic_store_explicit(&tt->b[j].seq, 0, memory_order_relaxed);
    }
    atomic_store(&tt->filled, head[3]);
    atomic_store(&tt->present_from, used); /* as a doubling to this size leaves it */
    atomic_store(&tt->used_mask, used - 1);
    return 0;
}

void sp_tt_clear(sp_tt *tt)
{
    uint64_t used = atomic_load(&tt->used_mask) + 1, first = (uint64_t)1 << tt->first_bits;
    memset(tt->b, 0, used * sizeof(bucket));
    atomic_store(&tt->used_mask, first - 1);
    atomic_store(&tt->filled, 0);
    atomic_store(&tt->present_from, 0);
}

size_t sp_tt_bytes(const sp_tt *tt)
{
    return (tt->mask + 1) * sizeof(bucket);
}

size_t sp_tt_used_bytes(const sp_tt *tt)
{
    return (atomic_load_explicit(&tt->used_mask, memory_order_acquire) + 1) * sizeof(bucket);
}

uint64_t sp_tt_capacity(const sp_tt *tt)
{
    return (tt->mask + 1) * WAYS;
}

uint64_t sp_tt_filled(const sp_tt *tt)
{
    return atomic_load_explicit(&tt->filled, memory_order_relaxed);
}
