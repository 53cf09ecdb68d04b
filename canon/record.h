/* record.h: game records in the players' notation (Conway / WGOSA, with Hoey's '!'), parsed into a
 * value: the header (spots, normal or misère, players), the moves and the result.
 *
 * Contract:
 * - Accepted text, tokens separated by any white space (line breaks included), none required inside
 *   a move:
 *     N+ | N-                      N spots (1..99999), normal play or misère ('−', U+2212, also works)
 *     ( NAME SEP NAME )            optional; SEP is ',' or ' - ' (a hyphen or en dash with white space
 *                                  on both sides), or else the only dash, unspaced ("(Ann-Bob*)");
 *                                  one or no NAME; names keep inner spaces, '+' and, beside a spaced
 *                                  SEP, hyphens; at most one '*' at either end of a name marks who
 *                                  chose N
 *     F(G)H  F!(G)H  F(G)!H  F(G@I)H   moves; '!' right after F or right before H (Hoey's mark)
 *     [L]                          optional after a move: numbers and ranges A-B (hyphen or en dash)
 *                                  separated by ',' or the old '&', in any order; [] is an empty list
 *     I | II                       optional, last: the winner
 *     # ...                        a comment, to the end of the line, wherever white space may be
 *   Spot numbers are at least 1. Everything else is rejected with the line and column (1-based, in
 *   characters of UTF-8 text) where the problem is seen, and why.
 * - The parse checks the text only; whether the moves are legal is replay.h's business.
 * - A record owns its move and list arrays: release it with sp_rec_free (also after a failed parse).
 */
#ifndef SP_RECORD_H
#define SP_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#define SP_REC_NAME_MAX 64 /* bytes of a player's name, with its NUL */

typedef struct sp_rec_move {
    unsigned f, g, h;      /* from f to h, new spot g */
    unsigned at;           /* @at: g lies in a region where spot `at` is; 0 when absent */
    bool bang_f, bang_h;   /* Hoey's '!' at the end f / h */
    bool has_list;         /* [L] was written (possibly empty) */
    size_t list_off, nlist; /* L: sp_record.list[list_off .. list_off + nlist), as written, ranges expanded */
    unsigned line, column; /* where the move starts */
} sp_rec_move;

typedef struct sp_record {
    unsigned spots;
    bool misere;
    unsigned nplayers;                       /* 0, 1 or 2 names */
    char player[2][SP_REC_NAME_MAX];
    unsigned chooser;                        /* 1 or 2: the player marked '*'; 0: none */
    unsigned winner;                         /* 1 (I) or 2 (II); 0: not given */
    sp_rec_move *moves;
    size_t nmoves;
    unsigned *list;                          /* every [L] list, one after the other */
    size_t nlist;
    size_t move_cap, list_cap;               /* private */
} sp_record;

typedef struct sp_rec_error {
    unsigned line, column; /* 1-based; the column counts UTF-8 characters */
    char message[160];
} sp_rec_error;

/* Parses text into *out. Returns 0, or -1 with *err filled in (out is then empty but must still be
 * freed). */
int sp_rec_parse(const char *text, sp_record *out, sp_rec_error *err);

void sp_rec_free(sp_record *r);

/* Writes move i in normal form ("6!(8)7 [2,5,7-9]", ranges re-formed from the sorted list), like
 * snprintf: returns the length it needs. */
size_t sp_rec_move_text(const sp_record *r, size_t i, char *buf, size_t cap);

#endif
