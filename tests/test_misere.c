/* test_misere.c: misère play: the game table (simplest forms, sums, outcomes) against hand-worked
 * values, Conway's counts and brute force; the solver against the literature, the slow reference
 * and the plain search, with one and two threads. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expand.h"
#include "mgame.h"
#include "nimstore.h"
#include "random.h"
#include "reference.h"
#include "rng.h"
#include "solver.h"
#include "testpos.h"
#include "testutil.h"

static sp_canon_ctx *ctx;
static sp_mg *t;

static void setup(void)
{
    ctx = sp_canon_ctx_new();
    t = sp_mg_new((size_t)16 << 20);
    ck_assert_ptr_nonnull(t);
}

static void teardown(void)
{
    sp_canon_ctx_free(ctx);
    sp_mg_free(t);
}

static size_t key_of(const char *text, sp_tok *key)
{
    return sp_test_key(ctx, text, key);
}

/* ---------------------------------------------------------------- the game table */

static sp_mg_id game(size_t n, const sp_mg_id *opts)
{
    sp_mg_id o[16];
    memcpy(o, opts, n * sizeof *o);
    sp_mg_id g = sp_mg_canon(t, o, n);
    ck_assert_uint_ne(g, SP_MG_NONE);
    return g;
}

/* The nim heap *n = {0, *1, ..., *(n-1)}. */
static sp_mg_id heap(unsigned n)
{
    sp_mg_id o[16];
    for (unsigned i = 0; i < n; i++)
        o[i] = heap(i);
    return game(n, o);
}

/* Worked by hand (misère: no move is a win). 0 is an N-position. *1 = {0} is a P-position: its one
 * move hands the opponent the empty game. *2 = {0, *1} is an N-position (move to *1) and is already
 * simplest: the only candidate J is 0, and its option 0 does not have 0 as an option. {*1} = 0 by
 * the reduction with J = 0 (its option *1 has 0 as an option and is a P-position); hence
 * *1 + *1 = {*1} = 0 (Conway, On Numbers and Games, ch. 12: in misère play *1 + *1 = 0). {*2} is
 * simplest: J = 0 fails (c) because *2 is an N-position, and J = *1 fails (a); it is a P-position. */
START_TEST(small_games_by_hand)
{
    sp_mg_id zero = SP_MG_ZERO, one = heap(1), two = heap(2);
    ck_assert(sp_mg_wins(t, zero));
    ck_assert_uint_eq(sp_mg_birthday(t, zero), 0);
    ck_assert_uint_ne(one, zero);
    ck_assert(!sp_mg_wins(t, one));
    ck_assert(sp_mg_wins(t, two));
    ck_assert_uint_eq(sp_mg_birthday(t, two), 2);
    sp_mg_id o[2];
    ck_assert_uint_eq(sp_mg_noptions(t, two), 2);
    ck_assert_uint_eq(sp_mg_options(t, two, o), 2);
    ck_assert_uint_eq(o[0], zero);
    ck_assert_uint_eq(o[1], one);
    ck_assert_uint_eq(game(1, &one), zero);
    ck_assert_uint_eq(sp_mg_sum(t, one, one), zero);
    sp_mg_id braced_two = game(1, &two);
    ck_assert_uint_ne(braced_two, zero);
    ck_assert(!sp_mg_wins(t, braced_two));
    /* *2 + *2 is a misère P-position (Bouton: a heap above 1 and XOR 0), so it is not 0 */
    sp_mg_id twice = sp_mg_sum(t, two, two);
    ck_assert(!sp_mg_wins(t, twice));
    ck_assert_uint_eq(sp_mg_sum(t, zero, two), two);
    ck_assert_uint_eq(sp_mg_sum(t, two, one), sp_mg_sum(t, one, two));
}
END_TEST

/* Conway (On Numbers and Games, ch. 12): the numbers of distinct misère games born by day 0..4 are
 * 1, 2, 3, 5, 22. Day n's games are all the sets of day n-1's games; distinct ids here must count
 * exactly that many, which also says the reduction finds every simplification there. */
START_TEST(conway_counts)
{
    static const unsigned want[] = {1, 2, 3, 5, 22};
    sp_mg_id day[32] = {SP_MG_ZERO}, next[32];
    unsigned n = 1;
    for (unsigned d = 1; d <= 4; d++) {
        unsigned m = 0;
        for (uint32_t set = 0; set < (1u << n); set++) {
            sp_mg_id o[32];
            size_t k = 0;
            for (unsigned i = 0; i < n; i++)
                if (set >> i & 1)
                    o[k++] = day[i];
            sp_mg_id g = sp_mg_canon(t, o, k);
            bool seen = false;
            for (unsigned i = 0; i < m; i++)
                seen |= next[i] == g;
            if (!seen)
                next[m++] = g;
        }
        ck_assert_uint_eq(m, want[d]);
        memcpy(day, next, m * sizeof *day);
        n = m;
    }
    ck_assert_uint_eq(want[0], 1);
}
END_TEST

