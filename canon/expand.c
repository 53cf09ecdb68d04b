/* expand.c: the children of lands and positions (expand.h): a land's moves made and keyed, or its list
 * replayed from the land cache the caller hands in; a position's children land by land. */
#include "expand.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "simplify.h"

/* The sink that keys the child of each move of a land into a list (the moves of one part). */
typedef struct keyed_sink {
    sp_canon_ctx *ctx;
    sp_children *out;
    const sp_move_part *part;
    sp_child_hook hook;
    void *hook_arg;
    sp_tok key[SP_KEY_MAX];
} keyed_sink;

/* Lists a child made by `move` (sp_children_note) and shows a new one to the hook: -1 out of memory,
 * 1 the hook stops the round, else 0. */
static int list_child(sp_children *c, const sp_tok *key, size_t len, uint32_t move, sp_child_hook hook,
                      void *hook_arg)
{
    int added = sp_children_note(c, key, len, move);
    if (added <= 0)
        return added;
    return hook && hook(hook_arg, key, len, move) ? 1 : 0;
}

static int add_simplified(void *arg, sp_pos *child, uint32_t move)
{
    keyed_sink *ks = arg;
    sp_pos_simplify(child);
    size_t len = sp_canon_pos(ks->ctx, child, ks->key);
    int rc = list_child(ks->out, ks->key, len, move, ks->hook, ks->hook_arg);
    if (rc == 1 && ks->part && ks->part->share)
        sp_move_share_stop(ks->part->share, ks->part->round);
    return rc;
}

/* Where child i's tokens start in entry e, from where the last call left *c (child) and *off (its
 * start): a part takes children in one direction, so its walk is as long as the list. */
static uint32_t tokens_at(const sp_lcache_entry *e, uint32_t i, uint32_t *c, uint32_t *off)
{
    while (*c < i)
        *off += e->len[(*c)++];
    while (*c > i)
        *off -= e->len[--*c];
    return *off;
}

int sp_expand_replay_part(const void *block, const sp_move_part *part, sp_child_hook hook, void *hook_arg,
                          sp_children *out)
{
    sp_lcache_entry e;
    sp_lcache_view(block, &e);
    uint32_t next = 0, i, c = 0, off = 0;
    int rc = 0;
    sp_take got = SP_EXHAUSTED;
    while (rc == 0 && (got = sp_move_part_take(part, e.n, &next, &i)) == SP_TAKEN)
        rc = list_child(out, e.tok + tokens_at(&e, i, &c, &off), e.len[i], e.first[i], hook, hook_arg);
    if (rc == 0 && got == SP_ENDED)
        rc = 1;
    if (rc == 1 && part && part->share)
        sp_move_share_stop(part->share, part->round);
    return rc;
}

/* A cached list, as making it again would give it: from a copy, since a hook may make (and cache)
 * other lands' children in the meantime. Returns 1 when the hook stopped it. */
static int replay(const sp_lcache_entry *e, sp_child_hook hook, void *hook_arg, sp_children *out)
{
    void *copy = malloc(e->bytes);
    if (!copy)
        return -1;
    memcpy(copy, e->block, e->bytes);
    int rc = sp_expand_replay_part(copy, NULL, hook, hook_arg, out);
    free(copy);
    return rc;
}

/* The children that the moves numbered `from` on give, added to out (which holds those of the
 * moves before: a list resumed). */
static int make_children(sp_canon_ctx *ctx, const sp_tok *land, size_t len, const sp_move_part *part, uint32_t from,
                         sp_child_hook hook, void *hook_arg, sp_children *out)
{
    sp_pos in;
    if (sp_key_decode(land, len, &in) || in.nland != 1)
        return -1;
    keyed_sink *ks = malloc(sizeof *ks);
    if (!ks)
        return -1;
    ks->ctx = ctx; /* not a compound literal: that would clear the key room on every call */
    ks->out = out;
    ks->part = part;
    ks->hook = hook;
    ks->hook_arg = hook_arg;
    int rc = sp_pos_moves_part(&in, part, from, add_simplified, ks);
    free(ks);
    return rc;
}

