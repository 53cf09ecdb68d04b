/* test_record.c: game records (canon/record.h, labelled.h, replay.h) and `sprouts replay`: parsing
 * and its errors, the seed's four readings of 6(8)7, enclosing moves, '@', '!', illegal moves, and a
 * whole game drawn by hand, checked position by position. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "canonical.h"
#include "children.h"
#include "expand.h"
#include "labelled.h"
#include "quote.h"
#include "record.h"
#include "replay.h"
#include "testutil.h"

static sp_canon_ctx *ctx;

static void setup(void) { ctx = sp_canon_ctx_new(); }
static void teardown(void) { sp_canon_ctx_free(ctx); }

static void parse_ok(const char *text, sp_record *rec)
{
    sp_rec_error e;
    int rc = sp_rec_parse(text, rec, &e);
    ck_assert_msg(rc == 0, "'%s' rejected at %u:%u: %s", text, e.line, e.column, e.message);
}

/* The record replayed (it must parse). */
static sp_replay *replay(const char *text)
{
    sp_record rec;
    parse_ok(text, &rec);
    sp_replay *r = sp_replay_new();
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(sp_replay_run(r, &rec, ctx), 0);
    sp_rec_free(&rec);
    return r;
}

static sp_replay *replay_legal(const char *text)
{
    sp_replay *r = replay(text);
    ck_assert_msg(sp_replay_legal(r), "'%s': move %zu: %s", text, sp_replay_error_move(r), sp_replay_error(r));
    return r;
}

/* Whether the replay's only position at a step has the key of a position string. */
static bool position_is(const sp_replay *r, size_t step, const char *pos)
{
    sp_pos p;
    sp_parse_error e;
    sp_tok want[SP_KEY_MAX];
    ck_assert_msg(sp_pos_parse(pos, &p, &e) == 0, "'%s': %s", pos, e.message);
    size_t wlen = sp_pos_key(ctx, &p, want), len;
    ck_assert_uint_eq(sp_replay_npos(r, step), 1);
    const sp_tok *key = sp_replay_pos(r, step, 0, &len);
    return sp_key_cmp(key, len, want, wlen) == 0;
}

static bool final_is(const sp_replay *r, const char *pos)
{
    return position_is(r, sp_replay_steps(r) - 1, pos);
}

/* Whether corners "a s b" follow each other cyclically on some boundary of the drawing. */
static bool has_corner(const sp_lab *p, unsigned a, unsigned s, unsigned b)
{
    for (unsigned bd = 0; bd < p->nbnd; bd++) {
        unsigned s0 = sp_lab_bstart(p, bd), n = p->bend[bd] - s0;
        for (unsigned i = 0; i < n; i++)
            if (p->occ[s0 + (i + n - 1) % n] == a && p->occ[s0 + i] == s && p->occ[s0 + (i + 1) % n] == b)
                return true;
    }
    return false;
}

/* Whether spots s and t have corners in one region of the drawing. */
static bool share_region(const sp_lab *p, unsigned s, unsigned t)
{
    for (unsigned r = 0; r < p->nreg; r++) {
        bool hs = false, ht = false;
        for (unsigned i = sp_lab_bstart(p, sp_lab_rstart(p, r)); i < p->bend[p->rend[r] - 1]; i++) {
            hs |= p->occ[i] == s;
            ht |= p->occ[i] == t;
        }
        if (hs && ht)
            return true;
    }
    return false;
}

/* ---------------------------------------------------------------- parsing */

START_TEST(header_forms)
{
    sp_record r;
    parse_ok("3+ (Müller, Schmitz*)", &r); /* the seed's example */
    ck_assert_uint_eq(r.spots, 3);
    ck_assert(!r.misere);
    ck_assert_uint_eq(r.nplayers, 2);
    ck_assert_str_eq(r.player[0], "Müller");
    ck_assert_str_eq(r.player[1], "Schmitz");
    ck_assert_uint_eq(r.chooser, 2);
    ck_assert_uint_eq(r.nmoves, 0);
    ck_assert_uint_eq(r.winner, 0);
    sp_rec_free(&r);

    parse_ok("12- (Ann Lee* - Bob van Dijk)", &r);
    ck_assert_uint_eq(r.spots, 12);
    ck_assert(r.misere);
    ck_assert_str_eq(r.player[0], "Ann Lee");
    ck_assert_str_eq(r.player[1], "Bob van Dijk");
    ck_assert_uint_eq(r.chooser, 1);
    sp_rec_free(&r);

    parse_ok("4+", &r);
    ck_assert_uint_eq(r.nplayers, 0);
    ck_assert_uint_eq(r.chooser, 0);
    sp_rec_free(&r);

    parse_ok("4+ (C++ Fan*)", &r); /* one name, with '+' */
    ck_assert_uint_eq(r.nplayers, 1);
    ck_assert_str_eq(r.player[0], "C++ Fan");
    ck_assert_uint_eq(r.chooser, 1);
    sp_rec_free(&r);

    parse_ok("6 \xE2\x88\x92 ( Jean-Paul \xE2\x80\x93 *Eve )", &r); /* U+2212 minus, en dash, '-' in a name */
    ck_assert(r.misere);
    ck_assert_str_eq(r.player[0], "Jean-Paul");
    ck_assert_str_eq(r.player[1], "Eve");
    ck_assert_uint_eq(r.chooser, 2);
    sp_rec_free(&r);

    parse_ok("7+ ()", &r);
    ck_assert_uint_eq(r.nplayers, 0);
    sp_rec_free(&r);
}
END_TEST