/* Bouton's misère Nim: the player to move wins iff some heap exceeds 1 and the XOR is not 0, or
 * every heap is at most 1 and the XOR is 0. Checks sums and outcomes on three heaps up to 5. */
START_TEST(misere_nim)
{
    sp_mg_id h[6];
    for (unsigned i = 0; i < 6; i++)
        h[i] = heap(i);
    for (unsigned a = 0; a < 6; a++)
        for (unsigned b = 0; b < 6; b++)
            for (unsigned c = 0; c < 6; c++) {
                bool big = a > 1 || b > 1 || c > 1;
                bool want = big ? (a ^ b ^ c) != 0 : (a ^ b ^ c) == 0;
                sp_mg_id s = sp_mg_sum(t, sp_mg_sum(t, h[a], h[b]), h[c]);
                ck_assert_msg(sp_mg_wins(t, s) == want, "*%u + *%u + *%u", a, b, c);
            }
}
END_TEST

/* Random game trees as DAGs: node i's options are some of the nodes below i. */
#define TREE_NODES 40

typedef struct forest {
    unsigned nopt[TREE_NODES], opt[TREE_NODES][4];
} forest;

static void random_forest(forest *f, uint64_t *rng)
{
    for (unsigned i = 0; i < TREE_NODES; i++) {
        f->nopt[i] = i == 0 ? 0 : (unsigned)(sp_rng_next(rng) % 4);
        for (unsigned j = 0; j < f->nopt[i]; j++)
            f->opt[i][j] = (unsigned)(sp_rng_next(rng) % i);
    }
}

/* Misère outcome of node a + node b by brute force over the unreduced trees (memo: 0 unknown,
 * 1 the player to move wins, 2 loses). */
static bool brute_wins(const forest *f, unsigned a, unsigned b, unsigned char memo[TREE_NODES][TREE_NODES])
{
    if (memo[a][b])
        return memo[a][b] == 1;
    bool win = f->nopt[a] + f->nopt[b] == 0;
    for (unsigned j = 0; j < f->nopt[a] && !win; j++)
        win = !brute_wins(f, f->opt[a][j], b, memo);
    for (unsigned j = 0; j < f->nopt[b] && !win; j++)
        win = !brute_wins(f, a, f->opt[b][j], memo);
    memo[a][b] = win ? 1 : 2;
    return win;
}

/* Misère outcome of the table's game g + node x, by brute force over g's stored options. */
static bool mixed_wins(const forest *f, sp_mg_id g, unsigned x)
{
    sp_mg_iter it;
    sp_mg_id o;
    bool win = sp_mg_noptions(t, g) + f->nopt[x] == 0;
    for (sp_mg_iter_init(t, g, &it); !win && sp_mg_iter_next(&it, &o);)
        win = !mixed_wins(f, o, x);
    for (unsigned j = 0; j < f->nopt[x] && !win; j++)
        win = !mixed_wins(f, g, f->opt[x][j]);
    return win;
}

/* The planted check: simplification never changes an outcome. For random trees G and X,
 * o(simplest(G) + X) (simplest G expanded, X unreduced) and o(simplest(G) + simplest(X)) from the
 * table both equal o(G + X) over the unreduced trees. */
START_TEST(simplification_keeps_outcomes)
{
    uint64_t rng = 5;
    unsigned reduced = 0;
    for (unsigned trial = 0; trial < 40; trial++) {
        forest f;
        random_forest(&f, &rng);
        static unsigned char memo[TREE_NODES][TREE_NODES];
        memset(memo, 0, sizeof memo);
        sp_mg_id id[TREE_NODES];
        for (unsigned i = 0; i < TREE_NODES; i++) {
            sp_mg_id o[4];
            for (unsigned j = 0; j < f.nopt[i]; j++)
                o[j] = id[f.opt[i][j]];
            id[i] = game(f.nopt[i], o);
            unsigned born = 0; /* the birthday of the set of simplest options, before any reduction */
            for (unsigned j = 0; j < f.nopt[i]; j++)
                if (sp_mg_birthday(t, o[j]) + 1 > born)
                    born = sp_mg_birthday(t, o[j]) + 1;
            reduced += sp_mg_birthday(t, id[i]) < born;
        }
        for (unsigned g = TREE_NODES - 8; g < TREE_NODES; g++)
            for (unsigned x = 0; x < TREE_NODES; x += 3) {
                bool want = brute_wins(&f, g, x, memo);
                ck_assert_int_eq(mixed_wins(&f, id[g], x), want);
                ck_assert_int_eq(sp_mg_wins(t, sp_mg_sum(t, id[g], id[x])), want);
            }
    }
    ck_assert_uint_gt(reduced, 0); /* the reduction did fire on these trees */
}
END_TEST

