/* verify.c: the certificate checker (verify.h). Each fact is checked alone, from its moves, so the
 * facts can be checked in parallel; the first failure is reported. Misère games: vgame.h. */
#include "verify.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expand.h"
#include "gindex.h"
#include "grow.h"
#include "vgame.h"

#ifdef _OPENMP
#include <omp.h>
#endif

/* Misère play, shared by the threads: the games in the checker's own table, and the facts looked up
 * by (P, game id of that table). Every call into the table is serialised (critical section sp_vg). */
typedef struct misere {
    sp_vg *vg;
    uint32_t *id;        /* certificate game index -> id in vg */
    sp_children claims;  /* fact i as the pair key (P, id[k[i]]) (cert.h) */
    uint32_t *given;     /* certificate game index -> the given base's game of its structure, or
                          * SP_CERT_NONE; NULL without a given base */
} misere;

/* Normal play: values that xor_of_facts() takes over the children of a land (bit v of small for
 * v < 64), remembered per land by each thread; all: every child was seen (else only those up to the
 * first that gave the value wanted then). */
typedef struct land_xors {
    uint64_t small;
    bool all;
} land_xors;

#define MEMO_LANDS (1u << 18) /* then the memo starts again: bounded memory */

/* Per-thread scratch: a canonicaliser, child lists (a position's, a land's), the memo of lands. */
typedef struct checker {
    const sp_cert *c;
    misere *m;
    sp_canon_ctx *ctx;
    sp_children kids;
    sp_children land_kids, memo;
    land_xors *memo_xors; /* of memo's land i */
    uint64_t positions;
    int oom;
} checker;

/* Normal play: the XOR of the facts' nimbers over the lands of a position key, or -1 when a land has
 * no fact. */
static long xor_of_facts(const sp_cert *c, const sp_tok *key, size_t len)
{
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    unsigned n = sp_key_lands(key, len, off, lens, SP_MAX_LANDS);
    long x = 0;
    for (unsigned i = 0; i < n; i++) {
        long f = sp_cert_find(c, key + off[i], lens[i], 0);
        if (f < 0)
            return -1;
        x ^= c->k[f];
    }
    return x;
}

/* Fills k->kids with the children of key; false when out of memory. */
static bool children(checker *k, const sp_tok *key, size_t len)
{
    if (sp_expand_pos(k->ctx, NULL, key, len, &k->kids)) {
        k->oom = 1;
        return false;
    }
    k->positions += k->kids.n;
    return true;
}

/* ---------------------------------------------------------------- normal play */

typedef struct reach {
    const sp_cert *c;
    uint64_t want;
    land_xors *x;
} reach;

/* Notes the value of a child as it is made; stops at the value wanted. */
static int note_child(void *arg, const sp_tok *key, size_t len, uint32_t move)
{
    reach *r = arg;
    long x = xor_of_facts(r->c, key, len);
    (void)move;
    if (x >= 0 && x < 64)
        r->x->small |= 1ull << x;
    return x >= 0 && (uint64_t)x == r->want;
}

/* The memo's entry of a land (a new one when absent); NULL when out of memory. */
static land_xors *memo_of(checker *k, const sp_tok *land, size_t len)
{
    long i = sp_children_find(&k->memo, land, len);
    if (i >= 0)
        return &k->memo_xors[i];
    if (k->memo.n >= MEMO_LANDS)
        sp_children_clear(&k->memo);
    if (sp_children_add(&k->memo, land, len) < 0)
        return NULL;
    land_xors *x = &k->memo_xors[k->memo.n - 1];
    *x = (land_xors){0, false};
    return x;
}

/* Whether some child of the land has xor_of_facts() equal to want. The land's moves are made until
 * one gives it, unless the memo settles the question. */
static bool land_reaches(checker *k, const sp_tok *land, size_t len, uint64_t want)
{
    land_xors *x = memo_of(k, land, len);
    if (!x) {
        k->oom = 1;
        return false;
    }
    if (want < 64 && (x->small >> want & 1))
        return true;
    if (want < 64 && x->all)
        return false;
    reach r = {k->c, want, x};
    int rc = sp_expand_land_part(k->ctx, NULL, land, len, NULL, note_child, &r, &k->land_kids);
    k->positions += k->land_kids.n;
    if (rc < 0)
        k->oom = 1;
    x->all |= rc == 0;
    return rc == 1;
}