START_TEST(move_forms)
{
    sp_record r;
    parse_ok("9+ 1(10)3 [2, 5, 7-9] 6!(11)!7 6(12)!7 6!(13)7 4(14@2)4 [5,2] 2(15)3 [1&4 & 6] 3(16)2 [] II", &r);
    ck_assert_uint_eq(r.nmoves, 7);
    ck_assert_uint_eq(r.winner, 2);
    const sp_rec_move *m = r.moves;
    ck_assert_uint_eq(m[0].f, 1);
    ck_assert_uint_eq(m[0].g, 10);
    ck_assert_uint_eq(m[0].h, 3);
    ck_assert(m[0].has_list);
    ck_assert_uint_eq(m[0].nlist, 5); /* 2, 5, 7, 8, 9 */
    unsigned want0[] = {2, 5, 7, 8, 9};
    for (unsigned i = 0; i < 5; i++)
        ck_assert_uint_eq(r.list[m[0].list_off + i], want0[i]);
    ck_assert(m[1].bang_f && m[1].bang_h && !m[1].has_list);
    ck_assert(!m[2].bang_f && m[2].bang_h);
    ck_assert(m[3].bang_f && !m[3].bang_h);
    ck_assert_uint_eq(m[4].at, 2);
    ck_assert_uint_eq(m[4].nlist, 2);
    ck_assert_uint_eq(r.list[m[4].list_off], 5); /* as written: unsorted */
    ck_assert_uint_eq(r.list[m[4].list_off + 1], 2);
    ck_assert_uint_eq(m[5].nlist, 3); /* the old '&' */
    ck_assert(m[6].has_list);
    ck_assert_uint_eq(m[6].nlist, 0);
    ck_assert_uint_eq(m[1].line, 1);
    ck_assert_uint_eq(m[1].column, 23);

    char buf[64];
    sp_rec_move_text(&r, 0, buf, sizeof buf);
    ck_assert_str_eq(buf, "1(10)3 [2,5,7-9]");
    sp_rec_move_text(&r, 1, buf, sizeof buf);
    ck_assert_str_eq(buf, "6!(11)!7");
    sp_rec_move_text(&r, 4, buf, sizeof buf);
    ck_assert_str_eq(buf, "4(14@2)4 [2,5]");
    ck_assert_uint_eq(sp_rec_move_text(&r, 5, NULL, 0), strlen("2(15)3 [1,4,6]"));
    sp_rec_free(&r);

    /* extra white space and line breaks anywhere between tokens */
    parse_ok("\n  5 +\n\t1 ( 6 ) 2\r\n\n 3(7@ 1 )!4 [ 1 ,\n 2 ]\n I \n", &r);
    ck_assert_uint_eq(r.nmoves, 2);
    ck_assert_uint_eq(r.moves[1].at, 1);
    ck_assert(r.moves[1].bang_h);
    ck_assert_uint_eq(r.moves[1].line, 5);
    ck_assert_uint_eq(r.moves[1].column, 2);
    ck_assert_uint_eq(r.winner, 1);
    sp_rec_free(&r);

    /* the seed's own spelling: an en dash in the range */
    parse_ok("10+ 1(11)3 [2, 5, 7\xE2\x80\x93" "9]", &r);
    ck_assert_uint_eq(r.moves[0].nlist, 5);
    ck_assert_uint_eq(r.list[4], 9);
    sp_rec_free(&r);
}
END_TEST

typedef struct bad_record {
    const char *text;
    unsigned line, column;
    const char *says;
} bad_record;

static const bad_record bad_records[] = {
    {"", 1, 1, "number of spots"},
    {"5* 1(6)2", 1, 2, "'+' (normal play) or '-'"},
    {"0+", 1, 1, "at least one spot"},
    {"5+ 1(6 2", 1, 8, "')' or '@'"},
    {"5+ 1[6]2", 1, 5, "'('"},
    {"5+ 1(0)2", 1, 6, "numbered from 1"},
    {"5+ 1(6)", 1, 8, "a number"},
    {"5+ 1(6)2 3(7@)4", 1, 14, "a number"},
    {"5+ (Ann - Bob - Carl)", 1, 15, "more than two players"},
    {"5+ (Ann*, Bob*)", 1, 14, "only one player"},
    {"5+ (A*n)", 1, 6, "'*' goes at the start or end"},
    {"5+ (Ann, )", 1, 10, "empty"},
    {"5+ (Ann", 1, 4, "not closed"},
    {"5+ 1(6)2\n  II 3(7)4", 2, 6, "nothing may follow the result"},
    {"5+ 1(6)2 III", 1, 10, "I or II"},
    {"5+ !1(6)2", 1, 4, "'!' goes right after the first spot"},
    {"5+ 1(6)2!", 1, 9, "before it"},
    {"5+ 1(6)2 [9-7]", 1, 11, "runs backwards"},
    {"5+ 1(6)2 [3,]", 1, 13, "a number"},
    {"5+ 1(6)2 [3 4]", 1, 13, "',', '&' or ']'"},
    {"5+ 1(6)2\n[3", 2, 1, "not closed with ']'"},
    {"5+ 1(6)2 x", 1, 10, "a move like f(g)h"},
    {"5+ (Müller) 1(6)2 ;", 1, 19, "a move like f(g)h"}, /* columns count characters, not bytes */
    {"5+ 1(123456)2", 1, 6, "too large"},
};

