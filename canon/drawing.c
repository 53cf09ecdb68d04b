/* drawing.c: the whole drawing of a game as a rotation system (drawing.h): playing a move into two
 * corners, the walks and faces, the labelled projection, and the replay that keeps every drawing
 * whose projection the labelled moves (sp_lab_play) allow, with the choice that made each. */
#include "drawing.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

#define MAX_READINGS 64 /* as replay.h's SP_REPLAY_MAX_READINGS: a record allowing more fails there */
#define MAX_KIDS 16     /* labelled drawings of one move (labelled.c makes at most 8) */

static unsigned walk_next(const sp_draw *d, unsigned e) { return d->ccw[e ^ 1u]; }

static void draw_start(sp_draw *d, unsigned n)
{
    memset(d, 0, sizeof *d);
    d->nspot = (uint16_t)n;
    d->nface = 1;
}

void sp_draw_to_lab(const sp_draw *d, bool keep_dead, sp_lab *out)
{
    bool seen[SP_DRAW_MAX_DARTS] = {false};
    out->nspot = d->nspot;
    memcpy(out->degree, d->degree, sizeof out->degree);
    out->nocc = out->nbnd = out->nreg = 0;
    for (unsigned f = 0; f < d->nface; f++) {
        unsigned b0 = out->nbnd;
        for (unsigned e = 0; e < d->ndart; e++) {
            if (d->face[e] != f || seen[e])
                continue;
            unsigned o0 = out->nocc;
            bool live = false;
            for (unsigned x = e; !seen[x]; x = walk_next(d, x)) {
                seen[x] = true;
                unsigned s = sp_draw_to(d, x);
                out->occ[out->nocc++] = (uint16_t)s;
                live |= d->degree[s] < 3;
            }
            if (live || keep_dead)
                out->bend[out->nbnd++] = out->nocc;
            else
                out->nocc = (uint16_t)o0;
        }
        for (unsigned s = 1; s <= d->nspot; s++) {
            if (d->degree[s] == 0 && d->lone_face[s] == f) {
                out->occ[out->nocc++] = (uint16_t)s;
                out->bend[out->nbnd++] = out->nocc;
            }
        }
        if (out->nbnd > b0)
            out->rend[out->nreg++] = out->nbnd;
    }
}

/* ---------------------------------------------------------------- one move */

/* Where a move is drawn: the corners at f and h, each named by the dart arriving there along the
 * walk (SP_DRAW_NONE at a lone spot), and for a split the side (0: the new face through f->g, 1: the
 * one through h->g) that gets the walks holding spots of [L]. */
typedef struct choice {
    uint16_t cf, ch;
    uint8_t lside;
} choice;

typedef struct move {
    unsigned f, g, h;
    bool listed[SP_LAB_MAX_SPOTS + 1];
} move;

static bool on_walk(const sp_draw *d, unsigned start, unsigned e)
{
    unsigned x = start;
    do {
        if (x == e)
            return true;
        x = walk_next(d, x);
    } while (x != start);
    return false;
}

static void set_walk_face(sp_draw *d, unsigned start, unsigned face)
{
    unsigned x = start;
    do {
        d->face[x] = (uint16_t)face;
        x = walk_next(d, x);
    } while (x != start);
}

/* Whether the walk through dart e goes to the side of [L]: it holds a live spot of L, or, when all
 * its spots are dead, any spot of L. */
static bool walk_to_list(const sp_draw *d, const move *m, unsigned e)
{
    bool live = false, live_listed = false, listed = false;
    unsigned x = e;
    do {
        unsigned s = sp_draw_to(d, x);
        live |= d->degree[s] < 3;
        live_listed |= m->listed[s] && d->degree[s] < 3;
        listed |= m->listed[s];
        x = walk_next(d, x);
    } while (x != e);
    return live ? live_listed : listed;
}

/* Puts dart e (from v) into the corner after the arriving dart `corner`, or alone at a lone spot. */
static void insert(sp_draw *d, unsigned e, unsigned corner)
{
    if (corner == SP_DRAW_NONE) {
        d->ccw[e] = (uint16_t)e;
        return;
    }
    unsigned t = corner ^ 1u;
    d->ccw[e] = d->ccw[t];
    d->ccw[t] = (uint16_t)e;
}

