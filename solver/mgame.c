/* mgame.c: the table of misère games in simplest form (mgame.h): records and option lists in fixed
 * arrays, a lock-free hash index over option lists, and a lock-free memo of sums; inserts take one mutex.
 * The index and the memo double when half and three quarters full, from small, instead of taking
 * their budgets at once: their slots are hit at random, so a table sized for the budget has every
 * page touched long before it holds much (docs/performance.md). A smaller size keeps its addresses
 * until the table is freed, since a look-up may still be reading it (the index's gives its pages
 * back; the memo's is freed at once while the table has one user). */
#include "mgame.h"

#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xxhash.h>

#include "mem.h"

#define SMALL 64 /* option lists up to this long are built on the stack */

/* A game: its n options as bytes of the arena from off_hi << 32 | off, each the gap from the one
 * before (the first from -1) less one, in 7-bit groups, low first, the high bit set on all but the
 * last of each: sorted ids of a large table differ little, and take 2.45 bytes each instead of 4
 * (misère 0*22's 767 M options; docs/performance.md). */
typedef struct rec {
    uint32_t off, n;
    uint16_t birthday;
    uint8_t wins;
    uint8_t off_hi;
} rec;

typedef struct sum_slot {
    _Atomic uint64_t key; /* (g << 32 | h) with 0 < g <= h; 0: empty */
    _Atomic uint32_t val; /* the sum's id + 1; 0: being computed */
} sum_slot;

/* One size of the index: (upper 32 bits of the options' hash) << 32 | (id + 1); 0: empty. */
typedef struct index_gen {
    _Atomic uint64_t *slot;
    uint64_t mask;
    struct index_gen *older;
} index_gen;

/* One size of the sum memo. */
typedef struct memo_gen {
    sum_slot *slot;
    uint64_t mask;
    struct memo_gen *older;
    char pad[64];          /* the fields below change as it fills */
    atomic_size_t count;
    atomic_bool closed;    /* being copied into the next size: a put that finds it so goes there too */
} memo_gen;

struct sp_mg {
    rec *recs;
    size_t rec_cap;
    uint8_t *arena;
    size_t arena_cap; /* bytes */
    _Atomic(index_gen *) index;
    _Atomic(memo_gen *) memo;
    uint64_t index_max, memo_max; /* slots */
    pthread_mutex_t lock; /* held while a game is added (and the index grown) */
    atomic_size_t count, arena_top, gen_bytes;
    atomic_bool full;      /* no room for another game */
    atomic_bool memo_full; /* the memo's largest size is full, and it may not be emptied now */
    atomic_bool exclusive; /* one thread uses the table: a full memo is emptied instead */
    atomic_uint_fast64_t flushes;
    size_t bytes;
};

/* ---------------------------------------------------------------- records */

static const rec *rec_of(const sp_mg *t, sp_mg_id g)
{
    assert(g < atomic_load_explicit(&t->count, memory_order_relaxed)); /* an id of this table */
    return &t->recs[g];
}

bool sp_mg_wins(const sp_mg *t, sp_mg_id g)
{
    return rec_of(t, g)->wins;
}

/* The bytes of r's options in the arena. */
static const uint8_t *list_of(const sp_mg *t, const rec *r)
{
    return t->arena + ((uint64_t)r->off_hi << 32 | r->off);
}

void sp_mg_iter_init(const sp_mg *t, sp_mg_id g, sp_mg_iter *it)
{
    const rec *r = rec_of(t, g);
    *it = (sp_mg_iter){list_of(t, r), r->n, (sp_mg_id)-1};
}