START_TEST(malformed_records)
{
    for (size_t i = 0; i < sizeof bad_records / sizeof *bad_records; i++) {
        const bad_record *b = &bad_records[i];
        sp_record r;
        sp_rec_error e;
        ck_assert_msg(sp_rec_parse(b->text, &r, &e) == -1, "'%s' accepted", b->text);
        ck_assert_msg(e.line == b->line && e.column == b->column, "'%s': at %u:%u, not %u:%u (%s)", b->text, e.line,
                      e.column, b->line, b->column, e.message);
        ck_assert_msg(strstr(e.message, b->says), "'%s': '%s' does not say '%s'", b->text, e.message, b->says);
        ck_assert_uint_eq(r.nmoves, 0);
        sp_rec_free(&r);
    }
}
END_TEST

START_TEST(quotes_stay_one_line)
{
    char q[64];
    ck_assert_uint_eq(sp_quote("a\nb\t\\\x01", 10, q, sizeof q), 12);
    ck_assert_str_eq(q, "a\\nb\\t\\\\\\x01");
    ck_assert_uint_eq(sp_quote("abcdef", 3, q, sizeof q), 6);
    ck_assert_str_eq(q, "abc...");
    /* a UTF-8 character counts as one and is never cut in two; the length needed stays right */
    ck_assert_uint_eq(sp_quote("\xE2\x88\x92x", 1, q, sizeof q), 6);
    ck_assert_str_eq(q, "\xE2\x88\x92...");
    ck_assert_uint_eq(sp_quote("\xE2\x88\x92", 5, q, 3), 3);
    ck_assert_str_eq(q, "");
    /* a record's error names the character it saw, escaped */
    sp_record rec;
    sp_rec_error e;
    ck_assert_int_eq(sp_rec_parse("3+ 1(4)2 \x7f", &rec, &e), -1);
    ck_assert_ptr_nonnull(strstr(e.message, "not '\\x7f'"));
    sp_rec_free(&rec);
}
END_TEST

/* ---------------------------------------------------------------- the seed's four readings */

/* The German Sprouts article: 5 spots, 1(6)2 3(7)4, then 6(8)7 can be drawn four ways, written
 * A 6(8)7, B 6!(8)!7, C 6(8)!7, D 6!(8)7. The drawing is a tree: 6 joined to 1, 2 and 8; 7 to 3, 4
 * and 8; 5 alone. Its embeddings differ only in the cyclic order of the three neighbours at 6 and
 * at 7 (two each): four drawings on oriented paper, which the ant rule names. A mirror image reverses
 * both cyclic orders: A <-> B and C <-> D. No homeomorphism that keeps every number maps A to C: it
 * would have to keep the order at 6 and reverse the one at 7. So up to the sphere's symmetries
 * (mirror images included) the readings are {A, B} and {C, D}; as game positions, where the numbers
 * are gone, all four are the same: live 1, 2, 3, 4 (degree 1) and 8 (degree 2, both corners on the one
 * boundary), and the lone 5: 0.11a11a. */
START_TEST(seed_four_readings)
{
    static const char *const text[4] = {
        "5+ 1(6)2 3(7)4 6(8)7",   /* A */
        "5+ 1(6)2 3(7)4 6!(8)!7", /* B */
        "5+ 1(6)2 3(7)4 6(8)!7",  /* C */
        "5+ 1(6)2 3(7)4 6!(8)7",  /* D */
    };
    sp_replay *r[4];
    for (int i = 0; i < 4; i++) {
        r[i] = replay_legal(text[i]);
        ck_assert_uint_eq(sp_replay_nreadings(r[i]), 1); /* '!' or its absence picks one corner at each end */
        ck_assert_uint_eq(sp_replay_classes(r[i]), 1);
        ck_assert(final_is(r[i], "0.11a11a"));
        ck_assert(position_is(r[i], 2, "0.1a1a.1a1a"));
    }
    const sp_lab *a = sp_replay_reading(r[0], 0), *b = sp_replay_reading(r[1], 0);
    const sp_lab *c = sp_replay_reading(r[2], 0), *d = sp_replay_reading(r[3], 0);
    /* four different drawings on oriented paper */
    ck_assert(!sp_lab_same(a, b, false) && !sp_lab_same(a, c, false) && !sp_lab_same(a, d, false));
    ck_assert(!sp_lab_same(b, c, false) && !sp_lab_same(b, d, false) && !sp_lab_same(c, d, false));
    /* up to mirror images: exactly {A, B} and {C, D} */
    ck_assert(sp_lab_same(a, b, true) && sp_lab_same(c, d, true));
    ck_assert(!sp_lab_same(a, c, true) && !sp_lab_same(a, d, true));
    ck_assert(!sp_lab_same(b, c, true) && !sp_lab_same(b, d, true));
    /* The ant from 8 at 6: in A the higher neighbour 2 is on its right. Walking a boundary in
     * left-hand order, the corner the curve used is "1 6 2" (1 on the ant's left): the new curve
     * splits it into "1 6 8" and "8 6 2". Likewise at 7: "3 7 8" and "8 7 4". In B both turn round. */
    ck_assert(has_corner(a, 1, 6, 8) && has_corner(a, 8, 6, 2) && has_corner(a, 3, 7, 8) && has_corner(a, 8, 7, 4));
    ck_assert(has_corner(b, 2, 6, 8) && has_corner(b, 8, 6, 1) && has_corner(b, 4, 7, 8) && has_corner(b, 8, 7, 3));
    ck_assert(has_corner(c, 1, 6, 8) && has_corner(c, 4, 7, 8));
    ck_assert(has_corner(d, 2, 6, 8) && has_corner(d, 3, 7, 8));
    for (int i = 0; i < 4; i++)
        sp_replay_free(r[i]);
}
END_TEST

