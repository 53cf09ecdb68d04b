/* keys.h: the format of canonical keys (canonical.h makes them) and what needs no canonicalisation:
 * splitting a position key into its lands, comparing, hashing, lives and a move estimate, decoding
 * a key back into a position.
 *
 * A key is a sequence of 16-bit tokens. A land key lists its regions (the most rigid first, then by
 * local form), each as
 *   SP_TK_ZEROS + (number of lone spots)  [boundary tokens... SP_TK_END_B]...  SP_TK_END_R
 * and ends with SP_TK_END_L. Boundary tokens: SP_TK_ONE, SP_TK_TWO, SP_TK_UP + name (an upper-case
 * letter; names are numbered by first appearance in the land key) and SP_TK_LO + d (a lower-case
 * letter whose partner lies d steps further along the same boundary, cyclically). A position key is
 * its land keys in sorted order; the empty position has the empty key.
 *
 * An Antwerp position's key (canonical.h's *_colours) carries the colour c (pos.h) of every 1-life
 * spot in its token: SP_TK_TWO + c, and SP_TK_UP or SP_TK_LO with c in bits 12-13 (names and
 * distances stay below 2^12). A plain key is one whose colours are all white.
 */
#ifndef SP_KEYS_H
#define SP_KEYS_H

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
    SP_TK_COLOUR_SHIFT = 12,
};

/* The colour a token carries (white for all but the tokens of 1-life spots), and the token without it. */
static inline unsigned sp_tk_colour(sp_tok t)
{
    if (t >= SP_TK_UP)
        return (t >> SP_TK_COLOUR_SHIFT) & 3u;
    return t > SP_TK_TWO && t <= SP_TK_TWO + 2 ? (unsigned)(t - SP_TK_TWO) : 0u;
}

static inline sp_tok sp_tk_plain(sp_tok t)
{
    if (t >= SP_TK_UP)
        return (sp_tok)(t & ~(3u << SP_TK_COLOUR_SHIFT));
    return t > SP_TK_TWO && t <= SP_TK_TWO + 2 ? (sp_tok)SP_TK_TWO : t;
}

/* Room for the key of any sp_pos. */
#define SP_KEY_MAX (SP_MAX_SYMS + SP_MAX_BNDS + 2 * SP_MAX_REGS + SP_MAX_LANDS)

/* Splits a position key into its lands: returns how many, writing their offsets and lengths. */
unsigned sp_key_lands(const sp_tok *key, size_t len, uint32_t *off, uint32_t *lens, unsigned cap);

/* Compares two keys (token by token, then by length). */
int sp_key_cmp(const sp_tok *a, size_t alen, const sp_tok *b, size_t blen);

/* Two position keys (each its lands in key order) as one: their lands merged in key order, written
 * to out (room for alen + blen tokens); the length, alen + blen. A position with one land replaced
 * by the lands of its child is the merge of the others with the child (expand.h). */
size_t sp_key_merge(const sp_tok *a, size_t alen, const sp_tok *b, size_t blen, sp_tok *out);

/* The position key without its land at off (llen tokens), written to out (room for len - llen
 * tokens): the other lands, still in key order; the length, len - llen. */
size_t sp_key_drop_land(const sp_tok *key, size_t len, size_t off, size_t llen, sp_tok *out);

/* Total lives of the position a key stands for. */
unsigned sp_key_lives(const sp_tok *key, size_t len);

/* A cheap upper estimate of the number of moves of a position key, from its shape alone (no move
 * is generated): for ordering and initialising searches, never for results. */
uint64_t sp_key_moves_estimate(const sp_tok *key, size_t len);

/* Decodes a key (any number of lands) into a position. Returns 0, or -1 if the key is malformed. */
int sp_key_decode(const sp_tok *key, size_t len, sp_pos *out);

/* sp_key_decode() of an Antwerp key: the colours go into col[] beside out->sym (room for SP_MAX_SYMS).
 * sp_key_decode() refuses a key with colours. */
int sp_key_decode_colours(const sp_tok *key, size_t len, sp_pos *out, uint8_t *col);

/* 64- and 128-bit XXH3 of a key's tokens. */
uint64_t sp_key_hash64(const sp_tok *key, size_t len);
void sp_key_hash128(const sp_tok *key, size_t len, uint64_t out[2]);


#endif
