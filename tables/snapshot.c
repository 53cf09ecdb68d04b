/* snapshot.c: a stopped search's game table and transposition table in one local file
 * (snapshot.h): the header and stamp, the solver's stream through a running checksum. */
#include "snapshot.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <xxhash.h>

#include "clock.h"
#include "file.h"
#include "store.h"

#define MAGIC "SPROUTS-SNAPSHOT"
#define MAGIC_LEN 16
#define VERSION 2u
#define STAMP_MAX 4096

/* The stream of a file being written or read, and its running checksum. */
typedef struct stream {
    FILE *f;
    XXH3_state_t *h;
    uint64_t bytes;
} stream;

static int put(void *arg, const void *data, size_t len)
{
    stream *s = arg;
    XXH3_64bits_update(s->h, data, len);
    s->bytes += len;
    return fwrite(data, 1, len, s->f) == len ? 0 : -1;
}

static int get(void *arg, void *data, size_t len)
{
    stream *s = arg;
    if (fread(data, 1, len, s->f) != len)
        return -1;
    XXH3_64bits_update(s->h, data, len);
    s->bytes += len;
    return 0;
}

/* The caller's stamp and the hash of the program running: what the snapshot goes with. */
static int full_stamp(const char *stamp, char *out, size_t cap)
{
    FILE *f = fopen("/proc/self/exe", "rb");
    if (!f)
        return -1;
    XXH3_state_t *h = XXH3_createState();
    char buf[1 << 16];
    size_t n;
    XXH3_64bits_reset(h);
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        XXH3_64bits_update(h, buf, n);
    int rc = ferror(f) ? -1 : 0;
    fclose(f);
    unsigned long long exe = XXH3_64bits_digest(h);
    XXH3_freeState(h);
    int len = snprintf(out, cap, "%s; program %016llx", stamp, exe);
    return rc || len < 0 || (size_t)len >= cap ? -1 : 0;
}

/* The header after the magic: format, stamp, marks. */
static int put_head(stream *w, const char *full, const sp_snapshot_stamp *stamp)
{
    const uint32_t head[2] = {VERSION, (uint32_t)strlen(full)}, nmarks = stamp->nmarks;
    return put(w, MAGIC, MAGIC_LEN) || put(w, head, sizeof head) || put(w, full, head[1]) ||
           put(w, &nmarks, sizeof nmarks) || put(w, stamp->marks, nmarks * sizeof *stamp->marks);
}

int sp_snapshot_write(const char *path, sp_solver *s, const sp_snapshot_stamp *stamp, sp_snapshot_stats *st,
                      char *err, size_t errcap)
{
    assert(stamp->nmarks <= SP_SNAPSHOT_MARKS);
    double t0 = sp_clock_now();
    char full[STAMP_MAX];
    if (full_stamp(stamp->text, full, sizeof full))
        return sp_store_fail(err, errcap, "%s: cannot stamp a snapshot (the program's file unreadable)", path);
    sp_file_out o;
    if (sp_file_open(&o, path))
        return sp_store_fail(err, errcap, "%s: %s", path, strerror(errno));
    stream w = {o.f, XXH3_createState(), 0};
    XXH3_64bits_reset(w.h);
    setvbuf(o.f, NULL, _IOFBF, (size_t)1 << 20);
    int rc = put_head(&w, full, stamp) || sp_solver_snapshot_save(s, put, &w);
    uint64_t sum = XXH3_64bits_digest(w.h);
    XXH3_freeState(w.h);
    if (rc || fwrite(&sum, sizeof sum, 1, o.f) != 1) {
        sp_file_abort(&o);
        return sp_store_fail(err, errcap, "%s: cannot write the snapshot (%s)", path, strerror(errno));
    }
    if (sp_file_commit(&o))
        return sp_store_fail(err, errcap, "%s: cannot write the snapshot (%s)", path, strerror(errno));
    st->bytes = w.bytes + sizeof sum;
    st->seconds = sp_clock_now() - t0;
    st->older = false;
    return 0;
}