bool sp_mg_iter_next(sp_mg_iter *it, sp_mg_id *id)
{
    if (it->left == 0)
        return false;
    it->left--;
    uint32_t gap = 0;
    for (unsigned shift = 0;; shift += 7) {
        uint8_t b = *it->p++;
        gap |= (uint32_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            break;
    }
    *id = it->last = it->last + 1 + gap;
    return true;
}

size_t sp_mg_noptions(const sp_mg *t, sp_mg_id g)
{
    return rec_of(t, g)->n;
}

size_t sp_mg_options(const sp_mg *t, sp_mg_id g, sp_mg_id *out)
{
    sp_mg_iter it;
    size_t n = 0;
    sp_mg_iter_init(t, g, &it);
    while (sp_mg_iter_next(&it, &out[n]))
        n++;
    return n;
}

/* The bytes of the sorted ids o[0 .. n) as a record keeps them (rec); out has room for 5n. */
static size_t encode(const sp_mg_id *o, size_t n, uint8_t *out)
{
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t gap = o[i] - (i ? o[i - 1] : (sp_mg_id)-1) - 1;
        for (; gap >= 0x80; gap >>= 7)
            out[at++] = (uint8_t)(gap | 0x80);
        out[at++] = (uint8_t)gap;
    }
    return at;
}

/* How many bytes the n ids from p take. */
static size_t encoded_bytes(const uint8_t *p, uint32_t n)
{
    size_t at = 0;
    for (; n > 0; at++)
        n -= !(p[at] & 0x80);
    return at;
}

unsigned sp_mg_birthday(const sp_mg *t, sp_mg_id g)
{
    return rec_of(t, g)->birthday;
}

/* ---------------------------------------------------------------- creation */

#define FIRST_SLOTS 4096

static uint64_t pow2_within(size_t bytes, size_t elem)
{
    uint64_t n = 1024;
    while (n * 2 * elem <= bytes)
        n *= 2;
    return n;
}

static uint64_t first_size(uint64_t max)
{
    return max < FIRST_SLOTS ? max : FIRST_SLOTS;
}

/* Zeroed slots for a new size of the index or memo, counted in gen_bytes. */
static void *slots_new(sp_mg *t, uint64_t nslots, size_t size)
{
    void *p = sp_mem_table(nslots * size);
    if (p)
        atomic_fetch_add(&t->gen_bytes, nslots * size);
    return p;
}

static index_gen *index_new(sp_mg *t, uint64_t nslots)
{
    index_gen *g = calloc(1, sizeof *g);
    if (g && (g->mask = nslots - 1, !(g->slot = slots_new(t, nslots, sizeof *g->slot))))
        free(g), g = NULL;
    return g;
}

static memo_gen *memo_new(sp_mg *t, uint64_t nslots)
{
    memo_gen *g = calloc(1, sizeof *g);
    if (g && (g->mask = nslots - 1, !(g->slot = slots_new(t, nslots, sizeof *g->slot))))
        free(g), g = NULL;
    return g;
}

/* Gives the pages of a replaced size of the index back to the system, keeping the addresses: a
 * look-up still reading it then reads zeros, "not there", and searches again under the lock; a slot
 * is one atomic word and nothing is added to a replaced size (adding and growing hold the lock), so
 * it never reads a wrong game. Not for the memo: a put that has not yet seen the new size may still
 * claim a zeroed slot there, and a reader holding that slot's old key would take the new value. */
static void release_slots(sp_mg *t, void *slots, size_t bytes)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), a = ((uintptr_t)slots + page - 1) & ~(page - 1);
    uintptr_t b = ((uintptr_t)slots + bytes) & ~(page - 1);
    if (b > a && madvise((void *)a, b - a, MADV_DONTNEED) == 0)
        atomic_fetch_sub(&t->gen_bytes, b - a);
}

/* Frees every size of the memo from g on. */
static void memo_free(sp_mg *t, memo_gen *g)
{
    for (memo_gen *older; g; g = older) {
        older = g->older;
        atomic_fetch_sub(&t->gen_bytes, (g->mask + 1) * sizeof *g->slot);
        sp_mem_table_free(g->slot, (g->mask + 1) * sizeof *g->slot), free(g);
    }
}