/* Does the player to move in (key, *j) have a move to a claimed loss: a position whose lands all have
 * facts, with the XOR of their nimbers j? A move either takes from the heap (to (key, x) with x < j)
 * or replaces one land L of key by the lands of a child C of L, whose XOR is then that of the other
 * lands of key and of C's lands: so some land L must have a child C whose XOR is j ^ (the others). */
static bool normal_answered(checker *k, const sp_tok *key, size_t len, uint32_t j)
{
    long x = xor_of_facts(k->c, key, len); /* the Nim move to (key, x) */
    if (x >= 0 && x < (long)j)
        return true;
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    long f[SP_MAX_LANDS];
    unsigned n = sp_key_lands(key, len, off, lens, SP_MAX_LANDS), missing = 0;
    uint64_t known = 0;
    for (unsigned i = 0; i < n; i++) {
        f[i] = sp_cert_find(k->c, key + off[i], lens[i], 0);
        f[i] = f[i] < 0 ? -1 : (long)k->c->k[f[i]];
        missing += f[i] < 0;
        known ^= f[i] < 0 ? 0 : (uint64_t)f[i];
    }
    for (unsigned i = 0; i < n && !k->oom; i++) {
        if (missing > (f[i] < 0))
            continue; /* another land has no fact: so does every position this land's moves give */
        uint64_t others = known ^ (f[i] < 0 ? 0 : (uint64_t)f[i]);
        if (land_reaches(k, key + off[i], lens[i], j ^ others))
            return true;
    }
    return false;
}

/* Checks the fact (L, g): every move of L + *g must be answered. */
static bool normal_fact(checker *k, size_t i, char *why, size_t cap)
{
    const sp_cert *c = k->c;
    size_t len;
    const sp_tok *key = sp_cert_fact(c, i, &len);
    uint32_t g = c->k[i];
    for (uint32_t j = 0; j < g; j++) { /* the Nim moves of (L, g) */
        if (!normal_answered(k, key, len, j)) {
            snprintf(why, cap, "fact %zu (nimber %u): the move to the heap %u has no answer", i, g, j);
            return false;
        }
    }
    if (!children(k, key, len))
        return false;
    const sp_children *ch = &k->kids;
    for (size_t m = 0; m < ch->n; m++) {
        if (!normal_answered(k, ch->tok + ch->off[m], ch->len[m], g)) {
            snprintf(why, cap, "fact %zu (a claimed nimber): its move number %zu has no answer in the certificate",
                     i, m + 1);
            return false;
        }
    }
    return true;
}

/* ---------------------------------------------------------------- misère play */

static uint32_t vg_add(misere *m, uint32_t a, uint32_t b)
{
    uint32_t r;
#pragma omp critical(sp_vg)
    r = sp_vg_add(m->vg, a, b);
    return r;
}

static bool vg_wins(misere *m, uint32_t g)
{
    bool r;
#pragma omp critical(sp_vg)
    r = sp_vg_wins(m->vg, g);
    return r;
}

/* The i-th option of g, or SP_VG_NONE past the last. */
static uint32_t vg_option(misere *m, uint32_t g, size_t i)
{
    uint32_t r;
#pragma omp critical(sp_vg)
    r = i < sp_vg_degree(m->vg, g) ? sp_vg_option(m->vg, g, i) : SP_VG_NONE;
    return r;
}

static unsigned vg_birthday(misere *m, uint32_t g)
{
    unsigned r;
#pragma omp critical(sp_vg)
    r = sp_vg_birthday(m->vg, g);
    return r;
}

/* The checker's side of the misère normal form (sp_cert_normalise): land facts and its own games. */
static uint32_t land_game(void *arg, const sp_tok *land, size_t len)
{
    checker *k = arg;
    long f = sp_cert_find_land(k->c, land, len);
    return f < 0 ? SP_CERT_NONE : k->m->id[k->c->land_game[f]];
}

static unsigned birthday(void *arg, uint32_t g)
{
    return vg_birthday(((checker *)arg)->m, g);
}

static uint32_t fold(void *arg, const sp_tok *land, size_t len, uint32_t h, uint32_t v)
{
    checker *k = arg;
    (void)land, (void)len;
    uint32_t s = vg_add(k->m, h, v);
    k->oom |= s == SP_VG_NONE;
    return s == SP_VG_NONE ? SP_CERT_NONE : s;
}

