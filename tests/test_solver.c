/* test_solver.c: the solver against the literature, against the slow reference solver, and against
 * the Sprague-Grundy theory; results must not depend on the number of threads. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "expand.h"
#include "landcache.h"
#include "nimstore.h"
#include "random.h"
#include "reference.h"
#include "rng.h"
#include "solver.h"
#include "engine.h"
#include "team.h"
#include "testpos.h"
#include "testutil.h"
#include "tt.h"

static sp_canon_ctx *ctx;

static void setup(void) { ctx = sp_canon_ctx_new(); }
static void teardown(void) { sp_canon_ctx_free(ctx); }

static sp_solver *new_solver(unsigned threads)
{
    sp_solver_opts o = {.tt_bytes = (size_t)64 << 20, .threads = threads};
    sp_solver *s = sp_solver_new(&o);
    ck_assert_ptr_nonnull(s);
    return s;
}

static size_t spots(unsigned n, sp_tok *key)
{
    sp_pos p;
    sp_pos_spots(&p, n);
    return sp_canon_pos(ctx, &p, key);
}

/* Applegate, Jacobson and Sleator (1991) for n <= 11; Lemoine and Viennot (2015) beyond:
 * the first player loses 0*n for n = 1, 2, 6, 7, 8, 12, 13, 14 and wins for 3, 4, 5, 9, 10, 11. */
static const char normal_outcomes[] = "LLWWWLLLWWWLLLWW";

static void check_published(unsigned threads, unsigned upto)
{
    sp_solver *s = new_solver(threads);
    for (unsigned n = 1; n <= upto; n++) {
        sp_tok key[SP_KEY_MAX];
        size_t len = spots(n, key);
        sp_outcome o = sp_solver_outcome(s, key, len, SP_PLAY_NORMAL);
        ck_assert_msg(o == (normal_outcomes[n - 1] == 'W' ? SP_WIN : SP_LOSS), "0*%u with %u threads", n, threads);
    }
    sp_solver_free(s);
}

START_TEST(published_normal_outcomes_one_thread) { check_published(1, 10); }
END_TEST

START_TEST(published_normal_outcomes_two_threads) { check_published(2, 10); }
END_TEST

/* The threads share out the moves of each expansion and join the children in move order: in normal
 * play the search is the same node for node (and proves the same nimbers) whatever their number. (Not
 * in misère play, where land values are stored by whichever thread meets a land first: there the
 * node counts vary a little with the threads, the outcomes do not.) */
START_TEST(node_for_node_whatever_the_threads)
{
    sp_solver *one = new_solver(1), *three = new_solver(3);
    for (unsigned n = 1; n <= 11; n++) {
        sp_tok key[SP_KEY_MAX];
        size_t len = spots(n, key);
        ck_assert_int_eq(sp_solver_nimber(one, key, len), sp_solver_nimber(three, key, len));
        sp_solver_stats a, b;
        sp_solver_stats_get(one, &a);
        sp_solver_stats_get(three, &b);
        ck_assert_msg(a.nodes == b.nodes, "0*%u: %llu nodes on one thread, %llu on three", n,
                      (unsigned long long)a.nodes, (unsigned long long)b.nodes);
    }
    sp_solver_free(one);
    sp_solver_free(three);
}
END_TEST

/* The root's children, as the progress lines count them: a loss refutes every first move, a win
 * leaves at least one standing (the winning one); the root's numbers as they give them are those of
 * the outcome (pn 0 for a win, dn 0 for a loss); both plays, a fresh solver for each size so that
 * the root is expanded (from 0*5 on neither play decides it without search). */
START_TEST(root_moves_count_the_refuted)
{
    for (int misere = 0; misere < 2; misere++)
        for (unsigned n = 5; n <= 11; n++) {
            sp_solver *s = new_solver(1);
            sp_tok key[SP_KEY_MAX];
            size_t len = spots(n, key);
            sp_outcome o = sp_solver_outcome(s, key, len, misere ? SP_PLAY_MISERE : SP_PLAY_NORMAL);
            sp_solver_stats st;
            sp_solver_stats_get(s, &st);
            ck_assert_msg(st.root_moves > 0, "0*%u misere %d: root not expanded", n, misere);
            if (o == SP_LOSS)
                ck_assert_msg(st.root_refuted == st.root_moves && st.root_dn == 0 && st.root_pn > 0,
                              "0*%u misere %d: a loss with %u of %u refuted, pn %u dn %u", n, misere, st.root_refuted,
                              st.root_moves, st.root_pn, st.root_dn);
            else
                ck_assert_msg(o == SP_WIN && st.root_refuted < st.root_moves && st.root_pn == 0 && st.root_dn > 0,
                              "0*%u misere %d: a win with %u of %u refuted, pn %u dn %u", n, misere, st.root_refuted,
                              st.root_moves, st.root_pn, st.root_dn);
            sp_solver_free(s);
        }
}
END_TEST

/* Lemoine and Viennot, "Nimbers are inevitable" (2012): the nimber of 0*n is 0 for n mod 6 in
 * {0, 1, 2} and 1 otherwise, for every n they computed; here n = 1..9. */
START_TEST(nimbers_of_the_start)
{
    sp_solver *s = new_solver(1);
    for (unsigned n = 1; n <= 9; n++) {
        sp_tok key[SP_KEY_MAX];
        size_t len = spots(n, key);
        int want = n % 6 <= 2 ? 0 : 1;
        ck_assert_int_eq(sp_solver_nimber(s, key, len), want);
    }
    sp_solver_free(s);
}
END_TEST

