/* fuzz_record.c: libFuzzer target for the record reader and the replay (canon/record.h, replay.h):
 * any bytes are parsed as a game record; a record that parses is replayed, its moves written back in
 * normal form, and that text must parse again to the same moves. */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canonical.h"
#include "fuzz.h"
#include "record.h"
#include "replay.h"

static sp_canon_ctx *ctx;
static sp_replay *replay;

/* The record's header and moves in normal form: what sp_rec_parse must read back as the same. */
static char *normal_form(const sp_record *r)
{
    size_t cap = 64 + r->nmoves * 48 + r->nlist * 8, len = 0;
    char *text = malloc(cap);
    if (!text)
        return NULL;
    len += (size_t)snprintf(text, cap, "%u%c", r->spots, r->misere ? '-' : '+');
    for (size_t i = 0; i < r->nmoves && len < cap; i++) {
        text[len++] = ' ';
        len += sp_rec_move_text(r, i, text + len, cap - len);
    }
    if (len >= cap) {
        free(text);
        return NULL;
    }
    return text;
}

static void same_moves(const sp_record *a, const sp_record *b)
{
    assert(a->spots == b->spots && a->misere == b->misere && a->nmoves == b->nmoves);
    for (size_t i = 0; i < a->nmoves; i++) {
        const sp_rec_move *x = &a->moves[i], *y = &b->moves[i];
        assert(x->f == y->f && x->g == y->g && x->h == y->h && x->at == y->at);
        assert(x->bang_f == y->bang_f && x->bang_h == y->bang_h && x->has_list == y->has_list);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ctx) {
        ctx = sp_canon_ctx_new();
        replay = sp_replay_new();
    }
    char *text = sp_fuzz_text(data, size, 4096);
    if (!text)
        return 0;
    sp_record rec;
    sp_rec_error err;
    if (sp_rec_parse(text, &rec, &err) == 0) {
        char *again = normal_form(&rec);
        if (again) {
            sp_record rec2;
            int rc = sp_rec_parse(again, &rec2, &err);
            assert(rc == 0);
            same_moves(&rec, &rec2);
            sp_rec_free(&rec2);
            free(again);
        }
        if (rec.spots <= 30 && sp_replay_run(replay, &rec, ctx) == 0) {
            size_t steps = sp_replay_steps(replay);
            assert(steps >= 1 && steps <= rec.nmoves + 1);
            assert(sp_replay_legal(replay) == (steps == rec.nmoves + 1));
            for (size_t k = 0; k < steps; k++)
                assert(sp_replay_npos(replay, k) >= 1);
        }
    } else {
        assert(err.line >= 1 && err.column >= 1 && !strchr(err.message, '\n'));
    }
    sp_rec_free(&rec);
    free(text);
    return 0;
}
