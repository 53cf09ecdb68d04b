/* certify.c: certificate extraction (certify.h). From the root, every claimed loss gets an answer to
 * each of its moves: a move to a position the solver knows to be lost, whose facts (land nimbers in
 * normal play; in misère play the position beside the game of its small lands, and those lands'
 * games) join the certificate and are answered in turn: depth first in normal play, so that the
 * facts settled so far can be kept by a build that stops; in the order they came in misère play. */
#include "certify.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "expand.h"
#include "gindex.h"
#include "grow.h"
#include "tune.h"

/* Where a build stands in time: its start, the last progress line, the last facts kept. */
typedef struct pace {
    double t0, progress, keep;
} pace;

typedef struct builder {
    sp_cert *c;
    const sp_certify_watch *watch;
    pace *pace;
    const sp_cert *given; /* facts proven before, of the same play, whose moves need no answers here */
    sp_gindex given_games; /* misère: the given base's games by their options */
    uint32_t *given_of;   /* misère: solver game id -> 0 not yet matched, 1 none, else given's game + 2 */
    size_t given_of_cap;
    sp_solver *s;
    sp_canon_ctx *ctx;
    sp_lcache *lands;   /* the solver's land cache: the lands it expanded are asked for again */
    sp_children kids, grandkids, land_kids;
    sp_children cands;  /* misère: candidate answers, as pair keys (R, the game's solver id) */
    uint32_t *cert_of;  /* misère: solver game id -> certificate game index + 1 (0: not there yet) */
    size_t cert_of_cap;
    uint32_t *solver_of; /* misère: certificate game index -> solver game id */
    size_t solver_of_cap;
    /* normal play, depth first: per fact its state (enum below); the facts the answers of the fact
     * in hand name; the work left, as fact << 1 | (1: answered, settled once what it named is) */
    uint8_t *state;
    size_t state_cap;
    uint32_t *named;
    size_t named_n, named_cap;
    uint64_t *todo;
    size_t todo_n, todo_cap;
    bool naming;        /* add_land_facts() notes the facts it names in named */
    int status;         /* 0 ok, 1 stopped, 2 out of room, -1 failed */
    const char *why;    /* what ended it, when status is not 0 */
    char where[512];    /* the position it ended at, when one is to blame (or "") */
} builder;

enum { FRESH = 0, SETTLED = 1, ANSWERED = 2 }; /* SETTLED is certify.h's 1 */

/* The first failure is the one that counts (the others follow from it). */
static void failed(builder *b, int status, const char *what)
{
    if (b->status == 0) {
        b->status = status;
        b->why = what;
    }
}

/* Names the position (key beside the heap or game j) that the failure is about. */
static void name_position(builder *b, const sp_tok *key, size_t len, uint32_t j)
{
    sp_pos p;
    char s[400];
    if (sp_key_decode(key, len, &p) || sp_pos_print(&p, SP_SYNTAX_V2, s, sizeof s) >= sizeof s)
        snprintf(s, sizeof s, "(a position too long to print)");
    snprintf(b->where, sizeof b->where, "%s beside %u", s, j);
}

/* ---------------------------------------------------------------- the hunt for an answer */

/* The hunt for an answer to a position R (beside a heap or a game g): its children are offered in the
 * order of the moves until one costs nothing (no later one can be better: the first of the cheapest
 * is taken), so that most answers need only some of R's moves made. */
typedef struct hunt {
    builder *b;
    const sp_tok *r;
    size_t len;
    uint32_t g;
    void (*offer)(struct hunt *h, const sp_tok *child, size_t len); /* a child of R, as it comes */
    long free_at;               /* the candidate that costs nothing, or -1 */
} hunt;

static int hunt_child(void *arg, const sp_tok *key, size_t len, uint32_t move)
{
    hunt *h = arg;
    (void)move;
    h->offer(h, key, len);
    return h->free_at >= 0 || h->b->status != 0;
}

/* Offers R's children in the order of the moves, unless a free candidate is known already. */
static void hunt_moves(hunt *h)
{
    builder *b = h->b;
    if (b->status == 0 && h->free_at < 0 &&
        sp_expand_pos_each(b->ctx, b->lands, h->r, h->len, hunt_child, h, &b->land_kids) < 0)
        failed(b, -1, "out of memory");
}

/* ---------------------------------------------------------------- normal play */

