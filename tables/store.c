/* store.c: the store file format (store.h): header, zstd payload, XXH64 checksums, atomic
 * replacement through a temporary file and rename. */
#include "store.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include <zstd.h>

#include "file.h"
#include "grow.h"
#include "tune.h"

static const char magic[8] = {'S', 'P', 'R', 'O', 'U', 'T', 'S', '\n'};

typedef struct header {
    char magic[8];
    uint32_t version, kind;
    uint64_t raw_len, comp_len;
    uint64_t comp_hash, raw_hash;
} header;

int sp_store_fail(char *err, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (cap)
        vsnprintf(err, cap, fmt, ap);
    va_end(ap);
    return -1;
}

/* a then b replace the file at path (file.h: a crash leaves the old file or the new one). */
static int write_atomic(const char *path, const void *a, size_t alen, const void *b, size_t blen, char *err,
                        size_t cap)
{
    sp_file_out o;
    if (sp_file_open(&o, path))
        return sp_store_fail(err, cap, "%s: %s", path, strerror(errno));
    if (alen)
        fwrite(a, 1, alen, o.f);
    if (blen)
        fwrite(b, 1, blen, o.f);
    if (sp_file_commit(&o))
        return sp_store_fail(err, cap, "%s: %s", path, strerror(errno));
    return 0;
}

int sp_store_write_text(const char *path, const char *text, size_t len, char *err, size_t errcap)
{
    return write_atomic(path, text, len, NULL, 0, err, errcap);
}

size_t sp_store_compress(void *dst, size_t cap, const void *src, size_t len, int level)
{
    ZSTD_CCtx *c = ZSTD_createCCtx();
    if (!c)
        return ZSTD_compress(dst, cap, src, len, level);
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(c, ZSTD_c_nbWorkers, SP_TUNE_STORE_WORKERS); /* fails harmlessly without threads */
    size_t n = ZSTD_compress2(c, dst, cap, src, len);
    ZSTD_freeCCtx(c);
    return n;
}

int sp_store_write(const char *path, sp_store_kind kind, const void *payload, size_t len, char *err, size_t errcap)
{
    size_t bound = ZSTD_compressBound(len);
    void *comp = malloc(bound ? bound : 1);
    if (!comp)
        return sp_store_fail(err, errcap, "%s: out of memory", path);
    size_t clen = sp_store_compress(comp, bound, payload, len, SP_TUNE_STORE_LEVEL);
    if (ZSTD_isError(clen)) {
        free(comp);
        return sp_store_fail(err, errcap, "%s: zstd: %s", path, ZSTD_getErrorName(clen));
    }
    header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, magic, sizeof magic);
    h.version = SP_STORE_VERSION;
    h.kind = (uint32_t)kind;
    h.raw_len = len;
    h.comp_len = clen;
    h.comp_hash = XXH64(comp, clen, 0);
    h.raw_hash = XXH64(payload, len, 0);
    int rc = write_atomic(path, &h, sizeof h, comp, clen, err, errcap);
    free(comp);
    return rc;
}

static int read_file(const char *path, uint8_t **data, size_t *len, char *err, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return sp_store_fail(err, cap, "%s: %s", path, strerror(errno));
    size_t n = 0, room = 1 << 16;
    uint8_t *buf = malloc(room);
    while (buf) {
        n += fread(buf + n, 1, room - n, f);
        if (n < room)
            break;
        uint8_t *more = realloc(buf, room *= 2);
        if (!more)
            free(buf);
        buf = more;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        return sp_store_fail(err, cap, "%s: cannot read", path);
    }
    *data = buf;
    *len = n;
    return 0;
}

static const char *kind_name(uint32_t k)
{
    return k == SP_STORE_NIMBERS || k == SP_STORE_NIMBERS_SORTED ? "nimber store"
           : k == SP_STORE_PROVEN                                 ? "proven-positions store"
           : k == SP_STORE_CERTIFICATE                            ? "certificate"
                                                                  : "unknown kind";
}

