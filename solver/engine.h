/* engine.h: the depth-first proof-number search (df-pn) shared by both rule sets; internal to
 * solver/. A rule set says what a node is and what its children are; the engine owns the search,
 * the transposition table traffic and the per-thread memory.
 *
 * Negamax convention: a node's pn is the cost of proving that the player to move wins, dn of proving
 * that they lose; proven win: pn = 0, dn = SP_PN_INF; proven loss: pn = SP_PN_INF, dn = 0.
 */
#ifndef SP_ENGINE_H
#define SP_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "canonical.h"
#include "expand.h"
#include "mgame.h"
#include "nimstore.h"
#include "play.h"
#include "team.h"
#include "tt.h"

/* A node: a position key and a game beside it: in normal play the Nim heap *k (the couple P + *k), in
 * misère play the game of id k in engine->games. */
typedef struct sp_node {
    const sp_tok *key;
    uint32_t len, k;
    uint64_t h[2];
} sp_node;

typedef struct sp_child {
    uint32_t off, len, k; /* key in the frame's token arena */
    uint32_t pn, dn;
    uint32_t order;       /* heuristic rank: lower is tried first among equal disproof numbers */
    uint64_t h[2];
    bool probed;          /* pn and dn already come from the transposition table, if it knew them */
} sp_child;

/* A child made ready by one member of the team: key in the member's arena, numbers from the
 * transposition table, the number of the move that gave it (children are merged in move order) and
 * its index in the member's list of children. */
typedef struct sp_ready {
    uint32_t off, len, k, order, move, child;
    uint32_t pn, dn;
    uint64_t h[2];
} sp_ready;

/* Per-depth scratch of one worker, reused from call to call. */
typedef struct sp_frame {
    sp_child *c;
    size_t n, cap;
    sp_tok *tok;
    size_t tok_len, tok_cap;
    sp_tok *node_tok[2]; /* a node rewritten by resolve(), double-buffered: the old one is read */
    size_t node_cap[2];
    uint64_t *seen;   /* open-addressing set of child hashes, for de-duplication */
    size_t seen_cap;
    uint64_t cut_h[2];   /* a job cut left the children of this node here, numbers as it left them, */
    uint32_t cut_stamp;  /* ... in its job of this stamp (sp_worker.trail_stamp); 0: none */
} sp_frame;

struct sp_engine;

/* Where a job cut by its budget was, one entry per depth of its stack (engine.c's trail). */
typedef struct sp_trail {
    uint64_t parent[2], child[2]; /* the node and the child it was searching */
    uint32_t th[2];               /* the child's thresholds (pn, dn) */
    uint32_t stamp;               /* the job that wrote it; 0: used */
} sp_trail;

/* A worker: one thread's scratch and counts; the team (team.h) knows the workers by pointer and keeps
 * its side of each in tm, whose parts the others read (joined, seen) lie on cache lines of their
 * own, so that a child made by one costs the other no cache miss (docs/performance.md). */
typedef struct sp_worker {
    _Alignas(64) struct sp_engine *eng;
    sp_canon_ctx *canon;
    sp_lcache *lands;    /* the land cache its expansions use: the leader's engine->lands, else NULL */
    sp_frame **frames;
    unsigned nframes;
    uint64_t nodes;      /* the leader's */
    _Atomic uint64_t tt_probes, tt_hits;
    uint64_t next_check; /* node count at which to look at the clock and the stop flag */
    uint64_t job_end;    /* node count at which a job returns with its numbers (sp_engine_job); 0: none */
    sp_trail *trail;     /* the last cut job's stack, for the next job to go back to */
    size_t trail_cap;
    uint32_t trail_stamp, trail_use; /* this job's stamp, and the trail's it follows (0: none) */
    unsigned id;
    bool failed;         /* out of memory: the search gives up with SP_UNKNOWN */
    sp_team_member tm;   /* its side of the team (team.h) */
    sp_tok scratch[SP_KEY_MAX]; /* for one key at a time, never across a recursive call */
} sp_worker;

