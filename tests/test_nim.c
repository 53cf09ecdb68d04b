/* test_nim.c: the Nim-family modules (solver/nim/): hand-worked cases of each game, the retrograde
 * engine on a small graph with a cycle, the exhaustive checks on small sizes, planted wrong
 * predictions that the checks must reject, and the `nimfam` program's command line and play. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fibonacci.h"
#include "marienbad.h"
#include "northcott.h"
#include "retro.h"
#include "testutil.h"

/* ---------------------------------------------------------------- Marienbad */

static bool mb_wins(const sp_mb_table *t, unsigned a, unsigned b, unsigned c, unsigned d)
{
    unsigned rows[4] = {a, b, c, d};
    return sp_mb_table_wins(t, rows);
}

START_TEST(marienbad_by_hand)
{
    static const unsigned box[4] = {3, 3, 3, 7};
    sp_mb_table *t = sp_mb_table_new(box, 4, NULL);
    ck_assert_ptr_nonnull(t);
    ck_assert_uint_eq(sp_mb_table_positions(t), 4 * 4 * 4 * 8);
    /* Nothing left: the opponent took the last match, so the player to move has won. */
    ck_assert(mb_wins(t, 0, 0, 0, 0));
    /* One match: it must be taken, and whoever takes it loses. */
    ck_assert(!mb_wins(t, 1, 0, 0, 0));
    /* Two matches in a row: take one and leave the last to the opponent. */
    ck_assert(mb_wins(t, 0, 2, 0, 0));
    /* Two single matches: take one, the opponent takes the last. Three: the opposite. */
    ck_assert(mb_wins(t, 1, 1, 0, 0));
    ck_assert(!mb_wins(t, 1, 1, 1, 0));
    /* 2,2: taking one row leaves 2 (opponent leaves 1 to us); taking one match leaves 1,2 and the
     * opponent empties the 2, leaving us the last. */
    ck_assert(!mb_wins(t, 2, 2, 0, 0));
    sp_mb_table_free(t);
    static const unsigned seed_box[4] = {1, 3, 5, 7};
    t = sp_mb_table_new(seed_box, 4, NULL);
    ck_assert(!mb_wins(t, 1, 3, 5, 7)); /* the seed: the player who begins cannot force a win */
    ck_assert(mb_wins(t, 1, 3, 5, 0)); /* after the first player empties row 4 */
    ck_assert(!mb_wins(t, 1, 3, 2, 0)); /* the seed's answer leaves a lost position */
    sp_mb_move m;
    unsigned rows[4] = {1, 3, 5, 0};
    ck_assert(sp_mb_table_winning_move(t, rows, &m));
    ck_assert_uint_eq(m.row, 2);
    ck_assert_uint_eq(m.take, 3);
    sp_mb_table_free(t);
}
END_TEST

START_TEST(marienbad_bouton_holds)
{
    static const unsigned box[4] = {7, 7, 7, 7};
    sp_mb_table *t = sp_mb_table_new(box, 4, NULL);
    sp_mb_rule_report r;
    ck_assert(sp_mb_check_rule(t, sp_mb_bouton_misere, &r));
    ck_assert_uint_eq(r.positions, 4096);
    ck_assert_uint_eq(r.mismatches, 0);
    sp_mb_table_free(t);
}
END_TEST

START_TEST(marienbad_planted_rule_fails)
{
    static const unsigned box[4] = {1, 3, 5, 7};
    sp_mb_table *t = sp_mb_table_new(box, 4, NULL);
    sp_mb_rule_report r;
    ck_assert(!sp_mb_check_rule(t, sp_mb_normal_play_rule, &r));
    ck_assert_uint_gt(r.mismatches, 0);
    /* the empty position comes first: misère says won, normal play says lost */
    for (unsigned i = 0; i < 4; i++)
        ck_assert_uint_eq(r.first_bad[i], 0);
    sp_mb_table_free(t);
}
END_TEST

/* Planted error: Bouton's rule, wrong at 2,2 alone. The check must find that one position. */
static bool bouton_but_2_2(const unsigned *rows, unsigned n)
{
    bool at = n == 4 && rows[0] == 2 && rows[1] == 2 && rows[2] == 0 && rows[3] == 0;
    return sp_mb_bouton_misere(rows, n) != at;
}

