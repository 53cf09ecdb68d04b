/* expand.h: the children of a land or a position: every position one move can reach, simplified,
 * split into lands, canonical and without repeats; made (movegen.h) or given by a land cache.
 *
 * Contract: a child is a position key (canonical.h): the sorted keys of the lands the played land
 * becomes (none when the move leaves nothing playable). A move in one land leaves the other lands
 * of a position as they are, so the children of a position are its lands replaced one at a time
 * (sp_expand_pos does that). The cache is an explicit argument (landcache.h; NULL: none), owned by
 * the caller and used by one thread at a time; what a call gives is the same with it or without it:
 * the same children in the same order, with the same first moves and the same hook calls.
 */
#ifndef SP_EXPAND_H
#define SP_EXPAND_H

#include <stddef.h>
#include <stdint.h>

#include "canonical.h"
#include "children.h"
#include "landcache.h"
#include "share.h"

/* Receives each child as soon as it is made and found new to the list (key as in a child list,
 * `move` the number of the move that gave it). A non-zero return stops the expansion (and the
 * round: a hook that has seen enough, say a child that decides its parent, spares every thread the
 * moves left). */
typedef int (*sp_child_hook)(void *arg, const sp_tok *key, size_t len, uint32_t move);

/* Children of one land, given by its key (one land, ending with SP_TK_END_L). Clears out first.
 * Returns 0, or -1 if the key is malformed or memory ran out. */
int sp_expand_land(sp_canon_ctx *ctx, sp_lcache *cache, const sp_tok *land, size_t len, sp_children *out);

/* The children that the moves one thread takes give (share.h; part NULL: all the moves), with
 * out->first[i] the least number of the part's moves that gave child i (a part going down may meet
 * a child again from a lower move); sp_children_merge() joins the parts. hook (or NULL) sees each
 * child once, as it first comes. Returns 0, 1 when the round was stopped (by a hook, here or in
 * another thread: the parts are then incomplete), or -1 if the key is malformed or memory ran out.
 * Without a share (all the moves), a cached list is given as making it again would give it (the
 * same children, hook calls and move numbers), and a list made is cached, in full or up to the
 * child a hook stopped at (the rest is made when asked). With a share, a cached list is this
 * part's (whole: the round is stopped, the other parts are not needed; cut short: the share must
 * have been started at its `made`, sp_lcache_made(), so that the other parts take only the moves
 * after it), and nothing is cached: a part is not the list, the caller caches the parts joined.
 * Only one of the threads of a round may have a cache. */
int sp_expand_land_part(sp_canon_ctx *ctx, sp_lcache *cache, const sp_tok *land, size_t len,
                        const sp_move_part *part, sp_child_hook hook, void *hook_arg, sp_children *out);

/* The children of a cached list (a copy of a land cache entry's block: landcache.h) that this part
 * takes (part NULL: all of them, in order), each with the move that first gave it, added to out as
 * sp_expand_land_part() gives a cached list; a share's items are then the list's children, its
 * round started at 0. Returns 0, 1 when the round was stopped (by a hook, here or in another
 * thread), or -1 when memory ran out. */
int sp_expand_replay_part(const void *block, const sp_move_part *part, sp_child_hook hook, void *hook_arg,
                          sp_children *out);

/* Hands each child of a whole position key to hook as it is made (the key as in a child list; move:
 * the number of the move within its land), land by land in key order, a land equal to the one
 * before it skipped, until hook returns non-zero. scratch receives the children of the land at hand.
 * Returns 0, 1 when hook stopped it, or -1 (malformed key, out of memory). */
int sp_expand_pos_each(sp_canon_ctx *ctx, sp_lcache *cache, const sp_tok *key, size_t len, sp_child_hook hook,
                       void *arg, sp_children *scratch);

/* Children of a whole position key: the position with one land replaced by one of its children.
 * Clears out first. Returns 0, or -1 (malformed key, out of memory). */
int sp_expand_pos(sp_canon_ctx *ctx, sp_lcache *cache, const sp_tok *key, size_t len, sp_children *out);

#endif
