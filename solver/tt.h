/* tt.h: the transposition table shared by all search threads: proof and disproof numbers of
 * nodes, keyed by a 128-bit hash, in a fixed amount of memory.
 *
 * Contract:
 * - Fixed budget, set at creation (rounded down to a power of two of 64-byte buckets of 3 entries,
 *   at least two). Buckets go in pairs (2i, 2i + 1), and an entry may live in two pairs: its home
 *   pair, chosen by h[0], and a second one, chosen by h[0] and h[1]; a new entry goes to the emptier.
 *   The table starts on a part of its budget (1/256, at least 16 MiB) and doubles that part whenever
 *   a new entry finds both its pairs full, keeping every entry: a small search touches little memory
 *   (the part in use doubles when it is well over half full), and an entry is replaced only once the
 *   whole budget is in use, so that the table holds what one of the whole budget from the start would.
 * - A hit needs the full 64 bits of h[1] to match and a pair chosen by h[0]: a false hit needs two
 *   different keys to agree on 64 + log2(pairs) hash bits; at 2^40 probes into a table of 2^17
 *   pairs (its least first part), 12 entries each, the chance of any false hit in a run is about
 *   2^40 * 12 / 2^(64+17) ~ 6e-12 (XXH3-128 as the hash).
 * - Replacement keeps expensive entries: a new entry replaces the cheapest of its two pairs (least
 *   work), proven entries counting as more expensive than any unproven one of equal work. Work
 *   saturates at 2^23 - 1.
 * - Safe to share between threads: each bucket has a sequence lock (probes never write to it); a
 *   doubling keeps the entries other threads store meanwhile (a probe meanwhile may miss one).
 */
#ifndef SP_TT_H
#define SP_TT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SP_PN_INF 0x3fffffffu /* a proof or disproof number of "impossible" */

typedef struct sp_tt sp_tt;

typedef struct sp_tt_entry {
    uint32_t pn, dn; /* pn == 0: the player to move wins; dn == 0: loses */
    uint32_t work;   /* search effort spent below the node (saturating at 2^23 - 1) */
} sp_tt_entry;

/* A table of at most `bytes` bytes (at least two buckets); NULL when memory is short. */
sp_tt *sp_tt_new(size_t bytes);
void sp_tt_free(sp_tt *tt);

bool sp_tt_probe(sp_tt *tt, const uint64_t h[2], sp_tt_entry *out);
void sp_tt_store(sp_tt *tt, const uint64_t h[2], const sp_tt_entry *e);

/* Starts fetching h's bucket into the cache, so that a probe of many keys overlaps their misses. */
void sp_tt_prefetch(const sp_tt *tt, const uint64_t h[2]);

/* Doubles the part of the budget in use now, if there is more (normally done by the stores). */
void sp_tt_grow(sp_tt *tt);

/* For a thread with nothing else to do: while a doubling runs, makes the memory it moves entries
 * into present ahead of it, from the top of the new part down, so that the doubling (one thread's
 * work) does not stop at each first touch of a page; returns at once when none runs. Changes no
 * entry. */
void sp_tt_help_grow(sp_tt *tt);

/* Snapshots (solver.h, sp_solver_snapshot_*): the geometry and the part in use, bucket by bucket as
 * they lie, through put; read back through get into a table of the same budget that holds nothing
 * yet, while no other thread uses either. A callback returns 0, or non-zero to give up. Save: 0, or
 * -1 when put gave up. Load: 0; -1 when get gave up (the table is then cleared); -2 when the
 * snapshot is of another budget or the table is not fresh (nothing read past the geometry). Clear
 * empties the table, and it starts on its first part again. */
typedef int (*sp_tt_put)(void *arg, const void *data, size_t len);
typedef int (*sp_tt_get)(void *arg, void *data, size_t len);
int sp_tt_save(const sp_tt *tt, sp_tt_put put, void *arg);
int sp_tt_load(sp_tt *tt, sp_tt_get get, void *arg);
void sp_tt_clear(sp_tt *tt);

size_t sp_tt_bytes(const sp_tt *tt);
size_t sp_tt_used_bytes(const sp_tt *tt); /* the part in use now */
uint64_t sp_tt_capacity(const sp_tt *tt); /* entries */
uint64_t sp_tt_filled(const sp_tt *tt);   /* entries in use (approximate under concurrency) */

#endif