/* Whether the marks read may go with the stamp's (none is larger now); sets *older when one is smaller. */
static bool marks_fit(const uint64_t *was, uint32_t n, const sp_snapshot_stamp *now, bool *older)
{
    if (n != now->nmarks)
        return false;
    for (uint32_t i = 0; i < n; i++) {
        if (was[i] > now->marks[i])
            return false;
        *older = *older || was[i] < now->marks[i];
    }
    return true;
}

/* Reads the header; 0 when its stamp is `full` and its marks fit, 1 when not (err says), -1 when
 * unreadable. */
static int read_head(stream *r, const char *path, const char *full, const sp_snapshot_stamp *now, bool *older,
                     char *err, size_t errcap)
{
    char magic[MAGIC_LEN], stamp[STAMP_MAX];
    uint32_t head[2], nmarks = 0;
    uint64_t marks[SP_SNAPSHOT_MARKS];
    int rc = get(r, magic, MAGIC_LEN) || memcmp(magic, MAGIC, MAGIC_LEN) || get(r, head, sizeof head)
                 ? sp_store_fail(err, errcap, "%s: not a sprouts snapshot", path)
             : head[0] != VERSION ? (sp_store_fail(err, errcap, "%s: snapshot format %u, this program reads %u", path,
                                                   head[0], VERSION), 1)
             : head[1] >= STAMP_MAX || get(r, stamp, head[1]) || get(r, &nmarks, sizeof nmarks) ||
                     nmarks > SP_SNAPSHOT_MARKS || get(r, marks, nmarks * sizeof *marks)
                 ? sp_store_fail(err, errcap, "%s: not a sprouts snapshot", path)
                 : 0;
    if (rc)
        return rc;
    stamp[head[1]] = 0;
    if (strcmp(stamp, full))
        return sp_store_fail(err, errcap, "%s: taken by another program or with other budgets (%s), not this one (%s)",
                             path, stamp, full), 1;
    if (!marks_fit(marks, nmarks, now, older))
        return sp_store_fail(err, errcap, "%s: taken beside another state (its files were larger then, or are "
                             "others)", path), 1;
    return 0;
}

int sp_snapshot_read(const char *path, sp_solver *s, const sp_snapshot_stamp *stamp, sp_snapshot_stats *st,
                     char *err, size_t errcap)
{
    double t0 = sp_clock_now();
    char full[STAMP_MAX];
    st->older = false;
    if (full_stamp(stamp->text, full, sizeof full))
        return sp_store_fail(err, errcap, "%s: cannot stamp a snapshot (the program's file unreadable)", path), 1;
    FILE *f = fopen(path, "rb");
    if (!f)
        return sp_store_fail(err, errcap, "%s: %s", path, strerror(errno)), 1;
    setvbuf(f, NULL, _IOFBF, (size_t)1 << 20);
    stream r = {f, XXH3_createState(), 0};
    XXH3_64bits_reset(r.h);
    int rc = read_head(&r, path, full, stamp, &st->older, err, errcap);
    int loaded = rc == 0 ? sp_solver_snapshot_load(s, get, &r) : 0;
    if (rc == 0 && loaded == -2)
        rc = (sp_store_fail(err, errcap, "%s: does not fit this run's budgets (--tt-mb, --game-mb)", path), 1);
    else if (rc == 0 && loaded)
        rc = sp_store_fail(err, errcap, "%s: the snapshot is cut short or malformed", path);
    uint64_t sum = XXH3_64bits_digest(r.h), want;
    char more;
    if (rc == 0 && (fread(&want, sizeof want, 1, f) != 1 || want != sum || fread(&more, 1, 1, f) != 0))
        rc = sp_store_fail(err, errcap, "%s: the snapshot is corrupt (its checksum fails)", path);
    if (rc)
        sp_solver_snapshot_drop(s); /* what was read is not to be trusted */
    XXH3_freeState(r.h);
    fclose(f);
    st->bytes = r.bytes + sizeof sum;
    st->seconds = sp_clock_now() - t0;
    return rc;
}
