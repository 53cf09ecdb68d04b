/* simplify.h: GLOP's reduction rules, which preserve the game, and the split into lands.
 *
 * Contract: sp_pos_simplify() takes a position whose symbols are all live (no SP_SYM_DEAD) and whose
 * letters each occur once or twice, and rewrites it in place so that:
 *   - a letter next to itself on a boundary (nothing live between its two corners) is one '2';
 *   - no boundary is empty, no region has fewer than 2 lives (such a region is deleted and the
 *     upper-case letters it shared become '2' in their other region);
 *   - a region with 2 or 3 lives has one boundary (its topology no longer matters) and no letter
 *     seen twice in it (such a pair becomes one '2');
 *   - every letter occurs exactly twice; a letter seen once becomes '2';
 *   - lands are the connected components of regions linked by upper-case letters.
 * The terminal position (no move) is the position with no land.
 */
#ifndef SP_SIMPLIFY_H
#define SP_SIMPLIFY_H

#include "pos.h"

void sp_pos_simplify(sp_pos *p);

#endif
