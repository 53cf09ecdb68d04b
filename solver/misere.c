/* misere.c: the misère rule set (the player who cannot move wins) and the misère values of lands.
 * A node is (P, g): the lands P that have no value, beside the game g (an id of the engine's game
 * table, in the node's k) that stands for the sum of all the other lands.
 *
 * Why this is sound. The Sprague-Grundy shortcut is a normal-play theorem: in misère play a land is
 * not a nimber and a sum is not decided by XOR. What does hold is misère equality (mgame.h): G = H
 * when o(G + X) = o(H + X) for all X. It is a congruence for sums, so a position L1 + ... + Lm + Q
 * has the outcome of Q + v(L1) + ... + v(Lm) for any games v(Li) equal to the lands, and the sum of
 * the v(Li) may be replaced by any game equal to it: the one in simplest form that sp_mg_sum gives.
 * The moves of Q + g are then those of Q (P' + g, for P' a child of Q) and those of g (Q + g').
 * A land's value is its game tree built from canonical children (expand.h), each child valued as the
 * sum of its lands; canonical keys and the simplifications of canon/simplify.h preserve the game
 * tree itself (every option, not only the outcome), so they hold in misère play as in normal play.
 * Nothing is pruned while valuing a land: every child matters to equality, not only a winning one,
 * so only small lands are valued: any land of at most mis_lives lives, and in a position of several
 * lands every land but the largest when it has at most mis_sum_lives (as normal play settles every
 * land of a sum but one; the cost of a value is paid once, the search of a sum multiplies). The
 * small ones are valued as soon as a move makes them, the larger ones of a sum only when the search
 * visits their position (most children are never visited), and they join g only while g + v stays
 * small (SP_TUNE_MISERE_SUM_BIRTHDAY): the canonical sum of two large games costs the product of
 * their subgames, and such sums are what fills the game table (measured: docs/performance.md). A
 * value once stored is used wherever its land appears. With mis_lives = 0 no land is valued: g
 * stays 0 and the search is the plain one over whole positions. */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "tune.h"

/* ---------------------------------------------------------------- values of lands */

static sp_mg_id position_value(sp_worker *w, const sp_tok *key, size_t len, unsigned limit);

/* The game of a land from all its children (each the sum of its lands' games), remembered in the
 * misère store; SP_MG_NONE when a table is full. */
static sp_mg_id compute_land(sp_worker *w, const sp_tok *land, size_t len, uint64_t h, unsigned limit)
{
    sp_engine *e = w->eng;
    sp_children ch;
    sp_children_init(&ch);
    sp_mg_id id = sp_expand_land(w->canon, w->lands, land, len, &ch) ? SP_MG_NONE : SP_MG_ZERO;
    sp_mg_id *opts = id == SP_MG_NONE ? NULL : malloc((ch.n + 1) * sizeof *opts);
    for (size_t i = 0; opts && i < ch.n && id != SP_MG_NONE; i++)
        id = opts[i] = position_value(w, ch.tok + ch.off[i], ch.len[i], limit);
    if (!opts)
        id = SP_MG_NONE;
    if (id != SP_MG_NONE)
        id = sp_mg_canon(e->games, opts, ch.n);
    if (id != SP_MG_NONE)
        sp_nimstore_put(e->mis, land, len, h, id);
    free(opts);
    sp_children_free(&ch);
    return id;
}

/* The game of a land (of the given lives): the stored one, else computed when the land has at most
 * `limit` lives and there is room, else SP_MG_NONE. */
static sp_mg_id land_value(sp_worker *w, const sp_tok *land, size_t len, unsigned lives, unsigned limit)
{
    sp_engine *e = w->eng;
    if (lives > e->mis_sum_lives)
        return SP_MG_NONE; /* never valued, so never stored */
    uint64_t h = sp_key_hash64(land, len);
    int v = sp_nimstore_get(e->mis, land, len, h);
    if (v >= 0)
        return (sp_mg_id)v;
    if (lives > limit || sp_nimstore_full(e->mis) || sp_mg_full(e->games))
        return SP_MG_NONE; /* without room to remember it, recomputing it at every visit would cost too much */
    return compute_land(w, land, len, h, limit);
}

sp_mg_id sp_misere_land_game(sp_worker *w, const sp_tok *land, size_t len)
{
    unsigned lives = sp_key_lives(land, len);
    return lives > w->eng->mis_sum_lives ? SP_MG_NONE : land_value(w, land, len, lives, w->eng->mis_sum_lives);
}

