/* test_variants.c: the variants of solver/variants.h: Brussels positions, moves and game lengths,
 * black-and-white moves and nimbers, worked out by hand on small cases; the plain moves untouched. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "antwerp.h"
#include "brussels.h"
#include "canonical.h"
#include "children.h"
#include "movegen.h"
#include "rng.h"
#include "simplify.h"
#include "symmetry.h"
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

/* ---------------------------------------------------------------- raw minimax: no canonical forms */

/* The slow references: plain minimax over raw positions, the move generator's children as they come
 * (never simplified, never keyed, no memo), so that they share nothing with the solvers but the move
 * generator. A raw Antwerp position keeps each letter's colour by id: the generator never reuses an
 * id along a game (movegen.h: the new spot takes the parent's first free id, the ends that become
 * letters the next ones). */
typedef struct raw_game {
    bool hot;
    uint8_t idcol[SP_MAX_SYMS];
    uint64_t nodes;
} raw_game;

typedef struct raw_step {
    raw_game *g;
    const sp_pos *parent;
    sp_player who;
    unsigned before[3];
    int won;
} raw_step;

/* Distinct letters of each colour among ids below `limit` (the parent's: older than the move). */
static void raw_counts(const sp_pos *p, const uint8_t *idcol, unsigned limit, unsigned count[3])
{
    bool seen[SP_MAX_SYMS] = {false};
    count[0] = count[1] = count[2] = 0;
    for (unsigned i = 0; i < p->nsym; i++) {
        unsigned k = p->sym[i] - (unsigned)SP_SYM_LETTER;
        if (sp_sym_is_letter(p->sym[i]) && k < limit && !seen[k]) {
            seen[k] = true;
            count[idcol[k]]++;
        }
    }
}

static int raw_aw_wins(raw_game *g, const sp_pos *p, sp_player who);

/* A move is the mover's when it used (killed) no letter of the colour the mover may not touch: Left
 * none red, Right none blue; spots with 2 or 3 lives are white. Cold: Left draws red, Right blue. */
static int raw_aw_child(void *arg, sp_pos *child, uint32_t move)
{
    raw_step *st = arg;
    unsigned after[3], fresh = st->parent->nletter;
    unsigned banned = st->who == SP_LEFT ? SP_RED : SP_BLUE;
    (void)move;
    raw_counts(child, st->g->idcol, fresh, after);
    if (after[banned] != st->before[banned])
        return 0;
    st->g->idcol[fresh] = (uint8_t)(((st->who == SP_LEFT) != st->g->hot) ? SP_RED : SP_BLUE);
    st->g->idcol[fresh + 1] = st->g->idcol[fresh + 2] = SP_WHITE;
    int w = raw_aw_wins(st->g, child, st->who == SP_LEFT ? SP_RIGHT : SP_LEFT);
    SP_CHECK(w >= 0);
    if (w)
        return 0;
    st->won = 1;
    return 1;
}

static int raw_aw_wins(raw_game *g, const sp_pos *p, sp_player who)
{
    raw_step st = {g, p, who, {0}, 0};
    g->nodes++;
    raw_counts(p, g->idcol, p->nletter, st.before);
    SP_CHECK(sp_pos_moves(p, raw_aw_child, &st) >= 0);
    return st.won;
}

static int raw_bw_child(void *arg, sp_pos *child, uint32_t move);

static int raw_bw_wins(const sp_pos *p, uint64_t *nodes)
{
    int won = 0;
    void *arg[2] = {&won, nodes};
    ++*nodes;
    SP_CHECK(sp_pos_moves_rules(p, SP_MOVES_BW, raw_bw_child, arg) >= 0);
    return won;
}

static int raw_bw_child(void *arg, sp_pos *child, uint32_t move)
{
    void **a = arg;
    (void)move;
    if (raw_bw_wins(child, a[1]))
        return 0;
    *(int *)a[0] = 1;
    return 1;
}

/* The solvers' side: the key of a raw position, its letters' colours by id spread beside the symbols. */
static size_t raw_key(const sp_pos *p, const uint8_t *idcol, sp_tok *key)
{
    uint8_t col[SP_MAX_SYMS];
    for (unsigned i = 0; i < p->nsym; i++)
        col[i] = sp_sym_is_letter(p->sym[i]) ? idcol[p->sym[i] - SP_SYM_LETTER] : SP_WHITE;
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    size_t len = sp_pos_key_colours(ctx, p, col, key);
    sp_canon_ctx_free(ctx);
    return len;
}

