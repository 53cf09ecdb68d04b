/* cert.c: the certificate type (cert.h): facts, games and land facts in de-duplicating key lists, and
 * their serialisation as a store: play, spots, outcome, root key, (misère) games and lands, facts. */
#include "cert.h"

#include <assert.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "keylist.h"
#include "store.h"
#include "tune.h"

/* The form field of the file. Written now: the bases (4, 5), whose roots, land facts and facts are
 * lists sorted by key, each key after the one before (keylist.h), so that a file of many sizes
 * compresses well. Still read: the forms before them, with their lists in the order built. */
enum {
    FILE_NORMAL = 0,       /* one root, facts */
    FILE_MISERE_WHOLE = 1, /* one root, whole positions beside the game 0 */
    FILE_MISERE = 2,       /* one root, games, land facts, facts */
    FILE_NORMAL_ROOTS = 3, /* form 0 with further roots (at least one) */
    FILE_NORMAL_BASE = 4,  /* roots (any number), facts sorted */
    FILE_MISERE_BASE = 5,  /* roots, games, land facts sorted, facts sorted */
};

int sp_cert_init(sp_cert *c, int play, unsigned spots, const sp_tok *root, size_t len, int outcome)
{
    assert((play == SP_CERT_NORMAL || play == SP_CERT_MISERE) && (outcome == SP_CERT_LOSS || outcome == SP_CERT_WIN));
    memset(c, 0, sizeof *c);
    c->play = play;
    c->spots = spots;
    c->outcome = outcome;
    sp_children_init(&c->facts);
    sp_children_init(&c->lands);
    c->root = malloc((len ? len : 1) * sizeof(sp_tok));
    c->game_first = malloc(sizeof *c->game_first);
    if (!c->root || !c->game_first) {
        sp_cert_free(c);
        return -1;
    }
    c->game_first[0] = 0;
    c->games_cap = 1;
    memcpy(c->root, root, len * sizeof(sp_tok));
    c->root_len = len;
    return 0;
}

void sp_cert_free(sp_cert *c)
{
    for (size_t i = 0; i < c->nmore; i++)
        free(c->more[i].key);
    free(c->more);
    free(c->root);
    free(c->k);
    free(c->game_first);
    free(c->game_opts);
    free(c->land_game);
    sp_children_free(&c->facts);
    sp_children_free(&c->lands);
    memset(c, 0, sizeof *c);
}

int sp_cert_add_root(sp_cert *c, unsigned spots, const sp_tok *key, size_t len, int outcome)
{
    assert(outcome == SP_CERT_LOSS || outcome == SP_CERT_WIN);
    sp_cert_root *m = realloc(c->more, (c->nmore + 1) * sizeof *m);
    if (!m)
        return -1;
    c->more = m;
    sp_tok *k = malloc((len ? len : 1) * sizeof *k);
    if (!k)
        return -1;
    memcpy(k, key, len * sizeof *k);
    c->more[c->nmore++] = (sp_cert_root){spots, outcome, k, len};
    return 0;
}

size_t sp_cert_pair(const sp_tok *key, size_t len, uint32_t g, sp_tok *out)
{
    memmove(out, key, len * sizeof *out);
    out[len] = (sp_tok)(g & 0xffff);
    out[len + 1] = (sp_tok)(g >> 16);
    return len + 2;
}

uint32_t sp_cert_pair_game(const sp_tok *pair, size_t n)
{
    assert(n >= 2);
    return (uint32_t)pair[n - 2] | (uint32_t)pair[n - 1] << 16;
}

unsigned sp_cert_valued_lives(const sp_cert *c)
{
    return c->sum_lives > c->value_lives ? c->sum_lives : c->value_lives;
}

/* The stored key of a fact: the land (normal play), or the pair (P, k) (misère play: the same P may
 * stand beside several games). Its length, or 0 when P is too long. */
static size_t fact_key(const sp_cert *c, const sp_tok *key, size_t len, uint32_t k, sp_tok *buf)
{
    if (len > SP_KEY_MAX)
        return 0;
    if (c->play == SP_CERT_MISERE)
        return sp_cert_pair(key, len, k, buf);
    memcpy(buf, key, len * sizeof *buf);
    return len;
}

