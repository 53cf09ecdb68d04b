/* misere.c: the misère rule set: the player who cannot move wins. Sums of lands do not follow the
 * Sprague-Grundy theory in misère play, so a node is a whole position (all its lands together). */
#include "engine.h"

static sp_resolved misere_resolve(sp_worker *w, sp_node *n, unsigned depth, sp_node *sub, uint32_t rest[2])
{
    (void)w, (void)depth, (void)sub, (void)rest;
    return n->len == 0 ? SP_RESOLVED_WIN : SP_EXPAND; /* no move left: the player to move has won */
}

static sp_outcome misere_expand(sp_worker *w, const sp_node *n, sp_frame *f)
{
    if (sp_pos_children(w->canon, n->key, n->len, &f->raw))
        return w->failed = true, SP_UNKNOWN;
    for (size_t c = 0; c < f->raw.n; c++) {
        const sp_tok *ck = f->raw.tok + f->raw.off[c];
        uint32_t len = f->raw.len[c];
        if (len == 0)
            continue; /* moving to the end hands the opponent the win */
        if (sp_frame_add_child(f, ck, len, 0, SP_PLAY_MISERE, sp_key_lives(ck, len)) < 0)
            return w->failed = true, SP_UNKNOWN;
    }
    return SP_UNKNOWN;
}

static void misere_proven(sp_worker *w, const sp_node *n, sp_outcome o)
{
    (void)w, (void)n, (void)o;
}

const sp_rules sp_rules_misere = {SP_PLAY_MISERE, misere_resolve, misere_expand, misere_proven};
