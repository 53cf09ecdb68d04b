/* northcott.h: Northcott's game: boards, moves, the whole-board state spaces that retrograde
 * analysis runs over, and the exhaustive checks of the seed's claims.
 *
 * Contract:
 * - A board has `rows` rows of `cols` squares (columns 0 .. cols-1). Each row holds the first player's
 *   checker at left[i] and the second player's at right[i], left[i] < right[i]. Player 0 (who moves
 *   first) owns the left checkers, player 1 the right ones. The gap of a row is right - left - 1.
 * - A move slides one checker of the player to move to another square of its row, never onto or over
 *   the other checker. "Forward" is towards the other checker (it shrinks the gap), "backward" away.
 *   Who cannot move loses; there is no other end.
 * - A state space is every position of one board (both checkers of every row and the side to move),
 *   indexed 0 .. states-1. SP_NC_FULL indexes the rows as mixed-radix digits: every position is its own
 *   state. SP_NC_SORTED identifies positions that differ only by the order of their rows (the rules
 *   treat every row alike, so such positions have the same outcome): a state is a multiset of rows.
 * - A space may restrict one or both players to forward or to backward moves (sp_nc_mode); the
 *   restricted game is what the forward-only claim is checked on.
 * - Everything here is plain enumeration of the rules: no Nim theory is used anywhere except in
 *   sp_nc_xor_rule, the prediction being checked.
 */
#ifndef SP_NIM_NORTHCOTT_H
#define SP_NIM_NORTHCOTT_H

#include <stdbool.h>
#include <stdint.h>

#include "nim_progress.h"
#include "retro.h"

#define SP_NC_MAX_ROWS 16
#define SP_NC_MAX_COLS 16

typedef enum { SP_NC_FULL = 0, SP_NC_SORTED = 1 } sp_nc_kind;
typedef enum { SP_NC_FREE = 0, SP_NC_FORWARD = 1, SP_NC_BACKWARD = 2 } sp_nc_mode;

typedef struct sp_nc_pos {
    unsigned rows, cols;
    unsigned side; /* 0 or 1: whose move it is */
    uint8_t left[SP_NC_MAX_ROWS], right[SP_NC_MAX_ROWS];
} sp_nc_pos;

typedef struct sp_nc_move {
    uint8_t row, to; /* the mover's checker in row `row` goes to column `to` */
} sp_nc_move;

/* ---- positions and moves (for play and for tests) */

/* The moves of the side to move that `mode` allows, in order of row then column; returns how many
 * (at most SP_NC_MAX_ROWS * SP_NC_MAX_COLS). */
unsigned sp_nc_moves(const sp_nc_pos *p, sp_nc_mode mode, sp_nc_move *out);

/* Plays m for the side to move (m must be one of sp_nc_moves' with SP_NC_FREE) and passes the turn. */
void sp_nc_play(sp_nc_pos *p, sp_nc_move m);

/* Whether m, played by the side to move, shrinks its row's gap. */
bool sp_nc_is_forward(const sp_nc_pos *p, sp_nc_move m);

void sp_nc_gaps(const sp_nc_pos *p, unsigned *gaps);

/* ---- state spaces */

typedef struct sp_nc_space sp_nc_space;

/* Number of states (both sides to move) of a board, or 0 when the board is not supported (rows
 * 1 .. SP_NC_MAX_ROWS, cols 2 .. SP_NC_MAX_COLS, rows * (cols - 2) <= SP_RETRO_MAX_DEGREE, and the
 * count must fit in 62 bits). */
uint64_t sp_nc_state_count(unsigned rows, unsigned cols, sp_nc_kind kind);

/* mode[0] and mode[1] restrict player 0's and player 1's moves. NULL when the board is unsupported or
 * memory runs out. */
sp_nc_space *sp_nc_space_new(unsigned rows, unsigned cols, sp_nc_kind kind, const sp_nc_mode mode[2]);
void sp_nc_space_free(sp_nc_space *sp);
uint64_t sp_nc_space_states(const sp_nc_space *sp);

/* The game graph of the space, for sp_retro_solve. Valid while sp lives. */
sp_retro_graph sp_nc_space_graph(const sp_nc_space *sp);

void sp_nc_decode(const sp_nc_space *sp, uint64_t state, sp_nc_pos *out);
uint64_t sp_nc_encode(const sp_nc_space *sp, const sp_nc_pos *p);

/* How many board positions the state stands for: 1 in a full space, the number of distinct row orders
 * of the multiset in a sorted one. */
uint64_t sp_nc_class_size(const sp_nc_space *sp, uint64_t state);

/* ---- the checks */

/* A prediction: whether the player to move wins, from the gaps of the rows. */
typedef bool (*sp_nc_rule)(const unsigned *gaps, unsigned rows);

/* The seed's theorem: the player to move wins iff the XOR of the gaps is non-zero. */
bool sp_nc_xor_rule(const unsigned *gaps, unsigned rows);

/* Deliberately wrong, to show that the check can fail: the AND of the gaps instead of the XOR. */
bool sp_nc_and_rule(const unsigned *gaps, unsigned rows);

typedef struct sp_nc_rule_report {
    uint64_t states, positions;      /* states checked, board positions they stand for */
    uint64_t wins, losses, draws;    /* states */
    uint64_t mismatches;             /* states that are a draw or whose outcome the rule gets wrong */
    bool have_bad;
    uint64_t first_bad;              /* the first such state */
} sp_nc_rule_report;

/* Compares the solved labels of sp (normal, unrestricted play) with rule, state by state. */
void sp_nc_check_rule(const sp_nc_space *sp, const uint8_t *lab, sp_nc_rule rule,
                      const sp_nim_progress *pr, sp_nc_rule_report *out);

typedef struct sp_nc_restricted_report {
    uint64_t checked[2];   /* states whose winner (by the normal labels) is player 0 / 1 */
    uint64_t won_to_move;  /* of those, states where the winner is the one to move */
    uint64_t failures;     /* states whose outcome changes when the winner is restricted */
    bool have_bad;
    uint64_t first_bad;
    unsigned bad_winner;
    uint64_t sweeps, edges;
} sp_nc_restricted_report;

/* The restricted-winner claim: for each player W, solves the game in which W may only move as
 * winner_mode allows (the other player moves freely) into scratch, and checks that every state W wins
 * in normal play (lab, solved on a space of the same board and kind without restrictions) keeps its
 * outcome. With SP_NC_FORWARD this is the seed's "the winner can finish moving forward only".
 * Returns 0, or -1 when memory runs out. */
int sp_nc_check_restricted(unsigned rows, unsigned cols, sp_nc_kind kind, const uint8_t *lab,
                           sp_nc_mode winner_mode, uint8_t *scratch, const sp_nim_progress *pr,
                           sp_nc_restricted_report *out);

/* Checks that a sorted space's labels agree with a full space's on every full state (both of the
 * same board, both unrestricted and solved). Returns the number of disagreements. */
uint64_t sp_nc_cross_check(const sp_nc_space *full, const uint8_t *lab_full, const sp_nc_space *sorted,
                           const uint8_t *lab_sorted, const sp_nim_progress *pr);

#endif