static void check_spots_nimber(void *arg, const char *pos, const sp_tok *key, size_t len, int nimber)
{
    sp_solver *s = arg;
    ck_assert_msg(sp_solver_nimber(s, key, len) == nimber, "%s: expected nimber %d", pos, nimber);
    sp_outcome o = sp_solver_outcome(s, key, len, SP_PLAY_NORMAL);
    ck_assert_msg(o == (nimber ? SP_WIN : SP_LOSS), "%s: outcome", pos);
}

/* SPOTS (Cizek, Balko, Schmid 2025) nimbers of 60 positions from random games of 0*3..0*10. */
START_TEST(spots_reference_nimbers)
{
    sp_solver *s = new_solver(1);
    ck_assert_int_eq(sp_test_spots_nimbers(ctx, check_spots_nimber, s), 60);
    sp_solver_free(s);
}
END_TEST

/* A position from a random game of 0*n: each move a uniformly random distinct child. */
static size_t random_position(unsigned n, unsigned moves, uint64_t *rng, sp_tok *key)
{
    return sp_random_game(ctx, n, moves, rng, key);
}

/* The fast solver (df-pn, couples, nimber store, transposition table) against plain recursion over
 * whole positions, on positions from random games of 0*3..0*6. */
START_TEST(agrees_with_reference)
{
    uint64_t rng = 2024;
    sp_solver *s = new_solver(1);
    unsigned checked = 0;
    for (unsigned trial = 0; trial < 600; trial++) {
        unsigned n = 3 + trial % 4;
        sp_tok key[SP_KEY_MAX];
        size_t len = random_position(n, 1 + (unsigned)(sp_rng_next(&rng) % (2 * n)), &rng, key);
        if (sp_key_lives(key, len) > 12)
            continue; /* the reference is exponential */
        int ref = sp_ref_nimber(ctx, key, len);
        ck_assert_int_ge(ref, 0);
        ck_assert_int_eq(sp_solver_nimber(s, key, len), ref);
        sp_outcome o = sp_solver_outcome(s, key, len, SP_PLAY_NORMAL);
        ck_assert_int_eq(o, ref ? SP_WIN : SP_LOSS);
        ck_assert_int_eq(sp_ref_outcome(ctx, key, len, SP_PLAY_NORMAL), o);
        checked++;
    }
    sp_solver_free(s);
    ck_assert_uint_ge(checked, 300);
}
END_TEST

/* Sprague-Grundy: the nimber of a sum of independent lands is the XOR of their nimbers; checked on
 * sums of two and three random lands, each solved alone by the reference. */
START_TEST(sums_are_xors)
{
    uint64_t rng = 77;
    sp_solver *s = new_solver(1);
    unsigned checked = 0;
    for (unsigned trial = 0; trial < 60; trial++) {
        sp_tok parts[3][SP_KEY_MAX];
        size_t plen[3];
        unsigned nparts = 2 + trial % 2, lives = 0;
        int want = 0;
        for (unsigned i = 0; i < nparts; i++) {
            do /* small parts: the reference solves the sum as one position, a product of their games */
                plen[i] = random_position(2 + (unsigned)(sp_rng_next(&rng) % 3), 1 + (unsigned)(sp_rng_next(&rng) % 6),
                                          &rng, parts[i]);
            while (sp_key_lives(parts[i], plen[i]) > 12 / nparts || plen[i] == 0);
            lives += sp_key_lives(parts[i], plen[i]);
            want ^= sp_ref_nimber(ctx, parts[i], plen[i]);
        }
        ck_assert_uint_le(lives, 12);
        /* the sum as one position: concatenate, then canonicalise through the parser's path */
        sp_pos sum, piece;
        sp_pos_clear(&sum);
        for (unsigned i = 0; i < nparts; i++) {
            ck_assert_int_eq(sp_key_decode(parts[i], plen[i], &piece), 0);
            for (unsigned l = 0; l < piece.nland; l++) {
                /* append land l of piece with its letters renumbered past the sum's */
                for (unsigned r = sp_pos_lstart(&piece, l); r < piece.lend[l]; r++) {
                    for (unsigned b = sp_pos_rstart(&piece, r); b < piece.rend[r]; b++) {
                        for (unsigned k = sp_pos_bstart(&piece, b); k < piece.bend[b]; k++) {
                            unsigned sy = piece.sym[k];
                            sum.sym[sum.nsym++] = (uint16_t)(sp_sym_is_letter(sy) ? sy + sum.nletter : sy);
                        }
                        sum.bend[sum.nbnd++] = sum.nsym;
                    }
                    sum.zeros[sum.nreg] = piece.zeros[r];
                    sum.rend[sum.nreg++] = sum.nbnd;
                }
                sum.lend[sum.nland++] = sum.nreg;
            }
            sum.nletter = (uint16_t)(sum.nletter + piece.nletter);
        }
        sp_tok key[SP_KEY_MAX];
        size_t len = sp_pos_key(ctx, &sum, key);
        ck_assert_int_eq(sp_solver_nimber(s, key, len), want);
        ck_assert_int_eq(sp_ref_nimber(ctx, key, len), want);
        checked++;
    }
    sp_solver_free(s);
    ck_assert_uint_eq(checked, 60);
}
END_TEST

/* What the solver knows without search is right, and found as the search stores it: after the
 * nimber of a position from a random game of 0*4..0*6, every child beside a heap of 0..3 that the
 * table says anything of agrees with the reference, and a child of several lands whose nimbers are
 * all stored is known outright (the search folds such lands into the heap and never stores the
 * child itself). */
