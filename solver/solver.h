/* solver.h: deciding Sprouts positions: outcome in normal and misère play, nimbers in normal play.
 *
 * Contract:
 * - Every answer comes from search (df-pn over canonical positions, Sprague-Grundy across lands in
 *   normal play); nothing is looked up in a table written into the code.
 * - Memory is bounded by the options: a transposition table of tt_bytes, a land store of nim_bytes
 *   (nimbers; in misère play a second one for the lands' games), a misère game table of game_bytes,
 *   a land cache of lcache_bytes; the search's own stacks are small (they grow with the depth of the
 *   game only).
 * - Misère play: lands of at most misere_lives lives, and the lands of a sum but its largest up to
 *   misere_sum_lives, are replaced by their game in simplest form (misère equality, mgame.h); the
 *   rest is searched as whole positions beside that game.
 * - Results never depend on the number of threads; the work counters do.
 * - A search can be stopped from outside (a signal handler sets *stop) or by a time limit; it then
 *   answers SP_UNKNOWN.
 * - A solver keeps what it learned (transposition table, nimber store) from one call to the next.
 */
#ifndef SP_SOLVER_H
#define SP_SOLVER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "canonical.h"
#include "play.h"

typedef struct sp_solver_stats {
    uint64_t nodes;       /* df-pn node visits (children generated once per visit) */
    uint64_t tt_probes, tt_hits;
    uint64_t tt_filled, tt_capacity;
    size_t tt_bytes, tt_used_bytes; /* the budget, the part of it in use */
    uint64_t nimbers;     /* lands in the nimber store */
    size_t nim_bytes, nim_used_bytes;
    int nim_full;         /* the nimber store ran out of room: nimbers proven since are not kept */
    uint64_t mis_lands;   /* misère: lands whose game is stored */
    uint64_t mis_lost;    /* misère: lands kept as lost beside a game (SP_KEPT_LOST) */
    uint64_t games, sums; /* misère: games in the table, sums in its memo */
    uint64_t sum_flushes; /* misère: times the full sum memo was emptied (a cache) */
    size_t game_bytes, game_used_bytes;
    size_t lcache_bytes, lcache_used_bytes; /* the children of lands expanded lately */
    uint64_t lcache_lookups, lcache_hits, lcache_partial; /* hits: whole lists; partial: lists resumed */
    int games_full;       /* misère: the game table or the land store ran out of room */
    int lands_full;       /* misère: the land store (sized as the nimber store) ran out of room */
    double seconds;       /* wall time of the current or last call */
    unsigned threads;
    size_t rss_bytes;     /* the process's resident memory now */
    size_t peak_bytes;    /* ... and its peak so far */
    sp_play play;         /* the play of the current or last call */
    unsigned misere_lives; /* lands of at most this many lives are valued in misère play; 0: none */
    unsigned misere_sum_lives; /* and the lands of a sum but the largest, up to this many ... */
    unsigned misere_sum_birthday; /* ... while the birthdays of the sum so far and the land's game
                                   * add up to at most this */
    unsigned root_moves;   /* the root of the current or last call, once expanded: its children (moves
                            * up to equivalence); 0: not expanded */
    unsigned root_refuted; /* ... and those proven won for the opponent (all of them: a loss) */
    uint32_t root_pn, root_dn; /* ... and the root's proof and disproof numbers as they give them: pn
                                * the least of their disproof numbers (0: a win), dn the sum of their
                                * proof numbers (0: a loss); the estimates df-pn works down */
} sp_solver_stats;

typedef struct sp_solver_opts {
    /* budgets in bytes; 0 for any of them: its default, from tune.h */
    size_t tt_bytes;  /* transposition table; 0: a quarter of physical memory, at most 4 GiB */
    size_t nim_bytes; /* nimber store (and misère land store); 0: an eighth of tt_bytes, at least 16 MiB */
    size_t game_bytes; /* misère game table; 0: half of tt_bytes, at least 16 MiB (touched as used) */
    size_t lcache_bytes; /* children of lands expanded lately; 0: tt_bytes / 16 within 4 MiB..1 GiB */
    int misere_lives; /* misère: value lands of at most this many lives; 0: the default; < 0: none */
    int misere_sum_lives; /* misère: and every land of a sum but its largest, up to this many lives;
                           * 0: the default; < 0: no more than misere_lives */
    unsigned threads; /* 0: all cores */
    /* called by the search at most once a second (from one thread), or never when NULL */
    void (*progress)(void *arg, const sp_solver_stats *s);
    void *progress_arg;
    /* when non-NULL and set, searches end with SP_UNKNOWN; a signal handler may set it (lock-free) */
    const atomic_bool *stop;
} sp_solver_opts;

typedef struct sp_solver sp_solver;

/* NULL when memory is short. */
sp_solver *sp_solver_new(const sp_solver_opts *opts);
void sp_solver_free(sp_solver *s);

