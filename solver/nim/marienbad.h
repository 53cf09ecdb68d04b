/* marienbad.h: Marienbad, misère Nim (who takes the last match loses): a brute-force outcome table,
 * Bouton's misère rule, the seed's strategy for the second player, and their exhaustive checks.
 *
 * Contract:
 * - A position is nrows row sizes (1 .. SP_MB_MAX_ROWS rows). A move takes one or more matches from one
 *   row. The player who takes the last match loses, so the player to move at the empty position wins.
 * - The table is built by brute force from the rules alone (no Nim theory): every position whose row i
 *   holds at most max[i] matches gets its outcome for the player to move.
 * - Rules (predictions) and strategies are plain function pointers, so that a test can plant a wrong
 *   one and see the check fail.
 */
#ifndef SP_NIM_MARIENBAD_H
#define SP_NIM_MARIENBAD_H

#include <stdbool.h>
#include <stdint.h>

#include "nim_progress.h"

#define SP_MB_MAX_ROWS 8
#define SP_MB_MAX_ROW 255u /* matches in one row */

typedef struct sp_mb_move {
    unsigned row, take;
} sp_mb_move;

/* ---- brute force */

typedef struct sp_mb_table sp_mb_table;

/* The outcome of every position below max[0..nrows) (inclusive); NULL when nrows or a max is out of
 * range, the table would exceed 2^32 positions, or memory runs out. */
sp_mb_table *sp_mb_table_new(const unsigned *max, unsigned nrows, const sp_nim_progress *pr);
void sp_mb_table_free(sp_mb_table *t);
uint64_t sp_mb_table_positions(const sp_mb_table *t);
uint64_t sp_mb_table_bytes(const sp_mb_table *t);

/* Whether the player to move wins at rows (each within the table's bounds). */
bool sp_mb_table_wins(const sp_mb_table *t, const unsigned *rows);

/* A move to a position the table says the opponent loses; false when there is none. */
bool sp_mb_table_winning_move(const sp_mb_table *t, const unsigned *rows, sp_mb_move *out);

/* ---- Bouton's rule */

/* A prediction: whether the player to move wins. */
typedef bool (*sp_mb_rule)(const unsigned *rows, unsigned nrows);

/* Bouton's misère rule: with every row at most 1 the player to move wins iff the number of one-match
 * rows is even; otherwise iff the XOR of the row sizes is non-zero. */
bool sp_mb_bouton_misere(const unsigned *rows, unsigned nrows);

/* Deliberately wrong, to show that the check can fail: normal-play Nim's rule (XOR non-zero), wrong
 * wherever no row holds more than one match. */
bool sp_mb_normal_play_rule(const unsigned *rows, unsigned nrows);

typedef struct sp_mb_rule_report {
    uint64_t positions, wins, mismatches;
    unsigned first_bad[SP_MB_MAX_ROWS]; /* valid when mismatches > 0 */
} sp_mb_rule_report;

/* Compares rule with the table on every position of the table; true when they always agree. */
bool sp_mb_check_rule(const sp_mb_table *t, sp_mb_rule rule, sp_mb_rule_report *out);

/* ---- the seed's strategy */

/* A strategy: the moves it allows at rows (possibly several, all of which are played out), at most
 * cap of them; 0 means it has no move to offer. */
typedef unsigned (*sp_mb_strategy)(const unsigned *rows, unsigned nrows, sp_mb_move *out, unsigned cap);

/* The seed's strategy as written: when one move can leave only rows of one match, make a move that
 * leaves an odd number of one-match rows; otherwise make every binary column sum even. Every move that
 * does what the rule says is offered. */
unsigned sp_mb_seed_strategy(const unsigned *rows, unsigned nrows, sp_mb_move *out, unsigned cap);

/* Deliberately wrong, to show that the check can fail: keep the column sums even to the very end
 * (normal-play Nim), without the seed's switch when only one-match rows can be left. */
unsigned sp_mb_xor_only_strategy(const unsigned *rows, unsigned nrows, sp_mb_move *out, unsigned cap);

typedef struct sp_mb_play_report {
    uint64_t games;         /* complete games: every opponent line times every strategy choice */
    uint64_t won, lost;     /* by the strategy's player */
    uint64_t stuck;         /* games in which the strategy offered no move */
    uint64_t choice_points; /* strategy turns at which it offered more than one move */
    unsigned longest;       /* moves in the longest game */
    unsigned first_bad[SP_MB_MAX_ROWS]; /* the first position where the strategy took the last match
                                           or had no move, if any */
} sp_mb_play_report;

/* Plays strategy as the second player from start against every possible line of the first player;
 * true when it wins every game. */
bool sp_mb_check_strategy(const unsigned *start, unsigned nrows, sp_mb_strategy strategy,
                          sp_mb_play_report *out);

#endif