START_TEST(marienbad_single_wrong_position_found)
{
    static const unsigned box[4] = {3, 3, 3, 3};
    sp_mb_table *t = sp_mb_table_new(box, 4, NULL);
    sp_mb_rule_report r;
    ck_assert(!sp_mb_check_rule(t, bouton_but_2_2, &r));
    ck_assert_uint_eq(r.mismatches, 1);
    ck_assert_uint_eq(r.first_bad[0], 2);
    ck_assert_uint_eq(r.first_bad[1], 2);
    sp_mb_table_free(t);
}
END_TEST

START_TEST(marienbad_seed_strategy_wins)
{
    static const unsigned start[4] = {1, 3, 5, 7};
    sp_mb_play_report r;
    ck_assert(sp_mb_check_strategy(start, 4, sp_mb_seed_strategy, &r));
    ck_assert_uint_gt(r.games, 1000);
    ck_assert_uint_eq(r.won, r.games);
    /* The seed's example 2: from 1,1,5 the only move is to leave 1,1,1. */
    unsigned rows[4] = {1, 1, 5, 0};
    sp_mb_move m[16];
    ck_assert_uint_eq(sp_mb_seed_strategy(rows, 4, m, 16), 1);
    ck_assert_uint_eq(m[0].row, 2);
    ck_assert_uint_eq(m[0].take, 4);
}
END_TEST

START_TEST(marienbad_planted_strategy_fails)
{
    static const unsigned start[4] = {1, 3, 5, 7};
    sp_mb_play_report r;
    ck_assert(!sp_mb_check_strategy(start, 4, sp_mb_xor_only_strategy, &r));
    ck_assert_uint_gt(r.lost + r.stuck, 0);
    /* and the right strategy from a start the first player wins must fail too */
    static const unsigned won_start[4] = {1, 3, 5, 6};
    ck_assert(!sp_mb_check_strategy(won_start, 4, sp_mb_seed_strategy, &r));
}
END_TEST

/* ---------------------------------------------------------------- Fibonacci Nim */

START_TEST(fibonacci_by_hand)
{
    sp_fib_table *t = sp_fib_table_new(100, NULL);
    ck_assert_ptr_nonnull(t);
    ck_assert(sp_fib_wins(t, 1, 1));  /* take the last token */
    ck_assert(!sp_fib_wins(t, 2, 1)); /* the seed: take 1, the opponent takes the other */
    ck_assert(sp_fib_wins(t, 2, 2));
    ck_assert(!sp_fib_wins(t, 3, 2)); /* the seed: 1 or 2 taken, the opponent takes the rest */
    ck_assert(sp_fib_wins(t, 4, 3));  /* the seed: take 1, leaving 3 with limit 2 */
    ck_assert(sp_fib_wins(t, 4, 1));
    ck_assert_uint_eq(sp_fib_winning_take(t, 4, 3), 1);
    ck_assert(!sp_fib_wins(t, 5, 4)); /* taking 1 leaves (4,2) won; 2 leaves (3,4) won; 3, 4 leave all */
    ck_assert(sp_fib_wins(t, 6, 5));
    ck_assert(!sp_fib_wins(t, 8, 7));
    ck_assert(sp_fib_wins(t, 5, 5));  /* a limit of n allows taking everything */
    ck_assert(sp_fib_wins(t, 5, 50));
    sp_fib_table_free(t);
}
END_TEST

START_TEST(fibonacci_zeckendorf_by_hand)
{
    ck_assert_uint_eq(sp_fib_zeckendorf_smallest(75), 2); /* 55 + 13 + 5 + 2 */
    ck_assert_uint_eq(sp_fib_zeckendorf_smallest(100), 3); /* 89 + 8 + 3 */
    ck_assert_uint_eq(sp_fib_zeckendorf_smallest(4), 1);   /* 3 + 1 */
    ck_assert_uint_eq(sp_fib_zeckendorf_smallest(8), 8);
    ck_assert_uint_eq(sp_fib_zeckendorf_smallest(1), 1);
    ck_assert_uint_eq(sp_fib_zeckendorf_take(75, 1), 0);
    ck_assert_uint_eq(sp_fib_zeckendorf_take(75, 2), 2);
    ck_assert(sp_fib_is_fibonacci(1) && sp_fib_is_fibonacci(2) && sp_fib_is_fibonacci(89));
    ck_assert(!sp_fib_is_fibonacci(4) && !sp_fib_is_fibonacci(88) && !sp_fib_is_fibonacci(0));
}
END_TEST

