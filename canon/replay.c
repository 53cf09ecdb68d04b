/* replay.c: the replay of a record (replay.h): the readings of each step with the reading each came
 * from, their canonical keys, and the retroactive pruning of readings a later move ruled out. */
#include "replay.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"


#define NO_PARENT UINT32_MAX

typedef struct reading {
    uint32_t parent;          /* its reading at the step before, NO_PARENT at the start */
    uint32_t key_off, key_len;
    bool alive;               /* leads to a reading that survives the last replayed move */
} reading;

struct sp_replay {
    unsigned spots;
    size_t nsteps;
    size_t *step_off;         /* readings of step k: rd[step_off[k] .. step_off[k + 1]) */
    size_t step_cap;
    reading *rd;
    size_t nrd, rd_cap;
    sp_tok *tok;
    size_t ntok, tok_cap;
    sp_lab *cur, *next;       /* the readings of the last step, and the ones being made */
    size_t ncur, nnext;
    uint32_t next_parent[SP_REPLAY_MAX_READINGS]; /* index in rd of the reading each came from */
    size_t classes;
    bool legal;
    size_t error_move;
    char error[200];
    sp_tok key[SP_KEY_MAX];
};

sp_replay *sp_replay_new(void)
{
    sp_replay *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    /* one block for both arrays of readings, which swap roles after every move */
    r->cur = malloc(2 * SP_REPLAY_MAX_READINGS * sizeof *r->cur);
    if (!r->cur) {
        free(r);
        return NULL;
    }
    r->next = r->cur + SP_REPLAY_MAX_READINGS;
    return r;
}

void sp_replay_free(sp_replay *r)
{
    if (!r)
        return;
    free(r->step_off);
    free(r->rd);
    free(r->tok);
    free(r->cur < r->next ? r->cur : r->next); /* the start of the block */
    free(r);
}

/* Adds a reading to the step being built, with the key of its position. */
static int add_reading(sp_replay *r, sp_canon_ctx *ctx, const sp_lab *p, uint32_t parent)
{
    sp_pos pos;
    sp_lab_to_pos(p, &pos);
    size_t len = sp_pos_key(ctx, &pos, r->key);
    if (sp_grow((void **)&r->rd, &r->rd_cap, r->nrd + 1, sizeof *r->rd) ||
        sp_grow((void **)&r->tok, &r->tok_cap, r->ntok + len, sizeof *r->tok))
        return -1;
    memcpy(r->tok + r->ntok, r->key, len * sizeof *r->tok);
    r->rd[r->nrd++] = (reading){parent, (uint32_t)r->ntok, (uint32_t)len, true};
    r->ntok += len;
    return 0;
}

static int close_step(sp_replay *r)
{
    if (sp_grow((void **)&r->step_off, &r->step_cap, r->nsteps + 2, sizeof *r->step_off))
        return -1;
    r->step_off[++r->nsteps] = r->nrd;
    return 0;
}

static void fail(sp_replay *r, size_t move, const char *why)
{
    r->legal = false;
    r->error_move = move;
    snprintf(r->error, sizeof r->error, "%s", why);
}

/* ---------------------------------------------------------------- one move */

typedef struct collect {
    sp_replay *r;
    uint32_t parent;
    bool overflow;
} collect;

/* sp_lab_sink: keeps a drawing unless an equal one (orientation kept) is already there. */
static int collect_child(void *arg, const sp_lab *child)
{
    collect *c = arg;
    sp_replay *r = c->r;
    for (size_t i = 0; i < r->nnext; i++)
        if (sp_lab_same(&r->next[i], child, false))
            return 0;
    if (r->nnext >= SP_REPLAY_MAX_READINGS) {
        c->overflow = true;
        return 1;
    }
    r->next[r->nnext] = *child;
    r->next_parent[r->nnext++] = c->parent;
    return 0;
}

static void explain(const sp_lab_move *m, sp_lab_verdict v, char *buf, size_t cap)
{
    switch (v) {
    case SP_LAB_FITS:
    case SP_LAB_NO_REGION:
        snprintf(buf, cap, "spots %u and %u share no region", m->f, m->h);
        break;
    case SP_LAB_LIST:
        if (m->has_list && m->nlist)
            snprintf(buf, cap, "no way to draw it separates the live spots that [L] names from the others");
        else
            snprintf(buf, cap, "every way to draw it separates live spots, but no [L] says which");
        break;
    case SP_LAB_AT:
        snprintf(buf, cap, "no way to draw it puts the new spot %u in a region with spot %u", m->g, m->at);
        break;
    case SP_LAB_BANG:
        snprintf(buf, cap, "no way to draw it reaches the end marked '!' with the higher-numbered neighbour on the left");
        break;
    case SP_LAB_FULL:
        snprintf(buf, cap, "the drawing grows too large to replay");
        break;
    }
}

