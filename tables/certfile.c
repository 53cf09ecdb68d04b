/* certfile.c: certificates on disk (cert.h): a chunk file (chunks.h) whose chunks each add roots,
 * games, land facts and facts to those before, so that a fact base grows by appends; and the store
 * forms written before it, still read. */
#include "cert.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chunks.h"
#include "grow.h"
#include "keylist.h"
#include "store.h"

/* The form field of a certificate store (the files before chunk files; none is written now). */
enum {
    FILE_NORMAL = 0,       /* one root, facts */
    FILE_MISERE_WHOLE = 1, /* one root, whole positions beside the game 0 */
    FILE_MISERE = 2,       /* one root, games, land facts, facts */
    FILE_NORMAL_ROOTS = 3, /* form 0 with further roots (at least one) */
};

/* ---------------------------------------------------------------- writing a chunk */

/* Whether path is a chunk file (chunks.h), by its magic. */
static bool is_chunk_file(const char *path)
{
    char head[8] = {0};
    FILE *f = fopen(path, "rb");
    bool yes = f && fread(head, 1, sizeof head, f) == sizeof head && !memcmp(head, "SPCHUNKS", sizeof head);
    if (f)
        fclose(f);
    return yes;
}


void sp_cert_mark_all(const sp_cert *c, sp_cert_mark *m)
{
    *m = (sp_cert_mark){1 + c->nmore, c->ngames, c->lands.n, c->facts.n};
}

/* An entry to write sorted: a fact (its land or P, its nimber or game) or a land fact. */
static int by_entry(const void *a, const void *b)
{
    const sp_keylist_ref *x = a, *y = b;
    int d = sp_key_cmp(x->key, x->len, y->key, y->len);
    return d ? d : (x->value > y->value) - (x->value < y->value);
}

/* Writes the entries from..n of a list (key i, value val[i]; cut tokens off each key) sorted, each
 * after the one before: the facts of a misère P beside several games share a key, in the order of
 * the games. */
static void put_sorted(sp_buf *b, const sp_children *list, size_t from, size_t cut, const uint32_t *val)
{
    size_t n = list->n - from;
    sp_buf_u32(b, (uint32_t)n);
    sp_keylist_ref *refs = malloc((n ? n : 1) * sizeof *refs);
    if (!refs) {
        b->failed = 1;
        return;
    }
    for (size_t i = 0; i < n; i++)
        refs[i] = (sp_keylist_ref){list->tok + list->off[from + i], list->len[from + i] - (uint32_t)cut, val[from + i]};
    qsort(refs, n, sizeof *refs, by_entry);
    for (size_t i = 0; i < n; i++)
        sp_keylist_put_after(b, i ? refs[i - 1].key : NULL, i ? refs[i - 1].len : 0, refs[i].key, refs[i].len,
                             refs[i].value);
    free(refs);
}

static void put_root(sp_buf *b, const sp_cert *c, size_t i)
{
    const sp_cert_root *r = i ? &c->more[i - 1] : NULL;
    sp_buf_u32(b, r ? r->spots : c->spots);
    sp_buf_u32(b, (uint32_t)(r ? r->outcome : c->outcome));
    sp_keylist_put_key(b, r ? r->key : c->root, r ? r->len : c->root_len);
}

/* A chunk's payload: u32 play, u32 n and n roots (the first chunk's first root is the certificate's
 * root), misère: the three limits, u32 the games before, u32 n and n games, the land facts (sorted);
 * then the facts (sorted). What is new since m. */
static void put_chunk(sp_buf *b, const sp_cert *c, const sp_cert_mark *m)
{
    sp_buf_u32(b, (uint32_t)c->play);
    sp_buf_u32(b, (uint32_t)(1 + c->nmore - m->roots));
    for (size_t i = m->roots; i < 1 + c->nmore; i++)
        put_root(b, c, i);
    if (c->play == SP_CERT_MISERE) {
        sp_buf_u32(b, c->value_lives);
        sp_buf_u32(b, c->sum_lives);
        sp_buf_u32(b, c->sum_birthday);
        sp_buf_u32(b, (uint32_t)m->games);
        sp_buf_u32(b, (uint32_t)(c->ngames - m->games));
        for (uint32_t g = (uint32_t)m->games; g < c->ngames; g++) {
            uint32_t first = c->game_first[g], n = c->game_first[g + 1] - first;
            sp_buf_u32(b, n);
            for (uint32_t j = 0; j < n; j++)
                sp_buf_u32(b, c->game_opts[first + j]);
        }
        put_sorted(b, &c->lands, m->lands, 0, c->land_game);
    }
    put_sorted(b, &c->facts, m->facts, c->play == SP_CERT_MISERE ? 2 : 0, c->k);
}

