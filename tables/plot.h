/* plot.h: the pictures of the result tables, drawn from the two tables (both plays): search time and
 * nodes against n, and certificate size against n beside GLOP's published minimal databases.
 *
 * Contract: a seconds or nodes plot has one point per row of each table, a row left unsolved drawn
 * hollow; the certificate plot has one point per row with a certificate (hollow when it did not check)
 * and one per size GLOP publishes. Points run in increasing n.
 */
#ifndef SP_PLOT_H
#define SP_PLOT_H

#include <stddef.h>

#include "chart.h"
#include "report.h"

typedef enum { SP_PLOT_SECONDS, SP_PLOT_NODES, SP_PLOT_CERTIFICATES, SP_PLOT_COUNT } sp_plot_kind;

typedef struct sp_plot_file {
    const char *name; /* in the tables' directory */
    const char *alt;  /* what it shows, for the README */
} sp_plot_file;

extern const sp_plot_file sp_plot_files[SP_PLOT_COUNT];

/* The chart of one plot. */
void sp_plot_chart(sp_plot_kind kind, const sp_table *normal, const sp_table *misere, sp_chart *c);

/* Writes every plot into dir, each file atomically; 0, or -1 with a reason in err. */
int sp_plot_write(const sp_table *normal, const sp_table *misere, const char *dir, char *err, size_t errcap);

#endif
