/* merge.h: fact bases: the certificates of one play joined into one, with the facts and the roots of
 * all of them (cert.h), so that the facts that the sizes share are written once.
 *
 * Contract:
 * - sp_cert_merge() adds to dst the roots of src that dst has not, and src's facts: in normal play
 *   its lands with their nimbers; in misère play its games (a game whose options are those of a game
 *   of dst is that game: games are matched by structure, options first), land facts and facts, each
 *   naming dst's games. A land fact dst has already keeps its game (the checker compares games by
 *   value, so another game of the same value is no conflict).
 * - Refused, with a one-line reason: another play; misère limits (value_lives, sum_lives,
 *   sum_birthday) that differ; a land with another nimber, or a root with another claimed outcome,
 *   than dst's (they cannot both be true). dst may then hold part of src: free it.
 * - Nothing is checked: a union of accepted certificates is accepted (every fact keeps the answers
 *   it had), but only sp_verify() says so.
 */
#ifndef SP_MERGE_H
#define SP_MERGE_H

#include <stddef.h>

#include "cert.h"

/* Makes dst (uninitialised) an empty fact base of src's play, root and misère limits, for
 * sp_cert_merge(dst, src) to fill; 0, or -1 when out of memory. */
int sp_cert_base_init(sp_cert *dst, const sp_cert *src);

/* Adds src to dst; 0, or -1 with why (cap bytes): refused as above, or out of memory. */
int sp_cert_merge(sp_cert *dst, const sp_cert *src, char *why, size_t cap);

/* Adds the roots of src (its root and further roots) that dst has not; 0, or -1 with why: a root
 * there with another claimed outcome, or out of memory. */
int sp_cert_merge_roots(sp_cert *dst, const sp_cert *src, char *why, size_t cap);

#endif