/* Frees everything but the lock. */
static void release(sp_mg *t)
{
    for (index_gen *g = atomic_load(&t->index), *older; g; g = older) {
        older = g->older;
        sp_mem_table_free(g->slot, (g->mask + 1) * sizeof *g->slot), free(g);
    }
    memo_free(t, atomic_load(&t->memo));
    sp_mem_table_free(t->recs, t->rec_cap * sizeof *t->recs), sp_mem_table_free(t->arena, t->arena_cap), free(t);
}

static sp_mg_id intern(sp_mg *t, const sp_mg_id *o, size_t n);

sp_mg *sp_mg_new(size_t bytes)
{
    sp_mg *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    /* shares from what Sprouts lands were measured to need (docs/performance.md): an eighth for the
     * index (kept at most half full till its largest size, which fills to three quarters as the
     * memo's sizes do; a smaller size gives its pages back once replaced), a quarter for the sum
     * memo (half of the quarter for the largest size and the rest for the smaller ones, which keep
     * their pages while the table has several users: see release_slots), a record per largest index
     * slot but a quarter, and the rest (about half) for the option lists */
    t->index_max = pow2_within(bytes / 8, sizeof(uint64_t));
    t->memo_max = pow2_within(bytes / 8, sizeof(sum_slot));
    t->rec_cap = t->index_max / 4 * 3;
    size_t fixed = t->index_max * sizeof(uint64_t) + 2 * t->memo_max * sizeof(sum_slot) +
                   t->rec_cap * sizeof *t->recs;
    t->arena_cap = bytes > fixed ? bytes - fixed : 0;
    if (t->arena_cap < 16384)
        t->arena_cap = 16384;
    atomic_init(&t->index, index_new(t, first_size(t->index_max)));
    atomic_init(&t->memo, memo_new(t, first_size(t->memo_max)));
    t->recs = sp_mem_table(t->rec_cap * sizeof *t->recs);
    t->arena = sp_mem_table(t->arena_cap);
    t->bytes = fixed + t->arena_cap;
    if (!atomic_load(&t->index) || !atomic_load(&t->memo) || !t->recs || !t->arena ||
        pthread_mutex_init(&t->lock, NULL)) {
        release(t);
        return NULL;
    }
    intern(t, NULL, 0); /* the game 0 gets id 0 */
    return t;
}

void sp_mg_free(sp_mg *t)
{
    if (!t)
        return;
    pthread_mutex_destroy(&t->lock);
    release(t);
}

/* ---------------------------------------------------------------- hash-consing */

/* A list of options as intern() looks it up: n ids, their bytes (rec) and the hash of those. */
typedef struct list {
    size_t n, len;
    const uint8_t *bytes;
    uint64_t h;
} list;

static uint64_t bytes_hash(const uint8_t *b, size_t len)
{
    return XXH3_64bits(b, len);
}

/* Whether the game r has the options l. Both are n ids, each encoded whole, so bytes equal up to
 * l->len end r's as well: compared byte by byte, never past r's end. */
static bool same_list(const sp_mg *t, const rec *r, const list *l)
{
    if (r->n != l->n)
        return false;
    const uint8_t *p = list_of(t, r);
    for (size_t i = 0; i < l->len; i++)
        if (p[i] != l->bytes[i])
            return false;
    return true;
}

/* The id of the game with exactly these options in index g, or SP_MG_NONE; *slot is where the probe
 * ended. */
static sp_mg_id lookup(const sp_mg *t, const index_gen *g, const list *l, uint64_t *slot)
{
    uint64_t tag = l->h >> 32;
    for (uint64_t i = l->h & g->mask;; i = (i + 1) & g->mask) {
        uint64_t v = atomic_load_explicit(&g->slot[i], memory_order_acquire);
        *slot = i;
        if (v == 0)
            return SP_MG_NONE;
        sp_mg_id id = (sp_mg_id)(v & 0xffffffffu) - 1;
        if (v >> 32 == tag && same_list(t, rec_of(t, id), l))
            return id;
    }
}

