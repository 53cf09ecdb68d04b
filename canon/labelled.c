/* labelled.c: labelled positions (labelled.h): the moves of a record drawn with movegen.c's face
 * formulas on numbered corners, the record's constraints on them, the map to sp_pos, and forms.
 *
 * Face formulas (x: the boundary at f's corner p, y: the one at h's corner q, g: the new spot):
 *   split, p != q:  (x_p g x_q .. x_{p-1})  and  (x_q g x_p .. x_{q-1})
 *   loop, p == q:   (x_p g x_p .. x_{p-1})  and  (g x_p)
 *   merge:          (x_p g y_q .. y_{q-1} y_q g x_p .. x_{p-1})
 * Each new face keeps its region on the walker's right, as the boundary it comes from. A lone spot is
 * a boundary of one corner, so the formulas write it twice in a row; as it still has one corner when
 * its degree becomes 1 or 2, the two are folded into one (end_boundary). */
#include "labelled.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned blen(const sp_lab *p, unsigned b) { return p->bend[b] - sp_lab_bstart(p, b); }

/* The occurrence k steps after position pos of boundary b (cyclically). */
static unsigned at_step(const sp_lab *p, unsigned b, unsigned pos, int k)
{
    unsigned n = blen(p, b);
    return p->occ[sp_lab_bstart(p, b) + (unsigned)(((int)pos + k) % (int)n + (int)n) % n];
}

bool sp_lab_start(sp_lab *p, unsigned n)
{
    if (n == 0 || n > SP_LAB_MAX_START)
        return false;
    memset(p, 0, sizeof *p);
    p->nspot = p->nocc = p->nbnd = (uint16_t)n;
    p->nreg = 1;
    for (unsigned i = 0; i < n; i++) {
        p->occ[i] = (uint16_t)(i + 1);
        p->bend[i] = (uint16_t)(i + 1);
    }
    p->rend[0] = (uint16_t)n;
    return true;
}

unsigned sp_lab_lives(const sp_lab *p)
{
    unsigned lives = 0;
    for (unsigned s = 1; s <= p->nspot; s++)
        lives += 3u - p->degree[s];
    return lives;
}

/* ---------------------------------------------------------------- checks on numbers and lives */