/* What resolve() found: decided, a single node to expand, or a sum that needs a part settled first. */
typedef enum { SP_RESOLVED_WIN = SP_WIN, SP_RESOLVED_LOSS = SP_LOSS, SP_EXPAND = 2, SP_SUM = 3 } sp_resolved;

typedef struct sp_rules {
    sp_play play;
    /* Decides n without search (SP_RESOLVED_WIN / _LOSS), or returns SP_EXPAND after possibly rewriting
     * n into a simpler node of the same outcome (key in frame(depth)->node_tok, hash recomputed), or
     * SP_SUM when n's outcome needs the outcome of another node first: *sub is set to that node (its key
     * lies inside n's) and *rest to an estimate (>= 0) of the work left after it. */
    sp_resolved (*resolve)(sp_worker *w, sp_node *n, unsigned depth, sp_node *sub, uint32_t *rest);
    /* Fills f with the children of n (sp_frame_add_child); returns SP_WIN when a child is known to be
     * lost for its mover, else SP_UNKNOWN. */
    sp_outcome (*expand)(sp_worker *w, const sp_node *n, sp_frame *f);
    /* Called once n (as resolved) is proven, after `work` nodes of search below it. */
    void (*proven)(sp_worker *w, const sp_node *n, sp_outcome o, uint64_t work);
} sp_rules;

typedef struct sp_engine {
    sp_tt *tt;
    sp_nimstore *nim;
    sp_lcache *lands;      /* the children of the lands expanded lately: the leader's (sp_worker.lands) */
    sp_mg *games;          /* misère: games in simplest form (the k of a node is one of their ids) */
    sp_nimstore *mis;      /* misère: land key -> id of the land's game */
    sp_nimstore *mis_lost; /* misère: a position P (one land or more) -> a game g with P + g proven
                            * lost after costly search (SP_TUNE_MISERE_LOST_WORK nodes or more):
                            * saved, so that a stopped search keeps its dearest proofs; one game per
                            * position */
    unsigned mis_lives;    /* misère: lands of at most this many lives are valued; 0: none */
    unsigned mis_sum_lives; /* misère: and the lands of a sum but its largest, up to this many
                             * (never below mis_lives: so also the most lives any valued land has) */
    const atomic_bool *stop; /* set from outside, or NULL */
    double deadline;      /* monotonic seconds at which the search stops; 0: none */
    atomic_bool aborted;  /* stopped from outside or by the deadline: nothing decided */
    sp_team team;         /* the threads (team.h) */
    /* called by the leader during a search at most once every SP_TUNE_PROGRESS_SECONDS (the first
     * time that long after last_report), or never when NULL */
    void (*report)(void *arg);
    void *report_arg;
    double last_report;
} sp_engine;

extern const sp_rules sp_rules_normal;
extern const sp_rules sp_rules_misere;

/* Misère: the game id of a land of at most mis_sum_lives lives, valued now if need be (outside a
 * search, by worker w alone); SP_MG_NONE for a larger land or when a table is full. */
sp_mg_id sp_misere_land_game(sp_worker *w, const sp_tok *land, size_t len);
/* Misère: the node (key, *g) as the search stores it: the lands it values folded into *g, the
 * others written to out (room for len tokens); their length. Outside a search, by worker w alone. */
size_t sp_misere_fold(sp_worker *w, const sp_tok *key, size_t len, sp_mg_id *g, sp_tok *out);

void sp_node_hash(sp_node *n, sp_play play);

/* How far the search the leader w runs or ran last has come, from its root's children (depth 0):
 * their number, those proven won for their mover, and the root's proof and disproof numbers as they
 * give them (pn: the least child's dn, 0 once one is lost; dn: the sum of their pn, saturating).
 * Read by w's own thread, or while it does not search. */
typedef struct sp_root_view {
    unsigned moves, refuted;
    uint32_t pn, dn;
} sp_root_view;
void sp_engine_root_view(const sp_worker *w, sp_root_view *v);

