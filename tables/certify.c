/* certify.c: certificate extraction (certify.h). From the root, every claimed loss gets an answer to
 * each of its moves: a move to a position the solver knows to be lost, whose facts (land nimbers in
 * normal play, the position itself in misère play) join the certificate and are answered in turn. */
#include "certify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct builder {
    sp_cert *c;
    sp_solver *s;
    sp_canon_ctx *ctx;
    sp_children kids, grandkids;
    int status; /* 0 ok, 1 stopped, -1 failed */
} builder;

static void failed(builder *b, int status, const char *what)
{
    if (b->status == 0 && status < 0)
        fprintf(stderr, "certify: %s\n", what);
    if (b->status == 0)
        b->status = status;
}

/* The nimber of a land: stored, or computed. -1 when stopped. */
static long land_nimber(builder *b, const sp_tok *land, size_t len)
{
    int g = sp_solver_known_nimber(b->s, land, len);
    return g >= 0 ? g : sp_solver_nimber(b->s, land, len);
}

/* Normal play: adds a fact for every land of a position that is lost beside a heap (their nimbers are
 * stored: the solver proved them when it proved the loss). */
static void add_land_facts(builder *b, const sp_tok *key, size_t len)
{
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    unsigned n = sp_key_lands(key, len, off, lens, SP_MAX_LANDS);
    for (unsigned i = 0; i < n && b->status == 0; i++) {
        if (sp_cert_find(b->c, key + off[i], lens[i]) >= 0)
            continue;
        long g = land_nimber(b, key + off[i], lens[i]);
        if (g < 0)
            failed(b, 1, "stopped");
        else if (sp_cert_add(b->c, key + off[i], lens[i], (uint32_t)g) < 0)
            failed(b, -1, "out of memory");
    }
}

/* Normal play: the XOR of known nimbers of a position's lands, and how many of them are not facts yet;
 * -1 when some land's nimber is not known without search. */
static long known_xor(builder *b, const sp_tok *key, size_t len, unsigned *new_facts)
{
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    unsigned n = sp_key_lands(key, len, off, lens, SP_MAX_LANDS);
    long x = 0;
    *new_facts = 0;
    for (unsigned i = 0; i < n; i++) {
        long f = sp_cert_find(b->c, key + off[i], lens[i]);
        long g = f >= 0 ? (long)b->c->nimber[f] : sp_solver_known_nimber(b->s, key + off[i], lens[i]);
        if (g < 0)
            return -1;
        *new_facts += f < 0;
        x ^= g;
    }
    return x;
}

/* Cost of a candidate answer from what is known without search: -1 not known to be lost, else the
 * facts it would add. */
static long known_answer_cost(builder *b, const sp_tok *key, size_t len, uint32_t j)
{
    if (b->c->play == SP_CERT_MISERE) {
        if (sp_cert_find(b->c, key, len) >= 0)
            return 0;
        return sp_solver_known(b->s, key, len, 0, SP_PLAY_MISERE) == SP_LOSS ? 1 : -1;
    }
    unsigned fresh;
    return known_xor(b, key, len, &fresh) == (long)j ? (long)fresh : -1;
}

static void add_answer(builder *b, const sp_tok *key, size_t len)
{
    if (b->c->play == SP_CERT_NORMAL)
        add_land_facts(b, key, len);
    else if (sp_cert_add(b->c, key, len, 0) < 0)
        failed(b, -1, "out of memory");
}

/* Searches the children of (key, j) for a lost one, asking the solver; true when found (and added). */
static bool searched_answer(builder *b, const sp_children *ch, uint32_t j)
{
    for (size_t i = 0; i < ch->n && b->status == 0; i++) {
        const sp_tok *ck = ch->tok + ch->off[i];
        sp_outcome o = b->c->play == SP_CERT_NORMAL ? sp_solver_couple(b->s, ck, ch->len[i], j)
                                                    : sp_solver_outcome(b->s, ck, ch->len[i], SP_PLAY_MISERE);
        if (o == SP_UNKNOWN)
            failed(b, 1, "stopped");
        else if (o == SP_LOSS) {
            add_answer(b, ck, ch->len[i]);
            return true;
        }
    }
    return false;
}

/* Finds an answer to the position (key, j), which must be won for the player to move. */
static void answer(builder *b, const sp_tok *key, size_t len, uint32_t j)
{
    sp_children *ch = &b->grandkids;
    if (b->c->play == SP_CERT_NORMAL) {
        unsigned fresh;
        long x = known_xor(b, key, len, &fresh);
        if (x >= 0 && x < (long)j) { /* the Nim move to (key, x) */
            add_land_facts(b, key, len);
            return;
        }
    }
    if (sp_pos_children(b->ctx, key, len, ch)) {
        failed(b, -1, "out of memory");
        return;
    }
    if (b->c->play == SP_CERT_MISERE && ch->n == 0)
        return; /* no move: won by the rules */
    long best = -1, best_cost = 0;
    for (size_t i = 0; i < ch->n; i++) {
        long cost = known_answer_cost(b, ch->tok + ch->off[i], ch->len[i], j);
        if (cost >= 0 && (best < 0 || cost < best_cost)) {
            best = (long)i;
            best_cost = cost;
        }
    }
    if (best >= 0)
        add_answer(b, ch->tok + ch->off[best], ch->len[best]);
    else if (!searched_answer(b, ch, j) && b->status == 0)
        failed(b, -1, "the solver's result has no answer to one move (a bug)");
}

/* Answers every move of fact i (the fact list may grow meanwhile). */
static void answer_fact(builder *b, size_t i)
{
    sp_cert *c = b->c;
    size_t len = c->facts.len[i];
    sp_tok *key = malloc(len * sizeof(sp_tok) + 1);
    if (!key) {
        failed(b, -1, "out of memory");
        return;
    }
    memcpy(key, c->facts.tok + c->facts.off[i], len * sizeof(sp_tok));
    uint32_t g = c->play == SP_CERT_NORMAL ? c->nimber[i] : 0;
    for (uint32_t j = 0; j < g && b->status == 0; j++)
        answer(b, key, len, j);
    sp_children *ch = &b->kids; /* answer() works in b->grandkids */
    if (b->status == 0 && sp_pos_children(b->ctx, key, len, ch))
        failed(b, -1, "out of memory");
    for (size_t m = 0; m < ch->n && b->status == 0; m++)
        answer(b, ch->tok + ch->off[m], ch->len[m], g);
    free(key);
}

int sp_certify(sp_cert *c, sp_solver *s)
{
    builder b = {c, s, sp_canon_ctx_new(), {0}, {0}, 0};
    sp_children_init(&b.kids);
    sp_children_init(&b.grandkids);
    if (!b.ctx)
        return -1;
    if (c->outcome == SP_CERT_LOSS)
        add_answer(&b, c->root, c->root_len);
    else
        answer(&b, c->root, c->root_len, 0);
    for (size_t i = 0; i < c->facts.n && b.status == 0; i++)
        answer_fact(&b, i);
    sp_children_free(&b.kids);
    sp_children_free(&b.grandkids);
    sp_canon_ctx_free(b.ctx);
    return b.status;
}
