/* store.h: the one on-disk format of the project's files that are not text: nimber stores, proven
 * positions and certificates. A header (magic, version, kind, sizes, checksums) then a zstd frame.
 *
 * Contract:
 * - Written atomically: a temporary file in the same directory, fsync, rename; a crash leaves either
 *   the old file or the new one, never a mix.
 * - Read back only when the magic, the format version, the kind, both XXH64 checksums (of the
 *   compressed and of the raw payload) and the sizes all agree; otherwise a one-line reason.
 */
#ifndef SP_STORE_H
#define SP_STORE_H

#include <stddef.h>
#include <stdint.h>

#define SP_STORE_VERSION 1

typedef enum {
    SP_STORE_NIMBERS = 1,     /* land key -> nimber (normal play) */
    SP_STORE_PROVEN = 2,      /* proven positions (misère play) */
    SP_STORE_CERTIFICATE = 3, /* a certificate of one outcome */
    SP_STORE_NIMBERS_SORTED = 4, /* land key -> nimber, keys sorted, each after the one before (keylist.h) */
} sp_store_kind;

/* Writes payload atomically to path; returns 0, or -1 with a reason in err (errcap bytes). */
int sp_store_write(const char *path, sp_store_kind kind, const void *payload, size_t len, char *err, size_t errcap);

/* Reads a store of the given kind; on success *payload is malloc'ed (the caller frees it). Returns 0,
 * or -1 with a reason in err: missing, not a store, another version or kind, corrupt, truncated. */
int sp_store_read(const char *path, sp_store_kind kind, void **payload, size_t *len, char *err, size_t errcap);

/* sp_store_read() for a store of kind a or b (a new and an old format of one thing); *found says
 * which. */
int sp_store_read_either(const char *path, sp_store_kind a, sp_store_kind b, sp_store_kind *found, void **payload,
                         size_t *len, char *err, size_t errcap);

/* Writes a one-line reason into err (cap bytes) and returns -1, for `return sp_store_fail(...)`. */
int sp_store_fail(char *err, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Compresses len bytes of src into dst (room cap: ZSTD_compressBound(len)) as one zstd frame at a zstd
 * level, as the payloads of store files are (chunks.h too); the size written, or a zstd error code
 * (ZSTD_isError). */
size_t sp_store_compress(void *dst, size_t cap, const void *src, size_t len, int level);

/* Writes bytes as they are (a CSV or Markdown file, a chunk file) atomically. */
int sp_store_write_text(const char *path, const char *text, size_t len, char *err, size_t errcap);

/* A growable byte buffer for building payloads. */
typedef struct sp_buf {
    uint8_t *data;
    size_t len, cap;
    int failed; /* out of memory at some point */
} sp_buf;

void sp_buf_put(sp_buf *b, const void *p, size_t n);
void sp_buf_u32(sp_buf *b, uint32_t v);
void sp_buf_u64(sp_buf *b, uint64_t v);
void sp_buf_free(sp_buf *b);

/* Reading a payload back: values are little-endian; a reader that runs past the end sets failed. */
typedef struct sp_reader {
    const uint8_t *p;
    size_t len, at;
    int failed;
} sp_reader;

uint32_t sp_read_u32(sp_reader *r);
uint64_t sp_read_u64(sp_reader *r);
const void *sp_read_bytes(sp_reader *r, size_t n);

#endif