/* A time limit for the searches that follow: once `seconds` have passed since this call, they end
 * with SP_UNKNOWN, as when stopped, until the limit is set again (0: none, as made). The search
 * looks at the clock every few nodes (tune.h), so a node in hand is finished first. */
void sp_solver_set_time_limit(sp_solver *s, double seconds);

/* Ends the call under way in s, if any, as a stop would (SP_UNKNOWN); any thread may call it. A
 * call that begins after it is not affected. */
void sp_solver_interrupt(sp_solver *s);

/* Outcome for the player to move in the given position key (canonical.h). */
sp_outcome sp_solver_outcome(sp_solver *s, const sp_tok *key, size_t len, sp_play play);

/* Nimber of a position key in normal play (XOR of its lands' nimbers); -1 when stopped. */
int sp_solver_nimber(sp_solver *s, const sp_tok *key, size_t len);

/* Outcome of the couple (P, k): the position key beside a Nim heap of k in normal play (P + *k), beside
 * the game of id k (sp_solver_game_*) in misère play. */
sp_outcome sp_solver_couple(sp_solver *s, const sp_tok *key, size_t len, uint32_t k, sp_play play);

/* Misère play: the solver's games in simplest form, by id (0: the game with no move). They serve
 * certificates, which list the games of lands; ids stay valid for the solver's lifetime. */
#define SP_GAME_NONE UINT32_MAX
/* The game of a land of at most misere_sum_lives lives (stored, or computed by enumeration now);
 * SP_GAME_NONE for a larger land or when the game table is full. */
uint32_t sp_solver_land_game(sp_solver *s, const sp_tok *land, size_t len);
uint32_t sp_solver_game_sum(sp_solver *s, uint32_t g, uint32_t h); /* SP_GAME_NONE when full */
/* g's options (sorted ids) in an array of the caller's to free (*n of them); NULL when memory is short. */
uint32_t *sp_solver_game_options(sp_solver *s, uint32_t g, size_t *n);
unsigned sp_solver_game_birthday(sp_solver *s, uint32_t g);
bool sp_solver_game_wins(sp_solver *s, uint32_t g); /* misère outcome of g alone for the player to move */

/* What the solver already knows, without searching: the nimber of a land key (-1 if not stored), and
 * the outcome of a node proven earlier and still in the transposition table (SP_UNKNOWN otherwise;
 * k as in sp_solver_couple; in normal play also found with the stored nimbers of its lands folded
 * into k, as the search stores it, and known outright when all its lands' nimbers are stored; in
 * misère play also found with its lands folded into the game k as the search folds them, valuing
 * lands as it does: not while a search runs). */
int sp_solver_known_nimber(sp_solver *s, const sp_tok *land, size_t len);
sp_outcome sp_solver_known(sp_solver *s, const sp_tok *key, size_t len, uint32_t k, sp_play play);

/* Persistence of what was learned, kept in three stores of land keys with a value each: */
typedef enum {
    SP_KEPT_NIMBERS,    /* land -> its nimber (normal play) */
    SP_KEPT_LAND_GAMES, /* land -> the id of its misère game */
    SP_KEPT_LOST,       /* position (one land or more) -> the id of a game beside which a misère
                         * search proved it lost after costly search (one game per position) */
} sp_kept;
/* The entries of a store that lie between two marks of its history (nimstore.h; 0 and UINT64_MAX:
 * all of them; a key handed to fn stays valid until the solver is freed), so that a save can write
 * only those stored since the one before; and adding ones read back (they must come from a file
 * this program wrote: they are trusted as proven; a lost land is also recorded as a loss in the
 * transposition table). Adding returns false when full or already there. The game with given
 * options (ids of this solver, in any order; sorted in place) in simplest form, for games read
 * back: SP_GAME_NONE when an option is SP_GAME_NONE or the game table is full. */
uint64_t sp_solver_mark(sp_solver *s, sp_kept which);
int sp_solver_each(sp_solver *s, sp_kept which, uint64_t from, uint64_t to,
                   int (*fn)(void *arg, const sp_tok *key, size_t len, unsigned value), void *arg);
bool sp_solver_add_nimber(sp_solver *s, const sp_tok *land, size_t len, unsigned nimber);
bool sp_solver_add_land_game(sp_solver *s, const sp_tok *land, size_t len, uint32_t game);
bool sp_solver_add_lost(sp_solver *s, const sp_tok *key, size_t len, uint32_t game);
uint32_t sp_solver_game_make(sp_solver *s, uint32_t *opts, size_t n);
/* Records a proven outcome of a node in the transposition table (for proven positions read back). */
void sp_solver_add_proven(sp_solver *s, const sp_tok *key, size_t len, uint32_t k, sp_play play, sp_outcome o);