/* The sum of the games of a position's lands (0 for no land), or SP_MG_NONE. Called for the
 * children of a land being valued, whose lands all have fewer lives than it, so within `limit`. */
static sp_mg_id position_value(sp_worker *w, const sp_tok *key, size_t len, unsigned limit)
{
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    unsigned nl = sp_key_lands(key, len, off, lens, SP_MAX_LANDS);
    sp_mg_id g = SP_MG_ZERO;
    for (unsigned i = 0; i < nl && g != SP_MG_NONE; i++) {
        const sp_tok *land = key + off[i];
        g = sp_mg_sum(w->eng->games, g, land_value(w, land, lens[i], sp_key_lives(land, lens[i]), limit));
    }
    return g;
}

/* g + v, or SP_MG_NONE when v is the value of a large land (more than mis_lives lives) and the sum
 * would be large too. */
static sp_mg_id add_value(sp_worker *w, sp_mg_id g, sp_mg_id v, unsigned lives)
{
    const sp_mg *t = w->eng->games;
    if (v != SP_MG_NONE && lives > w->eng->mis_lives &&
        sp_mg_birthday(t, g) + sp_mg_birthday(t, v) > SP_TUNE_MISERE_SUM_BIRTHDAY)
        return SP_MG_NONE;
    return sp_mg_sum(w->eng->games, g, v);
}

/* Splits position key into the lands that get a value, summed into *g, and the others, copied in
 * order (so still sorted: a position key) to out; returns the length written, and the lives left in
 * *out_lives (if not NULL). Stored values are always used; a value is computed for a land of at most
 * mis_lives lives, and with `sums` for every land but the largest (the first of the most lives) of at
 * most mis_sum_lives. */
static size_t fold(sp_worker *w, const sp_tok *key, size_t len, bool sums, sp_mg_id *g, sp_tok *out,
                   unsigned *out_lives)
{
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    unsigned nl = sp_key_lands(key, len, off, lens, SP_MAX_LANDS), lives[SP_MAX_LANDS], largest = 0;
    for (unsigned i = 0; i < nl; i++) {
        lives[i] = sp_key_lives(key + off[i], lens[i]);
        largest = lives[i] > lives[largest] ? i : largest;
    }
    size_t olen = 0;
    unsigned olives = 0;
    for (unsigned i = 0; i < nl; i++) {
        const sp_tok *land = key + off[i];
        unsigned limit = i == largest || !sums ? w->eng->mis_lives : w->eng->mis_sum_lives;
        sp_mg_id s = add_value(w, *g, land_value(w, land, lens[i], lives[i], limit), lives[i]);
        if (s != SP_MG_NONE) {
            *g = s;
        } else {
            memcpy(out + olen, land, lens[i] * sizeof *land);
            olen += lens[i];
            olives += lives[i];
        }
    }
    if (out_lives)
        *out_lives = olives;
    return olen;
}

size_t sp_misere_fold(sp_worker *w, const sp_tok *key, size_t len, sp_mg_id *g, sp_tok *out)
{
    return fold(w, key, len, true, g, out, NULL); /* with no land valued (mis_lives 0) nothing folds */
}

/* ---------------------------------------------------------------- the rule set */

static sp_resolved outcome_of(const sp_worker *w, sp_mg_id g)
{
    return sp_mg_wins(w->eng->games, g) ? SP_RESOLVED_WIN : SP_RESOLVED_LOSS;
}

/* Folds the lands that have a value into k; with no land left the outcome is that of k's game. */
static sp_resolved misere_resolve(sp_worker *w, sp_node *n, unsigned depth, sp_node *sub, uint32_t rest[2])
{
    (void)sub, (void)rest;
    if (w->eng->team.size > 1 && sp_mg_wants_one_user(w->eng->games)) {
        sp_team_quiesce(&w->eng->team); /* the leader is the table's one user till the next round */
        sp_mg_set_exclusive(w->eng->games, true); /* which empties a full memo, or frees replaced sizes */
        sp_mg_set_exclusive(w->eng->games, false);
    }
    if (n->len == 0)
        return outcome_of(w, n->k); /* for k = 0 (no move left) a win: the player to move has won */
    if (w->eng->mis_lives == 0)
        return SP_EXPAND;
    sp_mg_id g = n->k;
    size_t len = fold(w, n->key, n->len, true, &g, w->scratch, NULL);
    if (len == 0)
        return outcome_of(w, g);
    if (len == n->len)
        return SP_EXPAND; /* nothing folded: the key is unchanged, and so is g */
    sp_frame *f = sp_worker_frame(w, depth);
    sp_tok *dst = f ? sp_frame_node_room(f, n->key, len) : NULL;
    if (!dst) {
        w->failed = true;
        return SP_EXPAND;
    }
    memcpy(dst, w->scratch, len * sizeof *dst);
    *n = (sp_node){dst, (uint32_t)len, g, {0, 0}};
    sp_node_hash(n, SP_PLAY_MISERE);
    return SP_EXPAND;
}