START_TEST(fibonacci_checks_hold)
{
    sp_fib_table *t = sp_fib_table_new(2000, NULL);
    sp_fib_start_report s;
    sp_fib_strategy_report z;
    ck_assert(sp_fib_check_starts(t, sp_fib_is_fibonacci, &s));
    ck_assert_uint_eq(s.piles, 1999);
    ck_assert_uint_eq(s.first_loses, 15); /* 2, 3, 5, ..., 1597 */
    ck_assert(sp_fib_check_strategy(t, sp_fib_zeckendorf_take, NULL, &z));
    ck_assert_uint_eq(z.states, 2000 * 2001 / 2);
    sp_fib_table_free(t);
}
END_TEST

START_TEST(fibonacci_planted_errors_fail)
{
    sp_fib_table *t = sp_fib_table_new(500, NULL);
    sp_fib_start_report s;
    sp_fib_strategy_report z;
    ck_assert(!sp_fib_check_starts(t, sp_fib_is_lucas, &s));
    ck_assert_uint_eq(s.first_bad, 4);
    ck_assert(!sp_fib_check_strategy(t, sp_fib_largest_term_take, NULL, &z));
    ck_assert_uint_gt(z.failures, 0);
    sp_fib_table_free(t);
}
END_TEST

/* Planted error: the Fibonacci numbers and 1000. */
static bool fibonacci_or_1000(uint64_t n)
{
    return n == 1000 || sp_fib_is_fibonacci(n);
}

START_TEST(fibonacci_single_wrong_pile_found)
{
    sp_fib_table *t = sp_fib_table_new(1500, NULL);
    sp_fib_start_report s;
    ck_assert(!sp_fib_check_starts(t, fibonacci_or_1000, &s));
    ck_assert_uint_eq(s.mismatches, 1);
    ck_assert_uint_eq(s.first_bad, 1000);
    sp_fib_table_free(t);
}
END_TEST

START_TEST(fibonacci_example_game)
{
    static const uint64_t takes[] = {24, 16, 6, 5, 2, 4, 5, 4, 2, 2, 1, 1, 1, 2};
    sp_fib_table *t = sp_fib_table_new(100, NULL);
    sp_fib_game_report g;
    sp_fib_check_game(t, 75, takes, 14, &g);
    ck_assert(g.legal && g.finished);
    ck_assert_uint_eq(g.winner, 1);
    ck_assert_uint_eq(g.first_error[0], 0); /* 75 is no Fibonacci number: A's 24 gave the win away */
    /* Illegal: taking everything at the first move; more than twice the previous take. */
    static const uint64_t all[] = {5};
    sp_fib_check_game(t, 5, all, 1, &g);
    ck_assert(!g.legal);
    static const uint64_t greedy[] = {2, 5};
    sp_fib_check_game(t, 10, greedy, 2, &g);
    ck_assert(!g.legal);
    ck_assert_uint_eq(g.bad_move, 1);
    sp_fib_table_free(t);
}
END_TEST

/* ---------------------------------------------------------------- the retrograde engine */

/* 0 <-> 1 (a cycle nobody can leave: draws), 2 has no move (lost), 3 -> 2 (won), 4 -> 3 (lost),
 * 5 -> 0, 4 (won, through 4), 6 -> 0, 3 (a draw: 3 is won for the opponent, 0 a draw). */
static const int toy_edges[][2] = {{0, 1}, {1, 0}, {3, 2}, {4, 3}, {5, 0}, {5, 4}, {6, 0}, {6, 3}};
#define TOY_N 7
#define TOY_E (sizeof toy_edges / sizeof toy_edges[0])

static void toy_counts(const void *ctx, uint64_t first, uint64_t count, unsigned *out)
{
    (void)ctx;
    for (uint64_t s = first; s < first + count; s++) {
        out[s - first] = 0;
        for (size_t e = 0; e < TOY_E; e++)
            out[s - first] += (uint64_t)toy_edges[e][0] == s;
    }
}

