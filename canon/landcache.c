/* landcache.c: the ring of recently made child lists and its index (landcache.h). A slot of the index
 * names where in the ring its entry starts, counted in bytes ever written, so that an entry that the
 * ring has since written over is recognised as gone without being cleared. */
#include "landcache.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "mem.h"

#define ALIGN 8
#define BYTES_PER_SLOT 128

typedef struct slot {
    uint64_t h[2];
    uint64_t start; /* where the entry starts, in bytes written since the cache was made */
} slot;

struct sp_lcache {
    uint8_t *ring;
    size_t cap;    /* bytes of ring */
    uint64_t head; /* bytes written since the cache was made (skips at the ring's end included) */
    slot *index;
    size_t mask;   /* slots - 1 */
    sp_children merged; /* a round's parts joined, before they are copied in */
    uint64_t lookups, hits, partial;
};

sp_lcache *sp_lcache_new(size_t bytes)
{
    size_t slots = 1;
    while ((slots * 2) * (BYTES_PER_SLOT + sizeof(slot)) <= bytes)
        slots *= 2;
    if (slots < 64)
        return NULL;
    sp_lcache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->cap = (bytes - slots * sizeof(slot)) / ALIGN * ALIGN;
    c->mask = slots - 1;
    c->ring = sp_mem_table(c->cap); /* untouched pages cost nothing until the ring reaches them */
    c->index = sp_mem_table(slots * sizeof(slot));
    sp_children_init(&c->merged);
    if (!c->ring || !c->index) {
        sp_lcache_free(c);
        return NULL;
    }
    return c;
}

void sp_lcache_free(sp_lcache *c)
{
    if (!c)
        return;
    sp_mem_table_free(c->ring, c->cap);
    sp_mem_table_free(c->index, (c->mask + 1) * sizeof(slot));
    sp_children_free(&c->merged);
    free(c);
}

void sp_lcache_hash(const sp_tok *land, size_t len, uint64_t h[2])
{
    XXH128_hash_t x = XXH3_128bits(land, len * sizeof *land);
    h[0] = x.low64;
    h[1] = x.high64;
}

/* An entry: n, made, the n first moves (uint32_t), the n lengths (uint16_t), then the tokens. */
static size_t block_bytes(size_t n, size_t tokens)
{
    return sizeof(uint32_t) * (2 + n) + sizeof(uint16_t) * n + sizeof(sp_tok) * tokens;
}

void sp_lcache_view(const void *block, sp_lcache_entry *e)
{
    const uint32_t *w = block;
    size_t tokens = 0;
    e->n = w[0];
    e->made = w[1];
    e->first = w + 2;
    e->len = (const uint16_t *)(e->first + e->n);
    e->tok = (const sp_tok *)(e->len + e->n);
    for (uint32_t i = 0; i < e->n; i++)
        tokens += e->len[i];
    e->block = block;
    e->bytes = block_bytes(e->n, tokens);
}

/* The slot of h when its entry is still in the ring, else NULL. */
static const slot *find(const sp_lcache *c, const uint64_t h[2])
{
    const slot *s = &c->index[h[0] & c->mask];
    /* the ring has written over an entry once more than cap bytes followed its start */
    if (s->h[0] != h[0] || s->h[1] != h[1] || c->head - s->start > c->cap || c->head == 0)
        return NULL;
    return s;
}

uint32_t sp_lcache_made(const sp_lcache *c, const uint64_t h[2])
{
    const slot *s = find(c, h);
    sp_lcache_entry e;
    if (!s)
        return 0;
    sp_lcache_view(c->ring + s->start % c->cap, &e); /* the entry's layout is known in one place */
    return e.made;
}

bool sp_lcache_get(sp_lcache *c, const uint64_t h[2], sp_lcache_entry *e)
{
    const slot *s = find(c, h);
    c->lookups++;
    if (!s)
        return false;
    sp_lcache_view(c->ring + s->start % c->cap, e);
    c->hits += e->made == SP_LCACHE_WHOLE;
    c->partial += e->made != SP_LCACHE_WHOLE;
    return true;
}

static void put_list(sp_lcache *c, const uint64_t h[2], const sp_children *l, uint32_t made)
{
    size_t bytes = (block_bytes(l->n, l->tok_len) + ALIGN - 1) / ALIGN * ALIGN;
    if (bytes > c->cap / 4)
        return;
    size_t at = c->head % c->cap;
    if (at + bytes > c->cap) { /* an entry lies in one piece: skip to the ring's start */
        c->head += c->cap - at;
        at = 0;
    }
    uint32_t *w = (uint32_t *)(c->ring + at);
    uint16_t *len = (uint16_t *)(w + 2 + l->n);
    sp_tok *tok = (sp_tok *)(len + l->n);
    w[0] = (uint32_t)l->n;
    w[1] = made;
    if (l->n)
        memcpy(w + 2, l->first, l->n * sizeof *l->first);
    for (size_t i = 0; i < l->n; i++) {
        len[i] = (uint16_t)l->len[i];
        if (l->len[i]) /* a child with no land left is the empty key (and the list may have no tokens) */
            memcpy(tok, l->tok + l->off[i], l->len[i] * sizeof *tok);
        tok += l->len[i];
    }
    slot *s = &c->index[h[0] & c->mask];
    *s = (slot){{h[0], h[1]}, c->head};
    c->head += bytes;
}

void sp_lcache_put(sp_lcache *c, const uint64_t h[2], sp_children *const *parts, unsigned nparts, uint32_t made)
{
    if (nparts == 1) {
        put_list(c, h, parts[0], made);
        return;
    }
    if (sp_children_merge(&c->merged, parts, nparts, made) == 0)
        put_list(c, h, &c->merged, made);
}

void sp_lcache_get_stats(const sp_lcache *c, sp_lcache_stats *s)
{
    s->bytes = c->cap + (c->mask + 1) * sizeof(slot);
    s->used_bytes = (c->head < c->cap ? c->head : c->cap) + (c->mask + 1) * sizeof(slot);
    s->lookups = c->lookups;
    s->hits = c->hits;
    s->partial = c->partial;
}
