/* canonical.c: canonical keys of lands and positions (canonical.h).
 * Each region gets a local form that ignores which upper-case letter is which (least rotation of every
 * boundary, boundaries sorted, the better of the two orientations). Regions are ordered by how
 * symmetric their local form is, then by the form. The upper-case letters are then named by a
 * breadth-first search: one level per region, each keeping every partial labelling whose names are
 * least so far; within a region a branch-and-bound walk over its local symmetries (which boundary
 * fills which place, which least rotation, which orientation) prunes every layout that is already
 * larger. The surviving labellings all give the same, least, key. */
#include "canonical.h"

#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "simplify.h"

#define NONE 0xffff
#define MAX_UP (SP_MAX_SYMS / 2) /* upper-case letters of one land */
#define SYM_CAP 0x7fffffffu
#define SEEN_BITS 11 /* a state + 1 in a slot of ctx->seen, up to SP_CANON_MAX_STATES */
#define SEEN_MASK ((1u << SEEN_BITS) - 1)
#define SEEN_SCAN 16 /* below this many next states a scan of them is cheaper than the table */
_Static_assert(SP_CANON_MAX_STATES < (1u << SEEN_BITS), "a state number fits its bits of a seen slot");

typedef struct region_info {
    uint32_t form_off, form_len; /* local form in ctx->form (upper case as bare SP_TK_UP) */
    uint32_t symmetry;           /* local symmetries of the form (capped): rigid regions go first */
    uint16_t nup;                /* upper-case slots */
    uint8_t orients;             /* bit o: orientation o (1 = reversed) gives the least form */
    uint8_t sorted;              /* 2-3 lives: one boundary whose order is irrelevant */
    uint32_t rigid_off;          /* symmetry 1: its one slot map, in ctx->rigid */
} region_info;

/* One region being laid out from one state of the search. */
typedef struct layout {
    unsigned s;                   /* state */
    unsigned c;                   /* the region's place in processing order */
    unsigned r, o;                /* region, orientation */
    unsigned fresh0;              /* first name not yet given in the state */
    const uint16_t *names;        /* the state's names of letters (NONE: unnamed) */
    uint16_t path[MAX_UP];        /* letters in slot order */
    uint8_t used[SP_MAX_BNDS];    /* form positions or letters already placed */
} layout;

struct sp_canon_ctx {
    uint64_t inexact;
    bool truncated;                  /* the land being built may not have its least key */
    const sp_pos *p;
    const uint8_t *col;              /* Antwerp colours beside p->sym, or NULL (all white) */
    uint8_t up_col[MAX_UP];          /* the colour of each upper-case letter (dense index) */
    uint16_t up_index[SP_MAX_SYMS];  /* letter id -> dense upper-case index */
    uint16_t partner[SP_MAX_SYMS];   /* symbol index -> partner on the same boundary, or NONE */
    sp_tok tok[2][SP_MAX_SYMS];      /* boundary tokens per orientation, at the boundary's offset */
    uint16_t rot[2][SP_MAX_BNDS];    /* least rotation per orientation */
    uint16_t period[2][SP_MAX_BNDS]; /* cyclic period of the token sequence */
    uint16_t bord[2][SP_MAX_BNDS];   /* per region, its boundaries in form order */
    uint16_t gfirst[2][SP_MAX_BNDS]; /* per form position, the first position of its group of equals */
    sp_tok form[SP_KEY_MAX];
    sp_tok tmp[2][SP_KEY_MAX];
    region_info info[SP_MAX_REGS];
    uint16_t rorder[SP_MAX_REGS];    /* processing order of the regions */
    /* the search: two generations of states */
    unsigned nup_total, cur, nstates, nnext, base;
    bool have_best, overflow;
    uint16_t names[2][SP_CANON_MAX_STATES * MAX_UP];
    uint16_t next_name[2][SP_CANON_MAX_STATES];
    uint64_t placed[2][SP_CANON_MAX_STATES][SP_MAX_REGS / 64];
    uint64_t hash[SP_CANON_MAX_STATES]; /* of each next state; state 0's only once a second one comes */
    uint32_t seen[2 * SP_CANON_MAX_STATES]; /* the next states by hash: stamp << SEEN_BITS | state + 1 */
    uint32_t stamp;                  /* of the next states now (slots of other stamps are empty) */
    unsigned seen_n;                 /* next states 0 .. seen_n - 1 are in ctx->seen */
    uint16_t up_off[SP_MAX_BNDS];    /* boundary b's upper-case slots: [up_off[b], up_off[b] + up_cnt[b]) */
    uint16_t up_cnt[SP_MAX_BNDS];
    uint16_t up_pos[2][SP_MAX_SYMS]; /* ... their positions in orientation o, ascending */
    uint16_t up_let[2][SP_MAX_SYMS]; /* ... and their letters (dense indices) */
    uint64_t block[SP_MAX_SYMS];     /* the least (colour, name) of every slot, in key order */
    uint16_t rigid[SP_MAX_SYMS];     /* slot maps of the rigid regions (one layout each) */
    uint32_t rigid_len;
    /* colour refinement: invariant colours of regions and of upper-case letters */
    uint16_t up_reg[MAX_UP][2];      /* the two regions of each upper-case letter */
    uint32_t rcolor[SP_MAX_REGS];
    uint32_t lcolor[MAX_UP];
    uint32_t reg_letters[SP_MAX_REGS + 1]; /* region r's letters: rletter[reg_letters[r] .. [r+1]) */
    uint16_t rletter[SP_MAX_SYMS];
    uint32_t sig[SP_MAX_SYMS];       /* sorted letter colours of each region, same layout */
    layout lay;
    sp_tok landkeys[SP_KEY_MAX];
};

