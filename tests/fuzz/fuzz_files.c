/* fuzz_files.c: libFuzzer target for the readers of the project's binary files (tables/cert.h,
 * chunks.h, store.h): the first byte picks a form, the rest is either a whole file, or a payload
 * that the target wraps in a well-formed chunk file or store (right sizes and checksums), so that
 * the payload readers behind the checksums get fuzzed too. Every reader must refuse or read, never
 * crash or leak. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cert.h"
#include "chunks.h"
#include "store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[256];

/* A file of this process's own in memory where there is a tmpfs (writes are synced to disk). */
static const char *file_path(void)
{
    if (!path[0])
        snprintf(path, sizeof path, "%s/sp_fuzz_files_%ld", access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm",
                 (long)getpid());
    return path;
}

static int write_raw(const uint8_t *data, size_t size)
{
    FILE *f = fopen(file_path(), "wb");
    if (!f)
        return -1;
    size_t n = fwrite(data, 1, size, f);
    return fclose(f) || n != size ? -1 : 0;
}

static int count_entry(void *arg, const sp_tok *key, size_t len, uint32_t value)
{
    (void)key, (void)len, (void)value;
    ++*(uint64_t *)arg;
    return 0;
}

static void read_all(void)
{
    char err[512];
    sp_cert c;
    if (sp_cert_load(&c, file_path(), err, sizeof err) == 0)
        sp_cert_free(&c);
    uint64_t entries = 0;
    sp_chunks_info info;
    sp_chunks_read(file_path(), 0, count_entry, &entries, &info, err, sizeof err);
    for (int kind = SP_STORE_NIMBERS; kind <= SP_STORE_NIMBERS_SORTED; kind++) {
        void *payload = NULL;
        size_t len;
        if (sp_store_read(file_path(), (sp_store_kind)kind, &payload, &len, err, sizeof err) == 0)
            free(payload);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char err[512];
    const uint8_t *body = data + 1;
    size_t n = size - 1;
    uint64_t count = data[0] / 6; /* the entry count a chunk header claims */
    int rc;
    switch (data[0] % 6) {
    case 0: rc = write_raw(body, n); break;
    case 1: rc = sp_chunks_write(file_path(), SP_CHUNKS_CERT, body, n, count, err, sizeof err); break;
    case 2: rc = sp_chunks_write(file_path(), SP_CHUNKS_NIMBERS, body, n, count, err, sizeof err); break;
    case 3: rc = sp_chunks_write(file_path(), SP_CHUNKS_PROVEN, body, n, count, err, sizeof err); break;
    case 4: rc = sp_store_write(file_path(), SP_STORE_CERTIFICATE, body, n, err, sizeof err); break;
    default: rc = sp_store_write(file_path(), SP_STORE_NIMBERS_SORTED, body, n, err, sizeof err); break;
    }
    if (rc == 0)
        read_all();
    unlink(file_path());
    return 0;
}