START_TEST(known_folds_stored_nimbers)
{
    uint64_t rng = 99;
    sp_solver *s = new_solver(1);
    sp_children ch = {0};
    unsigned known = 0, outright = 0;
    for (unsigned trial = 0; trial < 40; trial++) {
        unsigned n = 4 + trial % 3;
        sp_tok key[SP_KEY_MAX];
        size_t len = random_position(n, 1 + (unsigned)(sp_rng_next(&rng) % n), &rng, key);
        if (sp_key_lives(key, len) > 12)
            continue; /* the reference is exponential */
        ck_assert_int_ge(sp_solver_nimber(s, key, len), 0);
        ck_assert_int_eq(sp_expand_pos(ctx, NULL, key, len, &ch), 0);
        for (size_t i = 0; i < ch.n; i++) {
            const sp_tok *c = ch.tok + ch.off[i];
            uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
            unsigned nl = sp_key_lands(c, ch.len[i], off, lens, SP_MAX_LANDS), stored = 0;
            for (unsigned l = 0; l < nl; l++)
                stored += sp_solver_known_nimber(s, c + off[l], lens[l]) >= 0;
            int g = sp_ref_nimber(ctx, c, ch.len[i]);
            for (uint32_t k = 0; k < 4; k++) {
                sp_outcome o = sp_solver_known(s, c, ch.len[i], k, SP_PLAY_NORMAL);
                if (o != SP_UNKNOWN)
                    ck_assert_int_eq(o, g == (int)k ? SP_LOSS : SP_WIN);
                known += o != SP_UNKNOWN;
                if (stored == nl && nl > 1) {
                    ck_assert_int_ne(o, SP_UNKNOWN);
                    outright++;
                }
            }
        }
    }
    ck_assert_uint_gt(outright, 0);
    ck_assert_uint_gt(known, outright);
    sp_children_free(&ch);
    sp_solver_free(s);
}
END_TEST

/* The note each team member keeps of the children it made ready: found again in the same round with
 * its move, never in another round, and a full neighbourhood drops a note rather than overwrite one
 * of the round (a dropped note only costs a child prepared twice; an overwritten one could hide a
 * child from the frame). */
START_TEST(team_notes_per_round)
{
    sp_team_seen *s = sp_team_seen_new();
    ck_assert_ptr_nonnull(s);
    uint64_t h[2] = {12345, 678}, other[2] = {12345, 679};
    uint32_t move;
    ck_assert(!sp_team_seen_get(s, 5, h, &move));
    sp_team_seen_put(s, 5, h, 7);
    ck_assert(sp_team_seen_get(s, 5, h, &move));
    ck_assert_uint_eq(move, 7);
    ck_assert(!sp_team_seen_get(s, 6, h, &move));
    ck_assert(!sp_team_seen_get(s, 5, other, &move)); /* the same slot, another hash */
    for (uint32_t i = 0; i < 20; i++) {
        uint64_t near[2] = {12345 + i % 3, 1000 + i};
        sp_team_seen_put(s, 5, near, 100 + i);
    }
    ck_assert(sp_team_seen_get(s, 5, h, &move));
    ck_assert_uint_eq(move, 7);
    unsigned kept = 0;
    for (uint32_t i = 0; i < 20; i++) {
        uint64_t near[2] = {12345 + i % 3, 1000 + i};
        if (sp_team_seen_get(s, 5, near, &move)) {
            ck_assert_uint_eq(move, 100 + i);
            kept++;
        }
    }
    ck_assert_uint_gt(kept, 0);
    ck_assert_uint_lt(kept, 20);
    sp_team_seen_put(s, 6, h, 3); /* the next round reuses the slots */
    ck_assert(sp_team_seen_get(s, 6, h, &move));
    ck_assert_uint_eq(move, 3);
    sp_team_seen_free(s);
}
END_TEST

/* df-pn gives the child it searches next thresholds above the child's own numbers, also where the
 * numbers saturate (SP_PN_INF - 1): a threshold equal to the number sent the child back at once,
 * again and again. */
START_TEST(child_thresholds_move)
{
    uint32_t tp, td, sat = SP_PN_INF - 1;
    /* plain: 1+epsilon over the second best, and what the node has left below its other threshold */
    sp_engine_child_thresholds(100, 200, 50, 40, 3, 30, &tp, &td);
    ck_assert_uint_eq(td, 51);
    ck_assert_uint_eq(tp, 153);
    sp_engine_child_thresholds(45, 200, 50, 40, 3, 30, &tp, &td); /* the node's own is tighter */
    ck_assert_uint_eq(td, 45);
    /* saturated: the child and its best sibling, under the root's thresholds */
    sp_engine_child_thresholds(SP_PN_INF, SP_PN_INF, 7, sat, 1, sat, &tp, &td);
    ck_assert_uint_gt(td, sat);
    sp_engine_child_thresholds(SP_PN_INF, 10, 5, 8, sat, 6, &tp, &td);
    ck_assert_uint_gt(tp, sat);
    ck_assert_uint_eq(td, 11);
}
END_TEST

/* A sum settles its part with thresholds above the part's numbers, also where the sum's numbers
 * saturate short of its own thresholds (the part then came back at once, again and again). */
