/* test_canon.c: the position model (canon/): parsing and printing, simplification, canonical keys,
 * move generation and the invariants of the game. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "canonical.h"
#include "expand.h"
#include "movegen.h"
#include "pos.h"
#include "random.h"
#include "rng.h"
#include "simplify.h"
#include "symmetry.h"
#include "testutil.h"

static sp_canon_ctx *ctx;

static void setup(void) { ctx = sp_canon_ctx_new(); }
static void teardown(void) { sp_canon_ctx_free(ctx); }

static void parse_ok(const char *s, sp_pos *p)
{
    sp_parse_error e;
    int rc = sp_pos_parse(s, p, &e);
    ck_assert_msg(rc == 0, "'%s' rejected at column %d: %s", s, e.column, e.message);
}

static const char *print2(const sp_pos *p, char *buf, size_t cap)
{
    ck_assert_uint_lt(sp_pos_print(p, SP_SYNTAX_V2, buf, cap), cap);
    return buf;
}

/* The canonical form of a string, printed in 2.x syntax. */
static const char *canon_str(const char *s, char *buf, size_t cap)
{
    sp_pos p, q;
    sp_tok key[SP_KEY_MAX];
    parse_ok(s, &p);
    size_t len = sp_pos_key(ctx, &p, key);
    ck_assert_int_eq(sp_key_decode(key, len, &q), 0);
    return print2(&q, buf, cap);
}

static size_t key_of(const char *s, sp_tok *key)
{
    sp_pos p;
    parse_ok(s, &p);
    return sp_pos_key(ctx, &p, key);
}