/* Games G_S = {*k : k in S} for S a set of heaps from *2 to *13 (bit k of S): none reduces (no
 * option is a misère P-position and *0 is not an option), so the 4,095 of them are distinct games. */
enum { SUM_THREADS = 4, SETS = 1 << 14, SUMS_EACH = 6000 };

/* Misère outcome of *k + G_T by the definitions (memo: 0 unknown, 1 won, 2 lost). */
static bool heap_set_wins(unsigned k, unsigned T, unsigned char memo[14][SETS])
{
    if (memo[k][T])
        return memo[k][T] == 1;
    bool win = false;
    for (unsigned j = 0; j < k && !win; j++)
        win = !heap_set_wins(j, T, memo);
    for (unsigned m = 2; m < 14 && !win; m++)
        if (T >> m & 1) /* to *k + *m: Bouton's misère rule */
            win = !(k > 1 || m > 1 ? (k ^ m) != 0 : (k ^ m) == 0);
    memo[k][T] = win ? 1 : 2;
    return win;
}

/* G_S + G_T: every move goes to *k + G_T or G_S + *k. */
static bool set_set_wins(unsigned S, unsigned T, unsigned char memo[14][SETS])
{
    for (unsigned k = 2; k < 14; k++)
        if ((S >> k & 1 && !heap_set_wins(k, T, memo)) || (T >> k & 1 && !heap_set_wins(k, S, memo)))
            return true;
    return false;
}

typedef struct sum_job {
    sp_mg *t;
    const sp_mg_id *set; /* [S]: G_S */
    unsigned char (*memo)[SETS];
    uint64_t rng;
    unsigned wrong, refused;
} sum_job;

static unsigned random_set(uint64_t *rng)
{
    return (unsigned)(sp_rng_next(rng) % (SETS / 4 - 1) + 1) << 2;
}

/* One thread's sums G_S + G_T for random S, T, against the definitions (worked out beforehand). */
static void *sum_part(void *arg)
{
    sum_job *j = arg;
    for (unsigned i = 0; i < SUMS_EACH; i++) {
        unsigned S = random_set(&j->rng), T = random_set(&j->rng);
        sp_mg_id g = sp_mg_sum(j->t, j->set[S], j->set[T]);
        if (g == SP_MG_NONE)
            j->refused++;
        else
            j->wrong += sp_mg_wins(j->t, g) != set_set_wins(S, T, j->memo);
    }
    return NULL;
}

/* Threads summing at once while the index and the sum memo double many times (from 4,096 slots) get
 * every sum right and are never refused. */
START_TEST(table_grows_under_threads)
{
    sp_mg *big = sp_mg_new((size_t)256 << 20);
    ck_assert_ptr_nonnull(big);
    static sp_mg_id set[SETS];
    static unsigned char memo[14][SETS];
    sp_mg_id heaps[14], o[14];
    for (unsigned k = 0; k < 14; k++) {
        memcpy(o, heaps, k * sizeof *o);
        heaps[k] = sp_mg_canon(big, o, k);
    }
    for (unsigned S = 4; S < SETS; S += 4) {
        size_t n = 0;
        for (unsigned k = 2; k < 14; k++)
            if (S >> k & 1)
                o[n++] = heaps[k];
        set[S] = sp_mg_canon(big, o, n);
        ck_assert(!sp_mg_wins(big, set[S])); /* every move is to a heap of 2 or more: won by the mover */
        for (unsigned k = 0; k < 14; k++)
            heap_set_wins(k, S, memo); /* worked out here: the threads only read it */
    }
    ck_assert_uint_ge(sp_mg_count(big), SETS / 4 + 13);
    pthread_t tid[SUM_THREADS];
    sum_job job[SUM_THREADS];
    for (unsigned i = 0; i < SUM_THREADS; i++) {
        job[i] = (sum_job){big, set, memo, 100 + i, 0, 0};
        ck_assert_int_eq(pthread_create(&tid[i], NULL, sum_part, &job[i]), 0);
    }
    for (unsigned i = 0; i < SUM_THREADS; i++) {
        pthread_join(tid[i], NULL);
        ck_assert_uint_eq(job[i].wrong, 0);
        ck_assert_uint_eq(job[i].refused, 0);
    }
    ck_assert(!sp_mg_full(big));
    ck_assert_uint_gt(sp_mg_sums(big), 4 * 4096); /* the memo doubled at least thrice */
    for (unsigned S = 4; S < SETS; S += 4) { /* the grown index still finds every game */
        size_t n = 0;
        for (unsigned k = 2; k < 14; k++)
            if (S >> k & 1)
                o[n++] = heaps[k];
        ck_assert_uint_eq(sp_mg_canon(big, o, n), set[S]);
    }
    sp_mg_free(big);
}
END_TEST

