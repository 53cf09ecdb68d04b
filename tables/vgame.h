/* vgame.h: the checker's own arithmetic of misère impartial games: games kept in simplest form and
 * hash-consed to ids, their sums and outcomes. Written apart from solver/ so that a certificate is
 * checked by code that does not share the solver's mistakes.
 *
 * Contract:
 * - An id stands for one game in simplest form (Conway, On Numbers and Games, ch. 12); id 0 is the
 *   game with no move. Two ids are equal exactly when the games are misère-equal (simplest forms are
 *   unique), so a checker may compare games by id.
 * - Grows as needed (memory permitting): SP_VG_NONE answers when memory runs out.
 * - Not thread-safe: callers serialise every call; option lists move when the table grows, so read
 *   them by index (sp_vg_option) across calls that may add games.
 */
#ifndef SP_VGAME_H
#define SP_VGAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SP_VG_NONE UINT32_MAX

typedef struct sp_vg sp_vg;

sp_vg *sp_vg_new(void);
void sp_vg_free(sp_vg *t);

/* The game whose options are the games opts[0..n) (ids of t; any order, repeats allowed), in
 * simplest form. */
uint32_t sp_vg_make(sp_vg *t, const uint32_t *opts, size_t n);

/* The sum a + b. */
uint32_t sp_vg_add(sp_vg *t, uint32_t a, uint32_t b);

/* Misère outcome of g alone: true when the player to move wins (so for 0: no move left). */
bool sp_vg_wins(const sp_vg *t, uint32_t g);

unsigned sp_vg_birthday(const sp_vg *t, uint32_t g);      /* 0 for 0, else 1 + the options' largest */
size_t sp_vg_degree(const sp_vg *t, uint32_t g);          /* how many options g has */
uint32_t sp_vg_option(const sp_vg *t, uint32_t g, size_t i); /* its i-th option (ascending ids) */
size_t sp_vg_count(const sp_vg *t);                        /* games in the table */

#endif