sp_canon_ctx *sp_canon_ctx_new(void)
{
    return calloc(1, sizeof(sp_canon_ctx));
}

void sp_canon_ctx_free(sp_canon_ctx *ctx)
{
    free(ctx);
}

uint64_t sp_canon_ctx_inexact(const sp_canon_ctx *ctx)
{
    return ctx->inexact;
}

/* ---------------------------------------------------------------- boundaries */

/* An upper-case letter's token before it is named (its colour in it; keys.h). */
static bool is_bare_up(sp_tok t)
{
    return t >= SP_TK_UP && t < SP_TK_LO;
}

/* Least rotation of a cyclic token sequence (the two-pointer minimum-expression algorithm). */
static unsigned least_rotation(const sp_tok *t, unsigned n)
{
    unsigned i = 0, j = 1, k = 0;
    while (i < n && j < n && k < n) {
        sp_tok a = t[(i + k) % n], b = t[(j + k) % n];
        if (a == b) {
            k++;
            continue;
        }
        if (a > b)
            i += k + 1;
        else
            j += k + 1;
        if (i == j)
            j++;
        k = 0;
    }
    return i < j ? i : j;
}

static unsigned cyclic_period(const sp_tok *t, unsigned n)
{
    for (unsigned p = 1; p < n; p++) {
        if (n % p)
            continue;
        unsigned i = 0;
        while (i < n && t[i] == t[(i + p) % n])
            i++;
        if (i == n)
            return p;
    }
    return n;
}

static unsigned blen(const sp_pos *p, unsigned b)
{
    return p->bend[b] - sp_pos_bstart(p, b);
}

/* Tokens of boundary b in orientation o (1 = reversed), upper-case letters as bare SP_TK_UP. */
static void boundary_tokens(sp_canon_ctx *ctx, unsigned b, unsigned o)
{
    const sp_pos *p = ctx->p;
    unsigned s0 = sp_pos_bstart(p, b), n = blen(p, b);
    sp_tok *t = ctx->tok[o] + s0;
    for (unsigned k = 0; k < n; k++) {
        unsigned i = o ? s0 + n - 1 - k : s0 + k, s = p->sym[i], c = ctx->col ? ctx->col[i] : 0;
        if (s == SP_SYM_ONE)
            t[k] = SP_TK_ONE;
        else if (s == SP_SYM_TWO)
            t[k] = (sp_tok)(SP_TK_TWO + c);
        else if (ctx->partner[i] == NONE)
            t[k] = (sp_tok)(SP_TK_UP | c << SP_TK_COLOUR_SHIFT);
        else {
            unsigned d = (ctx->partner[i] + n - i) % n; /* forward distance in stored order */
            t[k] = (sp_tok)(SP_TK_LO | c << SP_TK_COLOUR_SHIFT | (o ? n - d : d));
        }
    }
    ctx->rot[o][b] = (uint16_t)least_rotation(t, n);
    ctx->period[o][b] = (uint16_t)cyclic_period(t, n);
    unsigned k = 0; /* upper-case slots live at the same offsets as the symbols: room is there */
    for (unsigned j = 0; j < n; j++) {
        if (!is_bare_up(t[j]))
            continue;
        unsigned i = o ? s0 + n - 1 - j : s0 + j;
        ctx->up_pos[o][s0 + k] = (uint16_t)j;
        ctx->up_let[o][s0 + k] = ctx->up_index[p->sym[i] - SP_SYM_LETTER];
        k++;
    }
    ctx->up_off[b] = (uint16_t)s0;
    ctx->up_cnt[b] = (uint16_t)k;
}

/* Compares boundaries a and b in orientation o by length, then by least rotation. */
static int boundary_cmp(const sp_canon_ctx *ctx, unsigned o, unsigned a, unsigned b)
{
    unsigned na = blen(ctx->p, a), nb = blen(ctx->p, b);
    if (na != nb)
        return na < nb ? -1 : 1;
    const sp_tok *ta = ctx->tok[o] + sp_pos_bstart(ctx->p, a), *tb = ctx->tok[o] + sp_pos_bstart(ctx->p, b);
    unsigned ra = ctx->rot[o][a], rb = ctx->rot[o][b];
    for (unsigned k = 0; k < na; k++) {
        sp_tok x = ta[(ra + k) % na], y = tb[(rb + k) % na];
        if (x != y)
            return x < y ? -1 : 1;
    }
    return 0;
}

static unsigned count_up(const sp_canon_ctx *ctx, unsigned o, unsigned b)
{
    const sp_tok *t = ctx->tok[o] + sp_pos_bstart(ctx->p, b);
    unsigned k = 0;
    for (unsigned i = 0; i < blen(ctx->p, b); i++)
        k += is_bare_up(t[i]);
    return k;
}

