/* chart.h: a scatter chart of a few series against a linear x axis and a log-scale y axis, written as
 * a standalone SVG document (plain text, no library): a tick per decade, legend, title, axis labels.
 *
 * Contract: every point of every series is drawn, as <g class="point" transform="translate(X,Y)"> (a
 * hollow one with class "point open") inside the <g class="series"> of its series, so that a reader of
 * the SVG can find them; nothing else has those classes. The first series is drawn on top.
 */
#ifndef SP_CHART_H
#define SP_CHART_H

#include <stddef.h>

#include "text.h"

#define SP_CHART_MAX_SERIES 4
#define SP_CHART_MAX_POINTS 256

typedef enum { SP_MARK_CIRCLE, SP_MARK_SQUARE, SP_MARK_TRIANGLE } sp_chart_mark;

typedef struct sp_chart_series {
    const char *name;  /* in the legend and in each point's tooltip */
    const char *color; /* an SVG colour */
    sp_chart_mark mark;
    double join;       /* filled points at most this far apart in x are joined by a line (0: never) */
    size_t n;          /* points, in increasing x */
    double x[SP_CHART_MAX_POINTS], y[SP_CHART_MAX_POINTS];
    unsigned char open[SP_CHART_MAX_POINTS]; /* drawn hollow: not a value like the others (e.g. a bound) */
} sp_chart_series;

typedef struct sp_chart {
    const char *title, *x_label, *y_label;
    const char *x_name, *y_unit; /* in tooltips: "normal play: n = 7, 0.07 s" */
    const char *open_label;      /* the legend's entry for hollow points; NULL: none */
    const char *note;            /* small print under the chart, lines split by '\n'; NULL: none */
    double y_floor;              /* smaller y (zero included) is drawn at y_floor; > 0 */
    size_t nseries;
    sp_chart_series series[SP_CHART_MAX_SERIES];
} sp_chart;

/* Appends the chart to out as an SVG document. */
void sp_chart_svg(const sp_chart *c, sp_text *out);

/* The decades a log axis spans for values in [min, max] (0 < min <= max): 10^*lo <= min, 10^*hi >= max,
 * both as tight as that allows, and *hi > *lo. */
void sp_chart_decades(double min, double max, int *lo, int *hi);

/* The pixel coordinate of y on a log axis that puts 10^lo at pixel `from` and 10^hi at pixel `to`. */
double sp_chart_log_pos(double y, int lo, int hi, double from, double to);

#endif