/* ---------------------------------------------------------------- enclosing moves, '@', '!' */

START_TEST(enclosing_moves)
{
    /* A loop at lone 1 around 2 and 3: 1 and the new 5 lie on the loop, between the inside
     * {2, 3} and the outside {4}; both are upper-case letters. Listing either side is the same
     * drawing; without [L] nothing is inside; [2] leaves 3 outside with 4. */
    sp_replay *r = replay_legal("4+ 1(5)1 [2,3]");
    ck_assert(final_is(r, "0*2.AB|0.BA"));
    ck_assert_uint_eq(sp_replay_lives(r, 1), 11);
    sp_replay *r2 = replay_legal("4+ 1(5)1 [4]");
    ck_assert(sp_lab_same(sp_replay_reading(r, 0), sp_replay_reading(r2, 0), false));
    sp_replay_free(r2);
    sp_replay_free(r);
    r = replay_legal("4+ 1(5)1");
    ck_assert(final_is(r, "0*3.AB|BA"));
    sp_replay_free(r);
    r = replay_legal("4+ 1(5)1 [2]");
    ck_assert(final_is(r, "0.AB|0*2.BA"));
    sp_replay_free(r);

    /* A loop at the end 1 of the path 1-4-2 around 3: 1 dies (degree 3). The big face is bounded by
     * 1 5 1 4 2 4 (live: 5 = A, 4 = a twice, 2 = '1'), the loop's inside by 5 1 with 3 in it. */
    r = replay_legal("3+ 1(4)2 1(5)1 [3]");
    ck_assert(final_is(r, "Aa1a|0.A"));
    ck_assert_uint_eq(sp_replay_nreadings(r), 1);
    sp_replay_free(r);
    r = replay_legal("3+ 1(4)2 1(5)1");
    ck_assert(final_is(r, "0.Aa1a|A"));
    sp_replay_free(r);

    /* Both ends on one boundary: 1(5)2 closes the cycle 1-4-2-5 around 3, then 4(6)5 splits one of
     * its two faces; [1] holds for the outer face (1 | 2) and for the inner one with 3 beside 2
     * (1 | 2, 3). Two drawings, not mirror images of each other, but one position: a triangle of
     * pivots 1, 2, 6 (A, B, C) with the lone 3 in one of its faces, wherever it is. */
    r = replay_legal("3+ 1(4)2 1(5)2 [3] 4(6)5 [1]");
    ck_assert_uint_eq(sp_replay_classes(r), 2);
    ck_assert(final_is(r, "AB|AC|0.BC"));
    sp_replay_free(r);
}
END_TEST

START_TEST(at_and_later_moves_decide)
{
    /* '@3' puts the new spot 6 in the face that holds 3: one drawing (with its mirror image). */
    sp_replay *r = replay_legal("3+ 1(4)2 1(5)2 [3] 4(6@3)5 [1]");
    ck_assert_uint_eq(sp_replay_classes(r), 1);
    for (size_t i = 0; i < sp_replay_nreadings(r); i++) {
        ck_assert(share_region(sp_replay_reading(r, i), 3, 6));
        ck_assert(!share_region(sp_replay_reading(r, i), 3, 1));
    }
    sp_replay_free(r);
    /* so 3(7)1 is impossible after it, and possible without the '@' (6 drawn in the outer face) */
    r = replay("3+ 1(4)2 1(5)2 [3] 4(6@3)5 [1] 3(7)1");
    ck_assert(!sp_replay_legal(r));
    ck_assert_uint_eq(sp_replay_error_move(r), 4);
    ck_assert_str_eq(sp_replay_error(r), "spots 3 and 1 share no region");
    sp_replay_free(r);
    /* Without '@' both drawings of 4(6)5 [1] stay until a later move tells them apart: 3(7)1 needs 6
     * in the outer face (away from 3), 3(7)6 needs it beside 3 (and 1 elsewhere). */
    r = replay_legal("3+ 1(4)2 1(5)2 [3] 4(6)5 [1] 3(7)1");
    ck_assert_uint_eq(sp_replay_classes(r), 1);
    for (size_t i = 0; i < sp_replay_nreadings(r); i++)
        ck_assert(!share_region(sp_replay_reading(r, i), 3, 6));
    sp_replay_free(r);
    r = replay_legal("3+ 1(4)2 1(5)2 [3] 4(6)5 [1] 3(7)6");
    ck_assert_uint_eq(sp_replay_classes(r), 1);
    for (size_t i = 0; i < sp_replay_nreadings(r); i++)
        ck_assert(!share_region(sp_replay_reading(r, i), 3, 1));
    sp_replay_free(r);
}
END_TEST

