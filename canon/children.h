/* children.h: the child list, a set of position keys kept in the order they were added, each with
 * the number of the move that first gave it; what the move generation fills and the land cache keeps.
 *
 * Contract: a list owns its memory and is reused across calls without allocating once it has grown
 * to size. Keys are compared whole (sp_key_cmp), so each key is listed once. first[i] is kept only
 * by sp_children_note(): it is the least move number any note of child i gave, so a list filled from
 * the last move down (a part going down, share.h) still knows where each child first comes in the
 * enumeration's order, and parts filled from both ends join into the list one thread makes alone
 * (sp_children_merge).
 */
#ifndef SP_CHILDREN_H
#define SP_CHILDREN_H

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
    uint32_t *first; /* the least move that gave child i (lists filled by sp_children_note only) */
    size_t first_cap;
} sp_children;

void sp_children_init(sp_children *c);
void sp_children_free(sp_children *c);
void sp_children_clear(sp_children *c);

/* Adds a position key unless an equal one is there; returns 1 if added, 0 if a repeat, -1 out of memory. */
int sp_children_add(sp_children *c, const sp_tok *key, size_t len);

/* sp_children_add() of the child that move number `move` gave: a new child gets `move` as its first
 * move, a repeat keeps the lesser of the two. Same returns. */
int sp_children_note(sp_children *c, const sp_tok *key, size_t len, uint32_t move);

/* Index of an equal key in the list, or -1. */
long sp_children_find(const sp_children *c, const sp_tok *key, size_t len);

/* Joins lists filled by sp_children_note() from parts of one land's moves (each move made by some
 * part) into out, in the order of the moves that first gave each child, keeping those that moves
 * numbered below `below` gave (UINT32_MAX: all): the same list, in the same order and with the same
 * first moves, as one list noted from those moves in order. Returns 0, or -1 when out of memory. */
int sp_children_merge(sp_children *out, sp_children *const *parts, unsigned nparts, uint32_t below);

#endif
