/* bench_moves.c: `sprouts-bench moves`: what a move costs when two threads share the moves of each
 * land, by how they are split; the solver's shared rounds take them from both ends (share.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "bench.h"
#include "cli.h"
#include "clock.h"
#include "grow.h"
#include "movegen.h"
#include "random.h"
#include "rng.h"
#include "simplify.h"

typedef enum { ALONE, HALVES, ALTERNATE, BLOCKS, BOTH_ENDS, NSPLITS } split;

static const char *const split_name[NSPLITS] = {"one thread, every move", "two threads, a half each",
                                                 "two threads, every other move", "two threads, blocks of 16",
                                                 "two threads from both ends"};

#define BLOCK 16

typedef struct land_ref {
    size_t off, len;
    uint32_t moves;
} land_ref;

typedef struct lands {
    land_ref *ref;
    sp_tok *tok;
    size_t n, cap, used, tok_cap;
} lands;

/* One thread's share of the moves of the land at hand, and the time it spent making them. */
typedef struct part {
    sp_canon_ctx *ctx;
    sp_move_share *share; /* both ends: the round's moves, taken as in the solver */
    unsigned id;
    split how;
    uint32_t nmoves;
    double seconds;
    uint64_t made;
    sp_tok key[SP_KEY_MAX];
} part;

static int count_move(void *arg, sp_pos *child, uint32_t move)
{
    (void)child;
    (void)move;
    ++*(uint32_t *)arg;
    return 0;
}

static int add_land(lands *l, const sp_tok *key, size_t len)
{
    sp_pos p;
    uint32_t moves = 0;
    if (sp_key_decode(key, len, &p) || sp_grow((void **)&l->ref, &l->cap, l->n + 1, sizeof *l->ref) ||
        sp_grow((void **)&l->tok, &l->tok_cap, l->used + len, sizeof *l->tok))
        return -1;
    sp_pos_moves(&p, count_move, &moves);
    memcpy(l->tok + l->used, key, len * sizeof *key);
    l->ref[l->n++] = (land_ref){l->used, len, moves};
    l->used += len;
    return 0;
}

/* The lands of positions from random games of 0*18..0*21, 6 to 15 moves in: lands such as the
 * solver expands. */
static int sample_lands(sp_canon_ctx *ctx, uint64_t games, uint64_t seed, lands *l)
{
    uint64_t rng = seed;
    sp_tok key[SP_KEY_MAX];
    for (uint64_t g = 0; g < games; g++) {
        size_t len = sp_random_game(ctx, 18 + (unsigned)(g % 4), 6 + (unsigned)(g % 10), &rng, key);
        uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
        unsigned n = sp_key_lands(key, len, off, lens, SP_MAX_LANDS);
        for (unsigned i = 0; i < n; i++)
            if (add_land(l, key + off[i], lens[i]))
                return -1;
    }
    return 0;
}

static bool is_mine(const part *p, uint32_t move)
{
    switch (p->how) {
    case HALVES: return (move < p->nmoves / 2) == (p->id == 0);
    case ALTERNATE: return move % 2 == p->id;
    case BLOCKS: return move / BLOCK % 2 == p->id;
    default: return true; /* ALONE; BOTH_ENDS takes its own from the share */
    }
}

static int make_move(void *arg, sp_pos *child, uint32_t move)
{
    part *p = arg;
    if (!is_mine(p, move))
        return 0;
    double t0 = sp_clock_now();
    sp_pos_simplify(child);
    sp_canon_pos(p->ctx, child, p->key);
    p->seconds += sp_clock_now() - t0;
    p->made++;
    return 0;
}

/* One thread's part of every land in turn; with two, both are on the same land at the same time. */
static void run_part(const lands *l, part *p, unsigned threads)
{
    for (size_t i = 0; i < l->n; i++) {
        sp_pos in;
        sp_key_decode(l->tok + l->ref[i].off, l->ref[i].len, &in);
        p->nmoves = l->ref[i].moves;
        if (p->how == BOTH_ENDS) {
#pragma omp single
            sp_move_share_start(p->share, (uint32_t)i + 1, 0);
            sp_pos_moves_part(&in, &(sp_move_part){p->share, (uint32_t)i + 1, p->id == 1}, 0, make_move, p);
        } else {
            sp_pos_moves(&in, make_move, p);
        }
        if (threads > 1) {
#pragma omp barrier
        }
    }
}

/* Seconds per move, summed over the threads, for one split. */
static double time_split(const lands *l, part parts[2], split how)
{
    unsigned threads = how == ALONE ? 1 : 2;
    for (unsigned t = 0; t < threads; t++) {
        parts[t].how = how;
        parts[t].seconds = 0;
        parts[t].made = 0;
    }
#pragma omp parallel num_threads(threads)
    {
#ifdef _OPENMP
        unsigned id = (unsigned)omp_get_thread_num();
#else
        unsigned id = 0;
#endif
        run_part(l, &parts[id], threads);
    }
    double s = parts[0].seconds + (threads > 1 ? parts[1].seconds : 0);
    uint64_t made = parts[0].made + (threads > 1 ? parts[1].made : 0);
    return made ? s / (double)made : 0;
}

int sp_bench_moves(int argc, char **argv)
{
    const char *prog = "sprouts-bench moves";
    uint64_t games = 300, seed = 12345, runs = 9;
    int rc = sp_bench_sample_options(argc, argv, prog, "games", 100000, &games, &seed, &runs);
    if (rc >= 0)
        return rc;
#ifndef _OPENMP
    return sp_cli_fail(prog, "built without OpenMP: no second thread to share the moves with");
#endif
    lands l = {0};
    part parts[2] = {{0}};
    sp_move_share share;
    parts[0].share = parts[1].share = &share;
    parts[0].ctx = sp_canon_ctx_new();
    parts[1].ctx = sp_canon_ctx_new();
    parts[1].id = 1;
    if (!parts[0].ctx || !parts[1].ctx || sample_lands(parts[0].ctx, games, seed, &l))
        return sp_cli_fail(prog, "out of memory");
    uint64_t moves = 0;
    for (size_t i = 0; i < l.n; i++)
        moves += l.ref[i].moves;
    printf("%zu lands from %llu random games of 0*18..0*21, %llu moves; simplification and canonical form\n"
           "per move, summed over the threads; median of %llu runs, the splits in turn in each run\n",
           l.n, (unsigned long long)games, (unsigned long long)moves, (unsigned long long)runs);
    double t[NSPLITS][99];
    for (uint64_t r = 0; r < runs; r++)
        for (int s = 0; s < NSPLITS; s++)
            t[s][r] = time_split(&l, parts, (split)s);
    double alone = sp_bench_median(t[ALONE], (int)runs);
    for (int s = 0; s < NSPLITS; s++) {
        double m = sp_bench_median(t[s], (int)runs);
        printf("  %-30s %8.0f ns per move  %+6.1f%%\n", split_name[s], 1e9 * m, 100 * (m / alone - 1));
    }
    sp_canon_ctx_free(parts[0].ctx);
    sp_canon_ctx_free(parts[1].ctx);
    free(l.tok);
    free(l.ref);
    return SP_EXIT_OK;
}