/* A random move (any Sprouts move, its new spot given a random colour: any colouring is an Antwerp
 * position, however it came about; or a black-and-white move, with or without its spot, all white). */
typedef struct pick {
    uint32_t want, seen;
    sp_pos *out;
} pick;

static int pick_move(void *arg, sp_pos *child, uint32_t move)
{
    pick *k = arg;
    (void)move;
    if (k->seen++ != k->want)
        return 0;
    memcpy(k->out, child, sizeof *child);
    return 1;
}

static int count_move(void *arg, sp_pos *child, uint32_t move)
{
    (void)child, (void)move;
    ++*(uint32_t *)arg;
    return 0;
}

/* Plays `moves` random moves from 0*n into *p (fewer when the game ends); colours by id into idcol. */
static void random_raw(unsigned n, unsigned moves, sp_move_rules rules, uint64_t *rng, sp_pos *p, uint8_t *idcol)
{
    sp_pos *next = malloc(sizeof *next);
    ck_assert(sp_pos_spots(p, n));
    for (unsigned m = 0; m < moves; m++) {
        uint32_t total = 0;
        ck_assert_int_eq(sp_pos_moves_rules(p, rules, count_move, &total), 0);
        if (!total)
            break;
        pick k = {(uint32_t)(sp_rng_next(rng) % total), 0, next};
        ck_assert_int_eq(sp_pos_moves_rules(p, rules, pick_move, &k), 1);
        unsigned fresh = p->nletter;
        for (unsigned id = fresh; id < fresh + 3; id++)
            idcol[id] = id == fresh && rules == SP_MOVES_SPROUTS ? (uint8_t)(sp_rng_next(rng) % 3) : SP_WHITE;
        memcpy(p, next, sizeof *p);
    }
    free(next);
}

/* BW: the outcome of sp_variants_bw_nimber (first player wins iff not 0) against the raw minimax, on
 * 0*1..0*4 (the table's 0*4, a loss, against the seed's "the first player wins") and on positions
 * of random black-and-white games from 0*3 and 0*4. */
START_TEST(bw_against_raw_minimax)
{
    sp_variants *v = sp_variants_new(SP_RULES_BW, 64u << 20);
    sp_pos *p = malloc(sizeof *p);
    sp_tok key[SP_KEY_MAX];
    uint8_t idcol[SP_MAX_SYMS] = {0};
    static const int want[] = {1, 1, 1, 0};
    for (unsigned n = 1; n <= 4; n++) {
        uint64_t nodes = 0;
        ck_assert(sp_pos_spots(p, n));
        int raw = raw_bw_wins(p, &nodes);
        int g = sp_variants_bw_nimber(v, key, raw_key(p, idcol, key));
        ck_assert_int_ge(g, 0);
        ck_assert_msg(raw == (g != 0), "0*%u: raw minimax %d, nimber %d", n, raw, g);
        ck_assert_int_eq(raw, want[n - 1]);
    }
    uint64_t rng = 26;
    for (unsigned t = 0; t < 60; t++) {
        uint64_t nodes = 0;
        random_raw(3 + t % 2, 1 + t % 5, SP_MOVES_BW, &rng, p, idcol);
        char s[512];
        sp_pos_print(p, SP_SYNTAX_V2, s, sizeof s);
        int raw = raw_bw_wins(p, &nodes);
        int g = sp_variants_bw_nimber(v, key, raw_key(p, idcol, key));
        ck_assert_msg(raw == (g > 0), "%s: raw minimax %d, nimber %d", s, raw, g);
    }
    free(p);
    sp_variants_free(v);
}
END_TEST

/* ---------------------------------------------------------------- Antwerp */

static size_t aw_key_of(const char *text, sp_tok *key)
{
    sp_pos p;
    uint8_t col[SP_MAX_SYMS];
    sp_parse_error err;
    ck_assert_msg(sp_pos_parse_colours(text, &p, col, &err) == 0, "%s: %s", text, err.message);
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    size_t len = sp_pos_key_colours(ctx, &p, col, key);
    sp_canon_ctx_free(ctx);
    return len;
}

static int aw_class_of(sp_variants *v, const char *text)
{
    sp_tok key[SP_KEY_MAX];
    return sp_variants_antwerp_class(v, key, aw_key_of(text, key));
}

static int aw_wins_of(sp_variants *v, const char *text, sp_player who)
{
    sp_tok key[SP_KEY_MAX];
    return sp_variants_antwerp_wins(v, key, aw_key_of(text, key), who);
}

