/* verify.h: the independent checker of certificates. It shares only canon/ with the solver: moves
 * are generated afresh and every claim is checked by the definitions, with no search heuristics and
 * no parallel search. The one thing it remembers (per thread, bounded) is its own: in normal play,
 * which XORs of facts the children of a land were seen to reach, and whether all its children were
 * seen; a move in that land is answered when the XOR wanted is among them (the moves of the land are
 * made again, up to the first that reaches it, when the question is still open).
 *
 * Contract: sp_verify() accepts exactly when every fact is proven by the others and the root's claim
 * follows: a claimed loss must have each of its moves answered by a move to a claimed loss (normal
 * play: a position whose lands all have facts whose nimbers XOR to the Nim heap; misère play: a
 * position whose small lands summed into the game beside it give a fact, or no land left and a game
 * lost for its mover; a position with no move at all is won by the player to move); a claimed win
 * needs one move to a claimed loss. A normal-play fact base with further roots is accepted only when
 * every root's claim follows. Misère land facts are checked by computing the land's game from
 * its children (each the sum of its lands' claimed games) in the checker's own game arithmetic
 * (vgame.h) and comparing simplest forms. Sound by induction on the length of the game and the lives
 * of lands: no false claim can pass.
 */
#ifndef SP_VERIFY_H
#define SP_VERIFY_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "cert.h"

typedef struct sp_verify_result {
    int ok;                /* 1: the certificate proves its claim */
    uint64_t facts;        /* facts checked */
    uint64_t given;        /* facts taken from the given fact base (sp_verify_given) */
    uint64_t lands;        /* land facts checked (misère play) */
    uint64_t positions;    /* positions generated while checking */
    char reason[512];      /* why it failed (first failure found) */
} sp_verify_result;

/* Who watches a long check (every field may be NULL): progress is called at most once a second with
 * the items (facts and land games) checked so far, of how many, and the seconds since the start;
 * once *stop is set, the check ends early. */
typedef struct sp_verify_watch {
    sp_cert_progress progress;
    void *arg;
    const atomic_bool *stop;
} sp_verify_watch;

/* Checks c with up to `threads` threads (0: all). Returns 0, -1 when out of memory, or 1 when
 * stopped (then res says nothing). */
int sp_verify(const sp_cert *c, unsigned threads, const sp_verify_watch *watch, sp_verify_result *res);

/* sp_verify() of a certificate that builds on a fact base of its play checked before (given, or
 * NULL): the facts of c that given holds are taken as proven and not checked again (res->given
 * counts them), and so are the roots it holds with the same claimed outcome (a part of a build kept
 * beside the base stands beside the base's own root); every other fact, every land fact and the
 * other roots are checked as always. Normal play:
 * a land with the same nimber. Misère play: the same position beside a game of given's with the
 * structure of c's (the same options, matched from the games without options up: gindex.h), so the
 * same game. Sound when given was accepted by the checker (whole, or chunk by chunk so). */
int sp_verify_given(const sp_cert *c, const sp_cert *given, unsigned threads, const sp_verify_watch *watch,
                    sp_verify_result *res);

#endif
