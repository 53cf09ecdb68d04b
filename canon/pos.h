/* pos.h: a Sprouts position as lands of regions of boundaries of spot occurrences (the string
 * representation of Applegate, Jacobson and Sleator, as extended by Lemoine and Viennot).
 *
 * Contract:
 * - sp_pos is a flat, fixed-capacity value (no pointers, no allocation): copy it with memcpy.
 * - A boundary is a cyclic sequence of symbols: SP_SYM_ONE (a spot of degree 1, 2 lives, seen once),
 *   SP_SYM_TWO (a 1-life spot seen once), or a letter (a 1-life spot seen twice; its id is
 *   sym - SP_SYM_LETTER). Lone spots of degree 0 are not stored as boundaries but counted per region
 *   (zeros[]), since they are always alone and all alike.
 * - A letter is lower case when both occurrences lie on one boundary and upper case otherwise; the case
 *   is never stored, it follows from where the letter occurs.
 * - Letter ids are land-local and need not be dense; every letter occurs exactly twice in a valid,
 *   simplified position.
 * - Boundaries, regions and lands are stored as prefix ends: boundary b spans
 *   sym[sp_pos_bstart(p, b) .. p->bend[b]), region r owns boundaries [sp_pos_rstart(p, r) .. p->rend[r]),
 *   land l owns regions [sp_pos_lstart(p, l) .. p->lend[l]).
 */
#ifndef SP_POS_H
#define SP_POS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SP_MAX_SYMS 1024   /* spot occurrences in one position */
#define SP_MAX_BNDS 512    /* boundaries (lone 0s not counted) */
#define SP_MAX_REGS 256    /* regions */
#define SP_MAX_LANDS 256   /* lands */
#define SP_MAX_ZEROS 4000  /* lone spots in one region: 0*n accepts n up to this */

enum {
    SP_SYM_DEAD = 0,   /* an occurrence being deleted (never in a finished position) */
    SP_SYM_ONE = 1,
    SP_SYM_TWO = 2,
    SP_SYM_LETTER = 3, /* letter id k is stored as SP_SYM_LETTER + k */
};

typedef struct sp_pos {
    uint16_t nsym, nbnd, nreg, nland;
    uint16_t nletter; /* every letter id is below this */
    uint16_t sym[SP_MAX_SYMS];
    uint16_t bend[SP_MAX_BNDS];
    uint16_t rend[SP_MAX_REGS];
    uint16_t zeros[SP_MAX_REGS];
    uint16_t lend[SP_MAX_LANDS];
} sp_pos;

static inline unsigned sp_pos_bstart(const sp_pos *p, unsigned b) { return b ? p->bend[b - 1] : 0; }
static inline unsigned sp_pos_rstart(const sp_pos *p, unsigned r) { return r ? p->rend[r - 1] : 0; }
static inline unsigned sp_pos_lstart(const sp_pos *p, unsigned l) { return l ? p->lend[l - 1] : 0; }
static inline bool sp_sym_is_letter(unsigned s) { return s >= SP_SYM_LETTER; }

/* The empty position (no land: no move is left). */
void sp_pos_clear(sp_pos *p);

/* n lone spots in one region: the start of the n-spot game. Returns false when n is out of range. */
bool sp_pos_spots(sp_pos *p, unsigned n);

/* Total lives: 3 per lone spot, 2 per SP_SYM_ONE, 1 per other spot (a letter counts once). */
unsigned sp_pos_lives(const sp_pos *p);

/* Lives of region r (a letter seen twice in the region counts once). */
unsigned sp_pos_region_lives(const sp_pos *p, unsigned r);

typedef enum { SP_SYNTAX_V2 = 2, SP_SYNTAX_V1 = 1 } sp_syntax;

/* Antwerp sprouts' spot colours. Every spot is white, red or blue; only a 1-life spot (SP_SYM_TWO or a
 * letter) can be other than white, since the spots of the start are white and a spot drawn on a curve
 * is born with 1 life. A colour array runs beside sym[]: col[i] is the colour of the spot that
 * occurrence i belongs to (the same at both occurrences of a letter, white at SP_SYM_ONE). Written as
 * a suffix of the spot's symbol: "2:r", "A:b" (":w", white, is accepted and never printed). */
typedef enum { SP_WHITE = 0, SP_RED = 1, SP_BLUE = 2 } sp_colour;

typedef struct sp_parse_error {
    int column;        /* 1-based column of the offending character */
    char message[120]; /* what is wrong there */
} sp_parse_error;

/* Parses a position string: GLOP 2.x / SPOTS syntax ('.' between boundaries, '|' between regions,
 * '+' between lands, "0*k", '!' for the empty position) or GLOP 1.x syntax ('.' '}' ']' '!' as
 * terminators), recognised by its terminators. Letters: a-l and m(k) lower case, scoped to their
 * boundary; A-Y and Z(k) upper case, scoped to their land (as GLOP and SPOTS print them). Surrounding white space is ignored. The result is as written (not
 * simplified). Returns 0, or -1 with *err filled in. */
int sp_pos_parse(const char *text, sp_pos *out, sp_parse_error *err);

/* sp_pos_parse() of a position whose 1-life spots may carry colours (col: room for SP_MAX_SYMS, filled
 * beside out->sym). Every occurrence of a letter must carry its spot's colour; a colour on a 0 or 1 is
 * refused. sp_pos_parse() refuses colours. */
int sp_pos_parse_colours(const char *text, sp_pos *out, uint8_t *col, sp_parse_error *err);

/* Writes the position in the given syntax; letters are named in order of first appearance, lower case
 * afresh on each boundary, upper case afresh in each land.
 * Returns the length it needs (excluding the NUL), like snprintf; writes at most cap bytes. */
size_t sp_pos_print(const sp_pos *p, sp_syntax syntax, char *buf, size_t cap);

/* sp_pos_print() with the colours col[] beside p->sym (NULL: all white) as suffixes. */
size_t sp_pos_print_colours(const sp_pos *p, const uint8_t *col, sp_syntax syntax, char *buf, size_t cap);

/* Checks the structural invariants (every letter twice, lower case on one boundary, upper case in
 * two regions of the same land, no empty boundary or region). Returns NULL or what is wrong. */
const char *sp_pos_check(const sp_pos *p);

#endif