/* Adds the game with options o (sorted, no repeats, none reducible); the caller holds the lock and
 * has seen that it is absent from the index g, ending its probe at the empty slot `slot`. */
static sp_mg_id add(sp_mg *t, index_gen *g, const sp_mg_id *o, const list *l, uint64_t slot)
{
    size_t id = atomic_load_explicit(&t->count, memory_order_relaxed), n = l->n;
    size_t top = atomic_load_explicit(&t->arena_top, memory_order_relaxed);
    if (id >= t->rec_cap || top + l->len > t->arena_cap || top >> 40 || n > UINT32_MAX || id >= UINT32_MAX - 1) {
        atomic_store(&t->full, true);
        return SP_MG_NONE;
    }
    rec *r = &t->recs[id];
    bool wins = n == 0; /* misère: no move is a win */
    unsigned birthday = 0;
    for (size_t i = 0; i < n; i++) {
        const rec *c = rec_of(t, o[i]);
        wins |= !c->wins;
        if (c->birthday + 1u > birthday)
            birthday = c->birthday + 1u;
    }
    if (l->len)
        memcpy(t->arena + top, l->bytes, l->len);
    *r = (rec){(uint32_t)top, (uint32_t)n, (uint16_t)(birthday > UINT16_MAX ? UINT16_MAX : birthday), wins,
               (uint8_t)(top >> 32)};
    atomic_store_explicit(&t->arena_top, top + l->len, memory_order_relaxed);
    atomic_store_explicit(&t->count, id + 1, memory_order_relaxed);
    /* publish last: a reader that finds the slot also sees the record and its options */
    atomic_store_explicit(&g->slot[slot], (l->h >> 32) << 32 | (id + 1), memory_order_release);
    return (sp_mg_id)id;
}

/* Replaces the index by one twice its size holding every game (the caller holds the lock, so no
 * game is added meanwhile); false when it may not grow. */
static bool index_grow(sp_mg *t, index_gen *g)
{
    uint64_t n = 2 * (g->mask + 1);
    index_gen *ng = n <= t->index_max ? index_new(t, n) : NULL;
    if (!ng)
        return false;
    size_t games = atomic_load_explicit(&t->count, memory_order_relaxed);
    for (size_t id = 0; id < games; id++) {
        const rec *r = rec_of(t, (sp_mg_id)id);
        const uint8_t *p = list_of(t, r);
        uint64_t h = bytes_hash(p, encoded_bytes(p, r->n)), i = h & ng->mask;
        while (atomic_load_explicit(&ng->slot[i], memory_order_relaxed))
            i = (i + 1) & ng->mask;
        atomic_store_explicit(&ng->slot[i], (h >> 32) << 32 | (id + 1), memory_order_relaxed);
    }
    ng->older = g;
    atomic_store_explicit(&t->index, ng, memory_order_release);
    release_slots(t, g->slot, (g->mask + 1) * sizeof *g->slot);
    return true;
}

/* intern() of the list l (of the ids o): the id it has, or a new one. */
static sp_mg_id intern_list(sp_mg *t, const sp_mg_id *o, const list *l)
{
    uint64_t slot;
    sp_mg_id id = lookup(t, atomic_load_explicit(&t->index, memory_order_acquire), l, &slot);
    if (id != SP_MG_NONE || atomic_load_explicit(&t->full, memory_order_relaxed))
        return id;
    pthread_mutex_lock(&t->lock);
    index_gen *g = atomic_load_explicit(&t->index, memory_order_relaxed);
    id = lookup(t, g, l, &slot); /* another thread may have added it meanwhile */
    uint64_t size = g->mask + 1, want = atomic_load_explicit(&t->count, memory_order_relaxed) + 1;
    if (id == SP_MG_NONE && size < t->index_max && 2 * want > size) {
        if (index_grow(t, g)) {
            g = atomic_load_explicit(&t->index, memory_order_relaxed);
            lookup(t, g, l, &slot); /* where it goes in the new size */
        } else {
            atomic_store(&t->full, true);
        }
    }
    if (id == SP_MG_NONE && !atomic_load_explicit(&t->full, memory_order_relaxed))
        id = add(t, g, o, l, slot);
    pthread_mutex_unlock(&t->lock);
    return id;
}

