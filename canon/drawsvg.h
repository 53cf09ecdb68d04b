/* drawsvg.h: a drawing (drawing.h) laid out (layout.h) written as an SVG picture: the regions
 * shaded, the curves as polylines, the last one highlighted, spots with their numbers, live ones
 * coloured with their lives, and a caption.
 *
 * Contract:
 * - Elements a reader of the file can count on: every curve is one <polyline class="curve"> (the
 *   last move's has class "curve last"), with the points of the layout; every spot is one
 *   <circle class="spot live|dead"> followed by <text class="label">N</text>; a bounded region is
 *   one <path class="region">.
 * - y points down in SVG: the picture flips the layout, so counter-clockwise stays counter-clockwise
 *   for the eye.
 */
#ifndef SP_DRAWSVG_H
#define SP_DRAWSVG_H

#include <stdio.h>

#include "drawing.h"
#include "layout.h"

typedef struct sp_svg_caption {
    const char *name;      /* the record's name */
    const char *move_text; /* the last move in the record's notation, or NULL at the start */
    size_t move, moves;    /* the move drawn (0: the start) of how many */
    size_t drawings;       /* drawings that fit the record there (> 1: "one of N") */
} sp_svg_caption;

/* Writes the picture; returns 0, or -1 when writing failed. */
int sp_draw_svg(FILE *out, const sp_draw *d, const sp_layout *l, const sp_svg_caption *cap);

#endif
