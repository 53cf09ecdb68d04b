/* movegen.c: the moves of the string representation (movegen.h), listed as descriptors and built one
 * at a time: one region, two corners; a split when both lie on one boundary, a merge when on two.
 *
 * Corners: every symbol occurrence is a corner; so is every lone spot. Faces are written with their
 * region on the same side as the boundary they come from, so that walking a boundary in its stored
 * order and crossing the new curve keeps the new face on that side:
 *   split of boundary (x_0 .. x_{L-1}) at corners p, q:  (x_p Z x_q .. x_{p-1})  and  (x_q Z x_p .. x_{q-1})
 *   merge of boundaries at x_p and y_q:  (x_p Z y_q .. y_{q-1} y_q Z x_p .. x_{p-1})
 * where each end spot appears once per corner it now has (a degree-1 spot becomes a letter, a lone
 * spot a '1', a 1-life spot dies) and Z is the new spot. */
#include "movegen.h"

#include <stdbool.h>
#include <stdlib.h>

#include "grow.h"

/* ---------------------------------------------------------------- building one child */

enum { END_ZERO = 0, END_CORNER = 1 };

typedef struct endpoint {
    int kind;     /* a lone spot, or the corner at symbol index at */
    unsigned at;
    uint16_t as;  /* what the spot is at each of its corners after the move (SP_SYM_DEAD: gone) */
} endpoint;

typedef struct builder {
    const sp_pos *in;
    sp_pos out;
    unsigned r;            /* the region played in */
    uint16_t dead[2];      /* letters that die with the move (0: none) */
    bool spotless;         /* black-and-white sprouts: this curve gets no new spot */
} builder;

/* The symbol the new spot of the curve is written as: its letter, or nothing on a curve without one
 * (the curve's ends are then joined directly, as the drawing is). */
static uint16_t new_spot(const builder *bd, unsigned id)
{
    return bd->spotless ? (uint16_t)SP_SYM_DEAD : (uint16_t)(SP_SYM_LETTER + id);
}

static void put(builder *bd, uint16_t s)
{
    if (s != SP_SYM_DEAD && s != bd->dead[0] && s != bd->dead[1])
        bd->out.sym[bd->out.nsym++] = s;
}

/* Symbols of boundary b from boundary-relative position `from`, `count` steps, cyclically. */
static void put_walk(builder *bd, unsigned b, unsigned from, unsigned count)
{
    unsigned s0 = sp_pos_bstart(bd->in, b), n = bd->in->bend[b] - s0;
    for (unsigned k = 0; k < count; k++)
        put(bd, bd->in->sym[s0 + (from + k) % n]);
}

static void put_boundary(builder *bd, unsigned b)
{
    put_walk(bd, b, 0, bd->in->bend[b] - sp_pos_bstart(bd->in, b));
    bd->out.bend[bd->out.nbnd++] = bd->out.nsym; /* may be empty: simplification drops it */
}

static void end_boundary(builder *bd)
{
    bd->out.bend[bd->out.nbnd++] = bd->out.nsym;
}

static void end_region(builder *bd, unsigned zeros)
{
    bd->out.zeros[bd->out.nreg] = (uint16_t)zeros;
    bd->out.rend[bd->out.nreg++] = bd->out.nbnd;
}

/* Starts a child: the land's regions before r, copied with the dead letters removed. */
static void begin(builder *bd, uint16_t fresh)
{
    sp_pos_clear(&bd->out);
    bd->out.nletter = fresh;
    for (unsigned r = 0; r < bd->r; r++) {
        for (unsigned b = sp_pos_rstart(bd->in, r); b < bd->in->rend[r]; b++)
            put_boundary(bd, b);
        end_region(bd, bd->in->zeros[r]);
    }
}

