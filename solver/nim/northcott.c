/* northcott.c: Northcott's game (northcott.h): row placements and their moves, the full and the
 * sorted whole-board state spaces as retrograde graphs, and the checks of the seed's claims. */
#include "northcott.h"

#include <stdlib.h>
#include <string.h>

#define MAX_K (SP_NC_MAX_COLS * (SP_NC_MAX_COLS - 1) / 2) /* placements of one row */
#define MAX_TARGETS (SP_NC_MAX_COLS - 2)                    /* moves of one checker */
#define MAX_STATES (UINT64_C(1) << 62)

struct sp_nc_space {
    unsigned rows, cols, k;
    sp_nc_kind kind;
    sp_nc_mode mode[2];
    uint64_t per_side; /* states with one given side to move */
    uint8_t left[MAX_K], right[MAX_K];
    uint8_t code[SP_NC_MAX_COLS][SP_NC_MAX_COLS];
    /* mv[p][d]: the placements player p's moves reach from placement d; un[p][d]: the placements from
     * which one of player p's moves reaches d (the reverse edges, for predecessors). */
    uint8_t nmv[2][MAX_K], mv[2][MAX_K][MAX_TARGETS];
    uint8_t nun[2][MAX_K], un[2][MAX_K][MAX_TARGETS];
    uint64_t pow[SP_NC_MAX_ROWS + 1];                          /* k^i, full spaces */
    uint64_t binom[SP_NC_MAX_ROWS + 2][MAX_K + SP_NC_MAX_ROWS]; /* C(n, j) as binom[j][n], sorted */
};

/* ---------------------------------------------------------------- rows and moves */

static bool mode_allows(sp_nc_mode mode, bool forward)
{
    return mode == SP_NC_FREE || (mode == SP_NC_FORWARD) == forward;
}

/* The squares player's checker can go to in a row with checkers at a < b. */
static unsigned row_targets(unsigned a, unsigned b, unsigned cols, unsigned player, sp_nc_mode mode, uint8_t *to)
{
    unsigned n = 0, from = player ? b : a;
    unsigned lo = player ? a + 1 : 0, hi = player ? cols - 1 : b - 1;
    for (unsigned x = lo; x <= hi; x++) {
        bool forward = player ? x < from : x > from;
        if (x != from && mode_allows(mode, forward))
            to[n++] = (uint8_t)x;
    }
    return n;
}

unsigned sp_nc_moves(const sp_nc_pos *p, sp_nc_mode mode, sp_nc_move *out)
{
    unsigned n = 0;
    for (unsigned i = 0; i < p->rows; i++) {
        uint8_t to[SP_NC_MAX_COLS];
        unsigned m = row_targets(p->left[i], p->right[i], p->cols, p->side, mode, to);
        for (unsigned j = 0; j < m; j++)
            out[n++] = (sp_nc_move){(uint8_t)i, to[j]};
    }
    return n;
}

void sp_nc_play(sp_nc_pos *p, sp_nc_move m)
{
    if (p->side)
        p->right[m.row] = m.to;
    else
        p->left[m.row] = m.to;
    p->side ^= 1;
}

bool sp_nc_is_forward(const sp_nc_pos *p, sp_nc_move m)
{
    return p->side ? m.to < p->right[m.row] : m.to > p->left[m.row];
}

void sp_nc_gaps(const sp_nc_pos *p, unsigned *gaps)
{
    for (unsigned i = 0; i < p->rows; i++)
        gaps[i] = (unsigned)(p->right[i] - p->left[i] - 1);
}

bool sp_nc_xor_rule(const unsigned *gaps, unsigned rows)
{
    unsigned x = 0;
    for (unsigned i = 0; i < rows; i++)
        x ^= gaps[i];
    return x != 0;
}

bool sp_nc_and_rule(const unsigned *gaps, unsigned rows)
{
    unsigned x = ~0u;
    for (unsigned i = 0; i < rows; i++)
        x &= gaps[i];
    return x != 0;
}

/* ---------------------------------------------------------------- sizes */

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return b && a > MAX_STATES / b ? MAX_STATES : a * b;
}

static bool board_ok(unsigned rows, unsigned cols)
{
    return rows >= 1 && rows <= SP_NC_MAX_ROWS && cols >= 2 && cols <= SP_NC_MAX_COLS &&
           rows * (cols - 2) <= SP_RETRO_MAX_DEGREE;
}