static sp_mg_id intern(sp_mg *t, const sp_mg_id *o, size_t n)
{
    uint8_t small[5 * SMALL], *b = n <= SMALL ? small : malloc(5 * n);
    if (!b)
        return SP_MG_NONE;
    list l = {n, 0, b, 0};
    l.len = encode(o, n, b);
    l.h = bytes_hash(b, l.len);
    sp_mg_id id = intern_list(t, o, &l);
    if (b != small)
        free(b);
    return id;
}

/* ---------------------------------------------------------------- simplification */

/* Sorts ids ascending: insertion sort for short lists, else an LSD radix sort by bytes that skips
 * the bytes all ids share (the high ones, mostly). A typed sort, since qsort's callbacks were a fifth
 * of misère play's time (docs/performance.md). */
static void insertion_sort(sp_mg_id *v, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        sp_mg_id x = v[i];
        size_t j = i;
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

static void sort_ids(sp_mg_id *v, size_t n)
{
    sp_mg_id small[4 * SMALL], *tmp = n <= 32 ? NULL : n <= 4 * SMALL ? small : malloc(n * sizeof *tmp);
    if (!tmp) { /* short, or no room for the buffer */
        insertion_sort(v, n);
        return;
    }
    sp_mg_id *a = v, *b = tmp;
    for (unsigned shift = 0; shift < 32; shift += 8) {
        size_t count[257] = {0};
        for (size_t i = 0; i < n; i++)
            count[(a[i] >> shift & 0xff) + 1]++;
        if (count[(a[0] >> shift & 0xff) + 1] == n)
            continue; /* every id has this byte: the order stands */
        for (unsigned d = 0; d < 256; d++)
            count[d + 1] += count[d];
        for (size_t i = 0; i < n; i++)
            b[count[a[i] >> shift & 0xff]++] = a[i];
        sp_mg_id *x = a;
        a = b, b = x;
    }
    if (a != v)
        memcpy(v, a, n * sizeof *v);
    if (tmp != small)
        free(tmp);
}

static size_t sort_unique(sp_mg_id *v, size_t n)
{
    sort_ids(v, n);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || v[i] != v[m - 1])
            v[m++] = v[i];
    return m;
}

/* Whether j is an option of g (options are sorted). */
static bool has_option(const sp_mg *t, sp_mg_id g, sp_mg_id j)
{
    sp_mg_iter it;
    sp_mg_id x;
    sp_mg_iter_init(t, g, &it);
    while (sp_mg_iter_next(&it, &x))
        if (x >= j)
            return x == j;
    return false;
}

/* Whether the sorted options o[0 .. n) are those of J plus options having J as an option: (a) and
 * (b) of the rule below. Walks both sorted lists at once and stops at the first option that is
 * neither. */
static bool splits_around(const sp_mg *t, const sp_mg_id *o, size_t n, sp_mg_id j)
{
    sp_mg_iter it;
    sp_mg_id oj;
    sp_mg_iter_init(t, j, &it);
    bool more = sp_mg_iter_next(&it, &oj); /* oj: the next option of J not yet met in O */
    for (size_t i = 0; i < n; i++) {
        if (more && oj < o[i])
            return false; /* an option of J that is not in O */
        if (more && oj == o[i])
            more = sp_mg_iter_next(&it, &oj);
        else if (!has_option(t, o[i], j))
            return false;
    }
    return !more;
}

