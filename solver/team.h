/* team.h: the threads of one search; internal to solver/. The leader runs the df-pn search; the
 * helpers share out the moves of each land it expands, taking them one at a time as they come free
 * (the leader from the first move up, the helpers by turns from the last one down or the first up:
 * share.h), so that the search is the same, node for node, whatever the threads.
 *
 * Contract of an expansion (sp_team_expand), posted by the leader and numbered (its round):
 * - the leader starts on the moves at once; a helper joins when it notices the post, and one that has
 *   not joined by the time the leader's own part ends is left out of that round;
 * - each child a member makes goes to prepare() as soon as it is made, unless another member already
 *   made it from an earlier move (a child first met from the far end may thus be prepared twice);
 *   a child that decides the node (prepare sets w->won) stops every member;
 * - the ready children then join the frame in the order of the first move that gave each, as one
 *   thread would have listed them (a repeat is dropped).
 * When the node is decided, the leader goes on at once: a helper may still be finishing the move it
 * had in hand, with its own copy of what it needs. Everything a stale helper could still write is
 * tagged with its round, so that it cannot pass for part of the next one.
 */
#ifndef SP_TEAM_H
#define SP_TEAM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "children.h"
#include "keys.h"
#include "play.h"
#include "share.h"

#define SP_MAX_TEAM 64

struct sp_worker;
struct sp_frame;
struct sp_ready;

/* Makes one child of a node beside game k ready for the frame, by worker w (sp_team_ready); true
 * when the child needs no search and decides the node (a move to a position lost for its mover). */
typedef bool (*sp_team_prepare)(struct sp_worker *w, uint32_t k, const sp_tok *child, size_t len, uint32_t move);

typedef struct sp_team_seen sp_team_seen;

/* A worker's side of the team, embedded in each worker (engine.h) and touched by team.c alone: its
 * part of the current round, its copy of the post, the children it made ready. */
typedef struct sp_team_member {
    sp_move_part round_part; /* the round it takes part in (share NULL: the leader alone) */
    _Alignas(64) atomic_uint joined; /* the last round it joined (the leader: posted), read by the others */
    atomic_uint done;    /* a helper: the last round it is done with (read by the leader) */
    sp_team_seen *seen;  /* the children it made ready, noted for the others (NULL for one thread) */
    _Alignas(64) sp_tok *land;        /* a helper's copy of the land expanded */
    size_t land_len, land_cap;
    sp_tok *rest;        /* the other lands of the position, if it has several (a helper's copy) */
    size_t rest_len, rest_cap;
    sp_tok *merged;      /* a child of the land made the position's child (rest merged in) */
    size_t merged_cap;
    void *list;          /* its copy of the cached list replayed (landcache.h), if the round is one */
    size_t list_cap;
    bool replaying;      /* the round replays that list instead of making moves */
    uint32_t parent_k;   /* the game beside it */
    sp_team_prepare prepare;
    sp_children part;    /* the children of its moves ... */
    struct sp_ready *ready; /* ... made ready (sp_team_ready) */
    size_t nready, ready_cap, nprobed; /* the first nprobed of them looked up */
    sp_tok *rtok;
    size_t rtok_len, rtok_cap;
    bool won;            /* one of them is lost for its mover */
} sp_team_member;

/* A member for a team of `size` threads (the note of children seen is only made for two or more);
 * false when memory is short. Free gives back all it holds (and may be called on a zeroed one). */
bool sp_team_member_init(sp_team_member *m, unsigned size);
void sp_team_member_free(sp_team_member *m);

typedef struct sp_team {
    unsigned size;        /* threads, the leader included */
    struct sp_worker *members[SP_MAX_TEAM]; /* by id; the leader is members[0] */
    unsigned start;       /* seq when the helpers were started */
    atomic_bool quit;
    /* the expansion posted: read by a helper when it joins */
    const sp_tok *key;
    size_t len;
    const sp_tok *rest;   /* the position's other lands (rest_len 0: the land is the position) */
    size_t rest_len;
    uint32_t k;
    sp_team_prepare prepare;
    const void *list;     /* a whole cached list to replay (its block), or NULL: moves to make */
    size_t list_bytes;
    char pad0[64];
    atomic_uint seq;      /* the current round (helpers wait for it to change) */
    char pad1[64];
    _Atomic uint64_t entry;    /* round << 32 | closed by the leader | helpers who joined */
    atomic_uint started;       /* helpers who joined and copied the post */
    _Atomic uint64_t finished; /* round << 32 | helpers who joined and are done */
    atomic_uint won_round;     /* the last round in which a member found a child that decides it */
    atomic_bool failed;        /* a member ran out of memory */
    char pad2[64];
    sp_move_share share;  /* the moves of the current round */
    char pad3[64];
} sp_team;

/* A team of `size` workers, member i being workers[i]'s (each with its team member initialised). */
void sp_team_init(sp_team *t, unsigned size, struct sp_worker *const *workers);

/* Before the helpers start; a helper's loop (takes part in every round posted after the start, until
 * sp_team_quit()); the end. */
void sp_team_start(sp_team *t);
void sp_team_help(struct sp_worker *w);
void sp_team_quit(sp_team *t);

/* Waits (the leader, between expansions) until no helper is in a round: each is done with the last
 * round it joined, so that until the next round the leader alone touches what rounds share. */
void sp_team_quiesce(sp_team *t);

/* Expands land (beside game k) into frame f, through the team when the land is large (only the
 * leader, worker 0, calls it; the workers are one array). Returns SP_WIN when a child decides the
 * node, SP_UNKNOWN otherwise, or on failure with w->failed set. */
sp_outcome sp_team_expand(struct sp_worker *w, const sp_tok *land, size_t len, uint32_t k, sp_team_prepare prepare,
                          struct sp_frame *f);

/* sp_team_expand() of the land at pos + off (len tokens) of a position of several lands (pos_len
 * tokens): prepare sees each child as the position's, the land replaced by its child (expand.h). */
sp_outcome sp_team_expand_in(struct sp_worker *w, const sp_tok *pos, size_t pos_len, size_t off, size_t len,
                             uint32_t k, sp_team_prepare prepare, struct sp_frame *f);

/* Within prepare: a child ready to join the frame (hashed and looked up in the transposition table;
 * a child known lost for its mover decides the node); dn: its disproof number unless the table knows
 * better. */
void sp_team_ready(struct sp_worker *w, const sp_tok *key, size_t len, uint32_t k, sp_play play, uint32_t order,
                   uint32_t dn, uint32_t move);

/* A worker's note of the children it made ready in its rounds (exposed for tests): written by its
 * worker only, read by the other members of the round. put: child hash h made ready from `move`
 * (a full neighbourhood drops the note: the child may then be prepared twice); get: the move noted
 * for h in `round`, if any. A note of an older round is never mistaken for one of this round. */
sp_team_seen *sp_team_seen_new(void);
void sp_team_seen_free(sp_team_seen *s);
void sp_team_seen_put(sp_team_seen *s, uint32_t round, const uint64_t h[2], uint32_t move);
bool sp_team_seen_get(const sp_team_seen *s, uint32_t round, const uint64_t h[2], uint32_t *move);

#endif
