/* gindex.c: misère games by their options (gindex.h): a key of the sorted options in a children
 * list, and the game each key stands for. */
#include "gindex.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The key of a game with options opts[0..n) (sorted here) into ix->buf; its length, or -1. */
static long game_key(sp_gindex *ix, uint32_t *opts, size_t n)
{
    if (sp_grow((void **)&ix->buf, &ix->buf_cap, 2 * n + 1, sizeof *ix->buf))
        return -1;
    qsort(opts, n, sizeof *opts, cmp_u32);
    for (size_t i = 0; i < n; i++)
        ix->buf[2 * i] = (sp_tok)(opts[i] & 0xffff), ix->buf[2 * i + 1] = (sp_tok)(opts[i] >> 16);
    ix->buf[2 * n] = 0xffff; /* so that the game with no option has a key too */
    return (long)(2 * n + 1);
}

long sp_gindex_find(sp_gindex *ix, uint32_t *opts, size_t n)
{
    long len = game_key(ix, opts, n);
    if (len < 0)
        return -2;
    long e = sp_children_find(&ix->keys, ix->buf, (size_t)len);
    return e < 0 ? -1 : (long)ix->of[e];
}

int sp_gindex_add(sp_gindex *ix, uint32_t *opts, size_t n, uint32_t g)
{
    long len = game_key(ix, opts, n);
    int added = len < 0 ? -1 : sp_children_add(&ix->keys, ix->buf, (size_t)len);
    if (added <= 0)
        return added;
    if (sp_grow((void **)&ix->of, &ix->of_cap, ix->keys.n, sizeof *ix->of))
        return -1;
    ix->of[ix->keys.n - 1] = g;
    return 0;
}

int sp_gindex_init(sp_gindex *ix, const sp_cert *c)
{
    memset(ix, 0, sizeof *ix);
    sp_children_init(&ix->keys);
    uint32_t *opts = NULL;
    size_t cap = 0;
    int rc = 0;
    for (uint32_t g = 0; c && c->play == SP_CERT_MISERE && g < c->ngames && rc == 0; g++) {
        size_t n = c->game_first[g + 1] - c->game_first[g];
        rc = sp_grow((void **)&opts, &cap, n + 1, sizeof *opts);
        if (rc == 0) {
            memcpy(opts, c->game_opts + c->game_first[g], n * sizeof *opts);
            rc = sp_gindex_add(ix, opts, n, g);
        }
    }
    free(opts);
    if (rc)
        sp_gindex_free(ix);
    return rc;
}

void sp_gindex_free(sp_gindex *ix)
{
    free(ix->of);
    free(ix->buf);
    sp_children_free(&ix->keys);
    memset(ix, 0, sizeof *ix);
}