/* Drops boundaries that lost every symbol (only dead spots were on them). */
static void drop_empty_boundaries(sp_pos *p)
{
    unsigned nb = 0, prev = 0;
    for (unsigned r = 0, b = 0; r < p->nreg; r++) {
        for (; b < p->rend[r]; b++) {
            if (p->bend[b] > prev)
                p->bend[nb++] = p->bend[b];
            prev = p->bend[b];
        }
        p->rend[r] = (uint16_t)nb;
    }
    p->nbnd = (uint16_t)nb;
}

/* Finishes a child: the regions after r, then hands it to the sink. */
static void finish(builder *bd)
{
    for (unsigned r = bd->r + 1; r < bd->in->nreg; r++) {
        for (unsigned b = sp_pos_rstart(bd->in, r); b < bd->in->rend[r]; b++)
            put_boundary(bd, b);
        end_region(bd, bd->in->zeros[r]);
    }
    bd->out.lend[0] = bd->out.nreg;
    bd->out.nland = 1;
    drop_empty_boundaries(&bd->out);
}

/* The other boundaries of region r (all but `skip`, which may be none) and its lone spots, split
 * between two new faces: bit i of mask sends the i-th to the first face, k lone spots go there. */
typedef struct split {
    unsigned other[SP_MAX_BNDS];
    unsigned nother;
    unsigned zeros;
} split;

static void others_of(const builder *bd, unsigned skip, unsigned zeros, split *sp)
{
    sp->nother = 0;
    sp->zeros = zeros;
    for (unsigned b = sp_pos_rstart(bd->in, bd->r); b < bd->in->rend[bd->r]; b++)
        if (b != skip)
            sp->other[sp->nother++] = b;
}

static void put_side(builder *bd, const split *sp, uint64_t mask, bool first)
{
    for (unsigned i = 0; i < sp->nother; i++)
        if (((mask >> i) & 1) == first)
            put_boundary(bd, sp->other[i]);
}

/* ---------------------------------------------------------------- the moves */

/* One move as the enumeration numbers it: its kind, its region, its corners (symbol indices), and
 * for a move that splits the region, which other boundaries (mask) and how many lone spots (k) go
 * to the first face. */
typedef enum { MV_ZERO_LOOP, MV_ZERO_ZERO, MV_ZERO_CORNER, MV_SPLIT, MV_MERGE } move_kind;

typedef struct move {
    uint64_t mask;
    uint16_t r, at1, at2, k;
    uint8_t kind;
} move;

/* A loop from a lone spot to itself around some of the other boundaries and lone spots. */
static void make_zero_loop(builder *bd, const move *mv)
{
    split sp;
    others_of(bd, UINT32_MAX, bd->in->zeros[bd->r] - 1u, &sp);
    uint16_t z = new_spot(bd, bd->in->nletter), s = (uint16_t)(SP_SYM_LETTER + bd->in->nletter + 1u);
    begin(bd, (uint16_t)(bd->in->nletter + 2));
    put(bd, s), put(bd, z), end_boundary(bd);
    put_side(bd, &sp, mv->mask, true);
    end_region(bd, mv->k);
    put(bd, s), put(bd, z), end_boundary(bd);
    put_side(bd, &sp, mv->mask, false);
    end_region(bd, sp.zeros - mv->k);
}

static void make_zero_zero(builder *bd)
{
    uint16_t z = new_spot(bd, bd->in->nletter);
    begin(bd, (uint16_t)(bd->in->nletter + 1));
    for (unsigned b = sp_pos_rstart(bd->in, bd->r); b < bd->in->rend[bd->r]; b++)
        put_boundary(bd, b);
    put(bd, SP_SYM_ONE), put(bd, z), put(bd, SP_SYM_ONE), put(bd, z), end_boundary(bd);
    end_region(bd, bd->in->zeros[bd->r] - 2u);
}

/* What a corner's spot becomes when `uses` curve ends (1 or 2) are added to it there. */
static void endpoint_after(const builder *bd, endpoint *e, unsigned uses, uint16_t fresh, uint16_t *dead)
{
    unsigned s = e->kind == END_ZERO ? 0 : bd->in->sym[e->at];
    *dead = 0;
    if (e->kind == END_ZERO)
        e->as = uses == 1 ? SP_SYM_ONE : fresh;
    else if (s == SP_SYM_ONE)
        e->as = uses == 1 ? fresh : SP_SYM_DEAD;
    else {
        e->as = SP_SYM_DEAD;
        if (sp_sym_is_letter(s))
            *dead = (uint16_t)s;
    }
}

