/* mgame.c: the table of misère games in simplest form (mgame.h): records and option lists in fixed
 * arrays, a lock-free hash index over option lists, and a lock-free memo of sums; inserts take one mutex. */
#include "mgame.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define SMALL 64 /* option lists up to this long are built on the stack */

typedef struct rec {
    uint32_t off, n; /* options: arena[off .. off + n) */
    uint16_t birthday;
    uint8_t wins;
} rec;

typedef struct sum_slot {
    _Atomic uint64_t key; /* (g << 32 | h) with 0 < g <= h; 0: empty */
    _Atomic uint32_t val; /* the sum's id + 1; 0: being computed */
} sum_slot;

struct sp_mg {
    rec *recs;
    size_t rec_cap;
    sp_mg_id *arena;
    size_t arena_cap;
    _Atomic uint64_t *index; /* (upper 32 bits of the options' hash) << 32 | (id + 1); 0: empty */
    uint64_t index_mask;
    sum_slot *sums;
    uint64_t sums_mask;
    pthread_mutex_t lock; /* held while a game is added */
    atomic_size_t count, arena_top, nsums;
    atomic_bool full;
    size_t bytes;
};

/* ---------------------------------------------------------------- records */

static const rec *rec_of(const sp_mg *t, sp_mg_id g)
{
    return &t->recs[g];
}

bool sp_mg_wins(const sp_mg *t, sp_mg_id g)
{
    return rec_of(t, g)->wins;
}

size_t sp_mg_options(const sp_mg *t, sp_mg_id g, const sp_mg_id **opts)
{
    const rec *r = rec_of(t, g);
    *opts = t->arena + r->off;
    return r->n;
}

unsigned sp_mg_birthday(const sp_mg *t, sp_mg_id g)
{
    return rec_of(t, g)->birthday;
}

/* ---------------------------------------------------------------- creation */

static uint64_t pow2_within(size_t bytes, size_t elem)
{
    uint64_t n = 1024;
    while (n * 2 * elem <= bytes)
        n *= 2;
    return n;
}

static sp_mg_id intern(sp_mg *t, const sp_mg_id *o, size_t n);