/* A child (key, g) whose key has `lives` lives and about `moves` moves (counted by the caller, once
 * for all the children with that key): its rank (lives, then the birthday of g) and its initial
 * disproof number (the moves of key and those of g: k is an id here, not a heap). */
static uint32_t child_order(const sp_worker *w, unsigned lives, sp_mg_id g)
{
    return lives + SP_TUNE_ORDER_BIRTHDAY * sp_mg_birthday(w->eng->games, g);
}

static uint32_t child_dn(const sp_worker *w, uint64_t moves, sp_mg_id g)
{
    return sp_engine_dn_of(moves + sp_mg_noptions(w->eng->games, g));
}

/* The child P' + g of a one-land node (P, g), made by a member of the team: the new lands that have
 * a value fold into g; with no land left, the game decides (a move to a lost one wins the node). */
static bool misere_prepare(sp_worker *w, uint32_t k, const sp_tok *ck, size_t clen, uint32_t move)
{
    sp_mg_id g = k;
    unsigned lives;
    size_t len = fold(w, ck, clen, false, &g, w->scratch, &lives);
    if (len == 0)
        return !sp_mg_wins(w->eng->games, g); /* a move to a won position proves nothing */
    sp_team_ready(w, w->scratch, len, g, SP_PLAY_MISERE, child_order(w, lives, g),
                  child_dn(w, sp_key_moves_estimate(w->scratch, len), g), move);
    return false;
}

/* Children of (P, g): (P, g') for every option g' of g, and (P', g + the games of the new lands
 * that have one) for every child P' of P. A child with no land left is decided by its game. Each
 * land of P is expanded by the team (a land equal to the one before it gives the same children),
 * as in normal play; with several, each child is P with the land replaced. */
static sp_outcome misere_expand(sp_worker *w, const sp_node *n, sp_frame *f)
{
    sp_mg_iter it;
    sp_mg_id opt;
    bool options = sp_mg_noptions(w->eng->games, n->k) > 0; /* g = 0, the usual case, has none */
    unsigned lives = options ? sp_key_lives(n->key, n->len) : 0;
    uint64_t moves = options ? sp_key_moves_estimate(n->key, n->len) : 0;
    for (sp_mg_iter_init(w->eng->games, n->k, &it); sp_mg_iter_next(&it, &opt);)
        if (sp_frame_add_child(f, n->key, n->len, opt, SP_PLAY_MISERE, child_order(w, lives, opt),
                               child_dn(w, moves, opt)) < 0)
            return w->failed = true, SP_UNKNOWN;
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    unsigned nl = sp_key_lands(n->key, n->len, off, lens, SP_MAX_LANDS);
    if (nl == 1)
        return sp_team_expand(w, n->key, n->len, n->k, misere_prepare, f); /* a canonical land has a move */
    if (nl > SP_MAX_LANDS)
        return w->failed = true, SP_UNKNOWN;
    for (unsigned l = 0; l < nl; l++) {
        if (l > 0 && !sp_key_cmp(n->key + off[l], lens[l], n->key + off[l - 1], lens[l - 1]))
            continue;
        sp_outcome o = sp_team_expand_in(w, n->key, n->len, off[l], lens[l], n->k, misere_prepare, f);
        if (o != SP_UNKNOWN || w->failed)
            return o;
    }
    return SP_UNKNOWN;
}

/* Lands get their values by enumeration, not from proofs; what a proof gives is kept only where it
 * cost much: a lost position beside its game, for a stopped search to start again from (tables/).
 * Positions of several lands too: a reply that splits the board in two large lands is how a first
 * move of a large size is refuted, and without them a resumed run proves those refutations again. */
static void misere_proven(sp_worker *w, const sp_node *n, sp_outcome o, uint64_t work)
{
    if (o == SP_LOSS && work >= SP_TUNE_MISERE_LOST_WORK && n->len > 0)
        sp_nimstore_put(w->eng->mis_lost, n->key, n->len, sp_key_hash64(n->key, n->len), n->k);
}

const sp_rules sp_rules_misere = {SP_PLAY_MISERE, misere_resolve, misere_expand, misere_proven};