long sp_cert_normalise(const sp_cert *c, const sp_cert_games *g, const sp_tok *key, size_t len, uint32_t *h,
                       sp_tok *out, int all)
{
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    unsigned n = sp_key_lands(key, len, off, lens, SP_MAX_LANDS);
    size_t olen = 0;
    for (unsigned i = 0; i < n; i++) {
        const sp_tok *land = key + off[i];
        unsigned lives = sp_key_lives(land, lens[i]);
        bool must = all || lives <= c->value_lives, may = must || lives <= c->sum_lives;
        uint32_t v = may ? g->land(g->arg, land, lens[i]) : SP_CERT_NONE;
        if (must && v == SP_CERT_NONE)
            return -1;
        if (v == SP_CERT_NONE || (!must && g->birthday(g->arg, *h) + g->birthday(g->arg, v) > c->sum_birthday)) {
            memcpy(out + olen, land, lens[i] * sizeof *land);
            olen += lens[i];
        } else if ((*h = g->fold(g->arg, land, lens[i], *h, v)) == SP_CERT_NONE) {
            return -1;
        }
    }
    return (long)olen;
}

const sp_tok *sp_cert_fact(const sp_cert *c, size_t i, size_t *len)
{
    assert(i < c->facts.n);
    *len = c->facts.len[i] - (c->play == SP_CERT_MISERE ? 2 : 0);
    return c->facts.tok + c->facts.off[i];
}

long sp_cert_find(const sp_cert *c, const sp_tok *key, size_t len, uint32_t k)
{
    sp_tok buf[SP_KEY_MAX + 2];
    size_t n = fact_key(c, key, len, k, buf);
    return n ? sp_children_find(&c->facts, buf, n) : -1;
}

long sp_cert_add(sp_cert *c, const sp_tok *key, size_t len, uint32_t k)
{
    sp_tok buf[SP_KEY_MAX + 2];
    size_t n = fact_key(c, key, len, k, buf);
    long at = n ? sp_children_find(&c->facts, buf, n) : -1;
    if (at >= 0)
        return at;
    if (!n || sp_children_add(&c->facts, buf, n) < 0 || sp_grow((void **)&c->k, &c->k_cap, c->facts.n, sizeof *c->k))
        return -1;
    c->k[c->facts.n - 1] = k;
    return (long)c->facts.n - 1;
}

long sp_cert_add_game(sp_cert *c, const uint32_t *opts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (opts[i] >= c->ngames)
            return -1;
    if (sp_grow((void **)&c->game_first, &c->games_cap, c->ngames + 2, sizeof *c->game_first) ||
        sp_grow((void **)&c->game_opts, &c->opts_cap, c->opts_len + n, sizeof *c->game_opts))
        return -1;
    if (n)
        memcpy(c->game_opts + c->opts_len, opts, n * sizeof *opts);
    c->opts_len += n;
    c->game_first[++c->ngames] = (uint32_t)c->opts_len;
    return (long)c->ngames - 1;
}

long sp_cert_find_land(const sp_cert *c, const sp_tok *land, size_t len)
{
    return sp_children_find(&c->lands, land, len);
}

long sp_cert_add_land(sp_cert *c, const sp_tok *land, size_t len, uint32_t g)
{
    long at = sp_cert_find_land(c, land, len);
    if (at >= 0)
        return at;
    if (sp_children_add(&c->lands, land, len) < 0 ||
        sp_grow((void **)&c->land_game, &c->land_cap, c->lands.n, sizeof *c->land_game))
        return -1;
    c->land_game[c->lands.n - 1] = g;
    return (long)c->lands.n - 1;
}

/* An entry to write sorted: a fact (its land or P, its nimber or game) or a land fact. */
static int by_entry(const void *a, const void *b)
{
    const sp_keylist_ref *x = a, *y = b;
    int d = sp_key_cmp(x->key, x->len, y->key, y->len);
    return d ? d : (x->value > y->value) - (x->value < y->value);
}

/* Writes n entries (key i from list, value val[i]) sorted, each after the one before: the facts of a
 * misère P beside several games share a key, in the order of the games. */