/* What is new since m, as one chunk appended to path (written whole when whole). */
static int write_chunk(const sp_cert *c, const sp_cert_mark *m, const char *path, bool whole, char *err, size_t cap)
{
    sp_buf b = {0};
    put_chunk(&b, c, m);
    uint64_t count = (1 + c->nmore - m->roots) + (c->ngames - m->games) + (c->lands.n - m->lands) +
                     (c->facts.n - m->facts);
    int rc = b.failed  ? sp_store_fail(err, cap, "%s: out of memory", path)
             : whole   ? sp_chunks_write(path, SP_CHUNKS_CERT, b.data, b.len, count, err, cap)
                       : sp_chunks_append(path, SP_CHUNKS_CERT, b.data, b.len, count, NULL, err, cap);
    sp_buf_free(&b);
    return rc;
}

int sp_cert_save(const sp_cert *c, const char *path, char *err, size_t errcap)
{
    return write_chunk(c, &(sp_cert_mark){0}, path, true, err, errcap);
}

int sp_cert_append(const sp_cert *c, const char *path, sp_cert_mark *m, char *err, size_t errcap)
{
    sp_cert_mark now;
    sp_cert_mark_all(c, &now);
    if (!memcmp(&now, m, sizeof now))
        return 0;
    bool whole = m->roots == 0 || !is_chunk_file(path); /* a store of the forms before: made a chunk file */
    if (write_chunk(c, whole ? &(sp_cert_mark){0} : m, path, whole, err, errcap))
        return -1;
    *m = now;
    return 0;
}

/* ---------------------------------------------------------------- reading */

/* Reads one entry of a list: plain (a key, a value) or sorted (after the key in key, *len tokens). */
static const sp_tok *get_entry(sp_reader *r, bool sorted, sp_tok *key, size_t *len, uint32_t *value)
{
    if (sorted)
        return sp_keylist_get_after(r, key, len, value) ? key : NULL;
    const sp_tok *k = sp_keylist_get_key(r, key, len);
    *value = sp_read_u32(r);
    return k && !r->failed ? k : NULL;
}

/* Reads the misère limits (checked against those of the chunks before, unless first). */
static int get_limits(sp_reader *r, sp_cert *c, bool first)
{
    unsigned v = sp_read_u32(r), s = sp_read_u32(r), b = sp_read_u32(r);
    if (!first && (v != c->value_lives || s != c->sum_lives || b != c->sum_birthday))
        return -1;
    c->value_lives = v, c->sum_lives = s, c->sum_birthday = b;
    return r->failed ? -1 : 0;
}

/* Reads n games and then the land facts; -1 when malformed (an option or a land's game not listed
 * before, a land given twice). */
