/* random.c: random moves and games (random.h): a child drawn uniformly from a position's list of
 * children, one move after another. */
#include "random.h"

#include <string.h>

#include "expand.h"
#include "rng.h"

long sp_random_move(sp_canon_ctx *ctx, sp_tok *key, size_t len, uint64_t *rng, sp_children *scratch)
{
    if (sp_expand_pos(ctx, NULL, key, len, scratch) || scratch->n == 0)
        return -1;
    size_t pick = sp_rng_next(rng) % scratch->n;
    memcpy(key, scratch->tok + scratch->off[pick], sizeof(sp_tok) * scratch->len[pick]);
    return (long)scratch->len[pick];
}

size_t sp_random_game(sp_canon_ctx *ctx, unsigned n, unsigned moves, uint64_t *rng, sp_tok *key)
{
    sp_pos p;
    sp_pos_spots(&p, n);
    size_t len = sp_canon_pos(ctx, &p, key);
    sp_children ch;
    sp_children_init(&ch);
    for (unsigned m = 0; m < moves; m++) {
        long next = sp_random_move(ctx, key, len, rng, &ch);
        if (next < 0)
            break;
        len = (size_t)next;
    }
    sp_children_free(&ch);
    return len;
}