START_TEST(bang_fixes_the_orientation)
{
    /* The face of the cycle 1-4-2-5 that holds 3 is walked 1 4 2 5 or 1 5 2 4 (the two mirror
     * readings): one of 4, 5 has its higher neighbour (2) on the right of an ant coming from 3's side,
     * the other on the left. 3(6)!5 keeps the reading where 5 is the marked one, so 4 is plain there
     * and a later 3(7)!4 [1] fits no drawing, while 3(7)4 [1] does (the curve 3-4 leaves 1 on one
     * side, 2 on the other). */
    sp_replay *r = replay_legal("3+ 1(4)2 1(5)2 [3]");
    ck_assert_uint_eq(sp_replay_nreadings(r), 2);
    ck_assert_uint_eq(sp_replay_classes(r), 1);
    sp_replay_free(r);
    r = replay_legal("3+ 1(4)2 1(5)2 [3] 3(6)!5");
    ck_assert_uint_eq(sp_replay_nreadings(r), 1);
    sp_replay_free(r);
    r = replay("3+ 1(4)2 1(5)2 [3] 3(6)!5 3(7)!4 [1]");
    ck_assert(!sp_replay_legal(r));
    ck_assert_uint_eq(sp_replay_error_move(r), 4);
    ck_assert_ptr_nonnull(strstr(sp_replay_error(r), "'!'"));
    sp_replay_free(r);
    r = replay_legal("3+ 1(4)2 1(5)2 [3] 3(6)!5 3(7)4 [1]");
    sp_replay_free(r);
}
END_TEST

/* ---------------------------------------------------------------- [L] as players write it */

/* Whether two records end in the same drawing (orientation kept), each with one reading. */
static bool same_end(const char *a, const char *b)
{
    sp_replay *ra = replay_legal(a), *rb = replay_legal(b);
    ck_assert_uint_eq(sp_replay_nreadings(ra), sp_replay_nreadings(rb));
    bool same = false;
    for (size_t i = 0; i < sp_replay_nreadings(rb); i++)
        same |= sp_lab_same(sp_replay_reading(ra, 0), sp_replay_reading(rb, i), true);
    sp_replay_free(ra);
    sp_replay_free(rb);
    return same;
}

START_TEST(lists_as_players_write_them)
{
    /* The example: the loop at 3 encloses the path 1-6-2; players list 1 and 2 and leave
     * out 6, which the drawing ties to them. Both lists name one drawing. */
    ck_assert(same_end("5+ 1(6)2 3(7)3[1,2]", "5+ 1(6)2 3(7)3[1,2,6]"));
    ck_assert(same_end("3+ 1(4)2 3(5)3 [1]", "3+ 1(4)2 3(5)3 [1,2,4]"));
    sp_replay *r = replay_legal("5+ 1(6)2 3(7)3[1,2]");
    ck_assert(final_is(r, "0*2.AB|1a1a.BA"));
    sp_replay_free(r);

    /* A chain hanging from the new curve to a listed spot (move 6 of the WGOSA game 14+ of
     * RecentGames1): 2(20)18 closes a digon on the edge 2-18, and [14] puts the chain 18-11-19-14
     * inside it: 11 and 19 go along, unlisted; the lone 12 and 13 stay outside. */
    r = replay_legal("14+ 1(15)2 1(16)1[3-10] 3(17)16 2(18)11 11(19)14 2(20)18[14]");
    for (size_t i = 0; i < sp_replay_nreadings(r); i++) {
        const sp_lab *p = sp_replay_reading(r, i);
        ck_assert(share_region(p, 14, 11) && share_region(p, 19, 20) && !share_region(p, 14, 12));
        ck_assert(share_region(p, 12, 13) && share_region(p, 12, 15));
    }
    sp_replay_free(r);

    /* A spot hangs from the listed side only where the list needs it: the loop at 1 holds 3 alone,
     * not the path 1-5-2 as well (that reading has two unlisted spots, 2 and 5, beside 3). */
    r = replay_legal("4+ 1(5)2 1(6)1 [3]");
    ck_assert_uint_eq(sp_replay_nreadings(r), 1);
    ck_assert(share_region(sp_replay_reading(r, 0), 2, 4) && !share_region(sp_replay_reading(r, 0), 3, 2));
    sp_replay_free(r);
}
END_TEST

/* ---------------------------------------------------------------- illegal moves */

typedef struct bad_move {
    const char *text;
    size_t move;
    const char *says;
} bad_move;

static const bad_move bad_moves[] = {
    /* 1 gets curve ends from 1(3)2, 1(4)2 and 1(5)3: dead */
    {"2+ 1(3)2 1(4)2 1(5)3 1(6)2", 4, "spot 1 is dead"},
    {"3+ 1(4)2 2(6)3", 2, "the new spot must be 5, the next number, not 6"},
    /* 2 is inside the loop 1-4-1, 3 outside */
    {"3+ 1(4)1 [2] 2(5)3", 2, "spots 2 and 3 share no region"},
    {"2+ 1(3)2 3(4)3", 2, "spot 3 has 1 life left, and a loop needs 2"},
    {"2+ 1(3)7", 1, "spot 7 does not exist yet"},
    {"3+ 1(4)2 2(5@9)3", 2, "@ spot 9 does not exist yet"},
    /* 4 lies on the new cycle 1-4-2-5, in both of its faces */
    {"3+ 1(4)2 1(5)2 [4]", 2, "separates the live spots that [L] names from the others"},
    /* 5 is dead with branches to 1, 2 and 6; 6 is dead with branches to 3 and 7-4: the curve 1-4
     * leaves 2 on one side and 3 on the other, so [L] must say which */
    {"4+ 1(5)2 3(6)5 4(7)6 1(8)4", 4, "no [L] says which"},
    {"3+ 1(4)2 1(5)2 [2]", 2, "[L] names spot 2, an end of the move"},
    {"3+ 1(4)2 1(5)2 [5]", 2, "names the new spot 5"},
    /* 4 is outside the cycle 1-5-2-6 that holds 3; [1,3] only fits the inner face */
    {"4+ 1(5)2 1(6)2 [3] 5(7@4)6 [1,3]", 3, "in a region with spot 4"},
    {"200+ 1(201)2", 0, "from 1 to 100 spots"},
};