/* Whether the given base holds the land with nimber g (its moves are answered there). */
static bool given(const builder *b, const sp_tok *land, size_t len, uint32_t g)
{
    long f = b->given ? sp_cert_find(b->given, land, len, 0) : -1;
    return f >= 0 && b->given->k[f] == g;
}

/* The nimber of a land: stored, or computed. -1 when stopped. */
static long land_nimber(builder *b, const sp_tok *land, size_t len)
{
    int g = sp_solver_known_nimber(b->s, land, len);
    return g >= 0 ? g : sp_solver_nimber(b->s, land, len);
}

/* Adds a fact for every land of a position that is lost beside a heap (their nimbers are stored: the
 * solver proved them when it proved the loss); while naming, notes each of them in b->named. */
static void add_land_facts(builder *b, const sp_tok *key, size_t len)
{
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    unsigned n = sp_key_lands(key, len, off, lens, SP_MAX_LANDS);
    for (unsigned i = 0; i < n && b->status == 0; i++) {
        long at = sp_cert_find(b->c, key + off[i], lens[i], 0);
        long g = at >= 0 ? 0 : land_nimber(b, key + off[i], lens[i]);
        if (g < 0)
            failed(b, 1, "stopped");
        else if (at < 0 && (at = sp_cert_add(b->c, key + off[i], lens[i], (uint32_t)g)) < 0)
            failed(b, -1, "out of memory");
        else if (b->naming && sp_grow((void **)&b->named, &b->named_cap, b->named_n + 1, sizeof *b->named))
            failed(b, -1, "out of memory");
        else if (b->naming)
            b->named[b->named_n++] = (uint32_t)at;
    }
}

/* The XOR of known nimbers of a position's lands, and how many of them are not facts yet; -1 when
 * some land's nimber is not known without search. */
static long known_xor(builder *b, const sp_tok *key, size_t len, unsigned *new_facts)
{
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    unsigned n = sp_key_lands(key, len, off, lens, SP_MAX_LANDS);
    long x = 0;
    *new_facts = 0;
    for (unsigned i = 0; i < n; i++) {
        long f = sp_cert_find(b->c, key + off[i], lens[i], 0);
        long g = f >= 0 ? (long)b->c->k[f] : sp_solver_known_nimber(b->s, key + off[i], lens[i]);
        if (g < 0)
            return -1;
        *new_facts += f < 0 && !given(b, key + off[i], lens[i], (uint32_t)g);
        x ^= g;
    }
    return x;
}

/* A child of (key, j) in the hunt (listed in b->grandkids): free when its lands are all facts
 * already and their nimbers XOR to j. */
static void offer_position(hunt *h, const sp_tok *key, size_t len)
{
    unsigned fresh;
    int added = sp_children_add(&h->b->grandkids, key, len);
    if (added < 0)
        failed(h->b, -1, "out of memory");
    else if (added && known_xor(h->b, key, len, &fresh) == (long)h->g && fresh == 0)
        h->free_at = (long)h->b->grandkids.n - 1;
}

/* What the solver's table says without search: the first child (of those in b->grandkids) proven
 * lost beside j, else -1 when (key, h) is proven lost for some h < j (the Nim move), else -2. */
static long proven_answer(builder *b, const sp_tok *key, size_t len, uint32_t j)
{
    const sp_children *ch = &b->grandkids;
    for (size_t i = 0; i < ch->n; i++)
        if (sp_solver_known(b->s, ch->tok + ch->off[i], ch->len[i], j, SP_PLAY_NORMAL) == SP_LOSS)
            return (long)i;
    for (uint32_t h = 0; h < j; h++)
        if (sp_solver_known(b->s, key, len, h, SP_PLAY_NORMAL) == SP_LOSS)
            return -1;
    return -2;
}

/* Whether the nimber of a land is neither a fact nor known to the solver. */
static bool unknown_land(builder *b, const sp_tok *land, size_t len)
{
    return sp_cert_find(b->c, land, len, 0) < 0 && sp_solver_known_nimber(b->s, land, len) < 0;
}

/* proven_answer() after a search of (key, j), once every land of key but its largest has a known
 * nimber (computed here, as the solver settles a sum; small lands' nimbers are cheap): the search
 * is of the largest land L beside the others' nimbers and j, and proves the win along one answer,
 * where L's nimber, when it exceeds that heap, costs a search of every heap up to it (a land in
 * 0*62's certificate: won beside *0..*7 in 0.9 M nodes in all, its nimber not found in 95 M).
 * Without the smaller lands' nimbers the proof could end in sums whose lands' nimbers, each a
 * search of its own, the certificate then needs (0ba3629). */
