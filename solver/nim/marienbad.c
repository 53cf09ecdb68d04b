/* marienbad.c: Marienbad / misère Nim (marienbad.h): the brute-force outcome table, Bouton's misère
 * rule, the seed's strategy, and the exhaustive play-out of that strategy against every opponent line. */
#include "marienbad.h"

#include <stdlib.h>
#include <string.h>

struct sp_mb_table {
    unsigned nrows;
    unsigned max[SP_MB_MAX_ROWS];
    uint64_t stride[SP_MB_MAX_ROWS];
    uint64_t positions;
    uint8_t *win; /* 1: the player to move wins */
};

static uint64_t index_of(const sp_mb_table *t, const unsigned *rows)
{
    uint64_t i = 0;
    for (unsigned r = 0; r < t->nrows; r++)
        i += rows[r] * t->stride[r];
    return i;
}

static unsigned total(const unsigned *rows, unsigned nrows)
{
    unsigned s = 0;
    for (unsigned r = 0; r < nrows; r++)
        s += rows[r];
    return s;
}

/* Every move lowers the index, so filling in index order finds every successor already solved. */
static bool solve_one(const sp_mb_table *t, uint64_t idx, const unsigned *rows)
{
    if (total(rows, t->nrows) == 0)
        return true; /* the opponent took the last match */
    for (unsigned r = 0; r < t->nrows; r++)
        for (unsigned take = 1; take <= rows[r]; take++)
            if (!t->win[idx - take * t->stride[r]])
                return true;
    return false;
}

/* The next position in index order (an odometer over the rows). */
static void advance(const sp_mb_table *t, unsigned *rows)
{
    for (unsigned r = 0; r < t->nrows; r++) {
        if (rows[r] < t->max[r]) {
            rows[r]++;
            return;
        }
        rows[r] = 0;
    }
}

sp_mb_table *sp_mb_table_new(const unsigned *max, unsigned nrows, const sp_nim_progress *pr)
{
    if (nrows < 1 || nrows > SP_MB_MAX_ROWS)
        return NULL;
    sp_mb_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->nrows = nrows;
    t->positions = 1;
    for (unsigned r = 0; r < nrows; r++) {
        if (max[r] > SP_MB_MAX_ROW || t->positions * (max[r] + 1) > (UINT64_C(1) << 32)) {
            free(t);
            return NULL;
        }
        t->max[r] = max[r];
        t->stride[r] = t->positions;
        t->positions *= max[r] + 1;
    }
    t->win = malloc(t->positions);
    if (!t->win) {
        free(t);
        return NULL;
    }
    unsigned rows[SP_MB_MAX_ROWS] = {0};
    for (uint64_t i = 0; i < t->positions; i++, advance(t, rows)) {
        t->win[i] = solve_one(t, i, rows);
        if ((i & 0xffff) == 0)
            sp_nim_report(pr, "brute force", i, t->positions);
    }
    return t;
}

void sp_mb_table_free(sp_mb_table *t)
{
    if (t)
        free(t->win);
    free(t);
}

uint64_t sp_mb_table_positions(const sp_mb_table *t)
{
    return t->positions;
}

uint64_t sp_mb_table_bytes(const sp_mb_table *t)
{
    return t->positions + sizeof *t;
}

bool sp_mb_table_wins(const sp_mb_table *t, const unsigned *rows)
{
    return t->win[index_of(t, rows)];
}

bool sp_mb_table_winning_move(const sp_mb_table *t, const unsigned *rows, sp_mb_move *out)
{
    uint64_t idx = index_of(t, rows);
    for (unsigned r = 0; r < t->nrows; r++)
        for (unsigned take = 1; take <= rows[r]; take++)
            if (!t->win[idx - take * t->stride[r]]) {
                *out = (sp_mb_move){r, take};
                return true;
            }
    return false;
}

/* ---------------------------------------------------------------- Bouton */

bool sp_mb_bouton_misere(const unsigned *rows, unsigned nrows)
{
    unsigned x = 0, ones = 0, big = 0;
    for (unsigned r = 0; r < nrows; r++) {
        x ^= rows[r];
        ones += rows[r] == 1;
        big += rows[r] > 1;
    }
    return big ? x != 0 : ones % 2 == 0;
}

bool sp_mb_normal_play_rule(const unsigned *rows, unsigned nrows)
{
    unsigned x = 0;
    for (unsigned r = 0; r < nrows; r++)
        x ^= rows[r];
    return x != 0;
}

bool sp_mb_check_rule(const sp_mb_table *t, sp_mb_rule rule, sp_mb_rule_report *out)
{
    memset(out, 0, sizeof *out);
    unsigned rows[SP_MB_MAX_ROWS] = {0};
    for (uint64_t i = 0; i < t->positions; i++, advance(t, rows)) {
        out->wins += t->win[i];
        if ((t->win[i] != 0) != rule(rows, t->nrows) && out->mismatches++ == 0)
            memcpy(out->first_bad, rows, sizeof rows);
    }
    out->positions = t->positions;
    return out->mismatches == 0;
}