/* C(n, j), saturated at MAX_STATES. */
static uint64_t choose(unsigned n, unsigned j)
{
    if (j > n)
        return 0;
    uint64_t c = 1;
    for (unsigned i = 1; i <= j && c < MAX_STATES; i++) {
        /* c * (n - j + i) / i stays exact: c is C(n-j+i-1, i-1) and the product is divisible by i */
        uint64_t num = sat_mul(c, n - j + i);
        c = num == MAX_STATES ? MAX_STATES : num / i;
    }
    return c;
}

static uint64_t per_side(unsigned rows, unsigned cols, sp_nc_kind kind)
{
    uint64_t k = cols * (cols - 1) / 2;
    if (kind == SP_NC_SORTED)
        return choose((unsigned)k + rows - 1, rows);
    uint64_t n = 1;
    for (unsigned i = 0; i < rows; i++)
        n = sat_mul(n, k);
    return n;
}

uint64_t sp_nc_state_count(unsigned rows, unsigned cols, sp_nc_kind kind)
{
    if (!board_ok(rows, cols))
        return 0;
    uint64_t n = per_side(rows, cols, kind);
    return n >= MAX_STATES / 2 ? 0 : 2 * n;
}

/* ---------------------------------------------------------------- spaces */

static void build_rows(sp_nc_space *sp)
{
    unsigned d = 0;
    for (unsigned a = 0; a < sp->cols; a++)
        for (unsigned b = a + 1; b < sp->cols; b++, d++) {
            sp->left[d] = (uint8_t)a;
            sp->right[d] = (uint8_t)b;
            sp->code[a][b] = (uint8_t)d;
        }
    sp->k = d;
    memset(sp->nun, 0, sizeof sp->nun);
    for (unsigned p = 0; p < 2; p++)
        for (d = 0; d < sp->k; d++) {
            uint8_t to[SP_NC_MAX_COLS];
            unsigned a = sp->left[d], b = sp->right[d];
            unsigned n = row_targets(a, b, sp->cols, p, sp->mode[p], to);
            sp->nmv[p][d] = (uint8_t)n;
            for (unsigned j = 0; j < n; j++) {
                unsigned e = p ? sp->code[a][to[j]] : sp->code[to[j]][b];
                sp->mv[p][d][j] = (uint8_t)e;
                sp->un[p][e][sp->nun[p][e]++] = (uint8_t)d;
            }
        }
}

static void build_radix(sp_nc_space *sp)
{
    sp->pow[0] = 1;
    for (unsigned i = 1; i <= sp->rows; i++)
        sp->pow[i] = sp->pow[i - 1] * sp->k;
    for (unsigned j = 0; j <= sp->rows + 1; j++)
        for (unsigned n = 0; n < sp->k + sp->rows; n++)
            sp->binom[j][n] = choose(n, j);
}

sp_nc_space *sp_nc_space_new(unsigned rows, unsigned cols, sp_nc_kind kind, const sp_nc_mode mode[2])
{
    if (!sp_nc_state_count(rows, cols, kind))
        return NULL;
    sp_nc_space *sp = calloc(1, sizeof *sp);
    if (!sp)
        return NULL;
    sp->rows = rows;
    sp->cols = cols;
    sp->kind = kind;
    sp->mode[0] = mode[0];
    sp->mode[1] = mode[1];
    sp->per_side = per_side(rows, cols, kind);
    build_rows(sp);
    build_radix(sp);
    return sp;
}

void sp_nc_space_free(sp_nc_space *sp)
{
    free(sp);
}

uint64_t sp_nc_space_states(const sp_nc_space *sp)
{
    return 2 * sp->per_side;
}

/* ---------------------------------------------------------------- sorted spaces: multisets of rows */

/* The rank of a non-decreasing digit sequence among all of them (combinatorial number system on the
 * strictly increasing t[i] + i). */
static uint64_t rank_sorted(const sp_nc_space *sp, const uint8_t *t)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < sp->rows; i++)
        r += sp->binom[i + 1][t[i] + i];
    return r;
}

