/* moves.h: move generation. The children of a land are every position one move in it can reach,
 * simplified, split into lands, canonical and without repeats.
 *
 * Contract: a child is a position key (canonical.h): the sorted keys of the lands the played land
 * becomes (none when the move leaves nothing playable). A move in one land leaves the other lands of
 * a position as they are, so the children of a position are its lands replaced one at a time
 * (sp_pos_children does that). The child list owns its memory and is reused across calls without
 * allocating once it has grown to size.
 */
#ifndef SP_MOVES_H
#define SP_MOVES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "canonical.h"

typedef struct sp_children {
    size_t n;       /* number of children */
    uint32_t *off;  /* child i is tok[off[i] .. off[i] + len[i]) */
    uint32_t *len;
    sp_tok *tok;
    /* private: growth and de-duplication */
    size_t cap, tok_len, tok_cap;
    uint32_t *slot;
    size_t slot_cap;
    uint64_t *hash;
    uint32_t *first; /* the index of the move that first gave child i (lists of children only) */
    size_t first_cap;
} sp_children;

/* Receives one child of sp_pos_moves(): the position after move number `move`, before simplification
 * (dead spots and empty boundaries removed, nothing else; all regions in one land). It may modify the
 * child. A negative return stops the enumeration with an error (-1), a positive one stops it early (1). */
typedef int (*sp_move_sink)(void *arg, sp_pos *child, uint32_t move);

/* Every move of a position (any position: it need not be simplified), one sink call each, numbered
 * 0, 1, ... in a fixed order. Moves that are mirror images of each other by construction (a loop at a
 * lone spot with the same partition of the other boundaries on either side) are made once. Returns 0,
 * 1 when the sink stopped it, or -1 (out of memory, or the sink's error). */
int sp_pos_moves(const sp_pos *p, sp_move_sink sink, void *arg);

/* The moves of one position shared out between threads as they go: each thread that runs
 * sp_pos_moves_part() on the same share and round takes, whenever it is done with its last move,
 * the next one nobody has taken from its end of the list: the first (a part going up) or the last
 * (a part going down), so that a thread slowed by dearer moves (or by another process) simply
 * makes fewer of them. Each move is made by one thread, unless the round is stopped first; where
 * the two ends meet, a move may be made by two (one per thread at most, the same child). A share is
 * reused round after round; a thread still on an old round takes nothing from a new one. */
typedef struct sp_move_share {
    _Atomic uint64_t state; /* round << 32 | stopped << 31 | the least move number nobody has taken */
    _Atomic uint64_t back;  /* round << 32 | how many moves were taken from the top */
} sp_move_share;

/* Starts a round (before any thread starts on it) whose moves are taken from number `from` on: the
 * children of those before come from elsewhere (a land cache). */
void sp_move_share_start(sp_move_share *s, uint32_t round, uint32_t from);

/* The least move number nobody has taken from the front in the round: once it is stopped and every
 * part has ended, each move numbered below it was made. */
uint32_t sp_move_share_next(const sp_move_share *s);

/* Stops the round: every thread ends after the move it is making. No effect on a later round. */
void sp_move_share_stop(sp_move_share *s, uint32_t round);

/* How one thread takes part in making the moves (or children) of a position. */
typedef struct sp_move_part {
    sp_move_share *share; /* NULL: every move is this thread's */
    uint32_t round;
    bool down;            /* takes the moves from the last one down */
} sp_move_part;

/* sp_pos_moves() for the moves this thread takes (part NULL: all of them); returns 1 when the round
 * was stopped before its moves ran out. */
int sp_pos_moves_part(const sp_pos *p, const sp_move_part *part, sp_move_sink sink, void *arg);

void sp_children_init(sp_children *c);
void sp_children_free(sp_children *c);
void sp_children_clear(sp_children *c);

/* Adds a position key unless an equal one is there; returns 1 if added, 0 if a repeat, -1 out of memory. */
int sp_children_add(sp_children *c, const sp_tok *key, size_t len);

/* Index of an equal key in the list, or -1. */
long sp_children_find(const sp_children *c, const sp_tok *key, size_t len);