static int get_games_lands(sp_reader *r, sp_cert *c, bool sorted)
{
    sp_tok key[SP_KEY_MAX];
    size_t len = 0;
    uint32_t *opts = NULL;
    size_t cap = 0;
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

/* A root: spots, outcome, key (into tmp, room SP_KEY_MAX); NULL when malformed (a bad outcome). */
static const sp_tok *get_root(sp_reader *r, unsigned *spots, int *outcome, sp_tok *tmp, size_t *len)
{
    *spots = sp_read_u32(r);
    *outcome = (int)sp_read_u32(r);
    const sp_tok *key = sp_keylist_get_key(r, tmp, len);
    return r->failed || (*outcome != SP_CERT_LOSS && *outcome != SP_CERT_WIN) ? NULL : key;
}

/* Reads n further roots; -1 when malformed. */
static int get_roots(sp_reader *r, sp_cert *c, uint32_t n)
{
    sp_tok tmp[SP_KEY_MAX];
    size_t len;
    unsigned spots;
    int outcome;
    if (n > (r->len - r->at) / 12)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        const sp_tok *key = get_root(r, &spots, &outcome, tmp, &len);
        if (!key || sp_cert_add_root(c, spots, key, len, outcome))
            return -1;
    }
    return 0;
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

/* The certificate's root; c initialised from it. */
static int get_first_root(sp_reader *r, sp_cert *c, int play)
{
    sp_tok tmp[SP_KEY_MAX];
    size_t len;
    unsigned spots;
    int outcome;
    const sp_tok *root = get_root(r, &spots, &outcome, tmp, &len);
    return root ? sp_cert_init(c, play, spots, root, len, outcome) : -1;
}

/* One chunk into c (which the first chunk initialises). */
static int get_chunk(void *arg, const void *payload, size_t len, uint64_t count)
{
    sp_cert *c = arg;
    (void)count;
    sp_reader r = {payload, len, 0, 0};
    bool first = c->root == NULL;
    uint32_t play = sp_read_u32(&r), nroots = sp_read_u32(&r);
    if (r.failed || play > SP_CERT_MISERE || (!first && (int)play != c->play) || (first && nroots == 0))
        return -1;
    if (first && get_first_root(&r, c, (int)play))
        return -1;
    if (get_roots(&r, c, nroots - first))
        return -1;
    if (play == SP_CERT_MISERE && (get_limits(&r, c, first) || sp_read_u32(&r) != c->ngames ||
                                   get_games_lands(&r, c, true)))
        return -1;
    return get_facts(&r, c, true, true) || r.failed || r.at != len ? -1 : 0;
}

/* A certificate store of the forms before chunk files. */
static int load_store(sp_cert *c, const char *path, char *err, size_t errcap)
{
    void *payload;
    size_t plen;
    if (sp_store_read(path, SP_STORE_CERTIFICATE, &payload, &plen, err, errcap))
        return -1;
    sp_reader r = {payload, plen, 0, 0};
    uint32_t form = sp_read_u32(&r);
    bool normal = form == FILE_NORMAL || form == FILE_NORMAL_ROOTS;
    int rc = !r.failed && form <= FILE_NORMAL_ROOTS ? get_first_root(&r, c, normal ? SP_CERT_NORMAL : SP_CERT_MISERE)
                                                    : -1;
    if (rc == 0 && form == FILE_NORMAL_ROOTS) {
        uint32_t n = sp_read_u32(&r);
        rc = n == 0 ? -1 : get_roots(&r, c, n);
    }
    if (rc == 0 && form == FILE_MISERE)
        rc = get_limits(&r, c, true) || get_games_lands(&r, c, false) ? -1 : 0;
    if (rc == 0 && form == FILE_MISERE_WHOLE) /* whole positions, each beside the game 0 */
        rc = sp_cert_add_game(c, NULL, 0) < 0 ? -1 : 0;
    if (rc == 0)
        rc = get_facts(&r, c, false, form != FILE_MISERE_WHOLE);
    free(payload);
    if (rc || r.failed || r.at != plen) {
        sp_cert_free(c);
        snprintf(err, errcap, "%s: malformed certificate payload", path);
        return -1;
    }
    return 0;
}


int sp_cert_load_info(sp_cert *c, const char *path, char *warning, size_t wcap, char *err, size_t errcap)
{
    memset(c, 0, sizeof *c);
    if (warning && wcap)
        warning[0] = '\0';
    if (!is_chunk_file(path))
        return load_store(c, path, err, errcap);
    sp_chunks_info info;
    int rc = sp_chunks_read_payloads(path, SP_CHUNKS_CERT, get_chunk, c, &info, err, errcap);
    if (rc == 0 && !c->root)
        rc = sp_store_fail(err, errcap, "%s: a certificate file with no chunk", path);
    if (rc == 0 && info.torn && warning)
        snprintf(warning, wcap, "%s", info.warning);
    if (rc && c->root)
        sp_cert_free(c);
    return rc ? -1 : 0;
}

int sp_cert_load(sp_cert *c, const char *path, char *err, size_t errcap)
{
    return sp_cert_load_info(c, path, NULL, 0, err, errcap);
}
