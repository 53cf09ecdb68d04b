/* reference.h: a slow, deliberately simple solver used to cross-check the real one: plain recursion
 * over whole canonical positions (no lands, no couples, no nimber store, no transposition table, no
 * proof numbers). Only for small positions.
 */
#ifndef SP_REFERENCE_H
#define SP_REFERENCE_H

#include "canonical.h"
#include "solver.h"

/* Plain minimax: the player to move wins when some move leads to a position lost for the opponent
 * (normal play) or when no move is left (misère play). Exponential: keep positions small. */
sp_outcome sp_ref_outcome(sp_canon_ctx *ctx, const sp_tok *key, size_t len, sp_play play);

/* Nimber by the definition: the least number that is not the nimber of a child, over whole
 * positions (no Sprague-Grundy sums); remembers the positions it has seen during this one call.
 * -1 when out of memory. */
int sp_ref_nimber(sp_canon_ctx *ctx, const sp_tok *key, size_t len);

#endif
