/* test_variants.c: the variants of solver/variants.h: Brussels positions, moves and game lengths,
 * black-and-white moves and nimbers, worked out by hand on small cases; the plain moves untouched. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brussels.h"
#include "canonical.h"
#include "children.h"
#include "movegen.h"
#include "simplify.h"
#include "testutil.h"
#include "variants.h"

/* ---------------------------------------------------------------- Brussels */

static void br_canon_string(const char *text, char *buf, size_t cap)
{
    sp_br_pos p;
    sp_parse_error err;
    ck_assert_msg(sp_br_parse(text, &p, &err) == 0, "%s: %s", text, err.message);
    sp_br_print(&p, buf, cap);
}

START_TEST(brussels_strings)
{
    char a[256], b[256];
    br_canon_string("x*2", a, sizeof a);
    br_canon_string("2222.2222", b, sizeof b);
    ck_assert_str_eq(a, "x*2");
    ck_assert_str_eq(b, "x*2");
    /* regions and boundaries in any order, dead regions and empty boundaries dropped */
    br_canon_string("22.x|222|2", a, sizeof a);
    br_canon_string("222+x.22", b, sizeof b);
    ck_assert_str_eq(a, b);
    ck_assert_str_eq(a, "222+x.22");
}
END_TEST

START_TEST(brussels_bad_input)
{
    static const char *bad[] = {"x*0", "3", "x.", "0*2", "x*", "22|", "x x", "", "2222a"};
    sp_br_pos p;
    sp_parse_error err;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(sp_br_parse(bad[i], &p, &err) == -1, "'%s' accepted", bad[i]);
    ck_assert_int_eq(sp_br_parse("!", &p, &err), 0);
    ck_assert_int_eq(p.nreg, 0);
    ck_assert_int_eq(sp_br_parse("2|2", &p, &err), 0);
    ck_assert_int_eq(p.nreg, 0); /* two regions of one arm each: nothing to play */
}
END_TEST

typedef struct br_list {
    char s[16][128];
    unsigned n;
} br_list;

static int br_note(void *arg, const sp_br_pos *child)
{
    br_list *l = arg;
    char buf[128];
    sp_br_print(child, buf, sizeof buf);
    for (unsigned i = 0; i < l->n; i++)
        if (!strcmp(l->s[i], buf))
            return 0;
    ck_assert_uint_lt(l->n, 16);
    strcpy(l->s[l->n++], buf);
    return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(a, b); }

/* Drawn by hand: a lone cross joined arm to neighbouring arm leaves a face with 1 arm (dead) and one
 * with 3; to the opposite arm, two faces of 2. Two crosses: the same on either one, the other
 * cross inside or outside, or the two crosses joined (one boundary of 3 + 3 + 2 arms). */
START_TEST(brussels_moves_by_hand)
{
    static const char *one[] = {"22+22", "222"};
    static const char *two[] = {"22+x.22", "222+x.2", "22222222", "x.222"};
    sp_br_pos p;
    br_list l = {.n = 0};
    ck_assert(sp_br_crosses(&p, 1));
    ck_assert_int_eq(sp_br_region_moves(&p, 0, br_note, &l), 0);
    qsort(l.s, l.n, sizeof l.s[0], cmp_str);
    ck_assert_uint_eq(l.n, 2);
    for (unsigned i = 0; i < 2; i++)
        ck_assert_str_eq(l.s[i], one[i]);
    l.n = 0;
    ck_assert(sp_br_crosses(&p, 2));
    ck_assert_int_eq(sp_br_region_moves(&p, 0, br_note, &l), 0);
    qsort(l.s, l.n, sizeof l.s[0], cmp_str);
    ck_assert_uint_eq(l.n, 4);
    for (unsigned i = 0; i < 4; i++)
        ck_assert_str_eq(l.s[i], two[i]);
}
END_TEST

