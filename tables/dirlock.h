/* dirlock.h: how table runs share one output directory. A run holds the lock of each play it runs
 * for as long as it runs, so that a second run of that play in the same directory is refused instead
 * of writing over the first one's rows and state; and it takes the directory's short lock around each
 * write of what both plays share (the two tables, README.md, the plots).
 *
 * Contract:
 * - A lock is flock(2) on an empty file DIR/state/NAME.lock, made if missing and never removed: the
 *   system drops the lock when its holder ends, however it ends, so no stale lock outlives a crash.
 * - flock locks belong to an open file: one process taking the same lock twice is refused too.
 */
#ifndef SP_DIRLOCK_H
#define SP_DIRLOCK_H

#include <stddef.h>

/* Takes the lock NAME of dir without waiting: a descriptor that holds it (>= 0), -2 when another
 * holds it, -1 when the file cannot be made or locked; either failure with a reason in err. */
int sp_dirlock_try(const char *dir, const char *name, char *err, size_t errcap);

/* Takes the lock NAME of dir, waiting for its holder: a descriptor, or -1 with a reason in err. */
int sp_dirlock_wait(const char *dir, const char *name, char *err, size_t errcap);

/* Gives a lock back (fd < 0: nothing to do). */
void sp_dirlock_release(int fd);

#endif