/* Scratch of depth `depth`; NULL when memory is short. */
sp_frame *sp_worker_frame(sp_worker *w, unsigned depth);
void sp_worker_release(sp_worker *w);

/* Appends a child, with its order and initial dn, unless an equal one (same hash) is there; 1 added,
 * 0 repeat, -1 out of memory. */
int sp_frame_add_child(sp_frame *f, const sp_tok *key, size_t len, uint32_t k, sp_play play, uint32_t order,
                       uint32_t dn);
void sp_frame_reset(sp_frame *f);

/* Room for a node rewritten by resolve(): whichever of f's two node buffers `reading` (the key being
 * rewritten) is not in; NULL when memory is short. */
sp_tok *sp_frame_node_room(sp_frame *f, const sp_tok *reading, size_t len);

/* The thresholds of the child that df-pn searches next below a node whose numbers are below its
 * thresholds (thpn, thdn; its disproof number dn): the child's numbers (cpn, cdn, both unproven) and
 * the second least disproof number of its siblings (dn2) give cthpn and cthdn, each above the
 * child's own number, so that every child searched makes progress. Numbers saturate at
 * SP_PN_INF - 1 (sums of large trees): where the plain formulas give the saturated number itself,
 * the child would return at once, the node choose it again, and the search spin without end. */
void sp_engine_child_thresholds(uint32_t thpn, uint32_t thdn, uint32_t dn, uint32_t dn2, uint32_t cpn, uint32_t cdn,
                                uint32_t *cthpn, uint32_t *cthdn);

/* A sum whose outcome waits for a part (numbers spn, sdn, unproven; rest as sp_rules.resolve gives
 * it): the sum's numbers (*pn, *dn), and false when they reach its thresholds; else the part's
 * thresholds (*tp, *td), which the part's own numbers are below (also where the sum's saturate). */
bool sp_engine_part_thresholds(uint32_t spn, uint32_t sdn, const uint32_t rest[2], uint32_t thpn, uint32_t thdn,
                               uint32_t *pn, uint32_t *dn, uint32_t *tp, uint32_t *td);

/* Searches n until proven, until its numbers reach the thresholds (SP_PN_INF: none), or until it
 * has made max_nodes nodes (0: no limit), and gives n's numbers then (*pn, *dn: also stored in the
 * table). SP_UNKNOWN when unproven, stopped or out of memory (then w->failed or the engine's aborted
 * flag says which). */
sp_outcome sp_engine_job(sp_worker *w, const sp_rules *rules, sp_node *n, uint32_t thpn, uint32_t thdn,
                         uint64_t max_nodes, uint32_t *pn, uint32_t *dn);

/* One step of a search driven from outside (the farm): resolves n (rewriting it in frame 0), then,
 * when it is a single couple to expand, lists its children in *children (frame 1, numbers from the
 * table) unless that already decides it. SP_SUM: *sub and rest as sp_rules.resolve gives them.
 * After a job on n cut by its budget, the children are those the job left in frame 0 instead, and
 * *cut_child says which child it was in (0 for a sum's part; else SIZE_MAX). */
sp_resolved sp_engine_step(sp_worker *w, const sp_rules *rules, sp_node *n, sp_node *sub, uint32_t rest[2],
                           sp_frame **children, size_t *cut_child);

/* Adds a child that a team member made ready, unless an equal one is there; 1 added, 0 repeat, -1 out
 * of memory. */
int sp_frame_add_ready(sp_frame *f, const sp_tok *key, const sp_ready *r);

/* The transposition table entry of h, counting the probe; false when absent. */
bool sp_engine_probe(sp_worker *w, const uint64_t h[2], sp_tt_entry *e);

/* The initial disproof number of an unexplored node: proving it lost means answering every move. */
uint32_t sp_engine_initial_dn(const sp_tok *key, size_t len, uint32_t k);

/* The same from its moves counted (sp_key_moves_estimate() plus the moves beside the key), for
 * callers that count a key's moves once for many children. */
uint32_t sp_engine_dn_of(uint64_t moves);

#endif
