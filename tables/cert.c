/* cert.c: the certificate type (cert.h): roots, facts, games and land facts in de-duplicating key
 * lists (their files: certfile.c). */
#include "cert.h"

#include <assert.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

int sp_cert_init(sp_cert *c, int play, unsigned spots, const sp_tok *root, size_t len, int outcome)
{
    assert((play == SP_CERT_NORMAL || play == SP_CERT_MISERE) && (outcome == SP_CERT_LOSS || outcome == SP_CERT_WIN));
    memset(c, 0, sizeof *c);
    c->play = play;
    c->spots = spots;
    c->outcome = outcome;
    sp_children_init(&c->facts);
    sp_children_init(&c->lands);
    c->root = malloc((len ? len : 1) * sizeof(sp_tok));
    c->game_first = malloc(sizeof *c->game_first);
    if (!c->root || !c->game_first) {
        sp_cert_free(c);
        return -1;
    }
    c->game_first[0] = 0;
    c->games_cap = 1;
    memcpy(c->root, root, len * sizeof(sp_tok));
    c->root_len = len;
    return 0;
}

void sp_cert_free(sp_cert *c)
{
    for (size_t i = 0; i < c->nmore; i++)
        free(c->more[i].key);
    free(c->more);
    free(c->root);
    free(c->k);
    free(c->game_first);
    free(c->game_opts);
    free(c->land_game);
    sp_children_free(&c->facts);
    sp_children_free(&c->lands);
    memset(c, 0, sizeof *c);
}

int sp_cert_add_root(sp_cert *c, unsigned spots, const sp_tok *key, size_t len, int outcome)
{
    assert(outcome == SP_CERT_LOSS || outcome == SP_CERT_WIN);
    sp_cert_root *m = realloc(c->more, (c->nmore + 1) * sizeof *m);
    if (!m)
        return -1;
    c->more = m;
    sp_tok *k = malloc((len ? len : 1) * sizeof *k);
    if (!k)
        return -1;
    memcpy(k, key, len * sizeof *k);
    c->more[c->nmore++] = (sp_cert_root){spots, outcome, k, len};
    return 0;
}

size_t sp_cert_pair(const sp_tok *key, size_t len, uint32_t g, sp_tok *out)
{
    memmove(out, key, len * sizeof *out);
    out[len] = (sp_tok)(g & 0xffff);
    out[len + 1] = (sp_tok)(g >> 16);
    return len + 2;
}

uint32_t sp_cert_pair_game(const sp_tok *pair, size_t n)
{
    assert(n >= 2);
    return (uint32_t)pair[n - 2] | (uint32_t)pair[n - 1] << 16;
}

unsigned sp_cert_valued_lives(const sp_cert *c)
{
    return c->sum_lives > c->value_lives ? c->sum_lives : c->value_lives;
}

/* The stored key of a fact: the land (normal play), or the pair (P, k) (misère play: the same P may
 * stand beside several games). Its length, or 0 when P is too long. */
static size_t fact_key(const sp_cert *c, const sp_tok *key, size_t len, uint32_t k, sp_tok *buf)
{
    if (len > SP_KEY_MAX)
        return 0;
    if (c->play == SP_CERT_MISERE)
        return sp_cert_pair(key, len, k, buf);
    memcpy(buf, key, len * sizeof *buf);
    return len;
}

long sp_cert_normalise(const sp_cert *c, const sp_cert_games *g, const sp_tok *key, size_t len, uint32_t *h,
                       sp_tok *out, int all)
{
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    unsigned n = sp_key_lands(key, len, off, lens, SP_MAX_LANDS);
    size_t olen = 0;
    for (unsigned i = 0; i < n; i++) {
        const sp_tok *land = key + off[i];
        unsigned lives = sp_key_lives(land, lens[i]);
        bool must = all || lives <= c->value_lives, may = must || lives <= c->sum_lives;
        uint32_t v = may ? g->land(g->arg, land, lens[i]) : SP_CERT_NONE;
        if (must && v == SP_CERT_NONE)
            return -1;
        if (v == SP_CERT_NONE || (!must && g->birthday(g->arg, *h) + g->birthday(g->arg, v) > c->sum_birthday)) {
            memcpy(out + olen, land, lens[i] * sizeof *land);
            olen += lens[i];
        } else if ((*h = g->fold(g->arg, land, lens[i], *h, v)) == SP_CERT_NONE) {
            return -1;
        }
    }
    return (long)olen;
}

const sp_tok *sp_cert_fact(const sp_cert *c, size_t i, size_t *len)
{
    assert(i < c->facts.n);
    *len = c->facts.len[i] - (c->play == SP_CERT_MISERE ? 2 : 0);
    return c->facts.tok + c->facts.off[i];
}

long sp_cert_find(const sp_cert *c, const sp_tok *key, size_t len, uint32_t k)
{
    sp_tok buf[SP_KEY_MAX + 2];
    size_t n = fact_key(c, key, len, k, buf);
    return n ? sp_children_find(&c->facts, buf, n) : -1;
}

long sp_cert_add(sp_cert *c, const sp_tok *key, size_t len, uint32_t k)
{
    sp_tok buf[SP_KEY_MAX + 2];
    size_t n = fact_key(c, key, len, k, buf);
    long at = n ? sp_children_find(&c->facts, buf, n) : -1;
    if (at >= 0)
        return at;
    if (!n || sp_children_add(&c->facts, buf, n) < 0 || sp_grow((void **)&c->k, &c->k_cap, c->facts.n, sizeof *c->k))
        return -1;
    c->k[c->facts.n - 1] = k;
    return (long)c->facts.n - 1;
}

long sp_cert_add_game(sp_cert *c, const uint32_t *opts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (opts[i] >= c->ngames)
            return -1;
    if (sp_grow((void **)&c->game_first, &c->games_cap, c->ngames + 2, sizeof *c->game_first) ||
        sp_grow((void **)&c->game_opts, &c->opts_cap, c->opts_len + n, sizeof *c->game_opts))
        return -1;
    if (n)
        memcpy(c->game_opts + c->opts_len, opts, n * sizeof *opts);
    c->opts_len += n;
    c->game_first[++c->ngames] = (uint32_t)c->opts_len;
    return (long)c->ngames - 1;
}

long sp_cert_find_land(const sp_cert *c, const sp_tok *land, size_t len)
{
    return sp_children_find(&c->lands, land, len);
}

long sp_cert_add_land(sp_cert *c, const sp_tok *land, size_t len, uint32_t g)
{
    long at = sp_cert_find_land(c, land, len);
    if (at >= 0)
        return at;
    if (sp_children_add(&c->lands, land, len) < 0 ||
        sp_grow((void **)&c->land_game, &c->land_cap, c->lands.n, sizeof *c->land_game))
        return -1;
    c->land_game[c->lands.n - 1] = g;
    return (long)c->lands.n - 1;
}
