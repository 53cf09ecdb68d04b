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

int sp_children_add(sp_children *c, const sp_tok *key, size_t len)
{
    if (c->slot_cap < 2 * (c->n + 1) && rehash(c, c->slot_cap ? 2 * c->slot_cap : 256))
        return -1;
    uint64_t h = sp_key_hash64(key, len);
    size_t i = find_slot(c, key, len, h);
    if (c->slot[i] != UINT32_MAX)
        return 0;
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
    c->n++;
    return 1;
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
    sp_move_sink sink;
    void *arg;
    sp_move_part part;       /* share NULL: every move is this part's */
    uint32_t taken;          /* the move number this part took last from the share */
    uint32_t move;           /* the number of the next move */
    uint32_t from;           /* the moves numbered below were made before (a list resumed) */
    int err;                 /* -1: an error; 1: stopped */
} builder;

#define NOT_TAKEN UINT32_MAX
#define STOPPED ((uint64_t)1 << 31)
#define NEXT (STOPPED - 1)

void sp_move_share_start(sp_move_share *s, uint32_t round, uint32_t from)
{
    atomic_store_explicit(&s->state, (uint64_t)round << 32 | (from < NEXT ? from : NEXT), memory_order_release);
}

uint32_t sp_move_share_next(const sp_move_share *s)
{
    return (uint32_t)(atomic_load_explicit(&s->state, memory_order_acquire) & NEXT);
}

void sp_move_share_stop(sp_move_share *s, uint32_t round)
{
    uint64_t st = atomic_load_explicit(&s->state, memory_order_relaxed);
    while (st >> 32 == round && !(st & STOPPED) &&
           !atomic_compare_exchange_weak_explicit(&s->state, &st, st | STOPPED, memory_order_release,
                                                  memory_order_relaxed))
        ;
}

/* Makes sure this part holds a move number at or after m. A part takes its next number only once it
 * has passed the last one it took, so that a thread busy with a dear move leaves the cheap ones after
 * it to the others. The share hands numbers out in increasing order, none below the least move any
 * part of the round is at: so never one below m, and every number taken is reached. False once the
 * round has ended for this part. */
static bool take(builder *bd, uint32_t m)
{
    if (bd->err)
        return false;
    if (bd->taken != NOT_TAKEN && m <= bd->taken)
        return true;
    sp_move_share *s = bd->part.share;
    uint64_t st = atomic_load_explicit(&s->state, memory_order_acquire);
    do {
        if (st >> 32 != bd->part.round || (st & STOPPED) || (st & NEXT) == NEXT) {
            bd->err = 1; /* (NEXT moves in one land: unreachable in any game worth solving) */
            return false;
        }
    } while (!atomic_compare_exchange_weak_explicit(&s->state, &st, st + 1, memory_order_acquire,
                                                    memory_order_acquire));
    bd->taken = (uint32_t)(st & NEXT);
    return true;
}

/* Counts a move; whether this part makes it. */
static bool mine(builder *bd)
{
    uint32_t m = bd->move++;
    if (m < bd->from)
        return false;
    if (!bd->part.share)
        return !bd->err;
    return take(bd, m) && m == bd->taken;
}

/* Whether any of the next `count` moves may be this part's (if not, they are counted): a group of
 * moves that shares costly preparation skips it when the part takes none of them. */