/* A table too small for the work refuses (SP_MG_NONE) and says it is full; it never answers wrong,
 * and it is full only once its index is three quarters full. */
START_TEST(full_table_refuses)
{
    sp_mg *small = sp_mg_new(1);
    ck_assert_ptr_nonnull(small);
    sp_mg_id o[2] = {SP_MG_ZERO}, one = sp_mg_canon(small, o, 1);
    o[0] = SP_MG_ZERO, o[1] = one;
    sp_mg_id two = sp_mg_canon(small, o, 2), g = two, next = two;
    unsigned copies = 1; /* *2 + *2 + ...: every number of copies is another game */
    while (next != SP_MG_NONE && copies < 100000) {
        g = next;
        next = sp_mg_sum(small, g, two);
        copies++;
    }
    ck_assert_uint_eq(next, SP_MG_NONE);
    ck_assert(sp_mg_full(small));
    ck_assert(sp_mg_wins(small, g) == (copies % 2 == 0)); /* *2 taken copies-1 times: Bouton */
    sp_mg_free(small);
    /* {*2}, {{*2}}, ...: one option each, none reducible (unlike {*1}, which is 0), so the index is
     * what fills: its largest size (1,024 slots, the least) holds three quarters of that, not a half */
    small = sp_mg_new(1);
    ck_assert_ptr_nonnull(small);
    o[0] = SP_MG_ZERO, one = sp_mg_canon(small, o, 1);
    o[0] = SP_MG_ZERO, o[1] = one;
    for (g = sp_mg_canon(small, o, 2); g != SP_MG_NONE;)
        o[0] = g, g = sp_mg_canon(small, o, 1);
    ck_assert_uint_eq(sp_mg_count(small), 1024 / 4 * 3);
    sp_mg_free(small);
}
END_TEST

/* Options are kept as gaps in 7-bit groups (mgame.c): lists whose gaps take one to four groups
 * (ids past 2^21) come back as given, and find their game again. {*2}, {{*2}}, ... give the ids; a
 * list of them three or more apart is not reducible (each has one option, the one before it). */
START_TEST(option_lists_round_trip)
{
    sp_mg *m = sp_mg_new((size_t)256 << 20);
    ck_assert_ptr_nonnull(m);
    static sp_mg_id chain[(1u << 21) + 64];
    sp_mg_id o[8] = {SP_MG_ZERO}, one = sp_mg_canon(m, o, 1);
    o[0] = SP_MG_ZERO, o[1] = one;
    chain[0] = sp_mg_canon(m, o, 2);
    for (size_t i = 1; i < sizeof chain / sizeof *chain; i++) {
        o[0] = chain[i - 1];
        chain[i] = sp_mg_canon(m, o, 1);
        SP_CHECK(chain[i] == chain[i - 1] + 1); /* two million times: no mark per pass */
    }
    static const size_t pick[][6] = {{0, 3, 130, 134, 16400, 16404},
                                     {5, 200, 20000, (1u << 21) + 3, (1u << 21) + 40, (1u << 21) + 63}};
    for (size_t p = 0; p < 2; p++) {
        sp_mg_id want[6], got[6];
        for (size_t i = 0; i < 6; i++)
            want[i] = o[5 - i] = chain[pick[p][i]]; /* given in any order */
        sp_mg_id g = sp_mg_canon(m, o, 6);
        ck_assert_uint_eq(g, sp_mg_count(m) - 1); /* a new game */
        ck_assert_uint_eq(sp_mg_noptions(m, g), 6);
        ck_assert_uint_eq(sp_mg_options(m, g, got), 6);
        ck_assert_mem_eq(got, want, sizeof want);
        memcpy(o, want, sizeof want);
        ck_assert_uint_eq(sp_mg_canon(m, o, 6), g);
        o[0] = chain[pick[p][0] + 1]; /* one id moved by one: another game */
        ck_assert_uint_ne(sp_mg_canon(m, o, 6), g);
    }
    sp_mg_free(m);
}
END_TEST

enum { FAMILY = 150 };

/* The sums G_S + G_T of every pair of a family of sets, each against the definitions, twice over;
 * *refused counts the sums not given. The second pass must give the very ids of the first. */