/* Plays move i of rec on every reading; returns -1 only when memory ran out. */
static int play_move(sp_replay *r, sp_canon_ctx *ctx, const sp_record *rec, size_t i)
{
    const sp_rec_move *rm = &rec->moves[i];
    /* a record without a list has no list array: no offset into NULL (undefined, found by fuzz_record) */
    const unsigned *list = rm->nlist ? rec->list + rm->list_off : NULL;
    sp_lab_move m = {rm->f, rm->g, rm->h, rm->at, rm->bang_f, rm->bang_h, rm->has_list, list, rm->nlist};
    char why[200];
    const char *err = sp_lab_check(&r->cur[0], &m, why, sizeof why); /* degrees agree in every reading */
    if (err) {
        fail(r, i + 1, err);
        return 0;
    }
    collect c = {r, 0, false};
    sp_lab_verdict stage = SP_LAB_FITS;
    size_t base = r->step_off[r->nsteps - 1];
    r->nnext = 0;
    for (size_t j = 0; j < r->ncur && !c.overflow; j++) {
        c.parent = (uint32_t)(base + j);
        sp_lab_verdict v = sp_lab_play(&r->cur[j], &m, collect_child, &c);
        stage = v > stage ? v : stage;
    }
    if (c.overflow) {
        snprintf(why, sizeof why, "more than %d drawings fit the record so far", SP_REPLAY_MAX_READINGS);
        fail(r, i + 1, why);
        return 0;
    }
    if (r->nnext == 0) {
        explain(&m, stage, why, sizeof why);
        fail(r, i + 1, why);
        return 0;
    }
    for (size_t k = 0; k < r->nnext; k++)
        if (add_reading(r, ctx, &r->next[k], r->next_parent[k]))
            return -1;
    sp_lab *t = r->cur;
    r->cur = r->next;
    r->next = t;
    r->ncur = r->nnext;
    return close_step(r);
}

/* Keeps alive only the readings that lead to one of the last step (parents come first in rd). */
static void prune(sp_replay *r)
{
    size_t last = r->nsteps ? r->step_off[r->nsteps - 1] : 0;
    for (size_t k = 0; k < r->nrd; k++)
        r->rd[k].alive = k >= last;
    for (size_t k = r->nrd; k-- > 0;)
        if (r->rd[k].alive && r->rd[k].parent != NO_PARENT)
            r->rd[r->rd[k].parent].alive = true;
}

static size_t count_classes(const sp_replay *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->ncur; i++) {
        size_t j = 0;
        while (j < i && !sp_lab_same(&r->cur[j], &r->cur[i], true))
            j++;
        n += j == i;
    }
    return n;
}

/* ---------------------------------------------------------------- public */

int sp_replay_run(sp_replay *r, const sp_record *rec, sp_canon_ctx *ctx)
{
    r->nsteps = r->nrd = r->ntok = r->ncur = r->nnext = r->classes = 0;
    r->legal = true;
    r->error_move = 0;
    r->error[0] = '\0';
    r->spots = rec->spots;
    if (sp_grow((void **)&r->step_off, &r->step_cap, 1, sizeof *r->step_off))
        return -1;
    r->step_off[0] = 0;
    if (!sp_lab_start(&r->cur[0], rec->spots)) {
        char why[80];
        snprintf(why, sizeof why, "a record starts from 1 to %d spots, not %u", SP_LAB_MAX_START, rec->spots);
        fail(r, 0, why);
        return 0;
    }
    r->ncur = 1;
    if (add_reading(r, ctx, &r->cur[0], NO_PARENT) || close_step(r))
        return -1;
    for (size_t i = 0; i < rec->nmoves && r->legal; i++)
        if (play_move(r, ctx, rec, i))
            return -1;
    prune(r);
    r->classes = count_classes(r);
    return 0;
}

bool sp_replay_legal(const sp_replay *r) { return r->legal; }
size_t sp_replay_error_move(const sp_replay *r) { return r->error_move; }
const char *sp_replay_error(const sp_replay *r) { return r->error; }
size_t sp_replay_steps(const sp_replay *r) { return r->nsteps; }
size_t sp_replay_nreadings(const sp_replay *r) { return r->ncur; }
const sp_lab *sp_replay_reading(const sp_replay *r, size_t i) { return &r->cur[i]; }
size_t sp_replay_classes(const sp_replay *r) { return r->classes; }

unsigned sp_replay_lives(const sp_replay *r, size_t step)
{
    return 3u * r->spots - (unsigned)step;
}

/* Whether reading k of a step is alive and its key differs from every earlier alive one there. */
static bool first_of_its_key(const sp_replay *r, size_t from, size_t k)
{
    const reading *x = &r->rd[k];
    if (!x->alive)
        return false;
    for (size_t j = from; j < k; j++) {
        const reading *y = &r->rd[j];
        if (y->alive && !sp_key_cmp(r->tok + y->key_off, y->key_len, r->tok + x->key_off, x->key_len))
            return false;
    }
    return true;
}

size_t sp_replay_npos(const sp_replay *r, size_t step)
{
    size_t n = 0, from = r->step_off[step];
    for (size_t k = from; k < r->step_off[step + 1]; k++)
        n += first_of_its_key(r, from, k);
    return n;
}

const sp_tok *sp_replay_pos(const sp_replay *r, size_t step, size_t i, size_t *len)
{
    size_t from = r->step_off[step];
    for (size_t k = from; k < r->step_off[step + 1]; k++) {
        if (first_of_its_key(r, from, k) && i-- == 0) {
            *len = r->rd[k].key_len;
            return r->tok + r->rd[k].key_off;
        }
    }
    *len = 0;
    return NULL;
}