/* Boundary index and boundary-relative position of a symbol index within region r. */
static void locate(const sp_pos *p, unsigned r, unsigned at, unsigned *b, unsigned *pos)
{
    unsigned bb = sp_pos_rstart(p, r);
    while (at >= p->bend[bb])
        bb++;
    *b = bb;
    *pos = at - sp_pos_bstart(p, bb);
}

/* A zero joined to the corner at symbol index `at` (boundaries merge). */
static void make_zero_corner(builder *bd, unsigned at)
{
    unsigned fresh = bd->in->nletter;
    uint16_t z = new_spot(bd, fresh++);
    endpoint e = {END_CORNER, at, 0};
    endpoint_after(bd, &e, 1, (uint16_t)(SP_SYM_LETTER + fresh++), &bd->dead[0]);
    unsigned b, pos;
    locate(bd->in, bd->r, at, &b, &pos);
    unsigned n = bd->in->bend[b] - sp_pos_bstart(bd->in, b);
    begin(bd, (uint16_t)fresh);
    for (unsigned o = sp_pos_rstart(bd->in, bd->r); o < bd->in->rend[bd->r]; o++)
        if (o != b)
            put_boundary(bd, o);
    put(bd, SP_SYM_ONE), put(bd, z), put(bd, e.as);
    put_walk(bd, b, pos + 1, n - 1);
    put(bd, e.as), put(bd, z), end_boundary(bd);
    end_region(bd, bd->in->zeros[bd->r] - 1u);
}

/* Two corners on two boundaries of the region (boundaries merge). */
static void make_merge(builder *bd, unsigned at1, unsigned at2)
{
    unsigned fresh = bd->in->nletter;
    uint16_t z = new_spot(bd, fresh++);
    endpoint e1 = {END_CORNER, at1, 0}, e2 = {END_CORNER, at2, 0};
    endpoint_after(bd, &e1, 1, (uint16_t)(SP_SYM_LETTER + fresh++), &bd->dead[0]);
    endpoint_after(bd, &e2, 1, (uint16_t)(SP_SYM_LETTER + fresh++), &bd->dead[1]);
    unsigned b1, p1, b2, p2;
    locate(bd->in, bd->r, at1, &b1, &p1);
    locate(bd->in, bd->r, at2, &b2, &p2);
    unsigned n1 = bd->in->bend[b1] - sp_pos_bstart(bd->in, b1), n2 = bd->in->bend[b2] - sp_pos_bstart(bd->in, b2);
    begin(bd, (uint16_t)fresh);
    for (unsigned o = sp_pos_rstart(bd->in, bd->r); o < bd->in->rend[bd->r]; o++)
        if (o != b1 && o != b2)
            put_boundary(bd, o);
    put(bd, e1.as), put(bd, z), put(bd, e2.as);
    put_walk(bd, b2, p2 + 1, n2 - 1);
    put(bd, e2.as), put(bd, z), put(bd, e1.as);
    put_walk(bd, b1, p1 + 1, n1 - 1);
    end_boundary(bd);
    end_region(bd, bd->in->zeros[bd->r]);
}

