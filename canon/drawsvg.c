/* drawsvg.c: the SVG picture of a laid-out drawing (drawsvg.h), written by hand: the page, the
 * regions as paths along their walks, the curves, the spots and the caption. */
#include "drawsvg.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define SIZE 760.0   /* the picture's square, in px */
#define MARGIN 30.0
#define CAPTION 80.0 /* below the square */
#define RADIUS 9.0   /* of a spot */

static double px(double x) { return SIZE / 2 + (SIZE / 2 - MARGIN) * x; }
static double py(double y) { return SIZE / 2 - (SIZE / 2 - MARGIN) * y; }

/* Writes s with the characters XML reserves escaped. */
static void xml_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out);
        }
    }
}

/* The layout points of dart e from from[e] on, without its last point: n = SP_LAYOUT_SEG of them. */
static void dart_points(const sp_layout *l, unsigned e, double *x, double *y)
{
    const double *cx = l->cx + (size_t)(e / 4) * SP_LAYOUT_POINTS, *cy = l->cy + (size_t)(e / 4) * SP_LAYOUT_POINTS;
    for (unsigned j = 0; j < SP_LAYOUT_SEG; j++) {
        unsigned k = e % 4 == 0 ? j : e % 4 == 1 ? SP_LAYOUT_SEG - j : e % 4 == 2 ? 2 * SP_LAYOUT_SEG - j : SP_LAYOUT_SEG + j;
        x[j] = cx[k];
        y[j] = cy[k];
    }
}

static const char *const shade[] = {"#fdf3d0", "#dcefff", "#e4f5df", "#f6e1f3", "#e9e4fb", "#fbe5dc", "#dff4f1"};

/* Every bounded face as one path: its walks as sub-paths, filled even-odd so the walks of the parts
 * inside it cut them out. */
static void regions(FILE *out, const sp_draw *d, const sp_layout *l)
{
    bool *seen = calloc(d->ndart + 1u, sizeof *seen);
    if (!seen)
        return;
    for (unsigned f = 0; f < d->nface; f++) {
        if (f == d->outer)
            continue;
        fprintf(out, "<path class=\"region\" fill=\"%s\" fill-rule=\"evenodd\" stroke=\"none\" d=\"",
                shade[f % (sizeof shade / sizeof *shade)]);
        for (unsigned e = 0; e < d->ndart; e++) {
            if (d->face[e] != f || seen[e])
                continue;
            const char *cmd = "M";
            for (unsigned x = e; !seen[x]; x = d->ccw[x ^ 1u]) {
                seen[x] = true;
                double xs[SP_LAYOUT_SEG], ys[SP_LAYOUT_SEG];
                dart_points(l, x, xs, ys);
                for (unsigned j = 0; j < SP_LAYOUT_SEG; j++, cmd = "L")
                    fprintf(out, "%s%.3f %.3f ", cmd, px(xs[j]), py(ys[j]));
            }
            fputs("Z ", out);
        }
        fputs("\"/>\n", out);
    }
    free(seen);
}

static void curves(FILE *out, const sp_layout *l, bool last_marked)
{
    for (unsigned i = 0; i < l->ncurve; i++) {
        bool last = last_marked && i + 1 == l->ncurve;
        fprintf(out, "<polyline class=\"curve%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" "
                     "stroke-linejoin=\"round\" points=\"",
                last ? " last" : "", last ? "#d62728" : "#333333", last ? "3.5" : "2");
        for (unsigned j = 0; j < SP_LAYOUT_POINTS; j++) {
            size_t k = (size_t)i * SP_LAYOUT_POINTS + j;
            fprintf(out, "%s%.3f,%.3f", j ? " " : "", px(l->cx[k]), py(l->cy[k]));
        }
        fputs("\"/>\n", out);
    }
}

static void spots(FILE *out, const sp_draw *d, const sp_layout *l, unsigned newest)
{
    for (unsigned s = 1; s <= d->nspot; s++) {
        unsigned lives = 3u - d->degree[s];
        double x = px(l->x[s]), y = py(l->y[s]);
        fprintf(out, "<circle class=\"spot %s\" cx=\"%.3f\" cy=\"%.3f\" r=\"%.0f\" fill=\"%s\" stroke=\"%s\" "
                     "stroke-width=\"%s\"/>\n",
                lives ? "live" : "dead", x, y, RADIUS, lives ? "#2e7d32" : "#b0b0b0", s == newest ? "#d62728" : "#222222",
                s == newest ? "2.5" : "1");
        fprintf(out, "<text class=\"label\" x=\"%.3f\" y=\"%.3f\" font-size=\"10\" text-anchor=\"middle\" "
                     "fill=\"%s\">%u</text>\n",
                x, y + 3.5, lives ? "#ffffff" : "#222222", s);
        if (lives)
            fprintf(out, "<text class=\"lives\" x=\"%.3f\" y=\"%.3f\" font-size=\"9\" fill=\"#2e7d32\">%u</text>\n",
                    x + RADIUS, y - RADIUS + 1, lives);
    }
}

static void caption(FILE *out, const sp_draw *d, const sp_svg_caption *cap)
{
    unsigned live = 0, lives = 0;
    for (unsigned s = 1; s <= d->nspot; s++) {
        live += d->degree[s] < 3;
        lives += 3u - d->degree[s];
    }
    fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"15\" fill=\"#111111\">", MARGIN, SIZE + 18);
    xml_text(out, cap->name);
    fputs(": ", out);
    if (cap->move == 0)
        fprintf(out, "the start (%zu moves)", cap->moves);
    else {
        fprintf(out, "after move %zu of %zu, ", cap->move, cap->moves);
        xml_text(out, cap->move_text ? cap->move_text : "");
    }
    fputs("</text>\n", out);
    fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"12\" fill=\"#444444\">%u spots, %u live (green, small number: "
                 "lives left), %u lives, %u regions%s</text>\n",
            MARGIN, SIZE + 38, d->nspot, live, lives, d->nface, cap->move ? "; the last move in red" : "");
    if (cap->drawings > 1)
        fprintf(out, "<text class=\"ambiguous\" x=\"%.0f\" y=\"%.0f\" font-size=\"12\" fill=\"#444444\">One of %zu "
                     "drawings that fit the record here (not mirror images of each other).</text>\n",
                MARGIN, SIZE + 56, cap->drawings);
}

int sp_draw_svg(FILE *out, const sp_draw *d, const sp_layout *l, const sp_svg_caption *cap)
{
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                 "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
            SIZE, SIZE + CAPTION, SIZE, SIZE + CAPTION);
    regions(out, d, l);
    curves(out, l, cap->move > 0);
    spots(out, d, l, cap->move > 0 ? d->nspot : 0);
    caption(out, d, cap);
    fputs("</svg>\n", out);
    return ferror(out) ? -1 : 0;
}
