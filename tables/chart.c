/* chart.c: the SVG scatter chart (chart.h): layout, axes with their ticks, series, legend. Sizes are
 * in SVG pixels; the document scales as a whole wherever it is shown. */
#include "chart.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The plot area and the room around it for labels and the legend; the y axis's first and last decades
 * are INSET inside the frame, so that no point sits on it. */
enum { WIDTH = 800, HEIGHT = 470, LEFT = 78, RIGHT = 560, TOP = 52, BOTTOM = 392, INSET = 10, NOTE_LINE = 15 };

#define MAX_LABELED_TICKS 12

typedef struct frame {
    double xlo, xhi, xstep; /* x axis: linear, a label every xstep */
    int ylo, yhi;           /* y axis: 10^ylo .. 10^yhi */
    int points;             /* how many points there are in all */
} frame;

void sp_chart_decades(double min, double max, int *lo, int *hi)
{
    /* the slack keeps an exact power of ten (1000, 0.001) on its own decade despite rounding */
    *lo = (int)floor(log10(min) + 1e-9);
    *hi = (int)ceil(log10(max) - 1e-9);
    if (*hi <= *lo)
        *hi = *lo + 1;
}

double sp_chart_log_pos(double y, int lo, int hi, double from, double to)
{
    return from + (log10(y) - lo) / (hi - lo) * (to - from);
}

static double shown_y(const sp_chart *c, double y)
{
    return y < c->y_floor ? c->y_floor : y;
}

static double px_x(const frame *f, double x)
{
    return LEFT + (x - f->xlo) / (f->xhi - f->xlo) * (RIGHT - LEFT);
}

static double px_y(const sp_chart *c, const frame *f, double y)
{
    return sp_chart_log_pos(shown_y(c, y), f->ylo, f->yhi, BOTTOM - INSET, TOP + INSET);
}

/* A step of 1, 2 or 5 times a power of ten, at least 1, with at most MAX_LABELED_TICKS steps in span. */
static double nice_step(double span)
{
    for (double decade = 1;; decade *= 10)
        for (int i = 0; i < 3; i++) {
            double step = decade * (i == 0 ? 1 : i == 1 ? 2 : 5);
            if (span / step <= MAX_LABELED_TICKS)
                return step;
        }
}

static frame frame_of(const sp_chart *c)
{
    frame f = {0, 0, 1, 0, 1, 0};
    double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    for (size_t s = 0; s < c->nseries; s++)
        for (size_t i = 0; i < c->series[s].n; i++) {
            const sp_chart_series *se = &c->series[s];
            xmin = fmin(xmin, se->x[i]);
            xmax = fmax(xmax, se->x[i]);
            ymin = fmin(ymin, shown_y(c, se->y[i]));
            ymax = fmax(ymax, shown_y(c, se->y[i]));
            f.points++;
        }
    if (!f.points) {
        f.xhi = 10;
        f.xstep = 1;
        return f;
    }
    /* half a step of room each side, so that no point sits on the frame */
    f.xstep = nice_step(fmax(xmax - xmin, 1));
    f.xlo = f.xstep * floor((xmin - f.xstep / 2) / f.xstep);
    if (xmin >= 0 && f.xlo < 0)
        f.xlo = 0;
    f.xhi = f.xstep * ceil((xmax + f.xstep / 2) / f.xstep);
    sp_chart_decades(ymin, ymax, &f.ylo, &f.yhi);
    return f;
}

/* Text content with the XML specials escaped. */
static void add_escaped(sp_text *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len && s[i]; i++) {
        char ch = s[i];
        if (ch == '&')
            sp_text_add(out, "&amp;");
        else if (ch == '<')
            sp_text_add(out, "&lt;");
        else if (ch == '>')
            sp_text_add(out, "&gt;");
        else
            sp_text_add(out, "%c", ch);
    }
}

static void add_text(sp_text *out, double x, double y, const char *attrs, const char *s)
{
    sp_text_add(out, "<text x=\"%.1f\" y=\"%.1f\" %s>", x, y, attrs);
    add_escaped(out, s, strlen(s));
    sp_text_add(out, "</text>\n");
}

