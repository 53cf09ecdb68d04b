/* snapshot.h: the whole of a search on local disk (the solver's game table and transposition
 * table: solver.h, sp_solver_snapshot_*), taken when it stops and every so often while it runs, so
 * that the run resuming it on the same machine goes on where it was instead of climbing back, even
 * after a kill (table.h, --snapshot).
 *
 * Why a file of its own, and not the state. DIR/state keeps facts (land values, proven positions),
 * small and in any clone. A search's numbers are not facts and come back only by searching again:
 * misère 0*22 spent about a third of each run rebuilding them (docs/performance.md). They fill
 * gigabytes, so the snapshot lives where the user says, never in DIR.
 *
 * Format, little-endian: the magic "SPROUTS-SNAPSHOT" (16 bytes), u32 format version, u32 length and
 * the bytes of the stamp, u32 count and the u64 marks, the solver's snapshot, u64 XXH3-64 of every
 * byte before it.
 *
 * Contract:
 * - The stamp says what the snapshot goes with: this file adds the hash of the running program
 *   (its executable), the caller what else must not have changed (the budgets). A snapshot whose
 *   stamp differs is not used: another program may key positions otherwise, and proofs in the table
 *   must name the games of its own game table.
 * - The marks are what may only have grown since (the sizes of the state files, appended to by each
 *   save): a snapshot is used while each mark now is at least the one it was written with. Facts
 *   saved after it are true beside it too; the search then goes on near where it was, not exactly
 *   (st->older says so). A smaller mark (a state rewritten, or another) and the snapshot is not used.
 * - sp_snapshot_write() writes the file whole, atomically (a temporary file, flushed, renamed). It
 *   may be called while the solver searches, from its progress callback (sp_solver_snapshot_save).
 * - sp_snapshot_read() loads it into a fresh solver (sp_solver_snapshot_load): 0 when loaded; 1
 *   when not used (missing, another stamp or marks, or it does not fit the solver), the reason in
 *   err; -1 when it is unreadable or corrupt (a checksum that fails after loading empties the table
 *   again), the reason in err. Only 0 leaves anything in the table.
 */
#ifndef SP_SNAPSHOT_H
#define SP_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "solver.h"

#define SP_SNAPSHOT_MARKS 8 /* at most */

typedef struct sp_snapshot_stamp {
    const char *text;                   /* must be the same */
    uint64_t marks[SP_SNAPSHOT_MARKS];  /* may only have grown */
    unsigned nmarks;
} sp_snapshot_stamp;

typedef struct sp_snapshot_stats {
    uint64_t bytes;  /* the file's size */
    double seconds;  /* to write or read it */
    bool older;      /* read: some mark has grown since it was written */
} sp_snapshot_stats;

int sp_snapshot_write(const char *path, sp_solver *s, const sp_snapshot_stamp *stamp, sp_snapshot_stats *st,
                      char *err, size_t errcap);
int sp_snapshot_read(const char *path, sp_solver *s, const sp_snapshot_stamp *stamp, sp_snapshot_stats *st,
                     char *err, size_t errcap);

#endif
