/* certify.h: building a certificate (cert.h) for a solved position from what the solver learned,
 * searching again only where its memory no longer holds the answer. Few facts are the aim: answers
 * that reuse facts already in the certificate are preferred.
 */
#ifndef SP_CERTIFY_H
#define SP_CERTIFY_H

#include <stdatomic.h>

#include "cert.h"
#include "solver.h"

/* Fills c (already initialised with play, root and outcome) with facts that prove its claim.
 * Returns 0, 1 when stopped (*stop set from outside, when stop is not NULL, or the solver stopped),
 * -1 when out of memory or when the solver contradicts itself (a bug: the position is named); then
 * why (cap bytes, when not NULL) says which. progress (or NULL) hears of the facts answered so far. */
int sp_certify(sp_cert *c, sp_solver *s, sp_cert_progress progress, void *arg, const atomic_bool *stop, char *why,
               size_t cap);

/* sp_certify() beside a fact base of the same play checked before (given, or NULL; verify.h,
 * sp_verify_given): a fact the base holds becomes a fact of c without its moves being answered
 * again, and answers made of such facts cost nothing. Normal play: a land with the nimber the
 * solver has. Misère play: a position beside a game of the same structure as the base's (gindex.h);
 * land facts are always answered here. */
int sp_certify_given(sp_cert *c, sp_solver *s, const sp_cert *given, sp_cert_progress progress, void *arg,
                     const atomic_bool *stop, char *why, size_t cap);

#endif
