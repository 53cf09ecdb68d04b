/* moves.c: the moves of the string representation (one region, two corners; a split when both lie
 * on one boundary, a merge when they lie on two) and the child list that collects their results.
 *
 * Corners: every symbol occurrence is a corner; so is every lone spot. Faces are written with their
 * region on the same side as the boundary they come from, so that walking a boundary in its stored
 * order and crossing the new curve keeps the new face on that side:
 *   split of boundary (x_0 .. x_{L-1}) at corners p, q:  (x_p Z x_q .. x_{p-1})  and  (x_q Z x_p .. x_{q-1})
 *   merge of boundaries at x_p and y_q:  (x_p Z y_q .. y_{q-1} y_q Z x_p .. x_{p-1})
 * where each end spot appears once per corner it now has (a degree-1 spot becomes a letter, a lone
 * spot a '1', a 1-life spot dies) and Z is the new spot. */
#include "moves.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "landcache.h"
#include "rng.h"
#include "simplify.h"

/* ---------------------------------------------------------------- child list */

void sp_children_init(sp_children *c)
{
    memset(c, 0, sizeof *c);
}

void sp_children_free(sp_children *c)
{
    free(c->off);
    free(c->len);
    free(c->tok);
    free(c->slot);
    free(c->hash);
    free(c->first);
    sp_children_init(c);
}

void sp_children_clear(sp_children *c)
{
    c->n = 0;
    c->tok_len = 0;
    if (c->slot)
        memset(c->slot, 0xff, sizeof(uint32_t) * c->slot_cap);
}

static int rehash(sp_children *c, size_t want)
{
    free(c->slot);
    c->slot = malloc(sizeof(uint32_t) * want);
    if (!c->slot)
        return -1;
    c->slot_cap = want;
    memset(c->slot, 0xff, sizeof(uint32_t) * want);
    for (size_t i = 0; i < c->n; i++) {
        size_t h = c->hash[i] & (want - 1);
        while (c->slot[h] != UINT32_MAX)
            h = (h + 1) & (want - 1);
        c->slot[h] = (uint32_t)i;
    }
    return 0;
}

/* The slot of key: where it is, or the empty slot where it would go. */
static size_t find_slot(const sp_children *c, const sp_tok *key, size_t len, uint64_t h)
{
    size_t i = h & (c->slot_cap - 1);
    for (; c->slot[i] != UINT32_MAX; i = (i + 1) & (c->slot_cap - 1)) {
        uint32_t k = c->slot[i];
        if (c->hash[k] == h && sp_key_cmp(c->tok + c->off[k], c->len[k], key, len) == 0)
            break;
    }
    return i;
}

long sp_children_find(const sp_children *c, const sp_tok *key, size_t len)
{
    if (!c->slot_cap)
        return -1;
    size_t i = find_slot(c, key, len, sp_key_hash64(key, len));
    return c->slot[i] == UINT32_MAX ? -1 : (long)c->slot[i];
}

/* sp_children_add(), with *at the index of the key in the list (added or there already). */
static int children_add_at(sp_children *c, const sp_tok *key, size_t len, size_t *at)
{
    if (c->slot_cap < 2 * (c->n + 1) && rehash(c, c->slot_cap ? 2 * c->slot_cap : 256))
        return -1;
    uint64_t h = sp_key_hash64(key, len);
    size_t i = find_slot(c, key, len, h);
    if (c->slot[i] != UINT32_MAX) {
        *at = c->slot[i];
        return 0;
    }
    size_t cap = c->cap;
    if (sp_grow((void **)&c->off, &cap, c->n + 1, sizeof(uint32_t)))
        return -1;
    cap = c->cap;
    if (sp_grow((void **)&c->len, &cap, c->n + 1, sizeof(uint32_t)))
        return -1;
    if (sp_grow((void **)&c->hash, &c->cap, c->n + 1, sizeof(uint64_t)))
        return -1;
    if (sp_grow((void **)&c->tok, &c->tok_cap, c->tok_len + len, sizeof(sp_tok)))
        return -1;
    if (len) /* the empty key (no move left) may come first, while tok is still NULL */
        memcpy(c->tok + c->tok_len, key, sizeof(sp_tok) * len);
    c->off[c->n] = (uint32_t)c->tok_len;
    c->len[c->n] = (uint32_t)len;
    c->hash[c->n] = h;
    c->slot[i] = (uint32_t)c->n;
    c->tok_len += len;
    *at = c->n++;
    return 1;
}