static long normalise(checker *k, const sp_tok *key, size_t len, uint32_t *h, sp_tok *out, bool all)
{
    sp_cert_games g = {k, land_game, birthday, fold};
    return sp_cert_normalise(k->c, &g, key, len, h, out, all);
}

/* Is R + h (R normalised) lost by the facts? With no land left the game h alone decides. */
static bool misere_loss(checker *k, const sp_tok *r, size_t len, uint32_t h)
{
    if (len == 0)
        return !vg_wins(k->m, h);
    sp_tok buf[SP_KEY_MAX + 2];
    return sp_children_find(&k->m->claims, buf, sp_cert_pair(r, len, h, buf)) >= 0;
}

/* Is the child key + h (before normalising) lost by the facts? */
static bool misere_child_loss(checker *k, const sp_tok *key, size_t len, uint32_t h)
{
    sp_tok r[SP_KEY_MAX];
    long rlen = normalise(k, key, len, &h, r, false);
    return rlen >= 0 && misere_loss(k, r, (size_t)rlen, h);
}

/* The hunt for an answer among the children of R + h. */
typedef struct misere_hunt {
    checker *k;
    uint32_t h;
    uint64_t moves; /* children seen */
} misere_hunt;

/* Stops at the first child that leaves a claimed loss. */
static int misere_child_answers(void *arg, const sp_tok *key, size_t len, uint32_t move)
{
    misere_hunt *mh = arg;
    (void)move;
    mh->moves++;
    return misere_child_loss(mh->k, key, len, mh->h);
}

/* Does the player to move in R + h (normalised) have a move to a claimed loss, or no move at all?
 * The moves of R are made land by land, up to the first that answers. */
static bool misere_answered(checker *k, const sp_tok *r, size_t len, uint32_t h)
{
    uint32_t o;
    for (size_t i = 0; (o = vg_option(k->m, h, i)) != SP_VG_NONE; i++)
        if (misere_loss(k, r, len, o))
            return true;
    misere_hunt mh = {k, h, 0};
    int rc = sp_expand_pos_each(k->ctx, NULL, r, len, misere_child_answers, &mh, &k->land_kids);
    k->positions += mh.moves;
    if (rc)
        return rc > 0 || (k->oom = 1, false);
    return mh.moves == 0 && vg_option(k->m, h, 0) == SP_VG_NONE; /* no move: the player to move has won */
}

/* Checks the fact (R, j): every move of R + j, in R or in j, must be answered. */
static bool misere_fact(checker *k, size_t i, char *why, size_t cap)
{
    const sp_cert *c = k->c;
    size_t len;
    const sp_tok *key = sp_cert_fact(c, i, &len);
    uint32_t j = k->m->id[c->k[i]], o;
    for (size_t m = 0; (o = vg_option(k->m, j, m)) != SP_VG_NONE; m++)
        if (!misere_answered(k, key, len, o)) {
            snprintf(why, cap, "fact %zu: its move number %zu in the game beside it has no answer", i, m + 1);
            return false;
        }
    if (!children(k, key, len))
        return false;
    const sp_children *ch = &k->kids;
    if (ch->n == 0 && vg_option(k->m, j, 0) == SP_VG_NONE) {
        snprintf(why, cap, "fact %zu: a position with no move is a misère win, not a loss", i);
        return false;
    }
    for (size_t m = 0; m < ch->n; m++) {
        uint32_t h = j;
        sp_tok r[SP_KEY_MAX];
        long rlen = normalise(k, ch->tok + ch->off[m], ch->len[m], &h, r, false);
        if (rlen < 0 || !misere_answered(k, r, (size_t)rlen, h)) {
            snprintf(why, cap, "fact %zu: its move number %zu has no answer in the certificate%s", i, m + 1,
                     rlen < 0 ? " (a small land in it has no value)" : "");
            return false;
        }
    }
    return true;
}

/* Checks the land fact i: the game made of the land's children (each the sum of its lands' games)
 * must equal the claimed game, i.e. have the same simplest form. */
