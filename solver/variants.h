/* variants.h: the variants of the seed article, decided by plain exhaustive search with memoisation
 * over canonical positions: black-and-white sprouts (normal play, nimbers), Brussels sprouts (every
 * game length) and Antwerp sprouts (partizan outcome classes). A separate, small solver: the df-pn
 * engine of solver.h knows the plain rules only (its move lists, land cache and certificates), and
 * the sizes these variants reach need none of its machinery.
 *
 * Contract: every answer comes from searching the variant's own moves; nothing is looked up in a
 * written table. A solver keeps what it learned from one call to the next (its memo tables, bounded
 * by the budget given at creation); a call that runs out of room answers -1 and decides nothing.
 */
#ifndef SP_VARIANTS_H
#define SP_VARIANTS_H

#include <stddef.h>
#include <stdint.h>

#include "antwerp.h"
#include "brussels.h"
#include "keys.h"

typedef enum {
    SP_RULES_BW = 1,          /* black-and-white: a curve with or without a new spot */
    SP_RULES_BRUSSELS,        /* crosses of four arms */
    SP_RULES_ANTWERP_COLD,    /* Left (A) draws red spots, Right (B) blue ones */
    SP_RULES_ANTWERP_HOT,     /* Left draws blue spots, Right red ones */
} sp_rules;

/* The rule set a name (bw, brussels, antwerp-cold, antwerp-hot) stands for; 0 when none. */
sp_rules sp_rules_parse(const char *name);
const char *sp_rules_name(sp_rules r);

typedef struct sp_variants sp_variants;

/* A solver for one rule set whose memo tables take at most `bytes` (at least 16 MiB are used). */
sp_variants *sp_variants_new(sp_rules rules, size_t bytes);
void sp_variants_free(sp_variants *v);

/* Positions searched (expanded) and memo entries since creation. */
uint64_t sp_variants_nodes(const sp_variants *v);
uint64_t sp_variants_stored(const sp_variants *v);

/* Black-and-white: the nimber of a position key (the XOR of its lands'), or -1 out of room. */
int sp_variants_bw_nimber(sp_variants *v, const sp_tok *key, size_t len);

/* Brussels: the shortest and the longest game of a canonical position and its nimber, every game
 * through every region reachable from it searched. Returns 0, or -1 out of room. */
typedef struct sp_br_lengths {
    unsigned shortest, longest, nimber;
    uint64_t regions; /* distinct regions reached so far by this solver */
} sp_br_lengths;
int sp_variants_brussels(sp_variants *v, const sp_br_pos *p, sp_br_lengths *out);

/* Antwerp (the solver's rules, cold or hot): whether `who`, to move in the position of an Antwerp key
 * (canonical.h's *_colours; any number of lands), wins: 1, 0, or -1 out of room. A memoised minimax
 * over whole positions with the player to move in the memo key: the game is partizan, so neither
 * Sprague-Grundy nor the outcomes of the lands alone decide a sum, and no land is valued apart. */
int sp_variants_antwerp_wins(sp_variants *v, const sp_tok *key, size_t len, sp_player who);

/* The outcome class, from both searches (Left first, Right first): bit 0 set when Left moving first
 * wins, bit 1 when Right moving first does. */
typedef enum {
    SP_CLASS_SECOND = 0, /* P: the player to move loses, whoever it is */
    SP_CLASS_LEFT = 1,   /* L: Left wins, first or second */
    SP_CLASS_RIGHT = 2,  /* R: Right wins, first or second */
    SP_CLASS_FIRST = 3,  /* N: the player to move wins */
} sp_aw_class;

/* The class (0..3), or -1 out of room. */
int sp_variants_antwerp_class(sp_variants *v, const sp_tok *key, size_t len);

/* "second player wins", "Left wins", "Right wins", "first player wins". */
const char *sp_aw_class_name(sp_aw_class c);

#endif