/* "10" with the exponent in superscript digits. */
static void decade_label(int k, char *buf, size_t cap)
{
    static const char *const sup[10] = {"\u2070", "\u00b9", "\u00b2", "\u00b3", "\u2074",
                                        "\u2075", "\u2076", "\u2077", "\u2078", "\u2079"};
    char digits[16];
    snprintf(digits, sizeof digits, "%d", k < 0 ? -k : k);
    snprintf(buf, cap, "10%s", k < 0 ? "\u207b" : "");
    for (const char *d = digits; *d; d++)
        strncat(buf, sup[*d - '0'], cap - strlen(buf) - 1);
}

static void y_axis(sp_text *out, const sp_chart *c, const frame *f)
{
    int every = (f->yhi - f->ylo + 9) / 10; /* at most ten labelled decades */
    double per_decade = (double)(BOTTOM - TOP - 2 * INSET) / (f->yhi - f->ylo);
    for (int k = f->ylo; k <= f->yhi; k++) {
        double y = px_y(c, f, pow(10, k));
        sp_text_add(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", LEFT, y, RIGHT, y);
        sp_text_add(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#333\"/>\n", LEFT - 6, y, LEFT, y);
        if ((k - f->ylo) % every == 0) {
            char label[64];
            decade_label(k, label, sizeof label);
            add_text(out, LEFT - 9, y + 4, "font-size=\"12\" text-anchor=\"end\"", label);
        }
        for (int m = 2; m <= 9 && k < f->yhi && per_decade >= 40; m++) {
            double ym = px_y(c, f, m * pow(10, k));
            sp_text_add(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#333\"/>\n", LEFT - 3, ym,
                        LEFT, ym);
        }
    }
    char attrs[128];
    snprintf(attrs, sizeof attrs, "font-size=\"13\" text-anchor=\"middle\" transform=\"rotate(-90 22 %d)\"",
             (TOP + BOTTOM) / 2);
    add_text(out, 22, (TOP + BOTTOM) / 2, attrs, c->y_label);
}

static void x_axis(sp_text *out, const sp_chart *c, const frame *f)
{
    for (double x = f->xlo; x <= f->xhi + 1e-9; x += f->xstep) {
        double px = px_x(f, x);
        sp_text_add(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\"/>\n", px, BOTTOM, px,
                    BOTTOM + 6);
        char label[32];
        snprintf(label, sizeof label, "%g", x);
        add_text(out, px, BOTTOM + 20, "font-size=\"12\" text-anchor=\"middle\"", label);
    }
    add_text(out, (LEFT + RIGHT) / 2.0, BOTTOM + 42, "font-size=\"13\" text-anchor=\"middle\"", c->x_label);
}

/* A marker centred on the origin of the group it is drawn in. */
static void marker(sp_text *out, sp_chart_mark mark)
{
    if (mark == SP_MARK_CIRCLE)
        sp_text_add(out, "<circle r=\"4\"/>");
    else if (mark == SP_MARK_SQUARE)
        sp_text_add(out, "<rect x=\"-3.6\" y=\"-3.6\" width=\"7.2\" height=\"7.2\"/>");
    else
        sp_text_add(out, "<path d=\"M0,-5 L4.6,3.4 L-4.6,3.4 Z\"/>");
}

static void marker_style(char *buf, size_t cap, const char *color, int open)
{
    snprintf(buf, cap, "fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\"", open ? "white" : color, color,
             open ? "1.6" : "1");
}

static void value_text(char *buf, size_t cap, double v)
{
    if (v >= 1 && v < 1e15 && v == floor(v))
        snprintf(buf, cap, "%.0f", v);
    else
        snprintf(buf, cap, "%.4g", v);
}

static void point(sp_text *out, const sp_chart *c, const frame *f, const sp_chart_series *s, size_t i)
{
    char style[160], xs[32], ys[32];
    marker_style(style, sizeof style, s->color, s->open[i]);
    value_text(xs, sizeof xs, s->x[i]);
    value_text(ys, sizeof ys, s->y[i]);
    sp_text_add(out, "<g class=\"point%s\" transform=\"translate(%.2f,%.2f)\" %s><title>", s->open[i] ? " open" : "",
                px_x(f, s->x[i]), px_y(c, f, s->y[i]), style);
    char tip[512];
    snprintf(tip, sizeof tip, "%s: %s = %s, %s %s%s%s", s->name, c->x_name, xs, ys, c->y_unit,
             s->open[i] && c->open_label ? "; " : "", s->open[i] && c->open_label ? c->open_label : "");
    add_escaped(out, tip, sizeof tip);
    sp_text_add(out, "</title>");
    marker(out, s->mark);
    sp_text_add(out, "</g>\n");
}

/* The line through the filled points, broken where two are further apart than s->join. */
static void join_line(sp_text *out, const sp_chart *c, const frame *f, const sp_chart_series *s)
{
    int open_path = 0;
    double last = 0;
    for (size_t i = 0; i < s->n && s->join > 0; i++) {
        if (s->open[i])
            continue;
        int joined = open_path && s->x[i] - last <= s->join;
        if (!joined && open_path)
            sp_text_add(out, "\"/>\n");
        if (!joined)
            sp_text_add(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-opacity=\"0.45\" stroke-width=\"1.2\" "
                             "points=\"", s->color);
        sp_text_add(out, "%s%.2f,%.2f", joined ? " " : "", px_x(f, s->x[i]), px_y(c, f, s->y[i]));
        open_path = 1;
        last = s->x[i];
    }
    if (open_path)
        sp_text_add(out, "\"/>\n");
}

static void series(sp_text *out, const sp_chart *c, const frame *f, size_t k)
{
    const sp_chart_series *s = &c->series[k];
    sp_text_add(out, "<g class=\"series\" id=\"series-%zu\">\n", k + 1);
    join_line(out, c, f, s);
    for (size_t i = 0; i < s->n; i++)
        point(out, c, f, s, i);
    sp_text_add(out, "</g>\n");
}

static void legend_entry(sp_text *out, int row, sp_chart_mark mark, const char *color, int open, const char *name)
{
    char style[160];
    double y = TOP + 12 + 22.0 * row;
    marker_style(style, sizeof style, color, open);
    sp_text_add(out, "<g transform=\"translate(%d,%.1f)\" %s>", RIGHT + 22, y, style);
    marker(out, mark);
    sp_text_add(out, "</g>\n");
    add_text(out, RIGHT + 34, y + 4, "font-size=\"12\"", name);
}

static void legend(sp_text *out, const sp_chart *c)
{
    int row = 0, any_open = 0;
    sp_text_add(out, "<g class=\"legend\">\n");
    for (size_t k = 0; k < c->nseries; k++) {
        const sp_chart_series *s = &c->series[k];
        legend_entry(out, row++, s->mark, s->color, 0, s->name);
        for (size_t i = 0; i < s->n; i++)
            any_open |= s->open[i];
    }
    if (any_open && c->open_label)
        legend_entry(out, row, SP_MARK_CIRCLE, "#555", 1, c->open_label);
    sp_text_add(out, "</g>\n");
}

static int note_lines(const sp_chart *c)
{
    int lines = 0;
    for (const char *p = c->note; p && *p; p += strcspn(p, "\n"), p += *p == '\n')
        lines++;
    return lines;
}

static void note(sp_text *out, const sp_chart *c)
{
    int line = 0;
    for (const char *p = c->note; p && *p; line++) {
        size_t len = strcspn(p, "\n");
        sp_text_add(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#555\">", 12,
                    BOTTOM + 66 + NOTE_LINE * line);
        add_escaped(out, p, len);
        sp_text_add(out, "</text>\n");
        p += len + (p[len] == '\n');
    }
}

void sp_chart_svg(const sp_chart *c, sp_text *out)
{
    frame f = frame_of(c);
    int height = HEIGHT + NOTE_LINE * (note_lines(c) > 1 ? note_lines(c) - 1 : 0);
    sp_text_add(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                     "font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n"
                     "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
                WIDTH, height, WIDTH, height, WIDTH, height);
    add_text(out, (LEFT + RIGHT) / 2.0, 30, "font-size=\"16\" font-weight=\"bold\" text-anchor=\"middle\"", c->title);
    y_axis(out, c, &f);
    x_axis(out, c, &f);
    sp_text_add(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333\"/>\n", LEFT, TOP,
                RIGHT - LEFT, BOTTOM - TOP);
    if (!f.points)
        add_text(out, (LEFT + RIGHT) / 2.0, (TOP + BOTTOM) / 2.0,
                 "font-size=\"14\" text-anchor=\"middle\" fill=\"#777\"", "no data yet");
    for (size_t k = c->nseries; k-- > 0;) /* the first series on top, where points meet */
        series(out, c, &f, k);
    legend(out, c);
    note(out, c);
    sp_text_add(out, "</svg>\n");
}