static unsigned toy_preds(const void *ctx, uint64_t s, uint64_t *out)
{
    (void)ctx;
    unsigned n = 0;
    for (size_t e = 0; e < TOY_E; e++)
        if ((uint64_t)toy_edges[e][1] == s)
            out[n++] = (uint64_t)toy_edges[e][0];
    return n;
}

START_TEST(retro_toy_graph)
{
    sp_retro_graph g = {TOY_N, 8, toy_counts, toy_preds, NULL};
    uint8_t lab[TOY_N];
    ck_assert_int_eq(sp_retro_solve(&g, lab, NULL, NULL), 0);
    static const sp_retro_outcome_t want[TOY_N] = {SP_RETRO_DRAW, SP_RETRO_DRAW, SP_RETRO_LOSS, SP_RETRO_WIN,
                                                   SP_RETRO_LOSS, SP_RETRO_WIN, SP_RETRO_DRAW};
    for (int s = 0; s < TOY_N; s++)
        ck_assert_msg(sp_retro_outcome(lab[s]) == want[s], "state %d", s);
}
END_TEST

/* ---------------------------------------------------------------- Northcott */

static const sp_nc_mode free_play[2] = {SP_NC_FREE, SP_NC_FREE};

static sp_nc_pos one_row(unsigned cols, unsigned a, unsigned b, unsigned side)
{
    sp_nc_pos p = {1, cols, side, {(uint8_t)a}, {(uint8_t)b}};
    return p;
}

START_TEST(northcott_moves_by_hand)
{
    sp_nc_move m[SP_NC_MAX_ROWS * SP_NC_MAX_COLS];
    sp_nc_pos p = one_row(4, 1, 2, 0);
    /* X at column 1, O at 2 (0-based): X can only go back to 0; O can only go back to 3. */
    ck_assert_uint_eq(sp_nc_moves(&p, SP_NC_FREE, m), 1);
    ck_assert_uint_eq(m[0].to, 0);
    ck_assert(!sp_nc_is_forward(&p, m[0]));
    ck_assert_uint_eq(sp_nc_moves(&p, SP_NC_FORWARD, m), 0);
    p.side = 1;
    ck_assert_uint_eq(sp_nc_moves(&p, SP_NC_FREE, m), 1);
    ck_assert_uint_eq(m[0].to, 3);
    /* X at 0, O at 5 of 6: X has 4 squares ahead, all forward; O has 4, all forward. */
    p = one_row(6, 0, 5, 0);
    ck_assert_uint_eq(sp_nc_moves(&p, SP_NC_FORWARD, m), 4);
    ck_assert_uint_eq(sp_nc_moves(&p, SP_NC_BACKWARD, m), 0);
}
END_TEST

static sp_retro_outcome_t nc_outcome(const sp_nc_space *sp, const uint8_t *lab, sp_nc_pos p)
{
    return sp_retro_outcome(lab[sp_nc_encode(sp, &p)]);
}

START_TEST(northcott_outcomes_by_hand)
{
    sp_nc_space *sp = sp_nc_space_new(1, 4, SP_NC_FULL, free_play);
    uint8_t lab[12];
    sp_retro_graph g = sp_nc_space_graph(sp);
    ck_assert_uint_eq(g.n, 12);
    ck_assert_int_eq(sp_retro_solve(&g, lab, NULL, NULL), 0);
    /* X at 0, O at 1: X cannot move at all and loses. */
    ck_assert(nc_outcome(sp, lab, one_row(4, 0, 1, 0)) == SP_RETRO_LOSS);
    /* X at 0, O at 2 (gap 1): X closes the gap (1, 2); O's only move is back to 3; X closes again
     * (2, 3) and O, against the wall, cannot move. */
    ck_assert(nc_outcome(sp, lab, one_row(4, 0, 2, 0)) == SP_RETRO_WIN);
    /* X at 1, O at 2: X's only move is back to 0 (gap 1), and O closes it to X 0, O 1: X is stuck.
     * A lost position whose only line goes through a backward move. */
    ck_assert(nc_outcome(sp, lab, one_row(4, 1, 2, 0)) == SP_RETRO_LOSS);
    /* X at 0, O at 3, O to move (gap 2): O goes to 1 and X, against the wall, cannot move. */
    ck_assert(nc_outcome(sp, lab, one_row(4, 0, 3, 1)) == SP_RETRO_WIN);
    sp_nc_space_free(sp);
}
END_TEST

