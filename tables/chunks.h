/* chunks.h: files that grow by appends, for what a table run learns (table.h): each save appends a
 * chunk of only the entries new since the save before, so that the file, and git's history of it,
 * grows by what was learned and no more. An append is a new segment file beside it (PATH.1, PATH.2,
 * ...), so that no file once written is ever changed: git stores each whole, once.
 *
 * Format (docs/design.md, "Chunk files"), little-endian: a file header (magic, format version, kind),
 * then chunks, each a header (magic, format version, kind, entry count, raw and compressed sizes,
 * XXH64 of the compressed and of the raw payload, XXH64 of the header's other bytes) and one zstd
 * frame of its payload. The land nimbers and the misère proven positions have a sorted key list
 * (keylist.h) for payload; the misère land games a payload of their own (landgames.h), read with
 * sp_chunks_read_payloads.
 *
 * Contract:
 * - An append writes one chunk as the next segment, a chunk file of its own made atomically (a file
 *   that does not exist yet is made whole, header and first chunk, the same way). A rewrite
 *   (sp_chunks_write, sp_chunks_compact) makes PATH atomically and then removes its segments.
 * - The chunk file is PATH and its segments PATH.1, PATH.2, ... up to the first one missing; each has
 *   the file header. Files written by appends into PATH itself (before segments) read the same.
 * - Reading goes through the chunks in order, segment after segment. A last chunk cut short or
 *   failing a checksum (an append into PATH killed part way) is left out with a one-line warning, and
 *   everything before it kept; the next append cuts it off first, so that the file stays well-formed. A bad chunk with a good one after
 *   it is corruption, and the file is refused, as it is for another format version, a chunk of
 *   another kind, or a payload that is malformed, unsorted, or holds another count than its header.
 * - A key may come again in a later chunk: its first value counts, and another value is an error.
 *   Reading hands every entry to the caller, who checks (sp_chunks_compact does).
 */
#ifndef SP_CHUNKS_H
#define SP_CHUNKS_H

#include <stddef.h>
#include <stdint.h>

#include "children.h"
#include "keylist.h"

#define SP_CHUNKS_VERSION 1

typedef enum {
    SP_CHUNKS_NIMBERS = 1, /* land key -> nimber (normal play) */
    SP_CHUNKS_PROVEN = 2,  /* misère positions proven lost alone (beside the game 0), value 0 */
    SP_CHUNKS_LAND_GAMES = 3, /* misère land key -> game, with the games (landgames.h: a payload of
                                 its own, read with sp_chunks_read_payloads) */
    SP_CHUNKS_CERT = 4,       /* a certificate or fact base (cert.h: a payload of its own) */
    SP_CHUNKS_LOST = 5,       /* misère positions lost beside a game: key -> game number of the
                                 land-games file beside it (landgames.h) */
} sp_chunks_kind;

/* What a reading found. */
typedef struct sp_chunks_info {
    sp_chunks_kind kind; /* the file's */
    uint64_t chunks;     /* chunks kept */
    uint64_t entries;    /* entries in them, repeats included */
    uint64_t end;        /* the bytes that hold them, file headers included, over every segment */
    uint64_t segments;   /* files: PATH and its segments */
    uint64_t torn;       /* bytes after them left out (a last chunk cut short or failing a checksum) */
    char warning[768];   /* one line on what was left out; "" when nothing was */
} sp_chunks_info;

/* Calls fn for each entry of each chunk of the file at path, in order, until fn returns a positive
 * value (returned then); kind 0 takes the file's kind, whatever it is. Returns 0 (info filled, with a
 * warning when a torn last chunk was left out), or -1 with a one-line reason in err: missing, not a
 * chunk file, another version or kind, corrupt, malformed. */
int sp_chunks_read(const char *path, sp_chunks_kind kind, sp_keylist_fn fn, void *arg, sp_chunks_info *info,
                   char *err, size_t errcap);

/* sp_chunks_read() for a kind with a payload of its own: fn gets each chunk's payload whole (and
 * the count its header gives), returns 0 to go on, a positive value to stop (returned then), or -1
 * when the payload is malformed (the file is then refused as corrupt). */
typedef int (*sp_chunks_payload_fn)(void *arg, const void *payload, size_t len, uint64_t count);
int sp_chunks_read_payloads(const char *path, sp_chunks_kind kind, sp_chunks_payload_fn fn, void *arg,
                            sp_chunks_info *info, char *err, size_t errcap);

/* Appends a chunk of count entries (payload: a sorted key list) to the file at path, creating the file
 * when there is none. The chunks there are gone through first (their checksums, not their entries),
 * and a torn last one is cut off (info, unless NULL, says what was found: a warning then). Returns 0,
 * or -1 with a reason: the file is refused as sp_chunks_read would, or cannot be written (it then
 * ends where its good chunks end). */
int sp_chunks_append(const char *path, sp_chunks_kind kind, const void *payload, size_t len, uint64_t count,
                     sp_chunks_info *info, char *err, size_t errcap);

/* Replaces the file at path atomically by a chunk file of one chunk, and removes its segments. */
int sp_chunks_write(const char *path, sp_chunks_kind kind, const void *payload, size_t len, uint64_t count,
                    char *err, size_t errcap);

/* Removes the chunk file at path and its segments; 0 also when it is missing. */
int sp_chunks_remove(const char *path, char *err, size_t errcap);

/* The bytes of the chunk file at path, its segments included (0 when it is missing). */
uint64_t sp_chunks_size(const char *path);

/* Rewrites the chunk file `in` as one chunk, atomically, to out (to in itself when out is NULL): each
 * key once, with the value of its first chunk, in key order. info says what in held, *kept how many
 * entries were written. Returns 0; -1 with a reason when in is refused as sp_chunks_read would or
 * gives a key two values (nothing is written then); -2 with a reason when the new file cannot be
 * made (out of memory, not written). */
int sp_chunks_compact(const char *in, const char *out, sp_chunks_info *info, uint64_t *kept, char *err,
                      size_t errcap);

/* Which entries a compaction leaves out: given every key once (keys, values value[i]), sets drop[i]
 * for those to leave out; 0, or -1 when out of memory. */
typedef int (*sp_chunks_filter)(void *arg, const sp_children *keys, const uint32_t *value, uint8_t *drop);

/* sp_chunks_compact() without the entries filter drops (filter NULL: none); -2 also when the filter
 * fails. */
int sp_chunks_compact_filtered(const char *in, const char *out, sp_chunks_filter filter, void *arg,
                               sp_chunks_info *info, uint64_t *kept, char *err, size_t errcap);

#endif
