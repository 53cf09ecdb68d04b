/* testpos.h: what the solver suites share about positions: a position string's canonical key,
 * checked as it is parsed. */
#ifndef SP_TESTPOS_H
#define SP_TESTPOS_H

#include <stddef.h>

#include "canonical.h"

/* The canonical key of a position string (simplified first); fails the running test when the
 * string does not parse. */
size_t sp_test_key(sp_canon_ctx *ctx, const char *text, sp_tok *key);

#endif
