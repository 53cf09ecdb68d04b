/* vgame.c: the checker's misère games (vgame.h): option lists in one pool, a hash set over the lists,
 * a memo of sums, and the reduction to simplest form checked condition by condition. */
#include "vgame.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

typedef struct game {
    uint32_t first, degree; /* options: pool[first .. first + degree), ascending */
    uint32_t birthday;      /* 0 for the game 0, else 1 + the largest of the options' */
    bool win;               /* the player to move wins g alone */
} game;

struct sp_vg {
    game *g;
    size_t n, cap;
    uint32_t *pool;
    size_t used, pool_cap;
    uint32_t *set; /* open addressing over option lists: id + 1, 0 empty */
    size_t set_cap;
    uint64_t *sum_key; /* (a + 1) << 32 | (b + 1), a <= b; 0 empty */
    uint32_t *sum_val;
    size_t sums, sum_cap;
};

static uint64_t hash_list(const uint32_t *v, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
    for (size_t i = 0; i < n; i++) {
        h ^= v[i] + 0x632be59bd9b4e019ull + (h << 6) + (h >> 2);
        h *= 0xff51afd7ed558ccdull;
    }
    return h ^ (h >> 29);
}

static bool same_list(const sp_vg *t, uint32_t g, const uint32_t *v, size_t n)
{
    return t->g[g].degree == n && (n == 0 || !memcmp(t->pool + t->g[g].first, v, n * sizeof *v));
}

/* The slot of the list v in the set: where its id is, or the empty slot where it would go. */
static size_t find_slot(const sp_vg *t, const uint32_t *v, size_t n)
{
    size_t i = hash_list(v, n) & (t->set_cap - 1);
    while (t->set[i] && !same_list(t, t->set[i] - 1, v, n))
        i = (i + 1) & (t->set_cap - 1);
    return i;
}

static int rehash(sp_vg *t)
{
    size_t cap = t->set_cap ? 2 * t->set_cap : 1024;
    uint32_t *set = calloc(cap, sizeof *set);
    if (!set)
        return -1;
    free(t->set);
    t->set = set;
    t->set_cap = cap;
    for (uint32_t g = 0; g < t->n; g++)
        t->set[find_slot(t, t->pool + t->g[g].first, t->g[g].degree)] = g + 1;
    return 0;
}

/* The id of the game with exactly the options v (sorted, distinct, already in simplest form, and no
 * reduction applying), added if new. */
static uint32_t intern(sp_vg *t, const uint32_t *v, size_t n)
{
    size_t slot = find_slot(t, v, n);
    if (t->set[slot])
        return t->set[slot] - 1;
    if (t->n + 1 >= SP_VG_NONE || t->used + n >= UINT32_MAX || sp_grow((void **)&t->g, &t->cap, t->n + 1, sizeof *t->g) ||
        sp_grow((void **)&t->pool, &t->pool_cap, t->used + n, sizeof *t->pool))
        return SP_VG_NONE;
    bool win = n == 0; /* misère: the player who cannot move wins */
    uint32_t birthday = 0;
    for (size_t i = 0; i < n; i++) {
        win |= !t->g[v[i]].win;
        if (t->g[v[i]].birthday >= birthday)
            birthday = t->g[v[i]].birthday + 1;
    }
    uint32_t g = (uint32_t)t->n++;
    t->g[g] = (game){(uint32_t)t->used, (uint32_t)n, birthday, win};
    if (n)
        memcpy(t->pool + t->used, v, n * sizeof *v);
    t->used += n;
    if (2 * t->n > t->set_cap) {
        if (rehash(t)) {
            t->n--, t->used -= n;
            return SP_VG_NONE;
        }
    } else {
        t->set[slot] = g + 1;
    }
    return g;
}

sp_vg *sp_vg_new(void)
{
    sp_vg *t = calloc(1, sizeof *t);
    if (!t || rehash(t) || intern(t, NULL, 0) != 0) {
        sp_vg_free(t);
        return NULL;
    }
    return t;
}

void sp_vg_free(sp_vg *t)
{
    if (!t)
        return;
    free(t->g), free(t->pool), free(t->set);
    free(t->sum_key), free(t->sum_val);
    free(t);
}

bool sp_vg_wins(const sp_vg *t, uint32_t g)
{
    return t->g[g].win;
}

unsigned sp_vg_birthday(const sp_vg *t, uint32_t g)
{
    return t->g[g].birthday;
}

size_t sp_vg_degree(const sp_vg *t, uint32_t g)
{
    return t->g[g].degree;
}

uint32_t sp_vg_option(const sp_vg *t, uint32_t g, size_t i)
{
    return t->pool[t->g[g].first + i];
}

size_t sp_vg_count(const sp_vg *t)
{
    return t->n;
}

/* ---------------------------------------------------------------- simplest form */

