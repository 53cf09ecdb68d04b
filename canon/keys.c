/* keys.c: operations on canonical keys that need no canonicalisation: comparing, splitting a position
 * key into its lands, hashing (XXH3), and decoding a key back into a position (keys.h). */
#include <stdbool.h>
#include <string.h>
#include <xxhash.h>

#include "keys.h"

int sp_key_cmp(const sp_tok *a, size_t alen, const sp_tok *b, size_t blen)
{
    size_t n = alen < blen ? alen : blen;
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return alen < blen ? -1 : alen > blen;
}


/* The length of the land that key begins with (its SP_TK_END_L included). */
static size_t first_land(const sp_tok *key, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (key[i] == SP_TK_END_L)
            return i + 1;
    return len;
}

size_t sp_key_merge(const sp_tok *a, size_t alen, const sp_tok *b, size_t blen, sp_tok *out)
{
    size_t o = 0, la = first_land(a, alen), lb = first_land(b, blen);
    while (alen || blen) {
        bool take_a = !blen || (alen && sp_key_cmp(a, la, b, lb) <= 0);
        size_t n = take_a ? la : lb;
        memcpy(out + o, take_a ? a : b, n * sizeof *out);
        o += n;
        if (take_a) {
            a += la, alen -= la;
            la = first_land(a, alen);
        } else {
            b += lb, blen -= lb;
            lb = first_land(b, blen);
        }
    }
    return o;
}

size_t sp_key_drop_land(const sp_tok *key, size_t len, size_t off, size_t llen, sp_tok *out)
{
    memcpy(out, key, off * sizeof *out);
    memcpy(out + off, key + off + llen, (len - off - llen) * sizeof *out);
    return len - llen;
}

unsigned sp_key_lands(const sp_tok *key, size_t len, uint32_t *off, uint32_t *lens, unsigned cap)
{
    unsigned n = 0;
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        if (key[i] != SP_TK_END_L)
            continue;
        if (n < cap) {
            off[n] = (uint32_t)start;
            lens[n] = (uint32_t)(i + 1 - start);
        }
        n++;
        start = i + 1;
    }
    return n;
}

uint64_t sp_key_hash64(const sp_tok *key, size_t len)
{
    return XXH3_64bits(key, len * sizeof(sp_tok));
}

void sp_key_hash128(const sp_tok *key, size_t len, uint64_t out[2])
{
    XXH128_hash_t h = XXH3_128bits(key, len * sizeof(sp_tok));
    out[0] = h.low64;
    out[1] = h.high64;
}

/* Decodes one boundary of n tokens into symbols, their colours into col (NULL: none allowed);
 * upper-case names map through up_id. */
static int decode_boundary(const sp_tok *t, unsigned n, sp_pos *out, uint8_t *col, int16_t *up_id, unsigned nnames)
{
    if (out->nsym + n > SP_MAX_SYMS || out->nbnd >= SP_MAX_BNDS || n == 0)
        return -1;
    uint16_t *sym = out->sym + out->nsym;
    for (unsigned k = 0; k < n; k++)
        sym[k] = SP_SYM_DEAD;
    for (unsigned k = 0; k < n; k++) {
        unsigned c = sp_tk_colour(t[k]);
        sp_tok x = sp_tk_plain(t[k]);
        if (c > SP_BLUE || (c && !col))
            return -1;
        if (col)
            col[out->nsym + k] = (uint8_t)c;
        if (x == SP_TK_ONE || x == SP_TK_TWO) {
            sym[k] = x == SP_TK_ONE ? SP_SYM_ONE : SP_SYM_TWO;
        } else if (x >= SP_TK_LO) {
            unsigned d = x - SP_TK_LO, j = (k + d) % n;
            if (d == 0 || d >= n || sp_tk_plain(t[j]) != SP_TK_LO + (n - d) || sp_tk_colour(t[j]) != c)
                return -1;
            if (sym[k] == SP_SYM_DEAD) {
                if (out->nletter >= SP_MAX_SYMS)
                    return -1;
                sym[k] = sym[j] = (uint16_t)(SP_SYM_LETTER + out->nletter++);
            }
        } else if (x >= SP_TK_UP && (unsigned)(x - SP_TK_UP) < nnames) {
            unsigned nm = x - SP_TK_UP;
            if (up_id[nm] < 0) {
                if (out->nletter >= SP_MAX_SYMS)
                    return -1;
                up_id[nm] = (int16_t)out->nletter++;
            }
            sym[k] = (uint16_t)(SP_SYM_LETTER + up_id[nm]);
        } else {
            return -1;
        }
    }
    out->nsym = (uint16_t)(out->nsym + n);
    out->bend[out->nbnd++] = out->nsym;
    return 0;
}

