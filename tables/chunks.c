/* chunks.c: chunk files (chunks.h): headers and their checksums, the walk through the chunks (and the
 * segment files) that tells a torn last chunk from corruption in the middle, appends as new segments,
 * rewrites and compaction. */
#include "chunks.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include "children.h"
#include "file.h"
#include "grow.h"
#include "tune.h"

enum { FILE_HEAD = 16, CHUNK_HEAD = 64, HEAD_HASHED = CHUNK_HEAD - 8 };

static const char file_magic[8] = {'S', 'P', 'C', 'H', 'U', 'N', 'K', 'S'};
static const char chunk_magic[8] = {'S', 'P', 'c', 'h', 'u', 'n', 'k', '\n'};

typedef struct chunk_head {
    uint32_t version, kind;
    uint64_t count, raw_len, comp_len, comp_hash, raw_hash;
} chunk_head;

typedef unsigned long long ull; /* for printing */

static const char *kind_name(uint32_t k)
{
    return k == SP_CHUNKS_NIMBERS       ? "land nimbers"
           : k == SP_CHUNKS_PROVEN     ? "misere proven positions"
           : k == SP_CHUNKS_LAND_GAMES ? "misere land games"
           : k == SP_CHUNKS_CERT       ? "certificate facts"
           : k == SP_CHUNKS_LOST       ? "misere positions lost beside a game"
                                       : "unknown kind";
}

/* ---------------------------------------------------------------- writing */

static void file_head(sp_buf *b, sp_chunks_kind kind)
{
    sp_buf_put(b, file_magic, sizeof file_magic);
    sp_buf_u32(b, SP_CHUNKS_VERSION);
    sp_buf_u32(b, (uint32_t)kind);
}

/* Appends a chunk of the payload to b: its header, then the payload compressed. */
static int chunk_bytes(sp_buf *b, sp_chunks_kind kind, const void *payload, size_t len, uint64_t count, int level,
                       const char *path, char *err, size_t cap)
{
    if (!payload)
        payload = "";
    size_t bound = ZSTD_compressBound(len);
    uint8_t *comp = malloc(bound ? bound : 1);
    size_t clen = comp ? sp_store_compress(comp, bound, payload, len, level) : 0;
    if (comp && ZSTD_isError(clen)) {
        free(comp);
        return sp_store_fail(err, cap, "%s: zstd: %s", path, ZSTD_getErrorName(clen));
    }
    size_t at = b->len;
    sp_buf_put(b, chunk_magic, sizeof chunk_magic);
    sp_buf_u32(b, SP_CHUNKS_VERSION);
    sp_buf_u32(b, (uint32_t)kind);
    sp_buf_u64(b, count);
    sp_buf_u64(b, len);
    sp_buf_u64(b, clen);
    sp_buf_u64(b, comp ? XXH64(comp, clen, 0) : 0);
    sp_buf_u64(b, XXH64(payload, len, 0));
    if (!b->failed)
        sp_buf_u64(b, XXH64(b->data + at, HEAD_HASHED, 0));
    if (comp)
        sp_buf_put(b, comp, clen);
    free(comp);
    if (!comp || b->failed)
        return sp_store_fail(err, cap, "%s: out of memory", path);
    return 0;
}