/* Two corners p < q of one boundary (or p == q, a loop at a degree-1 spot): the region splits. */
static void make_split(builder *bd, const move *mv)
{
    unsigned fresh = bd->in->nletter, at1 = mv->at1, at2 = mv->at2;
    uint16_t z = new_spot(bd, fresh++);
    bool loop = at1 == at2;
    endpoint e1 = {END_CORNER, at1, 0}, e2 = {END_CORNER, at2, 0};
    endpoint_after(bd, &e1, loop ? 2 : 1, (uint16_t)(SP_SYM_LETTER + fresh++), &bd->dead[0]);
    if (!loop)
        endpoint_after(bd, &e2, 1, (uint16_t)(SP_SYM_LETTER + fresh++), &bd->dead[1]);
    else
        e2 = e1;
    unsigned b, p, q;
    locate(bd->in, bd->r, at1, &b, &p);
    locate(bd->in, bd->r, at2, &b, &q);
    unsigned n = bd->in->bend[b] - sp_pos_bstart(bd->in, b);
    unsigned len1 = loop ? n - 1 : (p + n - q - 1) % n; /* strictly between q and p */
    unsigned len2 = loop ? 0 : q - p - 1;               /* strictly between p and q */
    split sp;
    others_of(bd, b, bd->in->zeros[bd->r], &sp);
    begin(bd, (uint16_t)fresh);
    put(bd, e1.as), put(bd, z), put(bd, e2.as);
    put_walk(bd, b, q + 1, len1);
    end_boundary(bd);
    put_side(bd, &sp, mv->mask, true);
    end_region(bd, mv->k);
    if (!loop)
        put(bd, e2.as);
    put(bd, z), put(bd, e1.as);
    put_walk(bd, b, p + 1, len2);
    end_boundary(bd);
    put_side(bd, &sp, mv->mask, false);
    end_region(bd, sp.zeros - mv->k);
}

/* Builds the child of one move into bd->out. */
static void make_move(builder *bd, const move *mv)
{
    bd->r = mv->r;
    bd->dead[0] = bd->dead[1] = 0;
    switch ((move_kind)mv->kind) {
    case MV_ZERO_LOOP: make_zero_loop(bd, mv); break;
    case MV_ZERO_ZERO: make_zero_zero(bd); break;
    case MV_ZERO_CORNER: make_zero_corner(bd, mv->at1); break;
    case MV_SPLIT: make_split(bd, mv); break;
    case MV_MERGE: make_merge(bd, mv->at1, mv->at2); break;
    }
    finish(bd);
}

/* ---------------------------------------------------------------- enumeration */

typedef struct move_list {
    move *mv;
    size_t n, cap;
    int err;
} move_list;

static void emit(move_list *ml, move_kind kind, unsigned r, unsigned at1, unsigned at2, uint64_t mask, unsigned k)
{
    if (ml->err)
        return;
    if (ml->n >= SP_SHARE_MAX || sp_grow((void **)&ml->mv, &ml->cap, ml->n + 1, sizeof *ml->mv)) {
        ml->err = -1; /* (SP_SHARE_MAX moves in one land: unreachable in any game worth solving) */
        return;
    }
    ml->mv[ml->n++] = (move){mask, (uint16_t)r, (uint16_t)at1, (uint16_t)at2, (uint16_t)k, (uint8_t)kind};
}

/* The splits at corners at1, at2: each side of the new curve takes some of the other boundaries
 * and lone spots. */
static void emit_splits(move_list *ml, const sp_pos *in, unsigned r, unsigned at1, unsigned at2)
{
    unsigned nother = in->rend[r] - sp_pos_rstart(in, r) - 1u, zeros = in->zeros[r];
    if (nother >= 63) {
        ml->err = -1; /* 2^63 moves and more: no enumeration ends */
        return;
    }
    for (uint64_t mask = 0; mask < 1ull << nother && !ml->err; mask++)
        for (unsigned k = 0; k <= zeros; k++)
            emit(ml, MV_SPLIT, r, at1, at2, mask, k);
}

/* Loops at a lone spot: the two faces are alike (s Z), so the first other boundary stays on face
 * one to halve the work (with no other boundary, k and zeros - k are one move). */