static void put_sorted(sp_buf *b, const sp_children *list, size_t cut, const uint32_t *val)
{
    size_t n = list->n;
    sp_buf_u32(b, (uint32_t)n);
    sp_keylist_ref *refs = malloc((n ? n : 1) * sizeof *refs);
    if (!refs) {
        b->failed = 1;
        return;
    }
    for (size_t i = 0; i < n; i++)
        refs[i] = (sp_keylist_ref){list->tok + list->off[i], list->len[i] - (uint32_t)cut, val[i]};
    qsort(refs, n, sizeof *refs, by_entry);
    for (size_t i = 0; i < n; i++)
        sp_keylist_put_after(b, i ? refs[i - 1].key : NULL, i ? refs[i - 1].len : 0, refs[i].key, refs[i].len,
                             refs[i].value);
    free(refs);
}

static void put_values(sp_buf *b, const sp_cert *c)
{
    sp_buf_u32(b, c->value_lives);
    sp_buf_u32(b, c->sum_lives);
    sp_buf_u32(b, c->sum_birthday);
    sp_buf_u32(b, c->ngames);
    for (uint32_t i = 0; i < c->ngames; i++) {
        uint32_t first = c->game_first[i], n = c->game_first[i + 1] - first;
        sp_buf_u32(b, n);
        for (uint32_t j = 0; j < n; j++)
            sp_buf_u32(b, c->game_opts[first + j]);
    }
    put_sorted(b, &c->lands, 0, c->land_game);
}

int sp_cert_save(const sp_cert *c, const char *path, char *err, size_t errcap)
{
    sp_buf b = {0};
    sp_buf_u32(&b, c->play == SP_CERT_MISERE ? FILE_MISERE_BASE : FILE_NORMAL_BASE);
    sp_buf_u32(&b, c->spots);
    sp_buf_u32(&b, (uint32_t)c->outcome);
    sp_keylist_put_key(&b, c->root, c->root_len);
    sp_buf_u32(&b, (uint32_t)c->nmore);
    for (size_t i = 0; i < c->nmore; i++) {
        sp_buf_u32(&b, c->more[i].spots);
        sp_buf_u32(&b, (uint32_t)c->more[i].outcome);
        sp_keylist_put_key(&b, c->more[i].key, c->more[i].len);
    }
    if (c->play == SP_CERT_MISERE)
        put_values(&b, c);
    put_sorted(&b, &c->facts, c->play == SP_CERT_MISERE ? 2 : 0, c->k);
    int rc = b.failed ? (snprintf(err, errcap, "%s: out of memory", path), -1)
                      : sp_store_write_level(path, SP_STORE_CERTIFICATE, b.data, b.len, SP_TUNE_CERT_LEVEL, err,
                                             errcap);
    sp_buf_free(&b);
    return rc;
}

/* Reads one entry of a list: plain (a key, a value) or sorted (after the key in key, *len tokens). */
static const sp_tok *get_entry(sp_reader *r, bool sorted, sp_tok *key, size_t *len, uint32_t *value)
{
    if (sorted)
        return sp_keylist_get_after(r, key, len, value) ? key : NULL;
    const sp_tok *k = sp_keylist_get_key(r, key, len);
    *value = sp_read_u32(r);
    return k && !r->failed ? k : NULL;
}

/* Reads the games and land facts; -1 when malformed (an option or a land's game not listed before). */
static int get_values(sp_reader *r, sp_cert *c, bool sorted)
{
    sp_tok key[SP_KEY_MAX];
    size_t len = 0;
    uint32_t *opts = NULL;
    size_t cap = 0;
    c->value_lives = sp_read_u32(r);
    c->sum_lives = sp_read_u32(r);
    c->sum_birthday = sp_read_u32(r);
    uint32_t ngames = sp_read_u32(r);
    for (uint32_t i = 0; i < ngames && !r->failed; i++) {
        uint32_t n = sp_read_u32(r);
        if (n > (r->len - r->at) / 4 || sp_grow((void **)&opts, &cap, n, sizeof *opts))
            r->failed = 1;
        for (uint32_t j = 0; j < n && !r->failed; j++)
            opts[j] = sp_read_u32(r);
        if (!r->failed && sp_cert_add_game(c, opts, n) < 0)
            r->failed = 1;
    }
    free(opts);
    uint32_t nlands = r->failed ? 0 : sp_read_u32(r);
    for (uint32_t i = 0; i < nlands && !r->failed; i++) {
        uint32_t g;
        const sp_tok *land = get_entry(r, sorted, key, &len, &g);
        if (!land || g >= c->ngames || sp_cert_find_land(c, land, len) >= 0 || sp_cert_add_land(c, land, len, g) < 0)
            return -1;
    }
    return r->failed ? -1 : 0;
}

