/* report.h: the result tables: one CSV per play (a row per n, with provenance) and a README.md for
 * people with the verdict on the mod-6 pattern, the plots (plot.h) and the certificate sizes beside
 * GLOP's; reading the CSV back for --resume.
 */
#ifndef SP_REPORT_TABLE_H
#define SP_REPORT_TABLE_H

#include <stddef.h>
#include <stdint.h>

#define SP_TABLE_MAX_N 256

typedef struct sp_row {
    int present;           /* a row exists for this n */
    char outcome[12];      /* "win", "loss" or "unsolved" */
    int nimber;            /* -1: not computed */
    uint64_t nodes;
    double seconds;
    unsigned threads;
    char cert[96];         /* certificate file, relative to the table's directory; "" if none */
    uint64_t cert_facts;
    char verified[12];     /* "yes", "no", "stopped" (its certificate was; --resume makes it) or "" */
    char version[64];
    char date[32];
    char machine[128];
} sp_row;

/* One play's table: rows indexed by n. */
typedef struct sp_table {
    int misere;
    sp_row row[SP_TABLE_MAX_N + 1];
} sp_table;

/* The conjectured outcome of 0*n for the first player: 'W' or 'L'. Normal play: W iff n mod 6 is 3, 4
 * or 5 (Applegate, Jacobson, Sleator). Misère play: W for n = 1, L for n = 4, else W iff n mod 6 is 0,
 * 4 or 5 (Lemoine and Viennot). */
char sp_table_prediction(int misere, unsigned n);

/* Reads DIR/normal.csv or DIR/misere.csv into t (a missing file is an empty table); -1 with a reason
 * when the file is not one this program wrote. Columns are only ever added at the end: a table with
 * fewer (an older one) or more (a newer one) than this program writes is read by its first ones. */
int sp_table_load(sp_table *t, const char *dir, char *err, size_t errcap);

/* Writes the CSV atomically. */
int sp_table_save(const sp_table *t, const char *dir, char *err, size_t errcap);

/* Whether a row's version ("sprouts V (git REV)", REV from git describe --dirty) names a build from a
 * modified tree: 1 yes, 0 no, -1 it does not say. */
int sp_table_modified(const char *version);

/* Who wrote a README: the command line, the program's version, the date; any may be NULL. */
typedef struct sp_table_origin {
    const char *command, *version, *date;
} sp_table_origin;

/* Writes DIR/README.md for both tables atomically; by (NULL: not said) is named at its top. */
int sp_table_readme(const sp_table *normal, const sp_table *misere, const sp_table_origin *by, const char *dir,
                    char *err, size_t errcap);

/* Rewrites the variants' section of DIR/README.md from DIR/variants.md (as sp_table_readme() would
 * write it, the rest unchanged), when the README is there and has its provenance section; 0, or -1
 * with a reason. */
int sp_table_readme_variants(const char *dir, char *err, size_t errcap);

/* Provenance: today's date (UTC) and the machine ("CPU MODEL, N cores"). */
void sp_table_provenance(char *date, size_t dcap, char *machine, size_t mcap);

#endif