/* Every game from 1, 2 and 3 crosses lasts 5n - 2 moves: the shortest and the longest over every
 * region reached are equal; and by hand, 1 cross: 3 moves (the 3-arm face takes 2 more, or each
 * 2-arm face 1), so the first player wins. */
START_TEST(brussels_five_n_minus_two)
{
    sp_variants *v = sp_variants_new(SP_RULES_BRUSSELS, 16u << 20);
    ck_assert_ptr_nonnull(v);
    for (unsigned n = 1; n <= 3; n++) {
        sp_br_pos p;
        sp_br_lengths L;
        ck_assert(sp_br_crosses(&p, n));
        ck_assert_int_eq(sp_variants_brussels(v, &p, &L), 0);
        ck_assert_uint_eq(L.shortest, 5 * n - 2);
        ck_assert_uint_eq(L.longest, 5 * n - 2);
        ck_assert_uint_eq(L.nimber, (5 * n - 2) % 2);
    }
    /* a position that is not a start: two boundaries of one arm each (merge, then split): 2 moves */
    sp_br_pos q;
    sp_parse_error err;
    sp_br_lengths L;
    ck_assert_int_eq(sp_br_parse("2.2", &q, &err), 0);
    ck_assert_int_eq(sp_variants_brussels(v, &q, &L), 0);
    ck_assert_uint_eq(L.shortest, 2);
    ck_assert_uint_eq(L.longest, 2);
    ck_assert_uint_eq(L.nimber, 0);
    sp_variants_free(v);
}
END_TEST

/* ---------------------------------------------------------------- black-and-white */

static int bw_nimber_of(sp_variants *v, const char *text)
{
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    sp_pos p;
    sp_parse_error err;
    sp_tok key[SP_KEY_MAX];
    ck_assert_int_eq(sp_pos_parse(text, &p, &err), 0);
    size_t len = sp_pos_key(ctx, &p, key);
    sp_canon_ctx_free(ctx);
    return sp_variants_bw_nimber(v, key, len);
}

typedef struct kid_list {
    sp_canon_ctx *ctx;
    sp_children kids;
    unsigned moves;
} kid_list;

static int kid_note(void *arg, sp_pos *child, uint32_t move)
{
    kid_list *k = arg;
    sp_tok key[SP_KEY_MAX];
    ck_assert_uint_eq(move, k->moves++);
    sp_pos_simplify(child);
    size_t len = sp_canon_pos(k->ctx, child, key);
    return sp_children_add(&k->kids, key, len) < 0 ? -1 : 0;
}

static unsigned count_children(const char *text, sp_move_rules rules, unsigned *moves)
{
    kid_list k = {.ctx = sp_canon_ctx_new(), .moves = 0};
    sp_pos p;
    sp_parse_error err;
    sp_children_init(&k.kids);
    ck_assert_int_eq(sp_pos_parse(text, &p, &err), 0);
    sp_pos_simplify(&p);
    ck_assert_int_eq(sp_pos_moves_rules(&p, rules, kid_note, &k), 0);
    unsigned n = (unsigned)k.kids.n;
    *moves = k.moves;
    sp_children_free(&k.kids);
    sp_canon_ctx_free(k.ctx);
    return n;
}

/* Drawn by hand. 0*1: a loop with a spot leaves the two 1-life spots seen from both faces (AB|AB:
 * one more move, with or without a spot, ends it: nimber 1); a loop without a spot ends the game
 * (0): nimber mex{0, 1} = 2, the first player wins, where plain Sprouts loses. 0*2: four distinct
 * moves (a loop or a join, each with or without a spot). "1": a spot of degree 1 has one move, a
 * loop, with or without a spot, both ending the game: 1. "12": loops at the 2-life spot end the
 * game (without a spot) or leave the new spot and the other one in one face (1); joins end it
 * (without a spot) or leave AB|AB (1): mex{0, 1} = 2. */