static unsigned family_sums(sp_mg *m, const sp_mg_id *set, const unsigned *fam, unsigned char memo[14][SETS],
                            sp_mg_id *first, unsigned *refused)
{
    unsigned wrong = 0, at = 0;
    *refused = 0;
    for (unsigned pass = 0; pass < 2; pass++, at = 0)
        for (unsigned i = 0; i < FAMILY; i++)
            for (unsigned j = i; j < FAMILY; j++, at++) {
                sp_mg_id g = sp_mg_sum(m, set[fam[i]], set[fam[j]]);
                if (g == SP_MG_NONE) {
                    ++*refused;
                    continue;
                }
                wrong += sp_mg_wins(m, g) != set_set_wins(fam[i], fam[j], memo);
                if (pass == 0)
                    first[at] = g;
                else
                    wrong += first[at] != SP_MG_NONE && g != first[at];
            }
    return wrong;
}

/* The sets G_S (S in fam) of the heaps *2..*13 (a bit each in S) in table m, and their outcomes
 * beside heaps. */
static void make_sets(sp_mg *m, const unsigned *fam, sp_mg_id *set, unsigned char memo[14][SETS])
{
    sp_mg_id heaps[14], o[14];
    for (unsigned k = 0; k < 14; k++) {
        memcpy(o, heaps, k * sizeof *o);
        heaps[k] = sp_mg_canon(m, o, k);
    }
    for (unsigned i = 0; i < FAMILY; i++) {
        unsigned S = fam[i];
        size_t n = 0;
        for (unsigned k = 2; k < 14; k++)
            if (S >> k & 1)
                o[n++] = heaps[k];
        set[S] = sp_mg_canon(m, o, n);
        ck_assert_uint_ne(set[S], SP_MG_NONE);
        for (unsigned k = 0; k < 14; k++)
            heap_set_wins(k, S, memo);
    }
}

/* A table of `mib` MiB (one user's, or shared) holding the sets of fam and their sums (every one
 * right; *refused: how many it refused). */
static sp_mg *table_of_sums(size_t mib, bool one_user, const unsigned *fam, unsigned *refused)
{
    static sp_mg_id set[SETS], first[FAMILY * (FAMILY + 1) / 2];
    static unsigned char memo[14][SETS];
    sp_mg *m = sp_mg_new(mib << 20);
    ck_assert_ptr_nonnull(m);
    make_sets(m, fam, set, memo);
    sp_mg_set_exclusive(m, one_user);
    ck_assert_uint_eq(family_sums(m, set, fam, memo, first, refused), 0);
    return m;
}

/* The sum memo is a cache while one thread uses the table: the sums of a family outgrow its largest
 * size but not the room for games, and it is emptied (twice: the second pass computes the sums
 * again) instead of refusing them; every sum is right and keeps its id. Shared by threads, the same
 * table refuses sums once the memo is full, until it has one user again; a larger one keeps the sizes
 * its memo outgrew only till then. */
START_TEST(full_memo_is_emptied)
{
    unsigned fam[FAMILY], refused;
    uint64_t rng = 7;
    for (unsigned i = 0; i < FAMILY; i++)
        fam[i] = random_set(&rng);
    sp_mg *m = table_of_sums(2, true, fam, &refused); /* a memo of 16,384 slots, room for 16,384 games */
    ck_assert_uint_eq(refused, 0);
    ck_assert_uint_ge(sp_mg_flushes(m), 2);
    ck_assert(!sp_mg_full(m));
    sp_mg_free(m);

    m = table_of_sums(2, false, fam, &refused);
    ck_assert_uint_gt(refused, 0);
    ck_assert(sp_mg_full(m));
    ck_assert_uint_eq(sp_mg_flushes(m), 0);
    sp_mg_set_exclusive(m, true);
    ck_assert(!sp_mg_full(m));
    ck_assert_uint_eq(sp_mg_flushes(m), 1);
    sp_mg_id o[1] = {SP_MG_ZERO}, one = sp_mg_canon(m, o, 1);
    ck_assert_uint_ne(sp_mg_sum(m, one, one), SP_MG_NONE); /* a new sum: *1 + *1 is {*1}, 0 */
    sp_mg_free(m);

    /* shared, with room: the sizes the memo outgrew stay for readers on other threads, and go (the
     * sums kept) at the first moment of one user */
    m = table_of_sums(8, false, fam, &refused);
    ck_assert_uint_eq(refused, 0);
    ck_assert(sp_mg_wants_one_user(m));
    size_t shared = sp_mg_used_bytes(m);
    uint64_t sums = sp_mg_sums(m);
    sp_mg_set_exclusive(m, true);
    ck_assert(!sp_mg_wants_one_user(m));
    ck_assert_uint_lt(sp_mg_used_bytes(m), shared);
    ck_assert_uint_eq(sp_mg_sums(m), sums);
    ck_assert_uint_eq(sp_mg_flushes(m), 0);
    sp_mg_free(m);
}
END_TEST

