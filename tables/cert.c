/* cert.c: the certificate type (cert.h): facts kept in a de-duplicating key list, and its
 * serialisation as a store: play, spots, outcome, root key, then the facts. */
#include "cert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"

int sp_cert_init(sp_cert *c, int play, unsigned spots, const sp_tok *root, size_t len, int outcome)
{
    memset(c, 0, sizeof *c);
    c->play = play;
    c->spots = spots;
    c->outcome = outcome;
    sp_children_init(&c->facts);
    c->root = malloc((len ? len : 1) * sizeof(sp_tok));
    if (!c->root)
        return -1;
    memcpy(c->root, root, len * sizeof(sp_tok));
    c->root_len = len;
    return 0;
}

void sp_cert_free(sp_cert *c)
{
    free(c->root);
    free(c->nimber);
    sp_children_free(&c->facts);
    memset(c, 0, sizeof *c);
}

long sp_cert_find(const sp_cert *c, const sp_tok *key, size_t len)
{
    return sp_children_find(&c->facts, key, len);
}

long sp_cert_add(sp_cert *c, const sp_tok *key, size_t len, uint32_t nimber)
{
    long at = sp_cert_find(c, key, len);
    if (at >= 0)
        return at;
    if (sp_children_add(&c->facts, key, len) < 0)
        return -1;
    if (c->facts.n > c->nimber_cap) {
        size_t cap = c->nimber_cap ? 2 * c->nimber_cap : 1024;
        uint32_t *v = realloc(c->nimber, cap * sizeof *v);
        if (!v)
            return -1;
        c->nimber = v;
        c->nimber_cap = cap;
    }
    c->nimber[c->facts.n - 1] = nimber;
    return (long)c->facts.n - 1;
}

static void put_key(sp_buf *b, const sp_tok *key, size_t len)
{
    sp_buf_u32(b, (uint32_t)len);
    for (size_t i = 0; i < len; i++) {
        uint8_t le[2] = {(uint8_t)key[i], (uint8_t)(key[i] >> 8)};
        sp_buf_put(b, le, 2);
    }
}

/* A key read back into tmp (room SP_KEY_MAX); NULL when the payload is malformed. */
static const sp_tok *get_key(sp_reader *r, sp_tok *tmp, size_t *len)
{
    *len = sp_read_u32(r);
    const uint8_t *p = *len <= SP_KEY_MAX ? sp_read_bytes(r, 2 * *len) : NULL;
    if (!p) {
        r->failed = 1;
        return NULL;
    }
    for (size_t i = 0; i < *len; i++)
        tmp[i] = (sp_tok)(p[2 * i] | p[2 * i + 1] << 8);
    return tmp;
}

int sp_cert_save(const sp_cert *c, const char *path, char *err, size_t errcap)
{
    sp_buf b = {0};
    sp_buf_u32(&b, (uint32_t)c->play);
    sp_buf_u32(&b, c->spots);
    sp_buf_u32(&b, (uint32_t)c->outcome);
    put_key(&b, c->root, c->root_len);
    sp_buf_u32(&b, (uint32_t)c->facts.n);
    for (size_t i = 0; i < c->facts.n; i++) {
        put_key(&b, c->facts.tok + c->facts.off[i], c->facts.len[i]);
        if (c->play == SP_CERT_NORMAL)
            sp_buf_u32(&b, c->nimber[i]);
    }
    int rc = b.failed ? (snprintf(err, errcap, "%s: out of memory", path), -1)
                      : sp_store_write(path, SP_STORE_CERTIFICATE, b.data, b.len, err, errcap);
    sp_buf_free(&b);
    return rc;
}

int sp_cert_load(sp_cert *c, const char *path, char *err, size_t errcap)
{
    void *payload;
    size_t plen;
    memset(c, 0, sizeof *c);
    if (sp_store_read(path, SP_STORE_CERTIFICATE, &payload, &plen, err, errcap))
        return -1;
    sp_reader r = {payload, plen, 0, 0};
    sp_tok tmp[SP_KEY_MAX];
    size_t len;
    int play = (int)sp_read_u32(&r);
    unsigned spots = sp_read_u32(&r);
    int outcome = (int)sp_read_u32(&r);
    const sp_tok *root = get_key(&r, tmp, &len);
    int rc = !r.failed && (play == SP_CERT_NORMAL || play == SP_CERT_MISERE) &&
                     (outcome == SP_CERT_LOSS || outcome == SP_CERT_WIN)
                 ? sp_cert_init(c, play, spots, root, len, outcome)
                 : -1;
    uint32_t n = rc ? 0 : sp_read_u32(&r);
    for (uint32_t i = 0; i < n && rc == 0 && !r.failed; i++) {
        const sp_tok *key = get_key(&r, tmp, &len);
        uint32_t g = play == SP_CERT_NORMAL ? sp_read_u32(&r) : 0;
        if (!r.failed && (sp_cert_find(c, key, len) >= 0 || sp_cert_add(c, key, len, g) < 0))
            rc = -1; /* a fact given twice is malformed, whatever it claims */
    }
    free(payload);
    if (rc || r.failed || r.at != plen) {
        sp_cert_free(c);
        snprintf(err, errcap, "%s: malformed certificate payload", path);
        return -1;
    }
    return 0;
}