int sp_children_add(sp_children *c, const sp_tok *key, size_t len)
{
    size_t at;
    return children_add_at(c, key, len, &at);
}

/* ---------------------------------------------------------------- the share of a round */

/* Parts going up take the least move number nobody has taken (state), parts going down the greatest
 * (back counts those taken from the top), so that each thread makes moves one after the other in
 * the enumeration's order, or in its reverse: a move made right after its neighbour in the same
 * thread is cheaper (its child is much like the last: sprouts-bench moves), and the two ends
 * together come to a child that decides the node sooner than taking every other move from the
 * start does (README). The two counters are read apart, so where the ends meet a move may be taken
 * from both (made twice: harmless, its child is the same); none is ever left out. */
#define STOPPED ((uint64_t)1 << 31)
#define NEXT (STOPPED - 1)
#define ROUND_OF(x) ((uint32_t)((x) >> 32))

enum { TAKEN = 0, EXHAUSTED = 1, ENDED = 2 };

void sp_move_share_start(sp_move_share *s, uint32_t round, uint32_t from)
{
    atomic_store_explicit(&s->back, (uint64_t)round << 32, memory_order_relaxed);
    atomic_store_explicit(&s->state, (uint64_t)round << 32 | (from < NEXT ? from : NEXT), memory_order_release);
}

uint32_t sp_move_share_next(const sp_move_share *s)
{
    return (uint32_t)(atomic_load_explicit(&s->state, memory_order_acquire) & NEXT);
}

void sp_move_share_stop(sp_move_share *s, uint32_t round)
{
    uint64_t st = atomic_load_explicit(&s->state, memory_order_relaxed);
    while (ROUND_OF(st) == round && !(st & STOPPED) &&
           !atomic_compare_exchange_weak_explicit(&s->state, &st, st | STOPPED, memory_order_release,
                                                  memory_order_relaxed))
        ;
}

/* How many moves the part's round has taken from the top (set before state, so a part that saw its
 * round in state sees it here, or a later one: then its round has ended). False once it has. */
static bool taken_from_top(const sp_move_part *part, uint64_t *bk)
{
    *bk = atomic_load_explicit(&part->share->back, memory_order_acquire);
    return ROUND_OF(*bk) == part->round;
}

/* Whether the moves taken from the front (state) and from the top (bk) are all n of them. */
static bool all_taken(uint32_t n, uint64_t st, uint64_t bk)
{
    return (st & NEXT) + (uint32_t)bk >= n;
}

/* The next move of n for a part: TAKEN (*m set), EXHAUSTED (none left) or ENDED (the round was
 * stopped, or has given way to the next, before they ran out). */
static int take_up(const sp_move_part *part, uint32_t n, uint32_t *m)
{
    sp_move_share *s = part->share;
    uint64_t st = atomic_load_explicit(&s->state, memory_order_acquire), bk;
    do {
        if (ROUND_OF(st) != part->round || (st & STOPPED) || !taken_from_top(part, &bk))
            return ENDED;
        if (all_taken(n, st, bk))
            return EXHAUSTED;
    } while (!atomic_compare_exchange_weak_explicit(&s->state, &st, st + 1, memory_order_acquire,
                                                    memory_order_acquire));
    *m = (uint32_t)(st & NEXT);
    return TAKEN;
}