/* ---------------------------------------------------------------- local forms */

static uint32_t sat_mul(uint32_t a, uint32_t b)
{
    return b && a > SYM_CAP / b ? SYM_CAP : a * b;
}

/* Sorts region r's boundaries in orientation o into ctx->bord and writes the local form. */
static unsigned region_form(sp_canon_ctx *ctx, unsigned r, unsigned o, sp_tok *out)
{
    const sp_pos *p = ctx->p;
    unsigned b0 = sp_pos_rstart(p, r), m = p->rend[r] - b0, len = 0;
    uint16_t *ord = ctx->bord[o] + b0;
    for (unsigned i = 0; i < m; i++) {
        unsigned b = b0 + i, j = i;
        while (j > 0 && boundary_cmp(ctx, o, ord[j - 1], b) > 0) {
            ord[j] = ord[j - 1];
            j--;
        }
        ord[j] = (uint16_t)b;
    }
    uint16_t *gf = ctx->gfirst[o] + b0;
    for (unsigned i = 0; i < m; i++)
        gf[i] = (uint16_t)(i > 0 && boundary_cmp(ctx, o, ord[i - 1], ord[i]) == 0 ? gf[i - 1] : i);
    out[len++] = (sp_tok)(SP_TK_ZEROS + p->zeros[r]);
    for (unsigned i = 0; i < m; i++) {
        unsigned b = ord[i], s0 = sp_pos_bstart(p, b), n = blen(p, b), rot = ctx->rot[o][b];
        for (unsigned k = 0; k < n; k++)
            out[len++] = ctx->tok[o][s0 + (rot + k) % n];
        out[len++] = SP_TK_END_B;
    }
    out[len++] = SP_TK_END_R;
    return len;
}

/* Local symmetries of a region in orientation o: equal boundaries that hold upper-case letters can
 * trade places, and each can start at any of its least rotations. */
static uint32_t region_symmetry(const sp_canon_ctx *ctx, unsigned r, unsigned o)
{
    const sp_pos *p = ctx->p;
    unsigned b0 = sp_pos_rstart(p, r), m = p->rend[r] - b0;
    const uint16_t *ord = ctx->bord[o] + b0;
    uint32_t sym = 1;
    for (unsigned i = 0; i < m; i++) {
        unsigned b = ord[i];
        if (!count_up(ctx, o, b))
            continue;
        /* the i-th of a group of equal boundaries multiplies by its rank: g! in all */
        sym = sat_mul(sym, i - ctx->gfirst[o][b0 + i] + 1);
        sym = sat_mul(sym, blen(p, b) / ctx->period[o][b]);
    }
    return sym;
}

static unsigned boundary_slots(const sp_canon_ctx *ctx, unsigned o, unsigned b, unsigned rot, uint16_t *slots);

/* A region with one layout (symmetry 1): its slot map is fixed, so naming needs no search. */
static void record_rigid(sp_canon_ctx *ctx, unsigned r, unsigned o)
{
    const sp_pos *p = ctx->p;
    region_info *ri = &ctx->info[r];
    unsigned b0 = sp_pos_rstart(p, r), m = p->rend[r] - b0, k = 0;
    ri->rigid_off = ctx->rigid_len;
    for (unsigned i = 0; i < m; i++) {
        unsigned b = ri->sorted ? b0 : ctx->bord[o][b0 + i];
        k += boundary_slots(ctx, o, b, ri->sorted ? 0 : ctx->rot[o][b], ctx->rigid + ctx->rigid_len + k);
    }
    ctx->rigid_len += k;
}

static int cmp_tok(const void *a, const void *b)
{
    return (int)*(const sp_tok *)a - (int)*(const sp_tok *)b;
}

