/* landgames.c: misère land games on disk (landgames.h): the payload of a chunk, written from the
 * solver's stores and read back into them, through a mapping of game ids both ways. */
#include "landgames.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "keylist.h"
#include "store.h"

#define NOT_IN UINT32_MAX

void sp_landgames_init(sp_landgames *lg)
{
    memset(lg, 0, sizeof *lg);
}

void sp_landgames_free(sp_landgames *lg)
{
    free(lg->file_of);
    free(lg->solver_of);
    memset(lg, 0, sizeof *lg);
}

/* Room in file_of for solver id g, new slots not in the file. */
static int room_for(sp_landgames *lg, uint32_t g)
{
    size_t had = lg->file_cap;
    if (sp_grow((void **)&lg->file_of, &lg->file_cap, (size_t)g + 1, sizeof *lg->file_of))
        return -1;
    for (size_t i = had; i < lg->file_cap; i++)
        lg->file_of[i] = NOT_IN;
    return 0;
}

/* Numbers game g (solver id) and, first, its options that the file lacks, appending each to b (k,
 * then its options' numbers); `added` lists the ids numbered, for undoing a save that fails. */
static int number_game(sp_landgames *lg, sp_solver *s, uint32_t g, sp_buf *b, uint32_t *next, uint32_t **added,
                       size_t *nadded, size_t *cap)
{
    if (room_for(lg, g))
        return -1;
    if (lg->file_of[g] != NOT_IN)
        return 0;
    size_t n;
    uint32_t *opts = sp_solver_game_options(s, g, &n);
    int rc = opts ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = number_game(lg, s, opts[i], b, next, added, nadded, cap);
    if (rc == 0)
        rc = sp_grow((void **)added, cap, *nadded + 1, sizeof **added);
    if (rc == 0) {
        sp_buf_u32(b, (uint32_t)n);
        for (size_t i = 0; i < n; i++)
            sp_buf_u32(b, lg->file_of[opts[i]]);
        lg->file_of[g] = (*next)++;
        (*added)[(*nadded)++] = g;
    }
    free(opts);
    return rc ? -1 : 0;
}

/* ---------------------------------------------------------------- saving */

/* What one save numbers: the games new to the file, in b, and the solver ids numbered, for undoing
 * a save that fails. */
typedef struct numbering {
    sp_buf games;
    uint32_t next, *added;
    size_t nadded, cap;
} numbering;

/* Numbers the game of each entry of rs and sets its value to that number. */
static int number_values(sp_landgames *lg, sp_solver *s, sp_keylist_refs *rs, numbering *nb)
{
    for (size_t i = 0; i < rs->n; i++) {
        if (number_game(lg, s, rs->v[i].value, &nb->games, &nb->next, &nb->added, &nb->nadded, &nb->cap))
            return -1;
        rs->v[i].value = lg->file_of[rs->v[i].value];
    }
    return 0;
}

/* Appends a land-games chunk: the games numbered, then the lands of nl. */
static int append_games(sp_landgames *lg, const numbering *nb, const sp_keylist_refs *nl, const char *path,
                        char *err, size_t errcap)
{
    if (nl->n == 0 && nb->next == lg->games)
        return 0;
    sp_buf b = {0};
    sp_buf_u32(&b, lg->games);
    sp_buf_u32(&b, nb->next - lg->games);
    sp_buf_put(&b, nb->games.data, nb->games.len);
    sp_keylist_put_sorted(&b, nl->v, nl->n);
    int rc = b.failed || nb->games.failed ? sp_store_fail(err, errcap, "%s: out of memory", path)
                                          : sp_chunks_append(path, SP_CHUNKS_LAND_GAMES, b.data, b.len, nl->n, NULL,
                                                             err, errcap);
    sp_buf_free(&b);
    return rc ? -1 : 0;
}

/* Appends a chunk of lost positions (values numbered already). */
static int append_lost(const sp_keylist_refs *lost, const char *path, char *err, size_t errcap)
{
    if (lost->n == 0)
        return 0;
    sp_buf b = {0};
    sp_keylist_put_sorted(&b, lost->v, lost->n);
    int rc = b.failed ? sp_store_fail(err, errcap, "%s: out of memory", path)
                      : sp_chunks_append(path, SP_CHUNKS_LOST, b.data, b.len, lost->n, NULL, err, errcap);
    sp_buf_free(&b);
    return rc ? -1 : 0;
}

int sp_landgames_save(sp_landgames *lg, sp_solver *s, const char *path, const char *lost_path, char *err,
                      size_t errcap)
{
    uint64_t now = sp_solver_mark(s, SP_KEPT_LAND_GAMES), lost_now = sp_solver_mark(s, SP_KEPT_LOST);
    sp_keylist_refs nl = {0}, lost = {0};
    numbering nb = {.next = lg->games};
    int rc = sp_solver_each(s, SP_KEPT_LAND_GAMES, lg->saved, now, sp_keylist_refs_add, &nl) ||
                     (lost_path && sp_solver_each(s, SP_KEPT_LOST, lg->lost_saved, lost_now, sp_keylist_refs_add, &lost)) ||
                     number_values(lg, s, &nl, &nb) || number_values(lg, s, &lost, &nb)
                 ? sp_store_fail(err, errcap, "%s: out of memory", path)
                 : append_games(lg, &nb, &nl, path, err, errcap);
    if (rc) { /* the file did not take them: they are not in it */
        for (size_t i = 0; i < nb.nadded; i++)
            lg->file_of[nb.added[i]] = NOT_IN;
    } else {
        lg->games = nb.next, lg->saved = now;
        rc = append_lost(&lost, lost_path, err, errcap); /* its games are in the file now, used or not */
        if (rc == 0 && lost_path)
            lg->lost_saved = lost_now;
    }
    sp_buf_free(&nb.games);
    free(nb.added);
    free(nl.v);
    free(lost.v);
    return rc;
}