START_TEST(illegal_moves)
{
    for (size_t i = 0; i < sizeof bad_moves / sizeof *bad_moves; i++) {
        const bad_move *b = &bad_moves[i];
        sp_replay *r = replay(b->text);
        ck_assert_msg(!sp_replay_legal(r), "'%s' accepted", b->text);
        ck_assert_msg(sp_replay_error_move(r) == b->move, "'%s': move %zu, not %zu (%s)", b->text,
                      sp_replay_error_move(r), b->move, sp_replay_error(r));
        ck_assert_msg(strstr(sp_replay_error(r), b->says), "'%s': '%s' does not say '%s'", b->text,
                      sp_replay_error(r), b->says);
        ck_assert_uint_eq(sp_replay_steps(r), b->move); /* the moves before it were replayed */
        sp_replay_free(r);
    }
}
END_TEST

/* ---------------------------------------------------------------- a whole game */

/* tests/data/game-5spots.rec, drawn by hand. Boundaries in left-hand order (region on the right);
 * f, g, h the move's spots; the expected strings name letters A.. by spot as noted.
 *  1 1(6)2        path 1-6-2: (1 6 2 6) and lone 3 4 5                          0*3.1a1a
 *  2 3(7)3 [4]    loop at 3 around 4: inside (3 7) + 4, outside (7 3) (1 6 2 6) 5; 3 = A, 7 = B
 *                                                                               0.AB|0.BA.1a1a
 *  3 5(8)!6       6's corners: "1 6 2" (2 on the right: plain) and "2 6 1" ('!'): the curve from 5
 *                 enters the second: (5 8 6 1 6 2 6 8); 6 dies                0.AB|BA.1a11a
 *  4 1(9)2 [3,7]  splits (5 8 6 1 6 2 6 8) at 1 and 2 into (1 9 2 6 8 5 8 6) and (2 9 1 6), the
 *                 loop 3-7 going with the latter; 2 = C, 9 = D, 1 = E         0.AB|CDE.BA|EDCa1a
 *  5 4(10)4       loop at 4 inside the loop 3-7, around nothing: (4 10) and (3 7).(10 4); 4 = F, 10 = G
 *                                                                               FG|AB.GF|CDE.BA|EDCa1a
 *  6 5(11)8       in (1 9 2 6 8 5 8 6) 8's corners are "6 8 5" ('!') and "5 8 6" (plain): the curve
 *                 uses the second and cuts off (8 11 5); 8 dies; 5 = H, 11 = I
 *                                                                               FG|AB.GF|CDE.BA|HIEDC|IH
 *  7 7(12)4       7 and 4 meet in the face (3 7).(10 4): (7 12 4 10 4 12 7 3); both die
 *                                                                               G|aGaA|CDE.A|HIEDC|IH
 *  8 3(13)9       3 and 9 meet in (2 9 1 6).(7 3): (3 13 9 1 6 2 9 13 3 7); both die
 *                                                                               G|aGa|bECb|HIEC|IH
 *  9 10(14)12     12's corners in (7 12 4 10 4 12 7 3): "7 12 4" ('!') and "4 12 7" (plain): the
 *                 plain one; faces (10 14 12 7 3 7 12 4) and (12 14 10 4); 10 and 12 die, (4 10) is
 *                 all dead and goes; 14 = J                                    J|J|bECb|HIEC|IH
 * 10 1(15)13      13's plain corner "3 13 9": faces (1 15 13 9) and (13 15 1 6 2 9 13 3 7 3); 15 = K
 *                                                                               J|J|K|KC|HIC|IH
 * 11 2(16)15      faces (2 16 15 1 6) and (15 16 2 9 13 3 7 3 13); 16 = L      J|J|L|L|HI|IH
 * 12 5(17)11      5 and 11 share two faces; in (5 11 8 6 1 9 2 6 8) both corners are plain, in
 *                 (8 11 5) both are '!': without '!' the big face; 17 = M      J|J|L|L|M|M
 * Then every region has one life: no move is left (the empty position), II moved last and wins.
 * Lives: 15 - k after move k; 3 survivors (14, 16, 17). */
static const char *const game_positions[] = {
    "0*5",
    "0*3.1a1a",
    "0.AB|0.BA.1a1a",
    "0.AB|BA.1a11a",
    "0.AB|CDE.BA|EDCa1a",
    "FG|AB.GF|CDE.BA|EDCa1a",
    "FG|AB.GF|CDE.BA|HIEDC|IH",
    "G|aGaA|CDE.A|HIEDC|IH",
    "G|aGa|bECb|HIEC|IH",
    "J|J|bECb|HIEC|IH",
    "J|J|K|KC|HIC|IH",
    "J|J|L|L|HI|IH",
    "J|J|L|L|M|M",
};

static char *read_data(const char *name)
{
    char path[1024];
    static char buf[1 << 14];
    snprintf(path, sizeof path, "%s/%s", SP_TEST_DATA_DIR, name);
    return sp_test_read_file(path, buf, sizeof buf);
}