static void emit_zero_loops(move_list *ml, const sp_pos *in, unsigned r)
{
    unsigned nother = in->rend[r] - sp_pos_rstart(in, r), zeros = in->zeros[r] - 1u;
    if (nother >= 64) {
        ml->err = -1;
        return;
    }
    uint64_t nmask = nother ? 1ull << (nother - 1) : 1;
    unsigned kmax = nother ? zeros : zeros / 2;
    for (uint64_t m = 0; m < nmask && !ml->err; m++)
        for (unsigned k = 0; k <= kmax; k++)
            emit(ml, MV_ZERO_LOOP, r, 0, 0, nother ? (m << 1) | 1 : 0, k);
}

static void region_moves(move_list *ml, const sp_pos *in, unsigned r)
{
    unsigned zeros = in->zeros[r];
    unsigned b0 = sp_pos_rstart(in, r), b1 = in->rend[r];
    unsigned s0 = sp_pos_bstart(in, b0), s1 = b1 > b0 ? in->bend[b1 - 1] : s0;
    if (zeros >= 1)
        emit_zero_loops(ml, in, r);
    if (zeros >= 2)
        emit(ml, MV_ZERO_ZERO, r, 0, 0, 0, 0);
    for (unsigned i = s0; zeros >= 1 && i < s1; i++)
        emit(ml, MV_ZERO_CORNER, r, i, 0, 0, 0);
    for (unsigned b = b0; b < b1; b++) {
        unsigned bs = sp_pos_bstart(in, b), be = in->bend[b];
        for (unsigned i = bs; i < be; i++) {
            if (in->sym[i] == SP_SYM_ONE)
                emit_splits(ml, in, r, i, i);
            for (unsigned j = i + 1; j < be; j++)
                if (in->sym[i] != in->sym[j] || !sp_sym_is_letter(in->sym[i]))
                    emit_splits(ml, in, r, i, j);
        }
        for (unsigned c = b + 1; c < b1; c++)
            for (unsigned i = bs; i < be; i++)
                for (unsigned j = sp_pos_bstart(in, c); j < in->bend[c]; j++)
                    emit(ml, MV_MERGE, r, i, j, 0, 0);
    }
}

/* Every move of p, numbered in order. */
static int list_moves(const sp_pos *p, move_list *ml)
{
    for (unsigned r = 0; r < p->nreg && !ml->err; r++)
        if (sp_pos_region_lives(p, r) >= 2)
            region_moves(ml, p, r);
    return ml->err;
}

/* The moves this thread takes; under black-and-white rules each listed move m is made twice, as move
 * 2m with its new spot and as 2m + 1 without (no part: those rules are not shared between threads). */
static int moves_part(const sp_pos *p, sp_move_rules rules, const sp_move_part *part, uint32_t from,
                      sp_move_sink sink, void *arg)
{
    builder *bd = malloc(sizeof *bd);
    move_list ml = {0};
    int rc = !bd || list_moves(p, &ml) ? -1 : 0;
    unsigned ways = rules == SP_MOVES_BW ? 2 : 1;
    uint32_t next = from, m;
    if (bd)
        bd->in = p;
    while (rc == 0) {
        sp_take got = sp_move_part_take(part, (uint32_t)ml.n, &next, &m);
        if (got != SP_TAKEN) {
            rc = got == SP_ENDED;
            break;
        }
        for (unsigned w = 0; w < ways && rc == 0; w++) {
            bd->spotless = w == 1;
            make_move(bd, &ml.mv[m]);
            rc = sink(arg, &bd->out, m * ways + w);
            rc = rc < 0 ? -1 : rc > 0;
        }
    }
    free(ml.mv);
    free(bd);
    return rc;
}

int sp_pos_moves(const sp_pos *p, sp_move_sink sink, void *arg)
{
    return moves_part(p, SP_MOVES_SPROUTS, NULL, 0, sink, arg);
}

int sp_pos_moves_part(const sp_pos *p, const sp_move_part *part, uint32_t from, sp_move_sink sink, void *arg)
{
    return moves_part(p, SP_MOVES_SPROUTS, part, from, sink, arg);
}

int sp_pos_moves_rules(const sp_pos *p, sp_move_rules rules, sp_move_sink sink, void *arg)
{
    return moves_part(p, rules, NULL, 0, sink, arg);
}
