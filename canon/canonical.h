/* canonical.h: canonical keys of lands and positions, their hash, and decoding keys back.
 *
 * A key is a sequence of 16-bit tokens. A land key lists its regions (the most rigid first, then by
 * local form), each as
 *   SP_TK_ZEROS + (number of lone spots)  [boundary tokens... SP_TK_END_B]...  SP_TK_END_R
 * and ends with SP_TK_END_L. Boundary tokens: SP_TK_ONE, SP_TK_TWO, SP_TK_UP + name (an upper-case
 * letter; names are numbered by first appearance in the land key) and SP_TK_LO + d (a lower-case
 * letter whose partner lies d steps further along the same boundary, cyclically). A position key is
 * its land keys in sorted order; the empty position has the empty key.
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

#include "pos.h"

typedef uint16_t sp_tok;

enum {
    SP_TK_END_L = 0,
    SP_TK_END_R = 1,
    SP_TK_END_B = 2,
    SP_TK_ONE = 3,
    SP_TK_TWO = 4,
    SP_TK_ZEROS = 0x2000,
    SP_TK_UP = 0x4000,
    SP_TK_LO = 0x8000,
};

/* Room for the key of any sp_pos. */
#define SP_KEY_MAX (SP_MAX_SYMS + SP_MAX_BNDS + 2 * SP_MAX_REGS + SP_MAX_LANDS)
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

/* Splits a position key into its lands: returns how many, writing their offsets and lengths. */
unsigned sp_key_lands(const sp_tok *key, size_t len, uint32_t *off, uint32_t *lens, unsigned cap);

/* Compares two keys (token by token, then by length). */
int sp_key_cmp(const sp_tok *a, size_t alen, const sp_tok *b, size_t blen);

/* Total lives of the position a key stands for. */
unsigned sp_key_lives(const sp_tok *key, size_t len);

/* A cheap upper estimate of the number of moves of a position key, from its shape alone (no move
 * is generated): for ordering and initialising searches, never for results. */
uint64_t sp_key_moves_estimate(const sp_tok *key, size_t len);

/* Decodes a key (any number of lands) into a position. Returns 0, or -1 if the key is malformed. */
int sp_key_decode(const sp_tok *key, size_t len, sp_pos *out);

/* 64- and 128-bit XXH3 of a key's tokens. */
uint64_t sp_key_hash64(const sp_tok *key, size_t len);
void sp_key_hash128(const sp_tok *key, size_t len, uint64_t out[2]);

#endif