START_TEST(whole_game)
{
    sp_replay *r = replay_legal(read_data("game-5spots.rec"));
    ck_assert_uint_eq(sp_replay_steps(r), 13);
    for (size_t k = 0; k < 13; k++) {
        ck_assert_msg(position_is(r, k, game_positions[k]), "after move %zu: not %s", k, game_positions[k]);
        ck_assert_uint_eq(sp_replay_lives(r, k), 15 - k);
    }
    size_t len;
    sp_replay_pos(r, 12, 0, &len);
    ck_assert_uint_eq(len, 0); /* no move left */
    ck_assert_uint_eq(sp_replay_nreadings(r), 1);
    const sp_lab *end = sp_replay_reading(r, 0);
    ck_assert_uint_eq(sp_lab_lives(end), 3);
    ck_assert(share_region(end, 11, 17) && share_region(end, 1, 17) && !share_region(end, 14, 17));
    sp_replay_free(r);

    /* The last move with '!' at both ends is drawn in the small face (8 11 5) instead: the same
     * position, another drawing. */
    char text[1 << 14];
    snprintf(text, sizeof text, "%s", read_data("game-5spots.rec"));
    char *last = strstr(text, "5(17)11");
    ck_assert_ptr_nonnull(last);
    memcpy(last, "5!(17)!11 II\n", 14);
    r = replay_legal(text);
    sp_replay_pos(r, 12, 0, &len);
    ck_assert_uint_eq(len, 0);
    ck_assert(!share_region(sp_replay_reading(r, 0), 1, 17));
    sp_replay_free(r);
}
END_TEST

/* ---------------------------------------------------------------- real records */

/* Whether a position key of some step is among the children of some position of the step before:
 * the replay of a drawing agrees with the solver's move generation on the simplified positions. */
static bool follows(const sp_replay *r, size_t step, sp_children *ch)
{
    for (size_t i = 0; i < sp_replay_npos(r, step - 1); i++) {
        size_t len, klen;
        const sp_tok *key = sp_replay_pos(r, step - 1, i, &len);
        ck_assert_int_eq(sp_expand_pos(ctx, NULL, key, len, ch), 0);
        for (size_t k = 0; k < sp_replay_npos(r, step); k++) {
            const sp_tok *child = sp_replay_pos(r, step, k, &klen);
            if (sp_children_find(ch, child, klen) >= 0)
                return true;
        }
    }
    return false;
}

/* Every record in tests/data/records/ (real games, kept verbatim with their source; see the README
 * there) replays: each move is legal, its positions follow from the position before by one move of
 * the solver's move generation, and the lives go down by one a move. */
START_TEST(real_records_replay)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/records", SP_TEST_DATA_DIR);
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    sp_children ch;
    sp_children_init(&ch);
    size_t files = 0, moves = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 4, ".rec"))
            continue;
        char name[600];
        snprintf(name, sizeof name, "records/%s", e->d_name);
        const char *text = read_data(name);
        ck_assert_msg(!strncmp(text, "# source: ", 10), "%s: no source line", name);
        sp_record rec;
        parse_ok(text, &rec);
        sp_replay *r = replay(text);
        ck_assert_msg(sp_replay_legal(r), "%s: move %zu: %s", name, sp_replay_error_move(r), sp_replay_error(r));
        ck_assert_uint_eq(sp_replay_steps(r), rec.nmoves + 1);
        for (size_t k = 1; k < sp_replay_steps(r); k++) {
            ck_assert_uint_eq(sp_replay_lives(r, k), 3 * rec.spots - k);
            ck_assert_msg(follows(r, k, &ch), "%s: the position after move %zu is no child of the one before", name, k);
        }
        moves += rec.nmoves;
        files++;
        sp_rec_free(&rec);
        sp_replay_free(r);
    }
    closedir(d);
    sp_children_free(&ch);
    ck_assert_uint_ge(files, 20);
    ck_assert_uint_ge(moves, 150);
}
END_TEST

/* ---------------------------------------------------------------- the program */

static char out[1 << 16], err[1 << 14];

static int run(const char *a1, const char *a2, const char *a3, const char *a4, const char *a5)
{
    char *argv[] = {(char *)sp_test_program, "replay", (char *)a1, (char *)a2, (char *)a3, (char *)a4, (char *)a5, NULL};
    return sp_test_run2(argv, out, sizeof out, err, sizeof err);
}