START_TEST(part_thresholds_move)
{
    uint32_t pn, dn, tp, td, sat = SP_PN_INF - 1;
    const uint32_t rest[2] = {2, 40}, more[2] = {1, 5};
    ck_assert(sp_engine_part_thresholds(10, 30, rest, 100, 200, &pn, &dn, &tp, &td));
    ck_assert_uint_eq(pn, 12); /* the part's cheaper side, plus what comes after it */
    ck_assert_uint_eq(dn, 50);
    ck_assert_uint_eq(tp, 98); /* until min(pn, dn) of the part reaches 100 - 2 */
    ck_assert_uint_eq(td, 98);
    ck_assert(!sp_engine_part_thresholds(10, 30, rest, 12, 200, &pn, &dn, &tp, &td)); /* at its threshold */
    ck_assert(sp_engine_part_thresholds(sat, sat, more, SP_PN_INF, SP_PN_INF, &pn, &dn, &tp, &td));
    ck_assert_uint_gt(tp, sat);
    ck_assert_uint_gt(td, sat);
}
END_TEST

/* A thread that makes the new part present while the table doubles (sp_tt_help_grow, as an idle
 * helper does) changes no entry: every entry stored while the table grew from its first part to its
 * whole budget is found. */
typedef struct grow_helper {
    sp_tt *tt;
    atomic_bool done;
} grow_helper;

static void *help_grow_until_done(void *arg)
{
    grow_helper *g = arg;
    while (!atomic_load(&g->done))
        sp_tt_help_grow(g->tt);
    return NULL;
}

START_TEST(tt_growth_helped_keeps_entries)
{
    grow_helper g = {sp_tt_new((size_t)64 << 20), false};
    ck_assert_ptr_nonnull(g.tt);
    pthread_t tid;
    ck_assert_int_eq(pthread_create(&tid, NULL, help_grow_until_done, &g), 0);
    uint64_t rng = 11, n = sp_tt_capacity(g.tt) / 2, found = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k[2] = {sp_rng_next(&rng), sp_rng_next(&rng)};
        sp_tt_store(g.tt, k, &(sp_tt_entry){1, (uint32_t)i, 1});
    }
    atomic_store(&g.done, true);
    pthread_join(tid, NULL);
    rng = 11;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k[2] = {sp_rng_next(&rng), sp_rng_next(&rng)};
        sp_tt_entry e;
        if (sp_tt_probe(g.tt, k, &e) && e.dn == (uint32_t)i)
            found++;
    }
    ck_assert_uint_eq(sp_tt_used_bytes(g.tt), sp_tt_bytes(g.tt)); /* the 16 MiB first part doubled twice */
    ck_assert_uint_eq(found, n);
    sp_tt_free(g.tt);
}
END_TEST

/* The table grows its part in use as it fills, keeps every entry when it does, and replaces one only
 * once its whole budget is in use. */
START_TEST(tt_keeps_entries_as_it_grows)
{
    sp_tt *tt = sp_tt_new((size_t)64 << 20);
    ck_assert_ptr_nonnull(tt);
    uint64_t rng = 7;
    enum { N = 5000 };
    static uint64_t h[N][2];
    for (unsigned i = 0; i < N; i++) {
        h[i][0] = sp_rng_next(&rng);
        h[i][1] = sp_rng_next(&rng);
        sp_tt_store(tt, h[i], &(sp_tt_entry){i % 7, i, i});
    }
    for (int g = 0; g < 3; g++) {
        sp_tt_grow(tt);
        for (unsigned i = 0; i < N; i++) {
            sp_tt_entry e;
            ck_assert_msg(sp_tt_probe(tt, h[i], &e), "entry %u lost after growth %d", i, g);
            ck_assert_uint_eq(e.pn, i % 7);
            ck_assert_uint_eq(e.dn, i);
            ck_assert_uint_eq(e.work, i);
        }
    }
    sp_tt_free(tt);
    /* filled to half its budget (64 MiB: 3,145,728 entries) from a first part of 16 MiB, it doubles by
     * itself and keeps every entry: an entry goes to the emptier of two pairs, so no place is full
     * long before the table is (with one pair per entry, the part in use doubled at a fill of 6-12%,
     * and 21,000 of these entries were lost once the whole budget was in use) */
    tt = sp_tt_new((size_t)64 << 20);
    ck_assert_ptr_nonnull(tt);
    uint64_t capacity = sp_tt_capacity(tt), start = rng, found = 0, n = capacity / 2;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k[2] = {sp_rng_next(&rng), sp_rng_next(&rng)};
        sp_tt_store(tt, k, &(sp_tt_entry){1, 1, 1});
    }
    ck_assert_uint_eq(sp_tt_used_bytes(tt), sp_tt_bytes(tt));
    rng = start;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k[2] = {sp_rng_next(&rng), sp_rng_next(&rng)};
        sp_tt_entry e;
        found += sp_tt_probe(tt, k, &e);
    }
    ck_assert_uint_eq(found, n);
    /* as many entries in all as it has ways: it replaces some now, holds what it counts (probes find
     * every entry in either pair) and nearly its capacity: 94% (with one pair per entry, about 84%) */
    for (uint64_t i = n; i < capacity; i++) {
        uint64_t k[2] = {sp_rng_next(&rng), sp_rng_next(&rng)};
        sp_tt_store(tt, k, &(sp_tt_entry){1, 1, 1});
    }
    rng = start, found = 0;
    for (uint64_t i = 0; i < capacity; i++) {
        uint64_t k[2] = {sp_rng_next(&rng), sp_rng_next(&rng)};
        sp_tt_entry e;
        found += sp_tt_probe(tt, k, &e);
    }
    ck_assert_uint_eq(found, sp_tt_filled(tt));
    ck_assert_uint_lt(found, capacity);
    ck_assert_uint_gt(found, capacity / 100 * 90);
    sp_tt_free(tt);
}
END_TEST