int sp_key_decode(const sp_tok *key, size_t len, sp_pos *out)
{
    return sp_key_decode_colours(key, len, out, NULL);
}

/* An upper-case letter's colour must be the same at both occurrences (col[] beside out->sym). */
static bool letters_agree(const sp_pos *p, const uint8_t *col)
{
    uint8_t first[SP_MAX_SYMS];
    memset(first, 0xff, p->nletter);
    for (unsigned i = 0; col && i < p->nsym; i++) {
        if (!sp_sym_is_letter(p->sym[i]))
            continue;
        unsigned k = p->sym[i] - SP_SYM_LETTER;
        if (first[k] == 0xff)
            first[k] = col[i];
        else if (first[k] != col[i])
            return false;
    }
    return true;
}

int sp_key_decode_colours(const sp_tok *key, size_t len, sp_pos *out, uint8_t *col)
{
    int16_t up_id[SP_MAX_SYMS];
    sp_pos_clear(out);
    size_t i = 0;
    while (i < len) {
        memset(up_id, 0xff, sizeof up_id);
        unsigned r_begin = out->nreg;
        while (i < len && key[i] != SP_TK_END_L) {
            if (out->nreg >= SP_MAX_REGS || key[i] < SP_TK_ZEROS || key[i] >= SP_TK_UP)
                return -1;
            out->zeros[out->nreg] = (uint16_t)(key[i++] - SP_TK_ZEROS);
            while (i < len && key[i] != SP_TK_END_R) {
                size_t j = i;
                while (j < len && key[j] != SP_TK_END_B && key[j] != SP_TK_END_R && key[j] != SP_TK_END_L)
                    j++;
                if (j >= len || key[j] != SP_TK_END_B ||
                    decode_boundary(key + i, (unsigned)(j - i), out, col, up_id, SP_MAX_SYMS))
                    return -1;
                i = j + 1;
            }
            if (i >= len)
                return -1;
            i++; /* END_R */
            out->rend[out->nreg++] = out->nbnd;
        }
        if (i >= len || out->nreg == r_begin || out->nland >= SP_MAX_LANDS)
            return -1;
        i++; /* END_L */
        out->lend[out->nland++] = out->nreg;
    }
    return sp_pos_check(out) || !letters_agree(out, col) ? -1 : 0;
}

unsigned sp_key_lives(const sp_tok *key, size_t len)
{
    unsigned half = 0; /* in half lives: a letter's two occurrences count one life together */
    for (size_t i = 0; i < len; i++) {
        sp_tok t = key[i];
        if (t >= SP_TK_LO || (t >= SP_TK_UP && t < SP_TK_LO))
            half += 1;
        else if (t >= SP_TK_ZEROS)
            half += 6u * (t - SP_TK_ZEROS);
        else if (t == SP_TK_ONE)
            half += 4;
        else if (sp_tk_plain(t) == SP_TK_TWO)
            half += 2;
    }
    return half / 2;
}

/* Moves of one region from its lone spots z and boundary lengths n[0..m). */
static uint64_t region_moves(unsigned z, const unsigned *n, unsigned m)
{
    uint64_t total = 0, sides = m < 20 ? 1ull << (m ? m - 1 : 0) : 1ull << 19, sum = 0;
    for (unsigned i = 0; i < m; i++) {
        total += (uint64_t)n[i] * (n[i] - 1) / 2 * sides * (z + 1) + (uint64_t)n[i] * sum;
        sum += n[i];
    }
    if (z)
        total += (z > 1) + sum + sides * 2 * z; /* two lone spots; a lone spot to a corner; loops */
    return total;
}

uint64_t sp_key_moves_estimate(const sp_tok *key, size_t len)
{
    uint64_t total = 0;
    unsigned n[SP_MAX_BNDS], m = 0, z = 0, cur = 0;
    for (size_t i = 0; i < len; i++) {
        sp_tok t = key[i];
        if (t >= SP_TK_ZEROS && t < SP_TK_UP && (i == 0 || key[i - 1] == SP_TK_END_R || key[i - 1] == SP_TK_END_L)) {
            z = t - SP_TK_ZEROS, m = 0, cur = 0;
        } else if (t == SP_TK_END_B) {
            if (m < SP_MAX_BNDS)
                n[m++] = cur;
            cur = 0;
        } else if (t == SP_TK_END_R) {
            total += region_moves(z, n, m);
        } else if (t != SP_TK_END_L) {
            cur++;
        }
    }
    return total;
}