static long searched_answer(builder *b, const sp_tok *key, size_t len, uint32_t j)
{
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    unsigned n = sp_key_lands(key, len, off, lens, SP_MAX_LANDS), largest = 0, most = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned lives = sp_key_lives(key + off[i], lens[i]);
        if (lives >= most && unknown_land(b, key + off[i], lens[i]))
            largest = i, most = lives;
    }
    for (unsigned i = 0; i < n; i++) {
        if (i != largest && unknown_land(b, key + off[i], lens[i]) && sp_solver_nimber(b->s, key + off[i], lens[i]) < 0) {
            failed(b, 1, "stopped");
            return -2;
        }
    }
    if (sp_solver_couple(b->s, key, len, j, SP_PLAY_NORMAL) == SP_UNKNOWN) {
        failed(b, 1, "stopped");
        return -2;
    }
    return proven_answer(b, key, len, j);
}

/* Finds an answer to (key, j), which must be won for the player to move: the Nim move, else the
 * known lost child that adds the fewest facts, else the answer the solver's table holds proven, else
 * the answer a search of (key, j) leaves there, else the Nim move once the solver
 * has the lands' nimbers (a state that keeps only large lands' nimbers
 * may lack them), else the first child the solver proves lost. */
static void normal_answer(builder *b, const sp_tok *key, size_t len, uint32_t j)
{
    unsigned fresh;
    long x = known_xor(b, key, len, &fresh);
    if (x >= 0 && x < (long)j) {
        add_land_facts(b, key, len);
        return;
    }
    sp_children *ch = &b->grandkids;
    sp_children_clear(ch);
    hunt h = {b, key, len, j, offer_position, -1};
    hunt_moves(&h);
    if (b->status)
        return;
    long best = h.free_at, best_cost = 0;
    for (size_t i = 0; h.free_at < 0 && i < ch->n; i++) {
        if (known_xor(b, ch->tok + ch->off[i], ch->len[i], &fresh) == (long)j && (best < 0 || fresh < best_cost)) {
            best = (long)i;
            best_cost = fresh;
        }
    }
    long proven = best < 0 ? proven_answer(b, key, len, j) : -2;
    if (best < 0 && proven == -2 && x < 0)
        proven = searched_answer(b, key, len, j);
    if (proven == -1) {
        add_land_facts(b, key, len);
        return;
    }
    best = proven >= 0 ? proven : best;
    if (best < 0 && x < 0 && b->status == 0) {
        x = sp_solver_nimber(b->s, key, len);
        if (x < 0 || x < (long)j) {
            if (x < 0)
                failed(b, 1, "stopped");
            else
                add_land_facts(b, key, len);
            return;
        }
    }
    for (size_t i = 0; best < 0 && i < ch->n && b->status == 0; i++) {
        sp_outcome o = sp_solver_couple(b->s, ch->tok + ch->off[i], ch->len[i], j, SP_PLAY_NORMAL);
        if (o == SP_UNKNOWN)
            failed(b, 1, "stopped");
        best = o == SP_LOSS ? (long)i : -1;
    }
    if (best >= 0)
        add_land_facts(b, ch->tok + ch->off[best], ch->len[best]);
    else if (b->status == 0) {
        failed(b, -1, "the solver's result has no answer to one move (a bug)");
        name_position(b, key, len, j);
    }
}

/* Answers every move of fact i, (L, g) (the fact list may grow meanwhile). */
static void normal_fact(builder *b, const sp_tok *key, size_t len, uint32_t g)
{
    for (uint32_t j = 0; j < g && b->status == 0; j++)
        normal_answer(b, key, len, j);
    sp_children *ch = &b->kids; /* normal_answer() works in b->grandkids */
    if (b->status == 0 && sp_expand_pos(b->ctx, b->lands, key, len, ch))
        failed(b, -1, "out of memory");
    for (size_t m = 0; m < ch->n && b->status == 0; m++)
        normal_answer(b, ch->tok + ch->off[m], ch->len[m], g);
}

/* ---------------------------------------------------------------- misère play */

/* A misère store of the solver ran out of room: the build cannot go on. */
static void store_full(builder *b)
{
    sp_solver_stats st;
    sp_solver_stats_get(b->s, &st);
    failed(b, 2, st.lands_full ? "the misère land store is full (give it more memory: --nim-mb)"
                               : "the misère game table is full (give it more memory: --game-mb)");
}

