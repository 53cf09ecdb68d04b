/* plot.c: which rows each plot draws and how (plot.h); the drawing itself is chart.c's, GLOP's figures
 * glop.c's. */
#include "plot.h"

#include <stdio.h>
#include <string.h>

#include "glop.h"

const sp_plot_file sp_plot_files[SP_PLOT_COUNT] = {
    {"seconds.svg", "Search time of 0*n against n, both plays (log scale)"},
    {"nodes.svg", "Nodes searched for 0*n against n, both plays (log scale)"},
    {"certificates.svg", "Certificate size of 0*n against n beside GLOP's minimal databases (log scale)"},
};

static const char *const color[3] = {"#1f66b4", "#d0402a", "#2a9a3a"}; /* normal, misère, GLOP */

static const char *const notes[SP_PLOT_COUNT] = {
    "The search for the outcome (and the nimber), without the certificate, as the CSV gives it: to the "
    "millisecond;\nunder 1 ms is drawn at 1 ms. Hollow: left unsolved at the time limit; the search took at least "
    "this long.",
    "Nodes of the search for the outcome (and the nimber), as the CSV gives them.\nHollow: left unsolved at the "
    "time limit; the search expanded at least this many.",
    "Ours: the facts of the certificate (normal play: lands with their nimbers; mis\u00e8re: lost positions beside "
    "a game, and land games).\nGLOP: the losing couples (P, k) of its minimal databases, normal play, as its "
    "records page publishes them (tables/glop.c).\nSizes with no certificate (unsolved, or solved without one) "
    "are left out; hollow: a certificate that did not check.",
};

/* What a row puts in a plot: 0 when it draws nothing; *open when its point is hollow. */
static int row_value(sp_plot_kind kind, const sp_row *r, double *y, int *open)
{
    if (!r->present)
        return 0;
    if (kind == SP_PLOT_CERTIFICATES) {
        *y = (double)r->cert_facts;
        *open = strcmp(r->verified, "yes") != 0;
        return r->cert[0] && r->cert_facts > 0;
    }
    *y = kind == SP_PLOT_SECONDS ? r->seconds : (double)r->nodes;
    *open = !strcmp(r->outcome, "unsolved");
    return 1;
}

static sp_chart_series *new_series(sp_chart *c, const char *name, int which, sp_chart_mark mark)
{
    sp_chart_series *s = &c->series[c->nseries++];
    memset(s, 0, sizeof *s);
    s->name = name;
    s->color = color[which];
    s->mark = mark;
    s->join = 1; /* consecutive sizes */
    return s;
}

static void put(sp_chart_series *s, unsigned n, double y, int open)
{
    if (s->n == SP_CHART_MAX_POINTS)
        return;
    s->x[s->n] = n;
    s->y[s->n] = y;
    s->open[s->n++] = (unsigned char)open;
}

static void table_series(sp_chart *c, sp_plot_kind kind, const sp_table *t)
{
    static const char *const name[2][2] = {{"normal play", "mis\u00e8re play"},
                                           {"ours, normal play", "ours, mis\u00e8re play"}};
    sp_chart_series *s = new_series(c, name[kind == SP_PLOT_CERTIFICATES][t->misere], t->misere,
                                    t->misere ? SP_MARK_SQUARE : SP_MARK_CIRCLE);
    for (unsigned n = 1; n <= SP_TABLE_MAX_N; n++) {
        double y;
        int open;
        if (row_value(kind, &t->row[n], &y, &open))
            put(s, n, y, open);
    }
}

static void glop_series(sp_chart *c)
{
    sp_chart_series *s = new_series(c, "GLOP, normal play", 2, SP_MARK_TRIANGLE);
    for (unsigned n = 1; n <= SP_TABLE_MAX_N; n++)
        if (sp_glop_min_database(n) >= 0)
            put(s, n, (double)sp_glop_min_database(n), 0);
}

void sp_plot_chart(sp_plot_kind kind, const sp_table *normal, const sp_table *misere, sp_chart *c)
{
    static const char *const title[SP_PLOT_COUNT] = {"Search time of 0*n", "Nodes searched for 0*n",
                                                     "Certificate size of 0*n"};
    static const char *const y_label[SP_PLOT_COUNT] = {"seconds (log scale)", "nodes (log scale)",
                                                       "facts (log scale)"};
    static const char *const unit[SP_PLOT_COUNT] = {"s", "nodes", "facts"};
    memset(c, 0, sizeof *c);
    c->title = title[kind];
    c->x_label = "n (spots)";
    c->y_label = y_label[kind];
    c->x_name = "n";
    c->y_unit = unit[kind];
    c->note = notes[kind];
    c->open_label = kind == SP_PLOT_CERTIFICATES ? "did not check" : "unsolved (at least)";
    c->y_floor = kind == SP_PLOT_SECONDS ? 0.001 : 1;
    table_series(c, kind, normal);
    table_series(c, kind, misere);
    if (kind == SP_PLOT_CERTIFICATES)
        glop_series(c);
}

int sp_plot_write(const sp_table *normal, const sp_table *misere, const char *dir, char *err, size_t errcap)
{
    for (int k = 0; k < SP_PLOT_COUNT; k++) {
        sp_chart c;
        sp_text svg = {0};
        char path[4096];
        sp_plot_chart((sp_plot_kind)k, normal, misere, &c);
        sp_chart_svg(&c, &svg);
        snprintf(path, sizeof path, "%s/%s", dir, sp_plot_files[k].name);
        if (sp_text_save(&svg, path, err, errcap))
            return -1;
    }
    return 0;
}
