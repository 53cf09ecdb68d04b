/* certify.h: building a certificate (cert.h) for a solved position from what the solver learned,
 * searching again only where its memory no longer holds the answer. Few facts are the aim: answers
 * that reuse facts already in the certificate are preferred.
 */
#ifndef SP_CERTIFY_H
#define SP_CERTIFY_H

#include <stdatomic.h>
#include <stdbool.h>

#include "cert.h"
#include "solver.h"

/* Who watches a build (every field may be zero; a NULL watch is none): progress hears of the facts
 * done so far (normal play: settled; misère play: answered); once *stop is set the build ends early.
 * keep is called when keep_seconds have passed since the last call (0: before every fact), and once
 * more when the build stops or fails (not when it ends well: c is then whole), so that hours of
 * building survive a stop:
 * - Normal play: keep is handed the certificate and, per fact, whether it is settled (1; other
 *   values: not yet): answered, and every fact its answers name settled too, or held by the given
 *   base. The settled facts prove themselves beside the base, whatever else c holds, so a build that
 *   stops loses none of them when keep joins them to the base (after checking them).
 * - Misère play: keep is handed c as it stands (settled is NULL), only ever grown by appends since
 *   the last call; it is also called between the answers of one fact (each may be a long search). A build given c again (saved and loaded; see sp_certify_given) answers the facts
 *   whose answers c holds without search. */
typedef void (*sp_certify_keep)(void *arg, const sp_cert *c, const uint8_t *settled);
/* Misère play: a fact's moves are answered one after another, and one answer may be a search of an
 * hour; answered hears how many of the fact's `of` moves are answered (0 of n as it begins; 0 of 0
 * once it is done). */
typedef void (*sp_certify_answered)(void *arg, size_t done, size_t of);
typedef struct sp_certify_watch {
    sp_cert_progress progress;
    sp_certify_keep keep;
    void *arg;
    const atomic_bool *stop;
    double keep_seconds;
    sp_certify_answered answered;
} sp_certify_watch;

/* Fills c (already initialised with play, root and outcome) with facts that prove its claim. In
 * misère play c may also hold what keep was handed by a build of the same claim that stopped (the
 * solver's misère lives must be the same: -1 otherwise); its games become the solver's, and its
 * facts are answered again, from c itself where they were answered before.
 * Returns 0, 1 when stopped (*stop set, or the solver stopped), 2 when a misère store of the solver
 * is full (what keep was handed goes on in a solver with empty stores), -1 when out of memory or
 * when the solver contradicts itself (a bug: the position is named); then why (cap bytes, when not
 * NULL) says which. */
int sp_certify(sp_cert *c, sp_solver *s, const sp_certify_watch *watch, char *why, size_t cap);

/* Whether misère certificate c sums the lands solver s sums (the same misère lives): a kept build
 * of c can go on in s only then. */
bool sp_certify_sums_alike(const sp_cert *c, sp_solver *s);

/* sp_certify() beside a fact base of the same play checked before (given, or NULL; verify.h,
 * sp_verify_given): a fact the base holds becomes a fact of c without its moves being answered
 * again, and answers made of such facts cost nothing. Normal play: a land with the nimber the
 * solver has. Misère play: a position beside a game of the same structure as the base's (gindex.h);
 * land facts are always answered here. The base may grow during the build (keep joining settled
 * facts to it). */
int sp_certify_given(sp_cert *c, sp_solver *s, const sp_cert *given, const sp_certify_watch *watch, char *why,
                     size_t cap);

#endif