/* Segment i of the chunk file at path: path itself for 0, else path.i. */
static const char *segment(const char *path, unsigned i, char *buf, size_t cap)
{
    if (i == 0)
        return path;
    snprintf(buf, cap, "%s.%u", path, i);
    return buf;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* How many files the chunk file at path has: itself and the segments path.1, path.2, ... that follow
 * without a gap (0 when path is missing). */
static unsigned segments(const char *path)
{
    char buf[4096];
    unsigned n = 0;
    while (exists(segment(path, n, buf, sizeof buf)))
        n++;
    return n;
}

/* Writes a file of one chunk to path, atomically. */
static int write_one(const char *path, sp_chunks_kind kind, const void *payload, size_t len, uint64_t count,
                     int level, char *err, size_t errcap)
{
    sp_buf b = {0};
    file_head(&b, kind);
    int rc = chunk_bytes(&b, kind, payload, len, count, level, path, err, errcap);
    if (rc == 0)
        rc = sp_store_write_text(path, (const char *)b.data, b.len, err, errcap);
    sp_buf_free(&b);
    return rc;
}

/* Removes the files of the chunk file at path from file `from` on (0: path itself), the last first:
 * a stop midway leaves a chain that ends where it should. */
static int remove_from(const char *path, unsigned from, char *err, size_t errcap)
{
    char buf[4096];
    for (unsigned i = segments(path); i-- > from;)
        if (unlink(segment(path, i, buf, sizeof buf)) && errno != ENOENT)
            return sp_store_fail(err, errcap, "%s: %s", buf, strerror(errno));
    return 0;
}

int sp_chunks_write(const char *path, sp_chunks_kind kind, const void *payload, size_t len, uint64_t count,
                    char *err, size_t errcap)
{
    int rc = write_one(path, kind, payload, len, count, SP_TUNE_PACK_LEVEL, err, errcap);
    return rc ? rc : remove_from(path, 1, err, errcap);
}

int sp_chunks_remove(const char *path, char *err, size_t errcap)
{
    return remove_from(path, 0, err, errcap);
}

uint64_t sp_chunks_size(const char *path)
{
    char buf[4096];
    uint64_t n = 0;
    for (unsigned i = 0, k = segments(path); i < k; i++)
        n += sp_file_size(segment(path, i, buf, sizeof buf));
    return n;
}

/* ---------------------------------------------------------------- the walk through a file */

/* The chunk header at p (CHUNK_HEAD bytes); false when its magic or its checksum is wrong. */
static bool parse_head(const uint8_t *p, chunk_head *h)
{
    sp_reader r = {p, CHUNK_HEAD, 0, 0};
    if (memcmp(sp_read_bytes(&r, sizeof chunk_magic), chunk_magic, sizeof chunk_magic))
        return false;
    h->version = sp_read_u32(&r);
    h->kind = sp_read_u32(&r);
    h->count = sp_read_u64(&r);
    h->raw_len = sp_read_u64(&r);
    h->comp_len = sp_read_u64(&r);
    h->comp_hash = sp_read_u64(&r);
    h->raw_hash = sp_read_u64(&r);
    return sp_read_u64(&r) == XXH64(p, HEAD_HASHED, 0);
}

typedef struct walk walk;

/* What is done with each chunk whose checksums are right (NULL: nothing): 0, -1 with a reason in
 * w->err, or a positive value that ends the walk. */
typedef int (*visit_fn)(walk *w, const chunk_head *h, const void *raw);

struct walk {
    const char *path;  /* the file at hand: the chunk file or one of its segments */
    FILE *f;
    uint64_t size;
    uint64_t at;       /* where the next chunk of this file starts */
    visit_fn visit;
    void *arg;
    uint8_t *comp, *raw;
    size_t comp_cap, raw_cap;
    sp_chunks_info *info;
    char *err;
    size_t errcap;
    char last[4096];   /* the name of the file at hand, when a segment */
};

/* Leaves out what lies after the good chunks: the last one, which an append did not finish. */
static int torn(walk *w, const char *what)
{
    sp_chunks_info *in = w->info;
    in->torn = w->size - w->at;
    snprintf(in->warning, sizeof in->warning,
             "%s: chunk %llu, the last (bytes %llu to %llu), %s: left out (the next append cuts it off)", w->path,
             (ull)in->chunks + 1, (ull)w->at, (ull)w->size, what);
    return 0;
}

static int corrupt(walk *w, const char *what)
{
    return sp_store_fail(w->err, w->errcap, "%s: chunk %llu (at byte %llu) %s, and more follows: the file is corrupt",
                         w->path, (ull)w->info->chunks + 1, (ull)w->at, what);
}

/* Whether a chunk header that checks lies anywhere from byte `from` on: what tells a chunk whose own
 * header is corrupt from a last one torn in its header. A file too large to look through in memory
 * counts as having one (refused rather than cut). */
static bool header_after(walk *w, uint64_t from)
{
    size_t n = (size_t)(w->size - from);
    uint8_t *rest = malloc(n ? n : 1);
    bool found = !rest || fseeko(w->f, (off_t)from, SEEK_SET) || fread(rest, 1, n, w->f) != n;
    for (const uint8_t *p = rest; !found && p + CHUNK_HEAD <= rest + n; p++) {
        chunk_head h;
        p = memmem(p, (size_t)(rest + n - p), chunk_magic, sizeof chunk_magic);
        if (!p)
            break;
        found = p + CHUNK_HEAD <= rest + n && parse_head(p, &h);
    }
    free(rest);
    return found;
}

static int read_error(walk *w)
{
    return sp_store_fail(w->err, w->errcap, "%s: cannot read: %s", w->path, strerror(errno));
}

/* Reads and checks the payload of the chunk at info->end, then visits it. */
static int take_chunk(walk *w, const chunk_head *h)
{
    sp_chunks_info *in = w->info;
    if (h->version != SP_CHUNKS_VERSION)
        return sp_store_fail(w->err, w->errcap, "%s: chunk %llu is in format version %u, this program reads version %u",
                             w->path, (ull)in->chunks + 1, h->version, SP_CHUNKS_VERSION);
    if (h->kind != (uint32_t)in->kind)
        return sp_store_fail(w->err, w->errcap, "%s: chunk %llu holds %s, in a file of %s", w->path,
                             (ull)in->chunks + 1, kind_name(h->kind), kind_name(in->kind));
    if (h->comp_len > w->size - w->at - CHUNK_HEAD)
        return torn(w, "is cut short");
    if (sp_grow((void **)&w->comp, &w->comp_cap, h->comp_len ? h->comp_len : 1, 1))
        return sp_store_fail(w->err, w->errcap, "%s: out of memory", w->path);
    if (fread(w->comp, 1, h->comp_len, w->f) != h->comp_len)
        return read_error(w);
    if (XXH64(w->comp, h->comp_len, 0) != h->comp_hash)
        return w->at + CHUNK_HEAD + h->comp_len == w->size ? torn(w, "fails its checksum")
                                                               : corrupt(w, "fails its checksum");
    if (!w->visit)
        return 0;
    if (h->raw_len > SIZE_MAX / 2 || sp_grow((void **)&w->raw, &w->raw_cap, h->raw_len ? h->raw_len : 1, 1))
        return sp_store_fail(w->err, w->errcap, "%s: out of memory", w->path);
    size_t got = ZSTD_decompress(w->raw, h->raw_len, w->comp, h->comp_len);
    if (ZSTD_isError(got) || got != h->raw_len || XXH64(w->raw, h->raw_len, 0) != h->raw_hash)
        return sp_store_fail(w->err, w->errcap, "%s: chunk %llu does not decompress to what was written", w->path,
                             (ull)in->chunks + 1);
    return w->visit(w, h, w->raw);
}

static int walk_chunks(walk *w)
{
    sp_chunks_info *in = w->info;
    while (w->at < w->size) {
        uint8_t head[CHUNK_HEAD];
        chunk_head h;
        if (w->size - w->at < CHUNK_HEAD)
            return torn(w, "is cut short in its header");
        if (fseeko(w->f, (off_t)w->at, SEEK_SET) || fread(head, 1, CHUNK_HEAD, w->f) != CHUNK_HEAD)
            return read_error(w);
        if (!parse_head(head, &h))
            return header_after(w, w->at + 1) ? corrupt(w, "has a header that does not check")
                                              : torn(w, "has a header that does not check");
        int rc = take_chunk(w, &h);
        if (rc || in->torn)
            return rc;
        in->chunks++;
        in->entries += h.count;
        w->at += CHUNK_HEAD + h.comp_len;
        in->end += CHUNK_HEAD + h.comp_len;
    }
    return 0;
}

/* Opens path, one file of the chunk file, and checks its file header (kind 0: any kind, else the
 * kind info holds once the first file is read), then walks through its chunks. */
static int walk_file(walk *w, const char *path, sp_chunks_kind kind)
{
    sp_chunks_info *info = w->info;
    char *err = w->err;
    size_t errcap = w->errcap;
    w->path = path;
    w->at = FILE_HEAD;
    w->f = fopen(path, "rb");
    if (!w->f)
        return sp_store_fail(err, errcap, "%s: %s", path, strerror(errno));
    struct stat st;
    uint8_t head[FILE_HEAD];
    int rc = fstat(fileno(w->f), &st) ? read_error(w) : 0;
    w->size = rc ? 0 : (uint64_t)st.st_size;
    if (rc == 0 && (w->size < FILE_HEAD || fread(head, 1, FILE_HEAD, w->f) != FILE_HEAD ||
                    memcmp(head, file_magic, sizeof file_magic)))
        rc = sp_store_fail(err, errcap, "%s: not a sprouts chunk file", path);
    sp_reader r = {head + sizeof file_magic, FILE_HEAD - sizeof file_magic, 0, 0};
    uint32_t version = rc ? 0 : sp_read_u32(&r), file_kind = rc ? 0 : sp_read_u32(&r);
    if (rc == 0 && version != SP_CHUNKS_VERSION)
        rc = sp_store_fail(err, errcap, "%s: chunk file format version %u, this program reads version %u", path,
                           version, SP_CHUNKS_VERSION);
    if (rc == 0 && (file_kind != (uint32_t)kind && kind != 0))
        rc = sp_store_fail(err, errcap, "%s: a file of %s, expected one of %s", path, kind_name(file_kind),
                           kind_name(kind));
    if (rc == 0 && file_kind != SP_CHUNKS_NIMBERS && file_kind != SP_CHUNKS_PROVEN && file_kind != SP_CHUNKS_LAND_GAMES &&
        file_kind != SP_CHUNKS_CERT && file_kind != SP_CHUNKS_LOST)
        rc = sp_store_fail(err, errcap, "%s: a chunk file of unknown kind %u", path, file_kind);
    info->kind = (sp_chunks_kind)file_kind;
    info->end += FILE_HEAD;
    if (rc == 0)
        rc = walk_chunks(w);
    fclose(w->f);
    return rc;
}

/* Walks through the chunk file at path and its segments in order. A segment is written whole, so a
 * torn chunk may only end the last file; elsewhere it is corruption. w->path and w->at are left at
 * the last file and the end of its good chunks. */
static int run_walk(walk *w, const char *path, sp_chunks_kind kind, sp_chunks_info *info, char *err, size_t errcap)
{
    memset(info, 0, sizeof *info);
    w->info = info, w->err = err, w->errcap = errcap;
    unsigned n = segments(path);
    char buf[4096];
    int rc = n ? 0 : sp_store_fail(err, errcap, "%s: %s", path, strerror(ENOENT));
    for (unsigned i = 0; rc == 0 && i < n; i++) {
        rc = walk_file(w, segment(path, i, w->last, sizeof w->last), i ? info->kind : kind);
        if (rc == 0 && info->torn && i + 1 < n)
            rc = sp_store_fail(err, errcap, "%s: a torn chunk, and %s follows: the file is corrupt", w->path,
                               segment(path, i + 1, buf, sizeof buf));
    }
    info->segments = n;
    free(w->comp);
    free(w->raw);
    w->comp = w->raw = NULL;
    return rc;
}

/* ---------------------------------------------------------------- key lists */

/* The entries of one chunk, handed on to the reader's fn. */
typedef struct entries {
    sp_keylist_fn fn;
    void *arg;
    sp_tok prev[SP_KEY_MAX];
    size_t prev_len;
    uint64_t n;
    bool unsorted;
} entries;

static int each_entry(void *arg, const sp_tok *key, size_t len, uint32_t value)
{
    entries *e = arg;
    if (e->n && sp_key_cmp(e->prev, e->prev_len, key, len) >= 0)
        return e->unsorted = true, 1;
    memcpy(e->prev, key, len * sizeof *key);
    e->prev_len = len;
    e->n++;
    return e->fn(e->arg, key, len, value);
}

static int visit_entries(walk *w, const chunk_head *h, const void *raw)
{
    entries *e = w->arg;
    if (w->info->kind == SP_CHUNKS_LAND_GAMES || w->info->kind == SP_CHUNKS_CERT)
        return sp_store_fail(w->err, w->errcap, "%s: %s are not a key list", w->path, kind_name(w->info->kind));
    e->n = 0;
    e->unsorted = false;
    int rc = sp_keylist_each(raw, h->raw_len, true, each_entry, e);
    const char *bad = rc < 0 ? "is malformed" : e->unsorted ? "has keys out of order" : NULL;
    if (!bad && rc == 0 && e->n != h->count)
        bad = "holds another number of entries than its header says";
    if (bad)
        return sp_store_fail(w->err, w->errcap, "%s: chunk %llu %s", w->path, (ull)w->info->chunks + 1, bad);
    return rc;
}

int sp_chunks_read(const char *path, sp_chunks_kind kind, sp_keylist_fn fn, void *arg, sp_chunks_info *info,
                   char *err, size_t errcap)
{
    entries *e = calloc(1, sizeof *e);
    if (!e)
        return sp_store_fail(err, errcap, "%s: out of memory", path);
    e->fn = fn;
    e->arg = arg;
    walk w = {.visit = visit_entries, .arg = e};
    int rc = run_walk(&w, path, kind, info, err, errcap);
    free(e);
    return rc;
}

/* ---------------------------------------------------------------- payloads of their own */

typedef struct payloads {
    sp_chunks_payload_fn fn;
    void *arg;
} payloads;

static int visit_payload(walk *w, const chunk_head *h, const void *raw)
{
    payloads *p = w->arg;
    int rc = p->fn(p->arg, raw, h->raw_len, h->count);
    if (rc < 0)
        return sp_store_fail(w->err, w->errcap, "%s: chunk %llu is malformed", w->path, (ull)w->info->chunks + 1);
    return rc;
}

int sp_chunks_read_payloads(const char *path, sp_chunks_kind kind, sp_chunks_payload_fn fn, void *arg,
                            sp_chunks_info *info, char *err, size_t errcap)
{
    payloads p = {fn, arg};
    walk w = {.visit = visit_payload, .arg = &p};
    return run_walk(&w, path, kind, info, err, errcap);
}

int sp_chunks_append(const char *path, sp_chunks_kind kind, const void *payload, size_t len, uint64_t count,
                     sp_chunks_info *info, char *err, size_t errcap)
{
    sp_chunks_info here;
    if (!info)
        info = &here;
    if (!exists(path)) {
        memset(info, 0, sizeof *info);
        return sp_chunks_write(path, kind, payload, len, count, err, errcap);
    }
    walk w = {.visit = NULL};
    if (run_walk(&w, path, kind, info, err, errcap))
        return -1;
    /* a torn last chunk (an append of old, into the file itself, killed part way) is cut off */
    if (info->torn && sp_file_append(w.path, w.at, NULL, 0))
        return sp_store_fail(err, errcap, "%s: %s", w.path, strerror(errno));
    /* a certificate's chunk is written once per size and kept: worth the slower level */
    int level = kind == SP_CHUNKS_CERT ? SP_TUNE_PACK_LEVEL : SP_TUNE_STORE_LEVEL;
    char buf[4096];
    return write_one(segment(path, (unsigned)info->segments, buf, sizeof buf), kind, payload, len, count, level, err,
                     errcap);
}

/* ---------------------------------------------------------------- compaction */

/* Every key of a file once, with the value its first chunk gives it. */
typedef struct gather {
    sp_children keys;
    uint32_t *value;
    size_t cap;
    const char *path;
    const sp_chunks_info *info;
    char *err;
    size_t errcap;
    bool oom;
} gather;

static int gather_one(void *arg, const sp_tok *key, size_t len, uint32_t value)
{
    gather *g = arg;
    int added = sp_children_add(&g->keys, key, len);
    if (added > 0 && sp_grow((void **)&g->value, &g->cap, g->keys.n, sizeof *g->value))
        added = -1;
    if (added < 0)
        return g->oom = true, 1; /* 1 ends the reading */
    if (added) {
        g->value[g->keys.n - 1] = value;
        return 0;
    }
    uint32_t first = g->value[sp_children_find(&g->keys, key, len)];
    if (first == value)
        return 0;
    sp_store_fail(g->err, g->errcap, "%s: chunk %llu gives a key the value %u, an earlier chunk gave it %u", g->path,
                  (ull)g->info->chunks + 1, value, first);
    return 1;
}

/* Writes the keys gathered (but those drop marks, when not NULL), in key order, as the one chunk of a
 * new file at path; how many, or SIZE_MAX when it fails. */
static size_t write_gathered(const gather *g, const uint8_t *drop, const char *path, sp_chunks_kind kind, char *err,
                             size_t errcap)
{
    size_t n = 0;
    sp_keylist_ref *refs = malloc((g->keys.n ? g->keys.n : 1) * sizeof *refs);
    sp_buf b = {0};
    for (size_t i = 0; refs && i < g->keys.n; i++)
        if (!drop || !drop[i])
            refs[n++] = (sp_keylist_ref){g->keys.tok + g->keys.off[i], g->keys.len[i], g->value[i]};
    if (refs)
        sp_keylist_put_sorted(&b, refs, n);
    int rc = !refs || b.failed ? sp_store_fail(err, errcap, "%s: out of memory", path)
                               : sp_chunks_write(path, kind, b.data, b.len, n, err, errcap);
    sp_buf_free(&b);
    free(refs);
    return rc ? SIZE_MAX : n;
}

int sp_chunks_compact(const char *in, const char *out, sp_chunks_info *info, uint64_t *kept, char *err,
                      size_t errcap)
{
    return sp_chunks_compact_filtered(in, out, NULL, NULL, info, kept, err, errcap);
}

int sp_chunks_compact_filtered(const char *in, const char *out, sp_chunks_filter filter, void *arg,
                               sp_chunks_info *info, uint64_t *kept, char *err, size_t errcap)
{
    gather g = {.path = in, .info = info, .err = err, .errcap = errcap};
    sp_children_init(&g.keys);
    int rc = sp_chunks_read(in, 0, gather_one, &g, info, err, errcap) ? -1 : 0;
    if (g.oom) {
        sp_store_fail(err, errcap, "%s: out of memory", in);
        rc = -2;
    }
    uint8_t *drop = rc == 0 && filter ? calloc(g.keys.n + 1, 1) : NULL;
    if (rc == 0 && filter && (!drop || filter(arg, &g.keys, g.value, drop))) {
        sp_store_fail(err, errcap, "%s: out of memory", in);
        rc = -2;
    }
    size_t n = rc ? 0 : write_gathered(&g, drop, out ? out : in, info->kind, err, errcap);
    if (n == SIZE_MAX)
        rc = -2;
    *kept = rc ? 0 : n;
    free(drop);
    free(g.value);
    sp_children_free(&g.keys);
    return rc;
}
