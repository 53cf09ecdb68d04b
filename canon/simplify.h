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

/* sp_pos_simplify() of an Antwerp position whose colours col[] run beside p->sym (pos.h): every rule
 * keeps a spot's colour with it (the rules are about the drawing: a spot's colour only decides who
 * may use it, and the moves a rule relies on have the same ends whatever their colours), and one
 * more region dies: two 1-life spots, one red and one blue, alone in a region. Left may join only
 * spots that are not red and Right only spots that are not blue, so no move can ever be made there
 * (a region only loses spots to moves elsewhere), as in a region of fewer than 2 lives. */
void sp_pos_simplify_colours(sp_pos *p, uint8_t *col);

#endif