static bool land_fact(checker *k, size_t i, char *why, size_t cap)
{
    const sp_cert *c = k->c;
    const sp_tok *land = c->lands.tok + c->lands.off[i];
    size_t len = c->lands.len[i];
    unsigned most = sp_cert_valued_lives(c);
    if (sp_key_lives(land, len) > most) {
        snprintf(why, cap, "land fact %zu: the land has more than %u lives", i, most);
        return false;
    }
    if (!children(k, land, len))
        return false;
    const sp_children *ch = &k->kids;
    uint32_t *opts = malloc((ch->n + 1) * sizeof *opts), g = SP_VG_NONE;
    if (!opts)
        return k->oom = 1, false;
    size_t n = 0;
    for (; n < ch->n; n++) { /* the child's lands have fewer lives: none is left unsummed */
        opts[n] = 0;
        sp_tok r[SP_KEY_MAX];
        if (normalise(k, ch->tok + ch->off[n], ch->len[n], &opts[n], r, true) != 0)
            break;
    }
    if (n == ch->n) {
#pragma omp critical(sp_vg)
        g = sp_vg_make(k->m->vg, opts, n);
    }
    free(opts);
    if (g == SP_VG_NONE && n == ch->n)
        k->oom = 1;
    if (g == k->m->id[c->land_game[i]])
        return true;
    snprintf(why, cap, n < ch->n ? "land fact %zu: a land of its move number %zu has no value"
                                 : "land fact %zu: the land's game is not the claimed one", i, n + 1);
    return false;
}

/* The games of the certificate in the checker's table, and the facts as its lookup keys. Returns 0,
 * -1 when out of memory, 1 when a game cannot belong to a proof about the root (then why says so). */
static int misere_init(misere *m, const sp_cert *c, char *why, size_t cap)
{
    /* a move spends one life: no game met from the root (nor a land fact's) lasts longer than this;
     * deeper games are refused, also because sums recurse as deep as the games are */
    unsigned deepest = sp_key_lives(c->root, c->root_len);
    for (size_t i = 0; i < c->nmore; i++) /* every root of a fact base */
        if (sp_key_lives(c->more[i].key, c->more[i].len) > deepest)
            deepest = sp_key_lives(c->more[i].key, c->more[i].len);
    if (sp_cert_valued_lives(c) > deepest)
        deepest = sp_cert_valued_lives(c);
    memset(m, 0, sizeof *m);
    sp_children_init(&m->claims);
    m->vg = sp_vg_new();
    m->id = malloc((c->ngames + 1) * sizeof *m->id);
    if (!m->vg || !m->id)
        return -1;
    for (uint32_t i = 0; i < c->ngames; i++) {
        uint32_t first = c->game_first[i], n = c->game_first[i + 1] - first, *o = malloc((n + 1) * sizeof *o);
        if (!o)
            return -1;
        for (uint32_t j = 0; j < n; j++)
            o[j] = m->id[c->game_opts[first + j]]; /* options precede the game (cert.h) */
        m->id[i] = sp_vg_make(m->vg, o, n);
        free(o);
        if (m->id[i] == SP_VG_NONE)
            return -1;
        if (sp_vg_birthday(m->vg, m->id[i]) > deepest) {
            snprintf(why, cap, "game %u lasts longer than any game from the root", i);
            return 1;
        }
    }
    for (size_t i = 0; i < c->facts.n; i++) {
        size_t len;
        const sp_tok *key = sp_cert_fact(c, i, &len);
        sp_tok buf[SP_KEY_MAX + 2];
        if (len > SP_KEY_MAX || sp_children_add(&m->claims, buf, sp_cert_pair(key, len, m->id[c->k[i]], buf)) < 0)
            return -1;
    }
    return 0;
}

static void misere_free(misere *m)
{
    sp_vg_free(m->vg);
    free(m->id);
    free(m->given);
    sp_children_free(&m->claims);
}

/* ---------------------------------------------------------------- the certificate */

/* Checks item i: the land facts first (misère play), then the facts. */
static bool check_item(checker *k, size_t i, char *why, size_t cap)
{
    if (k->c->play == SP_CERT_NORMAL)
        return normal_fact(k, i, why, cap);
    size_t nl = k->c->lands.n;
    return i < nl ? land_fact(k, i, why, cap) : misere_fact(k, i - nl, why, cap);
}

/* Does a root's claim follow from the facts? */
static bool root_follows(checker *k, const sp_tok *key, size_t len, int outcome)
{
    if (k->c->play == SP_CERT_NORMAL)
        return outcome == SP_CERT_LOSS ? xor_of_facts(k->c, key, len) == 0 : normal_answered(k, key, len, 0);
    uint32_t h = 0;
    sp_tok r[SP_KEY_MAX];
    long n = normalise(k, key, len, &h, r, false);
    return n >= 0 && (outcome == SP_CERT_LOSS ? misere_loss(k, r, (size_t)n, h) : misere_answered(k, r, (size_t)n, h));
}