/* The walks of face F in `in` other than the ones through the move's corners go to their sides. */
static void place_other_walks(const sp_draw *in, sp_draw *out, const move *m, const choice *c, unsigned F,
                              unsigned F2)
{
    bool done[SP_DRAW_MAX_DARTS] = {false};
    for (unsigned e = 0; e < in->ndart; e++) {
        if (in->face[e] != F || done[e])
            continue;
        bool touched = (c->cf != SP_DRAW_NONE && on_walk(in, c->cf, e)) || (c->ch != SP_DRAW_NONE && on_walk(in, c->ch, e));
        bool side = walk_to_list(in, m, e) ? c->lside : !c->lside;
        unsigned x = e;
        do {
            done[x] = true;
            if (!touched)
                out->face[x] = (uint16_t)(side ? F2 : F);
            x = walk_next(in, x);
        } while (x != e);
    }
    for (unsigned s = 1; s <= in->nspot; s++)
        if (in->degree[s] == 0 && in->lone_face[s] == F && s != m->f)
            out->lone_face[s] = (uint16_t)((m->listed[s] ? c->lside : !c->lside) ? F2 : F);
}

/* Corners (darts and lone spots) in face f. */
static unsigned face_size(const sp_draw *d, unsigned f)
{
    unsigned n = 0;
    for (unsigned e = 0; e < d->ndart; e++)
        n += d->face[e] == f;
    for (unsigned s = 1; s <= d->nspot; s++)
        n += d->degree[s] == 0 && d->lone_face[s] == f;
    return n;
}

static bool lists_live(const sp_draw *d, const move *m)
{
    for (unsigned s = 1; s <= d->nspot; s++)
        if (m->listed[s] && d->degree[s] < 3)
            return true;
    return false;
}

/* Plays move m into the corners of c: out becomes the drawing after it (out != in). */
static void apply(const sp_draw *in, sp_draw *out, const move *m, const choice *c)
{
    unsigned f = m->f, h = m->h, g = m->g, F = c->cf != SP_DRAW_NONE ? in->face[c->cf] : in->lone_face[f];
    unsigned ef = in->ndart, eh = ef + 2;
    assert(g == in->nspot + 1u && eh + 1 < SP_DRAW_MAX_DARTS);
    *out = *in;
    out->ndart = (uint16_t)(ef + 4);
    out->nspot = (uint16_t)g;
    out->from[ef] = (uint16_t)f, out->from[ef ^ 1] = (uint16_t)g;
    out->from[eh] = (uint16_t)h, out->from[eh ^ 1] = (uint16_t)g;
    out->ccw[ef ^ 1] = (uint16_t)(eh ^ 1), out->ccw[eh ^ 1] = (uint16_t)(ef ^ 1);
    insert(out, ef, c->cf);
    if (f == h) { /* a loop leaves and comes back through one corner */
        out->ccw[eh] = out->ccw[ef];
        out->ccw[ef] = (uint16_t)eh;
    } else {
        insert(out, eh, c->ch);
    }
    out->degree[f]++, out->degree[h]++, out->degree[g] = 2;
    out->lone_face[g] = 0;
    set_walk_face(out, ef, F);
    if (on_walk(out, ef, eh))
        return; /* a merge: one face, its other walks stay */
    unsigned F2 = out->nface++;
    set_walk_face(out, eh, F2);
    place_other_walks(in, out, m, c, F, F2);
    if (F == in->outer) {
        if (lists_live(in, m))
            out->outer = (uint16_t)(c->lside ? F : F2);
        else
            out->outer = (uint16_t)(face_size(out, F2) > face_size(out, F) ? F2 : F);
    }
}

/* ---------------------------------------------------------------- the replay */

typedef struct node {
    uint32_t parent;
    choice c;
} node;

struct sp_draw_replay {
    unsigned spots;
    size_t nmoves;
    move *moves;
    node *nodes;
    size_t nnode, node_cap;
    size_t *step_off; /* the drawings of step k: nodes[step_off[k] .. step_off[k + 1]) */
    size_t nsteps;
    bool *alive;      /* leads to a drawing of the last step */
};

typedef struct scratch {
    sp_draw cur[MAX_READINGS], next[MAX_READINGS], cand;
    sp_lab full[MAX_READINGS], kids[MAX_KIDS], lab; /* full: the labelled positions of next */
    size_t ncur, nnext, nkids;
    uint32_t cur_node[MAX_READINGS];
} scratch;