/* The game J that G = {o} equals by the rule below, or SP_MG_NONE.
 *
 * Rule: let O be G's options and J an option of an option of G such that
 *   (a) every option of J is in O,
 *   (b) every option in O that is not an option of J has J as an option,
 *   (c) if J = 0, some option in O is a misère P-position (the player to move there loses).
 * Then G = J in misère play. Proof, for every X by induction on X, that o(G+X) = o(J+X):
 * - J+X won by a move to J'+X or to J+X': G+X has the move to J'+X (J' in O by (a)), and G+X' has
 *   the outcome of J+X' by induction; if J+X has no move at all, J = X = 0 and G+X = G is won by (c).
 * - G+X won by a move to G+X' (induction), or to G'+X with G' an option of J (J+X has it too), or to
 *   E+X with E in O not an option of J: E+X is a P-position and has J+X as an option (by (b)), so
 *   J+X is an N-position. G+X always has a move (O is not empty: J is an option of an option).
 * This is Conway's misère simplification (On Numbers and Games, ch. 12).
 * Search: J is an option of every option E of greatest birthday. Options of J are born before J,
 * options having J after it; were such an E an option of J, every option would be born before J,
 * none would have J as an option, and G would have J's options: G would be J, born two days after
 * itself. So the candidates are the options of one such E, each checked by splits_around(). The
 * simplest form of a game is unique (Conway), so at most one candidate holds among simplest forms. */
static sp_mg_id reduce(const sp_mg *t, const sp_mg_id *o, size_t n)
{
    if (n == 0)
        return SP_MG_NONE;
    size_t top = 0;
    bool some_p = false;
    for (size_t i = 0; i < n; i++) {
        top = rec_of(t, o[i])->birthday > rec_of(t, o[top])->birthday ? i : top;
        some_p |= !rec_of(t, o[i])->wins;
    }
    sp_mg_iter it;
    sp_mg_id j;
    sp_mg_iter_init(t, o[top], &it);
    while (sp_mg_iter_next(&it, &j))
        if ((j != SP_MG_ZERO || some_p) && splits_around(t, o, n, j))
            return j;
    return SP_MG_NONE;
}

sp_mg_id sp_mg_canon(sp_mg *t, sp_mg_id *opts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (opts[i] == SP_MG_NONE)
            return SP_MG_NONE;
    n = sort_unique(opts, n);
    sp_mg_id j = reduce(t, opts, n);
    return j != SP_MG_NONE ? j : intern(t, opts, n);
}

/* ---------------------------------------------------------------- sums */

static uint64_t mix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    return k ^ (k >> 33);
}

static sp_mg_id memo_get(const sp_mg *t, uint64_t key)
{
    const memo_gen *g = atomic_load_explicit(&t->memo, memory_order_acquire);
    for (uint64_t i = mix(key) & g->mask;; i = (i + 1) & g->mask) {
        uint64_t k = atomic_load_explicit(&g->slot[i].key, memory_order_acquire);
        if (k == 0)
            return SP_MG_NONE;
        if (k == key) /* 0 while another thread computes it: then compute it here too */
            return (sp_mg_id)atomic_load_explicit(&g->slot[i].val, memory_order_acquire) - 1;
    }
}

/* Waits until g is no longer the memo (or the memo is full): growing takes milliseconds. */
static void memo_wait_moved(const sp_mg *t, const memo_gen *g)
{
    while (atomic_load_explicit(&t->memo, memory_order_acquire) == g && !atomic_load(&t->memo_full))
        sched_yield();
}

/* Empties the memo, back to its first size (the caller is the table's one user: no look-up may be
 * reading a size freed here). Sums forgotten are computed again from their options, whose games
 * stay: a sum costs the product of its parts' subgames at worst, and only those not memoised again. */