/* Builds the local form of region r, appending it to ctx->form at *form_len. */
static void build_region(sp_canon_ctx *ctx, unsigned r, uint32_t *form_len)
{
    const sp_pos *p = ctx->p;
    region_info *ri = &ctx->info[r];
    unsigned b0 = sp_pos_rstart(p, r), b1 = p->rend[r];
    unsigned lives2 = 6u * p->zeros[r]; /* twice the lives, so that a lower-case letter counts 1 */
    bool lower = false;
    for (unsigned b = b0; b < b1; b++) {
        boundary_tokens(ctx, b, 0);
        const sp_tok *t = ctx->tok[0] + sp_pos_bstart(p, b);
        for (unsigned k = 0; k < blen(p, b); k++) {
            lives2 += t[k] == SP_TK_ONE ? 4 : t[k] >= SP_TK_LO ? 1 : 2;
            lower |= t[k] >= SP_TK_LO;
        }
    }
    sp_tok *out = ctx->form + *form_len;
    ri->form_off = *form_len;
    ri->nup = 0;
    ri->sorted = lives2 <= 6 && b1 - b0 == 1 && !lower;
    if (ri->sorted) {
        /* 2-3 lives: the order of the one boundary is irrelevant (simplify.h), so sort it */
        unsigned s0 = sp_pos_bstart(p, b0), n = blen(p, b0), len = 0;
        out[len++] = (sp_tok)(SP_TK_ZEROS + p->zeros[r]);
        memcpy(out + len, ctx->tok[0] + s0, sizeof(sp_tok) * n);
        qsort(out + len, n, sizeof(sp_tok), cmp_tok);
        len += n;
        out[len++] = SP_TK_END_B;
        out[len++] = SP_TK_END_R;
        ri->nup = (uint16_t)count_up(ctx, 0, b0);
        ri->form_len = len;
        ri->orients = 1;
        ri->symmetry = 1;
        for (unsigned k = 2; k <= ri->nup; k++)
            ri->symmetry = sat_mul(ri->symmetry, k);
        *form_len += len;
        if (ri->symmetry == 1)
            record_rigid(ctx, r, 0);
        return;
    }
    for (unsigned b = b0; b < b1; b++)
        boundary_tokens(ctx, b, 1);
    unsigned len0 = region_form(ctx, r, 0, ctx->tmp[0]);
    unsigned len1 = region_form(ctx, r, 1, ctx->tmp[1]);
    int c = sp_key_cmp(ctx->tmp[0], len0, ctx->tmp[1], len1);
    ri->orients = c < 0 ? 1 : c > 0 ? 2 : 3;
    memcpy(out, ctx->tmp[c <= 0 ? 0 : 1], sizeof(sp_tok) * len0);
    ri->form_len = len0;
    *form_len += len0;
    for (unsigned i = 0; i < len0; i++)
        ri->nup += is_bare_up(out[i]);
    ri->symmetry = region_symmetry(ctx, r, c <= 0 ? 0 : 1);
    if (ri->orients == 3)
        ri->symmetry = sat_mul(ri->symmetry, 2);
    if (ri->symmetry == 1)
        record_rigid(ctx, r, c <= 0 ? 0 : 1);
}

/* ---------------------------------------------------------------- naming the letters */

static uint64_t state_hash(const sp_canon_ctx *ctx, unsigned gen, unsigned t)
{
    return XXH3_64bits(ctx->names[gen] + (size_t)t * ctx->nup_total, sizeof(uint16_t) * ctx->nup_total) ^
           XXH3_64bits(ctx->placed[gen][t], sizeof ctx->placed[0][0]);
}

/* Starts the next states afresh: every slot of ctx->seen becomes empty by the stamp (the table is
 * cleared only when the stamps run out), so a level costs nothing for its size. */
static void forget_states(sp_canon_ctx *ctx)
{
    ctx->nnext = ctx->seen_n = 0;
    if (++ctx->stamp >= (1u << (32 - SEEN_BITS))) {
        memset(ctx->seen, 0, sizeof ctx->seen);
        ctx->stamp = 1;
    }
}

static bool same_state(const sp_canon_ctx *ctx, unsigned nx, unsigned u, unsigned t)
{
    const size_t total = ctx->nup_total;
    return ctx->hash[u] == ctx->hash[t] && !memcmp(ctx->placed[nx][u], ctx->placed[nx][t], sizeof ctx->placed[0][0]) &&
           !memcmp(ctx->names[nx] + u * total, ctx->names[nx] + t * total, sizeof(uint16_t) * total);
}

/* Whether next state t is in the table by its hash; if not, it is put there. The table is twice the
 * most states, so a probe ends at an empty slot. */
static bool seen_before(sp_canon_ctx *ctx, unsigned nx, unsigned t)
{
    const size_t mask = 2 * SP_CANON_MAX_STATES - 1;
    for (size_t i = ctx->hash[t] & mask;; i = (i + 1) & mask) {
        uint32_t v = ctx->seen[i];
        if (v >> SEEN_BITS != ctx->stamp) {
            ctx->seen[i] = ctx->stamp << SEEN_BITS | (t + 1);
            return false;
        }
        if (same_state(ctx, nx, (v & SEEN_MASK) - 1, t))
            return true;
    }
}

/* Whether next state t (its hash in ctx->hash) equals one before it: a scan of them while they are
 * few, the table once they are many. Symmetric positions keep hundreds of states, and the scan then
 * cost a fifth of all the time of their canonical forms. */
static bool state_before(sp_canon_ctx *ctx, unsigned nx, unsigned t)
{
    if (t < SEEN_SCAN) {
        for (unsigned u = 0; u < t; u++)
            if (same_state(ctx, nx, u, t))
                return true;
        return false;
    }
    for (; ctx->seen_n < t; ctx->seen_n++)
        (void)seen_before(ctx, nx, ctx->seen_n); /* those before t differ from each other */
    bool seen = seen_before(ctx, nx, t);
    ctx->seen_n += !seen;
    return seen;
}

static void push_state(sp_canon_ctx *ctx, const layout *w)
{
    unsigned nx = ctx->cur ^ 1, t = ctx->nnext, nup = ctx->info[w->r].nup, total = ctx->nup_total;
    if (t >= SP_CANON_MAX_STATES) {
        ctx->overflow = true; /* matters only if this block stays the least */
        return;
    }
    uint16_t *names = ctx->names[nx] + (size_t)t * total;
    memcpy(names, w->names, sizeof(uint16_t) * total);
    unsigned fresh = w->fresh0;
    for (unsigned j = 0; j < nup; j++)
        if (names[w->path[j]] == NONE)
            names[w->path[j]] = (uint16_t)fresh++;
    ctx->next_name[nx][t] = (uint16_t)fresh;
    uint64_t *placed = ctx->placed[nx][t];
    memcpy(placed, ctx->placed[ctx->cur][w->s], sizeof ctx->placed[0][0]);
    placed[w->c / 64] |= 1ull << (w->c % 64);
    if (t > 0) { /* a state reached twice is kept once; hashing waits for a second state */
        if (t == 1)
            ctx->hash[0] = state_hash(ctx, nx, 0);
        ctx->hash[t] = state_hash(ctx, nx, t);
        if (state_before(ctx, nx, t))
            return;
    }
    ctx->nnext++;
}