static unsigned numbered_value(uint32_t i)
{
    return (i * 2654435761u) % 100003u;
}

static bool put_numbered(sp_nimstore *ns, uint32_t i)
{
    sp_tok key[5];
    size_t len = sp_test_numbered_land(i, key);
    return sp_nimstore_put(ns, key, len, sp_key_hash64(key, len), numbered_value(i));
}

static int get_numbered(const sp_nimstore *ns, uint32_t i)
{
    sp_tok key[5];
    size_t len = sp_test_numbered_land(i, key);
    return sp_nimstore_get(ns, key, len, sp_key_hash64(key, len));
}

/* The nimber store doubles its slot table as it fills (4,096 slots at first, 65,536 at most in a
 * 4 MiB budget) and keeps every land when it does; at its limit it says it is full and still answers
 * right for every land it holds. */
START_TEST(nimstore_keeps_lands_as_it_grows)
{
    sp_nimstore *ns = sp_nimstore_new((size_t)4 << 20);
    ck_assert_ptr_nonnull(ns);
    size_t first = sp_nimstore_used_bytes(ns);
    enum { N = 30000 };
    for (uint32_t i = 0; i < N; i++) /* SP_CHECK in the loops: no mark per land */
        SP_CHECK(put_numbered(ns, i));
    ck_assert(!put_numbered(ns, 17)); /* there already */
    ck_assert_uint_eq(sp_nimstore_count(ns), N);
    ck_assert(!sp_nimstore_full(ns));
    ck_assert_uint_gt(sp_nimstore_used_bytes(ns), first + 15 * 65536); /* grown: 4096 -> 65,536 slots */
    ck_assert_uint_le(sp_nimstore_used_bytes(ns), sp_nimstore_bytes(ns));
    for (uint32_t i = 0; i < N; i++)
        SP_CHECK(get_numbered(ns, i) == (int)numbered_value(i));
    ck_assert_int_eq(get_numbered(ns, N), -1);
    uint32_t i = N;
    while (put_numbered(ns, i))
        i++;
    ck_assert(sp_nimstore_full(ns));
    ck_assert_uint_lt(i, 40000); /* a half-full table of 65,536 slots */
    for (uint32_t j = 0; j < i; j++)
        SP_CHECK(get_numbered(ns, j) == (int)numbered_value(j));
    ck_assert_int_eq(get_numbered(ns, i + 1), -1);
    ck_assert_uint_le(sp_nimstore_used_bytes(ns), sp_nimstore_bytes(ns));
    sp_nimstore_free(ns);
}
END_TEST

enum { STORE_THREADS = 4, STORE_LANDS = 24000 };

/* One of n threads that work on one table at once, starting together. */
typedef struct thread_job {
    void *table;
    unsigned id;
    pthread_barrier_t *start;
} thread_job;

static void run_together(void *table, unsigned n, void *(*fn)(void *))
{
    pthread_barrier_t start;
    pthread_t tid[8];
    thread_job job[8];
    ck_assert_uint_le(n, 8);
    ck_assert_int_eq(pthread_barrier_init(&start, NULL, n), 0);
    for (unsigned t = 0; t < n; t++) {
        job[t] = (thread_job){table, t, &start};
        ck_assert_int_eq(pthread_create(&tid[t], NULL, fn, &job[t]), 0);
    }
    for (unsigned t = 0; t < n; t++)
        pthread_join(tid[t], NULL);
    pthread_barrier_destroy(&start);
}

/* Each thread stores its quarter of the lands, then its neighbour's (which races that neighbour). */
static void *store_part(void *arg)
{
    thread_job *j = arg;
    pthread_barrier_wait(j->start);
    for (unsigned pass = 0; pass < 2; pass++) {
        uint32_t q = (j->id + pass) % STORE_THREADS;
        for (uint32_t i = q; i < STORE_LANDS; i += STORE_THREADS)
            put_numbered(j->table, i);
    }
    return NULL;
}

/* Threads storing at once while the table doubles (4,096 slots to 65,536) lose no land: an insert
 * that the copy into the larger table may have missed is made again there. */
START_TEST(nimstore_grows_under_threads)
{
    for (unsigned round = 0; round < 8; round++) {
        sp_nimstore *ns = sp_nimstore_new((size_t)4 << 20);
        ck_assert_ptr_nonnull(ns);
        run_together(ns, STORE_THREADS, store_part);
        ck_assert(!sp_nimstore_full(ns));
        for (uint32_t i = 0; i < STORE_LANDS; i++)
            ck_assert_msg(get_numbered(ns, i) == (int)numbered_value(i), "land %u lost in round %u", i, round);
        ck_assert_uint_ge(sp_nimstore_count(ns), STORE_LANDS);
        sp_nimstore_free(ns);
    }
}
END_TEST

/* The lands a window of the store's history holds, each counted in seen[] (numbered lands only). */
typedef struct window {
    uint8_t *seen;
    uint32_t n, count;
} window;

static int see_numbered(void *arg, const sp_tok *key, size_t len, unsigned value)
{
    window *w = arg;
    uint32_t i = sp_test_land_number(key, len);
    SP_CHECK(i < w->n); /* at every land of the store */
    SP_CHECK(value == numbered_value(i));
    w->seen[i]++;
    w->count++;
    return 0;
}

static uint32_t count_between(const sp_nimstore *ns, uint64_t from, uint64_t to, window *w)
{
    uint32_t before = w->count;
    ck_assert_int_eq(sp_nimstore_each(ns, from, to, see_numbered, w), 0);
    return w->count - before;
}