/* The land store keeps 32-bit values (game ids) and tells apart lands whose keys share a prefix. */
START_TEST(land_store_values)
{
    sp_nimstore *ns = sp_nimstore_new((size_t)1 << 20);
    ck_assert_ptr_nonnull(ns);
    static const char *lands[] = {"0*2", "0*3", "0.1a1a", "1a1a", "AB|AB"};
    for (unsigned i = 0; i < 5; i++) {
        sp_tok key[SP_KEY_MAX];
        size_t len = key_of(lands[i], key);
        ck_assert(sp_nimstore_put(ns, key, len, sp_key_hash64(key, len), 70000u * (i + 1)));
    }
    for (unsigned i = 0; i < 5; i++) {
        sp_tok key[SP_KEY_MAX];
        size_t len = key_of(lands[i], key);
        ck_assert_int_eq(sp_nimstore_get(ns, key, len, sp_key_hash64(key, len)), 70000 * (int)(i + 1));
        /* the same hash with a shorter key (a prefix of it) is another land */
        ck_assert_int_eq(sp_nimstore_get(ns, key, len - 1, sp_key_hash64(key, len)), -1);
    }
    sp_nimstore_free(ns);
}
END_TEST

typedef struct keys_seen {
    const sp_nimstore *ns;
    unsigned keys, positions, values; /* how many, how many of several lands, the sum of the values */
} keys_seen;

static int count_key(void *arg, const sp_tok *key, size_t len, unsigned value)
{
    keys_seen *seen = arg;
    seen->keys++, seen->values += value;
    seen->positions += sp_key_lands(key, len, NULL, NULL, 0) > 1;
    ck_assert_int_eq(sp_nimstore_get(seen->ns, key, len, sp_key_hash64(key, len)), (int)value);
    return 0;
}

/* It keeps keys of several lands too (misère lost positions), apart from their first land and from
 * each other, and hands them back whole. */
START_TEST(land_store_positions)
{
    sp_nimstore *ns = sp_nimstore_new((size_t)1 << 20);
    ck_assert_ptr_nonnull(ns);
    static const char *keys[] = {"0*2", "0*2+0*3", "0*2+0*3+1a1a", "0*3", "0*3+AB|AB", "0*2+0*2"};
    for (unsigned i = 0; i < 6; i++) {
        sp_tok key[SP_KEY_MAX];
        size_t len = key_of(keys[i], key);
        ck_assert(sp_nimstore_put(ns, key, len, sp_key_hash64(key, len), i + 1));
        ck_assert(!sp_nimstore_put(ns, key, len, sp_key_hash64(key, len), 99)); /* there already */
    }
    for (unsigned i = 0; i < 6; i++) {
        sp_tok key[SP_KEY_MAX];
        size_t len = key_of(keys[i], key);
        ck_assert_int_eq(sp_nimstore_get(ns, key, len, sp_key_hash64(key, len)), (int)i + 1);
        ck_assert_int_eq(sp_nimstore_get(ns, key, len - 1, sp_key_hash64(key, len)), -1);
    }
    keys_seen seen = {ns, 0, 0, 0};
    ck_assert_int_eq(sp_nimstore_each(ns, 0, UINT64_MAX, count_key, &seen), 0);
    ck_assert_uint_eq(seen.keys, 6);
    ck_assert_uint_eq(seen.positions, 4);
    ck_assert_uint_eq(seen.values, 21);
    sp_nimstore_free(ns);
}
END_TEST

/* ---------------------------------------------------------------- the solver */

static sp_solver *new_solver_sums(unsigned threads, int lives, int sum_lives)
{
    sp_solver_opts o = {.tt_bytes = (size_t)32 << 20, .threads = threads, .misere_lives = lives,
                        .misere_sum_lives = sum_lives};
    sp_solver *s = sp_solver_new(&o);
    ck_assert_ptr_nonnull(s);
    return s;
}

static sp_solver *new_solver(unsigned threads, int lives)
{
    return new_solver_sums(threads, lives, 0);
}

static sp_outcome solve(sp_solver *s, const char *text)
{
    sp_tok key[SP_KEY_MAX];
    size_t len = key_of(text, key);
    return sp_solver_outcome(s, key, len, SP_PLAY_MISERE);
}

/* What the solver knows of a misère node is found in the form the caller holds it too, not only in
 * the form its search stores it (its small lands folded into the game): after a search of 0*5+0*1
 * and of 0*4+0*2 (a land the search does not value beside one it does), some of their children,
 * asked as whole positions beside the game 0, are known, each agreeing with the outcome found. */
