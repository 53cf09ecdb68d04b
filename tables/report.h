/* report.h: the result tables: one CSV per play (a row per n, with provenance) and a README.md for
 * people with the verdict on the mod-6 pattern; reading the CSV back for --resume.
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
    char verified[12];     /* "yes", "no" or "" */
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
 * when the file is not one this program wrote. */
int sp_table_load(sp_table *t, const char *dir, char *err, size_t errcap);

/* Writes the CSV atomically. */
int sp_table_save(const sp_table *t, const char *dir, char *err, size_t errcap);

/* Writes DIR/README.md for both tables atomically. */
int sp_table_readme(const sp_table *normal, const sp_table *misere, const char *dir, char *err, size_t errcap);

/* Provenance: today's date (UTC) and the machine ("CPU MODEL, N cores"). */
void sp_table_provenance(char *date, size_t dcap, char *machine, size_t mcap);

#endif