/* Notes that certificate game `at` is the solver's game g; false when out of memory. */
static bool map_game(builder *b, uint32_t g, uint32_t at)
{
    size_t had = b->cert_of_cap;
    if (sp_grow((void **)&b->cert_of, &b->cert_of_cap, (size_t)g + 1, sizeof *b->cert_of) ||
        sp_grow((void **)&b->solver_of, &b->solver_of_cap, (size_t)at + 1, sizeof *b->solver_of)) {
        failed(b, -1, "out of memory");
        return false;
    }
    memset(b->cert_of + had, 0, (b->cert_of_cap - had) * sizeof *b->cert_of); /* 0: not listed */
    if (!b->cert_of[g])
        b->cert_of[g] = at + 1;
    b->solver_of[at] = g;
    return true;
}

/* The certificate's index of the solver's game g, listing it (options first) if need be; -1 failed. */
static long export_game(builder *b, uint32_t g)
{
    if (g < b->cert_of_cap && b->cert_of[g])
        return (long)b->cert_of[g] - 1;
    size_t n;
    uint32_t *opts = sp_solver_game_options(b->s, g, &n); /* each replaced by its index */
    long at = opts ? 0 : -1;
    for (size_t i = 0; i < n && at >= 0; i++) /* a game's options are older: the recursion ends */
        opts[i] = (uint32_t)(at = export_game(b, opts[i]));
    if (at >= 0)
        at = sp_cert_add_game(b->c, opts, n);
    free(opts);
    if (at < 0) {
        failed(b, -1, "out of memory");
        return -1;
    }
    return map_game(b, g, (uint32_t)at) ? at : -1;
}

/* A build begun again from what a stopped one kept (c holds games already): each of c's games
 * becomes the solver's game of the same options, so that c's facts are found as answers. */
static void adopt_games(builder *b)
{
    const sp_cert *c = b->c;
    for (uint32_t i = 0; i < c->ngames && b->status == 0; i++) {
        uint32_t first = c->game_first[i], n = c->game_first[i + 1] - first;
        uint32_t *opts = malloc((n + 1) * sizeof *opts);
        if (!opts) {
            failed(b, -1, "out of memory");
            break;
        }
        for (uint32_t j = 0; j < n; j++) /* options are older games: mapped already */
            opts[j] = b->solver_of[c->game_opts[first + j]];
        uint32_t g = sp_solver_game_make(b->s, opts, n);
        free(opts);
        if (g == SP_GAME_NONE)
            store_full(b);
        else
            map_game(b, g, i);
    }
}

/* The builder's side of the misère normal form (sp_cert_normalise): the solver's games; a land
 * summed becomes a land fact. */
static uint32_t land_game(void *arg, const sp_tok *land, size_t len)
{
    builder *b = arg;
    uint32_t v = b->status ? SP_GAME_NONE : sp_solver_land_game(b->s, land, len);
    if (v == SP_GAME_NONE) /* the lands asked about are small enough: a store is full */
        store_full(b);
    return v == SP_GAME_NONE ? SP_CERT_NONE : v;
}

static unsigned birthday(void *arg, uint32_t g)
{
    return sp_solver_game_birthday(((builder *)arg)->s, g);
}

static uint32_t fold(void *arg, const sp_tok *land, size_t len, uint32_t h, uint32_t v)
{
    builder *b = arg;
    long at = export_game(b, v);
    uint32_t s = at < 0 ? SP_GAME_NONE : sp_solver_game_sum(b->s, h, v);
    if (at >= 0 && sp_cert_add_land(b->c, land, len, (uint32_t)at) < 0)
        failed(b, -1, "out of memory");
    else if (at >= 0 && s == SP_GAME_NONE)
        store_full(b);
    return b->status ? SP_CERT_NONE : s;
}

static long normalise(builder *b, const sp_tok *key, size_t len, uint32_t *g, sp_tok *out, bool all)
{
    sp_cert_games games = {b, land_game, birthday, fold};
    long n = sp_cert_normalise(b->c, &games, key, len, g, out, all);
    return b->status ? -1 : n;
}

/* The given base's game with the structure of the solver's game g (its options matched first), or
 * SP_CERT_NONE. */