START_TEST(known_in_the_callers_form)
{
    static const char *texts[] = {"0*5+0*1", "0*4+0*2"};
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    sp_children ch;
    sp_children_init(&ch);
    for (unsigned i = 0; i < 2; i++) {
        sp_solver *s = new_solver(1, 0);
        sp_tok key[SP_KEY_MAX];
        size_t len = key_of(texts[i], key), known = 0;
        sp_outcome o = sp_solver_couple(s, key, len, 0, SP_PLAY_MISERE);
        ck_assert(o == SP_WIN || o == SP_LOSS);
        ck_assert_int_eq(sp_expand_pos(ctx, NULL, key, len, &ch), 0);
        bool answered = false;
        for (size_t c = 0; c < ch.n; c++) {
            sp_outcome co = sp_solver_known(s, ch.tok + ch.off[c], ch.len[c], 0, SP_PLAY_MISERE);
            known += co != SP_UNKNOWN;
            ck_assert_msg(o == SP_WIN || co != SP_LOSS, "%s: a child lost, the position lost", texts[i]);
            answered |= co == SP_LOSS;
        }
        ck_assert_msg(known > 0, "%s: no child known of %zu", texts[i], ch.n);
        ck_assert(o == SP_LOSS || answered);
        sp_solver_free(s);
    }
    sp_children_free(&ch);
    sp_canon_ctx_free(ctx);
}
END_TEST

/* OEIS A164950 (Lemoine and Viennot): misère outcomes of 0*1.. 0*10. */
static const char published[] = "WLLLWWLLLW";

/* 0*1..0*upto by solver s, against the published outcomes. */
static void solve_published(sp_solver *s, unsigned upto, unsigned threads, int lives)
{
    for (unsigned n = 1; n <= upto; n++) {
        char text[16];
        snprintf(text, sizeof text, "0*%u", n);
        sp_outcome want = published[n - 1] == 'W' ? SP_WIN : SP_LOSS;
        ck_assert_msg(solve(s, text) == want, "0*%u, %u threads, lives %d", n, threads, lives);
    }
}

static void check_published(unsigned threads, int lives, unsigned upto)
{
    sp_solver *s = new_solver(threads, lives);
    solve_published(s, upto, threads, lives);
    sp_solver_free(s);
}

START_TEST(published_one_thread) { check_published(1, 0, 10); }
END_TEST

START_TEST(published_two_threads) { check_published(2, 0, 10); }
END_TEST

START_TEST(published_plain_search) { check_published(2, -1, 7); }
END_TEST

START_TEST(published_small_values) { check_published(1, 5, 9); }
END_TEST

/* A game table too small for the values it is asked for: the solver says it is full, falls back to
 * searching the lands it cannot value, and still answers right. */
START_TEST(full_table_falls_back)
{
    sp_solver_opts o = {.tt_bytes = (size_t)32 << 20, .threads = 2, .misere_lives = 12, .game_bytes = 1};
    sp_solver *s = sp_solver_new(&o);
    ck_assert_ptr_nonnull(s);
    solve_published(s, 9, 2, 12);
    sp_solver_stats st;
    sp_solver_stats_get(s, &st);
    ck_assert(st.games_full);
    sp_solver_free(s);
}
END_TEST

/* Two threads share the game table, so a full memo may not be emptied while a helper could be
 * reading it; the leader empties it between rounds instead, once no helper is in one (before, the
 * table then refused every new sum for the rest of the search). A table of 2 MiB: a memo of 16,384
 * slots, which misère 0*12's sums outgrow. */
START_TEST(full_memo_emptied_under_threads)
{
    sp_solver_opts o = {.tt_bytes = (size_t)32 << 20, .threads = 2, .game_bytes = (size_t)2 << 20};
    sp_solver *s = sp_solver_new(&o);
    ck_assert_ptr_nonnull(s);
    solve_published(s, 10, 2, 0);
    ck_assert_int_eq(solve(s, "0*12"), SP_WIN); /* OEIS A164950 */
    sp_solver_stats st;
    sp_solver_stats_get(s, &st);
    /* the end of a search empties a full memo in any case, so once; here 5 times, 1 without */
    ck_assert_uint_ge(st.sum_flushes, 2);
    sp_solver_free(s);
}
END_TEST

/* Lemoine's pair: one boundary reversed alone changes the misère outcome. */
START_TEST(lemoine_pair)
{
    for (int lives = -1; lives <= 12; lives += 13) {
        sp_solver *s = new_solver(2, lives);
        ck_assert_int_eq(solve(s, "1222A.12B.}2A.}2B.}]!"), SP_LOSS);
        ck_assert_int_eq(solve(s, "1222A.B21.}2A.}2B.}]!"), SP_WIN);
        sp_solver_free(s);
    }
}
END_TEST

/* No move left: the player to move has won; one forced move to the end: lost. */
START_TEST(no_move_is_a_win)
{
    sp_solver *s = new_solver(1, 0);
    ck_assert_int_eq(sp_solver_outcome(s, NULL, 0, SP_PLAY_MISERE), SP_WIN);
    ck_assert_int_eq(solve(s, "!"), SP_WIN);
    ck_assert_int_eq(solve(s, "22"), SP_LOSS);  /* its only move leaves no move */
    ck_assert_int_eq(solve(s, "222"), SP_WIN);  /* its only move leaves 22 */
    sp_solver_free(s);
    ck_assert_int_eq(sp_ref_outcome(ctx, NULL, 0, SP_PLAY_MISERE), SP_WIN);
}
END_TEST