static void aw_canon(const char *text, char *buf, size_t cap)
{
    sp_tok key[SP_KEY_MAX];
    size_t len = aw_key_of(text, key);
    sp_pos p;
    uint8_t col[SP_MAX_SYMS];
    ck_assert_int_eq(sp_key_decode_colours(key, len, &p, col), 0);
    sp_pos_print_colours(&p, col, SP_SYNTAX_V2, buf, cap);
}

/* Strings: colours parsed, printed and kept by simplification; bad ones refused with the place. */
START_TEST(aw_strings)
{
    char a[256], b[256];
    aw_canon("AB:r|0.AB:r", a, sizeof a);
    ck_assert_str_eq(a, "AB:r|0.AB:r");
    aw_canon("0.B:rA|A:wB:r", b, sizeof b); /* rotated, reordered, renamed; ":w" is white */
    ck_assert_str_eq(a, b);
    /* a letter seen once becomes a '2' of its colour; a dead region goes */
    aw_canon("0.1a1a.2:b", a, sizeof a);
    ck_assert_ptr_nonnull(strstr(a, "2:b"));
    sp_pos p;
    uint8_t col[SP_MAX_SYMS];
    sp_parse_error err;
    static const struct {
        const char *text;
        int column;
        const char *says;
    } bad[] = {
        {"0*2.1:r", 6, "always white"},          {"0:b", 2, "always white"},
        {"AB:r|AB", 7, "red at column 2 but white"}, {"2:x", 2, "not ':x'"},
        {"2:", 2, "not ':'"},                     {"a:ra:b", 4, "red at column 1 but blue"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(sp_pos_parse_colours(bad[i].text, &p, col, &err) == -1, "'%s' accepted", bad[i].text);
        ck_assert_msg(err.column == bad[i].column && strstr(err.message, bad[i].says), "'%s': column %d: %s",
                      bad[i].text, err.column, err.message);
    }
    /* the plain syntax refuses colours, and says where they belong */
    ck_assert_int_eq(sp_pos_parse("2:r2", &p, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.message, "antwerp"));
}
END_TEST

/* Symmetric positions share a key, differently coloured ones do not: colours are not interchangeable
 * (red is not blue, nor white), and only the symmetries that keep every spot's colour meet. */
START_TEST(aw_keys)
{
    static const char *same[][2] = {
        {"12:r2:b2", "122:b2:r"},                   /* a region mirrored (its boundary reversed) */
        {"AB:rC:b|1AB:rC:b.0", "0.C:bB:rA1|C:bAB:r"}, /* mirrored, reordered, sorted 3-lives region */
        {"AB:r|AB:r+1a:b1a:b", "a:b1a:b1+B:rA|AB:r"}, /* lands reordered, rotated, renamed */
    };
    static const char *differ[][2] = {
        {"12:r2:b2", "12:b2:r2"},                   /* colours exchanged on one boundary */
        {"AB:rC:b|1AB:rC:b.0", "AB:rC:b|1B:rAC:b.0"}, /* the 5-lives region's colour order */
        {"AB:r|0.AB:r", "AB:b|0.AB:b"},             /* red is not blue */
        {"AB:r|0.AB:r", "AB|0.AB"},                 /* nor white */
        {"AB:r|AB:r+1a:b1a:b", "AB:b|AB:b+1a:r1a:r"},
    };
    sp_tok k1[SP_KEY_MAX], k2[SP_KEY_MAX];
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        size_t l1 = aw_key_of(same[i][0], k1), l2 = aw_key_of(same[i][1], k2);
        ck_assert_msg(sp_key_cmp(k1, l1, k2, l2) == 0, "%s and %s differ", same[i][0], same[i][1]);
    }
    for (size_t i = 0; i < sizeof differ / sizeof differ[0]; i++) {
        size_t l1 = aw_key_of(differ[i][0], k1), l2 = aw_key_of(differ[i][1], k2);
        ck_assert_msg(sp_key_cmp(k1, l1, k2, l2) != 0, "%s and %s share a key", differ[i][0], differ[i][1]);
    }
    /* a red and a blue spot alone in a region: nobody can join them, the region goes (the letters
     * become '2's in their other region); a plain key never carries a colour */
    char text[64];
    aw_canon("A:rB:b|0.A:rB:b", text, sizeof text);
    ck_assert_str_eq(text, "0.2:r2:b");
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    sp_pos p;
    sp_parse_error err;
    ck_assert_int_eq(sp_pos_parse("0.AB|AB", &p, &err), 0);
    size_t l = sp_pos_key(ctx, &p, k1);
    for (size_t i = 0; i < l; i++)
        ck_assert_uint_eq(sp_tk_colour(k1[i]), 0);
    sp_canon_ctx_free(ctx);
}
END_TEST