static void unrank_sorted(const sp_nc_space *sp, uint64_t r, uint8_t *t)
{
    unsigned top = sp->k + sp->rows - 1; /* every t[i] + i is below this */
    for (unsigned i = sp->rows; i-- > 0;) {
        const uint64_t *c = sp->binom[i + 1];
        unsigned lo = i, hi = top - 1; /* largest u in [lo, hi] with C(u, i+1) <= r */
        while (lo < hi) {
            unsigned mid = (lo + hi + 1) / 2;
            if (c[mid] <= r)
                lo = mid;
            else
                hi = mid - 1;
        }
        t[i] = (uint8_t)(lo - i);
        r -= c[lo];
        top = lo;
    }
}

/* The rank of t with t[i] replaced by e, re-sorted. */
static uint64_t rank_replaced(const sp_nc_space *sp, const uint8_t *t, unsigned i, unsigned e)
{
    uint64_t r = 0;
    unsigned k = 0;
    bool placed = false;
    for (unsigned j = 0; j < sp->rows; j++) {
        if (j == i)
            continue;
        if (!placed && e <= t[j]) {
            r += sp->binom[k + 1][e + k];
            k++;
            placed = true;
        }
        r += sp->binom[k + 1][t[j] + k];
        k++;
    }
    if (!placed)
        r += sp->binom[k + 1][e + k];
    return r;
}

/* ---------------------------------------------------------------- the graphs */

static unsigned side_of(const sp_nc_space *sp, uint64_t s)
{
    return s >= sp->per_side;
}

static void digits(const sp_nc_space *sp, uint64_t s, uint8_t *t)
{
    uint64_t pos = s - side_of(sp, s) * sp->per_side;
    if (sp->kind == SP_NC_SORTED) {
        unrank_sorted(sp, pos, t);
        return;
    }
    for (unsigned i = 0; i < sp->rows; i++, pos /= sp->k)
        t[i] = (uint8_t)(pos % sp->k);
}

/* The digits of state s+1 from those of s, within one side (the caller restarts at the side boundary):
 * an odometer for a full space; for a sorted one the next multiset in rank order, which raises the
 * first digit that is below its successor and clears the ones before it. */
static void next_digits(const sp_nc_space *sp, uint8_t *t)
{
    unsigned i = 0;
    if (sp->kind == SP_NC_FULL) {
        for (; i < sp->rows && t[i] == sp->k - 1; i++)
            t[i] = 0;
    } else {
        while (i + 1 < sp->rows && t[i] == t[i + 1])
            i++;
        memset(t, 0, i);
    }
    if (i < sp->rows)
        t[i]++;
}

/* Walks states first .. first+count-1 in order, keeping their digits in t. */
typedef struct walk {
    const sp_nc_space *sp;
    uint64_t s;
    uint8_t t[SP_NC_MAX_ROWS];
} walk;

static void walk_start(walk *w, const sp_nc_space *sp, uint64_t first)
{
    w->sp = sp;
    w->s = first;
    digits(sp, first, w->t);
}

static void walk_next(walk *w)
{
    if (++w->s == w->sp->per_side)
        memset(w->t, 0, sizeof w->t);
    else
        next_digits(w->sp, w->t);
}

/* In a sorted space equal rows give the same successors; only the first of a run counts. */
static bool repeated_row(const sp_nc_space *sp, const uint8_t *t, unsigned i)
{
    return sp->kind == SP_NC_SORTED && i > 0 && t[i] == t[i - 1];
}

static void succ_counts(const void *ctx, uint64_t first, uint64_t count, unsigned *out)
{
    walk w;
    walk_start(&w, ctx, first);
    for (uint64_t j = 0; j < count; j++, walk_next(&w)) {
        const sp_nc_space *sp = w.sp;
        unsigned side = side_of(sp, w.s), n = 0;
        for (unsigned i = 0; i < sp->rows; i++)
            n += repeated_row(sp, w.t, i) ? 0 : sp->nmv[side][w.t[i]];
        out[j] = n;
    }
}

/* Predecessors: the other side has just moved, from one of the placements un[][] lists. */
static unsigned preds(const void *ctx, uint64_t s, uint64_t *out)
{
    const sp_nc_space *sp = ctx;
    uint8_t t[SP_NC_MAX_ROWS];
    unsigned mover = 1 - side_of(sp, s), n = 0;
    uint64_t base = mover * sp->per_side, pos = s - (1 - mover) * sp->per_side;
    digits(sp, s, t);
    for (unsigned i = 0; i < sp->rows; i++) {
        const uint8_t *from = sp->un[mover][t[i]];
        unsigned m = repeated_row(sp, t, i) ? 0 : sp->nun[mover][t[i]];
        for (unsigned j = 0; j < m; j++) {
            if (sp->kind == SP_NC_SORTED)
                out[n++] = base + rank_replaced(sp, t, i, from[j]);
            else
                out[n++] = base + pos + from[j] * sp->pow[i] - t[i] * sp->pow[i];
        }
    }
    return n;
}

