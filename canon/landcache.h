/* landcache.h: the children of the lands expanded lately, kept so that a land expanded again is not
 * made again. One thread's at a time: the expansion it is handed to (expand.h) reads and fills it.
 *
 * Why: df-pn comes back to a node each time its thresholds send it there, and a land beside
 * several heaps (a sum's land settled as (L, 0), (L, 1), ...) is one expansion per heap; a
 * certificate builder asks for the same lands again and again. Making the children (moves,
 * simplification, canonical form) is nearly all of the time an expansion takes.
 *
 * Contract: an entry is a land's list of children in the order its moves give them (children.h),
 * with the number of the move that first gave each, keyed by the 128-bit hash of the land key (a
 * false hit needs a 128-bit collision): the whole list, or the children of its first `made` moves (a
 * list cut short by a hook: the moves after them were not made). Entries are written one after the
 * other into a ring of fixed size, the newest over the oldest, so the memory is what sp_lcache_new()
 * was given, touched as used. An entry read stays valid until the next put.
 */
#ifndef SP_LANDCACHE_H
#define SP_LANDCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "children.h"

typedef struct sp_lcache sp_lcache;

#define SP_LCACHE_WHOLE UINT32_MAX

/* A land's children as read from the cache: child i is `len[i]` tokens (the children one after the
 * other from tok), first given by move number first[i]; those of the moves numbered below `made`
 * (SP_LCACHE_WHOLE: all of them). The entry is one block of `bytes` bytes. */
typedef struct sp_lcache_entry {
    uint32_t n, made;
    const uint32_t *first;
    const uint16_t *len;
    const sp_tok *tok;
    const void *block;
    size_t bytes;
} sp_lcache_entry;

typedef struct sp_lcache_stats {
    size_t bytes;             /* ring and index, as given */
    size_t used_bytes;        /* of them written so far */
    uint64_t lookups, hits; /* hits: whole lists */
    uint64_t partial;       /* lists cut short given (and the rest made) */
} sp_lcache_stats;

/* A cache within `bytes` (ring and index together); NULL when memory is short or bytes too small. */
sp_lcache *sp_lcache_new(size_t bytes);
void sp_lcache_free(sp_lcache *c);

/* The key of a land for this cache. */
void sp_lcache_hash(const sp_tok *land, size_t len, uint64_t h[2]);

/* The children of the land of hash h, if cached. */
bool sp_lcache_get(sp_lcache *c, const uint64_t h[2], sp_lcache_entry *e);

/* How much of the list of the land of hash h is cached: SP_LCACHE_WHOLE, the `made` of a list cut
 * short, or 0 for none; not counted as a lookup (for a caller choosing how to have the children
 * made: expand.h). */
uint32_t sp_lcache_made(const sp_lcache *c, const uint64_t h[2]);

/* Caches the children of the land of hash h, joined from the parts of one round (sp_children_merge;
 * one part: as it is, every child from a move below `made`): the children of its moves numbered
 * below `made` (SP_LCACHE_WHOLE: the whole list; parts may hold children of later moves too, made by
 * a part going down). A list too large for a quarter of the ring, or that memory runs out for, is
 * not cached. */
void sp_lcache_put(sp_lcache *c, const uint64_t h[2], sp_children *const *parts, unsigned nparts, uint32_t made);

/* The entry held in a copy of an entry's block (aligned for uint32_t). */
void sp_lcache_view(const void *block, sp_lcache_entry *e);

void sp_lcache_get_stats(const sp_lcache *c, sp_lcache_stats *s);

#endif