/* Reads the further roots of a fact base; -1 when malformed (a bad outcome; none, in the form that
 * has them only when there are some). */
static int get_roots(sp_reader *r, sp_cert *c, bool some)
{
    sp_tok tmp[SP_KEY_MAX];
    size_t len;
    uint32_t n = sp_read_u32(r);
    if ((some && n == 0) || n > (r->len - r->at) / 12)
        return -1;
    for (uint32_t i = 0; i < n && !r->failed; i++) {
        unsigned spots = sp_read_u32(r);
        int outcome = (int)sp_read_u32(r);
        const sp_tok *key = sp_keylist_get_key(r, tmp, &len);
        if (r->failed || (outcome != SP_CERT_LOSS && outcome != SP_CERT_WIN) ||
            sp_cert_add_root(c, spots, key, len, outcome))
            return -1;
    }
    return r->failed ? -1 : 0;
}

/* Reads the facts; with_k: each with its value (the whole positions of the first misère format have
 * none: the game 0). */
static int get_facts(sp_reader *r, sp_cert *c, bool sorted, bool with_k)
{
    sp_tok key[SP_KEY_MAX];
    size_t len = 0;
    uint32_t n = sp_read_u32(r);
    for (uint32_t i = 0; i < n && !r->failed; i++) {
        uint32_t k = 0;
        const sp_tok *fact = with_k ? get_entry(r, sorted, key, &len, &k) : sp_keylist_get_key(r, key, &len);
        if (!fact || (c->play == SP_CERT_MISERE && k >= c->ngames))
            return -1;
        if (sp_cert_find(c, fact, len, k) >= 0 || sp_cert_add(c, fact, len, k) < 0)
            return -1; /* a fact given twice is malformed, whatever it claims */
    }
    return r->failed ? -1 : 0;
}

int sp_cert_load(sp_cert *c, const char *path, char *err, size_t errcap)
{
    void *payload;
    size_t plen;
    memset(c, 0, sizeof *c);
    if (sp_store_read(path, SP_STORE_CERTIFICATE, &payload, &plen, err, errcap))
        return -1;
    sp_reader r = {payload, plen, 0, 0};
    sp_tok tmp[SP_KEY_MAX];
    size_t len;
    uint32_t form = sp_read_u32(&r);
    unsigned spots = sp_read_u32(&r);
    int outcome = (int)sp_read_u32(&r);
    const sp_tok *root = sp_keylist_get_key(&r, tmp, &len);
    bool normal = form == FILE_NORMAL || form == FILE_NORMAL_ROOTS || form == FILE_NORMAL_BASE;
    bool base = form == FILE_NORMAL_BASE || form == FILE_MISERE_BASE;
    int rc = !r.failed && form <= FILE_MISERE_BASE && (outcome == SP_CERT_LOSS || outcome == SP_CERT_WIN)
                 ? sp_cert_init(c, normal ? SP_CERT_NORMAL : SP_CERT_MISERE, spots, root, len, outcome)
                 : -1;
    if (rc == 0 && (form == FILE_NORMAL_ROOTS || base))
        rc = get_roots(&r, c, !base);
    if (rc == 0 && (form == FILE_MISERE || form == FILE_MISERE_BASE))
        rc = get_values(&r, c, base);
    if (rc == 0 && form == FILE_MISERE_WHOLE) /* whole positions, each beside the game 0 */
        rc = sp_cert_add_game(c, NULL, 0) < 0 ? -1 : 0;
    if (rc == 0)
        rc = get_facts(&r, c, base, form != FILE_MISERE_WHOLE);
    free(payload);
    if (rc || r.failed || r.at != plen) {
        sp_cert_free(c);
        snprintf(err, errcap, "%s: malformed certificate payload", path);
        return -1;
    }
    return 0;
}
