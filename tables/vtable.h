/* vtable.h: the variants' result table (`sprouts table --rules R`): one row per rule set and n in
 * DIR/variants.csv, with provenance, and DIR/variants.md, the section of the results README that
 * reports them (written from the whole CSV, every rule set it holds).
 */
#ifndef SP_VTABLE_H
#define SP_VTABLE_H

#include <stdio.h>

#include "variants.h"

typedef struct sp_vtable_opts {
    sp_rules rules;
    unsigned from, to;     /* n spots (black-and-white) or crosses (Brussels) */
    const char *out;       /* the directory */
    size_t bytes;          /* memo budget */
    double time_limit;     /* stop before a size once this many seconds have gone (0: none) */
    const char *version, *command;
    FILE *rows;            /* one line per size as it is done (or NULL) */
} sp_vtable_opts;

/* Solves the sizes in turn with one solver (each reuses what the smaller ones stored), rewriting
 * DIR/variants.csv (the rows of other rule sets, and of sizes outside from..to, kept) and
 * DIR/variants.md after each size. Returns 0, 1 when a size ran out of room or time, or -1 on an
 * error (said in err). */
int sp_vtable_run(const sp_vtable_opts *o, char *err, size_t errcap);

#endif
