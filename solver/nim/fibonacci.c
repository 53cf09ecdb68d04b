/* fibonacci.c: Fibonacci Nim (fibonacci.h): the brute-force table of (tokens left, maximum take),
 * Fibonacci numbers and Zeckendorf sums, and the checks of the seed's claims against the table. */
#include "fibonacci.h"

#include <stdlib.h>
#include <string.h>

/* Row n holds won(n, m) for m = 1 .. n as bits n(n-1)/2 + m-1; a limit beyond n allows nothing more. */
struct sp_fib_table {
    uint64_t max_n, bits;
    uint64_t *w;
};

static uint64_t bit_of(uint64_t n, uint64_t m)
{
    return n * (n - 1) / 2 + (m - 1);
}

static bool get(const sp_fib_table *t, uint64_t n, uint64_t m)
{
    if (n == 0)
        return false; /* the opponent took the last token */
    uint64_t b = bit_of(n, m < n ? m : n);
    return t->w[b / 64] >> (b % 64) & 1;
}

static void set(sp_fib_table *t, uint64_t n, uint64_t m)
{
    uint64_t b = bit_of(n, m);
    t->w[b / 64] |= UINT64_C(1) << (b % 64);
}

/* Whether taking k at n leaves the opponent a lost state. */
static bool take_wins(const sp_fib_table *t, uint64_t n, uint64_t k)
{
    return !get(t, n - k, 2 * k);
}

sp_fib_table *sp_fib_table_new(uint64_t max_n, const sp_nim_progress *pr)
{
    if (max_n == 0 || max_n > SP_FIB_MAX_N)
        return NULL;
    sp_fib_table *t = malloc(sizeof *t);
    if (!t)
        return NULL;
    t->max_n = max_n;
    t->bits = max_n * (max_n + 1) / 2;
    t->w = calloc(t->bits / 64 + 1, sizeof *t->w);
    if (!t->w) {
        free(t);
        return NULL;
    }
    /* won(n, m) = won(n, m-1) or taking exactly m wins: the definition, one take at a time */
    for (uint64_t n = 1; n <= max_n; n++) {
        bool won = false;
        for (uint64_t m = 1; m <= n; m++) {
            won = won || take_wins(t, n, m);
            if (won)
                set(t, n, m);
        }
        if ((n & 0xff) == 0)
            sp_nim_report(pr, "game-value table", n * (n + 1) / 2, t->bits);
    }
    return t;
}

void sp_fib_table_free(sp_fib_table *t)
{
    if (t)
        free(t->w);
    free(t);
}

uint64_t sp_fib_table_max_n(const sp_fib_table *t)
{
    return t->max_n;
}

uint64_t sp_fib_table_states(const sp_fib_table *t)
{
    return t->bits;
}

uint64_t sp_fib_table_bytes(const sp_fib_table *t)
{
    return (t->bits / 64 + 1) * sizeof *t->w + sizeof *t;
}

bool sp_fib_wins(const sp_fib_table *t, uint64_t n, uint64_t m)
{
    return get(t, n, m);
}

uint64_t sp_fib_winning_take(const sp_fib_table *t, uint64_t n, uint64_t m)
{
    for (uint64_t k = 1; k <= m && k <= n; k++)
        if (take_wins(t, n, k))
            return k;
    return 0;
}

/* ---------------------------------------------------------------- Fibonacci and Zeckendorf */

bool sp_fib_is_lucas(uint64_t n)
{
    uint64_t a = 2, b = 1;
    while (a != n && b != n && b < n) {
        uint64_t c = a + b;
        a = b;
        b = c;
    }
    return a == n || b == n;
}

/* The largest Fibonacci number up to n (n >= 1). */
static uint64_t largest_fibonacci(uint64_t n)
{
    uint64_t a = 1, b = 2;
    while (b <= n) {
        uint64_t c = a + b;
        a = b;
        b = c;
    }
    return a;
}

bool sp_fib_is_fibonacci(uint64_t n)
{
    return largest_fibonacci(n) == n;
}

/* Greedy from the largest Fibonacci number that fits, walking the sequence down: each term taken is the
 * largest that fits what is left, which is what makes the sum Zeckendorf's. */
uint64_t sp_fib_zeckendorf_smallest(uint64_t n)
{
    uint64_t a = 1, b = 2, last = 0;
    while (b <= n) {
        uint64_t c = a + b;
        a = b;
        b = c;
    }
    while (n > 0) {
        if (a <= n) {
            n -= a;
            last = a;
        }
        uint64_t below = b - a;
        b = a;
        a = below;
    }
    return last;
}

uint64_t sp_fib_zeckendorf_take(uint64_t n, uint64_t m)
{
    uint64_t z = sp_fib_zeckendorf_smallest(n);
    return z <= m ? z : 0;
}

uint64_t sp_fib_largest_term_take(uint64_t n, uint64_t m)
{
    uint64_t z = n ? largest_fibonacci(n) : 0;
    return z <= m ? z : 0;
}

/* ---------------------------------------------------------------- the checks */

bool sp_fib_check_starts(const sp_fib_table *t, sp_fib_prediction prediction, sp_fib_start_report *out)
{
    memset(out, 0, sizeof *out);
    for (uint64_t n = 2; n <= t->max_n; n++) {
        bool loses = !get(t, n, n - 1);
        out->piles++;
        out->first_loses += loses;
        if (loses != prediction(n) && out->mismatches++ == 0)
            out->first_bad = n;
    }
    return out->mismatches == 0;
}

bool sp_fib_check_strategy(const sp_fib_table *t, sp_fib_strategy strategy, const sp_nim_progress *pr,
                           sp_fib_strategy_report *out)
{
    memset(out, 0, sizeof *out);
    for (uint64_t n = 1; n <= t->max_n; n++) {
        for (uint64_t m = 1; m <= n; m++) {
            uint64_t k = strategy(n, m);
            out->states++;
            if (!get(t, n, m)) {
                out->offered_in_lost += k != 0;
                continue;
            }
            out->won++;
            bool good = k >= 1 && k <= m && take_wins(t, n, k);
            if (!good && out->failures++ == 0) {
                out->first_bad_n = n;
                out->first_bad_m = m;
            }
        }
        if ((n & 0xff) == 0)
            sp_nim_report(pr, "strategy", n * (n + 1) / 2, t->bits);
    }
    return out->failures == 0;
}

void sp_fib_check_game(const sp_fib_table *t, uint64_t start, const uint64_t *takes, unsigned ntakes,
                       sp_fib_game_report *out)
{
    memset(out, 0, sizeof *out);
    out->legal = true;
    out->first_error[0] = out->first_error[1] = ntakes;
    uint64_t n = start, m = start - 1;
    for (unsigned i = 0; i < ntakes; i++) {
        uint64_t k = takes[i];
        unsigned who = i % 2;
        if (k < 1 || k > m || k > n) {
            out->legal = false;
            out->bad_move = i;
            return;
        }
        if (t && out->first_error[who] == ntakes && get(t, n, m) && !take_wins(t, n, k))
            out->first_error[who] = i;
        n -= k;
        m = 2 * k;
        if (n == 0) {
            out->finished = i + 1 == ntakes;
            out->winner = who;
            if (!out->finished) {
                out->legal = false;
                out->bad_move = i + 1;
            }
            return;
        }
    }
}
