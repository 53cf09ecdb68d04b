/* nimstore.h: a value per land, keyed by its exact canonical key, computed once and shared by all
 * threads: the nimber in normal play, the id of its game (mgame.h) in misère play (one store each).
 * A key of several lands (a position key) may be stored too, at the cost of one token more: the
 * misère store of lost positions holds some.
 *
 * Contract:
 * - Exact: keys are stored in full and compared in full, so a lookup never answers for another land.
 * - Bounded: a fixed budget of bytes set at creation, used as the store fills (the slot table
 *   doubles when half full); once full, further values are not kept (the caller then recomputes
 *   them when needed) and sp_nimstore_full() says so.
 * - Insert-only and lock-free: readers never wait; an insert racing a lookup of the same land may be
 *   missed by that lookup, which is harmless.
 */
#ifndef SP_NIMSTORE_H
#define SP_NIMSTORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "keys.h"

typedef struct sp_nimstore sp_nimstore;

sp_nimstore *sp_nimstore_new(size_t bytes);
void sp_nimstore_free(sp_nimstore *ns);

/* The value (0 .. INT32_MAX) of the key (one land or more, ending with SP_TK_END_L) whose
 * sp_key_hash64 is h, or -1. A land and a position that begins with it are different keys. */
int sp_nimstore_get(const sp_nimstore *ns, const sp_tok *key, size_t len, uint64_t h);

/* Records a value (at most INT32_MAX) of a key; returns false when there is no room left (or the
 * key is there already, or it does not end with SP_TK_END_L). */
bool sp_nimstore_put(sp_nimstore *ns, const sp_tok *key, size_t len, uint64_t h, unsigned value);

uint64_t sp_nimstore_count(const sp_nimstore *ns);
size_t sp_nimstore_bytes(const sp_nimstore *ns);      /* the budget */
size_t sp_nimstore_used_bytes(const sp_nimstore *ns); /* what is in use */
bool sp_nimstore_full(const sp_nimstore *ns);

/* A point in the store's history, for saving only what is new: every land whose put returned before
 * the mark was taken lies before it, every land put after it lies after it (a put racing the call
 * falls on one side, and the call waits for it to be visible). The empty store's mark is 0; marks
 * only grow. */
uint64_t sp_nimstore_mark(const sp_nimstore *ns);

/* Calls fn for every stored key that lies at or after mark `from` and before mark `to` (0 and
 * UINT64_MAX: all of them; for saving the store); stops early when fn returns non-zero. The keys
 * handed to fn stay where they are until the store is freed (they live in an arena that never
 * moves), so a caller may keep pointers to them, to sort them say. */
int sp_nimstore_each(const sp_nimstore *ns, uint64_t from, uint64_t to,
                     int (*fn)(void *arg, const sp_tok *key, size_t len, unsigned value), void *arg);

#endif
