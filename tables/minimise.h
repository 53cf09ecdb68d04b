/* minimise.h: smaller certificates from larger ones. A certificate (or several, of the same play) is
 * a database of proven facts; the minimiser chooses among them a smaller set that still proves the
 * root, and has the checker (verify.h) accept it before handing it out.
 *
 * Contract (normal play only: a misère certificate is refused):
 * - The facts of the result are facts of the databases, with the same nimbers; the root and its claim
 *   are those of the first database, and its further roots (joint: those of every database). The result is always checked by sp_verify(); one that the
 *   checker rejects is never returned (the call fails with the checker's reason).
 * - The same databases, rounds and seed give the same result, fact for fact.
 * - Any database may be a nimber store read by sp_minimise_load_nimbers(): it need not be trusted.
 * - Method: every question a fact asks (a move of L + *g) and the answers the databases offer for it
 *   (the facts an answer's lands need) make a graph; a greedy pass from the root picks, for each
 *   question not answered yet, the answer that adds the fewest facts (GLOP's check run: known losses
 *   first), larger lands before smaller ones so that a land's questions are asked once all facts
 *   that could reuse its answers are known; rounds with random tie-breaks keep the smallest; then
 *   each fact is removed in turn when every fact that needs it has another answer and the root still
 *   follows, and what the root no longer reaches is dropped.
 */
#ifndef SP_MINIMISE_H
#define SP_MINIMISE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "cert.h"

typedef struct sp_minimise_opts {
    unsigned rounds;        /* greedy rounds with random tie-breaks after the first (deterministic) one */
    uint64_t seed;          /* of those tie-breaks */
    unsigned threads;       /* of the final check (0: all cores) */
    int lazy;               /* list a fact's questions only when a round chooses it (for large
                               databases, a nimber store: listing all they reach first is slow) */
    int joint;              /* prove every database's roots too, from one set of facts (a fact base
                               of several sizes: cert.h, further roots) */
    unsigned root;          /* not 0: prove db[0]'s root 0*root (its root or a further root: one
                               size of a fact base) alone, instead of db[0]'s roots */
    sp_cert_progress progress; /* or NULL: facts explored so far, at most once a second */
    void *arg;
    const atomic_bool *stop; /* or NULL: set from outside, the call ends early (returns 1) */
} sp_minimise_opts;

typedef struct sp_minimise_stats {
    size_t before;          /* facts of the first database (joint: of all of them, distinct) */
    size_t explored;        /* facts whose questions were listed */
    size_t greedy;          /* facts after the best greedy round */
    size_t after;           /* facts of the result */
    uint64_t positions;     /* positions generated while listing the questions */
    double seconds;         /* the whole call, the final check included */
} sp_minimise_stats;

/* Fills out (uninitialised) with a certificate of db[0]'s root and claim (o->root: of its root 0*root)
 * whose facts are taken from db[0 .. ndb). Returns 0; 1 when stopped; -1 when out of memory, when a database is of the wrong
 * play or of another root's play, when its facts do not prove the root, or when the checker rejects
 * the result; then why (errcap bytes) says which. out is initialised only when 0 is returned. */
int sp_minimise(const sp_cert *const *db, size_t ndb, const sp_minimise_opts *o, sp_cert *out,
                sp_minimise_stats *st, char *why, size_t errcap);

/* Reads a nimber store (store.h: land key -> nimber) into c (uninitialised) as a database of facts:
 * the lands of at most max_lives lives. Returns 0, or -1 with a reason. */
int sp_minimise_load_nimbers(sp_cert *c, const char *path, unsigned max_lives, char *err, size_t errcap);

#endif