sp_retro_graph sp_nc_space_graph(const sp_nc_space *sp)
{
    return (sp_retro_graph){
        .n = sp_nc_space_states(sp),
        .max_preds = sp->rows * MAX_TARGETS,
        .succ_counts = succ_counts,
        .preds = preds,
        .ctx = sp,
    };
}

static void pos_of_digits(const sp_nc_space *sp, uint64_t state, const uint8_t *t, sp_nc_pos *out)
{
    out->rows = sp->rows;
    out->cols = sp->cols;
    out->side = side_of(sp, state);
    for (unsigned i = 0; i < sp->rows; i++) {
        out->left[i] = sp->left[t[i]];
        out->right[i] = sp->right[t[i]];
    }
}

void sp_nc_decode(const sp_nc_space *sp, uint64_t state, sp_nc_pos *out)
{
    uint8_t t[SP_NC_MAX_ROWS];
    digits(sp, state, t);
    pos_of_digits(sp, state, t, out);
}

static int cmp_u8(const void *a, const void *b)
{
    return *(const uint8_t *)a - *(const uint8_t *)b;
}

uint64_t sp_nc_encode(const sp_nc_space *sp, const sp_nc_pos *p)
{
    uint8_t t[SP_NC_MAX_ROWS];
    for (unsigned i = 0; i < sp->rows; i++)
        t[i] = sp->code[p->left[i]][p->right[i]];
    uint64_t pos = 0;
    if (sp->kind == SP_NC_SORTED) {
        qsort(t, sp->rows, 1, cmp_u8);
        pos = rank_sorted(sp, t);
    } else {
        for (unsigned i = sp->rows; i-- > 0;)
            pos = pos * sp->k + t[i];
    }
    return p->side * sp->per_side + pos;
}

/* rows! / (run lengths)!, built up one row at a time so that it never overflows */
static uint64_t orders(const sp_nc_space *sp, const uint8_t *t)
{
    if (sp->kind == SP_NC_FULL)
        return 1;
    uint64_t n = 1;
    unsigned run = 0;
    for (unsigned i = 0; i < sp->rows; i++) {
        run = i > 0 && t[i] == t[i - 1] ? run + 1 : 1;
        n = n * (i + 1) / run;
    }
    return n;
}

uint64_t sp_nc_class_size(const sp_nc_space *sp, uint64_t state)
{
    uint8_t t[SP_NC_MAX_ROWS];
    digits(sp, state, t);
    return orders(sp, t);
}

/* ---------------------------------------------------------------- the checks */

#define BLOCK 65536u /* states per unit of work of the parallel checks */

static uint64_t block_end(uint64_t b, uint64_t n)
{
    return (b + 1) * BLOCK < n ? (b + 1) * BLOCK : n;
}

/* Whether the rule gets state s (digits t) wrong; counts its outcome. */
static bool rule_fails(const sp_nc_space *sp, uint64_t s, const uint8_t *t, uint8_t label, sp_nc_rule rule,
                       uint64_t count[3])
{
    sp_nc_pos p;
    unsigned gaps[SP_NC_MAX_ROWS];
    pos_of_digits(sp, s, t, &p);
    sp_nc_gaps(&p, gaps);
    sp_retro_outcome_t o = sp_retro_outcome(label);
    count[o]++;
    return o == SP_RETRO_DRAW || (o == SP_RETRO_WIN) != rule(gaps, p.rows);
}