/* ---------------------------------------------------------------- reading */

typedef struct reading {
    sp_landgames *lg;
    sp_solver *s;
    uint32_t *opts;
    size_t opts_cap;
    bool full;
} reading;

/* Game number i of the file, from its options' numbers (below i). */
static int read_game(reading *rd, sp_reader *r, uint32_t i)
{
    sp_landgames *lg = rd->lg;
    uint32_t k = sp_read_u32(r);
    if (r->failed || k > (r->len - r->at) / 4 || sp_grow((void **)&rd->opts, &rd->opts_cap, (size_t)k + 1, 4) ||
        sp_grow((void **)&lg->solver_of, &lg->solver_cap, (size_t)i + 1, sizeof *lg->solver_of))
        return -1;
    bool none = false;
    for (uint32_t j = 0; j < k; j++) {
        uint32_t o = sp_read_u32(r);
        if (r->failed || o >= i)
            return -1;
        rd->opts[j] = lg->solver_of[o];
        none |= rd->opts[j] == SP_GAME_NONE;
    }
    uint32_t g = none ? SP_GAME_NONE : sp_solver_game_make(rd->s, rd->opts, k);
    lg->solver_of[i] = g;
    rd->full |= g == SP_GAME_NONE;
    if (g != SP_GAME_NONE) {
        if (room_for(lg, g))
            return -1;
        if (lg->file_of[g] == NOT_IN)
            lg->file_of[g] = i;
    }
    return 0;
}

typedef struct land_check {
    reading *rd;
    uint32_t games;
    sp_tok prev[SP_KEY_MAX];
    size_t prev_len;
    uint64_t n;
} land_check;

static int read_land(void *arg, const sp_tok *key, size_t len, uint32_t game)
{
    land_check *lc = arg;
    if (game >= lc->games || (lc->n && sp_key_cmp(lc->prev, lc->prev_len, key, len) >= 0))
        return -1;
    memcpy(lc->prev, key, len * sizeof *key);
    lc->prev_len = len;
    lc->n++;
    uint32_t g = lc->rd->lg->solver_of[game];
    if (g != SP_GAME_NONE && sp_solver_add_land_game(lc->rd->s, key, len, g))
        lc->rd->lg->read++;
    return 0;
}

static int read_chunk(void *arg, const void *payload, size_t len, uint64_t count)
{
    reading *rd = arg;
    sp_landgames *lg = rd->lg;
    sp_reader r = {payload, len, 0, 0};
    uint32_t first = sp_read_u32(&r), n = sp_read_u32(&r);
    if (r.failed || first != lg->games || n > UINT32_MAX - first)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        if (read_game(rd, &r, first + i))
            return -1;
    lg->games = first + n;
    land_check *lc = calloc(1, sizeof *lc);
    if (!lc)
        return -1;
    lc->rd = rd;
    lc->games = lg->games;
    int rc = sp_keylist_each((const uint8_t *)payload + r.at, len - r.at, true, read_land, lc);
    if (rc == 0 && lc->n != count)
        rc = -1;
    free(lc);
    return rc ? -1 : 0;
}

int sp_landgames_read(sp_landgames *lg, sp_solver *s, const char *path, sp_chunks_info *info, char *err,
                      size_t errcap)
{
    reading rd = {lg, s, NULL, 0, false};
    int rc = sp_chunks_read_payloads(path, SP_CHUNKS_LAND_GAMES, read_chunk, &rd, info, err, errcap);
    free(rd.opts);
    lg->saved = sp_solver_mark(s, SP_KEPT_LAND_GAMES);
    lg->lost_saved = sp_solver_mark(s, SP_KEPT_LOST);
    return rc ? -1 : 0;
}

typedef struct lost_reading {
    sp_landgames *lg;
    sp_solver *s;
} lost_reading;

static int read_lost(void *arg, const sp_tok *key, size_t len, uint32_t game)
{
    lost_reading *lr = arg;
    if (game >= lr->lg->games || len == 0 || sp_key_lands(key, len, NULL, NULL, 0) == 0)
        return -1;
    uint32_t g = lr->lg->solver_of[game];
    if (g != SP_GAME_NONE && sp_solver_add_lost(lr->s, key, len, g))
        lr->lg->lost_read++;
    return 0;
}

int sp_landgames_read_lost(sp_landgames *lg, sp_solver *s, const char *path, sp_chunks_info *info, char *err,
                           size_t errcap)
{
    lost_reading lr = {lg, s};
    int rc = sp_chunks_read(path, SP_CHUNKS_LOST, read_lost, &lr, info, err, errcap);
    lg->lost_saved = sp_solver_mark(s, SP_KEPT_LOST);
    return rc ? -1 : 0;
}