static int keep_kid(void *arg, const sp_lab *child)
{
    scratch *s = arg;
    if (s->nkids < MAX_KIDS)
        s->kids[s->nkids++] = *child;
    return 0;
}

static bool fits_a_kid(scratch *s, const sp_draw *d)
{
    sp_draw_to_lab(d, false, &s->lab);
    for (size_t i = 0; i < s->nkids; i++)
        if (sp_lab_same(&s->lab, &s->kids[i], false))
            return true;
    return false;
}

static int add_node(sp_draw_replay *r, uint32_t parent, const choice *c)
{
    if (sp_grow((void **)&r->nodes, &r->node_cap, r->nnode + 1, sizeof *r->nodes))
        return -1;
    r->nodes[r->nnode++] = (node){parent, *c};
    return 0;
}

/* Keeps the candidate in s->cand unless one with the same labelled position is already kept: drawings
 * that differ in their dead parts only are one reading of the record. */
static int keep(sp_draw_replay *r, scratch *s, uint32_t parent, const choice *c)
{
    if (s->nnext >= MAX_READINGS)
        return 0;
    sp_draw_to_lab(&s->cand, false, &s->full[s->nnext]);
    for (size_t i = 0; i < s->nnext; i++)
        if (sp_lab_same(&s->full[i], &s->full[s->nnext], false))
            return 0;
    s->next[s->nnext++] = s->cand;
    return add_node(r, parent, c);
}

static unsigned corners_of(const sp_draw *d, unsigned v, uint16_t *out)
{
    if (d->degree[v] == 0) {
        out[0] = SP_DRAW_NONE;
        return 1;
    }
    unsigned n = 0;
    for (unsigned e = 0; e < d->ndart && n < 3; e++)
        if (sp_draw_to(d, e) == v)
            out[n++] = (uint16_t)e;
    return n;
}

static unsigned corner_face(const sp_draw *d, unsigned v, unsigned corner)
{
    return corner == SP_DRAW_NONE ? d->lone_face[v] : d->face[corner];
}

/* Every drawing of move m on drawing j of the current step whose projection sp_lab_play allows. */
static int play_on(sp_draw_replay *r, scratch *s, const move *m, const sp_lab_move *lm, size_t j)
{
    const sp_draw *d = &s->cur[j];
    sp_draw_to_lab(d, false, &s->lab);
    s->nkids = 0;
    if (sp_lab_play(&s->lab, lm, keep_kid, s) != SP_LAB_FITS)
        return 0;
    uint16_t cf[3], ch[3];
    unsigned nf = corners_of(d, m->f, cf), nh = corners_of(d, m->h, ch);
    for (unsigned a = 0; a < nf; a++) {
        for (unsigned b = 0; b < nh; b++) {
            if (corner_face(d, m->f, cf[a]) != corner_face(d, m->h, ch[b]) || (m->f == m->h && a != b))
                continue;
            bool split = m->f == m->h || (cf[a] != SP_DRAW_NONE && ch[b] != SP_DRAW_NONE && on_walk(d, cf[a], ch[b]));
            for (unsigned side = 0; side < (split ? 2u : 1u); side++) {
                choice c = {cf[a], ch[b], (uint8_t)side};
                apply(d, &s->cand, m, &c);
                if (fits_a_kid(s, &s->cand) && keep(r, s, s->cur_node[j], &c))
                    return -1;
            }
        }
    }
    return 0;
}

static int close_step(sp_draw_replay *r)
{
    size_t cap = r->nsteps + 2;
    size_t *p = realloc(r->step_off, cap * sizeof *p);
    if (!p)
        return -1;
    r->step_off = p;
    r->step_off[++r->nsteps] = r->nnode;
    return 0;
}

static int copy_moves(sp_draw_replay *r, const sp_record *rec)
{
    r->moves = calloc(rec->nmoves ? rec->nmoves : 1, sizeof *r->moves);
    if (!r->moves)
        return -1;
    r->nmoves = rec->nmoves;
    for (size_t i = 0; i < rec->nmoves; i++) {
        const sp_rec_move *rm = &rec->moves[i];
        move *m = &r->moves[i];
        m->f = rm->f, m->g = rm->g, m->h = rm->h;
        for (size_t k = 0; k < rm->nlist; k++)
            if (rec->list[rm->list_off + k] <= SP_LAB_MAX_SPOTS)
                m->listed[rec->list[rm->list_off + k]] = true;
    }
    return 0;
}

