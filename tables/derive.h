/* derive.h: the land nimbers of a set that one expansion recovers from the others: those of lands
 * every child of which is made of lands of the set. A compaction may leave them out
 * (chunks.h, `sprouts compact --drop-derivable`); the solver finds such a nimber again from the
 * nimbers kept at the cost of one expansion of the land (a few more when a land it needs was left
 * out too), where a land whose children are not all known may cost a search.
 *
 * Contract: sp_derive_drop() is an sp_chunks_filter: it marks drop[i] for each key i of `keys` (one
 * land each) whose every child's every land is a key of `keys`; a key that is not one land is kept.
 * The values are not read. Parallel on the threads of sp_derive_opts (0: all cores), the same marks
 * whatever their number.
 */
#ifndef SP_DERIVE_H
#define SP_DERIVE_H

#include <stdint.h>

#include "cert.h"
#include "children.h"

typedef struct sp_derive_opts {
    unsigned threads;
    sp_cert_progress progress; /* or NULL: lands gone through so far, at most once a second */
    void *arg;
    unsigned min_lives;        /* sp_derive_drop_small(): the fewest lives a land kept has */
    int derivable;             /* sp_derive_drop_small(): leave out the derivable ones too */
    uint64_t dropped;          /* out: how many were marked */
} sp_derive_opts;

/* arg: an sp_derive_opts. Returns 0, or -1 when out of memory. */
int sp_derive_drop(void *arg, const sp_children *keys, const uint32_t *value, uint8_t *drop);

/* An sp_chunks_filter too, for a compaction that keeps the costly lands only (a land of few lives is
 * searched again in moments): with arg an sp_derive_opts, marks the lands of fewer than min_lives
 * lives (keys of several lands are kept), then, when o->derivable, the derivable among the others as
 * sp_derive_drop() does. dropped counts both. */
int sp_derive_drop_small(void *arg, const sp_children *keys, const uint32_t *value, uint8_t *drop);

#endif
