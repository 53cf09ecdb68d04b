/* dirlock.c: the locks of an output directory (dirlock.h): flock(2) on files under DIR/state, made on
 * first use; a lock lives as long as the descriptor that took it. */
#include "dirlock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

/* Opens DIR/state/NAME.lock (made if missing): a descriptor, or -1 with a reason in err. */
static int open_lock(const char *dir, const char *name, char *path, size_t cap, char *err, size_t errcap)
{
    snprintf(path, cap, "%s/state/%s.lock", dir, name);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        snprintf(err, errcap, "%s: %s", path, strerror(errno));
    return fd;
}

static int take(const char *dir, const char *name, int how, char *err, size_t errcap)
{
    char path[4096];
    int fd = open_lock(dir, name, path, sizeof path, err, errcap);
    if (fd < 0)
        return -1;
    int rc;
    while ((rc = flock(fd, how)) != 0 && errno == EINTR)
        ; /* a signal (Ctrl-C) while waiting: the caller looks at its stop flag once it has the lock */
    if (rc == 0)
        return fd;
    int busy = errno == EWOULDBLOCK;
    snprintf(err, errcap, "%s: %s", path, busy ? "held by another process" : strerror(errno));
    close(fd);
    return busy ? -2 : -1;
}

int sp_dirlock_try(const char *dir, const char *name, char *err, size_t errcap)
{
    return take(dir, name, LOCK_EX | LOCK_NB, err, errcap);
}

int sp_dirlock_wait(const char *dir, const char *name, char *err, size_t errcap)
{
    return take(dir, name, LOCK_EX, err, errcap);
}

void sp_dirlock_release(int fd)
{
    if (fd >= 0)
        close(fd); /* closing the only descriptor of the open file drops its lock */
}