/* A snapshot of what a search holds that the stores do not keep: the game table (every game in
 * the order of its id, as its options) and the transposition table (tt.h), so that a stopped
 * search resumed on the same machine goes on where it was (tables/snapshot.h). Save between
 * searches, or during one from the progress callback (the leader's thread, where the helpers are let
 * finish their round first; the numbers of the nodes on the search's path are not in the table yet,
 * so a search taken up from it goes on near where it was, not node for node). Load into a fresh solver of the same options, before anything else is added to it: the
 * games are made again in order and must get the ids they had (their table needs room for them),
 * and the table must have the same budget. The table's entries name games by id, so they are
 * only sound beside the games of the same snapshot: a caller that finds the data corrupt after
 * loading (its checksum) must drop it. put and get return 0, or non-zero to give up. Save: 0 or
 * -1 (put gave up). Load: 0; -1 when get gave up or the data are malformed; -2 when they do not
 * fit this solver; the table is empty then (games made stay: they are games like any other). */
typedef int (*sp_solver_put)(void *arg, const void *data, size_t len);
typedef int (*sp_solver_get)(void *arg, void *data, size_t len);
int sp_solver_snapshot_save(sp_solver *s, sp_solver_put put, void *arg);
int sp_solver_snapshot_load(sp_solver *s, sp_solver_get get, void *arg);
void sp_solver_snapshot_drop(sp_solver *s); /* empties the transposition table */

void sp_solver_stats_get(sp_solver *s, sp_solver_stats *out);

/* A search driven from outside (farm.h), in normal play only (k a Nim heap, whatever the solver):
 * the leader steps through the couples of its tree, the workers run jobs on its leaves. Proof and
 * disproof numbers as in the engine: 0 proven, SP_SOLVER_PN_INF impossible. */
#define SP_SOLVER_PN_INF 0x3fffffffu
typedef enum { SP_STEP_WIN, SP_STEP_LOSS, SP_STEP_EXPAND, SP_STEP_SUM, SP_STEP_FAILED } sp_step_kind;
typedef struct sp_step_couple {
    const sp_tok *key;
    uint32_t len, k, pn, dn, order; /* order: lower is tried first among equal disproof numbers */
} sp_step_couple;
typedef struct sp_step {
    sp_step_kind kind;
    sp_step_couple sub; /* SUM: the part settled first (a land beside its candidate nimber) ... */
    uint32_t rest[2];   /* ... and what the sum's numbers add to the least of the part's two */
    size_t children;    /* EXPAND: how many (sp_solver_step_child) */
    size_t cut_child;   /* after a job on the couple cut by its budget: the child (EXPAND) or the
                         * part (SUM: 0) it was in, where the next job takes up its search
                         * (SIZE_MAX: none) */
} sp_step;
/* One step of (P, k): decided from what the solver knows (WIN, LOSS), a sum that waits for a part
 * (SUM), or a single couple whose children it lists (EXPAND), with numbers from its table; FAILED
 * when memory is short. What it points to stays valid until the solver's next call. */
sp_step_kind sp_solver_step(sp_solver *s, const sp_tok *key, size_t len, uint32_t k, sp_step *out);
sp_step_couple sp_solver_step_child(sp_solver *s, size_t i);
/* A job: searches (P, k) until proven, until its numbers reach the thresholds th (pn, dn;
 * SP_SOLVER_PN_INF: none) or for max_nodes nodes more (0: no limit), and gives its numbers then;
 * SP_UNKNOWN when unproven, stopped or out of memory (*failed then says the last). */
sp_outcome sp_solver_job(sp_solver *s, const sp_tok *key, size_t len, uint32_t k, const uint32_t th[2],
                         uint64_t max_nodes, uint32_t *pn, uint32_t *dn, bool *failed);
/* The thresholds df-pn gives the child it searches next below a node of thresholds th and numbers
 * (pn, dn), beside siblings whose least disproof number is dn2; and those of the part of a sum. Both
 * are unproven and below the node's thresholds (engine.h). */
void sp_solver_child_thresholds(const uint32_t th[2], const uint32_t numbers[2], uint32_t dn2,
                                const uint32_t child[2], uint32_t cth[2]);
void sp_solver_part_thresholds(const uint32_t th[2], const uint32_t part[2], const uint32_t rest[2], uint32_t cth[2]);

/* The solver's land cache (landcache.h), for a caller that makes land children on the solver's
 * thread between searches (the certificate builder: the lands it asks about are mostly those the
 * search expanded); never NULL. */
struct sp_lcache *sp_solver_land_cache(sp_solver *s);

/* The default transposition table size for this machine (a quarter of memory, capped at 4 GiB). */
size_t sp_solver_default_tt_bytes(void);

/* This machine's physical memory in bytes; 0 when it cannot be told. The environment variable
 * SPROUTS_MEMORY_MB says otherwise where the system's figure is not what the program may use (a
 * container's limit); the default budgets follow it too. */
size_t sp_solver_phys_bytes(void);

#endif
