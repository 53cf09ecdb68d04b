/* children.c: the child list (children.h): keys appended to one token arena, found again through an
 * open-addressing index of their 64-bit hashes; and the join of the parts of a round in move order. */
#include "children.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

void sp_children_init(sp_children *c)
{
    memset(c, 0, sizeof *c);
}

void sp_children_free(sp_children *c)
{
    free(c->off);
    free(c->len);
    free(c->tok);
    free(c->slot);
    free(c->hash);
    free(c->first);
    sp_children_init(c);
}

void sp_children_clear(sp_children *c)
{
    c->n = 0;
    c->tok_len = 0;
    if (c->slot)
        memset(c->slot, 0xff, sizeof(uint32_t) * c->slot_cap);
}

static int rehash(sp_children *c, size_t want)
{
    free(c->slot);
    c->slot = malloc(sizeof(uint32_t) * want);
    if (!c->slot)
        return -1;
    c->slot_cap = want;
    memset(c->slot, 0xff, sizeof(uint32_t) * want);
    for (size_t i = 0; i < c->n; i++) {
        size_t h = c->hash[i] & (want - 1);
        while (c->slot[h] != UINT32_MAX)
            h = (h + 1) & (want - 1);
        c->slot[h] = (uint32_t)i;
    }
    return 0;
}

/* Child k's key; tok is still NULL while every key so far is the empty one, and an offset into NULL
 * is undefined (fuzz_files found it in a certificate of empty keys). */
static const sp_tok *key_at(const sp_children *c, size_t k)
{
    return c->tok ? c->tok + c->off[k] : c->tok;
}

/* The slot of key: where it is, or the empty slot where it would go. */
static size_t find_slot(const sp_children *c, const sp_tok *key, size_t len, uint64_t h)
{
    size_t i = h & (c->slot_cap - 1);
    for (; c->slot[i] != UINT32_MAX; i = (i + 1) & (c->slot_cap - 1)) {
        uint32_t k = c->slot[i];
        if (c->hash[k] == h && sp_key_cmp(key_at(c, k), c->len[k], key, len) == 0)
            break;
    }
    return i;
}

long sp_children_find(const sp_children *c, const sp_tok *key, size_t len)
{
    if (!c->slot_cap)
        return -1;
    size_t i = find_slot(c, key, len, sp_key_hash64(key, len));
    return c->slot[i] == UINT32_MAX ? -1 : (long)c->slot[i];
}

/* sp_children_add(), with *at the index of the key in the list (added or there already). */
static int children_add_at(sp_children *c, const sp_tok *key, size_t len, size_t *at)
{
    if (c->slot_cap < 2 * (c->n + 1) && rehash(c, c->slot_cap ? 2 * c->slot_cap : 256))
        return -1;
    uint64_t h = sp_key_hash64(key, len);
    size_t i = find_slot(c, key, len, h);
    if (c->slot[i] != UINT32_MAX) {
        *at = c->slot[i];
        return 0;
    }
    size_t cap = c->cap;
    if (sp_grow((void **)&c->off, &cap, c->n + 1, sizeof(uint32_t)))
        return -1;
    cap = c->cap;
    if (sp_grow((void **)&c->len, &cap, c->n + 1, sizeof(uint32_t)))
        return -1;
    if (sp_grow((void **)&c->hash, &c->cap, c->n + 1, sizeof(uint64_t)))
        return -1;
    if (sp_grow((void **)&c->tok, &c->tok_cap, c->tok_len + len, sizeof(sp_tok)))
        return -1;
    if (len) /* the empty key (no move left) may come first, while tok is still NULL */
        memcpy(c->tok + c->tok_len, key, sizeof(sp_tok) * len);
    c->off[c->n] = (uint32_t)c->tok_len;
    c->len[c->n] = (uint32_t)len;
    c->hash[c->n] = h;
    c->slot[i] = (uint32_t)c->n;
    c->tok_len += len;
    *at = c->n++;
    return 1;
}

int sp_children_add(sp_children *c, const sp_tok *key, size_t len)
{
    size_t at;
    return children_add_at(c, key, len, &at);
}

int sp_children_note(sp_children *c, const sp_tok *key, size_t len, uint32_t move)
{
    size_t at;
    int added = children_add_at(c, key, len, &at);
    if (added == 0 && move < c->first[at])
        c->first[at] = move;
    if (added <= 0)
        return added;
    if (sp_grow((void **)&c->first, &c->first_cap, c->n, sizeof *c->first))
        return -1;
    c->first[c->n - 1] = move;
    return 1;
}

/* Where a child lies: part << 32 | index in the part. */
#define NO_CHILD UINT64_MAX

int sp_children_merge(sp_children *out, sp_children *const *parts, unsigned nparts, uint32_t below)
{
    sp_children_clear(out);
    uint32_t top = 0; /* one past the greatest first move kept */
    for (unsigned p = 0; p < nparts; p++) {
        assert(parts[p]->n == 0 || parts[p]->first); /* filled by sp_children_note() */
        for (size_t i = 0; i < parts[p]->n; i++)
            if (parts[p]->first[i] < below && parts[p]->first[i] >= top)
                top = parts[p]->first[i] + 1;
    }
    /* a move gives one child, so the children kept are placed by their first moves (a move that two
     * parts made gives both the same child: either will do) */
    uint64_t *by_move = malloc((top ? top : 1) * sizeof *by_move);
    if (!by_move)
        return -1;
    memset(by_move, 0xff, top * sizeof *by_move);
    for (unsigned p = 0; p < nparts; p++)
        for (size_t i = 0; i < parts[p]->n; i++)
            if (parts[p]->first[i] < below)
                by_move[parts[p]->first[i]] = (uint64_t)p << 32 | i;
    int rc = 0;
    for (uint32_t m = 0; m < top && rc == 0; m++) {
        if (by_move[m] == NO_CHILD)
            continue;
        const sp_children *c = parts[by_move[m] >> 32];
        uint32_t i = (uint32_t)by_move[m];
        rc = sp_children_note(out, key_at(c, i), c->len[i], c->first[i]) < 0 ? -1 : 0;
    }
    free(by_move);
    return rc;
}