/* A complete layout: a new least block drops the states kept for the old one. */
static bool leaf(sp_canon_ctx *ctx, const layout *w, int st)
{
    if (st < 0) {
        forget_states(ctx);
        ctx->have_best = true;
        ctx->overflow = false;
    }
    push_state(ctx, w);
    return st < 0;
}

/* Names the letter of slot j (path[j]) and compares it with the best block there. st is 0 while the
 * layout so far equals the best block and -1 once it is smaller (then it overwrites the best block).
 * Returns the new st, or 1 when the layout is larger (prune). */
static inline int compare_slot(sp_canon_ctx *ctx, const layout *w, unsigned j, unsigned *nfresh, int st)
{
    uint64_t *best = ctx->block + ctx->base;
    unsigned u = w->path[j];
    unsigned nm = w->names[u] != NONE ? w->names[u] : w->fresh0 + (*nfresh)++;
    uint64_t v = (uint64_t)ctx->lcolor[u] << 16 | nm; /* colour first: it is invariant */
    if (st == 0 && v != best[j]) {
        if (v > best[j])
            return 1;
        st = -1;
    }
    if (st < 0)
        best[j] = v;
    return st;
}

/* compare_slot() for the k slots path[from..from+k), up to the first larger one. */
static int compare_slots(sp_canon_ctx *ctx, const layout *w, unsigned from, unsigned k, unsigned *nfresh, int st)
{
    for (unsigned j = from; j < from + k && st <= 0; j++)
        st = compare_slot(ctx, w, j, nfresh, st);
    return st;
}

/* The first of boundary b's upper-case slots (orientation o) read from rotation rot. */
static unsigned first_slot(const sp_canon_ctx *ctx, unsigned o, unsigned b, unsigned rot)
{
    unsigned n = ctx->up_cnt[b], first = 0;
    const uint16_t *pos = ctx->up_pos[o] + ctx->up_off[b];
    while (first < n && pos[first] < rot)
        first++;
    return first;
}

/* Upper-case letters of boundary b read in orientation o from rotation rot, as dense indices. */
static unsigned boundary_slots(const sp_canon_ctx *ctx, unsigned o, unsigned b, unsigned rot, uint16_t *slots)
{
    unsigned n = ctx->up_cnt[b], first = first_slot(ctx, o, b, rot);
    const uint16_t *let = ctx->up_let[o] + ctx->up_off[b];
    for (unsigned j = 0; j < n; j++)
        slots[j] = let[(first + j) % n];
    return n;
}

/* Lays the upper-case letters of boundary b, read from rotation rot, into path[nslot..] and compares
 * them as compare_slots() does, as they come: most rotations are larger at their first letters, and
 * the letters after those are then never needed. */
static int lay_slots(sp_canon_ctx *ctx, layout *w, unsigned b, unsigned rot, unsigned nslot, unsigned *nfresh, int st)
{
    unsigned n = ctx->up_cnt[b], first = first_slot(ctx, w->o, b, rot);
    const uint16_t *let = ctx->up_let[w->o] + ctx->up_off[b];
    for (unsigned j = 0; j < n && st <= 0; j++) {
        w->path[nslot + j] = let[(first + j) % n];
        st = compare_slot(ctx, w, nslot + j, nfresh, st);
    }
    return st;
}

/* Fills form positions t.. of a region with its boundaries (equal ones may trade places) at each
 * least rotation. Returns true when a new least block was found below. */
static bool lay_boundaries(sp_canon_ctx *ctx, layout *w, unsigned t, unsigned nslot, unsigned nfresh, int st)
{
    const sp_pos *p = ctx->p;
    unsigned b0 = sp_pos_rstart(p, w->r), m = p->rend[w->r] - b0;
    if (t == m)
        return leaf(ctx, w, st);
    const uint16_t *ord = ctx->bord[w->o] + b0, *gf = ctx->gfirst[w->o] + b0;
    unsigned g0 = gf[t];
    bool found = false;
    for (unsigned c = g0; c < m && gf[c] == g0; c++) {
        if (w->used[c])
            continue;
        unsigned b = ord[c], n = blen(p, b), per = ctx->period[w->o][b], k = 0;
        w->used[c] = 1;
        for (unsigned rot = ctx->rot[w->o][b] % per; rot < n; rot += per) {
            k = ctx->up_cnt[b];
            unsigned f = nfresh;
            int st2 = lay_slots(ctx, w, b, rot, nslot, &f, st);
            if (st2 <= 0 && lay_boundaries(ctx, w, t + 1, nslot + k, f, st2)) {
                found = true;
                st = 0;
            }
            if (k == 0)
                break; /* without upper case, rotations lay out the same */
        }
        w->used[c] = 0;
        if (k == 0)
            break; /* ... and equal boundaries are interchangeable */
    }
    return found;
}