static bool any_mine(builder *bd, uint64_t count)
{
    if (bd->move + count <= bd->from) {
        bd->move += (uint32_t)count;
        return false;
    }
    if (!bd->part.share || (take(bd, bd->move) && bd->taken - bd->move < count))
        return !bd->err;
    bd->move += (uint32_t)count;
    return false;
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
    int rc = bd->sink(bd->arg, &bd->out, bd->move - 1);
    if (rc)
        bd->err = rc < 0 ? -1 : 1;
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

static void move_zero_loop(builder *bd, unsigned zeros)
{
    unsigned nother = bd->in->rend[bd->r] - sp_pos_rstart(bd->in, bd->r);
    if (!any_mine(bd, (nother ? 1ull << (nother - 1) : 1) * (nother ? zeros : (zeros - 1) / 2 + 1)))
        return;
    split sp;
    others_of(bd, UINT32_MAX, zeros - 1, &sp);
    uint16_t s = (uint16_t)(SP_SYM_LETTER + bd->in->nletter), z = (uint16_t)(s + 1);
    /* the two faces are alike (s Z): fix the first other boundary on face one to halve the work */
    uint64_t nmask = sp.nother ? 1ull << (sp.nother - 1) : 1;
    for (uint64_t m = 0; m < nmask && !bd->err; m++) {
        uint64_t mask = sp.nother ? (m << 1) | 1 : 0;
        unsigned kmax = sp.nother ? sp.zeros : sp.zeros / 2;
        for (unsigned k = 0; k <= kmax && !bd->err; k++) {
            if (!mine(bd))
                continue;
            begin(bd, (uint16_t)(bd->in->nletter + 2));
            put(bd, s), put(bd, z), end_boundary(bd);
            put_side(bd, &sp, mask, true);
            end_region(bd, k);
            put(bd, s), put(bd, z), end_boundary(bd);
            put_side(bd, &sp, mask, false);
            end_region(bd, sp.zeros - k);
            finish(bd);
        }
    }
}

static void move_zero_zero(builder *bd, unsigned zeros)
{
    if (!mine(bd))
        return;
    uint16_t z = (uint16_t)(SP_SYM_LETTER + bd->in->nletter);
    begin(bd, (uint16_t)(bd->in->nletter + 1));
    for (unsigned b = sp_pos_rstart(bd->in, bd->r); b < bd->in->rend[bd->r]; b++)
        put_boundary(bd, b);
    put(bd, SP_SYM_ONE), put(bd, z), put(bd, SP_SYM_ONE), put(bd, z), end_boundary(bd);
    end_region(bd, zeros - 2);
    finish(bd);
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
static void move_zero_corner(builder *bd, unsigned zeros, unsigned at)
{
    if (!mine(bd))
        return;
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
    end_region(bd, zeros - 1);
    finish(bd);
    bd->dead[0] = 0;
}

/* Two corners on two boundaries of the region (boundaries merge). */
static void move_merge(builder *bd, unsigned zeros, unsigned at1, unsigned at2)
{
    if (!mine(bd))
        return;
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
    end_region(bd, zeros);
    finish(bd);
    bd->dead[0] = bd->dead[1] = 0;
}

/* Two corners p < q of one boundary (or p == q, a loop at a degree-1 spot): the region splits. */
static void move_split(builder *bd, unsigned zeros, unsigned at1, unsigned at2)
{
    if (!any_mine(bd, (1ull << (bd->in->rend[bd->r] - sp_pos_rstart(bd->in, bd->r) - 1)) * (zeros + 1)))
        return;
    unsigned fresh = bd->in->nletter;
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
    others_of(bd, b, zeros, &sp);
    uint64_t nmask = 1ull << sp.nother;
    for (uint64_t mask = 0; mask < nmask && !bd->err; mask++) {
        for (unsigned k = 0; k <= sp.zeros && !bd->err; k++) {
            if (!mine(bd))
                continue;
            begin(bd, (uint16_t)fresh);
            put(bd, e1.as), put(bd, z), put(bd, e2.as);
            put_walk(bd, b, q + 1, len1);
            end_boundary(bd);
            put_side(bd, &sp, mask, true);
            end_region(bd, k);
            if (!loop)
                put(bd, e2.as);
            put(bd, z), put(bd, e1.as);
            put_walk(bd, b, p + 1, len2);
            end_boundary(bd);
            put_side(bd, &sp, mask, false);
            end_region(bd, sp.zeros - k);
            finish(bd);
        }
    }
    bd->dead[0] = bd->dead[1] = 0;
}

/* ---------------------------------------------------------------- enumeration */

static void region_moves(builder *bd)
{
    const sp_pos *in = bd->in;
    unsigned r = bd->r, zeros = in->zeros[r];
    unsigned b0 = sp_pos_rstart(in, r), b1 = in->rend[r];
    unsigned s0 = sp_pos_bstart(in, b0), s1 = b1 > b0 ? in->bend[b1 - 1] : s0;
    if (zeros >= 1)
        move_zero_loop(bd, zeros);
    if (zeros >= 2)
        move_zero_zero(bd, zeros);
    for (unsigned i = s0; zeros >= 1 && i < s1; i++)
        move_zero_corner(bd, zeros, i);
    for (unsigned b = b0; b < b1; b++) {
        unsigned bs = sp_pos_bstart(in, b), be = in->bend[b];
        for (unsigned i = bs; i < be; i++) {
            if (in->sym[i] == SP_SYM_ONE)
                move_split(bd, zeros, i, i);
            for (unsigned j = i + 1; j < be; j++)
                if (in->sym[i] != in->sym[j] || !sp_sym_is_letter(in->sym[i]))
                    move_split(bd, zeros, i, j);
        }
        for (unsigned c = b + 1; c < b1; c++)
            for (unsigned i = bs; i < be; i++)
                for (unsigned j = sp_pos_bstart(in, c); j < in->bend[c]; j++)
                    move_merge(bd, zeros, i, j);
    }
}

int sp_pos_moves(const sp_pos *p, sp_move_sink sink, void *arg)
{
    return sp_pos_moves_part(p, NULL, sink, arg);
}

/* The moves of the part numbered `from` on. */
static int moves_from(const sp_pos *p, const sp_move_part *part, uint32_t from, sp_move_sink sink, void *arg)
{
    builder *bd = malloc(sizeof *bd);
    if (!bd)
        return -1;
    bd->in = p;
    bd->sink = sink;
    bd->arg = arg;
    bd->part = part ? *part : (sp_move_part){NULL, 0};
    bd->taken = NOT_TAKEN;
    bd->move = 0;
    bd->from = from;
    bd->dead[0] = bd->dead[1] = 0;
    bd->err = 0;
    for (unsigned r = 0; r < p->nreg && !bd->err; r++) {
        if (sp_pos_region_lives(p, r) < 2)
            continue;
        bd->r = r;
        region_moves(bd);
    }
    int err = bd->err;
    free(bd);
    return err;
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

/* Lists a child made by `move` unless it is listed already, and shows a new one to the hook: -1 out
 * of memory, 1 the hook stops the round, else 0. */
static int list_child(sp_children *c, const sp_tok *key, size_t len, uint32_t move, sp_child_hook hook,
                      void *hook_arg)
{
    int added = sp_children_add(c, key, len);
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

/* A cached list, as making it again would give it: from a copy, since a hook may make (and cache)
 * other lands' children in the meantime. Returns 1 when the hook stopped it. */
static int replay(const sp_lcache_entry *e, sp_child_hook hook, void *hook_arg, sp_children *out)
{
    void *copy = malloc(e->bytes);
    if (!copy)
        return -1;
    memcpy(copy, e->block, e->bytes);
    sp_lcache_entry c;
    sp_lcache_view(copy, &c);
    int rc = 0;
    const sp_tok *tok = c.tok;
    for (uint32_t i = 0; i < c.n && !rc; tok += c.len[i++])
        rc = list_child(out, tok, c.len[i], c.first[i], hook, hook_arg);
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

int sp_children_merge(sp_children *out, sp_children *const *parts, unsigned nparts)
{
    size_t at[64] = {0};
    sp_children_clear(out);
    if (nparts > 64)
        return -1;
    for (;;) {
        int best = -1; /* the part whose next child came from the earliest move */
        for (unsigned p = 0; p < nparts; p++)
            if (at[p] < parts[p]->n && (best < 0 || parts[p]->first[at[p]] < parts[best]->first[at[best]]))
                best = (int)p;
        if (best < 0)
            return 0;
        const sp_children *c = parts[best];
        size_t i = at[best]++;
        if (list_child(out, c->tok + c->off[i], c->len[i], c->first[i], NULL, NULL) < 0)
            return -1;
    }
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