/* Random coloured positions: every random image under the symmetries has the same key, the key
 * decodes to a position with the same key (and colours), and a colour swap exchanges the players. */
START_TEST(aw_random_images)
{
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    sp_variants *cold = sp_variants_new(SP_RULES_ANTWERP_COLD, 64u << 20);
    sp_variants *hot = sp_variants_new(SP_RULES_ANTWERP_HOT, 64u << 20);
    sp_pos *p = malloc(sizeof *p), *q = malloc(sizeof *q), *d = malloc(sizeof *d);
    uint8_t idcol[SP_MAX_SYMS] = {0}, col[SP_MAX_SYMS], qcol[SP_MAX_SYMS], dcol[SP_MAX_SYMS];
    sp_tok k1[SP_KEY_MAX], k2[SP_KEY_MAX];
    uint64_t rng = 2026;
    for (unsigned t = 0; t < 200; t++) {
        random_raw(3 + t % 4, 1 + t % 7, SP_MOVES_SPROUTS, &rng, p, idcol);
        for (unsigned i = 0; i < p->nsym; i++)
            col[i] = sp_sym_is_letter(p->sym[i]) ? idcol[p->sym[i] - SP_SYM_LETTER] : SP_WHITE;
        sp_pos_simplify_colours(p, col);
        size_t l1 = sp_canon_pos_colours(ctx, p, col, k1);
        for (unsigned j = 0; j < 4; j++) {
            sp_sym_random_image_colours(p, col, q, qcol, &rng);
            size_t l2 = sp_canon_pos_colours(ctx, q, qcol, k2);
            ck_assert(sp_key_cmp(k1, l1, k2, l2) == 0);
        }
        ck_assert_int_eq(sp_key_decode_colours(k1, l1, d, dcol), 0);
        size_t l2 = sp_canon_pos_colours(ctx, d, dcol, k2);
        ck_assert(sp_key_cmp(k1, l1, k2, l2) == 0);
        if (sp_pos_lives(p) > 12)
            continue;
        sp_aw_swap(p, col);
        l2 = sp_canon_pos_colours(ctx, p, col, k2);
        for (int h = 0; h < 2; h++) {
            sp_variants *v = h ? hot : cold;
            ck_assert_int_eq(sp_variants_antwerp_wins(v, k1, l1, SP_LEFT), sp_variants_antwerp_wins(v, k2, l2, SP_RIGHT));
            ck_assert_int_eq(sp_variants_antwerp_wins(v, k1, l1, SP_RIGHT), sp_variants_antwerp_wins(v, k2, l2, SP_LEFT));
        }
    }
    free(p), free(q), free(d);
    sp_variants_free(cold);
    sp_variants_free(hot);
    sp_canon_ctx_free(ctx);
}
END_TEST

/* By hand, cold (Left draws red, Right blue; Left may not touch red, Right not blue).
 * A region of a white and a red spot only Right can play (-1 in game values), of white and blue only
 * Left (+1), of red and blue nobody.
 * 0*1: the only move is a loop, leaving the old spot (white) and the new one seen from both faces:
 * Left's loop leaves AB:r|AB:r, where only Right can move: Right wins it whoever starts. So Left
 * moving first loses, and so, by the colour symmetry, does Right: the second player wins.
 * 0*2: Left's moves are a loop around the other spot or not (one child, AB:r|0.AB:r) and the join
 * (1a:r1a:r). In AB:r|0.AB:r Right joins A and B in the 2-life face: the other face is then 0*1,
 * which the player to move (Left) loses. In 1a:r1a:r (x R y R around one boundary) Right joins the
 * two white 1s: both faces hold x', y' (white), the blue b and R, all upper case (AB:bCD:r|CB:bAD:r).
 * Left may use x', y', b: joining x' and y' in a face leaves faces {r, R} and {r, b} (the other
 * face {b, R} is stuck), where Right moves and Left is left with nothing; joining b to x' (or y')
 * leaves {y', R} in the other face, which Right takes, and nothing is left. So Left moving first
 * loses 0*2 and the second player wins. (Right's other replies to 1a:r1a:r lose: a join of a 1 to R
 * leaves AB:b1|AB:b, where Left loops at the 1 and wins; a loop at a 1 leaves 2:ba:r1a:r, where Left
 * loops at the 1 again and Right, left with only the two reds and then a blue pair for Left, loses.)
 * Hot (Left draws blue, Right red): 0*1: Left's loop leaves AB:b|AB:b, which only Left can play:
 * Left wins moving first, and by symmetry so does Right: the first player wins. 0*2: Left joins the
 * two spots, 1a:b1a:b: Right may only loop at a 1 (2:ra:b1a:b: Left loops at the other 1, and Right,
 * with red r beside blue b and b', has no move) or join the 1s (AB:rCD:b|CB:rAD:b: Left joins x', y'
 * in a face, leaving {b', b} for Left alone and stuck {b', r}, {r, b}: Right has no move). Right loses
 * both: the first player wins. */
