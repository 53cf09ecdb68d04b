/* labelled.h: labelled positions, the drawing as a record sees it: the regions, boundaries and
 * corners of pos.h, but every occurrence keeps its spot's number and dead spots stay; the moves of a
 * record on it, and the map to the solver's position.
 *
 * Contract:
 * - sp_lab is a flat value (memcpy it). Spots are 1..nspot; spot s has degree[s] curve ends (3 - its
 *   lives). A region is a list of boundaries; a boundary is the cyclic sequence of the corners met
 *   walking around one connected piece of the drawing, each corner written as its spot's number. A
 *   spot of degree d has max(d, 1) corners, so it occurs max(d, 1) times in all. A lone spot (degree
 *   0) is a boundary of one corner.
 * - Orientation: every boundary is stored in Hoey's left-hand order: walking along it in stored order,
 *   the drawing is on the walker's left and the region on its right (a boundary that surrounds its
 *   region runs clockwise). So at a corner "a s b" (a before s, b after it) a curve arriving at s from
 *   inside the region has a on its left and b on its right.
 * - Hoey's '!': the ant walks along the new curve from the new spot to an end s of degree 2 and sees
 *   s's two neighbours; without '!' the higher-numbered one is on its right, that is, the corner
 *   "a s b" has b > a (a plain corner); with '!' it is on its left (a > b, a marked corner). A corner
 *   of a spot of another degree, or whose two neighbours are one spot, is neither.
 * - A boundary on which every spot is dead is dropped, and so is a region left without boundaries:
 *   no move, '@' or live spot of '[L]' can concern them again.
 * - Two labelled positions are the same drawing when one is carried onto the other by a homeomorphism
 *   of the sphere that keeps every spot's number: in this representation, rotating boundaries and
 *   reordering boundaries and regions (sp_lab_form), and, for a mirror image, reversing every boundary
 *   of the drawing at once (sp_lab_same with mirror).
 */
#ifndef SP_LABELLED_H
#define SP_LABELLED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pos.h"

#define SP_LAB_MAX_START 100                       /* starting spots: keeps sp_lab_to_pos within pos.h's bounds */
#define SP_LAB_MAX_SPOTS (4 * SP_LAB_MAX_START)    /* a game from n spots creates fewer than 3n more */
#define SP_LAB_MAX_OCC (3 * SP_LAB_MAX_SPOTS)
#define SP_LAB_FORM_MAX (3 * SP_LAB_MAX_OCC)       /* tokens of a form (sp_lab_form) */

typedef struct sp_lab {
    uint16_t nspot, nocc, nbnd, nreg;
    uint8_t degree[SP_LAB_MAX_SPOTS + 1];
    uint16_t occ[SP_LAB_MAX_OCC];   /* spot numbers, boundary after boundary */
    uint16_t bend[SP_LAB_MAX_OCC];  /* boundary b spans occ[sp_lab_bstart(p, b) .. bend[b]) */
    uint16_t rend[SP_LAB_MAX_OCC];  /* region r owns boundaries [sp_lab_rstart(p, r) .. rend[r]) */
} sp_lab;

static inline unsigned sp_lab_bstart(const sp_lab *p, unsigned b) { return b ? p->bend[b - 1] : 0; }
static inline unsigned sp_lab_rstart(const sp_lab *p, unsigned r) { return r ? p->rend[r - 1] : 0; }

/* The start of an n-spot game: n lone spots 1..n in one region. False when n is 0 or above
 * SP_LAB_MAX_START. */
bool sp_lab_start(sp_lab *p, unsigned n);

/* Lives left in the drawing: 3 per spot less its degree. */
unsigned sp_lab_lives(const sp_lab *p);

/* One move of a record: from f to h (f == h: a loop) with the new spot g. */
typedef struct sp_lab_move {
    unsigned f, g, h;
    unsigned at;            /* '@at': g must share a region with spot `at`; 0: not given */
    bool bang_f, bang_h;    /* '!' at f / at h */
    bool has_list;          /* '[L]' given; without it nothing live may be separated */
    const unsigned *list;   /* L */
    size_t nlist;
} sp_lab_move;

/* The first reason a move cannot be played that does not depend on how the drawing looks (only on
 * the spot numbers and degrees): NULL, or a sentence written into buf. Checked: g is the next spot
 * number; f, h, '@' and the spots of L exist; L does not name f, g or h; f and h have the lives. */
const char *sp_lab_check(const sp_lab *p, const sp_lab_move *m, char *buf, size_t cap);

/* Why no drawing of a move fits the record, by the stage at which the last candidate dropped out. */
typedef enum sp_lab_verdict {
    SP_LAB_FITS = 0,      /* at least one drawing fits */
    SP_LAB_NO_REGION = 1, /* f and h share no region */
    SP_LAB_LIST = 2,      /* every drawing separates other live spots than [L] says */
    SP_LAB_AT = 3,        /* no drawing puts g in a region with spot @at */
    SP_LAB_BANG = 4,      /* no drawing reaches the ends from the side '!' says */
    SP_LAB_FULL = 5,      /* the result does not fit in an sp_lab */
} sp_lab_verdict;

/* Receives one drawing of a move; a non-zero return stops sp_lab_play. */
typedef int (*sp_lab_sink)(void *arg, const sp_lab *child);

/* Every drawing of move m (which passed sp_lab_check) that agrees with all the record says:
 * - the curve runs inside one region from a corner of f to a corner of h (the same corner for a
 *   loop); corners on one boundary split the region (the other boundaries go to either side), on two
 *   boundaries merge them (movegen.c's face formulas);
 * - [L]: the live spots that touch only one of the two new regions (spots on the new curve touch
 *   both) are exactly the live spots of L, for one of the two; a dead spot of L must touch that
 *   region. A move that merges, or is given no [L], separates no live spot;
 * - '@at': spot `at` lies in a region that g touches;
 * - '!': the corner at that end is marked or neither; an end without '!' is, where the drawings
 *   that remain differ there, a plain corner (or neither): among them only those with the most such
 *   ends are kept.
 * Drawings are passed to sink as they are found; equal ones may come more than once. Returns
 * SP_LAB_FITS, or why none fits. */
sp_lab_verdict sp_lab_play(const sp_lab *p, const sp_lab_move *m, sp_lab_sink sink, void *arg);

/* The position the solver plays: live spots only (degree 0: a lone spot; 1: SP_SYM_ONE; 2: a letter,
 * one per spot, whose case follows from where its two corners are), one land, not simplified. */
void sp_lab_to_pos(const sp_lab *p, sp_pos *out);

/* A form of the drawing that is equal for two drawings exactly when a rotation and reordering of
 * boundaries and regions carries one onto the other (with every boundary reversed first when mirror).
 * Writes at most SP_LAB_FORM_MAX tokens; returns how many. */
size_t sp_lab_form(const sp_lab *p, bool mirror, uint16_t *out);

/* Whether a and b are the same drawing, or (when mirror) one is the mirror image of the other. */
bool sp_lab_same(const sp_lab *a, const sp_lab *b, bool mirror);

/* Writes the drawing as text, regions separated by " | ", boundaries by ".", corners by ",":
 * "1,6,2,6.3.4.5". Returns the length it needs, like snprintf. */
size_t sp_lab_print(const sp_lab *p, char *buf, size_t cap);

#endif