sp_mg *sp_mg_new(size_t bytes)
{
    sp_mg *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    /* measured on Sprouts lands: about one sum per game and 16 options per game, so an eighth for the
     * index (kept at most half full), a quarter for the sum memo (likewise), a record per two index
     * slots, and the rest (about half) for the option lists */
    uint64_t islots = pow2_within(bytes / 8, sizeof *t->index), sslots = pow2_within(bytes / 4, sizeof *t->sums);
    t->rec_cap = islots / 2;
    size_t fixed = islots * sizeof *t->index + sslots * sizeof *t->sums + t->rec_cap * sizeof *t->recs;
    t->arena_cap = (bytes > fixed ? bytes - fixed : 0) / sizeof *t->arena;
    if (t->arena_cap < 4096)
        t->arena_cap = 4096;
    t->index = calloc(islots, sizeof *t->index);
    t->sums = calloc(sslots, sizeof *t->sums);
    t->recs = calloc(t->rec_cap, sizeof *t->recs);
    t->arena = calloc(t->arena_cap, sizeof *t->arena);
    t->index_mask = islots - 1;
    t->sums_mask = sslots - 1;
    t->bytes = fixed + t->arena_cap * sizeof *t->arena;
    if (!t->index || !t->sums || !t->recs || !t->arena || pthread_mutex_init(&t->lock, NULL)) {
        free(t->index), free(t->sums), free(t->recs), free(t->arena), free(t);
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
    free(t->index), free(t->sums), free(t->recs), free(t->arena), free(t);
}

/* ---------------------------------------------------------------- hash-consing */

static uint64_t list_hash(const sp_mg_id *o, size_t n)
{
    return XXH3_64bits(o, n * sizeof *o);
}

/* The id of the game with exactly these options, or SP_MG_NONE; *slot is where the probe ended. */
static sp_mg_id lookup(const sp_mg *t, const sp_mg_id *o, size_t n, uint64_t h, uint64_t *slot)
{
    uint64_t tag = h >> 32;
    for (uint64_t i = h & t->index_mask;; i = (i + 1) & t->index_mask) {
        uint64_t v = atomic_load_explicit(&t->index[i], memory_order_acquire);
        *slot = i;
        if (v == 0)
            return SP_MG_NONE;
        sp_mg_id id = (sp_mg_id)(v & 0xffffffffu) - 1;
        const rec *r = rec_of(t, id);
        if (v >> 32 == tag && r->n == n && !memcmp(t->arena + r->off, o, n * sizeof *o))
            return id;
    }
}

/* Adds the game with options o (sorted, no repeats, none reducible); the caller holds the lock and
 * has seen that it is absent, ending its probe at the empty slot `slot`. */
static sp_mg_id add(sp_mg *t, const sp_mg_id *o, size_t n, uint64_t h, uint64_t slot)
{
    size_t id = atomic_load_explicit(&t->count, memory_order_relaxed);
    size_t top = atomic_load_explicit(&t->arena_top, memory_order_relaxed);
    if (id >= t->rec_cap || top + n > t->arena_cap || id >= UINT32_MAX - 1) {
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
    if (n)
        memcpy(t->arena + top, o, n * sizeof *o);
    *r = (rec){(uint32_t)top, (uint32_t)n, (uint16_t)(birthday > UINT16_MAX ? UINT16_MAX : birthday), wins};
    atomic_store_explicit(&t->arena_top, top + n, memory_order_relaxed);
    atomic_store_explicit(&t->count, id + 1, memory_order_relaxed);
    /* publish last: a reader that finds the slot also sees the record and its options */
    atomic_store_explicit(&t->index[slot], (h >> 32) << 32 | (id + 1), memory_order_release);
    return (sp_mg_id)id;
}

static sp_mg_id intern(sp_mg *t, const sp_mg_id *o, size_t n)
{
    uint64_t h = list_hash(o, n), slot;
    sp_mg_id id = lookup(t, o, n, h, &slot);
    if (id != SP_MG_NONE || atomic_load_explicit(&t->full, memory_order_relaxed))
        return id;
    pthread_mutex_lock(&t->lock);
    id = lookup(t, o, n, h, &slot); /* another thread may have added it meanwhile */
    if (id == SP_MG_NONE) {
        if (2 * (atomic_load_explicit(&t->count, memory_order_relaxed) + 1) > t->index_mask + 1)
            atomic_store(&t->full, true);
        else
            id = add(t, o, n, h, slot);
    }
    pthread_mutex_unlock(&t->lock);
    return id;
}

/* ---------------------------------------------------------------- simplification */

static int cmp_id(const void *a, const void *b)
{
    sp_mg_id x = *(const sp_mg_id *)a, y = *(const sp_mg_id *)b;
    return x < y ? -1 : x > y;
}

static size_t sort_unique(sp_mg_id *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_id);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || v[i] != v[m - 1])
            v[m++] = v[i];
    return m;
}