int sp_expand_land_part(sp_canon_ctx *ctx, sp_lcache *cache, const sp_tok *land, size_t len,
                        const sp_move_part *part, sp_child_hook hook, void *hook_arg, sp_children *out)
{
    sp_children_clear(out);
    if (!cache)
        return make_children(ctx, land, len, part, 0, hook, hook_arg, out);
    bool shared = part && part->share;
    uint64_t h[2];
    sp_lcache_entry e;
    uint32_t from = 0;
    sp_lcache_hash(land, len, h);
    if (sp_lcache_get(cache, h, &e)) {
        int rc = replay(&e, hook, hook_arg, out);
        if (shared && (rc == 1 || e.made == SP_LCACHE_WHOLE)) /* the other parts' moves are not needed */
            sp_move_share_stop(part->share, part->round);
        if (rc || e.made == SP_LCACHE_WHOLE)
            return rc;
        from = e.made; /* a list cut short before: the moves after it are made now */
    }
    int rc = make_children(ctx, land, len, part, from, hook, hook_arg, out);
    if (rc >= 0 && !shared) /* whole, or up to the child the hook stopped at (the last listed) */
        sp_lcache_put(cache, h, &out, 1, rc == 0 ? SP_LCACHE_WHOLE : out->first[out->n - 1] + 1);
    return rc;
}

int sp_expand_land(sp_canon_ctx *ctx, sp_lcache *cache, const sp_tok *land, size_t len, sp_children *out)
{
    return sp_expand_land_part(ctx, cache, land, len, NULL, NULL, NULL, out);
}

/* A child of one land of a position, made into the child of the whole position: the position's
 * other lands (rest) merged with the child's. */
typedef struct pos_child {
    const sp_tok *rest;
    size_t rest_len;
    sp_tok *buf; /* room for the key's length plus SP_KEY_MAX */
    sp_child_hook hook;
    void *arg;
} pos_child;

static int whole_child(void *arg, const sp_tok *child, size_t clen, uint32_t move)
{
    const pos_child *pc = arg;
    return pc->hook(pc->arg, pc->buf, sp_key_merge(pc->rest, pc->rest_len, child, clen, pc->buf), move);
}

int sp_expand_pos_each(sp_canon_ctx *ctx, sp_lcache *cache, const sp_tok *key, size_t len, sp_child_hook hook,
                       void *arg, sp_children *scratch)
{
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    unsigned n = sp_key_lands(key, len, off, lens, SP_MAX_LANDS);
    sp_tok *rest = malloc(sizeof(sp_tok) * (2 * len + SP_KEY_MAX));
    pos_child pc = {.rest = rest, .rest_len = 0, .buf = rest + len, .hook = hook, .arg = arg};
    int rc = rest && n <= SP_MAX_LANDS ? 0 : -1;
    for (unsigned l = 0; l < n && !rc; l++) {
        const sp_tok *land = key + off[l];
        if (l > 0 && !sp_key_cmp(land, lens[l], key + off[l - 1], lens[l - 1]))
            continue; /* a land equal to the previous one gives the same children */
        pc.rest_len = sp_key_drop_land(key, len, off[l], lens[l], rest);
        rc = sp_expand_land_part(ctx, cache, land, lens[l], NULL, whole_child, &pc, scratch);
    }
    free(rest);
    return rc;
}

/* Lists each child; stops only when memory runs out. */
static int add_whole_child(void *arg, const sp_tok *key, size_t len, uint32_t move)
{
    (void)move;
    return sp_children_add(arg, key, len) < 0;
}

int sp_expand_pos(sp_canon_ctx *ctx, sp_lcache *cache, const sp_tok *key, size_t len, sp_children *out)
{
    sp_children lc;
    sp_children_init(&lc);
    sp_children_clear(out);
    int rc = sp_expand_pos_each(ctx, cache, key, len, add_whole_child, out, &lc);
    sp_children_free(&lc);
    return rc ? -1 : 0;
}