/* The root and the further roots of a fact base; false (and why) at the first that does not follow. */
/* Whether the given base claims the same outcome of the same root (its first or a further one). */
static bool given_root(const sp_cert *given, const sp_tok *key, size_t len, int outcome)
{
    if (!given)
        return false;
    if (given->root_len == len && given->outcome == outcome && !memcmp(given->root, key, len * sizeof *key))
        return true;
    for (size_t i = 0; i < given->nmore; i++) {
        const sp_cert_root *r = &given->more[i];
        if (r->len == len && r->outcome == outcome && !memcmp(r->key, key, len * sizeof *key))
            return true;
    }
    return false;
}

/* Every root's claim, but those the given base holds. */
static bool check_root(checker *k, const sp_cert *given, char *why, size_t cap)
{
    const sp_cert *c = k->c;
    if (!given_root(given, c->root, c->root_len, c->outcome) && !root_follows(k, c->root, c->root_len, c->outcome)) {
        snprintf(why, cap, "the root's claimed %s does not follow from the facts",
                 c->outcome == SP_CERT_LOSS ? "loss" : "win");
        return false;
    }
    for (size_t i = 0; i < c->nmore; i++) {
        const sp_cert_root *r = &c->more[i];
        if (!given_root(given, r->key, r->len, r->outcome) && !root_follows(k, r->key, r->len, r->outcome)) {
            snprintf(why, cap, "root %zu (0*%u): its claimed %s does not follow from the facts", i + 2, r->spots,
                     r->outcome == SP_CERT_LOSS ? "loss" : "win");
            return false;
        }
    }
    return true;
}

static unsigned thread_count(unsigned want)
{
#ifdef _OPENMP
    return want ? want : (unsigned)omp_get_max_threads();
#else
    (void)want;
    return 1;
#endif
}

static int checker_init(checker *k, const sp_cert *c, misere *m)
{
    memset(k, 0, sizeof *k);
    k->c = c;
    k->m = m;
    k->ctx = sp_canon_ctx_new();
    sp_children_init(&k->kids);
    sp_children_init(&k->land_kids);
    sp_children_init(&k->memo);
    k->memo_xors = c->play == SP_CERT_NORMAL ? malloc(MEMO_LANDS * sizeof *k->memo_xors) : NULL;
    return k->ctx && (k->memo_xors || c->play != SP_CERT_NORMAL) ? 0 : -1;
}

static void checker_free(checker *k)
{
    sp_children_free(&k->kids);
    sp_children_free(&k->land_kids);
    sp_children_free(&k->memo);
    free(k->memo_xors);
    sp_canon_ctx_free(k->ctx);
}

/* Reports progress from the first thread, at most once a second. */
static void report(const sp_verify_watch *w, uint64_t checked, long items, double t0, double *last)
{
    double t = omp_get_wtime();
    if (w && w->progress && omp_get_thread_num() == 0 && t - *last >= 1.0) {
        *last = t;
        w->progress(w->arg, checked, (uint64_t)items, t - t0);
    }
}

static bool stopped(const sp_verify_watch *w)
{
    return w && w->stop && atomic_load_explicit(w->stop, memory_order_relaxed);
}

/* Misère play: map[j], given's game with the structure of c's game j (SP_CERT_NONE: none), each
 * matched after its options; malloc'ed, NULL when out of memory. */
static uint32_t *match_games(const sp_cert *c, const sp_cert *given)
{
    sp_gindex ix;
    uint32_t *map = malloc(((size_t)c->ngames + 1) * sizeof *map), *opts = NULL;
    if (!map || sp_gindex_init(&ix, given)) {
        free(map);
        return NULL;
    }
    size_t cap = 0;
    bool oom = false;
    for (uint32_t g = 0; g < c->ngames && !oom; g++) {
        size_t n = c->game_first[g + 1] - c->game_first[g];
        oom = sp_grow((void **)&opts, &cap, n + 1, sizeof *opts) != 0;
        long at = oom ? -1 : 0;
        for (size_t i = 0; i < n && at == 0; i++) /* options precede the game */
            at = (opts[i] = map[c->game_opts[c->game_first[g] + i]]) == SP_CERT_NONE ? -1 : 0;
        if (at == 0)
            oom = (at = sp_gindex_find(&ix, opts, n)) == -2;
        map[g] = at < 0 ? SP_CERT_NONE : (uint32_t)at;
    }
    free(opts);
    sp_gindex_free(&ix);
    if (oom)
        free(map);
    return oom ? NULL : map;
}