static uint32_t given_game(builder *b, uint32_t g)
{
    if (g < b->given_of_cap && b->given_of[g])
        return b->given_of[g] == 1 ? SP_CERT_NONE : b->given_of[g] - 2;
    size_t n;
    uint32_t *opts = sp_solver_game_options(b->s, g, &n); /* each replaced by the base's */
    long at = opts ? 0 : -2;
    for (size_t i = 0; i < n && at == 0; i++) /* a game's options are older: the recursion ends */
        at = (opts[i] = given_game(b, opts[i])) == SP_CERT_NONE ? -1 : 0;
    if (at == 0)
        at = sp_gindex_find(&b->given_games, opts, n);
    free(opts);
    size_t had = b->given_of_cap;
    if (at == -2 || sp_grow((void **)&b->given_of, &b->given_of_cap, (size_t)g + 1, sizeof *b->given_of)) {
        failed(b, -1, "out of memory");
        return SP_CERT_NONE;
    }
    memset(b->given_of + had, 0, (b->given_of_cap - had) * sizeof *b->given_of);
    b->given_of[g] = at < 0 ? 1 : (uint32_t)at + 2;
    return at < 0 ? SP_CERT_NONE : (uint32_t)at;
}

/* Whether the given base holds the fact R + g (g the solver's game): its moves are answered there. */
static bool misere_given(builder *b, const sp_tok *r, size_t len, uint32_t g)
{
    if (!b->given || len == 0)
        return false;
    uint32_t v = given_game(b, g);
    return v != SP_CERT_NONE && sp_cert_find(b->given, r, len, v) >= 0;
}

/* What a candidate answer R + g costs without search: -1 not known to be lost, else new facts. */
static long misere_cost(builder *b, const sp_tok *r, size_t len, uint32_t g)
{
    if (len == 0)
        return sp_solver_game_wins(b->s, g) ? -1 : 0;
    if (g < b->cert_of_cap && b->cert_of[g] && sp_cert_find(b->c, r, len, b->cert_of[g] - 1) >= 0)
        return 0;
    if (misere_given(b, r, len, g))
        return 0;
    return sp_solver_known(b->s, r, len, g, SP_PLAY_MISERE) == SP_LOSS ? 1 : -1;
}

static void misere_claim(builder *b, const sp_tok *r, size_t len, uint32_t g)
{
    long at = len ? export_game(b, g) : -1;
    if (at >= 0 && sp_cert_add(b->c, r, len, (uint32_t)at) < 0)
        failed(b, -1, "out of memory");
}

/* Appends the candidate R + g to b->cands (as the pair key, cert.h), unless it is there already;
 * notes it when it costs nothing. */
static void offer(hunt *h, const sp_tok *r, size_t len, uint32_t g)
{
    sp_tok buf[SP_KEY_MAX + 2];
    int added = sp_children_add(&h->b->cands, buf, sp_cert_pair(r, len, g, buf));
    if (added < 0)
        failed(h->b, -1, "out of memory");
    else if (added && misere_cost(h->b, r, len, g) == 0)
        h->free_at = (long)h->b->cands.n - 1;
}

/* A child R' of R, offered as the candidate R' + g normalised. */
static void offer_normalised(hunt *h, const sp_tok *key, size_t len)
{
    sp_tok out[SP_KEY_MAX];
    uint32_t g = h->g;
    long olen = normalise(h->b, key, len, &g, out, false);
    if (olen >= 0)
        offer(h, out, (size_t)olen, g);
}

/* Candidate i: its position R (*len tokens) and its game (the two tokens after R). */
static const sp_tok *candidate(const sp_children *cand, size_t i, size_t *len, uint32_t *g)
{
    const sp_tok *ck = cand->tok + cand->off[i];
    *len = cand->len[i] - 2;
    *g = sp_cert_pair_game(ck, cand->len[i]);
    return ck;
}

/* The first of the cheapest candidates known to be lost, or -1. */
static long cheapest(builder *b)
{
    const sp_children *cand = &b->cands;
    long best = -1, best_cost = 0;
    for (size_t i = 0; i < cand->n; i++) {
        size_t clen;
        uint32_t cg;
        const sp_tok *ck = candidate(cand, i, &clen, &cg);
        long cost = misere_cost(b, ck, clen, cg);
        if (cost >= 0 && (best < 0 || cost < best_cost))
            best = (long)i, best_cost = cost;
    }
    return best;
}