/* Marks split the store's history: a save from the last mark to a new one sees the lands stored
 * between them, and no other (a repeat stores nothing, and so adds nothing). */
START_TEST(nimstore_marks_split_history)
{
    sp_nimstore *ns = sp_nimstore_new((size_t)4 << 20);
    ck_assert_ptr_nonnull(ns);
    window w = {calloc(3000, 1), 3000, 0};
    ck_assert_uint_eq(sp_nimstore_mark(ns), 0);
    for (uint32_t i = 0; i < 1000; i++)
        ck_assert(put_numbered(ns, i));
    uint64_t m1 = sp_nimstore_mark(ns);
    for (uint32_t i = 1000; i < 3000; i++)
        ck_assert(put_numbered(ns, i));
    ck_assert(!put_numbered(ns, 5));
    uint64_t m2 = sp_nimstore_mark(ns);
    ck_assert_uint_gt(m2, m1);
    ck_assert_uint_eq(count_between(ns, 0, m1, &w), 1000);
    for (uint32_t i = 0; i < 3000; i++)
        ck_assert_uint_eq(w.seen[i], i < 1000);
    ck_assert_uint_eq(count_between(ns, m1, m2, &w), 2000);
    ck_assert_uint_eq(count_between(ns, m2, UINT64_MAX, &w), 0);
    ck_assert_uint_eq(count_between(ns, 0, UINT64_MAX, &w), 3000);
    for (uint32_t i = 0; i < 3000; i++)
        ck_assert_uint_eq(w.seen[i], 2);
    free(w.seen);
    sp_nimstore_free(ns);
}
END_TEST

static atomic_uint storers_done;

/* Thread 0 takes marks and reads each window while the others store (and race each other). */
static void *store_or_mark(void *arg)
{
    thread_job *j = arg;
    if (j->id) {
        store_part(arg);
        atomic_fetch_add(&storers_done, 1);
        return NULL;
    }
    window w = {calloc(STORE_LANDS, 1), STORE_LANDS, 0};
    pthread_barrier_wait(j->start);
    uint64_t last = 0;
    for (bool done = false; !done;) {
        done = atomic_load(&storers_done) == STORE_THREADS - 1; /* read before the mark: it covers them */
        uint64_t now = sp_nimstore_mark(j->table);
        count_between(j->table, last, now, &w);
        last = now;
    }
    for (uint32_t i = 0; i < STORE_LANDS; i++)
        ck_assert_msg(w.seen[i] == 1, "land %u seen %u times", i, w.seen[i]);
    free(w.seen);
    return NULL;
}

/* Saves taken while other threads store (and the table doubles) see every land once. */
START_TEST(nimstore_marks_under_threads)
{
    for (unsigned round = 0; round < 8; round++) {
        sp_nimstore *ns = sp_nimstore_new((size_t)4 << 20);
        ck_assert_ptr_nonnull(ns);
        atomic_store(&storers_done, 0);
        run_together(ns, STORE_THREADS, store_or_mark);
        sp_nimstore_free(ns);
    }
}
END_TEST

/* With its nimber store full the solver still answers: a land of a sum settled already, whose
 * nimber the store could not keep, is known from its proven couple in the transposition table
 * (before, the sum settled it again and again without end, as 0*51 did in the table run: this test
 * then failed by its time limit instead of taking about 2 s). */
START_TEST(full_nimber_store)
{
    sp_solver_opts o = {.tt_bytes = (size_t)64 << 20, .nim_bytes = (size_t)16 << 20, .threads = 1};
    sp_solver *s = sp_solver_new(&o);
    ck_assert_ptr_nonnull(s);
    sp_tok key[SP_KEY_MAX];
    uint32_t filled = 0;
    sp_solver_stats st;
    sp_solver_stats_get(s, &st);
    ck_assert(!st.nim_full);
    while (sp_solver_add_nimber(s, key, sp_test_numbered_land(filled, key), 0)) /* lands no game reaches */
        filled++;
    sp_solver_stats_get(s, &st);
    ck_assert_uint_eq(st.nimbers, filled);
    ck_assert(st.nim_full); /* and the reports say so */
    for (unsigned n = 9; n <= 13; n++) {
        size_t len = spots(n, key);
        sp_outcome out = sp_solver_outcome(s, key, len, SP_PLAY_NORMAL);
        ck_assert_msg(out == (normal_outcomes[n - 1] == 'W' ? SP_WIN : SP_LOSS), "0*%u", n);
    }
    sp_solver_stats_get(s, &st);
    ck_assert_uint_eq(st.nimbers, filled); /* none kept */
    sp_solver_free(s);
}
END_TEST

enum { TT_THREADS = 2, TT_KEYS = 1600000 };

static void tt_key(uint32_t i, uint64_t h[2])
{
    uint64_t rng = 0x9e3779b97f4a7c15u * (i + 1);
    h[0] = sp_rng_next(&rng);
    h[1] = sp_rng_next(&rng);
}

static void *tt_store_part(void *arg)
{
    thread_job *j = arg;
    pthread_barrier_wait(j->start);
    for (uint32_t i = j->id; i < TT_KEYS; i += TT_THREADS) {
        uint64_t h[2];
        tt_key(i, h);
        sp_tt_store(j->table, h, &(sp_tt_entry){1, i, 1});
    }
    return NULL;
}

