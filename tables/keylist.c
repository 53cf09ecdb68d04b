/* keylist.c: the payloads of keys with values (keylist.h): plain entries, or sorted ones that give
 * each key as the part it shares with the one before and the rest. */
#include "keylist.h"

#include <assert.h>
#include <stdlib.h>

#include "grow.h"

static void put_tokens(sp_buf *b, const sp_tok *key, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        uint8_t le[2] = {(uint8_t)key[i], (uint8_t)(key[i] >> 8)};
        sp_buf_put(b, le, 2);
    }
}

void sp_keylist_put_key(sp_buf *b, const sp_tok *key, size_t len)
{
    sp_buf_u32(b, (uint32_t)len);
    put_tokens(b, key, len);
}

void sp_keylist_put(sp_buf *b, const sp_tok *key, size_t len, uint32_t value)
{
    sp_keylist_put_key(b, key, len);
    sp_buf_u32(b, value);
}

void sp_keylist_put_after(sp_buf *b, const sp_tok *prev, size_t prev_len, const sp_tok *key, size_t len,
                          uint32_t value)
{
    assert(len <= SP_KEY_MAX && (!prev || sp_key_cmp(prev, prev_len, key, len) <= 0)); /* ascending */
    size_t shared = 0;
    while (shared < prev_len && shared < len && prev[shared] == key[shared])
        shared++;
    sp_buf_u32(b, (uint32_t)shared);
    sp_buf_u32(b, (uint32_t)(len - shared));
    put_tokens(b, key + shared, len - shared);
    sp_buf_u32(b, value);
}

int sp_keylist_refs_add(void *arg, const sp_tok *key, size_t len, unsigned value)
{
    sp_keylist_refs *rs = arg;
    if (sp_grow((void **)&rs->v, &rs->cap, rs->n + 1, sizeof *rs->v))
        return -1;
    rs->v[rs->n++] = (sp_keylist_ref){key, (uint32_t)len, value};
    return 0;
}

static int by_key(const void *a, const void *b)
{
    const sp_keylist_ref *x = a, *y = b;
    return sp_key_cmp(x->key, x->len, y->key, y->len);
}

void sp_keylist_put_sorted(sp_buf *b, sp_keylist_ref *refs, size_t n)
{
    qsort(refs, n, sizeof *refs, by_key);
    for (size_t i = 0; i < n; i++)
        sp_keylist_put_after(b, i ? refs[i - 1].key : NULL, i ? refs[i - 1].len : 0, refs[i].key, refs[i].len,
                             refs[i].value);
}

/* Reads `count` tokens into key (room SP_KEY_MAX from key - at); false when they do not fit or the
 * payload ends first. */
static bool read_tokens(sp_reader *rd, sp_tok *key, size_t at, uint32_t count)
{
    const uint8_t *p = at + count <= SP_KEY_MAX ? sp_read_bytes(rd, 2 * (size_t)count) : NULL;
    if (!p)
        return false;
    for (uint32_t i = 0; i < count; i++)
        key[at + i] = (sp_tok)(p[2 * i] | p[2 * i + 1] << 8);
    return true;
}

const sp_tok *sp_keylist_get_key(sp_reader *r, sp_tok *tmp, size_t *len)
{
    uint32_t n = sp_read_u32(r);
    if (r->failed || !read_tokens(r, tmp, 0, n)) {
        r->failed = 1;
        return NULL;
    }
    *len = n;
    return tmp;
}

bool sp_keylist_get_after(sp_reader *r, sp_tok *key, size_t *len, uint32_t *value)
{
    uint32_t shared = sp_read_u32(r), rest = sp_read_u32(r);
    if (r->failed || shared > *len || !read_tokens(r, key, shared, rest)) {
        r->failed = 1;
        return false;
    }
    *len = shared + rest;
    *value = sp_read_u32(r);
    return !r->failed;
}

int sp_keylist_each(const void *payload, size_t len, bool sorted, sp_keylist_fn fn, void *arg)
{
    sp_reader rd = {payload, len, 0, 0};
    sp_tok key[SP_KEY_MAX];
    size_t klen = 0;
    while (rd.at < len) {
        uint32_t value = 0;
        bool ok = sorted ? sp_keylist_get_after(&rd, key, &klen, &value)
                         : sp_keylist_get_key(&rd, key, &klen) && (value = sp_read_u32(&rd), !rd.failed);
        if (!ok)
            return -1;
        int rc = fn(arg, key, klen, value);
        if (rc)
            return rc;
    }
    return 0;
}