/* Reads the first column of a reference file (a position per line after the header). */
static int read_positions(const char *file, char lines[][128], int cap)
{
    char path[512], buf[512];
    snprintf(path, sizeof path, "%s/%s", SP_TEST_DATA_DIR, file);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    int n = 0;
    ck_assert_ptr_nonnull(fgets(buf, sizeof buf, f)); /* header */
    while (n < cap && fgets(buf, sizeof buf, f)) {
        char *tab = strchr(buf, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        snprintf(lines[n++], 128, "%.127s", buf);
    }
    fclose(f);
    return n;
}

/* ---------------------------------------------------------------- parse and print */

static const char *const model_examples[] = {
    "0*4", "0*2.1a1a", "0.1a1a.AB|AB", "0*22.1a1a.ABC.DE|0*9.DE|0*2.1abABCba", "1a1a", "0",
};

START_TEST(round_trip_model_examples)
{
    char buf[1024];
    sp_pos p;
    for (size_t i = 0; i < sizeof model_examples / sizeof *model_examples; i++) {
        parse_ok(model_examples[i], &p);
        ck_assert_str_eq(print2(&p, buf, sizeof buf), model_examples[i]);
    }
    /* Lemoine's pair, in GLOP 1.x syntax */
    const char *v1[] = {"1222A.12B.}2A.}2B.}]!", "1222A.B21.}2A.}2B.}]!"};
    for (int i = 0; i < 2; i++) {
        parse_ok(v1[i], &p);
        ck_assert_uint_lt(sp_pos_print(&p, SP_SYNTAX_V1, buf, sizeof buf), sizeof buf);
        ck_assert_str_eq(buf, v1[i]);
    }
    parse_ok("!", &p);
    ck_assert_uint_eq(p.nland, 0);
    ck_assert_str_eq(print2(&p, buf, sizeof buf), "!");
    parse_ok("0*3", &p);
    ck_assert_uint_lt(sp_pos_print(&p, SP_SYNTAX_V1, buf, sizeof buf), sizeof buf);
    ck_assert_str_eq(buf, "0.0.0.}]!");
    sp_pos q;
    parse_ok(buf, &q);
    ck_assert_uint_eq(q.zeros[0], 3);
}
END_TEST

START_TEST(round_trip_reference_positions)
{
    static char lines[128][128];
    char buf[1024];
    const char *files[] = {"spots-nimbers.tsv", "misere-outcomes.tsv"};
    for (int f = 0; f < 2; f++) {
        int n = read_positions(files[f], lines, 128);
        ck_assert_int_ge(n, 50);
        for (int i = 0; i < n; i++) {
            sp_pos p;
            parse_ok(lines[i], &p);
            ck_assert_ptr_null(sp_pos_check(&p));
            ck_assert_str_eq(print2(&p, buf, sizeof buf), lines[i]);
        }
    }
}
END_TEST

START_TEST(overflow_letters)
{
    sp_pos p;
    char buf[1024];
    /* 13 lower-case letters on one boundary: the 13th is written m(13) */
    const char *s = "1abcdefghijklm(13)m(13)lkjihgfedcba";
    parse_ok(s, &p);
    ck_assert_str_eq(print2(&p, buf, sizeof buf), s);
    /* 26 upper-case letters in one land: the 26th is Z(26) */
    char up[256] = "", down[256] = "";
    for (int i = 0; i < 25; i++) {
        size_t n = strlen(up);
        up[n] = (char)('A' + i), up[n + 1] = '\0';
        n = strlen(down);
        down[n] = (char)('A' + i), down[n + 1] = '\0';
    }
    strcat(up, "Z(26)");
    strcat(down, "Z(26)");
    char both[600];
    snprintf(both, sizeof both, "0.%s|%s", up, down);
    parse_ok(both, &p);
    ck_assert_str_eq(print2(&p, buf, sizeof buf), both);
}
END_TEST

/* Every class of malformed input is rejected with its column and a reason. */
START_TEST(malformed_input)
{
    static const struct {
        const char *text;
        int column;
        const char *reason;
    } bad[] = {
        {"", 1, "empty"},
        {"0*3x", 4, "unknown character"},
        {"1a", 2, "only once"},
        {"A|0", 1, "only once"},
        {"1aaa1", 4, "third time"},
        {"1a.1a", 5, "two boundaries"},
        {"AB.AB", 4, "two boundaries"},
        {"0..1", 3, "empty boundary"},
        {"0||1", 3, "empty region"},
        {"0++1", 3, "empty land"},
        {"10", 2, "by itself"},
        {"0*0", 1, "k >= 1"},
        {"0*99999", 3, "too large"},
        {"1m(3", 5, "unbalanced"},
        {"1Z(2", 5, "unbalanced"},
        {"1m3)", 3, "'('"},
        {"1Z(99999)", 4, "too large"},
        {"1a1a.}", 7, "'!'"},
        {"1a1a.}]!x", 9, "follow"},
        {"1a1a}]!", 5, "'.'"},
        {"1a1a.}|", 7, "2.x"},
        {"1a1a|}", 5, "1.x"},
        {"0!", 2, "'.'"},
        {"0!1", 2, "alone"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        sp_pos p;
        sp_parse_error e;
        ck_assert_msg(sp_pos_parse(bad[i].text, &p, &e) == -1, "'%s' accepted", bad[i].text);
        ck_assert_msg(e.column == bad[i].column, "'%s': column %d, expected %d (%s)", bad[i].text, e.column,
                      bad[i].column, e.message);
        ck_assert_msg(strstr(e.message, bad[i].reason), "'%s': '%s' lacks '%s'", bad[i].text, e.message,
                      bad[i].reason);
    }
    /* absurd sizes */
    size_t n = 3 * SP_MAX_SYMS;
    char *huge = malloc(n + 1);
    for (size_t i = 0; i < n; i++)
        huge[i] = i % 3 == 2 ? '.' : '1';
    huge[n] = '\0';
    sp_pos p;
    sp_parse_error e;
    ck_assert_int_eq(sp_pos_parse(huge, &p, &e), -1);
    ck_assert_ptr_nonnull(strstr(e.message, "too large"));
    free(huge);
}
END_TEST

/* ---------------------------------------------------------------- simplification */

START_TEST(simplification_rules)
{
    char buf[256];
    /* a dead region (1 life) disappears and its shared letter becomes '2' elsewhere */
    ck_assert_str_eq(canon_str("0.A|A", buf, sizeof buf), "0.2");
    /* a letter next to itself is one '2'; then 2 lives: the region's order no longer matters */
    ck_assert_str_eq(canon_str("1aa", buf, sizeof buf), "12");
    /* an upper-case letter twice on one boundary is lower case */
    ck_assert_str_eq(canon_str("0.1A1A", buf, sizeof buf), "0.1a1a");
    /* a region with 3 lives: one boundary, lower-case pairs become '2' */
    ck_assert_str_eq(canon_str("1a2a", buf, sizeof buf), "1a2a"); /* 4 lives: untouched */
    ck_assert_str_eq(canon_str("2a2a", buf, sizeof buf), "222");
    ck_assert_str_eq(canon_str("1.2", buf, sizeof buf), "12");
    /* nothing playable left: the empty position */
    ck_assert_str_eq(canon_str("2", buf, sizeof buf), "!");
    ck_assert_str_eq(canon_str("AA", buf, sizeof buf), "!");
    /* independent regions become lands */
    ck_assert_str_eq(canon_str("0|0", buf, sizeof buf), "0+0");
    ck_assert_str_eq(canon_str("0*22.1a1a.ABC.DE|0*9.DE|0*2.1abABCba", buf, sizeof buf),
                     "0*2.1abABCba|0*9.DE|0*22.DE.ABC.1a1a");
}
END_TEST

/* ---------------------------------------------------------------- children */

static void expect_children(const char *pos, const char *const *expected, size_t n)
{
    sp_tok key[SP_KEY_MAX];
    size_t len = key_of(pos, key);
    sp_children ch;
    sp_children_init(&ch);
    ck_assert_int_eq(sp_expand_pos(ctx, NULL, key, len, &ch), 0);
    ck_assert_msg(ch.n == n, "%s: %zu children, expected %zu", pos, ch.n, n);
    for (size_t i = 0; i < n; i++) {
        sp_tok want[SP_KEY_MAX];
        size_t wl = key_of(expected[i], want);
        bool found = false;
        for (size_t c = 0; c < ch.n && !found; c++)
            found = !sp_key_cmp(ch.tok + ch.off[c], ch.len[c], want, wl);
        ck_assert_msg(found, "%s: child %s missing", pos, expected[i]);
    }
    sp_children_free(&ch);
}

typedef struct first_children {
    sp_children seen;
    size_t stop_after;
} first_children;

static int note_until(void *arg, const sp_tok *key, size_t len, uint32_t move)
{
    first_children *f = arg;
    (void)move;
    sp_children_add(&f->seen, key, len);
    return f->seen.n >= f->stop_after;
}

/* The generator stops as soon as its hook says so: a hook that stops after k children of a position
 * of several lands (two of them equal) gets exactly k (the first k of sp_expand_pos()'s list, which
 * is built on it and checked by hand above) and a stop; one that never stops gets them all. */
START_TEST(position_children_stop_early)
{
    sp_tok key[SP_KEY_MAX];
    size_t len = key_of("0*3+0*2+0*2+0.AB|AB", key);
    sp_children all, scratch;
    sp_children_init(&all);
    sp_children_init(&scratch);
    ck_assert_int_eq(sp_expand_pos(ctx, NULL, key, len, &all), 0);
    ck_assert_uint_gt(all.n, 6);
    for (size_t k = 1; k <= all.n; k++) {
        first_children f = {.stop_after = k};
        sp_children_init(&f.seen);
        ck_assert_int_eq(sp_expand_pos_each(ctx, NULL, key, len, note_until, &f, &scratch), 1);
        ck_assert_uint_eq(f.seen.n, k);
        for (size_t i = 0; i < k; i++)
            ck_assert(!sp_key_cmp(f.seen.tok + f.seen.off[i], f.seen.len[i], all.tok + all.off[i], all.len[i]));
        sp_children_free(&f.seen);
    }
    first_children f = {.stop_after = all.n + 1};
    sp_children_init(&f.seen);
    ck_assert_int_eq(sp_expand_pos_each(ctx, NULL, key, len, note_until, &f, &scratch), 0);
    ck_assert_uint_eq(f.seen.n, all.n);
    sp_children_free(&f.seen);
    sp_children_free(&all);
    sp_children_free(&scratch);
}
END_TEST

/* Worked out by drawing (the same lists come out of SPOTS's move generator).
 * 0*1: the only move is a loop; inside and outside both see the old spot and the new one.
 * 0*2: a loop (the other spot inside or outside: the same on the sphere), or a curve between them.
 * 1a1a (a path s1-a-s2): a loop at an end kills it (1a2a); joining the ends encloses a, which is then
 *   seen from both sides (ABCD|ABCD); joining an end to a kills a and leaves 1AB|AB.
 * 0.AB|AB: A-B in the small region leaves a lone spot; A-B in the big one kills both and encloses the
 *   lone spot or not (0.2); the lone spot to A or B gives 1a2a; a loop at the lone spot splits the
 *   region around AB. */
START_TEST(children_by_hand)
{
    const char *one[] = {"AB|AB"};
    expect_children("0*1", one, 1);
    const char *two[] = {"1a1a", "0.AB|AB"};
    expect_children("0*2", two, 2);
    expect_children("0.0", two, 2); /* the model's first test: connecting 0.0 gives 1a1a */
    const char *three[] = {"0.1a1a", "0.AB|0.AB", "0*2.AB|AB"};
    expect_children("0*3", three, 3);
    const char *path[] = {"1AB|AB", "1a2a", "ABCD|ABCD"};
    expect_children("1a1a", path, 3);
    const char *enc[] = {"0", "0.2", "1a2a", "AB.CD|AB|CD"};
    expect_children("0.AB|AB", enc, 4);
    const char *none[] = {NULL};
    expect_children("!", none, 0);
    /* a sum of lands: a move in one land leaves the others as they are */
    const char *sum[] = {"0*2+AB|AB", "0+1a1a", "0+0.AB|AB"};
    expect_children("0+0*2", sum, 3);
}
END_TEST

/* ---------------------------------------------------------------- game invariants */

typedef struct walk {
    unsigned depth, lives;
    unsigned long long games, min_len, max_len, bad_lives;
} walk;

static void play_out(walk *w, const sp_pos *p);

static int visit(void *arg, sp_pos *child, uint32_t move)
{
    (void)move;
    walk *w = arg;
    unsigned lives = w->lives;
    w->bad_lives += sp_pos_lives(child) + 1 != lives;
    sp_pos c = *child;
    play_out(w, &c);
    w->lives = lives;
    return 0;
}

/* Plays every game to its end on unsimplified positions, without caching anything. */
static void play_out(walk *w, const sp_pos *p)
{
    unsigned long long before = w->games;
    w->lives = sp_pos_lives(p);
    w->depth++;
    SP_CHECK(sp_pos_moves(p, visit, w) == 0); /* at every node of every game */
    w->depth--;
    if (w->games == before) {
        w->games++;
        if (w->depth < w->min_len)
            w->min_len = w->depth;
        if (w->depth > w->max_len)
            w->max_len = w->depth;
    }
}

/* Every move uses two lives and adds one; a game from n spots lasts between 2n and 3n-1 moves
 * (Conway, Paterson; the pharisee argument for the lower bound), and both bounds are reached. */
START_TEST(every_game_of_up_to_three_spots)
{
    static const unsigned long long games[] = {0, 2, 296, 670030};
    for (unsigned n = 1; n <= 3; n++) {
        sp_pos p;
        ck_assert(sp_pos_spots(&p, n));
        walk w = {.min_len = ~0ull};
        play_out(&w, &p);
        ck_assert_uint_eq(w.bad_lives, 0);
        ck_assert_uint_eq(w.min_len, 2 * n);
        ck_assert_uint_eq(w.max_len, 3 * n - 1);
        /* regression guard on the raw move count (sp_pos_moves makes mirror-image loops once) */
        ck_assert_uint_eq(w.games, games[n]);
    }
}
END_TEST

/* ---------------------------------------------------------------- symmetries */

/* Positions from random games of 0*n: each step a uniformly random distinct child. */
static size_t random_position(unsigned n, unsigned moves, uint64_t *rng, sp_tok *key)
{
    return sp_random_game(ctx, n, moves, rng, key);
}

/* The lands of such a position: how many, with their offsets and lengths in key. */
static unsigned random_lands(unsigned n, unsigned max_moves, uint64_t *rng, sp_tok *key, uint32_t *off,
                             uint32_t *lens)
{
    size_t len = random_position(n, (unsigned)(sp_rng_next(rng) % max_moves), rng, key);
    return sp_key_lands(key, len, off, lens, SP_MAX_LANDS);
}

/* The lands of random positions of 0*5..0*10, one after the other; trial: the position's number. */
typedef struct land_walk {
    uint64_t rng;
    unsigned trial, next, trials, l, nl;
    sp_tok key[SP_KEY_MAX];
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
} land_walk;

static bool next_land(land_walk *w, const sp_tok **land, uint32_t *len)
{
    while (w->l == w->nl) {
        if (w->next == w->trials)
            return false;
        w->trial = w->next++;
        w->nl = random_lands(5 + w->trial % 6, 8, &w->rng, w->key, w->off, w->lens);
        w->l = 0;
    }
    *land = w->key + w->off[w->l];
    *len = w->lens[w->l++];
    return true;
}

/* A position's lands dealt into two keys (every other land) merge back into the position, in
 * either order; merged with nothing, a key is itself; a land dropped merges back in. */
START_TEST(merging_lands_gives_the_position)
{
    uint64_t rng = 777;
    unsigned tested = 0;
    for (unsigned trial = 0; trial < 300; trial++) {
        sp_tok key[SP_KEY_MAX], part[2][SP_KEY_MAX], out[2 * SP_KEY_MAX];
        uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
        size_t plen[2] = {0, 0};
        unsigned nl = random_lands(5 + trial % 8, 12, &rng, key, off, lens);
        size_t len = nl ? off[nl - 1] + lens[nl - 1] : 0;
        for (unsigned l = 0; l < nl; l++) {
            memcpy(part[l % 2] + plen[l % 2], key + off[l], lens[l] * sizeof *key);
            plen[l % 2] += lens[l];
        }
        ck_assert_uint_eq(sp_key_merge(part[0], plen[0], part[1], plen[1], out), len);
        ck_assert(!sp_key_cmp(out, len, key, len));
        ck_assert_uint_eq(sp_key_merge(part[1], plen[1], part[0], plen[0], out), len);
        ck_assert(!sp_key_cmp(out, len, key, len));
        ck_assert_uint_eq(sp_key_merge(key, len, NULL, 0, out), len);
        ck_assert(!sp_key_cmp(out, len, key, len));
        unsigned l = nl ? trial % nl : 0; /* a land dropped, then merged back */
        sp_tok rest[SP_KEY_MAX];
        size_t rl = nl ? sp_key_drop_land(key, len, off[l], lens[l], rest) : 0;
        ck_assert_uint_eq(rl + (nl ? lens[l] : 0), len);
        ck_assert_uint_eq(sp_key_merge(rest, rl, key + (nl ? off[l] : 0), nl ? lens[l] : 0, out), len);
        ck_assert(!sp_key_cmp(out, len, key, len));
        tested += nl >= 3;
    }
    ck_assert_uint_ge(tested, 30);
}
END_TEST

START_TEST(canonical_form_is_invariant)
{
    uint64_t rng = 12345;
    unsigned tested = 0, skipped = 0;
    for (unsigned trial = 0; trial < 400; trial++) {
        sp_tok key[SP_KEY_MAX], key2[SP_KEY_MAX];
        unsigned n = 3 + trial % 10;
        size_t len = random_position(n, (unsigned)(sp_rng_next(&rng) % (2 * n + 1)), &rng, key);
        sp_pos p, q;
        ck_assert_int_eq(sp_key_decode(key, len, &p), 0);
        uint64_t inexact = sp_canon_ctx_inexact(ctx);
        sp_canon_pos(ctx, &p, key2);
        if (sp_canon_ctx_inexact(ctx) != inexact) {
            skipped++; /* beyond the search's cap the key is faithful but need not be least */
            continue;
        }
        for (int rep = 0; rep < 4; rep++) {
            sp_sym_random_image(&p, &q, &rng);
            ck_assert_ptr_null(sp_pos_check(&q));
            size_t len2 = sp_canon_pos(ctx, &q, key2);
            char a[2048], b[2048];
            ck_assert_msg(!sp_key_cmp(key, len, key2, len2), "%s vs image %s", print2(&p, a, sizeof a),
                          print2(&q, b, sizeof b));
            tested++;
        }
        /* the key is a fixed point, and printing then parsing gives the key back */
        char text[4096];
        print2(&p, text, sizeof text);
        size_t len3 = key_of(text, key2);
        ck_assert(!sp_key_cmp(key, len, key2, len3));
    }
    ck_assert_uint_le(skipped, 4);
    ck_assert_uint_ge(tested, 1500);
}
END_TEST

/* Reversing one boundary alone is not a symmetry: Lemoine's misère pair stays two positions. */
START_TEST(single_boundary_reversal_is_not_a_symmetry)
{
    sp_tok a[SP_KEY_MAX], b[SP_KEY_MAX];
    size_t la = key_of("1222A.12B.}2A.}2B.}]!", a);
    size_t lb = key_of("1222A.B21.}2A.}2B.}]!", b);
    ck_assert(sp_key_cmp(a, la, b, lb) != 0);
    /* while reversing both boundaries of that region together is one */
    size_t lc = key_of("A2221.B21.}2A.}2B.}]!", b);
    ck_assert(sp_key_cmp(a, la, b, lc) == 0);
}
END_TEST

/* Regions with equal local forms, letters shared in symmetric patterns: the search over automorphisms
 * must still give one key to every relabelling. */
START_TEST(symmetric_lands)
{
    const char *const same[][2] = {
        {"AB|CD|EF|AB.CD.GH|EFGH", "EF|AB|CD|GH.AB.CD|HGFE"},
        {"AB|CD|AB.CD", "CD|AB|DC.BA"},
        {"ABCD|ABCD", "DCBA|BCDA"},
        {"0.AB|0.AB", "0.BA|0.AB"},
        {"1AB|CD|0.AB.CD", "1DC|AB|0.BA.DC"},
    };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
        sp_tok a[SP_KEY_MAX], b[SP_KEY_MAX];
        size_t la = key_of(same[i][0], a), lb = key_of(same[i][1], b);
        ck_assert_msg(!sp_key_cmp(a, la, b, lb), "%s and %s differ", same[i][0], same[i][1]);
    }
    /* and different lands stay apart */
    sp_tok a[SP_KEY_MAX], b[SP_KEY_MAX];
    size_t la = key_of("ABCD|ABCD", a), lb = key_of("ABCD|ABDC", b);
    ck_assert(sp_key_cmp(a, la, b, lb) != 0);
}
END_TEST

/* Threads that take the moves of one land from a share as they go. */
typedef struct part_job {
    const sp_tok *land;
    size_t len;
    const sp_move_part *part;
    pthread_barrier_t *start;
    sp_children out;
    int rc;
} part_job;

/* Lets the other threads take moves while this one holds a child, so that the moves do get shared. */
static int dawdle(void *arg, const sp_tok *key, size_t len, uint32_t move)
{
    (void)arg, (void)key, (void)len, (void)move;
    nanosleep(&(struct timespec){0, 20000}, NULL);
    return 0;
}

static void *run_part(void *arg)
{
    part_job *j = arg;
    sp_canon_ctx *own = sp_canon_ctx_new(); /* a context is one thread's */
    pthread_barrier_wait(j->start);
    j->rc = own ? sp_expand_land_part(own, NULL, j->land, j->len, j->part, dawdle, NULL, &j->out) : -1;
    sp_canon_ctx_free(own);
    return NULL;
}

static void assert_same_list(const sp_children *a, const sp_children *b)
{
    ck_assert_uint_eq(a->n, b->n);
    for (size_t c = 0; c < a->n; c++)
        ck_assert(!sp_key_cmp(a->tok + a->off[c], a->len[c], b->tok + b->off[c], b->len[c]));
}

static void assert_same_first_moves(const sp_children *a, const sp_children *b)
{
    assert_same_list(a, b);
    for (size_t c = 0; c < a->n; c++)
        ck_assert_uint_eq(a->first[c], b->first[c]);
}

/* Moves shared out between threads as they go (however the threads happen to split them; the
 * second thread takes them from the last one down) and joined again give the very list one thread
 * makes, each child with the first move that gave it. */
START_TEST(parts_join_to_the_whole)
{
    enum { THREADS = 3 };
    uint64_t rng = 99;
    sp_children whole, joined;
    part_job job[THREADS];
    unsigned shared = 0; /* runs where more than one thread made children */
    sp_children_init(&whole);
    sp_children_init(&joined);
    for (int i = 0; i < THREADS; i++)
        sp_children_init(&job[i].out);
    for (unsigned trial = 0; trial < 60; trial++) {
        sp_tok key[SP_KEY_MAX];
        uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
        unsigned nl = random_lands(6 + trial % 8, 10, &rng, key, off, lens);
        for (unsigned l = 0; l < nl; l++) {
            ck_assert_int_eq(sp_expand_land(ctx, NULL, key + off[l], lens[l], &whole), 0);
            for (unsigned threads = 1; threads <= THREADS; threads++) {
                sp_move_share share;
                sp_move_part part[THREADS];
                pthread_barrier_t start;
                pthread_t tid[THREADS];
                sp_children *ps[THREADS];
                sp_move_share_start(&share, trial * 2 + threads, 0); /* a new round each time */
                ck_assert_int_eq(pthread_barrier_init(&start, NULL, threads), 0);
                for (unsigned i = 0; i < threads; i++) {
                    part[i] = (sp_move_part){&share, trial * 2 + threads, i % 2 == 1};
                    job[i] = (part_job){key + off[l], lens[l], &part[i], &start, job[i].out, -2};
                    ps[i] = &job[i].out;
                    ck_assert_int_eq(pthread_create(&tid[i], NULL, run_part, &job[i]), 0);
                }
                unsigned busy = 0;
                for (unsigned i = 0; i < threads; i++) {
                    pthread_join(tid[i], NULL);
                    ck_assert_int_eq(job[i].rc, 0);
                    busy += job[i].out.n > 0;
                }
                shared += busy > 1;
                pthread_barrier_destroy(&start);
                ck_assert_int_eq(sp_children_merge(&joined, ps, threads, UINT32_MAX), 0);
                assert_same_first_moves(&joined, &whole);
            }
        }
    }
    ck_assert_uint_gt(shared, 10);
    sp_children_free(&whole);
    sp_children_free(&joined);
    for (int i = 0; i < THREADS; i++)
        sp_children_free(&job[i].out);
}
END_TEST

/* A part going down, run inside the hook of a part going up when that one lists its child number
 * `start_at`: moves of a land made (ctx), or a cached list replayed (block); it stops its round after
 * `stop_after` + 1 children (SIZE_MAX: never). */
typedef struct down_inside {
    sp_canon_ctx *ctx;
    const sp_tok *land;
    size_t len;
    const void *block;
    const sp_move_part *down;
    sp_children *out;
    size_t at, start_at, seen, stop_after;
    int rc;
} down_inside;

static int count_down(void *arg, const sp_tok *key, size_t len, uint32_t move)
{
    (void)key, (void)len, (void)move;
    down_inside *d = arg;
    return ++d->seen > d->stop_after;
}

static int run_down_inside(void *arg, const sp_tok *key, size_t len, uint32_t move)
{
    (void)key, (void)len, (void)move;
    down_inside *d = arg;
    if (++d->at == d->start_at)
        d->rc = d->ctx ? sp_expand_land_part(d->ctx, NULL, d->land, d->len, d->down, count_down, d, d->out)
                       : sp_expand_replay_part(d->block, d->down, count_down, d, d->out);
    return 0;
}

/* The lists of a test of two parts: the whole list, the parts going up and down, and their join. */
typedef struct two_ends {
    sp_children whole, up, down, joined;
    sp_children *ps[2];
} two_ends;

static void two_ends_init(two_ends *t)
{
    sp_children_init(&t->whole);
    sp_children_init(&t->up);
    sp_children_init(&t->down);
    sp_children_init(&t->joined);
    t->ps[0] = &t->up;
    t->ps[1] = &t->down;
}

static void two_ends_free(two_ends *t)
{
    sp_children_free(&t->whole);
    sp_children_free(&t->up);
    sp_children_free(&t->down);
    sp_children_free(&t->joined);
}

/* A part going down whose hook stops the round while a part going up is under way (the down part
 * runs inside the up part's hook): the up part ends too, and joined below sp_move_share_next() the
 * parts are the first part of the whole list, with its first moves; the down part's children lie
 * above it. */
START_TEST(a_round_stopped_from_the_back_keeps_the_front)
{
    sp_canon_ctx *other = sp_canon_ctx_new();
    two_ends t;
    two_ends_init(&t);
    unsigned tried = 0;
    land_walk w = {.rng = 5, .trials = 40};
    const sp_tok *land;
    uint32_t len;
    while (next_land(&w, &land, &len)) {
        ck_assert_int_eq(sp_expand_land(ctx, NULL, land, len, &t.whole), 0);
        if (t.whole.n < 12)
            continue;
        sp_move_share share;
        uint32_t round = 500 + tried, stop_after = tried % 3;
        sp_move_part front = {&share, round, false}, back = {&share, round, true};
        down_inside d = {other, land, len, NULL, &back, &t.down, 0, 3, 0, stop_after, -2};
        sp_move_share_start(&share, round, 0);
        ck_assert_int_eq(sp_expand_land_part(ctx, NULL, land, len, &front, run_down_inside, &d, &t.up), 1);
        ck_assert_int_eq(d.rc, 1);
        uint32_t next = sp_move_share_next(&share);
        ck_assert_uint_eq(t.up.n, 3);
        ck_assert_uint_eq(t.down.n, stop_after + 1);
        for (size_t c = 0; c < t.down.n; c++)
            ck_assert_uint_ge(t.down.first[c], next);
        ck_assert_int_eq(sp_children_merge(&t.joined, t.ps, 2, next), 0);
        size_t prefix = 0;
        while (prefix < t.whole.n && t.whole.first[prefix] < next)
            prefix++;
        ck_assert_uint_eq(t.joined.n, prefix);
        for (size_t c = 0; c < prefix; c++) {
            ck_assert(!sp_key_cmp(t.joined.tok + t.joined.off[c], t.joined.len[c], t.whole.tok + t.whole.off[c],
                                  t.whole.len[c]));
            ck_assert_uint_eq(t.joined.first[c], t.whole.first[c]);
        }
        tried++;
    }
    ck_assert_uint_gt(tried, 10);
    two_ends_free(&t);
    sp_canon_ctx_free(other);
}
END_TEST

typedef struct stop_after {
    size_t seen, at;
} stop_after;

static int count_and_stop(void *arg, const sp_tok *key, size_t len, uint32_t move)
{
    (void)key, (void)len, (void)move;
    stop_after *s = arg;
    return ++s->seen > s->at;
}

/* A hook sees each child as it is made, in the order of the whole list; once it says stop, the part
 * ends at once and so does any other part of the round, but not a part of the next round. */
START_TEST(a_hook_stops_the_round)
{
    sp_pos p;
    sp_tok key[SP_KEY_MAX];
    sp_children whole, part;
    sp_children_init(&whole);
    sp_children_init(&part);
    parse_ok("0*3.1a1a", &p); /* one land of 16 distinct children */
    size_t len = sp_pos_key(ctx, &p, key);
    ck_assert_int_eq(sp_expand_land(ctx, NULL, key, len, &whole), 0);
    ck_assert_uint_gt(whole.n, 4);
    sp_move_share share;
    for (uint32_t at = 0; at < 4; at++) {
        stop_after s = {0, at};
        sp_move_part round = {&share, at, false}, old = {&share, at - 1, false};
        sp_move_share_start(&share, at, 0);
        sp_move_share_stop(&share, at - 1); /* a stale part's stop does nothing to this round */
        ck_assert_int_eq(sp_expand_land_part(ctx, NULL, key, len, &old, NULL, NULL, &part), 1);
        ck_assert_uint_eq(part.n, 0);
        ck_assert_int_eq(sp_expand_land_part(ctx, NULL, key, len, &round, count_and_stop, &s, &part), 1);
        ck_assert_uint_eq(s.seen, at + 1);
        ck_assert_uint_eq(part.n, at + 1);
        for (size_t c = 0; c < part.n; c++)
            ck_assert(!sp_key_cmp(part.tok + part.off[c], part.len[c], whole.tok + whole.off[c], whole.len[c]));
        ck_assert_int_eq(sp_expand_land_part(ctx, NULL, key, len, &round, NULL, NULL, &part), 1);
        ck_assert_uint_eq(part.n, 0);
    }
    stop_after never = {0, SIZE_MAX};
    sp_move_part round = {&share, 99, false};
    sp_move_share_start(&share, 99, 0);
    ck_assert_int_eq(sp_expand_land_part(ctx, NULL, key, len, &round, count_and_stop, &never, &part), 0);
    ck_assert_uint_eq(never.seen, whole.n);
    assert_same_list(&part, &whole);
    sp_children_free(&whole);
    sp_children_free(&part);
}
END_TEST

/* What a hook saw of a land's children (keys and move numbers, in order); it stops after stop_at + 1
 * of them, and may make the children of each child's lands with its own context and cache meanwhile
 * (as the certificate builder's hooks do), which with a small cache writes over the list being given. */
typedef struct hook_log {
    sp_children seen;
    uint32_t moves[1024];
    size_t stop_at;
    sp_canon_ctx *nest_ctx;
    sp_lcache *nest_cache;
    sp_children nested;
} hook_log;

static int log_child(void *arg, const sp_tok *key, size_t len, uint32_t move)
{
    hook_log *g = arg;
    ck_assert_uint_lt(g->seen.n, 1024);
    g->moves[g->seen.n] = move;
    ck_assert_int_eq(sp_children_add(&g->seen, key, len), 1);
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    unsigned nl = g->nest_ctx ? sp_key_lands(key, len, off, lens, SP_MAX_LANDS) : 0;
    for (unsigned l = 0; l < nl; l++)
        ck_assert_int_eq(sp_expand_land(g->nest_ctx, g->nest_cache, key + off[l], lens[l], &g->nested), 0);
    return g->seen.n > g->stop_at;
}

static void assert_same_log(const hook_log *a, const hook_log *b)
{
    assert_same_list(&a->seen, &b->seen);
    ck_assert(memcmp(a->moves, b->moves, a->seen.n * sizeof *a->moves) == 0);
}

/* With a land cache handed in, a land's children come as making them would give them:
 * the same list with the same first moves, the same hook calls, the same stop, whether the cache
 * held the whole list, the part of it a hook had stopped at before (then the rest is made), or
 * nothing; also when the hook makes other lands' children with the same context and cache
 * meanwhile. */
START_TEST(land_cache_gives_what_making_gives)
{
    sp_canon_ctx *cc = sp_canon_ctx_new();
    sp_lcache *cache = sp_lcache_new(32 << 10);
    ck_assert(cc && cache);
    sp_children made, given;
    sp_children_init(&made);
    sp_children_init(&given);
    land_walk w = {.rng = 5, .trials = 80};
    const sp_tok *land;
    uint32_t len;
    while (next_land(&w, &land, &len)) {
        for (unsigned pass = 0; pass < 3; pass++) { /* stopped early, then whole (made, then given) */
            size_t stop_at = pass == 0 ? w.trial % 3 : SIZE_MAX;
            hook_log a = {.stop_at = stop_at}, b = {.stop_at = stop_at, .nest_ctx = w.trial % 2 ? cc : NULL, .nest_cache = cache};
            sp_children_init(&a.seen);
            sp_children_init(&b.seen);
            sp_children_init(&b.nested);
            int want = sp_expand_land_part(ctx, NULL, land, len, NULL, log_child, &a, &made);
            ck_assert_int_eq(sp_expand_land_part(cc, cache, land, len, NULL, log_child, &b, &given), want);
            assert_same_list(&given, &made);
            ck_assert(memcmp(given.first, made.first, made.n * sizeof *made.first) == 0);
            assert_same_log(&b, &a);
            sp_children_free(&a.seen);
            sp_children_free(&b.seen);
            sp_children_free(&b.nested);
        }
    }
    sp_lcache_stats st;
    sp_lcache_get_stats(cache, &st);
    ck_assert_uint_gt(st.hits, 100);                     /* lists were given from the cache ... */
    ck_assert_uint_gt(st.partial, 10);                   /* ... some cut short, then made to the end */
    ck_assert_uint_lt(st.hits, st.lookups);              /* ... and others made */
    ck_assert_uint_eq(st.used_bytes, st.bytes);          /* the ring went round */
    sp_children_free(&made);
    sp_children_free(&given);
    sp_canon_ctx_free(cc);
    sp_lcache_free(cache);
}
END_TEST

/* In a shared round, the part with the cache (the leader's) gives the part of the list a hook had
 * stopped at before, and the share started at that part's `made` hands the other threads only the
 * moves after it: joined, the parts are the whole list with its first moves, whichever part runs
 * first. A whole list cached is given to the leader and the round stopped. A part is not cached. */
START_TEST(a_shared_round_starts_after_the_cached_part)
{
    sp_canon_ctx *cc = sp_canon_ctx_new();
    sp_lcache *cache = sp_lcache_new(1 << 20);
    ck_assert(cc && cache);
    sp_children whole, lead, help, joined;
    sp_children_init(&whole);
    sp_children_init(&lead);
    sp_children_init(&help);
    sp_children_init(&joined);
    sp_children *ps[2] = {&lead, &help};
    unsigned resumed = 0;
    land_walk w = {.rng = 17, .trials = 40};
    const sp_tok *land;
    uint32_t len;
    while (next_land(&w, &land, &len)) {
        uint64_t h[2];
        sp_lcache_hash(land, len, h);
        ck_assert_int_eq(sp_expand_land(ctx, NULL, land, len, &whole), 0);
        stop_after s = {0, w.trial % 3};
        if (sp_lcache_made(cache, h))
            continue; /* a land met before */
        if (sp_expand_land_part(cc, cache, land, len, NULL, count_and_stop, &s, &lead) != 1)
            continue; /* too few children to stop at */
        uint32_t made = sp_lcache_made(cache, h);
        ck_assert_uint_eq(made, lead.first[lead.n - 1] + 1);
        for (unsigned leader_first = 0; leader_first < 2; leader_first++) {
            sp_move_share share;
            sp_move_part part = {&share, 2 * w.trial + leader_first + 1, false}, down = part;
            down.down = true;
            sp_move_share_start(&share, part.round, made);
            if (leader_first)
                ck_assert_int_eq(sp_expand_land_part(cc, cache, land, len, &part, NULL, NULL, &lead), 0);
            ck_assert_int_eq(sp_expand_land_part(ctx, NULL, land, len, &down, NULL, NULL, &help), 0);
            if (!leader_first)
                ck_assert_int_eq(sp_expand_land_part(cc, cache, land, len, &part, NULL, NULL, &lead), 0);
            for (size_t c = 0; c < help.n; c++)
                ck_assert_uint_ge(help.first[c], made); /* the helper took no move below it */
            ck_assert_int_eq(sp_children_merge(&joined, ps, 2, UINT32_MAX), 0);
            assert_same_list(&joined, &whole);
            ck_assert(memcmp(joined.first, whole.first, whole.n * sizeof *whole.first) == 0);
            ck_assert_uint_eq(sp_lcache_made(cache, h), made); /* the parts were not cached */
        }
        resumed++;
        ck_assert_int_eq(sp_expand_land(cc, cache, land, len, &lead), 0); /* now cached whole */
        ck_assert_uint_eq(sp_lcache_made(cache, h), SP_LCACHE_WHOLE);
        sp_move_share share;
        sp_move_part part = {&share, 1000 + w.trial, false}, down = part;
        down.down = true;
        sp_move_share_start(&share, part.round, 0);
        ck_assert_int_eq(sp_expand_land_part(cc, cache, land, len, &part, NULL, NULL, &lead), 0);
        assert_same_list(&lead, &whole);
        ck_assert_int_eq(sp_expand_land_part(ctx, NULL, land, len, &down, NULL, NULL, &help), 1);
        ck_assert_uint_eq(help.n, 0); /* the round was stopped */
    }
    ck_assert_uint_gt(resumed, 20);
    sp_children_free(&whole);
    sp_children_free(&lead);
    sp_children_free(&help);
    sp_children_free(&joined);
    sp_canon_ctx_free(cc);
    sp_lcache_free(cache);
}
END_TEST

/* A whole cached list replayed by two parts, one going up from its first child and one coming down
 * from its last (run inside the first's hook), joins to the very list, each child with its first
 * move; stopped by a hook, a part ends the other's replay too. */
START_TEST(a_cached_list_replays_from_both_ends)
{
    sp_canon_ctx *cc = sp_canon_ctx_new();
    sp_lcache *cache = sp_lcache_new(1 << 20);
    ck_assert(cc && cache);
    two_ends t;
    two_ends_init(&t);
    unsigned tried = 0;
    land_walk w = {.rng = 23, .trials = 30};
    const sp_tok *land;
    uint32_t len;
    while (next_land(&w, &land, &len)) {
        uint64_t h[2];
        sp_lcache_entry e;
        ck_assert_int_eq(sp_expand_land(cc, cache, land, len, &t.whole), 0);
        sp_lcache_hash(land, len, h);
        if (t.whole.n < 8 || !sp_lcache_get(cache, h, &e))
            continue;
        void *block = malloc(e.bytes);
        ck_assert_ptr_nonnull(block);
        memcpy(block, e.block, e.bytes);
        for (unsigned stop = 0; stop < 2; stop++) {
            sp_move_share share;
            uint32_t round = 7000 + 2 * tried + stop;
            sp_move_part front = {&share, round, false}, back = {&share, round, true};
            down_inside d = {NULL, NULL, 0, block, &back, &t.down, 0, 2, 0, stop ? 1 : SIZE_MAX, -2};
            sp_move_share_start(&share, round, 0);
            sp_children_clear(&t.up);
            sp_children_clear(&t.down);
            ck_assert_int_eq(sp_expand_replay_part(block, &front, run_down_inside, &d, &t.up), (int)stop);
            ck_assert_int_eq(d.rc, (int)stop);
            ck_assert_uint_eq(t.up.n, stop ? 2 : t.whole.n - t.down.n);
            ck_assert_uint_eq(t.down.n, stop ? 2 : t.whole.n - t.up.n);
            if (!stop) {
                ck_assert_int_eq(sp_children_merge(&t.joined, t.ps, 2, UINT32_MAX), 0);
                assert_same_first_moves(&t.joined, &t.whole);
            }
        }
        free(block);
        tried++;
    }
    ck_assert_uint_gt(tried, 10);
    two_ends_free(&t);
    sp_canon_ctx_free(cc);
    sp_lcache_free(cache);
}
END_TEST

START_TEST(key_decoding_rejects_garbage)
{
    sp_pos p;
    const sp_tok bad1[] = {SP_TK_ZEROS, SP_TK_UP + 0, SP_TK_END_B, SP_TK_END_R, SP_TK_END_L};
    ck_assert_int_eq(sp_key_decode(bad1, 5, &p), -1); /* a letter seen once */
    const sp_tok bad2[] = {SP_TK_ZEROS + 1, SP_TK_END_R};
    ck_assert_int_eq(sp_key_decode(bad2, 2, &p), -1); /* unterminated land */
    const sp_tok bad3[] = {SP_TK_ZEROS, SP_TK_LO + 1, SP_TK_ONE, SP_TK_END_B, SP_TK_END_R, SP_TK_END_L};
    ck_assert_int_eq(sp_key_decode(bad3, 6, &p), -1); /* lower-case partner is not a letter */
    const sp_tok good[] = {SP_TK_ZEROS, SP_TK_ONE, SP_TK_LO + 2, SP_TK_ONE, SP_TK_LO + 2, SP_TK_END_B, SP_TK_END_R,
                           SP_TK_END_L};
    ck_assert_int_eq(sp_key_decode(good, 8, &p), 0);
    char buf[64];
    ck_assert_str_eq(print2(&p, buf, sizeof buf), "1a1a");
}
END_TEST

int main(int argc, char **argv)
{
    Suite *s = suite_create("canon");
    TCase *tc = tcase_create("position model");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, round_trip_model_examples);
    tcase_add_test(tc, round_trip_reference_positions);
    tcase_add_test(tc, overflow_letters);
    tcase_add_test(tc, malformed_input);
    tcase_add_test(tc, simplification_rules);
    tcase_add_test(tc, children_by_hand);
    tcase_add_test(tc, position_children_stop_early);
    tcase_add_test(tc, every_game_of_up_to_three_spots);
    tcase_add_test(tc, merging_lands_gives_the_position);
    tcase_add_test(tc, canonical_form_is_invariant);
    tcase_add_test(tc, single_boundary_reversal_is_not_a_symmetry);
    tcase_add_test(tc, symmetric_lands);
    tcase_add_test(tc, key_decoding_rejects_garbage);
    tcase_add_test(tc, parts_join_to_the_whole);
    tcase_add_test(tc, a_hook_stops_the_round);
    tcase_add_test(tc, a_round_stopped_from_the_back_keeps_the_front);
    tcase_add_test(tc, a_cached_list_replays_from_both_ends);
    tcase_add_test(tc, land_cache_gives_what_making_gives);
    tcase_add_test(tc, a_shared_round_starts_after_the_cached_part);
    suite_add_tcase(s, tc);
    return sp_test_main(s, argc, argv);
}
