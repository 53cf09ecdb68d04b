/* testpos.h: what the solver and tables suites share about positions: a position string's canonical
 * key, checked as it is parsed; made-up land keys by number; the SPOTS reference nimbers. */
#ifndef SP_TESTPOS_H
#define SP_TESTPOS_H

#include <stddef.h>
#include <stdint.h>

#include "canonical.h"

/* The canonical key of a position string (simplified first); fails the running test when the
 * string does not parse. */
size_t sp_test_key(sp_canon_ctx *ctx, const char *text, sp_tok *key);

/* A made-up land key per i < 2^20 (a store only asks that a key ends its land with SP_TK_END_L),
 * which no game reaches; its length (5). */
size_t sp_test_numbered_land(uint32_t i, sp_tok key[5]);

/* The i of a key so made, or UINT32_MAX for another key. */
uint32_t sp_test_land_number(const sp_tok *key, size_t len);

/* Calls fn on each of the 60 positions of tests/data/spots-nimbers.tsv (SPOTS, Cizek, Balko and
 * Schmid 2025: nimbers of positions from random games of 0*3..0*10) with its key and nimber; fn
 * asserts what it checks. Returns how many there were. */
int sp_test_spots_nimbers(sp_canon_ctx *ctx, void (*fn)(void *arg, const char *pos, const sp_tok *key, size_t len,
                                                        int nimber),
                          void *arg);

#endif
