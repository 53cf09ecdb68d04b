/* cert.h: certificates: a claimed outcome of a root position and a set of claimed losses from which it
 * follows without search (Lemoine and Viennot's databases of losing couples).
 *
 * Contract:
 * - Normal play: a fact is a land L with a claimed nimber g, i.e. the couple (L, g) = L + *g is lost;
 *   by the Sprague-Grundy theorem any position whose lands all have facts is then a claimed loss
 *   beside a heap of the XOR of their nimbers.
 * - Misère play: small lands stand for their misère game (misère equality is a congruence for sums:
 *   mgame.h, vgame.h). The certificate lists games (game i by its options, games of smaller index),
 *   land facts (land L equals game j), and facts (P, j): the position P beside the game j is lost.
 *   Facts are in normal form: going through the lands of a position beside a game h in key order, a
 *   land of l lives with game v is summed into h when l <= value_lives, or when l <= sum_lives and
 *   b(h) + b(v) <= sum_birthday (b: the birthday; sums of large games cost the product of their
 *   sizes); the other lands stay in P. value_lives = 0 and no games: facts are whole positions
 *   (the format of earlier versions).
 * - Either play may have further roots, each proven from the same facts (one fact base for several
 *   sizes: the facts the roots share are written once).
 * - Loading never trusts a file: verify.h decides whether the facts prove the claim.
 */
#ifndef SP_CERT_H
#define SP_CERT_H

#include <stddef.h>
#include <stdint.h>

#include "children.h"

enum { SP_CERT_NORMAL = 0, SP_CERT_MISERE = 1 };
enum { SP_CERT_LOSS = 0, SP_CERT_WIN = 1 };

/* Progress of a long pass over a certificate's facts (building or checking it): done of items (the
 * list may still grow), seconds since the start; called at most once a second. */
typedef void (*sp_cert_progress)(void *arg, uint64_t done, uint64_t items, double seconds);

/* A root and its claimed outcome (the further roots of a normal-play fact base). */
typedef struct sp_cert_root {
    unsigned spots;      /* the root is 0*spots, or 0 for another root */
    int outcome;
    sp_tok *key;
    size_t len;
} sp_cert_root;

typedef struct sp_cert {
    int play;            /* SP_CERT_NORMAL or SP_CERT_MISERE */
    unsigned spots;      /* the root is 0*spots, or 0 for another root */
    int outcome;         /* claimed for the player to move at the root */
    sp_tok *root;
    size_t root_len;
    sp_cert_root *more;  /* normal play: further roots, proven from the same facts */
    size_t nmore;
    sp_children facts;   /* the facts (read them with sp_cert_fact) */
    uint32_t *k;         /* per fact: its claimed nimber (normal play), its game j (misère play) */
    size_t k_cap;
    /* misère play only */
    unsigned value_lives, sum_lives, sum_birthday;
    uint32_t ngames, *game_first, *game_opts; /* game i: game_opts[game_first[i] .. game_first[i + 1]) */
    size_t games_cap, opts_len, opts_cap;
    sp_children lands;   /* land facts: lands[i] equals game land_game[i] */
    uint32_t *land_game;
    size_t land_cap;
} sp_cert;

int sp_cert_init(sp_cert *c, int play, unsigned spots, const sp_tok *root, size_t len, int outcome);
void sp_cert_free(sp_cert *c);

/* Normal play: adds a further root with its claimed outcome; 0, or -1 when out of memory. */
int sp_cert_add_root(sp_cert *c, unsigned spots, const sp_tok *key, size_t len, int outcome);

/* Adds a fact: (land, nimber k) in normal play, (position, game k) in misère play; returns its index,
 * or -1 when out of memory. In normal play a land already there keeps its first nimber. */
long sp_cert_add(sp_cert *c, const sp_tok *key, size_t len, uint32_t k);
/* The index of the fact of this land (normal play; k ignored) or of this (position, game k) (misère
 * play), or -1. */
long sp_cert_find(const sp_cert *c, const sp_tok *key, size_t len, uint32_t k);

/* Misère play: a position P and a game g as one key (P, then g in two tokens), for lists that hold
 * couples; out has room for len + 2 tokens. Returns len + 2. sp_cert_pair_game reads g back from
 * such a key of n tokens (P is its first n - 2). */
size_t sp_cert_pair(const sp_tok *key, size_t len, uint32_t g, sp_tok *out);
uint32_t sp_cert_pair_game(const sp_tok *pair, size_t n);

/* Misère play: the most lives a land with a land fact may have (value_lives or sum_lives). */
unsigned sp_cert_valued_lives(const sp_cert *c);

/* Misère normal form (above), for the builder and the checker alike, each with its own games: the
 * game of a land (SP_CERT_NONE when it has none), birthdays, and h + v for a land summed. */
#define SP_CERT_NONE UINT32_MAX
typedef struct sp_cert_games {
    void *arg;
    uint32_t (*land)(void *arg, const sp_tok *land, size_t len);
    unsigned (*birthday)(void *arg, uint32_t g);
    uint32_t (*fold)(void *arg, const sp_tok *land, size_t len, uint32_t h, uint32_t v); /* or SP_CERT_NONE */
} sp_cert_games;

/* Writes to out the lands of key that stay beside *h, summing the others into *h (all of them when
 * `all`); returns the length written, or -1 when a land that must be summed has no game or a sum
 * fails. */
long sp_cert_normalise(const sp_cert *c, const sp_cert_games *g, const sp_tok *key, size_t len, uint32_t *h,
                       sp_tok *out, int all);

/* The key of fact i (a land, or the position P of a misère fact) and its length. */
const sp_tok *sp_cert_fact(const sp_cert *c, size_t i, size_t *len);

/* Misère play: appends the game with options opts[0..n) (indices of games already there); returns its
 * index, or -1 when out of memory or an option is not there yet. */
long sp_cert_add_game(sp_cert *c, const uint32_t *opts, size_t n);
/* Misère play: the land fact "land equals game g"; returns its index (a land already there keeps its
 * first game), or -1. */
long sp_cert_add_land(sp_cert *c, const sp_tok *land, size_t len, uint32_t g);
long sp_cert_find_land(const sp_cert *c, const sp_tok *land, size_t len);

/* On disk (certfile.c): a chunk file (chunks.h, SP_CHUNKS_CERT), each chunk adding roots, games, land
 * facts and facts to those before it, so that a fact base of many sizes grows by appends. A mark says
 * how much of a certificate a file holds. */
typedef struct sp_cert_mark {
    size_t roots, games, lands, facts; /* roots: the root and the further ones */
} sp_cert_mark;
void sp_cert_mark_all(const sp_cert *c, sp_cert_mark *m);

/* Writes c whole, atomically: a chunk file of one chunk. */
int sp_cert_save(const sp_cert *c, const char *path, char *err, size_t errcap);
/* Appends to path what c has beyond *m (the file holds what *m says), then *m covers all of c;
 * nothing new, nothing written; with a zero mark, or over a file that is not a chunk file (none, or
 * a store of the forms before), the file is written whole. 0, or -1 with a reason. */
int sp_cert_append(const sp_cert *c, const char *path, sp_cert_mark *m, char *err, size_t errcap);
/* Loads a certificate (a chunk file, or a store file of the forms before them); a malformed one is
 * rejected with a reason (never half-loaded). A torn last chunk (an append killed part way) is left
 * out, and warning (when not NULL) says so; "" when nothing was. */
int sp_cert_load_info(sp_cert *c, const char *path, char *warning, size_t wcap, char *err, size_t errcap);
int sp_cert_load(sp_cert *c, const char *path, char *err, size_t errcap);

#endif