static const char *say(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static const char *say(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    return buf;
}

static const char *check_exists(const sp_lab *p, unsigned s, const char *role, char *buf, size_t cap)
{
    if (s > p->nspot)
        return say(buf, cap, "%s %u does not exist yet (the spots so far are 1..%u)", role, s, p->nspot);
    return NULL;
}

static const char *check_lives(const sp_lab *p, unsigned s, unsigned need, char *buf, size_t cap)
{
    unsigned lives = 3u - p->degree[s];
    if (lives == 0)
        return say(buf, cap, "spot %u is dead (3 curve ends already meet there)", s);
    if (lives < need)
        return say(buf, cap, "spot %u has 1 life left, and a loop needs 2", s);
    return NULL;
}

static const char *check_list(const sp_lab *p, const sp_lab_move *m, char *buf, size_t cap)
{
    for (size_t i = 0; i < m->nlist; i++) {
        unsigned s = m->list[i];
        if (s == m->g)
            return say(buf, cap, "[L] names the new spot %u, which lies on the new curve", s);
        const char *why = check_exists(p, s, "spot", buf, cap);
        if (why)
            return why;
        if (s == m->f || s == m->h)
            return say(buf, cap, "[L] names spot %u, an end of the move (spots on the new curve are not separated)", s);
    }
    return NULL;
}

const char *sp_lab_check(const sp_lab *p, const sp_lab_move *m, char *buf, size_t cap)
{
    const char *why;
    if ((why = check_exists(p, m->f, "spot", buf, cap)) || (why = check_exists(p, m->h, "spot", buf, cap)))
        return why;
    if (m->g != p->nspot + 1u)
        return say(buf, cap, "the new spot must be %u, the next number, not %u", p->nspot + 1u, m->g);
    if (m->g > SP_LAB_MAX_SPOTS)
        return say(buf, cap, "too many spots (at most %d)", SP_LAB_MAX_SPOTS);
    if (m->f == m->h && (why = check_lives(p, m->f, 2, buf, cap)))
        return why;
    if ((why = check_lives(p, m->f, 1, buf, cap)) || (why = check_lives(p, m->h, 1, buf, cap)))
        return why;
    if (m->at && (why = check_exists(p, m->at, "@ spot", buf, cap)))
        return why;
    return check_list(p, m, buf, cap);
}

/* ---------------------------------------------------------------- building a drawing */

typedef struct builder {
    const sp_lab *in;
    sp_lab *out;
    bool full;            /* ran out of room */
    unsigned r0;          /* first boundary of the region being written */
} builder;

static void begin(builder *bd, const sp_lab_move *m)
{
    const sp_lab *in = bd->in;
    sp_lab *out = bd->out;
    memcpy(out->degree, in->degree, sizeof out->degree);
    out->nspot = (uint16_t)m->g;
    out->degree[m->f] += m->f == m->h ? 2 : 1;
    if (m->f != m->h)
        out->degree[m->h] += 1;
    out->degree[m->g] = 2;
    out->nocc = out->nbnd = out->nreg = 0;
    bd->full = false;
    bd->r0 = 0;
}

static void put(builder *bd, unsigned spot)
{
    if (bd->out->nocc >= SP_LAB_MAX_OCC) {
        bd->full = true;
        return;
    }
    bd->out->occ[bd->out->nocc++] = (uint16_t)spot;
}

/* count occurrences of boundary b of the input, from position `from` on, cyclically. */
static void put_walk(builder *bd, unsigned b, unsigned from, unsigned count)
{
    for (unsigned k = 0; k < count; k++)
        put(bd, at_step(bd->in, b, from, (int)k));
}

/* Closes the boundary written since the last one: a spot written twice in a row is one corner (only
 * a lone spot that became an end is, as no curve joins a spot to itself without a spot between);
 * a boundary of dead spots only is dropped. */
static void end_boundary(builder *bd)
{
    sp_lab *o = bd->out;
    unsigned s0 = o->nbnd ? o->bend[o->nbnd - 1] : 0, w = s0;
    bool live = false;
    for (unsigned i = s0; i < o->nocc; i++) {
        if (w > s0 && o->occ[w - 1] == o->occ[i])
            continue;
        o->occ[w++] = o->occ[i];
        live |= o->degree[o->occ[i]] < 3;
    }
    while (w - s0 > 1 && o->occ[w - 1] == o->occ[s0])
        w--;
    o->nocc = (uint16_t)(live ? w : s0);
    if (o->nocc > s0)
        o->bend[o->nbnd++] = o->nocc;
}

static void copy_boundary(builder *bd, unsigned b)
{
    put_walk(bd, b, 0, blen(bd->in, b));
    end_boundary(bd);
}

static void begin_region(builder *bd)
{
    bd->r0 = bd->out->nbnd;
}

/* Closes the region begun last; a region left without boundaries is dropped. */
static void end_region(builder *bd)
{
    if (bd->out->nbnd > bd->r0)
        bd->out->rend[bd->out->nreg++] = bd->out->nbnd;
}

static void copy_regions_but(builder *bd, unsigned skip)
{
    for (unsigned r = 0; r < bd->in->nreg; r++) {
        if (r == skip)
            continue;
        begin_region(bd);
        for (unsigned b = sp_lab_rstart(bd->in, r); b < bd->in->rend[r]; b++)
            copy_boundary(bd, b);
        end_region(bd);
    }
}

/* ---------------------------------------------------------------- candidates */

typedef struct corner {
    unsigned r, b, pos; /* region, boundary, position in the boundary */
} corner;

typedef enum { KIND_NEITHER, KIND_PLAIN, KIND_MARKED } corner_kind;

/* Plain when the ant, arriving through this corner, has the higher-numbered neighbour on its right:
 * the corner is "a s b" in left-hand order, a on the ant's left and b on its right. */
static corner_kind kind_of(const sp_lab *p, const corner *c)
{
    unsigned s = at_step(p, c->b, c->pos, 0);
    if (p->degree[s] != 2)
        return KIND_NEITHER;
    unsigned a = at_step(p, c->b, c->pos, -1), b = at_step(p, c->b, c->pos, 1);
    return a == b ? KIND_NEITHER : b > a ? KIND_PLAIN : KIND_MARKED;
}

static unsigned corners_of(const sp_lab *p, unsigned s, corner *out, unsigned cap)
{
    unsigned n = 0;
    for (unsigned r = 0; r < p->nreg; r++)
        for (unsigned b = sp_lab_rstart(p, r); b < p->rend[r]; b++)
            for (unsigned i = sp_lab_bstart(p, b); i < p->bend[b]; i++)
                if (p->occ[i] == s && n < cap)
                    out[n++] = (corner){r, b, i - sp_lab_bstart(p, b)};
    return n;
}

/* What the record's move says, prepared for the checks. */
typedef struct want {
    const sp_lab_move *m;
    bool listed[SP_LAB_MAX_SPOTS + 1];
    bool lists_live; /* L names a live spot */
} want;

/* Whether boundary b of the input holds a live spot that L names. */
static bool holds_listed(const sp_lab *p, const want *w, unsigned b)
{
    for (unsigned i = sp_lab_bstart(p, b); i < p->bend[b]; i++)
        if (w->listed[p->occ[i]] && p->degree[p->occ[i]] < 3)
            return true;
    return false;
}

/* Sets in[s] for every spot s with a corner in region r (a region has at least one boundary). */
static void mark_region(const sp_lab *p, unsigned r, bool *in)
{
    for (unsigned i = sp_lab_bstart(p, sp_lab_rstart(p, r)); i < p->bend[p->rend[r] - 1]; i++)
        in[p->occ[i]] = true;
}

/* [L] on a split, read as players write it: every live spot of L touches region `side` and not
 * region `other`, and a dead spot of L that is still drawn touches `side`. An unlisted live spot may
 * lie on that side too where the drawing ties it to a listed spot or to the new curve; the split puts
 * every boundary without a listed spot on the other side, so such a spot is one of the listed
 * boundaries or of the split one, tied either way. Returns how many unlisted live spots lie on the
 * side only (the fewest is the reading the record means), or -1 when L does not fit. A list without
 * a live spot ties nothing: then no live spot may lie on one side only. */
static int list_fits(const sp_lab *c, const want *w, unsigned side, unsigned other)
{
    bool in_side[SP_LAB_MAX_SPOTS + 1] = {false}, in_other[SP_LAB_MAX_SPOTS + 1] = {false};
    bool drawn[SP_LAB_MAX_SPOTS + 1] = {false};
    mark_region(c, side, in_side);
    mark_region(c, other, in_other);
    for (unsigned i = 0; i < c->nocc; i++)
        drawn[c->occ[i]] = true;
    int extra = 0;
    for (unsigned s = 1; s <= c->nspot; s++) {
        bool alone = in_side[s] && !in_other[s];
        if (c->degree[s] < 3 && w->listed[s] && !alone)
            return -1;
        if (c->degree[s] < 3 && !w->listed[s] && alone) {
            if (!w->lists_live)
                return -1;
            extra++;
        }
        if (c->degree[s] == 3 && w->listed[s] && drawn[s] && !in_side[s])
            return -1;
    }
    return extra;
}

/* '@at': some region that holds g holds `at` too. */
static bool at_fits(const sp_lab *c, const sp_lab_move *m)
{
    for (unsigned r = 0; r < c->nreg; r++) {
        bool in[SP_LAB_MAX_SPOTS + 1] = {false};
        mark_region(c, r, in);
        if (in[m->g] && in[m->at])
            return true;
    }
    return false;
}

/* The split of boundary c1.b at corners c1, c2 (the same corner for a loop); the region on the L
 * side is the first new face when lside is 0, the second when 1. Other boundaries holding a live
 * spot of L go to the L side, the rest to the other. */
static void build_split(builder *bd, const want *w, const corner *c1, const corner *c2, int lside)
{
    const sp_lab *in = bd->in;
    const sp_lab_move *m = w->m;
    unsigned b = c1->b, n = blen(in, b), p = c1->pos, q = c2->pos;
    bool loop = p == q;
    begin(bd, m);
    copy_regions_but(bd, c1->r);
    for (int face = 0; face < 2; face++) {
        begin_region(bd);
        if (face == 0) {
            put(bd, m->f), put(bd, m->g), put(bd, m->h);
            put_walk(bd, b, q + 1, loop ? n - 1 : (p + n - q - 1) % n);
        } else {
            if (!loop)
                put(bd, m->h);
            put(bd, m->g), put(bd, m->f);
            put_walk(bd, b, p + 1, loop ? 0 : (q + n - p - 1) % n);
        }
        end_boundary(bd);
        for (unsigned o = sp_lab_rstart(in, c1->r); o < in->rend[c1->r]; o++)
            if (o != b && (holds_listed(in, w, o) == (face == lside)))
                copy_boundary(bd, o);
        end_region(bd);
    }
}

static void build_merge(builder *bd, const want *w, const corner *c1, const corner *c2)
{
    const sp_lab *in = bd->in;
    const sp_lab_move *m = w->m;
    begin(bd, m);
    copy_regions_but(bd, c1->r);
    begin_region(bd);
    put(bd, m->f), put(bd, m->g), put(bd, m->h);
    put_walk(bd, c2->b, c2->pos + 1, blen(in, c2->b) - 1);
    put(bd, m->h), put(bd, m->g), put(bd, m->f);
    put_walk(bd, c1->b, c1->pos + 1, blen(in, c1->b) - 1);
    end_boundary(bd);
    for (unsigned o = sp_lab_rstart(in, c1->r); o < in->rend[c1->r]; o++)
        if (o != c1->b && o != c2->b)
            copy_boundary(bd, o);
    end_region(bd);
}

#define MAX_CANDIDATES 8 /* 2 corners of f, 2 of h, 2 sides for L */

typedef struct play {
    const sp_lab *in;
    want w;
    sp_lab_verdict stage; /* the furthest stage a candidate reached */
    sp_lab cand[MAX_CANDIDATES];
    int score[MAX_CANDIDATES];
    unsigned n;
} play;

static void reach(play *pl, sp_lab_verdict stage)
{
    if (pl->stage < stage)
        pl->stage = stage;
}

/* Checks a built candidate against '@' and '!', and keeps it with its score: fewer unlisted spots on
 * the listed side first (`extra`, see list_fits), then more ends read as the record writes them. */
static void consider(play *pl, const corner *c1, const corner *c2, int extra)
{
    const sp_lab_move *m = pl->w.m;
    sp_lab *c = &pl->cand[pl->n];
    reach(pl, SP_LAB_AT);
    if (m->at && !at_fits(c, m))
        return;
    reach(pl, SP_LAB_BANG);
    corner_kind kf = kind_of(pl->in, c1), kh = kind_of(pl->in, c2);
    if ((m->bang_f && kf == KIND_PLAIN) || (m->bang_h && kh == KIND_PLAIN))
        return;
    int ends = (!m->bang_f && kf != KIND_MARKED) + (!m->bang_h && kh != KIND_MARKED); /* 0..2 */
    pl->score[pl->n++] = ends - 4 * extra;
}

static void try_pair(play *pl, const corner *c1, const corner *c2)
{
    builder bd = {pl->in, NULL, false, 0};
    reach(pl, SP_LAB_LIST);
    if (c1->b != c2->b) {
        if (pl->w.lists_live || pl->n >= MAX_CANDIDATES)
            return;
        bd.out = &pl->cand[pl->n];
        build_merge(&bd, &pl->w, c1, c2);
        if (bd.full)
            reach(pl, SP_LAB_FULL);
        else
            consider(pl, c1, c2, 0);
        return;
    }
    for (int lside = 0; lside < 2 && pl->n < MAX_CANDIDATES; lside++) {
        bd.out = &pl->cand[pl->n];
        build_split(&bd, &pl->w, c1, c2, lside);
        if (bd.full) {
            reach(pl, SP_LAB_FULL);
            continue;
        }
        unsigned a = bd.out->nreg - 2u; /* the two new faces are the last regions */
        int extra = list_fits(bd.out, &pl->w, a + (unsigned)lside, a + 1u - (unsigned)lside);
        if (extra >= 0)
            consider(pl, c1, c2, extra);
    }
}

sp_lab_verdict sp_lab_play(const sp_lab *p, const sp_lab_move *m, sp_lab_sink sink, void *arg)
{
    play *pl = malloc(sizeof *pl);
    if (!pl)
        return SP_LAB_FULL;
    pl->in = p;
    pl->w.m = m;
    memset(pl->w.listed, 0, sizeof pl->w.listed);
    pl->w.lists_live = false;
    for (size_t i = 0; i < m->nlist; i++) {
        pl->w.listed[m->list[i]] = true;
        pl->w.lists_live |= p->degree[m->list[i]] < 3;
    }
    pl->stage = SP_LAB_NO_REGION;
    pl->n = 0;
    corner cf[3], ch[3];
    unsigned nf = corners_of(p, m->f, cf, 3), nh = corners_of(p, m->h, ch, 3);
    for (unsigned i = 0; i < nf; i++)
        for (unsigned j = 0; j < nh; j++)
            if (cf[i].r == ch[j].r && (m->f != m->h || j == i))
                try_pair(pl, &cf[i], &ch[j]);
    int best = INT_MIN;
    for (unsigned i = 0; i < pl->n; i++)
        best = pl->score[i] > best ? pl->score[i] : best;
    sp_lab_verdict v = pl->n ? SP_LAB_FITS : pl->stage;
    for (unsigned i = 0; i < pl->n; i++)
        if (pl->score[i] == best && sink(arg, &pl->cand[i]))
            break;
    free(pl);
    return v;
}

/* ---------------------------------------------------------------- to the solver's position */

void sp_lab_to_pos(const sp_lab *p, sp_pos *out)
{
    uint16_t letter[SP_LAB_MAX_SPOTS + 1];
    memset(letter, 0xff, sizeof letter);
    sp_pos_clear(out);
    for (unsigned r = 0; r < p->nreg; r++) {
        unsigned zeros = 0, b0 = out->nbnd;
        for (unsigned b = sp_lab_rstart(p, r); b < p->rend[r]; b++) {
            for (unsigned i = sp_lab_bstart(p, b); i < p->bend[b]; i++) {
                unsigned s = p->occ[i], d = p->degree[s];
                if (d == 0)
                    zeros++;
                else if (d == 1)
                    out->sym[out->nsym++] = SP_SYM_ONE;
                else if (d == 2) {
                    if (letter[s] == 0xffff)
                        letter[s] = out->nletter++;
                    out->sym[out->nsym++] = (uint16_t)(SP_SYM_LETTER + letter[s]);
                }
            }
            if (out->nsym > (out->nbnd ? out->bend[out->nbnd - 1] : 0))
                out->bend[out->nbnd++] = out->nsym;
        }
        if (out->nbnd > b0 || zeros) {
            out->zeros[out->nreg] = (uint16_t)zeros;
            out->rend[out->nreg++] = out->nbnd;
        }
    }
    if (out->nreg) {
        out->lend[0] = out->nreg;
        out->nland = 1;
    }
}

/* ---------------------------------------------------------------- forms */

static int seq_cmp(const uint16_t *a, size_t na, const uint16_t *b, size_t nb)
{
    for (size_t i = 0; i < na && i < nb; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return (na > nb) - (na < nb);
}

/* The least rotation of boundary b (reversed first when mirror), written to out. */
static void least_rotation(const sp_lab *p, unsigned b, bool mirror, uint16_t *out)
{
    unsigned n = blen(p, b), s0 = sp_lab_bstart(p, b);
    uint16_t seq[2 * SP_LAB_MAX_OCC];
    for (unsigned i = 0; i < n; i++)
        seq[i] = seq[i + n] = p->occ[s0 + (mirror ? n - 1 - i : i)];
    unsigned best = 0;
    for (unsigned k = 1; k < n; k++)
        if (seq_cmp(seq + k, n, seq + best, n) < 0)
            best = k;
    memcpy(out, seq + best, n * sizeof *out);
}

/* Sorts idx[0..n) by the token strings tok[off[i] .. off[i] + len[i]) (insertion sort: the lists
 * are short). */
static void sort_by(unsigned *idx, unsigned n, const uint16_t *tok, const unsigned *off, const unsigned *len)
{
    for (unsigned i = 1; i < n; i++) {
        unsigned x = idx[i], j = i;
        for (; j > 0 && seq_cmp(tok + off[x], len[x], tok + off[idx[j - 1]], len[idx[j - 1]]) < 0; j--)
            idx[j] = idx[j - 1];
        idx[j] = x;
    }
}

typedef struct form_scratch {
    uint16_t bnd[SP_LAB_MAX_OCC]; /* each boundary at its least rotation, in place */
    unsigned boff[SP_LAB_MAX_OCC], blen[SP_LAB_MAX_OCC], bidx[SP_LAB_MAX_OCC];
    uint16_t reg[SP_LAB_FORM_MAX]; /* each region: its sorted boundaries, each ended by 0 */
    unsigned roff[SP_LAB_MAX_OCC], rlen[SP_LAB_MAX_OCC], ridx[SP_LAB_MAX_OCC];
} form_scratch;

size_t sp_lab_form(const sp_lab *p, bool mirror, uint16_t *out)
{
    form_scratch scratch, *f = &scratch; /* about 40 KiB */
    for (unsigned b = 0; b < p->nbnd; b++) {
        f->boff[b] = sp_lab_bstart(p, b);
        f->blen[b] = blen(p, b);
        f->bidx[b] = b;
        least_rotation(p, b, mirror, f->bnd + f->boff[b]);
    }
    unsigned t = 0;
    for (unsigned r = 0; r < p->nreg; r++) {
        unsigned b0 = sp_lab_rstart(p, r), nb = p->rend[r] - b0;
        sort_by(f->bidx + b0, nb, f->bnd, f->boff, f->blen);
        f->roff[r] = t;
        for (unsigned k = 0; k < nb; k++) {
            unsigned b = f->bidx[b0 + k];
            memcpy(f->reg + t, f->bnd + f->boff[b], f->blen[b] * sizeof *f->reg);
            t += f->blen[b];
            f->reg[t++] = 0;
        }
        f->rlen[r] = t - f->roff[r];
        f->ridx[r] = r;
    }
    sort_by(f->ridx, p->nreg, f->reg, f->roff, f->rlen);
    size_t n = 0;
    for (unsigned k = 0; k < p->nreg; k++) {
        unsigned r = f->ridx[k];
        memcpy(out + n, f->reg + f->roff[r], f->rlen[r] * sizeof *out);
        n += f->rlen[r];
        out[n++] = UINT16_MAX;
    }
    return n;
}

bool sp_lab_same(const sp_lab *a, const sp_lab *b, bool mirror)
{
    if (a->nspot != b->nspot || a->nocc != b->nocc || a->nbnd != b->nbnd || a->nreg != b->nreg ||
        memcmp(a->degree, b->degree, sizeof a->degree))
        return false;
    uint16_t fa[SP_LAB_FORM_MAX], fb[SP_LAB_FORM_MAX];
    size_t na = sp_lab_form(a, false, fa), nb = sp_lab_form(b, false, fb);
    bool same = seq_cmp(fa, na, fb, nb) == 0;
    if (!same && mirror) {
        nb = sp_lab_form(b, true, fb);
        same = seq_cmp(fa, na, fb, nb) == 0;
    }
    return same;
}

size_t sp_lab_print(const sp_lab *p, char *buf, size_t cap)
{
    size_t len = 0;
    if (cap)
        buf[0] = '\0';
    for (unsigned r = 0; r < p->nreg; r++) {
        for (unsigned b = sp_lab_rstart(p, r); b < p->rend[r]; b++) {
            for (unsigned i = sp_lab_bstart(p, b); i < p->bend[b]; i++) {
                const char *sep = i > sp_lab_bstart(p, b) ? "," : b > sp_lab_rstart(p, r) ? "." : r ? " | " : "";
                int k = snprintf(len < cap ? buf + len : NULL, len < cap ? cap - len : 0, "%s%u", sep, p->occ[i]);
                len += k > 0 ? (size_t)k : 0;
            }
        }
    }
    return len;
}