/* Threads storing at once while the table doubles its part in use (16 MiB to at least 64 here) lose
 * no entry: a store that a doubling may have passed by is made again where probes look. Before, a
 * store into a bucket the doubling had already moved stayed where no probe would find it. The whole
 * budget (256 MiB, 12.6 M ways) is never in use, so nothing is replaced. */
START_TEST(tt_grows_under_threads)
{
    sp_tt *tt = sp_tt_new((size_t)256 << 20);
    ck_assert_ptr_nonnull(tt);
    run_together(tt, TT_THREADS, tt_store_part);
    ck_assert_uint_ge(sp_tt_used_bytes(tt), (size_t)64 << 20);
    ck_assert_uint_lt(sp_tt_used_bytes(tt), sp_tt_bytes(tt));
    uint64_t found = 0;
    for (uint32_t i = 0; i < TT_KEYS; i++) {
        uint64_t h[2];
        sp_tt_entry e;
        tt_key(i, h);
        found += sp_tt_probe(tt, h, &e) && e.dn == i;
    }
    ck_assert_msg(found == TT_KEYS, "%llu entries lost", (unsigned long long)(TT_KEYS - found));
    sp_tt_free(tt);
}
END_TEST

/* The land cache gives back exactly the list put, in its order; an entry is gone once the ring has
 * written over it (the first of many), and a repeat of two parts is cached once. */
static void same_list(const sp_lcache_entry *e, const sp_children *c)
{
    ck_assert_uint_eq(e->n, c->n);
    const sp_tok *tok = e->tok;
    for (size_t i = 0; i < c->n; tok += e->len[i++]) {
        ck_assert_uint_eq(e->len[i], c->len[i]);
        ck_assert(memcmp(tok, c->tok + c->off[i], c->len[i] * sizeof *tok) == 0);
    }
}

START_TEST(land_cache_ring)
{
    sp_lcache *lc = sp_lcache_new(64 << 10);
    ck_assert_ptr_nonnull(lc);
    sp_tok spots_key[SP_KEY_MAX];
    sp_children c;
    sp_children_init(&c);
    uint64_t rng = 3;
    unsigned hits = 0;
    for (unsigned game = 0; game < 400; game++) {
        sp_tok key[SP_KEY_MAX];
        size_t len = sp_random_game(ctx, 6 + game % 6, game % 9, &rng, key);
        uint32_t off[SP_MAX_LANDS], ll[SP_MAX_LANDS];
        unsigned nl = sp_key_lands(key, len, off, ll, SP_MAX_LANDS);
        for (unsigned l = 0; l < nl; l++) {
            uint64_t h[2];
            sp_lcache_entry e;
            ck_assert_int_eq(sp_expand_land(ctx, NULL, key + off[l], ll[l], &c), 0);
            sp_lcache_hash(key + off[l], ll[l], h);
            if (sp_lcache_get(lc, h, &e)) { /* cached before: the same list */
                same_list(&e, &c);
                hits++;
            }
            sp_children *twice[2] = {&c, &c};
            sp_lcache_put(lc, h, twice, game % 2 ? 2 : 1, SP_LCACHE_WHOLE);
            ck_assert(sp_lcache_get(lc, h, &e));
            same_list(&e, &c);
        }
    }
    ck_assert_uint_gt(hits, 0);
    sp_lcache_free(lc);
    /* one entry, then others in other slots of the index: it stays until the ring writes over it */
    lc = sp_lcache_new(64 << 10);
    sp_lcache_entry e;
    sp_lcache_stats st;
    sp_children *one[1] = {&c};
    uint64_t first[2] = {1, 2};
    ck_assert_int_eq(sp_expand_land(ctx, NULL, spots_key, spots(7, spots_key), &c), 0);
    sp_lcache_put(lc, first, one, 1, SP_LCACHE_WHOLE);
    for (uint64_t i = 0; i < 2000; i++) {
        uint64_t h[2] = {2 + i % 200, i};
        sp_lcache_put(lc, h, one, 1, SP_LCACHE_WHOLE);
        sp_lcache_get_stats(lc, &st);
        ck_assert(sp_lcache_get(lc, h, &e));
        if (st.used_bytes < st.bytes) /* the ring has not gone round yet */
            ck_assert(sp_lcache_get(lc, first, &e));
    }
    ck_assert(!sp_lcache_get(lc, first, &e)); /* ... and now it has, many times */
    ck_assert_uint_eq(st.used_bytes, st.bytes); /* the ring went round */
    ck_assert_uint_le(st.bytes, 64 << 10);
    sp_children_free(&c);
    sp_lcache_free(lc);
}
END_TEST

/* The cache spares making a land's children again, nothing else: the search is the same node for
 * node with a cache that can hold almost nothing, one or three threads. */
START_TEST(land_cache_changes_no_node)
{
    sp_solver_opts o = {.tt_bytes = (size_t)64 << 20, .threads = 1};
    sp_solver *big = sp_solver_new(&o);
    o.lcache_bytes = 16 << 10;
    sp_solver *tiny = sp_solver_new(&o);
    o.threads = 3;
    sp_solver *tiny3 = sp_solver_new(&o);
    ck_assert(big && tiny && tiny3);
    for (unsigned n = 1; n <= 11; n++) {
        sp_tok key[SP_KEY_MAX];
        size_t len = spots(n, key);
        int want = sp_solver_nimber(big, key, len);
        ck_assert_int_eq(sp_solver_nimber(tiny, key, len), want);
        ck_assert_int_eq(sp_solver_nimber(tiny3, key, len), want);
        sp_solver_stats a, b, c;
        sp_solver_stats_get(big, &a);
        sp_solver_stats_get(tiny, &b);
        sp_solver_stats_get(tiny3, &c);
        ck_assert_msg(a.nodes == b.nodes && a.nodes == c.nodes, "0*%u: %llu nodes, %llu with a tiny cache, %llu on three threads",
                      n, (unsigned long long)a.nodes, (unsigned long long)b.nodes, (unsigned long long)c.nodes);
        if (n == 11) /* the big cache served more expansions */
            ck_assert_uint_gt(a.lcache_hits, b.lcache_hits);
    }
    sp_solver_free(big);
    sp_solver_free(tiny);
    sp_solver_free(tiny3);
}
END_TEST

