/* keylist.h: payloads that list position keys, each with a value: the land nimbers a table run saves
 * and the misère positions it proved (table.h), in a store file (store.h).
 *
 * Formats, values little-endian:
 * - plain: for each entry, u32 length, the tokens (u16 each), u32 value; in any order;
 * - sorted: the keys in ascending order (sp_key_cmp), each written as u32 the number of tokens it
 *   shares with the key before, u32 the number after those, those tokens, u32 value. Lands alike lie
 *   side by side and most of a key is the one before it (sizes: docs/performance.md).
 */
#ifndef SP_KEYLIST_H
#define SP_KEYLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "keys.h"
#include "store.h"

/* A key alone, as the plain format and certificates (cert.c) write it: u32 length, the tokens. */
void sp_keylist_put_key(sp_buf *b, const sp_tok *key, size_t len);

/* Reads a key so written into tmp (room SP_KEY_MAX); NULL, with r->failed set, when it is malformed. */
const sp_tok *sp_keylist_get_key(sp_reader *r, sp_tok *tmp, size_t *len);

/* Appends an entry in the plain format. */
void sp_keylist_put(sp_buf *b, const sp_tok *key, size_t len, uint32_t value);

/* Appends an entry in the sorted format: key after prev (prev_len 0 for the first entry), not below
 * it (a list of couples may give a key again, with another value). */
void sp_keylist_put_after(sp_buf *b, const sp_tok *prev, size_t prev_len, const sp_tok *key, size_t len,
                          uint32_t value);

/* An entry whose key is held elsewhere (in a store, a list), for writing entries sorted. */
typedef struct sp_keylist_ref {
    const sp_tok *key;
    uint32_t len, value;
} sp_keylist_ref;

/* A growing list of refs, for gathering the entries of a save (free v when done). */
typedef struct sp_keylist_refs {
    sp_keylist_ref *v;
    size_t n, cap;
} sp_keylist_refs;

/* Appends an entry to the sp_keylist_refs at arg (the key is not copied: it must outlive the list);
 * 0, or -1 when out of memory. Its signature is that of the solver's walks over its stores. */
int sp_keylist_refs_add(void *arg, const sp_tok *key, size_t len, unsigned value);

/* Sorts refs by key and appends them in the sorted format; the keys must be distinct. */
void sp_keylist_put_sorted(sp_buf *b, sp_keylist_ref *refs, size_t n);

/* Reads an entry of the sorted format into key (room SP_KEY_MAX, holding the key before it: *len
 * tokens, 0 for the first); false, with r->failed set, when it is malformed. */
bool sp_keylist_get_after(sp_reader *r, sp_tok *key, size_t *len, uint32_t *value);

typedef int (*sp_keylist_fn)(void *arg, const sp_tok *key, size_t len, uint32_t value);

/* Calls fn for each entry of a payload, in order, until fn returns non-zero (a positive value, which
 * is returned); -1 when the payload is malformed (a key longer than SP_KEY_MAX, more shared tokens
 * than the key before has, or an entry cut short), else 0. */
int sp_keylist_each(const void *payload, size_t len, bool sorted, sp_keylist_fn fn, void *arg);

#endif