/* A region with 2-3 lives: its letters may come in any order that keeps each slot's colour (the
 * sorted form says which colour slot j has). */
static bool lay_letters(sp_canon_ctx *ctx, layout *w, const uint16_t *letters, const uint8_t *slot_col, unsigned j,
                        unsigned nfresh, int st)
{
    unsigned nup = ctx->info[w->r].nup;
    if (j == nup)
        return leaf(ctx, w, st);
    bool found = false;
    for (unsigned i = 0; i < nup; i++) {
        if (w->used[i] || ctx->up_col[letters[i]] != slot_col[j])
            continue;
        w->used[i] = 1;
        w->path[j] = letters[i];
        unsigned f = nfresh;
        int st2 = compare_slots(ctx, w, j, 1, &f, st);
        if (st2 <= 0 && lay_letters(ctx, w, letters, slot_col, j + 1, f, st2)) {
            found = true;
            st = 0;
        }
        w->used[i] = 0;
    }
    return found;
}

/* One level of the search: every state, every unplaced region of the group [g0, g1), every layout. */
static void search_level(sp_canon_ctx *ctx, unsigned g0, unsigned g1)
{
    layout *w = &ctx->lay;
    forget_states(ctx);
    ctx->have_best = ctx->overflow = false;
    for (unsigned s = 0; s < ctx->nstates; s++) {
        w->s = s;
        w->names = ctx->names[ctx->cur] + (size_t)s * ctx->nup_total;
        w->fresh0 = ctx->next_name[ctx->cur][s];
        for (unsigned c = g0; c < g1; c++) {
            if (ctx->placed[ctx->cur][s][c / 64] >> (c % 64) & 1)
                continue;
            w->c = c;
            w->r = ctx->rorder[c];
            const region_info *ri = &ctx->info[w->r];
            if (ri->sorted) {
                uint16_t letters[4];
                uint8_t slot_col[4];
                unsigned b = sp_pos_rstart(ctx->p, w->r), j = 0;
                boundary_slots(ctx, 0, b, 0, letters);
                for (unsigned k = 0; k < ri->form_len; k++)
                    if (is_bare_up(ctx->form[ri->form_off + k]))
                        slot_col[j++] = (uint8_t)sp_tk_colour(ctx->form[ri->form_off + k]);
                assert(j == ri->nup && j <= 3);
                memset(w->used, 0, ri->nup);
                w->o = 0;
                lay_letters(ctx, w, letters, slot_col, 0, 0, ctx->have_best ? 0 : -1);
                continue;
            }
            for (w->o = 0; w->o < 2; w->o++) {
                if (!(ri->orients >> w->o & 1))
                    continue;
                memset(w->used, 0, ctx->p->rend[w->r] - sp_pos_rstart(ctx->p, w->r));
                lay_boundaries(ctx, w, 0, 0, 0, ctx->have_best ? 0 : -1);
            }
        }
    }
    ctx->truncated |= ctx->overflow;
    ctx->cur ^= 1;
    ctx->nstates = ctx->nnext;
    ctx->base += ctx->info[ctx->rorder[g0]].nup;
}

/* ---------------------------------------------------------------- lands */

/* Pairs lower-case occurrences, numbers the upper-case letters of regions [r0, r1) and lists the
 * upper-case letters of every region. */
static unsigned index_letters(sp_canon_ctx *ctx, unsigned r0, unsigned r1)
{
    const sp_pos *p = ctx->p;
    uint16_t first[SP_MAX_SYMS], first_b[SP_MAX_SYMS], first_r[SP_MAX_SYMS];
    unsigned s0 = sp_pos_bstart(p, sp_pos_rstart(p, r0)), s1 = sp_pos_bstart(p, p->rend[r1 - 1]);
    unsigned nup = 0;
    for (unsigned i = s0; i < s1; i++)
        if (sp_sym_is_letter(p->sym[i]))
            first[p->sym[i] - SP_SYM_LETTER] = NONE;
    for (unsigned r = r0; r < r1; r++) {
        for (unsigned b = sp_pos_rstart(p, r); b < p->rend[r]; b++) {
            for (unsigned i = sp_pos_bstart(p, b); i < p->bend[b]; i++) {
                ctx->partner[i] = NONE;
                if (!sp_sym_is_letter(p->sym[i]))
                    continue;
                unsigned k = p->sym[i] - SP_SYM_LETTER;
                if (first[k] == NONE) {
                    first[k] = (uint16_t)i;
                    first_b[k] = (uint16_t)b;
                    first_r[k] = (uint16_t)r;
                } else if (first_b[k] == b) {
                    ctx->partner[i] = first[k];
                    ctx->partner[first[k]] = (uint16_t)i;
                } else {
                    ctx->up_col[nup] = ctx->col ? ctx->col[i] : 0;
                    ctx->up_index[k] = (uint16_t)nup;
                    ctx->up_reg[nup][0] = first_r[k];
                    ctx->up_reg[nup][1] = (uint16_t)r;
                    nup++;
                }
            }
        }
    }
    return nup;
}