/* Whether item i (check_item's numbering) is a fact that the given base holds. */
static bool given_fact(const sp_cert *c, const sp_cert *given, const misere *m, size_t i)
{
    size_t nl = c->play == SP_CERT_MISERE ? c->lands.n : 0, len;
    if (!given || given->play != c->play || i < nl)
        return false;
    const sp_tok *key = sp_cert_fact(c, i - nl, &len);
    uint32_t k = c->k[i - nl];
    if (c->play == SP_CERT_MISERE)
        return m->given[k] != SP_CERT_NONE && sp_cert_find(given, key, len, m->given[k]) >= 0;
    long f = sp_cert_find(given, key, len, 0);
    return f >= 0 && given->k[f] == k;
}

/* Checks every item in parallel (but those of the given base); the first failing one (lowest index)
 * is reported. */
static void check_items(const sp_cert *c, const sp_cert *given, misere *m, unsigned nt, const sp_verify_watch *w,
                        sp_verify_result *res, int *oom)
{
    long first_bad = -1, items = (long)(c->facts.n + (c->play == SP_CERT_MISERE ? c->lands.n : 0));
    char why[512] = "";
    _Atomic uint64_t checked = 0;
    double t0 = omp_get_wtime(), last = t0;
    (void)nt;
#pragma omp parallel num_threads(nt)
    {
        checker k;
        char mine[512];
        if (checker_init(&k, c, m))
            k.oom = 1;
#pragma omp for schedule(dynamic, 4)
        for (long i = 0; i < items; i++) {
            if (k.oom || stopped(w))
                continue;
            if (given_fact(c, given, m, (size_t)i)) {
#pragma omp atomic
                res->given++;
                continue;
            }
            bool ok = check_item(&k, (size_t)i, mine, sizeof mine);
            report(w, atomic_fetch_add_explicit(&checked, 1, memory_order_relaxed) + 1, items, t0, &last);
            if (ok)
                continue;
#pragma omp critical(sp_verify_first)
            if (!k.oom && (first_bad < 0 || i < first_bad)) {
                first_bad = i;
                memcpy(why, mine, sizeof why);
            }
        }
#pragma omp critical(sp_verify_sum)
        {
            res->positions += k.positions;
            *oom |= k.oom;
        }
        checker_free(&k);
    }
    if (first_bad >= 0)
        snprintf(res->reason, sizeof res->reason, "%s", why);
    res->ok = first_bad < 0;
}

int sp_verify(const sp_cert *c, unsigned threads, const sp_verify_watch *watch, sp_verify_result *res)
{
    return sp_verify_given(c, NULL, threads, watch, res);
}

int sp_verify_given(const sp_cert *c, const sp_cert *given, unsigned threads, const sp_verify_watch *watch,
                    sp_verify_result *res)
{
    memset(res, 0, sizeof *res);
    misere m;
    int rc = c->play == SP_CERT_MISERE ? misere_init(&m, c, res->reason, sizeof res->reason) : 0, oom = rc < 0;
    if (rc == 0 && c->play == SP_CERT_MISERE && given && given->play == SP_CERT_MISERE &&
        !(m.given = match_games(c, given)))
        oom = 1;
    if (rc == 0 && !oom)
        check_items(c, given, &m, thread_count(threads), watch, res, &oom);
    res->facts = c->facts.n - res->given;
    res->lands = c->play == SP_CERT_MISERE ? c->lands.n : 0;
    bool halted = rc == 0 && stopped(watch);
    checker k;
    if (halted) {
        res->ok = 0;
        snprintf(res->reason, sizeof res->reason, "stopped before the end");
    } else if (!oom && res->ok && checker_init(&k, c, &m) == 0) {
        res->ok = check_root(&k, given, res->reason, sizeof res->reason);
        res->positions += k.positions;
        oom = k.oom;
        checker_free(&k);
    } else if (!oom && res->ok) {
        oom = 1;
    }
    if (c->play == SP_CERT_MISERE)
        misere_free(&m);
    return oom ? -1 : halted ? 1 : 0;
}