static bool memo_flush(sp_mg *t)
{
    memo_gen *fresh = memo_new(t, first_size(t->memo_max));
    if (!fresh)
        return false;
    memo_free(t, atomic_load(&t->memo));
    atomic_store(&t->memo, fresh);
    atomic_store(&t->memo_full, false);
    atomic_fetch_add(&t->flushes, 1);
    return true;
}

void sp_mg_set_exclusive(sp_mg *t, bool one_user)
{
    atomic_store(&t->exclusive, one_user);
    if (!one_user)
        return;
    memo_gen *g = atomic_load(&t->memo);
    if (atomic_load(&t->memo_full))
        memo_flush(t);
    else if (g->older) { /* kept for look-ups on other threads, which no longer run */
        memo_free(t, g->older);
        g->older = NULL;
    }
}

bool sp_mg_wants_one_user(const sp_mg *t)
{
    return sp_mg_memo_full(t) || atomic_load_explicit(&t->memo, memory_order_acquire)->older;
}

/* Replaces the half-full memo g by one twice its size holding all it holds (or waits for the thread
 * that does), or empties it when it may grow no more and the table has one user; false when it is
 * full. A put racing the copy finds g closed and puts again into
 * the new memo: the fences make sure each such put is seen by the copy or by its own check. A slot
 * still without its value is left to its putter. */
static bool memo_grow(sp_mg *t, memo_gen *g)
{
    uint64_t n = 2 * (g->mask + 1);
    if (n > t->memo_max && atomic_load(&t->exclusive))
        return memo_flush(t);
    bool open = false;
    if (!atomic_compare_exchange_strong(&g->closed, &open, true)) {
        memo_wait_moved(t, g);
        return !atomic_load(&t->memo_full);
    }
    memo_gen *ng = n <= t->memo_max ? memo_new(t, n) : NULL;
    if (!ng) {
        atomic_store(&t->memo_full, true);
        return false;
    }
    atomic_thread_fence(memory_order_seq_cst);
    size_t count = 0;
    for (uint64_t i = 0; i <= g->mask; i++) {
        uint64_t key = atomic_load_explicit(&g->slot[i].key, memory_order_acquire);
        uint32_t val = atomic_load_explicit(&g->slot[i].val, memory_order_acquire);
        if (!key || !val)
            continue;
        uint64_t j = mix(key) & ng->mask;
        while (atomic_load_explicit(&ng->slot[j].key, memory_order_relaxed))
            j = (j + 1) & ng->mask;
        atomic_store_explicit(&ng->slot[j].val, val, memory_order_relaxed);
        atomic_store_explicit(&ng->slot[j].key, key, memory_order_relaxed);
        count++;
    }
    atomic_store_explicit(&ng->count, count, memory_order_relaxed);
    bool one_user = atomic_load(&t->exclusive);
    ng->older = one_user ? NULL : g;
    atomic_store_explicit(&t->memo, ng, memory_order_release);
    if (one_user)
        memo_free(t, g); /* no look-up can be reading it */
    return true;
}

/* Puts key -> v into g: 1 done, 0 when another thread got there first (with the same answer). */
static int memo_insert(memo_gen *g, uint64_t key, sp_mg_id v)
{
    for (uint64_t i = mix(key) & g->mask;; i = (i + 1) & g->mask) {
        uint64_t expect = 0;
        if (atomic_compare_exchange_strong(&g->slot[i].key, &expect, key)) {
            atomic_store_explicit(&g->slot[i].val, v + 1, memory_order_release);
            atomic_fetch_add_explicit(&g->count, 1, memory_order_relaxed);
            return 1;
        }
        if (expect == key)
            return 0;
    }
}