/* The upper-case letters of each region (regions counted from r0), as dense indices. */
static void list_region_letters(sp_canon_ctx *ctx, unsigned r0, unsigned nr)
{
    uint32_t *start = ctx->reg_letters;
    memset(start, 0, (nr + 1) * sizeof *start);
    for (unsigned u = 0; u < ctx->nup_total; u++)
        for (int e = 0; e < 2; e++)
            start[ctx->up_reg[u][e] - r0 + 1]++;
    for (unsigned r = 0; r < nr; r++)
        start[r + 1] += start[r];
    uint32_t fill[SP_MAX_REGS];
    memcpy(fill, start, nr * sizeof *fill);
    for (unsigned u = 0; u < ctx->nup_total; u++)
        for (int e = 0; e < 2; e++)
            ctx->rletter[fill[ctx->up_reg[u][e] - r0]++] = (uint16_t)u;
}

/* First colours: rigid regions first (fewer local symmetries), then by local form. */
static int region_cmp0(const sp_canon_ctx *ctx, unsigned a, unsigned b)
{
    const region_info *x = &ctx->info[a], *y = &ctx->info[b];
    if (x->symmetry != y->symmetry)
        return x->symmetry < y->symmetry ? -1 : 1;
    return sp_key_cmp(ctx->form + x->form_off, x->form_len, ctx->form + y->form_off, y->form_len);
}

/* Refined colours: the region's colour, then the sorted colours of its letters. */
static int region_cmp1(const sp_canon_ctx *ctx, unsigned r0, unsigned a, unsigned b)
{
    if (ctx->rcolor[a] != ctx->rcolor[b])
        return ctx->rcolor[a] < ctx->rcolor[b] ? -1 : 1;
    const uint32_t *sa = ctx->sig + ctx->reg_letters[a - r0], *sb = ctx->sig + ctx->reg_letters[b - r0];
    unsigned na = ctx->reg_letters[a - r0 + 1] - ctx->reg_letters[a - r0];
    unsigned nb = ctx->reg_letters[b - r0 + 1] - ctx->reg_letters[b - r0];
    for (unsigned i = 0; i < na && i < nb; i++)
        if (sa[i] != sb[i])
            return sa[i] < sb[i] ? -1 : 1;
    return na < nb ? -1 : na > nb;
}

/* Sorts the regions by round (0 or 1) and gives each its rank as colour; returns the number of colours. */
static unsigned rank_regions(sp_canon_ctx *ctx, unsigned r0, unsigned nr, int round)
{
    uint16_t *ord = ctx->rorder;
    for (unsigned i = 0; i < nr; i++) {
        unsigned j = i, r = round ? ord[i] : r0 + i;
        for (; j > 0 && (round ? region_cmp1(ctx, r0, ord[j - 1], r) : region_cmp0(ctx, ord[j - 1], r)) > 0; j--)
            ord[j] = ord[j - 1];
        ord[j] = (uint16_t)r;
    }
    uint32_t rank[SP_MAX_REGS], colours = 0;
    for (unsigned i = 0; i < nr; i++) {
        bool same = i > 0 && (round ? region_cmp1(ctx, r0, ord[i - 1], ord[i]) : region_cmp0(ctx, ord[i - 1], ord[i])) == 0;
        colours += !same;
        rank[i] = colours - 1;
    }
    for (unsigned i = 0; i < nr; i++)
        ctx->rcolor[ord[i]] = rank[i];
    return colours;
}

static void colour_letters(sp_canon_ctx *ctx)
{
    for (unsigned u = 0; u < ctx->nup_total; u++) {
        uint32_t a = ctx->rcolor[ctx->up_reg[u][0]], b = ctx->rcolor[ctx->up_reg[u][1]];
        ctx->lcolor[u] = a < b ? a << 16 | b : b << 16 | a;
    }
}

/* Colour refinement (in the manner of Weisfeiler and Leman): regions are told apart by the colours
 * of their letters, letters by the colours of their two regions. Colours are invariant, so they can
 * order the regions and break ties between letters without losing canonicity; they leave the
 * labelling search only the ties that symmetries really make. Ends with ctx->rorder sorted. */
static void refine_colours(sp_canon_ctx *ctx, unsigned r0, unsigned nr)
{
    unsigned colours = rank_regions(ctx, r0, nr, 0);
    list_region_letters(ctx, r0, nr);
    for (int round = 0; round < 3 && colours < nr; round++) {
        colour_letters(ctx);
        for (unsigned r = 0; r < nr; r++) {
            uint32_t *sg = ctx->sig + ctx->reg_letters[r];
            unsigned n = ctx->reg_letters[r + 1] - ctx->reg_letters[r];
            for (unsigned i = 0; i < n; i++) {
                uint32_t v = ctx->lcolor[ctx->rletter[ctx->reg_letters[r] + i]];
                unsigned j = i;
                for (; j > 0 && sg[j - 1] > v; j--)
                    sg[j] = sg[j - 1];
                sg[j] = v;
            }
        }
        unsigned more = rank_regions(ctx, r0, nr, 1);
        if (more == colours)
            break;
        colours = more;
    }
    colour_letters(ctx);
}

/* The common case, one state and a region alone in its group with one layout: name its letters in
 * place, as the search would, without copying the state. */