START_TEST(bw_by_hand)
{
    unsigned moves;
    ck_assert_uint_eq(count_children("0*1", SP_MOVES_BW, &moves), 2);
    ck_assert_uint_eq(moves, 2);
    ck_assert_uint_eq(count_children("0*1", SP_MOVES_SPROUTS, &moves), 1);
    ck_assert_uint_eq(count_children("0*2", SP_MOVES_BW, &moves), 4);
    ck_assert_uint_eq(count_children("0*2", SP_MOVES_SPROUTS, &moves), 2);
    sp_variants *v = sp_variants_new(SP_RULES_BW, 16u << 20);
    ck_assert_int_eq(bw_nimber_of(v, "AB|AB"), 1);
    ck_assert_int_eq(bw_nimber_of(v, "0*1"), 2);
    ck_assert_int_eq(bw_nimber_of(v, "1"), 1);
    ck_assert_int_eq(bw_nimber_of(v, "12"), 2);
    ck_assert_int_eq(bw_nimber_of(v, "!"), 0);
    /* a sum: the XOR of its lands */
    ck_assert_int_eq(bw_nimber_of(v, "1+12"), 3);
    sp_variants_free(v);
}
END_TEST

/* The search's figures for 0*1..0*5 (the table's): 2 2 1 0 1. 0*2's children, with the values the
 * recursion gives them (AB|0.AB 1, 0.2 0, 1a1a 1, 11 0), agree with the mex. */
START_TEST(bw_small_nimbers)
{
    static const int want[] = {2, 2, 1, 0, 1};
    sp_variants *v = sp_variants_new(SP_RULES_BW, 64u << 20);
    for (unsigned n = 1; n <= 5; n++) {
        char s[16];
        snprintf(s, sizeof s, "0*%u", n);
        ck_assert_int_eq(bw_nimber_of(v, s), want[n - 1]);
    }
    ck_assert_int_eq(bw_nimber_of(v, "AB|0.AB"), 1);
    ck_assert_int_eq(bw_nimber_of(v, "0.2"), 0);
    ck_assert_int_eq(bw_nimber_of(v, "1a1a"), 1);
    ck_assert_int_eq(bw_nimber_of(v, "11"), 0);
    sp_variants_free(v);
}
END_TEST

/* The plain moves are untouched by the option: the same children, move for move. */
START_TEST(plain_moves_unchanged)
{
    static const char *pos[] = {"0*5", "0.1a1a.AB|AB", "0*3.1a1a", "0.AB|0.AB"};
    for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++) {
        unsigned m1, m2;
        unsigned a = count_children(pos[i], SP_MOVES_SPROUTS, &m1), b = count_children(pos[i], SP_MOVES_BW, &m2);
        ck_assert_uint_eq(m2, 2 * m1);
        ck_assert_uint_gt(b, a);
    }
}
END_TEST

START_TEST(rules_names)
{
    ck_assert_int_eq(sp_rules_parse("bw"), SP_RULES_BW);
    ck_assert_int_eq(sp_rules_parse("brussels"), SP_RULES_BRUSSELS);
    ck_assert_int_eq(sp_rules_parse("antwerp-hot"), SP_RULES_ANTWERP_HOT);
    ck_assert_int_eq(sp_rules_parse("normal"), 0);
    ck_assert_str_eq(sp_rules_name(SP_RULES_ANTWERP_COLD), "antwerp-cold");
}
END_TEST

int main(int argc, char **argv)
{
    Suite *s = suite_create("variants");
    TCase *br = tcase_create("brussels"), *bw = tcase_create("bw");
    tcase_add_test(br, brussels_strings);
    tcase_add_test(br, brussels_bad_input);
    tcase_add_test(br, brussels_moves_by_hand);
    tcase_add_test(br, brussels_five_n_minus_two);
    tcase_add_test(bw, bw_by_hand);
    tcase_add_test(bw, bw_small_nimbers);
    tcase_add_test(bw, plain_moves_unchanged);
    tcase_add_test(bw, rules_names);
    tcase_set_timeout(bw, 120);
    suite_add_tcase(s, br);
    suite_add_tcase(s, bw);
    return sp_test_main(s, argc, argv);
}