/* Finds an answer to R + g (normalised), which must be won for the player to move (or have no move):
 * the first candidate that costs nothing, else the first of the cheapest known lost, else the first
 * of the cheapest once a search of R + g has proven it won (df-pn proves one answer lost on the way,
 * where asking of each candidate in turn first proves the wrong ones won: the whole cost of a
 * certificate built from a cold table), else the first the search proves lost. */
static void misere_answer(builder *b, const sp_tok *r, size_t len, uint32_t g)
{
    sp_children *cand = &b->cands;
    sp_children_clear(cand);
    hunt h = {b, r, len, g, offer_normalised, -1};
    size_t no;
    uint32_t *o = sp_solver_game_options(b->s, g, &no);
    if (!o)
        failed(b, -1, "out of memory");
    for (size_t i = 0; o && i < no && b->status == 0 && h.free_at < 0; i++) /* the moves in the game first */
        offer(&h, r, len, o[i]);
    free(o);
    hunt_moves(&h);
    if (cand->n == 0 || b->status)
        return; /* no move: won by the rules */
    long best = h.free_at >= 0 ? h.free_at : cheapest(b);
    if (best < 0) { /* none known: one search of R + g leaves the answer it proves in the table */
        sp_outcome oc = sp_solver_couple(b->s, r, len, g, SP_PLAY_MISERE);
        if (oc == SP_UNKNOWN)
            failed(b, 1, "stopped");
        best = oc == SP_WIN ? cheapest(b) : -1;
    }
    size_t clen;
    uint32_t cg;
    for (size_t i = 0; best < 0 && i < cand->n && b->status == 0; i++) { /* else: ask of each in turn */
        const sp_tok *ck = candidate(cand, i, &clen, &cg);
        sp_outcome oc = sp_solver_couple(b->s, ck, clen, cg, SP_PLAY_MISERE);
        if (oc == SP_UNKNOWN)
            failed(b, 1, "stopped");
        best = oc == SP_LOSS ? (long)i : -1;
    }
    if (best >= 0) {
        const sp_tok *ck = candidate(cand, (size_t)best, &clen, &cg);
        misere_claim(b, ck, clen, cg);
    } else if (b->status == 0) {
        failed(b, -1, "the solver's result has no answer to one move (a bug)");
        name_position(b, r, len, g);
    }
}

/* Makes b->state cover every fact (new ones fresh); false when out of memory. */
static bool track_facts(builder *b)
{
    size_t had = b->state_cap, n = b->c->facts.n;
    if (sp_grow((void **)&b->state, &b->state_cap, n, 1)) {
        failed(b, -1, "out of memory");
        return false;
    }
    if (b->state_cap > had)
        memset(b->state + had, FRESH, b->state_cap - had);
    return true;
}

/* Hands the watcher what a build begun again would need (normal play: the settled facts; misère
 * play: c) when keep_seconds have passed since the last time, or at once when `now`. */
static void hand_over(builder *b, bool now)
{
    const sp_certify_watch *w = b->watch;
    bool normal = b->c->play == SP_CERT_NORMAL;
    if (w->keep && (now || sp_clock_now() - b->pace->keep >= w->keep_seconds) && (!normal || track_facts(b))) {
        w->keep(w->arg, b->c, normal ? b->state : NULL);
        b->pace->keep = sp_clock_now(); /* the keeping (a check) is not building time */
    }
}

/* After one more answer of a fact: the watcher told, what a build begun again needs handed over
 * (between answers too: each may be a long search). */
static void answered(builder *b, size_t done, size_t of)
{
    if (b->watch->answered)
        b->watch->answered(b->watch->arg, done, of);
    if (b->status == 0 && done > 0)
        hand_over(b, false);
}

/* Answers every move of the fact R + g: in the game (R + g') and in R (R' + g, normalised). */
static void misere_fact(builder *b, const sp_tok *r, size_t len, uint32_t g)
{
    size_t no;
    uint32_t *o = sp_solver_game_options(b->s, g, &no);
    sp_children *ch = &b->kids; /* misere_answer() works in b->grandkids */
    if (!o || sp_expand_pos(b->ctx, b->lands, r, len, ch)) {
        free(o);
        failed(b, -1, "out of memory");
        return;
    }
    size_t of = no + ch->n;
    answered(b, 0, of);
    for (size_t i = 0; i < no && b->status == 0; i++) {
        misere_answer(b, r, len, o[i]);
        answered(b, i + 1, of);
    }
    for (size_t m = 0; m < ch->n && b->status == 0; m++) {
        uint32_t h = g;
        sp_tok out[SP_KEY_MAX];
        long olen = normalise(b, ch->tok + ch->off[m], ch->len[m], &h, out, false);
        if (olen >= 0)
            misere_answer(b, out, (size_t)olen, h);
        answered(b, no + m + 1, of);
    }
    answered(b, 0, 0);
    free(o);
}

