/* tune.h: the tunables of the search and of the table runs, one table: thresholds, budgets and
 * ratios, each chosen by measurement (docs/performance.md). None of them changes a result; those of
 * the search change the work it does (its node counts), the others only its memory and its pace. */
#ifndef SP_TUNE_H
#define SP_TUNE_H

#include <stddef.h>

/* ---------------------------------------------------------------- df-pn (engine.c) */

/* Nodes between two looks at the clock, the stop flag and the time limit. */
#define SP_TUNE_CHECK_EVERY 1024

/* Seconds between two progress reports: the search's, the certificate builder's. */
#define SP_TUNE_PROGRESS_SECONDS 1.0

/* The 1+epsilon trick (Pawlewicz and Lew): the child searched runs until its disproof number is
 * worse than the second best's by 1/SP_TUNE_EPSILON_DIV of it (plus one). */
#define SP_TUNE_EPSILON_DIV 4

/* An unexplored node's disproof number is the estimate of its moves, within 1 .. this. */
#define SP_TUNE_INITIAL_DN_MAX 100000

/* The rank of a child among equal disproof numbers (lower first): its lives, plus in normal play
 * this many times the heap beside it, in misère play this many times the birthday of the game
 * beside it. */
#define SP_TUNE_ORDER_HEAP 4
#define SP_TUNE_ORDER_BIRTHDAY 1

/* ---------------------------------------------------------------- the team (team.c) */

/* Below this many moves (estimated) a land is expanded by the leader alone: posting a round costs
 * about what a move does. */
#define SP_TUNE_TEAM_MIN_MOVES 4

/* From this many threads on, normal play runs on the farm (farm.h) rather than the team, unless
 * --team: on a 16-core machine the farm was the faster on 8 and 16 threads, the team on 2 and 4
 * (docs/performance.md, 2026-12-04, second session). */
#define SP_TUNE_FARM_THREADS 8

/* From this many threads on, each farm worker is a team of SP_TUNE_FARM_TEAM threads (one job's
 * expansions shared, as on the team): fewer workers, fewer extra nodes (docs/performance.md,
 * 2026-12-06). */
#define SP_TUNE_FARM_TEAM_THREADS 16
#define SP_TUNE_FARM_TEAM 2

/* Below this many children a whole cached list is replayed by the leader alone: a child replayed
 * costs far less than a move, too little to share out. */
#define SP_TUNE_TEAM_MIN_REPLAY 16

/* ---------------------------------------------------------------- misère play (solver.c, misere.c) */

/* Lands valued by their game unless the options say otherwise: any land of at most
 * SP_TUNE_MISERE_LIVES lives, and every land of a sum but its largest up to
 * SP_TUNE_MISERE_SUM_LIVES. */
#define SP_TUNE_MISERE_LIVES 10
#define SP_TUNE_MISERE_SUM_LIVES 12

/* A land of a sum valued beyond the misère lives joins the game g beside it only when b(g) + b(v)
 * is at most this (sums of large games are what fills the game table). */
#define SP_TUNE_MISERE_SUM_BIRTHDAY 12

/* A land proven lost beside a game after at least this many nodes of search is kept (and saved by
 * table runs): the proofs a stopped search would be dearest to lose, few enough to save them all. */
#define SP_TUNE_MISERE_LOST_WORK 100

/* ---------------------------------------------------------------- memory (solver.c) */

/* The default transposition table: 1/SP_TUNE_TT_DIV of physical memory (SP_TUNE_PHYS_UNKNOWN where
 * the system does not say), at most SP_TUNE_TT_MAX. */
#define SP_TUNE_TT_DIV 4
#define SP_TUNE_TT_MAX ((size_t)4096 << 20)
#define SP_TUNE_PHYS_UNKNOWN ((size_t)4 << 30)

/* The default nimber store (and misère land store): tt / SP_TUNE_NIM_DIV; the default misère game
 * table: tt / SP_TUNE_GAME_DIV; neither below SP_TUNE_STORE_MIN. */
#define SP_TUNE_NIM_DIV 8
/* The store of lands lost beside a game (misère): a fraction of the nimber store's budget. */
#define SP_TUNE_LOST_DIV 4
#define SP_TUNE_GAME_DIV 2
#define SP_TUNE_STORE_MIN ((size_t)16 << 20)

/* The default land cache: tt / SP_TUNE_LCACHE_DIV within SP_TUNE_LCACHE_MIN .. SP_TUNE_LCACHE_MAX.
 * It catches most repeats within a few thousand expansions (landcache.h), so a small search gains
 * little from more (misère 0*15: the same time with 256 MiB as with 64); a long one comes back to
 * lands after many more, and misère 0*18 made 16-26% more nodes a second with 256 MiB to 1 GiB than
 * with 64 (docs/performance.md, 2026-12-07, fifth session). */
#define SP_TUNE_LCACHE_DIV 16
#define SP_TUNE_LCACHE_MIN ((size_t)4 << 20)
#define SP_TUNE_LCACHE_MAX ((size_t)1024 << 20)

/* ---------------------------------------------------------------- table runs (tables/table.c) */

/* Seconds between two saves of the stores during a long size, so that a run that is killed keeps
 * most of what the size had proven so far. */
#define SP_TUNE_CHECKPOINT_SECONDS 600.0

/* Seconds of a size's search between two snapshots (--snapshot), at the first save after them: a
 * snapshot of misère 0*22 (11 GiB) took 25 s to write, so once an hour pauses the search for under
 * 1% of its time and a killed run climbs back from an hour at most. */
#define SP_TUNE_SNAPSHOT_SECONDS 3600.0

/* The zstd level of the store files (store.h), on this many threads where the library has them:
 * the stores of a long table run are what results/ holds, and the land nimbers are the largest
 * (sizes and times: docs/performance.md). */
#define SP_TUNE_STORE_LEVEL 9
#define SP_TUNE_STORE_WORKERS 2
/* The zstd level of the files written whole and kept (certificates, chunk files rewritten by a
 * conversion or a compaction): sorted key lists, which the higher levels shrink by about a third
 * more than SP_TUNE_STORE_LEVEL, at several times the time. Appended chunks keep the faster level:
 * they are saved while a size is searched. */
#define SP_TUNE_PACK_LEVEL 19

#endif