static void memo_put(sp_mg *t, uint64_t key, sp_mg_id v)
{
    for (;;) {
        memo_gen *g = atomic_load_explicit(&t->memo, memory_order_acquire);
        uint64_t size = g->mask + 1, count = atomic_load_explicit(&g->count, memory_order_relaxed) + 1;
        /* every size fills to three quarters (probes at 3/4: about 8.5 per miss, most in the same
         * cache line): at a half, the memo was the largest part of the games' memory */
        if (4 * count > 3 * size) {
            if (!memo_grow(t, g))
                return;
            continue;
        }
        if (!memo_insert(g, key, v))
            return;
        atomic_thread_fence(memory_order_seq_cst);
        if (!atomic_load_explicit(&g->closed, memory_order_relaxed))
            return;
        memo_wait_moved(t, g); /* the copy may have missed it */
        if (atomic_load(&t->memo_full))
            return;
    }
}

/* g + h by the definition: its options are g' + h and g + h'. */
static sp_mg_id sum_by_options(sp_mg *t, sp_mg_id g, sp_mg_id h)
{
    size_t n = sp_mg_noptions(t, g) + sp_mg_noptions(t, h), at = 0;
    sp_mg_id small[SMALL], *o = n <= SMALL ? small : malloc(n * sizeof *o), x;
    if (!o)
        return SP_MG_NONE;
    sp_mg_id id = SP_MG_ZERO;
    sp_mg_iter it; /* the lists stay where they are while sums add games */
    for (sp_mg_iter_init(t, g, &it); id != SP_MG_NONE && sp_mg_iter_next(&it, &x);)
        id = o[at++] = sp_mg_sum(t, x, h);
    for (sp_mg_iter_init(t, h, &it); id != SP_MG_NONE && sp_mg_iter_next(&it, &x);)
        id = o[at++] = sp_mg_sum(t, g, x);
    if (id != SP_MG_NONE)
        id = sp_mg_canon(t, o, n);
    if (o != small)
        free(o);
    return id;
}

sp_mg_id sp_mg_sum(sp_mg *t, sp_mg_id g, sp_mg_id h)
{
    if (g == SP_MG_NONE || h == SP_MG_NONE)
        return SP_MG_NONE;
    if (g == SP_MG_ZERO || h == SP_MG_ZERO)
        return g == SP_MG_ZERO ? h : g;
    if (g > h) {
        sp_mg_id x = g;
        g = h;
        h = x;
    }
    uint64_t key = (uint64_t)g << 32 | h;
    sp_mg_id id = memo_get(t, key);
    if (id != SP_MG_NONE)
        return id;
    if (sp_mg_full(t))
        return SP_MG_NONE; /* without the memo a sum could cost exponential time: refuse it */
    id = sum_by_options(t, g, h);
    if (id != SP_MG_NONE)
        memo_put(t, key, id);
    return id;
}

/* ---------------------------------------------------------------- statistics */

uint64_t sp_mg_count(const sp_mg *t)
{
    return atomic_load_explicit(&t->count, memory_order_relaxed);
}

uint64_t sp_mg_sums(const sp_mg *t)
{
    return atomic_load_explicit(&atomic_load(&t->memo)->count, memory_order_relaxed);
}

size_t sp_mg_bytes(const sp_mg *t)
{
    return t->bytes;
}

size_t sp_mg_used_bytes(const sp_mg *t)
{
    /* records and options as stored, and every size of the index and of the memo so far */
    return sp_mg_count(t) * sizeof(rec) + atomic_load_explicit(&t->arena_top, memory_order_relaxed) +
           atomic_load(&t->gen_bytes);
}

uint64_t sp_mg_flushes(const sp_mg *t)
{
    return atomic_load_explicit(&t->flushes, memory_order_relaxed);
}

bool sp_mg_memo_full(const sp_mg *t)
{
    return atomic_load_explicit(&t->memo_full, memory_order_relaxed);
}

bool sp_mg_full(const sp_mg *t)
{
    return atomic_load_explicit(&t->full, memory_order_relaxed) ||
           atomic_load_explicit(&t->memo_full, memory_order_relaxed);
}