START_TEST(northcott_spaces)
{
    ck_assert_uint_eq(sp_nc_state_count(6, 6, SP_NC_FULL), 2 * 11390625ull);
    ck_assert_uint_eq(sp_nc_state_count(6, 6, SP_NC_SORTED), 2 * 38760ull); /* C(20, 6) */
    ck_assert_uint_eq(sp_nc_state_count(8, 8, SP_NC_SORTED), 2 * 23535820ull); /* C(35, 8) */
    ck_assert_uint_eq(sp_nc_state_count(0, 6, SP_NC_FULL), 0);
    ck_assert_uint_eq(sp_nc_state_count(16, 16, SP_NC_FULL), 0); /* too many moves for a label */
    for (int kind = 0; kind < 2; kind++) {
        sp_nc_space *sp = sp_nc_space_new(3, 5, (sp_nc_kind)kind, free_play);
        uint64_t n = sp_nc_space_states(sp), positions = 0;
        for (uint64_t s = 0; s < n; s++) {
            sp_nc_pos p;
            sp_nc_decode(sp, s, &p);
            ck_assert_uint_eq(sp_nc_encode(sp, &p), s);
            for (unsigned i = 0; i < p.rows; i++)
                ck_assert_uint_lt(p.left[i], p.right[i]);
            positions += sp_nc_class_size(sp, s);
        }
        ck_assert_uint_eq(positions, 2 * 1000); /* 10 placements per row, 3 rows, 2 sides */
        sp_nc_space_free(sp);
    }
}
END_TEST

/* Solves a board in one space and runs both checks with the given rule and winner restriction. */
static void nc_check(unsigned rows, unsigned cols, sp_nc_kind kind, sp_nc_rule rule, sp_nc_mode winner_mode,
                     sp_nc_rule_report *rr, sp_nc_restricted_report *fr)
{
    sp_nc_space *sp = sp_nc_space_new(rows, cols, kind, free_play);
    uint64_t n = sp_nc_space_states(sp);
    uint8_t *lab = malloc(n), *scratch = malloc(n);
    sp_retro_graph g = sp_nc_space_graph(sp);
    ck_assert_int_eq(sp_retro_solve(&g, lab, NULL, NULL), 0);
    sp_nc_check_rule(sp, lab, rule, NULL, rr);
    /* every board position is stood for once: (cols choose 2)^rows placements, two sides to move */
    ck_assert_uint_eq(rr->positions, sp_nc_state_count(rows, cols, SP_NC_FULL));
    ck_assert_int_eq(sp_nc_check_restricted(rows, cols, kind, lab, winner_mode, scratch, NULL, fr), 0);
    free(lab);
    free(scratch);
    sp_nc_space_free(sp);
}

START_TEST(northcott_small_boards_hold)
{
    for (unsigned rows = 1; rows <= 3; rows++)
        for (unsigned cols = 2; cols <= 6; cols++)
            for (int kind = 0; kind < 2; kind++) {
                sp_nc_rule_report rr;
                sp_nc_restricted_report fr;
                nc_check(rows, cols, (sp_nc_kind)kind, sp_nc_xor_rule, SP_NC_FORWARD, &rr, &fr);
                ck_assert_msg(rr.mismatches == 0 && rr.draws == 0, "%ux%u", rows, cols);
                ck_assert_uint_eq(fr.failures, 0);
                ck_assert_uint_eq(fr.checked[0] + fr.checked[1], rr.states);
            }
}
END_TEST

