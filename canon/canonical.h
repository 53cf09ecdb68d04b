/* canonical.h: canonical keys of lands and positions (their format, and what needs no
 * canonicalisation: keys.h).
 *
 * Contract: two simplified positions have the same key exactly when one is mapped onto the other by
 * the symmetries that preserve the game: rotating a boundary; reordering boundaries, regions and lands;
 * renaming letters; reversing all boundaries of one region together. Reversing one boundary alone is
 * not a symmetry and never meets. A region with 2 or 3 lives is one boundary whose order is irrelevant
 * (simplify.h), so its symbols are sorted. Exactness is guaranteed up to SP_CANON_MAX_STATES
 * automorphism branches per land; beyond that (never seen in play) the key is still a faithful
 * encoding of the land, only possibly not the least one, and sp_canon_ctx.inexact counts it.
 */
#ifndef SP_CANONICAL_H
#define SP_CANONICAL_H

#include <stddef.h>
#include <stdint.h>

#include "keys.h"
#include "pos.h"

#define SP_CANON_MAX_STATES 1024/* tied partial labellings kept per step of the search */

/* Scratch space for canonicalisation, owned by one thread: large, so made once per thread and reused. */
typedef struct sp_canon_ctx sp_canon_ctx;

sp_canon_ctx *sp_canon_ctx_new(void);
void sp_canon_ctx_free(sp_canon_ctx *ctx);
/* How many keys were produced without the exactness guarantee since the context was made. */
uint64_t sp_canon_ctx_inexact(const sp_canon_ctx *ctx);

/* Key of land l of a simplified position; returns its length (at most SP_KEY_MAX). */
size_t sp_canon_land(sp_canon_ctx *ctx, const sp_pos *p, unsigned l, sp_tok *out);

/* Key of a whole simplified position (its land keys, sorted). */
size_t sp_canon_pos(sp_canon_ctx *ctx, const sp_pos *p, sp_tok *out);

/* Key of any position (a parsed one, say): sp_canon_pos() of a simplified copy. */
size_t sp_pos_key(sp_canon_ctx *ctx, const sp_pos *p, sp_tok *out);

/* The same for an Antwerp position, its colours col[] beside p->sym (pos.h): colours are part of the
 * key (keys.h), so only the symmetries above that keep every spot's colour meet; red and blue are
 * never exchanged. */
size_t sp_canon_pos_colours(sp_canon_ctx *ctx, const sp_pos *p, const uint8_t *col, sp_tok *out);
size_t sp_pos_key_colours(sp_canon_ctx *ctx, const sp_pos *p, const uint8_t *col, sp_tok *out);

#endif