/* 52 positions with outcomes from plain misère recursion over SPOTS's move generator. */
START_TEST(spots_misere_outcomes)
{
    char path[512], line[512];
    snprintf(path, sizeof path, "%s/misere-outcomes.tsv", SP_TEST_DATA_DIR);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    sp_solver *valued = new_solver(1, 0), *plain = new_solver(1, -1);
    int checked = 0;
    while (fgets(line, sizeof line, f)) {
        char pos[256], out[16];
        if (sscanf(line, "%255s %15s", pos, out) != 2)
            continue;
        sp_outcome want = strcmp(out, "win") ? SP_LOSS : SP_WIN;
        ck_assert_msg(solve(valued, pos) == want, "%s with values", pos);
        ck_assert_msg(solve(plain, pos) == want, "%s plain", pos);
        checked++;
    }
    fclose(f);
    sp_solver_free(valued);
    sp_solver_free(plain);
    ck_assert_int_eq(checked, 52);
}
END_TEST

/* The solver, with several value thresholds (no value; small lands only; small lands and the
 * lands of sums; the defaults) and with two threads (with the defaults, and with no value: then
 * the team shares out the moves of positions of several lands), against plain minimax over whole
 * positions, on positions of random games of 0*3..0*6. */
START_TEST(agrees_with_reference)
{
    static const int lives[] = {-1, 3, 5, 0}, sum_lives[] = {0, -1, 8, 0};
    sp_solver *s[4], *two = new_solver(2, 0), *two_plain = new_solver(2, -1);
    for (unsigned i = 0; i < 4; i++)
        s[i] = new_solver_sums(1, lives[i], sum_lives[i]);
    uint64_t rng = 2025;
    unsigned checked = 0;
    for (unsigned trial = 0; trial < 500; trial++) {
        unsigned n = 3 + trial % 4;
        sp_tok key[SP_KEY_MAX];
        size_t len = sp_random_game(ctx, n, 1 + (unsigned)(sp_rng_next(&rng) % (2 * n)), &rng, key);
        if (sp_key_lives(key, len) > 11)
            continue; /* the reference is exponential */
        sp_outcome ref = sp_ref_outcome(ctx, key, len, SP_PLAY_MISERE);
        ck_assert_int_ne(ref, SP_UNKNOWN);
        for (unsigned i = 0; i < 4; i++)
            ck_assert_msg(sp_solver_outcome(s[i], key, len, SP_PLAY_MISERE) == ref, "trial %u, lives %d", trial,
                          lives[i]);
        ck_assert_int_eq(sp_solver_outcome(two, key, len, SP_PLAY_MISERE), ref);
        ck_assert_int_eq(sp_solver_outcome(two_plain, key, len, SP_PLAY_MISERE), ref);
        checked++;
    }
    for (unsigned i = 0; i < 4; i++)
        sp_solver_free(s[i]);
    sp_solver_free(two);
    sp_solver_free(two_plain);
    ck_assert_uint_ge(checked, 300);
}
END_TEST

static void add_case(Suite *s, const char *name, const TTest *tt)
{
    sp_test_add_case(s, name, tt, setup, teardown, 240);
}

int main(int argc, char **argv)
{
    Suite *s = suite_create("misere");
    add_case(s, "small games by hand", small_games_by_hand);
    add_case(s, "Conway's counts", conway_counts);
    add_case(s, "misere Nim", misere_nim);
    add_case(s, "table grows under threads", table_grows_under_threads);
    add_case(s, "simplification keeps outcomes", simplification_keeps_outcomes);
    add_case(s, "full table", full_table_refuses);
    add_case(s, "option lists", option_lists_round_trip);
    add_case(s, "full memo", full_memo_is_emptied);
    add_case(s, "land store", land_store_values);
    add_case(s, "land store positions", land_store_positions);
    add_case(s, "published one thread", published_one_thread);
    add_case(s, "published two threads", published_two_threads);
    add_case(s, "published plain search", published_plain_search);
    add_case(s, "published small values", published_small_values);
    add_case(s, "full table falls back", full_table_falls_back);
    add_case(s, "full memo under threads", full_memo_emptied_under_threads);
    add_case(s, "Lemoine's pair", lemoine_pair);
    add_case(s, "no move", no_move_is_a_win);
    add_case(s, "known in the caller's form", known_in_the_callers_form);
    add_case(s, "SPOTS misere outcomes", spots_misere_outcomes);
    add_case(s, "reference", agrees_with_reference);
    return sp_test_main(s, argc, argv);
}
