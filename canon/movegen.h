/* movegen.h: move generation: every move of a position, numbered in a fixed order, each built into
 * the position it leads to (before simplification). Knows nothing of keys, child lists or caches.
 *
 * Contract: a move is one curve in one region between two corners (or a lone spot and itself),
 * with a new spot on it; moves that are mirror images of each other by construction (a loop at a
 * lone spot with the same partition of the other boundaries on either side) are made once. The
 * numbering depends on the position alone, so the same position always gives move m the same child,
 * whichever thread makes it (share.h). Letter ids: the child keeps the parent's, and the new spot on
 * the curve is always letter id p->nletter (the parent's first free id; ends that become letters take
 * the ids after it), so that a caller can tell it apart (Antwerp sprouts gives it a colour).
 */
#ifndef SP_MOVEGEN_H
#define SP_MOVEGEN_H

#include <stdint.h>

#include "pos.h"
#include "share.h"

/* Receives one child of sp_pos_moves(): the position after move number `move`, before simplification
 * (dead spots and empty boundaries removed, nothing else; all regions in one land). It may modify the
 * child. A negative return stops the enumeration with an error (-1), a positive one stops it early (1). */
typedef int (*sp_move_sink)(void *arg, sp_pos *child, uint32_t move);

/* Every move of a position (any position: it need not be simplified), one sink call each, in order.
 * Returns 0, 1 when the sink stopped it, or -1 (out of memory, or the sink's error). */
int sp_pos_moves(const sp_pos *p, sp_move_sink sink, void *arg);

/* sp_pos_moves() for the moves this thread takes (share.h; part NULL: all of them), numbered `from`
 * on when it takes them alone (a shared round starts where sp_move_share_start() said); returns 1
 * when the sink or the round stopped it before its moves ran out. */
int sp_pos_moves_part(const sp_pos *p, const sp_move_part *part, uint32_t from, sp_move_sink sink, void *arg);

/* The move rules over the same position model: plain Sprouts, or black-and-white sprouts, where the
 * player drawing a curve chooses whether to put a new spot on it (a curve without one adds a degree
 * to each end, nothing else). */
typedef enum { SP_MOVES_SPROUTS = 0, SP_MOVES_BW = 1 } sp_move_rules;

/* sp_pos_moves() under the given rules. Black-and-white: the Sprouts move m is made as move 2m (with
 * its new spot) and move 2m + 1 (without). */
int sp_pos_moves_rules(const sp_pos *p, sp_move_rules rules, sp_move_sink sink, void *arg);

#endif
