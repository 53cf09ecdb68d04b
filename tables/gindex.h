/* gindex.h: the misère games of a certificate (cert.h) by their options, so that a game built
 * elsewhere (another certificate's, the solver's) is found there when it has the same structure.
 *
 * Contract:
 * - A game is its set of options (indices of the certificate's games, repeats allowed, in any order):
 *   two games with the same options are the same game, the first indexed standing for both.
 * - sp_gindex_find and sp_gindex_add sort opts in place.
 * - The index holds no pointer into the certificate: games appended later are added by the caller.
 */
#ifndef SP_GINDEX_H
#define SP_GINDEX_H

#include <stddef.h>
#include <stdint.h>

#include "cert.h"
#include "children.h"

typedef struct sp_gindex {
    sp_children keys; /* the sorted options, two tokens each, and an end mark */
    uint32_t *of;     /* entry e is game of[e] */
    size_t of_cap;
    sp_tok *buf;
    size_t buf_cap;
} sp_gindex;

/* An index of every game of c (none when c is NULL or in normal play); 0, or -1 when out of
 * memory (then ix is freed). */
int sp_gindex_init(sp_gindex *ix, const sp_cert *c);
void sp_gindex_free(sp_gindex *ix);

/* The game with options opts[0..n), or -1 when there is none; -2 when out of memory. */
long sp_gindex_find(sp_gindex *ix, uint32_t *opts, size_t n);

/* Indexes game g with options opts[0..n) unless a game with them is there; 0, or -1 (memory). */
int sp_gindex_add(sp_gindex *ix, uint32_t *opts, size_t n, uint32_t g);

#endif