START_TEST(northcott_full_and_sorted_agree)
{
    sp_nc_space *f = sp_nc_space_new(4, 5, SP_NC_FULL, free_play), *s = sp_nc_space_new(4, 5, SP_NC_SORTED, free_play);
    uint8_t *lf = malloc(sp_nc_space_states(f)), *ls = malloc(sp_nc_space_states(s));
    sp_retro_graph gf = sp_nc_space_graph(f), gs = sp_nc_space_graph(s);
    ck_assert_int_eq(sp_retro_solve(&gf, lf, NULL, NULL), 0);
    ck_assert_int_eq(sp_retro_solve(&gs, ls, NULL, NULL), 0);
    ck_assert_uint_eq(sp_nc_cross_check(f, lf, s, ls, NULL), 0);
    /* and the comparison notices one flipped label */
    uint64_t won = 0, lost = 0;
    while (sp_retro_outcome(ls[won]) != SP_RETRO_WIN)
        won++;
    while (sp_retro_outcome(ls[lost]) != SP_RETRO_LOSS)
        lost++;
    ls[won] = ls[lost];
    ck_assert_uint_gt(sp_nc_cross_check(f, lf, s, ls, NULL), 0);
    free(lf);
    free(ls);
    sp_nc_space_free(f);
    sp_nc_space_free(s);
}
END_TEST

/* Planted error: the XOR rule, wrong for the gaps 2 and 1 (in this order) alone. On 2 rows of 5
 * squares a gap of 2 has 2 placements, a gap of 1 has 3: 6 positions, 12 states with either side to
 * move; the check must count exactly those. */
static bool xor_but_2_1(const unsigned *gaps, unsigned rows)
{
    return sp_nc_xor_rule(gaps, rows) != (rows == 2 && gaps[0] == 2 && gaps[1] == 1);
}

START_TEST(northcott_single_wrong_gaps_found)
{
    sp_nc_rule_report rr;
    sp_nc_restricted_report fr;
    nc_check(2, 5, SP_NC_FULL, xor_but_2_1, SP_NC_FORWARD, &rr, &fr);
    ck_assert_uint_eq(rr.mismatches, 12);
    ck_assert_uint_eq(fr.failures, 0);
}
END_TEST

START_TEST(northcott_planted_errors_fail)
{
    sp_nc_rule_report rr;
    sp_nc_restricted_report fr;
    nc_check(2, 5, SP_NC_FULL, sp_nc_and_rule, SP_NC_FORWARD, &rr, &fr);
    ck_assert_uint_gt(rr.mismatches, 0);
    ck_assert(rr.have_bad);
    /* a winner who may only move backward cannot keep his wins */
    nc_check(2, 5, SP_NC_SORTED, sp_nc_xor_rule, SP_NC_BACKWARD, &rr, &fr);
    ck_assert_uint_eq(rr.mismatches, 0);
    ck_assert_uint_gt(fr.failures, 0);
    ck_assert(fr.have_bad);
}
END_TEST

/* ---------------------------------------------------------------- the nimfam program */

static char out[1 << 18], err[1 << 14];

static int nimfam(const char *a1, const char *a2, const char *a3, const char *a4, const char *a5)
{
    char *argv[] = {(char *)sp_test_program, (char *)a1, (char *)a2, (char *)a3, (char *)a4, (char *)a5, NULL};
    return sp_test_run2(argv, out, sizeof out, err, sizeof err);
}

/* Runs `nimfam ARGS` with `input` on its standard input. */
static int nimfam_with_input(const char *input, const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "printf '%s' | \"$0\" %s", input, args);
    char *argv[] = {"/bin/sh", "-c", cmd, (char *)sp_test_program, NULL};
    return sp_test_run2(argv, out, sizeof out, err, sizeof err);
}


START_TEST(cli_help_everywhere)
{
    static const char *const games[] = {"marienbad", "fibonacci", "northcott"};
    ck_assert_int_eq(nimfam("--help", NULL, NULL, NULL, NULL), 0);
    ck_assert_int_eq(nimfam("--version", NULL, NULL, NULL, NULL), 0);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(nimfam(games[i], "--help", NULL, NULL, NULL), 0);
        ck_assert_int_eq(nimfam(games[i], "verify", "--help", NULL, NULL), 0);
        ck_assert_ptr_nonnull(strstr(out, "Usage: nimfam"));
        ck_assert_int_eq(nimfam(games[i], "play", "--help", NULL, NULL), 0);
        ck_assert_ptr_nonnull(strstr(out, "Usage: nimfam"));
    }
}
END_TEST