START_TEST(aw_by_hand)
{
    /* "RULES POSITION WANT": WANT a class (P second player wins, N first, L Left, R Right) or who is
     * to move and whether that player wins (L+, R-) */
    static const char *const rows[] = {
        "cold 2:r2 R", "cold 2:b2 L", "cold 22 N", "cold AB:r|AB:r R", "cold 0 P", "cold AB:r|0.AB:r R+",
        "cold 1a:r1a:r R+", "cold AB:bCD:r|CB:bAD:r L-", "cold AB:b1|AB:b L+", "cold 2:ba:r1a:r L+", "cold 0*2 P",
        "hot AB:b|AB:b L", "hot 0 N", "hot 1a:b1a:b R-", "hot 2:ra:b1a:b L+", "hot AB:rCD:b|CB:rAD:b L+",
        "hot 0*2 N", "hot ! P",
    };
    sp_variants *v[2] = {sp_variants_new(SP_RULES_ANTWERP_COLD, 16u << 20),
                         sp_variants_new(SP_RULES_ANTWERP_HOT, 16u << 20)};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char rules[8], pos[64], want[4];
        ck_assert_int_eq(sscanf(rows[i], "%7s %63s %3s", rules, pos, want), 3);
        sp_variants *w = v[!strcmp(rules, "hot")];
        int got, expect;
        if (want[1]) {
            got = aw_wins_of(w, pos, want[0] == 'L' ? SP_LEFT : SP_RIGHT);
            expect = want[1] == '+';
        } else {
            got = aw_class_of(w, pos);
            expect = (int)(strchr("PLRN", want[0]) - "PLRN");
        }
        ck_assert_msg(got == expect, "%s: %d, not %d", rows[i], got, expect);
    }
    sp_variants_free(v[0]);
    sp_variants_free(v[1]);
}
END_TEST

/* The memoised solver against the raw minimax: 0*1..0*4 and 200 positions of random games (any colours
 * on the spots drawn), each player to move, cold and hot. */
START_TEST(aw_against_raw_minimax)
{
    sp_variants *v[2] = {sp_variants_new(SP_RULES_ANTWERP_COLD, 64u << 20),
                         sp_variants_new(SP_RULES_ANTWERP_HOT, 64u << 20)};
    raw_game *g = calloc(1, sizeof *g);
    sp_pos *p = malloc(sizeof *p);
    sp_tok key[SP_KEY_MAX];
    uint64_t rng = 7;
    for (unsigned t = 0; t < 4 + 200; t++) {
        if (t < 4)
            ck_assert(sp_pos_spots(p, t + 1));
        else
            random_raw(3 + t % 3, 2 + t % 6, SP_MOVES_SPROUTS, &rng, p, g->idcol);
        size_t len = raw_key(p, g->idcol, key);
        char s[512];
        sp_pos_print(p, SP_SYNTAX_V2, s, sizeof s);
        for (int h = 0; h < 2; h++)
            for (int who = 0; who < 2; who++) {
                g->hot = h;
                int raw = raw_aw_wins(g, p, (sp_player)who);
                int got = sp_variants_antwerp_wins(v[h], key, len, (sp_player)who);
                ck_assert_msg(raw == got, "%s (%s, %s to move): raw minimax %d, solver %d", s, h ? "hot" : "cold",
                              who ? "Right" : "Left", raw, got);
            }
    }
    free(p);
    free(g);
    sp_variants_free(v[0]);
    sp_variants_free(v[1]);
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
    sp_test_add_case(s, "bw_against_raw_minimax", bw_against_raw_minimax, NULL, NULL, 300);
    TCase *aw = tcase_create("antwerp");
    tcase_add_test(aw, aw_strings);
    tcase_add_test(aw, aw_keys);
    tcase_add_test(aw, aw_by_hand);
    tcase_set_timeout(aw, 60);
    suite_add_tcase(s, aw);
    sp_test_add_case(s, "aw_random_images", aw_random_images, NULL, NULL, 300);
    sp_test_add_case(s, "aw_against_raw_minimax", aw_against_raw_minimax, NULL, NULL, 300);
    return sp_test_main(s, argc, argv);
}