static void place_rigid(sp_canon_ctx *ctx, unsigned c)
{
    const region_info *ri = &ctx->info[ctx->rorder[c]];
    uint16_t *names = ctx->names[ctx->cur];
    unsigned fresh = ctx->next_name[ctx->cur][0];
    for (unsigned j = 0; j < ri->nup; j++) {
        unsigned u = ctx->rigid[ri->rigid_off + j];
        if (names[u] == NONE)
            names[u] = (uint16_t)fresh++;
        ctx->block[ctx->base + j] = (uint64_t)ctx->lcolor[u] << 16 | names[u];
    }
    ctx->next_name[ctx->cur][0] = (uint16_t)fresh;
    ctx->placed[ctx->cur][0][c / 64] |= 1ull << (c % 64);
    ctx->base += ri->nup;
}

static size_t emit_land(const sp_canon_ctx *ctx, unsigned nr, sp_tok *out)
{
    size_t len = 0;
    unsigned bpos = 0;
    for (unsigned i = 0; i < nr; i++) {
        const region_info *ri = &ctx->info[ctx->rorder[i]];
        for (unsigned k = 0; k < ri->form_len; k++) {
            sp_tok t = ctx->form[ri->form_off + k];
            out[len++] = is_bare_up(t) ? (sp_tok)(t + (ctx->block[bpos++] & 0xffff)) : t;
        }
    }
    out[len++] = SP_TK_END_L;
    return len;
}

size_t sp_canon_land(sp_canon_ctx *ctx, const sp_pos *p, unsigned l, sp_tok *out)
{
    unsigned r0 = sp_pos_lstart(p, l), r1 = p->lend[l], nr = r1 - r0;
    uint32_t form_len = 0;
    ctx->p = p;
    ctx->truncated = false;
    ctx->rigid_len = 0;
    ctx->nup_total = index_letters(ctx, r0, r1);
    for (unsigned r = r0; r < r1; r++)
        build_region(ctx, r, &form_len);
    if (ctx->nup_total == 0) { /* one region, nothing to name */
        ctx->rorder[0] = (uint16_t)r0;
        return emit_land(ctx, 1, out);
    }
    refine_colours(ctx, r0, nr);

    ctx->cur = 0;
    ctx->nstates = 1;
    ctx->base = 0;
    memset(ctx->names[0], 0xff, sizeof(uint16_t) * ctx->nup_total);
    memset(ctx->placed[0][0], 0, sizeof ctx->placed[0][0]);
    ctx->next_name[0][0] = 0;
    for (unsigned g0 = 0, g1; g0 < nr; g0 = g1) {
        for (g1 = g0 + 1; g1 < nr && ctx->rcolor[ctx->rorder[g1]] == ctx->rcolor[ctx->rorder[g0]]; g1++)
            ;
        if (g1 - g0 == 1 && ctx->nstates == 1 && ctx->info[ctx->rorder[g0]].symmetry == 1) {
            place_rigid(ctx, g0);
            continue;
        }
        for (unsigned i = g0; i < g1; i++)
            search_level(ctx, g0, g1);
    }
    ctx->inexact += ctx->truncated;
    return emit_land(ctx, nr, out);
}

size_t sp_canon_pos(sp_canon_ctx *ctx, const sp_pos *p, sp_tok *out)
{
    return sp_canon_pos_colours(ctx, p, NULL, out);
}

size_t sp_canon_pos_colours(sp_canon_ctx *ctx, const sp_pos *p, const uint8_t *col, sp_tok *out)
{
    ctx->col = col;
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    uint16_t ord[SP_MAX_LANDS];
    size_t total = 0;
    for (unsigned l = 0; l < p->nland; l++) {
        off[l] = (uint32_t)total;
        lens[l] = (uint32_t)sp_canon_land(ctx, p, l, ctx->landkeys + total);
        total += lens[l];
        unsigned j = l;
        while (j > 0 && sp_key_cmp(ctx->landkeys + off[ord[j - 1]], lens[ord[j - 1]], ctx->landkeys + off[l], lens[l]) > 0) {
            ord[j] = ord[j - 1];
            j--;
        }
        ord[j] = (uint16_t)l;
    }
    size_t len = 0;
    for (unsigned i = 0; i < p->nland; i++) {
        memcpy(out + len, ctx->landkeys + off[ord[i]], sizeof(sp_tok) * lens[ord[i]]);
        len += lens[ord[i]];
    }
    ctx->col = NULL; /* sp_canon_land() alone knows no colours */
    return len;
}

size_t sp_pos_key(sp_canon_ctx *ctx, const sp_pos *p, sp_tok *out)
{
    sp_pos q;
    memcpy(&q, p, sizeof q);
    sp_pos_simplify(&q);
    return sp_canon_pos(ctx, &q, out);
}

size_t sp_pos_key_colours(sp_canon_ctx *ctx, const sp_pos *p, const uint8_t *col, sp_tok *out)
{
    sp_pos q;
    uint8_t qcol[SP_MAX_SYMS];
    memcpy(&q, p, sizeof q);
    memcpy(qcol, col, p->nsym);
    sp_pos_simplify_colours(&q, qcol);
    return sp_canon_pos_colours(ctx, &q, qcol, out);
}
