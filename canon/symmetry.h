/* symmetry.h: the symmetries of the string representation, applied on purpose: random images of a
 * position (for tests and benchmarks of canonical forms) and a GLOP-style heuristic form to compare
 * the exact canonical form with.
 */
#ifndef SP_SYMMETRY_H
#define SP_SYMMETRY_H

#include <stdint.h>

#include "canonical.h"
#include "pos.h"

/* A random image of p under the valid symmetries: letters renamed, lands, regions and boundaries
 * reordered, every boundary rotated, and each region mirrored (all its boundaries reversed) or not. */
void sp_sym_random_image(const sp_pos *p, sp_pos *out, uint64_t *rng);

/* The same for an Antwerp position: its colours col[] beside p->sym go with their spots into outcol. */
void sp_sym_random_image_colours(const sp_pos *p, const uint8_t *col, sp_pos *out, uint8_t *outcol, uint64_t *rng);

/* The heuristic form of GLOP (Lemoine and Viennot): name letters by first
 * appearance, rotate each boundary to its least rotation, sort boundaries, try each region reversed,
 * sort regions and lands, repeat until nothing changes. A faithful key of p, but equivalent positions
 * can get different ones. Input: a simplified position. Returns the key's length. */
size_t sp_sym_glop_form(const sp_pos *p, sp_tok *out);

#endif
