/* file.h: files replaced atomically: the new contents go to a temporary file beside the target, are
 * flushed to disk, then renamed over it, so that a crash leaves the old file or the new one, never a part;
 * and files that only grow, by appends flushed to disk one by one. */
#ifndef SP_FILE_H
#define SP_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One replacement under way. The temporary file is "PATH.PID.tmp": one writer per path at a time. */
typedef struct sp_file_out {
    FILE *f; /* the new contents are written here */
    char path[4096];
    char tmp[4128];
} sp_file_out;

/* Creates the temporary file for path (its directory must exist); 0, or -1 with errno set (nothing is
 * created then). Write through o->f, then sp_file_commit or sp_file_abort. */
int sp_file_open(sp_file_out *o, const char *path);

/* Flushes what was written to disk, renames the temporary file over the path and flushes the directory
 * (best effort: the rename has been made by then); 0, or -1 with errno set when a write, the flush or
 * the rename failed: the temporary file is then removed and the path untouched. Closes o->f either way. */
int sp_file_commit(sp_file_out *o);

/* Gives the replacement up: closes and removes the temporary file; the path is untouched. */
void sp_file_abort(sp_file_out *o);

/* Writes len bytes at offset `at` of the existing file at path, first cutting off whatever lies beyond
 * `at` (what an append killed part way left), and flushes the file to disk before returning; 0, or -1
 * with errno set (EINVAL: the file is shorter than `at`): the file is then cut back to `at`, as far
 * as that can be done. A crash during the call leaves the first `at` bytes as they were. */
int sp_file_append(const char *path, uint64_t at, const void *data, size_t len);

/* The size in bytes of the file at path; 0 when there is none. */
uint64_t sp_file_size(const char *path);

#endif
