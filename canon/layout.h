/* layout.h: a planar straight-line picture of a drawing (drawing.h): a point for every spot and a
 * polyline for every curve, no two of them crossing, with the rotation system of the drawing.
 *
 * Contract:
 * - Each edge of the drawing is cut into SP_LAYOUT_SEG pieces; the drawing, made connected by
 *   temporary bridges inside faces, gets in every face a ring of temporary points along its walk and
 *   a centre joined to them (the outer face: its ring on the unit circle instead), which makes a
 *   triangulated disc; Tutte's barycentric placement of it is a planar straight-line drawing
 *   (Floater 2003), and leaving out the temporary points and edges keeps it planar.
 * - Orientation: counter-clockwise around a spot in the picture (y up) is ccw in the drawing; the
 *   outer face lies outside. Coordinates lie in the unit disc.
 * - Curve i runs from f through g to h in SP_LAYOUT_POINTS points: f, the cuts of f-g, g, the cuts of
 *   g-h, h.
 */
#ifndef SP_LAYOUT_H
#define SP_LAYOUT_H

#include <stddef.h>

#include "drawing.h"

#define SP_LAYOUT_SEG 3
#define SP_LAYOUT_POINTS (2 * SP_LAYOUT_SEG + 1)

typedef struct sp_layout {
    unsigned nspot, ncurve;
    double *x, *y;   /* spot s at (x[s], y[s]), s = 1..nspot */
    double *cx, *cy; /* curve i: points [i * SP_LAYOUT_POINTS, (i + 1) * SP_LAYOUT_POINTS) */
} sp_layout;

/* Pairs of segments of ncurve polylines (SP_LAYOUT_POINTS points each, one after the other in x, y)
 * that meet other than at one shared end, exactly on the given doubles. Tutte's placement can lose
 * that many digits on deeply nested games that this is worth checking. */
size_t sp_layout_crossings(const double *x, const double *y, size_t ncurve);

/* Lays d out into *out; returns 0, or -1 when memory runs out (out then holds nothing to free). */
int sp_layout_make(const sp_draw *d, sp_layout *out);
void sp_layout_free(sp_layout *l);

#endif