START_TEST(cli_usage_errors)
{
    const char *cases[][4] = {
        {"chess", NULL, NULL, NULL},           {"--frobnicate", NULL, NULL, NULL},
        {"marienbad", NULL, NULL, NULL},       {"marienbad", "solve", NULL, NULL},
        {"marienbad", "verify", "--frob", NULL}, {"fibonacci", "verify", "--max-n", "x"},
        {"fibonacci", "verify", "--max-n", NULL}, {"northcott", "verify", "--boards", "6y6"},
        {"northcott", "play", "--board", "10x10"}, {"fibonacci", "play", "--first", "nobody"},
        {"marienbad", "verify", "extra", NULL},
    };
    ck_assert_int_eq(nimfam(NULL, NULL, NULL, NULL, NULL), 2);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ck_assert_int_eq(nimfam(cases[i][0], cases[i][1], cases[i][2], cases[i][3], NULL), 2);
        ck_assert_msg(sp_test_lines(err) == 1, "case %zu: %s", i, err);
        ck_assert_str_eq(out, "");
    }
}
END_TEST

START_TEST(cli_verify_small)
{
    ck_assert_int_eq(nimfam("marienbad", "verify", "--max-row", "7", NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "0 disagree"));
    ck_assert_int_eq(nimfam("fibonacci", "verify", "--max-n", "300", NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "B wins"));
    ck_assert_int_eq(nimfam("northcott", "verify", "--boards", "1-3x2-5", NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "0 disagreements"));
}
END_TEST

START_TEST(cli_verify_planted_errors_exit_1)
{
    ck_assert_int_eq(nimfam("marienbad", "verify", "--plant-error", NULL, NULL), 1);
    ck_assert_ptr_nonnull(strstr(out, "FAILED"));
    ck_assert_int_eq(nimfam("fibonacci", "verify", "--max-n", "200", "--plant-error"), 1);
    ck_assert_ptr_nonnull(strstr(out, "first disagreement at N = 4"));
    ck_assert_int_eq(nimfam("northcott", "verify", "--boards", "1-2x3-4", "--plant-error"), 1);
    ck_assert_ptr_nonnull(strstr(out, "first state the forward-only winner loses"));
}
END_TEST

START_TEST(cli_verify_writes_summary)
{
    char dir[] = "/tmp/sp_nimfam_XXXXXX", path[64], buf[4096];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_int_eq(nimfam("fibonacci", "verify", "--max-n", "100", "--out"), 2); /* --out needs a value */
    char *argv[] = {(char *)sp_test_program, "fibonacci", "verify", "--max-n", "100", "--out", dir, NULL};
    ck_assert_int_eq(sp_test_run2(argv, out, sizeof out, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/fibonacci.md", dir);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    buf[len] = '\0';
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "- program: nimfam "));
    ck_assert_ptr_nonnull(strstr(buf, "- command: `nimfam fibonacci verify --max-n 100 --out "));
    ck_assert_ptr_nonnull(strstr(buf, "- machine: "));
    ck_assert_ptr_nonnull(strstr(buf, "Verdict: the theorem held"));
    remove(path);
    rmdir(dir);
}
END_TEST

START_TEST(cli_play_fibonacci)
{
    /* From 2 the first move must take 1: "x" and "2" are refused, then the machine takes the last. */
    ck_assert_int_eq(nimfam_with_input("x\\n2\\n1\\n", "fibonacci play --tokens 2 --first me"), 0);
    ck_assert_ptr_nonnull(strstr(out, "Type how many tokens you take"));
    ck_assert_ptr_nonnull(strstr(out, "You may take from 1 to 1 tokens"));
    ck_assert_ptr_nonnull(strstr(out, "the machine wins"));
    /* From 4 the machine, moving first, takes 1 (the only winning take) and wins whatever we do. */
    ck_assert_int_eq(nimfam_with_input("2\\n", "fibonacci play --tokens 4 --first machine"), 0);
    ck_assert_ptr_nonnull(strstr(out, "The machine takes 1."));
    ck_assert_ptr_nonnull(strstr(out, "the machine wins"));
    /* End of input leaves the game cleanly. */
    ck_assert_int_eq(nimfam("fibonacci", "play", "--tokens", "10", NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "End of input"));
}
END_TEST