/* Children of one land, given by its key (one land, ending with SP_TK_END_L). Clears out first.
 * Returns 0, or -1 if the key is malformed or memory ran out. */
int sp_land_children(sp_canon_ctx *ctx, const sp_tok *land, size_t len, sp_children *out);

/* Receives each child of a part as soon as it is made and found new to the part (key as in a child
 * list, `move` the number of the move that gave it). A non-zero return stops the round: a hook that
 * has seen enough (say, a child that decides its parent) spares every thread the moves left. */
typedef int (*sp_child_hook)(void *arg, const sp_tok *key, size_t len, uint32_t move);

/* The children that the moves one thread takes give (sp_pos_moves_part), with out->first[i] the
 * least number of the part's moves that gave child i (a part going down may meet a child again from
 * a lower move); sp_children_merge() joins the parts. hook (or NULL) sees each child once, as it
 * first comes. Returns 0, 1 when the round was stopped (by a hook, here or in another
 * thread: the parts are then incomplete), or -1 if the key is malformed or memory ran out.
 * Without a share (all the moves), a land cache attached to ctx (canonical.h) is used: a cached list
 * is given as making it again would give it (the same children, hook calls and move numbers), and a
 * list made is cached, in full or up to the child a hook stopped at (the rest is made when asked).
 * With a share, a cached list is this part's (whole: the round is stopped, the other parts are not
 * needed; cut short: the share must have been started at its `made`, sp_lcache_made(), so that the
 * other parts take only the moves after it), and nothing is cached: a part is not the list, the
 * caller caches the parts joined. */
int sp_land_children_part(sp_canon_ctx *ctx, const sp_tok *land, size_t len, const sp_move_part *part,
                          sp_child_hook hook, void *hook_arg, sp_children *out);

/* The children of a cached list (a copy of a land cache entry's block: landcache.h) that this part
 * takes (part NULL: all of them, in order), each with the move that first gave it, as
 * sp_land_children_part() gives a cached list; a share's "moves" are then the list's children, its
 * round started at 0. Returns 0, 1 when the round was stopped (by a hook, here or in another
 * thread), or -1 when memory ran out. */
int sp_children_replay_part(const void *block, const sp_move_part *part, sp_child_hook hook, void *hook_arg,
                            sp_children *out);

/* Joins the parts into out in the order of the moves that first gave each child, keeping those that
 * moves numbered below `below` gave (UINT32_MAX: all): the same list, in the same order and with the
 * same first moves, as sp_land_children() makes alone from those moves. Returns 0, or -1 when out
 * of memory. */
int sp_children_merge(sp_children *out, sp_children *const *parts, unsigned nparts, uint32_t below);

/* Hands each child of a whole position key to hook as it is made (the key as in a child list; move:
 * the number of the move within its land), land by land in key order, a land equal to the one
 * before it skipped, until hook returns non-zero. scratch receives the children of the land at hand.
 * Returns 0, 1 when hook stopped it, or -1 (malformed key, out of memory). */
int sp_pos_children_each(sp_canon_ctx *ctx, const sp_tok *key, size_t len, sp_child_hook hook, void *arg,
                         sp_children *scratch);

/* Children of a whole position key: the position with one land replaced by one of its children. */
int sp_pos_children(sp_canon_ctx *ctx, const sp_tok *key, size_t len, sp_children *out);

/* Replaces key (of room SP_KEY_MAX) by a uniformly random distinct child, using scratch for the
 * children; returns the new length, or -1 when no move is left (or out of memory). */
long sp_random_move(sp_canon_ctx *ctx, sp_tok *key, size_t len, uint64_t *rng, sp_children *scratch);

/* Plays up to `moves` random moves from 0*n; returns the length of the key reached. */
size_t sp_random_game(sp_canon_ctx *ctx, unsigned n, unsigned moves, uint64_t *rng, sp_tok *key);

/* Canonical key of an arbitrary parsed position (simplifies a copy first). */
size_t sp_pos_key(sp_canon_ctx *ctx, const sp_pos *p, sp_tok *out);

#endif
