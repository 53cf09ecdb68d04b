/* reference.c: the slow reference solver (reference.h): minimax and mex by their definitions over
 * whole positions, with none of the search machinery of the real solver. */
#include "reference.h"

#include <stdlib.h>
#include <string.h>

#include "expand.h"
#include "grow.h"

sp_outcome sp_ref_outcome(sp_canon_ctx *ctx, const sp_tok *key, size_t len, sp_play play)
{
    sp_children ch;
    sp_children_init(&ch);
    if (sp_expand_pos(ctx, NULL, key, len, &ch)) {
        sp_children_free(&ch);
        return SP_UNKNOWN;
    }
    sp_outcome o = ch.n == 0 && play == SP_PLAY_MISERE ? SP_WIN : SP_LOSS;
    for (size_t i = 0; i < ch.n && o == SP_LOSS; i++) {
        sp_outcome c = sp_ref_outcome(ctx, ch.tok + ch.off[i], ch.len[i], play);
        if (c == SP_UNKNOWN)
            o = SP_UNKNOWN;
        else if (c == SP_LOSS)
            o = SP_WIN;
    }
    sp_children_free(&ch);
    return o;
}

/* The memo of one sp_ref_nimber call: an exact map from position keys to nimbers. */
typedef struct memo {
    sp_children keys; /* de-duplicated key store; index i holds nimber val[i] */
    int *val;
    size_t cap;
} memo;

/* The nimber remembered for key, -1 if none yet (then a slot is made for it), -2 out of memory. */
static int memo_find(memo *m, const sp_tok *key, size_t len)
{
    long i = sp_children_find(&m->keys, key, len);
    if (i >= 0)
        return m->val[i];
    if (sp_children_add(&m->keys, key, len) < 0)
        return -2;
    if (sp_grow((void **)&m->val, &m->cap, m->keys.n, sizeof *m->val))
        return -2;
    m->val[m->keys.n - 1] = -1; /* in progress */
    return -1;
}

static int nimber_rec(sp_canon_ctx *ctx, memo *m, const sp_tok *key, size_t len)
{
    int known = memo_find(m, key, len);
    if (known != -1)
        return known == -2 ? -1 : known;
    size_t slot = m->keys.n - 1;
    sp_children ch;
    sp_children_init(&ch);
    int g = sp_expand_pos(ctx, NULL, key, len, &ch) ? -1 : 0;
    uint64_t seen[4] = {0, 0, 0, 0}; /* nimbers of children below 256 */
    for (size_t i = 0; i < ch.n && g >= 0; i++) {
        int c = nimber_rec(ctx, m, ch.tok + ch.off[i], ch.len[i]);
        if (c < 0 || c >= 256)
            g = -1;
        else
            seen[c / 64] |= 1ull << (c % 64);
    }
    while (g >= 0 && g < 256 && (seen[g / 64] >> (g % 64) & 1))
        g++;
    sp_children_free(&ch);
    m->val[slot] = g;
    return g;
}

int sp_ref_nimber(sp_canon_ctx *ctx, const sp_tok *key, size_t len)
{
    memo m;
    memset(&m, 0, sizeof m);
    sp_children_init(&m.keys);
    int g = nimber_rec(ctx, &m, key, len);
    sp_children_free(&m.keys);
    free(m.val);
    return g;
}
