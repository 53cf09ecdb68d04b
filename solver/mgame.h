/* mgame.h: impartial games up to misère equality, each in its simplest form, hash-consed to an id;
 * their sums, outcomes and birthdays. Internal to solver/ (the misère rule set values lands with it).
 *
 * Misère equality: G = H when o(G + X) = o(H + X) for every game X (o: the misère outcome). It is a
 * congruence for sums, so a position's outcome is o(v(L1) + v(L2) + ...) for any games v(Li) equal
 * to its lands (Conway, On Numbers and Games, ch. 12; Siegel, Combinatorial Game Theory, V).
 *
 * Contract:
 * - An id stands for one game; id 0 (SP_MG_ZERO) is the game with no move. Ids never change or go.
 * - Equal ids mean equal games, always. sp_mg_canon() reduces by a rule proven in mgame.c and keeps
 *   the options it is given otherwise (they are simplest forms already), so by Conway's simplest form
 *   theorem equal games should also get equal ids; correctness never depends on that.
 * - Bounded: a budget of bytes fixed at creation. Once a part of it is exhausted, new games and new
 *   sums are refused (SP_MG_NONE) and sp_mg_full() says so; what is there stays readable. The sum
 *   memo is a cache: while the table has one user (sp_mg_set_exclusive) a full memo is emptied and
 *   the sums go on; with several, it stays full until the table has one user again.
 * - Safe for concurrent use unless marked exclusive: lookups never lock; inserts take one mutex
 *   (options, records, index), the sum memo is claimed slot by slot with a compare-and-swap.
 */
#ifndef SP_MGAME_H
#define SP_MGAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint32_t sp_mg_id;

#define SP_MG_ZERO 0u
#define SP_MG_NONE UINT32_MAX /* no room left to represent the game */

typedef struct sp_mg sp_mg;

/* A table of at most about `bytes` bytes; NULL when memory is short. Memory is touched as used: the
 * index and the sum memo start small and double when half full. */
sp_mg *sp_mg_new(size_t bytes);
void sp_mg_free(sp_mg *t);

/* The game whose options are opts[0..n) (ids of this table, in any order, repeats allowed; the
 * array is sorted in place). SP_MG_NONE when an option is SP_MG_NONE or there is no room. */
sp_mg_id sp_mg_canon(sp_mg *t, sp_mg_id *opts, size_t n);

/* The sum g + h (memoised). SP_MG_NONE when either is SP_MG_NONE or there is no room. */
sp_mg_id sp_mg_sum(sp_mg *t, sp_mg_id g, sp_mg_id h);

/* Misère outcome: true when the player to move in g wins (true for 0: no move is a win). */
bool sp_mg_wins(const sp_mg *t, sp_mg_id g);

/* The options of g, sorted ids without repeats: how many; them, into out (room for that many); or one
 * by one (an iterator stays good while the table lives: lists never move). */
typedef struct sp_mg_iter {
    const uint8_t *p;
    uint32_t left;
    sp_mg_id last;
} sp_mg_iter;

size_t sp_mg_noptions(const sp_mg *t, sp_mg_id g);
size_t sp_mg_options(const sp_mg *t, sp_mg_id g, sp_mg_id *out);
void sp_mg_iter_init(const sp_mg *t, sp_mg_id g, sp_mg_iter *it);
bool sp_mg_iter_next(sp_mg_iter *it, sp_mg_id *id); /* false once all are given */

/* 0 for the game 0, else 1 + the largest birthday among the options. */
unsigned sp_mg_birthday(const sp_mg *t, sp_mg_id g);

/* Whether one thread alone uses t from now on (the caller's promise; false at creation). Made true,
 * a full memo is emptied at once, and the smaller sizes of a memo that grew (kept while other
 * threads may read them) are freed. */
void sp_mg_set_exclusive(sp_mg *t, bool one_user);

/* Whether a moment of one user would give memory back (a full memo, or sizes a larger one
 * replaced): for a caller that can make one (mgame.h's users on several threads). */
bool sp_mg_wants_one_user(const sp_mg *t);

uint64_t sp_mg_count(const sp_mg *t);      /* games in the table, 0 included */
uint64_t sp_mg_flushes(const sp_mg *t);    /* times the memo was emptied */
uint64_t sp_mg_sums(const sp_mg *t);       /* sums in the memo */
size_t sp_mg_bytes(const sp_mg *t);        /* the budget as allocated */
size_t sp_mg_used_bytes(const sp_mg *t);   /* what is in use */
bool sp_mg_full(const sp_mg *t);
bool sp_mg_memo_full(const sp_mg *t);      /* the memo is full, and waits for one user to empty it */

#endif
