/* file.c: atomic file replacement (file.h): write to a temporary file, fsync, rename, fsync the
 * directory so that the rename itself survives a crash; appends: cut, write, fsync. */
#include "file.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int sp_file_open(sp_file_out *o, const char *path)
{
    assert(o && path);
    o->f = NULL;
    if (snprintf(o->path, sizeof o->path, "%s", path) >= (int)sizeof o->path ||
        snprintf(o->tmp, sizeof o->tmp, "%s.%ld.tmp", path, (long)getpid()) >= (int)sizeof o->tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    o->f = fopen(o->tmp, "wb");
    return o->f ? 0 : -1;
}

/* The directory entry of the rename reaches the disk only when the directory itself is flushed. */
static void sync_dir(const sp_file_out *o)
{
    char dir[sizeof o->path];
    snprintf(dir, sizeof dir, "%s", o->path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        slash[slash == dir] = '\0'; /* "/name" lies in "/" */
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

int sp_file_commit(sp_file_out *o)
{
    assert(o && o->f);
    errno = 0;
    int bad = fflush(o->f) || ferror(o->f) || fsync(fileno(o->f));
    int e = errno ? errno : EIO; /* ferror leaves errno as the failed write set it, or not at all */
    if (fclose(o->f) && !bad)
        bad = 1, e = errno;
    o->f = NULL;
    if (!bad && rename(o->tmp, o->path))
        bad = 1, e = errno;
    if (bad) {
        unlink(o->tmp);
        errno = e;
        return -1;
    }
    sync_dir(o);
    return 0;
}

void sp_file_abort(sp_file_out *o)
{
    assert(o);
    if (o->f)
        fclose(o->f);
    o->f = NULL;
    unlink(o->tmp);
}

/* Writes all of data at `at`; false with errno set when the disk refuses some of it. */
static bool write_at(int fd, uint64_t at, const uint8_t *data, size_t len)
{
    while (len) {
        ssize_t n = pwrite(fd, data, len, (off_t)at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = ENOSPC;
            return false;
        }
        data += n, at += (uint64_t)n, len -= (size_t)n;
    }
    return true;
}

int sp_file_append(const char *path, uint64_t at, const void *data, size_t len)
{
    assert(path && (data || len == 0));
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    bool ok = fstat(fd, &st) == 0;
    if (ok && (uint64_t)st.st_size < at)
        ok = false, errno = EINVAL;
    bool cut_back = ok; /* from here on, a failure leaves the file ending at `at` */
    if (ok && (uint64_t)st.st_size > at)
        ok = ftruncate(fd, (off_t)at) == 0;
    ok = ok && write_at(fd, at, data, len) && fsync(fd) == 0;
    int e = errno;
    if (!ok && cut_back && ftruncate(fd, (off_t)at) == 0)
        (void)fsync(fd);
    close(fd);
    errno = e;
    return ok ? 0 : -1;
}

uint64_t sp_file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) ? 0 : (uint64_t)st.st_size;
}