/* Writes text to a fresh temporary file; the caller unlinks it. */
static void temp_record(char *path, const char *text)
{
    strcpy(path, "/tmp/sp_test_record_XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
    close(fd);
}

static const char *data_path(const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", SP_TEST_DATA_DIR, name);
    return path;
}

START_TEST(program_replays)
{
    ck_assert_int_eq(run("--help", NULL, NULL, NULL, NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "Usage: sprouts replay"));
    ck_assert_int_eq(run(data_path("game-5spots.rec"), NULL, NULL, NULL, NULL), 0);
    ck_assert_int_eq(sp_test_lines(out), 2 + 13); /* header, column names, start and 12 moves */
    ck_assert_ptr_nonnull(strstr(out, " 12  5(17)11"));
    ck_assert_ptr_nonnull(strstr(out, "\n  4  1(9)2 [3,7]     11  ")); /* the move column is 11 wide */
    ck_assert_str_eq(err, "");
    ck_assert_int_eq(run(data_path("game-5spots.rec"), "--json", NULL, NULL, NULL), 0);
    ck_assert_int_eq(sp_test_lines(out), 1);
    ck_assert_ptr_nonnull(strstr(out, "\"legal\": true"));
    ck_assert_ptr_nonnull(strstr(out, "\"players\": [\"Ann\", \"Bob\"], \"chooser\": 2, \"winner\": 2"));
    ck_assert_ptr_nonnull(strstr(out, "{\"move\": \"5(17)11\", \"position\": \"!\", \"lives\": 3}]"));
    ck_assert_ptr_null(strstr(out, "\"outcome\""));
}
END_TEST

START_TEST(program_rejects)
{
    char path[64];
    temp_record(path, "2+ 1(3)2\n1(4)2 1(5)3 1(6)2\n");
    ck_assert_int_eq(run(path, NULL, NULL, NULL, NULL), 2);
    ck_assert_int_eq(sp_test_lines(out), 2 + 4); /* the moves before the illegal one are shown */
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_ptr_nonnull(strstr(err, "move 4 '1(6)2' (line 2, column 13): spot 1 is dead"));
    ck_assert_int_eq(run(path, "--json", NULL, NULL, NULL), 2);
    ck_assert_ptr_nonnull(strstr(out, "\"legal\": false, \"readings\": 1, \"ambiguous\": false, \"error_move\": 4"));
    unlink(path);

    temp_record(path, "5+ (Ann - Bob)\n1(6)2 3(7)4 [1-]\n");
    ck_assert_int_eq(run(path, NULL, NULL, NULL, NULL), 2);
    ck_assert_str_eq(out, "");
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_ptr_nonnull(strstr(err, "line 2, column 16: expected a number"));
    ck_assert_int_eq(run(path, "--json", NULL, NULL, NULL), 2);
    ck_assert_ptr_nonnull(strstr(out, "\"legal\": false, \"error_line\": 2, \"error_column\": 16"));
    unlink(path);

    temp_record(path, "3+ 1(4)2 1(5)2 [3] 4(6)5 [1]");
    ck_assert_int_eq(run(path, NULL, NULL, NULL, NULL), 0); /* ambiguous but legal: a note */
    ck_assert_ptr_nonnull(strstr(err, "ambiguous: 2 drawings"));
    unlink(path);

    ck_assert_int_eq(run("/nonexistent/record", NULL, NULL, NULL, NULL), 2);
    ck_assert_int_eq(run("a", "b", NULL, NULL, NULL), 2);
    ck_assert_int_eq(run("--budget-ms", "0", NULL, NULL, NULL), 2);
    ck_assert_int_eq(run("--frobnicate", NULL, NULL, NULL, NULL), 2);
    ck_assert_int_eq(sp_test_lines(err), 1);
}
END_TEST

/* The value of "outcome" after the k-th occurrence of "outcome" in a JSON line (0: the start). */
static const char *nth_outcome(const char *json, int k)
{
    const char *p = json;
    for (int i = 0; i <= k; i++) {
        p = strstr(p, "\"outcome\": \"");
        ck_assert_ptr_nonnull(p);
        p += strlen("\"outcome\": \"");
    }
    return p;
}

START_TEST(program_analyses)
{
    /* 5 spots: the first player wins in normal and in misère play (Applegate et al.; OEIS A164950).
     * After the last move no move is left: the player to move loses in normal play, wins in misère.
     * A move is a mistake exactly when the outcome before it and after it are both "win". */
    const char *rec = data_path("game-5spots.rec");
    ck_assert_int_eq(run(rec, "--analyse", "--json", "--threads", "1"), 0);
    ck_assert(!strncmp(nth_outcome(out, 0), "win\"", 4));
    ck_assert(!strncmp(nth_outcome(out, 12), "loss\"", 5));
    int mistakes = 0;
    for (int k = 1; k <= 12; k++) {
        bool want = !strncmp(nth_outcome(out, k - 1), "win\"", 4) && !strncmp(nth_outcome(out, k), "win\"", 4);
        const char *mark = strstr(nth_outcome(out, k), "\"mistake\": ");
        ck_assert_ptr_nonnull(mark);
        ck_assert_int_eq(!strncmp(mark + 11, "true", 4), want);
        mistakes += want;
    }
    ck_assert_int_eq(run(rec, "--analyse", "--threads", "1", NULL), 0);
    int marks = 0;
    for (const char *p = out; (p = strstr(p, "mistake")); p++)
        marks++;
    ck_assert_int_eq(marks, mistakes + 1); /* and the column name */

    char path[64];
    temp_record(path, "5- 1(6)2 3(7)3 [4] 5(8)!6 1(9)2 [3,7] 4(10)4 5(11)8 7(12)4 3(13)9 10(14)12 1(15)13 "
                      "2(16)15 5(17)11");
    ck_assert_int_eq(run(path, "--analyse", "--json", "--threads", "1"), 0);
    ck_assert_ptr_nonnull(strstr(out, "\"play\": \"misere\""));
    ck_assert(!strncmp(nth_outcome(out, 0), "win\"", 4));
    ck_assert(!strncmp(nth_outcome(out, 12), "win\"", 4));
    unlink(path);
}
END_TEST

int main(int argc, char **argv)
{
    Suite *s = suite_create("record");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, header_forms);
    tcase_add_test(tc, move_forms);
    tcase_add_test(tc, malformed_records);
    tcase_add_test(tc, quotes_stay_one_line);
    suite_add_tcase(s, tc);
    tc = tcase_create("replay");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, seed_four_readings);
    tcase_add_test(tc, enclosing_moves);
    tcase_add_test(tc, at_and_later_moves_decide);
    tcase_add_test(tc, bang_fixes_the_orientation);
    tcase_add_test(tc, lists_as_players_write_them);
    tcase_add_test(tc, illegal_moves);
    tcase_add_test(tc, whole_game);
    tcase_add_test(tc, real_records_replay);
    suite_add_tcase(s, tc);
    tc = tcase_create("program");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, program_replays);
    tcase_add_test(tc, program_rejects);
    tcase_add_test(tc, program_analyses);
    suite_add_tcase(s, tc);
    return sp_test_main(s, argc, argv);
}