/* Whether the sorted list a is contained in the sorted list b. */
static bool subset(const sp_mg_id *a, size_t na, const sp_mg_id *b, size_t nb)
{
    size_t j = 0;
    for (size_t i = 0; i < na; i++) {
        while (j < nb && b[j] < a[i])
            j++;
        if (j == nb || b[j] != a[i])
            return false;
    }
    return true;
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
 * This is Conway's misère simplification (On Numbers and Games, ch. 12). Search: O is exactly
 * options(J) plus the options having J as an option, two disjoint sets (J's options are born before
 * J, options having J after), so (a) and (b) hold iff (a) and |options(J)| + #{E in O : J in E} = |O|. */
static sp_mg_id reduce(const sp_mg *t, const sp_mg_id *o, size_t n)
{
    size_t m = 0;
    bool some_p = false;
    for (size_t i = 0; i < n; i++) {
        m += rec_of(t, o[i])->n;
        some_p |= !rec_of(t, o[i])->wins;
    }
    if (m == 0)
        return SP_MG_NONE;
    sp_mg_id small[4 * SMALL], *c = m <= 4 * SMALL ? small : malloc(m * sizeof *c);
    if (!c)
        return SP_MG_NONE; /* no reduction found is always a safe answer */
    m = 0;
    for (size_t i = 0; i < n; i++) {
        const rec *r = rec_of(t, o[i]);
        memcpy(c + m, t->arena + r->off, r->n * sizeof *c);
        m += r->n;
    }
    qsort(c, m, sizeof *c, cmp_id);
    sp_mg_id found = SP_MG_NONE;
    for (size_t i = 0, j; i < m && found == SP_MG_NONE; i = j) {
        for (j = i; j < m && c[j] == c[i]; j++)
            ;
        const rec *r = rec_of(t, c[i]);
        if (r->n + (j - i) == n && (c[i] != SP_MG_ZERO || some_p) && subset(t->arena + r->off, r->n, o, n))
            found = c[i];
    }
    if (c != small)
        free(c);
    return found;
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
    for (uint64_t i = mix(key) & t->sums_mask;; i = (i + 1) & t->sums_mask) {
        uint64_t k = atomic_load_explicit(&t->sums[i].key, memory_order_acquire);
        if (k == 0)
            return SP_MG_NONE;
        if (k == key) /* 0 while another thread computes it: then compute it here too */
            return (sp_mg_id)atomic_load_explicit(&t->sums[i].val, memory_order_acquire) - 1;
    }
}

static void memo_put(sp_mg *t, uint64_t key, sp_mg_id v)
{
    if (2 * (atomic_load_explicit(&t->nsums, memory_order_relaxed) + 1) > t->sums_mask + 1) {
        atomic_store(&t->full, true);
        return;
    }
    for (uint64_t i = mix(key) & t->sums_mask;; i = (i + 1) & t->sums_mask) {
        uint64_t expect = 0;
        if (atomic_compare_exchange_strong(&t->sums[i].key, &expect, key)) {
            atomic_store_explicit(&t->sums[i].val, v + 1, memory_order_release);
            atomic_fetch_add_explicit(&t->nsums, 1, memory_order_relaxed);
            return;
        }
        if (expect == key)
            return; /* another thread got there first (with the same answer) */
    }
}

/* g + h by the definition: its options are g' + h and g + h'. */
static sp_mg_id sum_by_options(sp_mg *t, sp_mg_id g, sp_mg_id h)
{
    const rec *rg = rec_of(t, g), *rh = rec_of(t, h);
    size_t n = (size_t)rg->n + rh->n;
    sp_mg_id small[SMALL], *o = n <= SMALL ? small : malloc(n * sizeof *o);
    if (!o)
        return SP_MG_NONE;
    sp_mg_id id = SP_MG_ZERO;
    for (uint32_t i = 0; i < rg->n && id != SP_MG_NONE; i++)
        id = o[i] = sp_mg_sum(t, t->arena[rg->off + i], h);
    for (uint32_t i = 0; i < rh->n && id != SP_MG_NONE; i++)
        id = o[rg->n + i] = sp_mg_sum(t, g, t->arena[rh->off + i]);
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
    if (atomic_load_explicit(&t->full, memory_order_relaxed))
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
    return atomic_load_explicit(&t->nsums, memory_order_relaxed);
}

size_t sp_mg_bytes(const sp_mg *t)
{
    return t->bytes;
}

size_t sp_mg_used_bytes(const sp_mg *t)
{
    /* records and options as stored, index and memo slots at their load factor of one half */
    return sp_mg_count(t) * (sizeof(rec) + 2 * sizeof *t->index) +
           atomic_load_explicit(&t->arena_top, memory_order_relaxed) * sizeof *t->arena +
           sp_mg_sums(t) * 2 * sizeof *t->sums;
}

bool sp_mg_full(const sp_mg *t)
{
    return atomic_load_explicit(&t->full, memory_order_relaxed);
}