static bool member(const uint32_t *v, size_t n, uint32_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] == x)
            return true;
        if (v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

static bool has_option(const sp_vg *t, uint32_t g, uint32_t x)
{
    return member(t->pool + t->g[g].first, t->g[g].degree, x);
}

/* Whether G = {o[0..n)} equals its option's option j, by Conway's reversibility rule for misère
 * impartial games:
 *   (a) every option of j is an option of G;
 *   (b) every option of G that is not an option of j has j among its own options;
 *   (c) j has an option, or some option of G is lost for the player to move there.
 * Why G = j: for every game X, G + X and j + X have the same outcome (induction on X). A winning
 * move of j + X is matched in G + X (to j' + X by (a), to j + X' by induction); if j + X has no move
 * at all, (c) gives G a move to a lost option. A winning move of G + X goes to G + X' (induction),
 * to j' + X (which j + X has too), or to E + X with E not an option of j: E + X is lost and has the
 * move to j + X by (b), so j + X is won. */
static bool reverts_to(const sp_vg *t, const uint32_t *o, size_t n, uint32_t j)
{
    const game *J = &t->g[j];
    for (uint32_t i = 0; i < J->degree; i++)
        if (!member(o, n, t->pool[J->first + i]))
            return false;
    bool lost_option = false;
    for (size_t i = 0; i < n; i++) {
        if (!has_option(t, j, o[i]) && !has_option(t, o[i], j))
            return false;
        lost_option |= !t->g[o[i]].win;
    }
    return J->degree > 0 || lost_option;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

uint32_t sp_vg_make(sp_vg *t, const uint32_t *opts, size_t n)
{
    uint32_t stack[128], *o = n <= 128 ? stack : malloc(n * sizeof *o);
    if (!o)
        return SP_VG_NONE;
    for (size_t i = 0; i < n; i++)
        if ((o[i] = opts[i]) >= t->n) {
            if (o != stack)
                free(o);
            return SP_VG_NONE;
        }
    qsort(o, n, sizeof *o, cmp_u32);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || o[i] != o[m - 1])
            o[m++] = o[i];
    /* the options are in simplest form; if none reverts, so is G (Conway's simplest form theorem) */
    uint32_t id = SP_VG_NONE;
    for (size_t i = 0; i < m && id == SP_VG_NONE; i++)
        for (uint32_t k = 0; k < t->g[o[i]].degree && id == SP_VG_NONE; k++) {
            uint32_t j = t->pool[t->g[o[i]].first + k];
            if (reverts_to(t, o, m, j))
                id = j;
        }
    if (id == SP_VG_NONE)
        id = intern(t, o, m);
    if (o != stack)
        free(o);
    return id;
}

/* ---------------------------------------------------------------- sums */

/* The memo slot of key: where it is, or the empty slot where it would go (sum_cap > 0). */
static size_t sum_slot(const sp_vg *t, uint64_t key)
{
    size_t i = (key * 0x9e3779b97f4a7c15ull >> 20) & (t->sum_cap - 1);
    while (t->sum_key[i] && t->sum_key[i] != key)
        i = (i + 1) & (t->sum_cap - 1);
    return i;
}

static void sum_put(sp_vg *t, uint64_t key, uint32_t v)
{
    size_t i = sum_slot(t, key);
    t->sum_key[i] = key;
    t->sum_val[i] = v;
}

static int sums_grow(sp_vg *t)
{
    size_t cap = t->sum_cap ? 2 * t->sum_cap : 1024;
    uint64_t *keys = calloc(cap, sizeof *keys), *old_keys = t->sum_key;
    uint32_t *vals = malloc(cap * sizeof *vals), *old_vals = t->sum_val;
    size_t old_cap = t->sum_cap;
    if (!keys || !vals) {
        free(keys), free(vals);
        return -1;
    }
    t->sum_key = keys, t->sum_val = vals, t->sum_cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old_keys[i])
            sum_put(t, old_keys[i], old_vals[i]);
    free(old_keys), free(old_vals);
    return 0;
}

/* a + b from its definition: the options a' + b and a + b'. */
static uint32_t add_by_options(sp_vg *t, uint32_t a, uint32_t b)
{
    size_t da = t->g[a].degree, n = da + t->g[b].degree;
    uint32_t *o = malloc((n ? n : 1) * sizeof *o);
    if (!o)
        return SP_VG_NONE;
    uint32_t id = 0;
    for (size_t i = 0; i < n && id != SP_VG_NONE; i++) /* options read by index: the pool may move */
        id = o[i] = i < da ? sp_vg_add(t, sp_vg_option(t, a, i), b) : sp_vg_add(t, a, sp_vg_option(t, b, i - da));
    if (id != SP_VG_NONE)
        id = sp_vg_make(t, o, n);
    free(o);
    return id;
}

uint32_t sp_vg_add(sp_vg *t, uint32_t a, uint32_t b)
{
    if (a >= t->n || b >= t->n)
        return SP_VG_NONE;
    if (a == 0 || b == 0)
        return a ? a : b;
    uint64_t key = a < b ? ((uint64_t)a + 1) << 32 | (b + 1) : ((uint64_t)b + 1) << 32 | (a + 1);
    if (t->sum_cap) {
        size_t i = sum_slot(t, key);
        if (t->sum_key[i] == key)
            return t->sum_val[i];
    }
    uint32_t id = add_by_options(t, a, b);
    if (id == SP_VG_NONE || (2 * (t->sums + 1) > t->sum_cap && sums_grow(t)))
        return id; /* not remembered when memory is short: still right, only slower next time */
    sum_put(t, key, id);
    t->sums++;
    return id;
}
