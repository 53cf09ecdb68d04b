/* file.h: files replaced atomically: the new contents go to a temporary file beside the target, are
 * flushed to disk, then renamed over it, so that a crash leaves the old file or the new one, never a part. */
#ifndef SP_FILE_H
#define SP_FILE_H

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

#endif