static int run(sp_draw_replay *r, const sp_record *rec, scratch *s)
{
    choice none = {SP_DRAW_NONE, SP_DRAW_NONE, 0};
    r->step_off = malloc(sizeof *r->step_off);
    if (!r->step_off || add_node(r, UINT32_MAX, &none))
        return -1;
    r->step_off[0] = 0;
    if (close_step(r))
        return -1;
    draw_start(&s->cur[0], rec->spots);
    s->cur_node[0] = 0;
    s->ncur = 1;
    for (size_t i = 0; i < rec->nmoves; i++) {
        const sp_rec_move *rm = &rec->moves[i];
        const unsigned *list = rm->nlist ? rec->list + rm->list_off : NULL;
        sp_lab_move lm = {rm->f, rm->g, rm->h, rm->at, rm->bang_f, rm->bang_h, rm->has_list, list, rm->nlist};
        char why[200];
        sp_draw_to_lab(&s->cur[0], false, &s->lab);
        if (sp_lab_check(&s->lab, &lm, why, sizeof why))
            break;
        s->nnext = 0;
        size_t first = r->nnode;
        for (size_t j = 0; j < s->ncur; j++)
            if (play_on(r, s, &r->moves[i], &lm, j))
                return -1;
        if (s->nnext == 0)
            break;
        memcpy(s->cur, s->next, s->nnext * sizeof *s->cur);
        for (size_t j = 0; j < s->nnext; j++)
            s->cur_node[j] = (uint32_t)(first + j);
        s->ncur = s->nnext;
        if (close_step(r))
            return -1;
    }
    return 0;
}

static void mark_alive(sp_draw_replay *r)
{
    size_t last = r->step_off[r->nsteps - 1];
    for (size_t k = 0; k < r->nnode; k++)
        r->alive[k] = k >= last;
    for (size_t k = r->nnode; k-- > 1;)
        if (r->alive[k])
            r->alive[r->nodes[k].parent] = true;
}

sp_draw_replay *sp_draw_replay_new(const sp_record *rec)
{
    sp_draw_replay *r = calloc(1, sizeof *r);
    scratch *s = malloc(sizeof *s);
    if (!r || !s || rec->spots == 0 || rec->spots > SP_LAB_MAX_START || copy_moves(r, rec) || run(r, rec, s) ||
        !(r->alive = malloc(r->nnode * sizeof *r->alive))) {
        free(s);
        sp_draw_replay_free(r);
        return NULL;
    }
    free(s);
    r->spots = rec->spots;
    mark_alive(r);
    return r;
}

void sp_draw_replay_free(sp_draw_replay *r)
{
    if (!r)
        return;
    free(r->moves);
    free(r->nodes);
    free(r->step_off);
    free(r->alive);
    free(r);
}

size_t sp_draw_replay_steps(const sp_draw_replay *r) { return r->nsteps; }

/* The drawing of node k, played again from the start along its choices. */
static void rebuild(const sp_draw_replay *r, size_t k, size_t step, sp_draw *out, sp_draw *tmp)
{
    uint32_t chain[SP_LAB_MAX_SPOTS];
    for (size_t i = step; i-- > 0; k = r->nodes[k].parent)
        chain[i] = (uint32_t)k;
    draw_start(out, r->spots);
    for (size_t i = 0; i < step; i++) {
        *tmp = *out;
        apply(tmp, out, &r->moves[i], &r->nodes[chain[i]].c);
    }
}

void sp_draw_replay_at(const sp_draw_replay *r, size_t k, sp_draw *out, size_t *classes)
{
    assert(k < r->nsteps);
    sp_draw d, tmp;
    sp_lab *lab = malloc((MAX_READINGS + 1) * sizeof *lab); /* without it, the drawing all the same */
    size_t n = 0;
    bool chosen = false;
    for (size_t i = r->step_off[k]; i < r->step_off[k + 1]; i++) {
        if (!r->alive[i] || (chosen && !lab))
            continue;
        rebuild(r, i, k, &d, &tmp);
        if (!chosen)
            *out = d;
        chosen = true;
        if (!lab)
            continue;
        sp_draw_to_lab(&d, false, &lab[n]);
        size_t j = 0;
        while (j < n && !sp_lab_same(&lab[j], &lab[n], true))
            j++;
        n += j == n;
    }
    *classes = n ? n : 1;
    free(lab);
}
