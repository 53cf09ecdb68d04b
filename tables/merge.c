/* merge.c: fact bases from certificates (merge.h): roots, facts, and misère games matched by their
 * options through an index of dst's games (gindex.h). */
#include "merge.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gindex.h"
#include "grow.h"

/* A root of c equal to key, or NULL: its outcome is then *outcome. */
static bool find_root(const sp_cert *c, const sp_tok *key, size_t len, int *outcome)
{
    if (c->root_len == len && !memcmp(c->root, key, len * sizeof *key))
        return *outcome = c->outcome, true;
    for (size_t i = 0; i < c->nmore; i++)
        if (c->more[i].len == len && !memcmp(c->more[i].key, key, len * sizeof *key))
            return *outcome = c->more[i].outcome, true;
    return false;
}

static int merge_root(sp_cert *dst, unsigned spots, const sp_tok *key, size_t len, int outcome, char *why, size_t cap)
{
    int had;
    if (!find_root(dst, key, len, &had))
        return sp_cert_add_root(dst, spots, key, len, outcome) ? (snprintf(why, cap, "out of memory"), -1) : 0;
    if (had == outcome)
        return 0;
    snprintf(why, cap, "root 0*%u is claimed a %s here and a %s there", spots, had == SP_CERT_WIN ? "win" : "loss",
             outcome == SP_CERT_WIN ? "win" : "loss");
    return -1;
}

int sp_cert_merge_roots(sp_cert *dst, const sp_cert *src, char *why, size_t cap)
{
    if (src->root_len && merge_root(dst, src->spots, src->root, src->root_len, src->outcome, why, cap))
        return -1;
    for (size_t i = 0; i < src->nmore; i++) {
        const sp_cert_root *r = &src->more[i];
        if (merge_root(dst, r->spots, r->key, r->len, r->outcome, why, cap))
            return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- misère games */

/* dst's game with options opts (src's options already mapped to dst's games), added when absent. */
static long game_of(sp_cert *dst, sp_gindex *ix, uint32_t *opts, size_t n)
{
    long e = sp_gindex_find(ix, opts, n);
    if (e != -1)
        return e;
    long g = sp_cert_add_game(dst, opts, n);
    return g < 0 || sp_gindex_add(ix, opts, n, (uint32_t)g) ? -1 : g;
}

/* map[i]: dst's game for src's game i, dst's games indexed first. */
static int map_games(sp_cert *dst, const sp_cert *src, uint32_t *map)
{
    sp_gindex ix;
    if (sp_gindex_init(&ix, dst))
        return -1;
    uint32_t *opts = NULL;
    size_t cap = 0;
    int rc = 0;
    for (uint32_t g = 0; g < src->ngames && rc == 0; g++) {
        size_t n = src->game_first[g + 1] - src->game_first[g];
        rc = sp_grow((void **)&opts, &cap, n + 1, sizeof *opts);
        for (size_t i = 0; i < n && rc == 0; i++)
            opts[i] = map[src->game_opts[src->game_first[g] + i]]; /* options precede the game */
        long to = rc ? -1 : game_of(dst, &ix, opts, n);
        rc = to < 0 ? -1 : 0;
        map[g] = (uint32_t)to;
    }
    free(opts);
    sp_gindex_free(&ix);
    return rc;
}

/* ---------------------------------------------------------------- facts */

static int merge_facts(sp_cert *dst, const sp_cert *src, const uint32_t *map, char *why, size_t cap)
{
    for (size_t i = 0; i < src->facts.n; i++) {
        size_t len;
        const sp_tok *key = sp_cert_fact(src, i, &len);
        uint32_t k = map ? map[src->k[i]] : src->k[i];
        long at = map ? -1 : sp_cert_find(dst, key, len, 0);
        if (at >= 0 && dst->k[at] != k) {
            snprintf(why, cap, "a land is claimed nimber %u here and %u there", dst->k[at], k);
            return -1;
        }
        if (at < 0 && sp_cert_add(dst, key, len, k) < 0)
            return snprintf(why, cap, "out of memory"), -1;
    }
    return 0;
}

static int merge_misere(sp_cert *dst, const sp_cert *src, char *why, size_t cap)
{
    if (dst->value_lives != src->value_lives || dst->sum_lives != src->sum_lives ||
        dst->sum_birthday != src->sum_birthday) {
        snprintf(why, cap, "misère limits differ (lives %u/%u, sums %u/%u, birthdays %u/%u)", dst->value_lives,
                 src->value_lives, dst->sum_lives, src->sum_lives, dst->sum_birthday, src->sum_birthday);
        return -1;
    }
    uint32_t *map = malloc((src->ngames + 1) * sizeof *map);
    int rc = map && map_games(dst, src, map) == 0 ? 0 : (snprintf(why, cap, "out of memory"), -1);
    for (size_t i = 0; i < src->lands.n && rc == 0; i++)
        if (sp_cert_add_land(dst, src->lands.tok + src->lands.off[i], src->lands.len[i], map[src->land_game[i]]) < 0)
            rc = (snprintf(why, cap, "out of memory"), -1);
    rc = rc ? rc : merge_facts(dst, src, map, why, cap);
    free(map);
    return rc;
}

int sp_cert_base_init(sp_cert *dst, const sp_cert *src)
{
    if (sp_cert_init(dst, src->play, src->spots, src->root, src->root_len, src->outcome))
        return -1;
    dst->value_lives = src->value_lives;
    dst->sum_lives = src->sum_lives;
    dst->sum_birthday = src->sum_birthday;
    return 0;
}

int sp_cert_merge(sp_cert *dst, const sp_cert *src, char *why, size_t cap)
{
    if (dst->play != src->play) {
        snprintf(why, cap, "a %s certificate cannot join a %s one", src->play == SP_CERT_MISERE ? "misère" : "normal",
                 dst->play == SP_CERT_MISERE ? "misère" : "normal");
        return -1;
    }
    if (sp_cert_merge_roots(dst, src, why, cap))
        return -1;
    return src->play == SP_CERT_MISERE ? merge_misere(dst, src, why, cap) : merge_facts(dst, src, NULL, why, cap);
}