/* A land fact needs the games of the lands of its children: listed by normalising them. */
static void misere_land(builder *b, const sp_tok *land, size_t len)
{
    sp_children *ch = &b->kids;
    if (sp_expand_pos(b->ctx, b->lands, land, len, ch))
        failed(b, -1, "out of memory");
    for (size_t m = 0; m < ch->n && b->status == 0; m++) {
        uint32_t h = 0;
        sp_tok out[SP_KEY_MAX];
        normalise(b, ch->tok + ch->off[m], ch->len[m], &h, out, true);
    }
}

static void misere_root(builder *b)
{
    sp_cert *c = b->c;
    uint32_t g = 0;
    sp_tok r[SP_KEY_MAX];
    long len = normalise(b, c->root, c->root_len, &g, r, false);
    if (len < 0)
        return;
    if (c->outcome == SP_CERT_LOSS)
        misere_claim(b, r, (size_t)len, g);
    else
        misere_answer(b, r, (size_t)len, g);
}

/* ---------------------------------------------------------------- the certificate */

/* Between two facts: Ctrl-C (a large certificate takes minutes to build), the progress line, and
 * what a build begun again would need handed to the watcher now and then. false once stopped. */
static bool between_facts(builder *b, uint64_t done, uint64_t items)
{
    const sp_certify_watch *w = b->watch;
    if (w->stop && atomic_load_explicit(w->stop, memory_order_relaxed)) {
        failed(b, 1, "stopped");
        return false;
    }
    double t = w->progress ? sp_clock_now() : 0;
    if (w->progress && t - b->pace->progress >= SP_TUNE_PROGRESS_SECONDS) {
        b->pace->progress = t;
        w->progress(w->arg, done, items, t - b->pace->t0);
    }
    hand_over(b, false);
    return b->status == 0;
}

static void todo_push(builder *b, size_t fact, bool answered)
{
    if (sp_grow((void **)&b->todo, &b->todo_cap, b->todo_n + 1, sizeof *b->todo))
        failed(b, -1, "out of memory");
    else
        b->todo[b->todo_n++] = (uint64_t)fact << 1 | answered;
}

/* Normal play, depth first: a fact is answered, then the facts its answers name, then it is settled.
 * An answer's lands have fewer lives than the fact it answers, so no fact waits for itself, and the
 * settled facts always prove themselves beside the given base: what a stopped build keeps. */
static void close_normal(builder *b)
{
    sp_cert *c = b->c;
    uint64_t settled = 0;
    for (size_t f = c->facts.n; f-- > 0;) /* the root's facts, the first on top */
        todo_push(b, f, false);
    while (b->todo_n > 0 && track_facts(b) && between_facts(b, settled, c->facts.n)) {
        uint64_t item = b->todo[--b->todo_n];
        size_t f = (size_t)(item >> 1), len;
        if (b->state[f] == SETTLED)
            continue; /* named twice: settled by the first */
        sp_tok key[SP_KEY_MAX];
        const sp_tok *src = sp_cert_fact(c, f, &len);
        assert(len <= SP_KEY_MAX && ((item & 1) || b->state[f] == FRESH));
        memcpy(key, src, len * sizeof *key); /* a copy: the list may move as it grows */
        if ((item & 1) || given(b, key, len, c->k[f])) {
            b->state[f] = SETTLED;
            settled++;
            continue;
        }
        b->named_n = 0;
        b->naming = true;
        normal_fact(b, key, len, c->k[f]);
        b->naming = false;
        if (b->status || !track_facts(b))
            break;
        b->state[f] = ANSWERED;
        todo_push(b, f, true);
        for (size_t i = b->named_n; i-- > 0;) /* the first named on top */
            if (b->state[b->named[i]] == FRESH)
                todo_push(b, b->named[i], false);
    }
}

