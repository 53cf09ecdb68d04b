/* brussels.h: Brussels sprouts positions (crosses of four arms; a curve joins two free arms and the
 * cross-bar drawn on it leaves one new free arm on each side), their strings, keys and moves.
 *
 * The model: a free arm points into exactly one region and is used once, so regions never share
 * anything and a position is a sum of its regions. Within a region only the boundaries matter (the
 * connected pieces of the drawing the region touches), each a cyclic sequence of free arms that are
 * all alike: a boundary is its number of arms, a region the multiset of those numbers. A move joins
 * two arms of one region: on one boundary of L arms with a arms on one side between them, the region
 * splits into a face whose new boundary has a + 1 arms and one whose new boundary has L - 1 - a, the
 * other boundaries going to either face; on two boundaries, they merge into one of their arms' sum
 * (each loses the arm joined and gains the cross-bar's arm on its side). A region with fewer than 2
 * arms has no move and is dropped, as are boundaries with no arm (they can never be joined).
 *
 * Strings: regions joined by '|' (or '+', the same thing here), boundaries by '.', a boundary as a
 * run of '2' (one per free arm, as a 1-life spot is written in Sprouts) or 'x' (a lone cross: 4 arms),
 * "x*n" for n lone crosses; '!' is the position with no move. Printed canonically: regions sorted,
 * boundaries by decreasing arms, 4 arms as 'x', runs of them as "x*k".
 */
#ifndef SP_BRUSSELS_H
#define SP_BRUSSELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "keys.h"
#include "pos.h"

#define SP_BR_MAX_BNDS 256 /* boundaries in one position */
#define SP_BR_MAX_ARMS 4000 /* arms on one boundary */

typedef struct sp_br_pos {
    uint16_t nbnd, nreg;
    uint16_t arms[SP_BR_MAX_BNDS];
    uint16_t rend[SP_BR_MAX_BNDS]; /* region r owns boundaries [rend[r-1] .. rend[r]) */
} sp_br_pos;

/* n lone crosses in one region; false when n is out of range. */
bool sp_br_crosses(sp_br_pos *p, unsigned n);

/* Parses a Brussels position string (above); 0, or -1 with *err filled in. The result is canonical. */
int sp_br_parse(const char *text, sp_br_pos *out, sp_parse_error *err);

/* Writes the position (canonical: call sp_br_canon first); returns the length it needs, like snprintf. */
size_t sp_br_print(const sp_br_pos *p, char *buf, size_t cap);

/* The canonical form in place: dead regions and empty boundaries dropped, boundaries by decreasing
 * arms, regions in key order. Two positions are equal as games of this model iff their forms are. */
void sp_br_canon(sp_br_pos *p);

/* Key of region r of a canonical position: its arm counts, each SP_TK_ZEROS + arms, then SP_TK_END_L
 * (a one-land key, as the land stores take). Returns its length. */
size_t sp_br_region_key(const sp_br_pos *p, unsigned r, sp_tok *out);

/* The region a key stands for, as a one-region position. Returns 0, or -1 if the key is malformed. */
int sp_br_key_decode(const sp_tok *key, size_t len, sp_br_pos *out);

/* Every move of region r of a canonical position, one sink call each with the canonical position
 * that region becomes (zero, one or two regions; the other regions left out): splits by boundary,
 * side lengths and how many of each size of the other boundaries each face takes, then merges of two
 * boundaries; boundaries of equal arms are one choice (they are alike), so each distinct move once
 * (a and L - 2 - a both: mirror images). Returns 0, 1 when the sink stopped it, or -1 on its error. */
typedef int (*sp_br_sink)(void *arg, const sp_br_pos *child);
int sp_br_region_moves(const sp_br_pos *p, unsigned r, sp_br_sink sink, void *arg);

/* Total free arms. */
unsigned sp_br_arms(const sp_br_pos *p);

#endif