void sp_nc_check_rule(const sp_nc_space *sp, const uint8_t *lab, sp_nc_rule rule,
                      const sp_nim_progress *pr, sp_nc_rule_report *out)
{
    uint64_t n = sp_nc_space_states(sp), nblocks = (n + BLOCK - 1) / BLOCK;
    uint64_t loss = 0, win = 0, draw = 0, positions = 0, bad = 0, first_bad = UINT64_MAX;
SP_NIM_PARALLEL_FOR(schedule(dynamic) reduction(+ : loss, win, draw, positions, bad) reduction(min : first_bad) if (nblocks > 4))
    for (uint64_t b = 0; b < nblocks; b++) {
        uint64_t count[3] = {0, 0, 0};
        walk w;
        walk_start(&w, sp, b * BLOCK);
        for (uint64_t s = b * BLOCK; s < block_end(b, n); s++, walk_next(&w)) {
            positions += orders(sp, w.t);
            if (rule_fails(sp, s, w.t, lab[s], rule, count)) {
                bad++;
                first_bad = s < first_bad ? s : first_bad;
            }
        }
        loss += count[SP_RETRO_LOSS];
        win += count[SP_RETRO_WIN];
        draw += count[SP_RETRO_DRAW];
        sp_nim_report(pr, "checking the rule", b * BLOCK, n);
    }
    *out = (sp_nc_rule_report){n, positions, win, loss, draw, bad, bad > 0, bad ? first_bad : 0};
}

/* Compares the restricted labels with the normal ones on the states player w wins. */
static void compare_restricted(uint64_t n, uint64_t per_side, const uint8_t *lab, const uint8_t *restricted,
                               unsigned w, sp_nc_restricted_report *out)
{
    uint64_t checked = 0, to_move = 0, bad = 0, first_bad = UINT64_MAX;
SP_NIM_PARALLEL_FOR(schedule(static) reduction(+ : checked, to_move, bad) reduction(min : first_bad) if (n > 4 * BLOCK))
    for (uint64_t s = 0; s < n; s++) {
        sp_retro_outcome_t o = sp_retro_outcome(lab[s]);
        unsigned side = s >= per_side;
        if (o == SP_RETRO_DRAW || (o == SP_RETRO_WIN ? side : 1 - side) != w)
            continue;
        checked++;
        to_move += side == w;
        if (sp_retro_outcome(restricted[s]) != o) {
            bad++;
            first_bad = s < first_bad ? s : first_bad;
        }
    }
    out->checked[w] += checked;
    out->won_to_move += to_move;
    if (bad && !out->have_bad) {
        out->have_bad = true;
        out->first_bad = first_bad;
        out->bad_winner = w;
    }
    out->failures += bad;
}

int sp_nc_check_restricted(unsigned rows, unsigned cols, sp_nc_kind kind, const uint8_t *lab,
                           sp_nc_mode winner_mode, uint8_t *scratch, const sp_nim_progress *pr,
                           sp_nc_restricted_report *out)
{
    memset(out, 0, sizeof *out);
    for (unsigned w = 0; w < 2; w++) {
        sp_nc_mode mode[2] = {SP_NC_FREE, SP_NC_FREE};
        mode[w] = winner_mode;
        sp_nc_space *sp = sp_nc_space_new(rows, cols, kind, mode);
        sp_retro_graph g;
        sp_retro_stats st;
        if (sp)
            g = sp_nc_space_graph(sp);
        if (!sp || sp_retro_solve(&g, scratch, pr, &st)) {
            sp_nc_space_free(sp);
            return -1;
        }
        out->sweeps += st.sweeps;
        out->edges += st.edges;
        compare_restricted(g.n, sp->per_side, lab, scratch, w, out);
        sp_nc_space_free(sp);
    }
    return 0;
}

uint64_t sp_nc_cross_check(const sp_nc_space *full, const uint8_t *lab_full, const sp_nc_space *sorted,
                           const uint8_t *lab_sorted, const sp_nim_progress *pr)
{
    uint64_t bad = 0, n = sp_nc_space_states(full), nblocks = (n + BLOCK - 1) / BLOCK;
SP_NIM_PARALLEL_FOR(schedule(dynamic) reduction(+ : bad) if (nblocks > 4))
    for (uint64_t b = 0; b < nblocks; b++) {
        walk w;
        walk_start(&w, full, b * BLOCK);
        for (uint64_t s = b * BLOCK; s < block_end(b, n); s++, walk_next(&w)) {
            sp_nc_pos p;
            pos_of_digits(full, s, w.t, &p);
            bad += sp_retro_outcome(lab_full[s]) != sp_retro_outcome(lab_sorted[sp_nc_encode(sorted, &p)]);
        }
        sp_nim_report(pr, "comparing full and sorted", b * BLOCK, n);
    }
    return bad;
}
