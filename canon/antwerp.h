/* antwerp.h: Antwerp sprouts' moves over coloured positions (pos.h's colours): every spot is white,
 * red or blue; Left (player A) may join only spots that are not red, Right (B) only spots that are
 * not blue; the spot drawn on the curve is red for Left and blue for Right in cold Antwerp, blue for
 * Left and red for Right in hot Antwerp. Otherwise the Sprouts moves of movegen.h.
 *
 * Contract: sp_aw_moves() gives exactly the Sprouts moves (sp_pos_moves(), in its order) whose ends
 * the player may use, each child with the colours of its spots; a loop's end is always a white spot
 * (only a 0 or a 1 has 2 lives). The rules are the same under (Left <-> Right, red <-> blue), so
 * Right to move in a position is Left to move in its colour swap (sp_aw_swap()).
 */
#ifndef SP_ANTWERP_H
#define SP_ANTWERP_H

#include <stdbool.h>
#include <stdint.h>

#include "pos.h"

typedef enum { SP_LEFT = 0, SP_RIGHT = 1 } sp_player;

/* Whether the player may join a spot of colour c. */
static inline bool sp_aw_may_use(sp_player who, unsigned c)
{
    return c != (who == SP_LEFT ? SP_RED : SP_BLUE);
}

/* The colour of the spot the player draws on a curve. */
static inline sp_colour sp_aw_draws(bool hot, sp_player who)
{
    return (who == SP_LEFT) != hot ? SP_RED : SP_BLUE;
}

/* Receives one child of sp_aw_moves(): the position after the move (before simplification: all
 * regions in one land, as sp_pos_moves() gives it) and its colours beside child->sym. It may modify
 * both. A negative return stops the enumeration with an error (-1), a positive one stops it (1). */
typedef int (*sp_aw_sink)(void *arg, sp_pos *child, uint8_t *col);

/* Every move of `who` in p (colours col beside p->sym; p need not be simplified), one sink call each.
 * Returns 0, 1 when the sink stopped it, or -1 (out of memory, or the sink's error). */
int sp_aw_moves(const sp_pos *p, const uint8_t *col, bool hot, sp_player who, sp_aw_sink sink, void *arg);

/* Exchanges red and blue in col[0 .. p->nsym). */
void sp_aw_swap(const sp_pos *p, uint8_t *col);

#endif