static atomic_bool call_over;

/* Interrupts the solver arg every 10 ms until call_over: a single interrupt sent before the call
 * began would be lost (a call that begins after it is not affected). */
static void *interrupt_until_over(void *arg)
{
    while (!atomic_load(&call_over)) {
        sp_solver_interrupt(arg);
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    }
    return NULL;
}

/* A search ends with SP_UNKNOWN soon after its time limit has passed, its stop flag is set or another
 * thread interrupts it, and the solver answers again once the limit is lifted or the flag cleared,
 * and at once after an interrupt; a limit that does not run out changes nothing, node for node. */
START_TEST(time_limit_and_stop_flag)
{
    atomic_bool stop = false;
    sp_solver_opts o = {.tt_bytes = (size_t)64 << 20, .threads = 2, .stop = &stop};
    sp_solver *s = sp_solver_new(&o), *plain = new_solver(2);
    ck_assert_ptr_nonnull(s);
    sp_tok big[SP_KEY_MAX], key[SP_KEY_MAX];
    size_t big_len = spots(30, big), len = spots(10, key);
    double t0 = sp_clock_now();
    sp_solver_set_time_limit(s, 0.05);
    ck_assert_int_eq(sp_solver_outcome(s, big, big_len, SP_PLAY_NORMAL), SP_UNKNOWN);
    ck_assert_double_lt(sp_clock_now() - t0, 30.0); /* a few thousand nodes past the limit at most */
    sp_solver_set_time_limit(s, 0);
    ck_assert_int_eq(sp_solver_outcome(s, key, len, SP_PLAY_NORMAL), SP_WIN);
    atomic_store(&stop, true);
    ck_assert_int_eq(sp_solver_outcome(s, big, big_len, SP_PLAY_NORMAL), SP_UNKNOWN);
    atomic_store(&stop, false);
    sp_tok other[SP_KEY_MAX];
    size_t other_len = spots(11, other);
    sp_solver_interrupt(s); /* before the call: no effect on it */
    ck_assert_int_eq(sp_solver_outcome(s, other, other_len, SP_PLAY_NORMAL), SP_WIN);
    pthread_t th;
    atomic_store(&call_over, false);
    ck_assert_int_eq(pthread_create(&th, NULL, interrupt_until_over, s), 0);
    ck_assert_int_eq(sp_solver_outcome(s, big, big_len, SP_PLAY_NORMAL), SP_UNKNOWN);
    atomic_store(&call_over, true);
    pthread_join(th, NULL);
    ck_assert_int_eq(sp_solver_nimber(s, other, other_len), 1);
    sp_solver_free(s);
    s = sp_solver_new(&o);
    sp_solver_set_time_limit(s, 1000);
    ck_assert_int_eq(sp_solver_nimber(s, key, len), sp_solver_nimber(plain, key, len));
    sp_solver_stats a, b;
    sp_solver_stats_get(s, &a);
    sp_solver_stats_get(plain, &b);
    ck_assert_uint_eq(a.nodes, b.nodes);
    sp_solver_free(s);
    sp_solver_free(plain);
}
END_TEST

static void add_case(Suite *s, const char *name, const TTest *t)
{
    sp_test_add_case(s, name, t, setup, teardown, 240);
}

int main(int argc, char **argv)
{
    Suite *s = suite_create("solver");
    add_case(s, "published one thread", published_normal_outcomes_one_thread);
    add_case(s, "published two threads", published_normal_outcomes_two_threads);
    add_case(s, "node for node", node_for_node_whatever_the_threads);
    add_case(s, "team notes", team_notes_per_round);
    add_case(s, "land cache ring", land_cache_ring);
    add_case(s, "land cache nodes", land_cache_changes_no_node);
    add_case(s, "time limit and stop", time_limit_and_stop_flag);
    add_case(s, "child thresholds", child_thresholds_move);
    add_case(s, "full nimber store", full_nimber_store);
    add_case(s, "part thresholds", part_thresholds_move);
    add_case(s, "tt growth", tt_keeps_entries_as_it_grows);
    add_case(s, "tt growth helped", tt_growth_helped_keeps_entries);
    add_case(s, "tt growth under threads", tt_grows_under_threads);
    add_case(s, "nimstore growth", nimstore_keeps_lands_as_it_grows);
    add_case(s, "nimstore threads", nimstore_grows_under_threads);
    add_case(s, "nimstore marks", nimstore_marks_split_history);
    add_case(s, "nimstore marks threads", nimstore_marks_under_threads);
    add_case(s, "nimbers of the start", nimbers_of_the_start);
    add_case(s, "spots nimbers", spots_reference_nimbers);
    add_case(s, "reference", agrees_with_reference);
    add_case(s, "sums", sums_are_xors);
    add_case(s, "known folds", known_folds_stored_nimbers);
    add_case(s, "root moves", root_moves_count_the_refuted);
    return sp_test_main(s, argc, argv);
}
