/* antwerp.c: Antwerp sprouts' moves (antwerp.h) on top of the Sprouts move generator: each 1-life
 * spot gets a letter id, so that a child tells which spots a move used (the parent's 1-life spots it
 * lacks) and which is new (movegen.h's fixed id), and colours follow the ids. */
#include "antwerp.h"

#include <stdlib.h>
#include <string.h>

#include "movegen.h"

typedef struct aw_run {
    sp_pos q;                     /* the parent, each '2' made a letter seen once */
    uint8_t idcol[SP_MAX_SYMS];   /* colour per letter id of q */
    uint8_t inparent[SP_MAX_SYMS];
    uint8_t present[SP_MAX_SYMS];
    uint8_t col[SP_MAX_SYMS];     /* the child's colours */
    sp_player who;
    sp_colour drawn;
    sp_aw_sink sink;
    void *arg;
} aw_run;

/* A child of the plain generator: kept when the 1-life spots it used (those it lacks: a move kills
 * exactly its 1-life ends) are all the mover's to use; then coloured by id. */
static int aw_child(void *arg, sp_pos *child, uint32_t move)
{
    aw_run *w = arg;
    unsigned fresh = w->q.nletter;
    (void)move;
    memset(w->present, 0, fresh);
    for (unsigned i = 0; i < child->nsym; i++) {
        unsigned k = child->sym[i] - (unsigned)SP_SYM_LETTER;
        if (sp_sym_is_letter(child->sym[i]) && k < fresh)
            w->present[k] = 1;
    }
    for (unsigned k = 0; k < fresh; k++)
        if (w->inparent[k] && !w->present[k] && !sp_aw_may_use(w->who, w->idcol[k]))
            return 0;
    for (unsigned i = 0; i < child->nsym; i++) {
        unsigned s = child->sym[i], k = s - SP_SYM_LETTER;
        w->col[i] = !sp_sym_is_letter(s) ? SP_WHITE : k < fresh ? w->idcol[k] : k == fresh ? w->drawn : SP_WHITE;
    }
    return w->sink(w->arg, child, w->col);
}

int sp_aw_moves(const sp_pos *p, const uint8_t *col, bool hot, sp_player who, sp_aw_sink sink, void *arg)
{
    aw_run *w = malloc(sizeof *w);
    if (!w)
        return -1;
    memcpy(&w->q, p, sizeof *p);
    memset(w->inparent, 0, sizeof w->inparent);
    int rc = 0;
    for (unsigned i = 0; i < p->nsym && rc == 0; i++) {
        unsigned s = p->sym[i];
        if (s == SP_SYM_TWO) {
            if (w->q.nletter + 3u > SP_MAX_SYMS)
                rc = -1; /* (no room for the ids of a move: far beyond any position searched) */
            else
                w->q.sym[i] = (uint16_t)(SP_SYM_LETTER + w->q.nletter++);
            s = w->q.sym[i];
        }
        if (sp_sym_is_letter(s)) {
            w->idcol[s - SP_SYM_LETTER] = col[i];
            w->inparent[s - SP_SYM_LETTER] = 1;
        }
    }
    if (rc == 0 && w->q.nletter + 3u > SP_MAX_SYMS)
        rc = -1;
    w->who = who;
    w->drawn = sp_aw_draws(hot, who);
    w->sink = sink;
    w->arg = arg;
    if (rc == 0)
        rc = sp_pos_moves(&w->q, aw_child, w);
    free(w);
    return rc;
}

void sp_aw_swap(const sp_pos *p, uint8_t *col)
{
    for (unsigned i = 0; i < p->nsym; i++)
        col[i] = col[i] == SP_RED ? SP_BLUE : col[i] == SP_BLUE ? SP_RED : col[i];
}
