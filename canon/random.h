/* random.h: random play, for tests, benchmarks and the random subcommand: a uniformly random child of
 * a position, and games of random moves from 0*n.
 *
 * Contract: the same seed gives the same moves on every platform (rng.h); the children drawn from are
 * those of sp_expand_pos(), without a cache.
 */
#ifndef SP_RANDOM_H
#define SP_RANDOM_H

#include <stddef.h>
#include <stdint.h>

#include "canonical.h"
#include "children.h"

/* Replaces key (of room SP_KEY_MAX) by a uniformly random distinct child, using scratch for the
 * children; returns the new length, or -1 when no move is left (or out of memory). */
long sp_random_move(sp_canon_ctx *ctx, sp_tok *key, size_t len, uint64_t *rng, sp_children *scratch);

/* Plays up to `moves` random moves from 0*n; returns the length of the key reached. */
size_t sp_random_game(sp_canon_ctx *ctx, unsigned n, unsigned moves, uint64_t *rng, sp_tok *key);

#endif