static int check_header(const char *path, const header *h, size_t file_len, sp_store_kind kind, sp_store_kind other,
                        char *err, size_t cap)
{
    if (file_len < sizeof *h || memcmp(h->magic, magic, sizeof magic))
        return sp_store_fail(err, cap, "%s: not a sprouts store file", path);
    if (h->version != SP_STORE_VERSION)
        return sp_store_fail(err, cap, "%s: store format version %u, this program reads version %u", path, h->version,
                    SP_STORE_VERSION);
    if (h->kind != (uint32_t)kind && h->kind != (uint32_t)other)
        return sp_store_fail(err, cap, "%s: a %s, expected a %s", path, kind_name(h->kind), kind_name(kind));
    if (h->comp_len != file_len - sizeof *h)
        return sp_store_fail(err, cap, "%s: truncated or padded (%zu bytes of payload, header says %llu)", path,
                    file_len - sizeof *h, (unsigned long long)h->comp_len);
    return 0;
}

int sp_store_read(const char *path, sp_store_kind kind, void **payload, size_t *len, char *err, size_t errcap)
{
    return sp_store_read_either(path, kind, kind, NULL, payload, len, err, errcap);
}

int sp_store_read_either(const char *path, sp_store_kind a, sp_store_kind b, sp_store_kind *found, void **payload,
                         size_t *len, char *err, size_t errcap)
{
    uint8_t *file = NULL;
    size_t flen = 0;
    if (read_file(path, &file, &flen, err, errcap))
        return -1;
    header h;
    memcpy(&h, file, flen < sizeof h ? flen : sizeof h);
    int rc = check_header(path, &h, flen, a, b, err, errcap);
    const uint8_t *comp = file + sizeof h;
    if (rc == 0 && XXH64(comp, h.comp_len, 0) != h.comp_hash)
        rc = sp_store_fail(err, errcap, "%s: corrupt (checksum of the compressed data does not match)", path);
    /* The header has no checksum of its own: a raw length the zstd frame does not declare is
     * corruption, not a size to allocate (fuzz_files found a flipped byte asking for 2^62). */
    unsigned long long declared = rc == 0 ? ZSTD_getFrameContentSize(comp, h.comp_len) : 0;
    if (rc == 0 && (declared == ZSTD_CONTENTSIZE_UNKNOWN ? h.raw_len > SIZE_MAX / 2 : declared != h.raw_len))
        rc = sp_store_fail(err, errcap, "%s: corrupt (the header's payload size is not the compressed data's)", path);
    uint8_t *raw = rc == 0 ? malloc(h.raw_len ? h.raw_len : 1) : NULL;
    if (rc == 0 && !raw)
        rc = sp_store_fail(err, errcap, "%s: out of memory", path);
    if (rc == 0) {
        size_t got = ZSTD_decompress(raw, h.raw_len, comp, h.comp_len);
        if (ZSTD_isError(got) || got != h.raw_len || XXH64(raw, h.raw_len, 0) != h.raw_hash)
            rc = sp_store_fail(err, errcap, "%s: corrupt (the payload does not decompress to what was written)", path);
    }
    free(file);
    if (rc) {
        free(raw);
        return -1;
    }
    *payload = raw;
    *len = h.raw_len;
    if (found)
        *found = (sp_store_kind)h.kind;
    return 0;
}

void sp_buf_put(sp_buf *b, const void *p, size_t n)
{
    if (b->failed)
        return;
    if (sp_grow((void **)&b->data, &b->cap, b->len + n, 1)) {
        b->failed = 1;
        return;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

void sp_buf_u32(sp_buf *b, uint32_t v)
{
    uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    sp_buf_put(b, le, 4);
}

void sp_buf_u64(sp_buf *b, uint64_t v)
{
    sp_buf_u32(b, (uint32_t)v);
    sp_buf_u32(b, (uint32_t)(v >> 32));
}

void sp_buf_free(sp_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

const void *sp_read_bytes(sp_reader *r, size_t n)
{
    if (r->failed || n > r->len - r->at) {
        r->failed = 1;
        return NULL;
    }
    const void *p = r->p + r->at;
    r->at += n;
    return p;
}

uint32_t sp_read_u32(sp_reader *r)
{
    const uint8_t *p = sp_read_bytes(r, 4);
    return p ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24 : 0;
}

uint64_t sp_read_u64(sp_reader *r)
{
    uint64_t lo = sp_read_u32(r);
    return lo | (uint64_t)sp_read_u32(r) << 32;
}
