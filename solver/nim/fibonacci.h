/* fibonacci.h: Fibonacci Nim: the brute-force game-value table over (tokens left, maximum take), the
 * Fibonacci and Zeckendorf predictions, their exhaustive checks, and checking a recorded game.
 *
 * Contract:
 * - One pile. A state is (n, m): n tokens left, the player to move may take 1 .. m of them. The first
 *   move from a pile of N is made from (N, N-1) (it must leave at least one token); after a take of k
 *   the opponent moves from (n-k, 2k). Who takes the last token wins, so (0, m) is lost for the player
 *   to move.
 * - The table is built from the rules alone: (n, m) is won iff some take k <= min(m, n) leaves a lost
 *   state. It answers every n <= max_n and every m >= 1 (a limit beyond n allows the same takes as n).
 * - Predictions and strategies are function pointers, so that a test can plant a wrong one.
 */
#ifndef SP_NIM_FIBONACCI_H
#define SP_NIM_FIBONACCI_H

#include <stdbool.h>
#include <stdint.h>

#include "nim_progress.h"

#define SP_FIB_MAX_N 200000u

typedef struct sp_fib_table sp_fib_table;

/* NULL when max_n is 0 or above SP_FIB_MAX_N, or memory runs out. */
sp_fib_table *sp_fib_table_new(uint64_t max_n, const sp_nim_progress *pr);
void sp_fib_table_free(sp_fib_table *t);
uint64_t sp_fib_table_max_n(const sp_fib_table *t);
uint64_t sp_fib_table_states(const sp_fib_table *t); /* (n, m) with 1 <= m <= n <= max_n */
uint64_t sp_fib_table_bytes(const sp_fib_table *t);

/* Whether the player to move wins at (n, m); n <= max_n, m >= 1. */
bool sp_fib_wins(const sp_fib_table *t, uint64_t n, uint64_t m);

/* The smallest take that leaves the opponent a lost state, or 0 when there is none. */
uint64_t sp_fib_winning_take(const sp_fib_table *t, uint64_t n, uint64_t m);

/* ---- predictions */

/* Whether the first player loses from a pile of n >= 2. */
typedef bool (*sp_fib_prediction)(uint64_t n);

/* The seed's theorem: the first player loses iff n is a Fibonacci number (1, 2, 3, 5, 8, ...). */
bool sp_fib_is_fibonacci(uint64_t n);

/* Deliberately wrong, to show that the check can fail: the Lucas numbers 2, 1, 3, 4, 7, 11, ... */
bool sp_fib_is_lucas(uint64_t n);

/* The take a strategy makes at (n, m), or 0 when it declines. */
typedef uint64_t (*sp_fib_strategy)(uint64_t n, uint64_t m);

/* The smallest term of n's Zeckendorf sum (n as a sum of non-consecutive Fibonacci numbers). */
uint64_t sp_fib_zeckendorf_smallest(uint64_t n);

/* The seed's strategy: take the smallest Zeckendorf term of n when the limit m allows, else decline. */
uint64_t sp_fib_zeckendorf_take(uint64_t n, uint64_t m);

/* Deliberately wrong, to show that the check can fail: the largest Zeckendorf term instead. */
uint64_t sp_fib_largest_term_take(uint64_t n, uint64_t m);

typedef struct sp_fib_start_report {
    uint64_t piles;       /* starting piles 2 .. max_n checked */
    uint64_t first_loses; /* of those, where the table says the first player loses */
    uint64_t mismatches;
    uint64_t first_bad;
} sp_fib_start_report;

/* Compares prediction with the table for every starting pile 2 .. max_n. */
bool sp_fib_check_starts(const sp_fib_table *t, sp_fib_prediction prediction, sp_fib_start_report *out);

typedef struct sp_fib_strategy_report {
    uint64_t states;       /* (n, m) with 1 <= m <= n <= max_n */
    uint64_t won;          /* of those, won for the player to move */
    uint64_t failures;     /* won states where the strategy declines, moves illegally or loses */
    uint64_t first_bad_n, first_bad_m;
    uint64_t offered_in_lost; /* lost states where the strategy still offers a move (no claim) */
} sp_fib_strategy_report;

/* Applies strategy to every won state of the table: its take must be legal and leave a lost state.
 * Since every move from a lost state leaves a won one, this shows the strategy wins every game from
 * every won state up to max_n. */
bool sp_fib_check_strategy(const sp_fib_table *t, sp_fib_strategy strategy, const sp_nim_progress *pr,
                           sp_fib_strategy_report *out);

/* ---- a recorded game */

typedef struct sp_fib_game_report {
    bool legal;
    unsigned bad_move;   /* index of the first illegal take when !legal */
    bool finished;       /* the last take emptied the pile */
    unsigned winner;     /* 0: the first player, 1: the second; valid when finished */
    unsigned first_error[2]; /* index of each player's first take that turned a won state into a lost
                                one (by the table), or the number of takes if none */
} sp_fib_game_report;

/* Replays takes[0 .. ntakes) from a pile of start. The table (max_n >= start) judges each take;
 * it may be NULL, then first_error is left at ntakes. */
void sp_fib_check_game(const sp_fib_table *t, uint64_t start, const uint64_t *takes, unsigned ntakes,
                       sp_fib_game_report *out);

#endif