/* Misère play: the facts and land facts in the order they came (both lists grow meanwhile). */
static void close_misere(builder *b)
{
    sp_cert *c = b->c;
    for (size_t i = 0, l = 0; i < c->facts.n || l < c->lands.n;) {
        if (!between_facts(b, i + l, c->facts.n + c->lands.n))
            break;
        bool fact = i < c->facts.n;
        size_t at = fact ? i++ : l++, len = fact ? 0 : c->lands.len[at];
        const sp_tok *src = fact ? sp_cert_fact(c, at, &len) : c->lands.tok + c->lands.off[at];
        sp_tok key[SP_KEY_MAX];
        assert(len <= SP_KEY_MAX);
        memcpy(key, src, len * sizeof *key); /* a copy: the list may move as it grows */
        if (!fact)
            misere_land(b, key, len);
        else if (!misere_given(b, key, len, b->solver_of[c->k[at]]))
            misere_fact(b, key, len, b->solver_of[c->k[at]]);
    }
}

int sp_certify(sp_cert *c, sp_solver *s, const sp_certify_watch *watch, char *why, size_t cap)
{
    return sp_certify_given(c, s, NULL, watch, why, cap);
}

static void builder_free(builder *b)
{
    sp_children_free(&b->kids);
    sp_children_free(&b->grandkids);
    sp_children_free(&b->land_kids);
    sp_children_free(&b->cands);
    free(b->cert_of);
    free(b->solver_of);
    free(b->given_of);
    free(b->state);
    free(b->named);
    free(b->todo);
    sp_gindex_free(&b->given_games);
}

/* The root's facts (a loss) or its answer (a win). */
static void answer_root(builder *b)
{
    sp_cert *c = b->c;
    if (c->play == SP_CERT_MISERE) {
        sp_solver_stats st;
        sp_solver_stats_get(b->s, &st);
        bool kept = c->ngames > 0 || c->facts.n > 0;
        if (kept && !sp_certify_sums_alike(c, b->s)) {
            failed(b, -1, "the kept build summed other lands (other --misere-lives or --misere-sum-lives)");
            return;
        }
        /* the solver's own rule: a certificate that values fewer lands must spell out their moves
         * beside the other lands (a product), one that values more makes sums of large games */
        c->value_lives = st.misere_lives;
        c->sum_lives = st.misere_sum_lives;
        c->sum_birthday = st.misere_sum_birthday;
        adopt_games(b);
        if (b->status == 0)
            misere_root(b);
    } else if (c->outcome == SP_CERT_LOSS) {
        add_land_facts(b, c->root, c->root_len);
    } else {
        normal_answer(b, c->root, c->root_len, 0);
    }
}

bool sp_certify_sums_alike(const sp_cert *c, sp_solver *s)
{
    sp_solver_stats st;
    sp_solver_stats_get(s, &st);
    return c->value_lives == st.misere_lives && c->sum_lives == st.misere_sum_lives &&
           c->sum_birthday == st.misere_sum_birthday;
}

int sp_certify_given(sp_cert *c, sp_solver *s, const sp_cert *given, const sp_certify_watch *watch, char *why,
                     size_t cap)
{
    assert(c && s && (c->play == SP_CERT_NORMAL || c->play == SP_CERT_MISERE));
    assert(!given || given->play == c->play);
    static const sp_certify_watch none;
    const sp_certify_watch *w = watch ? watch : &none;
    pace p;
    builder b = {.c = c, .watch = w, .pace = &p, .given = given, .s = s, .ctx = sp_canon_ctx_new()};
    bool indexed = sp_gindex_init(&b.given_games, c->play == SP_CERT_MISERE ? given : NULL) == 0;
    sp_children_init(&b.kids);
    sp_children_init(&b.grandkids);
    sp_children_init(&b.land_kids);
    sp_children_init(&b.cands);
    if (!b.ctx || !indexed) {
        builder_free(&b);
        sp_canon_ctx_free(b.ctx);
        if (why)
            snprintf(why, cap, "out of memory");
        return -1;
    }
    b.lands = sp_solver_land_cache(s);
    if (w->progress) /* a first line at once: the root's answer may take a while */
        w->progress(w->arg, 0, 1, 0);
    p.t0 = p.progress = p.keep = sp_clock_now();
    answer_root(&b);
    if (b.status == 0 && c->play == SP_CERT_NORMAL)
        close_normal(&b);
    else if (b.status == 0)
        close_misere(&b);
    if (b.status)
        hand_over(&b, true); /* kept, however the build ended */
    builder_free(&b);
    sp_canon_ctx_free(b.ctx);
    if (why && b.status)
        snprintf(why, cap, "%s%s%s", b.why, b.where[0] ? ": " : "", b.where);
    return b.status;
}