/* ---------------------------------------------------------------- the seed's strategy */

typedef struct after {
    unsigned xor, ones, big; /* of the rows a move leaves */
} after;

static after after_move(const unsigned *rows, unsigned nrows, sp_mb_move m)
{
    after a = {0, 0, 0};
    for (unsigned r = 0; r < nrows; r++) {
        unsigned v = rows[r] - (r == m.row ? m.take : 0);
        a.xor ^= v;
        a.ones += v == 1;
        a.big += v > 1;
    }
    return a;
}

/* The seed: "play on like this until a position comes where one move can leave only rows of one
 * match each; then move so that an odd number of one-match rows is left". The second part is read as
 * leaving only one-match rows, an odd number of them (the seed's example 2 does exactly that). */
unsigned sp_mb_seed_strategy(const unsigned *rows, unsigned nrows, sp_mb_move *out, unsigned cap)
{
    bool endgame = false;
    for (unsigned r = 0; r < nrows; r++)
        for (unsigned take = 1; take <= rows[r]; take++)
            endgame |= after_move(rows, nrows, (sp_mb_move){r, take}).big == 0;
    unsigned n = 0;
    for (unsigned r = 0; r < nrows; r++)
        for (unsigned take = 1; take <= rows[r] && n < cap; take++) {
            after a = after_move(rows, nrows, (sp_mb_move){r, take});
            bool ok = endgame ? a.big == 0 && a.ones % 2 == 1 : a.xor == 0;
            if (ok)
                out[n++] = (sp_mb_move){r, take};
        }
    return n;
}

unsigned sp_mb_xor_only_strategy(const unsigned *rows, unsigned nrows, sp_mb_move *out, unsigned cap)
{
    unsigned n = 0;
    for (unsigned r = 0; r < nrows; r++)
        for (unsigned take = 1; take <= rows[r] && n < cap; take++)
            if (after_move(rows, nrows, (sp_mb_move){r, take}).xor == 0)
                out[n++] = (sp_mb_move){r, take};
    return n;
}

#define STRATEGY_CAP 64

typedef struct playout {
    unsigned nrows;
    sp_mb_strategy strategy;
    sp_mb_play_report *out;
} playout;

static void record_bad(playout *g, const unsigned *rows)
{
    if (g->out->lost + g->out->stuck == 1)
        memcpy(g->out->first_bad, rows, sizeof(unsigned) * g->nrows);
}

static void game_over(playout *g, unsigned moves)
{
    g->out->games++;
    if (moves > g->out->longest)
        g->out->longest = moves;
}

static void strategy_turn(playout *g, unsigned *rows, unsigned moves);

/* The first player's turn: every legal move is tried. */
static void opponent_turn(playout *g, unsigned *rows, unsigned moves)
{
    if (total(rows, g->nrows) == 0) { /* an empty start: the first player has already won */
        g->out->lost++;
        record_bad(g, rows);
        game_over(g, moves);
        return;
    }
    for (unsigned r = 0; r < g->nrows; r++) {
        unsigned keep = rows[r];
        for (unsigned take = 1; take <= keep; take++) {
            rows[r] = keep - take;
            if (total(rows, g->nrows) == 0) {
                g->out->won++;
                game_over(g, moves + 1);
            } else {
                strategy_turn(g, rows, moves + 1);
            }
        }
        rows[r] = keep;
    }
}

static void strategy_turn(playout *g, unsigned *rows, unsigned moves)
{
    sp_mb_move m[STRATEGY_CAP];
    unsigned n = g->strategy(rows, g->nrows, m, STRATEGY_CAP);
    bool legal = n > 0;
    for (unsigned i = 0; i < n; i++)
        legal &= m[i].row < g->nrows && m[i].take >= 1 && m[i].take <= rows[m[i].row];
    if (!legal) {
        g->out->stuck++;
        record_bad(g, rows);
        game_over(g, moves);
        return;
    }
    g->out->choice_points += n > 1;
    for (unsigned i = 0; i < n; i++) {
        if (total(rows, g->nrows) == m[i].take) { /* the strategy takes the last match */
            g->out->lost++;
            record_bad(g, rows);
            game_over(g, moves + 1);
            continue;
        }
        rows[m[i].row] -= m[i].take;
        opponent_turn(g, rows, moves + 1);
        rows[m[i].row] += m[i].take;
    }
}

bool sp_mb_check_strategy(const unsigned *start, unsigned nrows, sp_mb_strategy strategy,
                          sp_mb_play_report *out)
{
    memset(out, 0, sizeof *out);
    if (nrows < 1 || nrows > SP_MB_MAX_ROWS)
        return false;
    unsigned rows[SP_MB_MAX_ROWS];
    memcpy(rows, start, sizeof(unsigned) * nrows);
    playout g = {nrows, strategy, out};
    opponent_turn(&g, rows, 0);
    return out->lost == 0 && out->stuck == 0 && out->games > 0;
}