static int take_down(const sp_move_part *part, uint32_t n, uint32_t *m)
{
    sp_move_share *s = part->share;
    uint64_t st = atomic_load_explicit(&s->state, memory_order_acquire), bk;
    if (ROUND_OF(st) != part->round || (st & STOPPED) || !taken_from_top(part, &bk))
        return ENDED;
    do {
        if (ROUND_OF(bk) != part->round)
            return ENDED;
        if (all_taken(n, st, bk))
            return EXHAUSTED;
    } while (!atomic_compare_exchange_weak_explicit(&s->back, &bk, bk + 1, memory_order_acquire,
                                                    memory_order_acquire));
    *m = n - 1 - (uint32_t)bk;
    return TAKEN;
}

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
} builder;

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
    uint16_t s = (uint16_t)(SP_SYM_LETTER + bd->in->nletter), z = (uint16_t)(s + 1);
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
    uint16_t z = (uint16_t)(SP_SYM_LETTER + bd->in->nletter);
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
    uint16_t z = (uint16_t)(SP_SYM_LETTER + fresh++);
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
    uint16_t z = (uint16_t)(SP_SYM_LETTER + fresh++);
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
    uint16_t z = (uint16_t)(SP_SYM_LETTER + fresh++);
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
    if (ml->n >= NEXT || sp_grow((void **)&ml->mv, &ml->cap, ml->n + 1, sizeof *ml->mv)) {
        ml->err = -1; /* (NEXT moves in one land: unreachable in any game worth solving) */
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

/* The next move of n that a part makes: TAKEN (*m), EXHAUSTED or ENDED; *next is where a part
 * alone (no share) is. */
static int next_move(const sp_move_part *part, uint32_t n, uint32_t *next, uint32_t *m)
{
    if (!part || !part->share) {
        if (*next >= n)
            return EXHAUSTED;
        *m = (*next)++;
        return TAKEN;
    }
    return part->down ? take_down(part, n, m) : take_up(part, n, m);
}

int sp_pos_moves(const sp_pos *p, sp_move_sink sink, void *arg)
{
    return sp_pos_moves_part(p, NULL, sink, arg);
}

/* The moves of the part numbered `from` on. */
static int moves_from(const sp_pos *p, const sp_move_part *part, uint32_t from, sp_move_sink sink, void *arg)
{
    builder *bd = malloc(sizeof *bd);
    move_list ml = {0};
    int rc = !bd || list_moves(p, &ml) ? -1 : 0;
    uint32_t next = from, m;
    if (bd)
        bd->in = p;
    while (rc == 0) {
        int got = next_move(part, (uint32_t)ml.n, &next, &m);
        if (got != TAKEN) {
            rc = got == ENDED;
            break;
        }
        make_move(bd, &ml.mv[m]);
        rc = sink(arg, &bd->out, m);
        rc = rc < 0 ? -1 : rc > 0;
    }
    free(ml.mv);
    free(bd);
    return rc;
}

int sp_pos_moves_part(const sp_pos *p, const sp_move_part *part, sp_move_sink sink, void *arg)
{
    return moves_from(p, part, 0, sink, arg);
}

typedef struct keyed_sink {
    sp_canon_ctx *ctx;
    sp_children *out;
    const sp_move_part *part;
    sp_child_hook hook;
    void *hook_arg;
    sp_tok key[SP_KEY_MAX];
} keyed_sink;

/* Lists a child made by `move` unless it is listed already (then from a later move, or from an
 * earlier one in a part going down: the least is kept), and shows a new one to the hook: -1 out of
 * memory, 1 the hook stops the round, else 0. */
static int list_child(sp_children *c, const sp_tok *key, size_t len, uint32_t move, sp_child_hook hook,
                      void *hook_arg)
{
    size_t at;
    int added = children_add_at(c, key, len, &at);
    if (added == 0 && move < c->first[at])
        c->first[at] = move;
    if (added <= 0)
        return added;
    if (sp_grow((void **)&c->first, &c->first_cap, c->n, sizeof *c->first))
        return -1;
    c->first[c->n - 1] = move;
    return hook && hook(hook_arg, key, len, move) ? 1 : 0;
}

static int add_simplified(void *arg, sp_pos *child, uint32_t move)
{
    keyed_sink *ks = arg;
    sp_pos_simplify(child);
    size_t len = sp_canon_pos(ks->ctx, child, ks->key);
    int rc = list_child(ks->out, ks->key, len, move, ks->hook, ks->hook_arg);
    if (rc == 1 && ks->part && ks->part->share)
        sp_move_share_stop(ks->part->share, ks->part->round);
    return rc;
}

/* Where child i's tokens start in entry e, from where the last call left *c (child) and *off (its
 * start): a part takes children in one direction, so its walk is as long as the list. */
static uint32_t tokens_at(const sp_lcache_entry *e, uint32_t i, uint32_t *c, uint32_t *off)
{
    while (*c < i)
        *off += e->len[(*c)++];
    while (*c > i)
        *off -= e->len[--*c];
    return *off;
}

int sp_children_replay_part(const void *block, const sp_move_part *part, sp_child_hook hook, void *hook_arg,
                            sp_children *out)
{
    sp_lcache_entry e;
    sp_lcache_view(block, &e);
    uint32_t next = 0, i, c = 0, off = 0;
    int rc = 0, got;
    while (rc == 0 && (got = next_move(part, e.n, &next, &i)) == TAKEN)
        rc = list_child(out, e.tok + tokens_at(&e, i, &c, &off), e.len[i], e.first[i], hook, hook_arg);
    if (rc == 0 && got == ENDED)
        rc = 1;
    if (rc == 1 && part && part->share)
        sp_move_share_stop(part->share, part->round);
    return rc;
}

/* A cached list, as making it again would give it: from a copy, since a hook may make (and cache)
 * other lands' children in the meantime. Returns 1 when the hook stopped it. */
static int replay(const sp_lcache_entry *e, sp_child_hook hook, void *hook_arg, sp_children *out)
{
    void *copy = malloc(e->bytes);
    if (!copy)
        return -1;
    memcpy(copy, e->block, e->bytes);
    int rc = sp_children_replay_part(copy, NULL, hook, hook_arg, out);
    free(copy);
    return rc;
}

/* The children that the moves numbered `from` on give, added to out (which holds those of the
 * moves before: a list resumed). */
static int make_children(sp_canon_ctx *ctx, const sp_tok *land, size_t len, const sp_move_part *part, uint32_t from,
                         sp_child_hook hook, void *hook_arg, sp_children *out)
{
    sp_pos in;
    if (sp_key_decode(land, len, &in) || in.nland != 1)
        return -1;
    keyed_sink *ks = malloc(sizeof *ks);
    if (!ks)
        return -1;
    ks->ctx = ctx; /* not a compound literal: that would clear the key room on every call */
    ks->out = out;
    ks->part = part;
    ks->hook = hook;
    ks->hook_arg = hook_arg;
    int rc = moves_from(&in, part, from, add_simplified, ks);
    free(ks);
    return rc;
}

int sp_land_children_part(sp_canon_ctx *ctx, const sp_tok *land, size_t len, const sp_move_part *part,
                          sp_child_hook hook, void *hook_arg, sp_children *out)
{
    sp_children_clear(out);
    sp_lcache *cache = sp_canon_ctx_cache(ctx);
    if (!cache)
        return make_children(ctx, land, len, part, 0, hook, hook_arg, out);
    bool shared = part && part->share;
    uint64_t h[2];
    sp_lcache_entry e;
    uint32_t from = 0;
    sp_lcache_hash(land, len, h);
    if (sp_lcache_get(cache, h, &e)) {
        int rc = replay(&e, hook, hook_arg, out);
        if (shared && (rc == 1 || e.made == SP_LCACHE_WHOLE)) /* the other parts' moves are not needed */
            sp_move_share_stop(part->share, part->round);
        if (rc || e.made == SP_LCACHE_WHOLE)
            return rc;
        from = e.made; /* a list cut short before: the moves after it are made now */
    }
    int rc = make_children(ctx, land, len, part, from, hook, hook_arg, out);
    if (rc >= 0 && !shared) /* whole, or up to the child the hook stopped at (the last listed) */
        sp_lcache_put(cache, h, &out, 1, rc == 0 ? SP_LCACHE_WHOLE : out->first[out->n - 1] + 1);
    return rc;
}

int sp_land_children(sp_canon_ctx *ctx, const sp_tok *land, size_t len, sp_children *out)
{
    return sp_land_children_part(ctx, land, len, NULL, NULL, NULL, out);
}

/* Where a child lies: part << 32 | index in the part. */
#define NO_CHILD UINT64_MAX

int sp_children_merge(sp_children *out, sp_children *const *parts, unsigned nparts, uint32_t below)
{
    sp_children_clear(out);
    uint32_t top = 0; /* one past the greatest first move kept */
    for (unsigned p = 0; p < nparts; p++)
        for (size_t i = 0; i < parts[p]->n; i++)
            if (parts[p]->first[i] < below && parts[p]->first[i] >= top)
                top = parts[p]->first[i] + 1;
    /* a move gives one child, so the children kept are placed by their first moves (a move that two
     * parts made gives both the same child: either will do) */
    uint64_t *by_move = malloc((top ? top : 1) * sizeof *by_move);
    if (!by_move)
        return -1;
    memset(by_move, 0xff, top * sizeof *by_move);
    for (unsigned p = 0; p < nparts; p++)
        for (size_t i = 0; i < parts[p]->n; i++)
            if (parts[p]->first[i] < below)
                by_move[parts[p]->first[i]] = (uint64_t)p << 32 | i;
    int rc = 0;
    for (uint32_t m = 0; m < top && rc == 0; m++) {
        if (by_move[m] == NO_CHILD)
            continue;
        const sp_children *c = parts[by_move[m] >> 32];
        uint32_t i = (uint32_t)by_move[m];
        rc = list_child(out, c->tok + c->off[i], c->len[i], c->first[i], NULL, NULL) < 0 ? -1 : 0;
    }
    free(by_move);
    return rc;
}

/* A child of land l of a position, made into the child of the whole position. */
typedef struct pos_child {
    const sp_tok *key;
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    unsigned n, l;
    sp_tok *buf; /* room for the key's length plus SP_KEY_MAX */
    sp_child_hook hook;
    void *arg;
} pos_child;

/* The key with land l replaced by the lands of child (a position key), sorted in among the others. */
static size_t replace_land(const pos_child *pc, const sp_tok *child, size_t clen)
{
    uint32_t coff[SP_MAX_LANDS], cl[SP_MAX_LANDS];
    unsigned cn = sp_key_lands(child, clen, coff, cl, SP_MAX_LANDS);
    size_t len = 0;
    unsigned i = 0, j = 0;
    while (i < pc->n || j < cn) {
        if (i == pc->l) {
            i++;
            continue;
        }
        bool take_other =
            j >= cn || (i < pc->n && sp_key_cmp(pc->key + pc->off[i], pc->lens[i], child + coff[j], cl[j]) <= 0);
        const sp_tok *src = take_other ? pc->key + pc->off[i] : child + coff[j];
        size_t sl = take_other ? pc->lens[i] : cl[j];
        memcpy(pc->buf + len, src, sizeof(sp_tok) * sl);
        len += sl;
        take_other ? i++ : j++;
    }
    return len;
}

static int whole_child(void *arg, const sp_tok *child, size_t clen, uint32_t move)
{
    const pos_child *pc = arg;
    return pc->hook(pc->arg, pc->buf, replace_land(pc, child, clen), move);
}

int sp_pos_children_each(sp_canon_ctx *ctx, const sp_tok *key, size_t len, sp_child_hook hook, void *arg,
                         sp_children *scratch)
{
    pos_child pc = {.key = key, .hook = hook, .arg = arg};
    pc.n = sp_key_lands(key, len, pc.off, pc.lens, SP_MAX_LANDS);
    pc.buf = malloc(sizeof(sp_tok) * (len + SP_KEY_MAX));
    int rc = pc.buf && pc.n <= SP_MAX_LANDS ? 0 : -1;
    for (pc.l = 0; pc.l < pc.n && !rc; pc.l++) {
        const sp_tok *land = key + pc.off[pc.l];
        if (pc.l > 0 && !sp_key_cmp(land, pc.lens[pc.l], key + pc.off[pc.l - 1], pc.lens[pc.l - 1]))
            continue; /* a land equal to the previous one gives the same children */
        rc = sp_land_children_part(ctx, land, pc.lens[pc.l], NULL, whole_child, &pc, scratch);
    }
    free(pc.buf);
    return rc;
}

/* Lists each child; stops only when memory runs out. */
static int add_whole_child(void *arg, const sp_tok *key, size_t len, uint32_t move)
{
    (void)move;
    return sp_children_add(arg, key, len) < 0;
}

int sp_pos_children(sp_canon_ctx *ctx, const sp_tok *key, size_t len, sp_children *out)
{
    sp_children lc;
    sp_children_init(&lc);
    sp_children_clear(out);
    int rc = sp_pos_children_each(ctx, key, len, add_whole_child, out, &lc);
    sp_children_free(&lc);
    return rc ? -1 : 0;
}

size_t sp_pos_key(sp_canon_ctx *ctx, const sp_pos *p, sp_tok *out)
{
    sp_pos q;
    memcpy(&q, p, sizeof q);
    sp_pos_simplify(&q);
    return sp_canon_pos(ctx, &q, out);
}

long sp_random_move(sp_canon_ctx *ctx, sp_tok *key, size_t len, uint64_t *rng, sp_children *scratch)
{
    if (sp_pos_children(ctx, key, len, scratch) || scratch->n == 0)
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