START_TEST(cli_play_marienbad)
{
    /* After we empty row 4 the machine answers as the seed does: 3 from row 3. */
    ck_assert_int_eq(nimfam_with_input("5 1\\n4 9\\n4 7\\n", "marienbad play --first me"), 0);
    ck_assert_ptr_nonnull(strstr(out, "There is no row 5"));
    ck_assert_ptr_nonnull(strstr(out, "Row 4 has 7 matches"));
    ck_assert_ptr_nonnull(strstr(out, "The machine takes 3 from row 3."));
    ck_assert_ptr_nonnull(strstr(out, "End of input"));
    /* Two single matches, we take one: the machine must take the last. */
    ck_assert_int_eq(nimfam_with_input("1 1\\n", "marienbad play --rows 1,1 --first me"), 0);
    ck_assert_ptr_nonnull(strstr(out, "you win"));
}
END_TEST

START_TEST(cli_play_northcott)
{
    /* Seed 1 deals X 2 O 3 / X 1 O 6 / X 1 O 2 (columns from 1). */
    ck_assert_int_eq(nimfam_with_input("9 9\\n1 3\\n3 2\\n", "northcott play --board 3x6 --seed 1 --first me"), 0);
    ck_assert_ptr_nonnull(strstr(out, "dealt from seed 1"));
    ck_assert_ptr_nonnull(strstr(out, "Rows are 1 to 3"));
    ck_assert_ptr_nonnull(strstr(out, "row 1 can go to column 1 (not onto"));
    ck_assert_ptr_nonnull(strstr(out, "row 3 is boxed in"));
    /* A 1x2 board has no move at all: who starts loses at once. */
    ck_assert_int_eq(nimfam("northcott", "play", "--board", "1x2", "--first=me"), 0);
    ck_assert_ptr_nonnull(strstr(out, "You cannot move: the machine wins."));
}
END_TEST

int main(int argc, char **argv)
{
    Suite *s = suite_create("nim");
    TCase *mb = tcase_create("marienbad"), *fib = tcase_create("fibonacci"), *nc = tcase_create("northcott"),
          *cli = tcase_create("nimfam");
    tcase_add_test(mb, marienbad_by_hand);
    tcase_add_test(mb, marienbad_bouton_holds);
    tcase_add_test(mb, marienbad_planted_rule_fails);
    tcase_add_test(mb, marienbad_single_wrong_position_found);
    tcase_add_test(mb, marienbad_seed_strategy_wins);
    tcase_add_test(mb, marienbad_planted_strategy_fails);
    tcase_add_test(fib, fibonacci_by_hand);
    tcase_add_test(fib, fibonacci_zeckendorf_by_hand);
    tcase_add_test(fib, fibonacci_checks_hold);
    tcase_add_test(fib, fibonacci_planted_errors_fail);
    tcase_add_test(fib, fibonacci_single_wrong_pile_found);
    tcase_add_test(fib, fibonacci_example_game);
    tcase_add_test(nc, retro_toy_graph);
    tcase_add_test(nc, northcott_moves_by_hand);
    tcase_add_test(nc, northcott_outcomes_by_hand);
    tcase_add_test(nc, northcott_spaces);
    tcase_add_test(nc, northcott_small_boards_hold);
    tcase_add_test(nc, northcott_full_and_sorted_agree);
    tcase_add_test(nc, northcott_single_wrong_gaps_found);
    tcase_add_test(nc, northcott_planted_errors_fail);
    tcase_add_test(cli, cli_help_everywhere);
    tcase_add_test(cli, cli_usage_errors);
    tcase_add_test(cli, cli_verify_small);
    tcase_add_test(cli, cli_verify_planted_errors_exit_1);
    tcase_add_test(cli, cli_verify_writes_summary);
    tcase_add_test(cli, cli_play_fibonacci);
    tcase_add_test(cli, cli_play_marienbad);
    tcase_add_test(cli, cli_play_northcott);
    tcase_set_timeout(cli, 120);
    suite_add_tcase(s, mb);
    suite_add_tcase(s, fib);
    suite_add_tcase(s, nc);
    suite_add_tcase(s, cli);
    return sp_test_main(s, argc, argv);
}
