/* test_tables.c: the table generator's parts: store files (round trip, atomic writes, corruption),
 * the CSV tables, certificates and their independent checker, and a table run killed with SIGKILL
 * then resumed. */
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cert.h"
#include "certify.h"
#include "chunks.h"
#include "clock.h"
#include "derive.h"
#include "dirlock.h"
#include "expand.h"
#include "grow.h"
#include "keylist.h"
#include "landgames.h"
#include "merge.h"
#include "minimise.h"
#include "progress.h"
#include "published.h"
#include "report.h"
#include "snapshot.h"
#include "store.h"
#include "testpos.h"
#include "testutil.h"
#include "verify.h"
#include "vgame.h"
#include "vtable.h"

static char dir[256];

static void setup(void)
{
    sp_test_mkdir(dir, sizeof dir, "tables");
}

static void teardown(void)
{
    sp_test_rmdir(dir);
}

static void path_in(char *buf, size_t cap, const char *name)
{
    snprintf(buf, cap, "%s/%s", dir, name);
}

static size_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) ? 0 : (size_t)st.st_size;
}

/* Flips one byte of a file in place. */
static void flip_byte(const char *path, long at)
{
    FILE *f = fopen(path, "r+b");
    ck_assert_ptr_nonnull(f);
    fseek(f, at, SEEK_SET);
    int c = fgetc(f);
    fseek(f, at, SEEK_SET);
    fputc(c ^ 0x5a, f);
    fclose(f);
}

/* ---------------------------------------------------------------- stores */

START_TEST(store_round_trip_and_corruption)
{
    char path[512], err[512];
    path_in(path, sizeof path, "x.store");
    char payload[5000];
    for (size_t i = 0; i < sizeof payload; i++)
        payload[i] = (char)(i * 7 % 251);
    ck_assert_int_eq(sp_store_write(path, SP_STORE_NIMBERS, payload, sizeof payload, err, sizeof err), 0);
    void *back;
    size_t len;
    ck_assert_int_eq(sp_store_read(path, SP_STORE_NIMBERS, &back, &len, err, sizeof err), 0);
    ck_assert_uint_eq(len, sizeof payload);
    ck_assert(!memcmp(back, payload, len));
    free(back);
    /* another kind */
    ck_assert_int_eq(sp_store_read(path, SP_STORE_CERTIFICATE, &back, &len, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "expected a certificate"));
    /* a flipped byte in the payload */
    size_t size = file_size(path);
    flip_byte(path, (long)size - 3);
    ck_assert_int_eq(sp_store_read(path, SP_STORE_NIMBERS, &back, &len, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "corrupt"));
    /* truncated */
    ck_assert_int_eq(sp_store_write(path, SP_STORE_NIMBERS, payload, sizeof payload, err, sizeof err), 0);
    ck_assert_int_eq(truncate(path, (off_t)size - 10), 0);
    ck_assert_int_eq(sp_store_read(path, SP_STORE_NIMBERS, &back, &len, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "truncated"));
    /* a flipped byte in the header's raw size, which no checksum covers: refused, not allocated
     * (fuzz_files asked for 2^62 bytes this way) */
    ck_assert_int_eq(sp_store_write(path, SP_STORE_NIMBERS, payload, sizeof payload, err, sizeof err), 0);
    flip_byte(path, 23); /* the top byte of raw_len, after the magic, version and kind */
    ck_assert_int_eq(sp_store_read(path, SP_STORE_NIMBERS, &back, &len, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "payload size"));
    /* not a store, and another version */
    ck_assert_int_eq(sp_store_write_text(path, "n,outcome\n", 10, err, sizeof err), 0);
    ck_assert_int_eq(sp_store_read(path, SP_STORE_NIMBERS, &back, &len, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "not a sprouts store"));
    ck_assert_int_eq(sp_store_write(path, SP_STORE_NIMBERS, payload, 10, err, sizeof err), 0);
    flip_byte(path, 8); /* the version field follows the 8-byte magic */
    ck_assert_int_eq(sp_store_read(path, SP_STORE_NIMBERS, &back, &len, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "version"));
}
END_TEST

static int collect(void *arg, const sp_tok *key, size_t len, uint32_t value)
{
    sp_buf *b = arg;
    sp_keylist_put(b, key, len, value); /* plain, to compare with what was written */
    return 0;
}

/* Sorted key lists give back each key whole, in order, with its value; the plain format of the same
 * entries is longer; a key said to share more tokens than the one before has is refused. */
START_TEST(key_lists_round_trip)
{
    static const sp_tok keys[4][8] = {{3, 3, 3, 3, 3, 0}, {3, 3, 3, 3, 3, 4, 0}, {3, 3, 3, 3, 3, 4, 4, 0}, {5, 0}};
    static const size_t lens[4] = {6, 7, 8, 2};
    sp_buf sorted = {0}, plain = {0}, back = {0};
    for (int i = 0; i < 4; i++) {
        sp_keylist_put_after(&sorted, i ? keys[i - 1] : NULL, i ? lens[i - 1] : 0, keys[i], lens[i], (uint32_t)i + 7);
        sp_keylist_put(&plain, keys[i], lens[i], (uint32_t)i + 7);
    }
    ck_assert_uint_lt(sorted.len, plain.len);
    ck_assert_int_eq(sp_keylist_each(sorted.data, sorted.len, true, collect, &back), 0);
    ck_assert_uint_eq(back.len, plain.len);
    ck_assert_int_eq(memcmp(back.data, plain.data, plain.len), 0);
    sp_buf_free(&back);
    ck_assert_int_eq(sp_keylist_each(plain.data, plain.len, false, collect, &back), 0);
    ck_assert_int_eq(memcmp(back.data, plain.data, plain.len), 0);
    ck_assert_int_eq(sp_keylist_each(sorted.data, sorted.len - 1, true, collect, &back), -1); /* cut short */
    sorted.data[0] = 1; /* the first key shares a token with no key before it */
    ck_assert_int_eq(sp_keylist_each(sorted.data, sorted.len, true, collect, &back), -1);
    sp_buf_free(&sorted);
    sp_buf_free(&plain);
    sp_buf_free(&back);
}
END_TEST

START_TEST(atomic_writes)
{
    char path[512], err[512];
    path_in(path, sizeof path, "t.txt");
    ck_assert_int_eq(sp_store_write_text(path, "old\n", 4, err, sizeof err), 0);
    ck_assert_int_eq(sp_store_write_text(path, "new text\n", 9, err, sizeof err), 0);
    FILE *f = fopen(path, "r");
    char buf[64] = "";
    ck_assert_ptr_nonnull(fgets(buf, sizeof buf, f));
    fclose(f);
    ck_assert_str_eq(buf, "new text\n");
    /* no temporary file is left behind */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "test $(ls -A '%s' | wc -l) -eq 1", dir);
    ck_assert_int_eq(system(cmd), 0);
    /* a directory that cannot be written: an error, and the old file untouched */
    char bad[600];
    snprintf(bad, sizeof bad, "%s/missing/t.txt", dir);
    ck_assert_int_eq(sp_store_write_text(bad, "x", 1, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "missing"));
}
END_TEST

/* ---------------------------------------------------------------- CSV */

START_TEST(csv_round_trip)
{
    sp_table t, back;
    char err[512];
    memset(&t, 0, sizeof t);
    t.misere = 1;
    sp_row *r = &t.row[7];
    r->present = 1;
    snprintf(r->outcome, sizeof r->outcome, "loss");
    r->nimber = -1;
    r->nodes = 6158;
    r->seconds = 0.07;
    r->threads = 2;
    snprintf(r->cert, sizeof r->cert, "certs/misere-7.cert");
    r->cert_facts = 442;
    snprintf(r->verified, sizeof r->verified, "yes");
    snprintf(r->version, sizeof r->version, "sprouts 0.1.0 (git abc)");
    snprintf(r->date, sizeof r->date, "2026-11-29");
    snprintf(r->machine, sizeof r->machine, "Some CPU (2 cores)");
    t.row[12].present = 1;
    snprintf(t.row[12].outcome, sizeof t.row[12].outcome, "unsolved");
    t.row[12].nimber = -1;
    ck_assert_int_eq(sp_table_save(&t, dir, err, sizeof err), 0);
    char path[512], line[512];
    path_in(path, sizeof path, "misere.csv");
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    fclose(f);
    /* misère 0*7 is a loss, as predicted (7 mod 6 = 1) */
    ck_assert_str_eq(line, "7,loss,,L,yes,6158,0.070,2,certs/misere-7.cert,442,yes,sprouts 0.1.0 (git abc),"
                           "2026-11-29,Some CPU (2 cores),no\n");
    memset(&back, 0, sizeof back);
    back.misere = 1;
    ck_assert_int_eq(sp_table_load(&back, dir, err, sizeof err), 0);
    ck_assert(back.row[7].present && back.row[12].present && !back.row[8].present);
    ck_assert_str_eq(back.row[7].outcome, "loss");
    ck_assert_uint_eq(back.row[7].cert_facts, 442);
    ck_assert_str_eq(back.row[12].outcome, "unsolved");
    /* the README names a solved size without a checked certificate, and only that one */
    t.row[10] = t.row[7];
    snprintf(t.row[10].outcome, sizeof t.row[10].outcome, "win");
    t.row[10].cert[0] = t.row[10].verified[0] = '\0';
    t.row[21] = t.row[7]; /* nobody has published misère 0*21 */
    t.row[13] = t.row[7];
    snprintf(t.row[13].outcome, sizeof t.row[13].outcome, "win"); /* published a loss (OEIS A164950) */
    sp_table normal;
    memset(&normal, 0, sizeof normal);
    ck_assert_int_eq(sp_table_readme(&normal, &t, NULL, dir, err, sizeof err), 0);
    char readme[512], text[8192];
    path_in(readme, sizeof readme, "README.md");
    f = fopen(readme, "r");
    size_t got = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[got] = '\0';
    ck_assert_ptr_nonnull(strstr(text, "Solved without a checked certificate (the outcome rests on the search alone): "
                                       "n = 10.\n"));
    /* beside the published outcomes: a new size named as such, a disagreement spelled out */
    ck_assert_ptr_nonnull(strstr(text, "**Solved here against the published outcome: n = 13**."));
    ck_assert_ptr_nonnull(strstr(text, "Solved here and never published before (new results): n = 21.\n"));
    ck_assert_ptr_nonnull(strstr(text, "| 7 | loss |  | L | yes | L | 6158 |"));
    ck_assert_ptr_nonnull(strstr(text, "| 13 | win |  | L | no | L **differs** |"));
    ck_assert_ptr_nonnull(strstr(text, "| 21 | loss |  | L | yes | **new** |"));
    /* SPOTS's Table 2 (Cizek, Balko, Schmid 2025): 0*62 a loss, 0*63 open, 0*64 a win; OEIS A164950:
     * misère 0*18 a win, 0*20 a loss, nothing past 20 */
    ck_assert_int_eq(sp_published_outcome(0, 62), 'L');
    ck_assert_int_eq(sp_published_outcome(0, 63), 0);
    ck_assert_int_eq(sp_published_outcome(0, 64), 'W');
    ck_assert_int_eq(sp_published_outcome(0, 106), 0);
    ck_assert_int_eq(sp_published_outcome(1, 18), 'W');
    ck_assert_int_eq(sp_published_outcome(1, 20), 'L');
    ck_assert_int_eq(sp_published_outcome(1, 21), 0);
    ck_assert_int_eq(sp_published_outcome(1, 0), 0);
    /* predictions: normal W iff n mod 6 in {3,4,5}; misère W for 1, L for 4, else W iff n mod 6 in {0,4,5} */
    ck_assert_int_eq(sp_table_prediction(0, 12), 'L');
    ck_assert_int_eq(sp_table_prediction(0, 17), 'W');
    ck_assert_int_eq(sp_table_prediction(1, 1), 'W');
    ck_assert_int_eq(sp_table_prediction(1, 4), 'L');
    ck_assert_int_eq(sp_table_prediction(1, 12), 'W');
    ck_assert_int_eq(sp_table_prediction(1, 13), 'L');
    /* a file this program did not write is refused, not overwritten */
    ck_assert_int_eq(sp_store_write_text(path, "a,b\n1,2\n", 8, err, sizeof err), 0);
    ck_assert_int_eq(sp_table_load(&back, dir, err, sizeof err), -1);
}
END_TEST

/* ---------------------------------------------------------------- certificates */

/* The certificate of 0*n; in misère play from a solver valuing lands up to `lives` (-1: none, 0: the
 * default). */
/* The key of 0*n into key; its length. */
static size_t spots_key(unsigned n, sp_tok *key)
{
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    sp_pos p;
    sp_pos_spots(&p, n);
    size_t len = sp_canon_pos(ctx, &p, key);
    sp_canon_ctx_free(ctx);
    return len;
}

static void build_cert(sp_cert *c, int play, unsigned n, int lives)
{
    sp_tok key[SP_KEY_MAX];
    size_t len = spots_key(n, key);
    sp_solver_opts o = {.tt_bytes = (size_t)32 << 20, .threads = 1, .misere_lives = lives};
    sp_solver *s = sp_solver_new(&o);
    sp_outcome out = sp_solver_outcome(s, key, len, play == SP_CERT_MISERE ? SP_PLAY_MISERE : SP_PLAY_NORMAL);
    ck_assert_int_eq(sp_cert_init(c, play, n, key, len, out == SP_WIN ? SP_CERT_WIN : SP_CERT_LOSS), 0);
    ck_assert_int_eq(sp_certify(c, s, NULL, NULL, 0), 0);
    sp_solver_free(s);
}

static int verified(const sp_cert *c)
{
    sp_verify_result r;
    ck_assert_int_eq(sp_verify(c, 1, NULL, &r), 0);
    return r.ok;
}

/* c saved to DIR/name and loaded back into back: the same facts, land facts and games, and checked. */
static void round_trip(const sp_cert *c, const char *name, sp_cert *back)
{
    char path[512], err[512];
    path_in(path, sizeof path, name);
    ck_assert_int_eq(sp_cert_save(c, path, err, sizeof err), 0);
    ck_assert_int_eq(sp_cert_load(back, path, err, sizeof err), 0);
    ck_assert_uint_eq(back->facts.n, c->facts.n);
    ck_assert_uint_eq(back->lands.n, c->lands.n);
    ck_assert_uint_eq(back->ngames, c->ngames);
    ck_assert(verified(back));
}

START_TEST(verifier_accepts_and_rejects)
{
    char path[512], err[512];
    /* normal play: 0*7 is lost, 0*9 won (Applegate, Jacobson, Sleator) */
    for (unsigned n = 7; n <= 9; n += 2) {
        sp_cert c, back;
        build_cert(&c, SP_CERT_NORMAL, n, 0);
        ck_assert_int_eq(c.outcome, n == 7 ? SP_CERT_LOSS : SP_CERT_WIN);
        ck_assert(verified(&c));
        path_in(path, sizeof path, "c.cert");
        ck_assert_int_eq(sp_cert_save(&c, path, err, sizeof err), 0);
        ck_assert_int_eq(sp_cert_load(&back, path, err, sizeof err), 0);
        ck_assert_uint_eq(back.facts.n, c.facts.n);
        ck_assert(verified(&back));
        /* one flipped entry anywhere makes it fail */
        for (size_t i = 0; i < back.facts.n; i += 1 + back.facts.n / 7) {
            back.k[i] ^= 1;
            ck_assert_msg(!verified(&back), "0*%u with fact %zu flipped passed", n, i);
            back.k[i] ^= 1;
        }
        /* and so does the opposite claim */
        back.outcome ^= 1;
        ck_assert(!verified(&back));
        sp_cert_free(&c);
        sp_cert_free(&back);
    }
}
END_TEST

/* c without its fact `skip`. */
static void copy_without(const sp_cert *c, size_t skip, sp_cert *out)
{
    ck_assert_int_eq(sp_cert_init(out, c->play, c->spots, c->root, c->root_len, c->outcome), 0);
    for (size_t i = 0; i < c->facts.n; i++) {
        size_t len;
        const sp_tok *key = sp_cert_fact(c, i, &len);
        if (i != skip)
            ck_assert_int_ge(sp_cert_add(out, key, len, c->k[i]), 0);
    }
}

static void minimise(const sp_cert *c, uint64_t seed, sp_cert *out)
{
    const sp_cert *db[1] = {c};
    sp_minimise_opts o = {.rounds = 4, .seed = seed, .threads = 1};
    sp_minimise_stats st;
    char why[512];
    ck_assert_int_eq(sp_minimise(db, 1, &o, out, &st, why, sizeof why), 0);
    ck_assert_uint_eq(st.before, c->facts.n);
    ck_assert_uint_eq(st.after, out->facts.n);
}

/* A minimised certificate verifies, with fewer facts, each one of the input's with its nimber; without
 * any one of them it fails; the same seed gives the same facts. A misère one is refused. */
START_TEST(minimised_certificates_need_every_fact)
{
    for (unsigned n = 8; n <= 11; n += 3) {
        sp_cert c, m, again, cut;
        build_cert(&c, SP_CERT_NORMAL, n, 0);
        minimise(&c, 7, &m);
        ck_assert(verified(&m));
        ck_assert_uint_lt(m.facts.n, c.facts.n);
        for (size_t i = 0; i < m.facts.n; i++) {
            size_t len;
            const sp_tok *key = sp_cert_fact(&m, i, &len);
            long f = sp_cert_find(&c, key, len, 0);
            ck_assert(f >= 0 && c.k[f] == m.k[i]);
        }
        for (size_t i = 0; i < m.facts.n; i += 1 + m.facts.n / 9) {
            copy_without(&m, i, &cut);
            ck_assert_msg(!verified(&cut), "0*%u without fact %zu of %zu passed", n, i, m.facts.n);
            sp_cert_free(&cut);
        }
        minimise(&c, 7, &again);
        ck_assert_uint_eq(again.facts.n, m.facts.n);
        for (size_t i = 0; i < m.facts.n; i++) {
            size_t la, lb;
            const sp_tok *a = sp_cert_fact(&m, i, &la), *b = sp_cert_fact(&again, i, &lb);
            ck_assert(la == lb && !memcmp(a, b, la * sizeof *a) && m.k[i] == again.k[i]);
        }
        sp_cert_free(&c);
        sp_cert_free(&m);
        sp_cert_free(&again);
    }
    sp_cert c, out;
    build_cert(&c, SP_CERT_MISERE, 5, 0);
    const sp_cert *db[1] = {&c};
    sp_minimise_opts o = {.rounds = 1};
    sp_minimise_stats st;
    char why[512];
    ck_assert_int_eq(sp_minimise(db, 1, &o, &out, &st, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "normal-play"));
    sp_cert_free(&c);
}
END_TEST

/* A joint minimisation of three sizes is one fact base with two further roots: it verifies, is read
 * back with its roots, and fails when one further root's claim is turned round or a fact is left out;
 * it needs fewer facts than the three certificates together. */
START_TEST(fact_base_of_several_roots)
{
    sp_cert c[3], joint, back, cut;
    const sp_cert *db[3];
    size_t together = 0;
    for (unsigned i = 0; i < 3; i++) {
        build_cert(&c[i], SP_CERT_NORMAL, 7 + i, 0);
        db[i] = &c[i];
        together += c[i].facts.n;
    }
    sp_minimise_opts o = {.rounds = 2, .seed = 3, .threads = 1, .joint = 1};
    sp_minimise_stats st;
    char why[512], path[512];
    ck_assert_int_eq(sp_minimise(db, 3, &o, &joint, &st, why, sizeof why), 0);
    ck_assert_uint_eq(joint.nmore, 2);
    ck_assert_uint_lt(joint.facts.n, together);
    ck_assert(verified(&joint));
    path_in(path, sizeof path, "base.cert");
    ck_assert_int_eq(sp_cert_save(&joint, path, why, sizeof why), 0);
    ck_assert_int_eq(sp_cert_load(&back, path, why, sizeof why), 0);
    ck_assert_uint_eq(back.nmore, 2);
    ck_assert_uint_eq(back.more[1].spots, 9);
    ck_assert(verified(&back));
    back.more[1].outcome ^= 1;
    ck_assert(!verified(&back));
    copy_without(&joint, joint.facts.n / 2, &cut);
    for (size_t i = 0; i < joint.nmore; i++)
        ck_assert_int_eq(sp_cert_add_root(&cut, joint.more[i].spots, joint.more[i].key, joint.more[i].len,
                                          joint.more[i].outcome), 0);
    ck_assert(!verified(&cut));
    for (unsigned i = 0; i < 3; i++)
        sp_cert_free(&c[i]);
    sp_cert_free(&joint), sp_cert_free(&back), sp_cert_free(&cut);
}
END_TEST

/* The certificates of 0*a..0*b of one play joined into a fact base (merge.h). */
static void join(sp_cert *base, int play, unsigned a, unsigned b, int lives)
{
    char why[512];
    for (unsigned n = a; n <= b; n++) {
        sp_cert c;
        build_cert(&c, play, n, lives);
        if (n == a)
            ck_assert_int_eq(sp_cert_base_init(base, &c), 0);
        ck_assert_msg(sp_cert_merge(base, &c, why, sizeof why) == 0, "0*%u: %s", n, why);
        sp_cert_free(&c);
    }
}

/* One root of a fact base minimised alone (--root) from the facts of every size: it verifies with
 * that root and no other, within one of GLOP's published count for 0*6 (43 losing couples); without
 * any one of its facts it fails; the same seed gives the same facts. */
START_TEST(one_root_of_a_fact_base_minimised)
{
    sp_cert base, m, again, cut;
    join(&base, SP_CERT_NORMAL, 4, 9, 0);
    const sp_cert *db[1] = {&base};
    sp_minimise_opts o = {.rounds = 4, .seed = 5, .threads = 1, .root = 6};
    sp_minimise_stats st;
    char why[512];
    ck_assert_int_eq(sp_minimise(db, 1, &o, &m, &st, why, sizeof why), 0);
    ck_assert_uint_eq(m.spots, 6);
    ck_assert_uint_eq(m.nmore, 0);
    ck_assert(verified(&m));
    ck_assert_uint_le(m.facts.n, 44); /* the greedy rounds alone: 50 */
    for (size_t i = 0; i < m.facts.n; i++) {
        copy_without(&m, i, &cut);
        ck_assert_msg(!verified(&cut), "0*6 without fact %zu of %zu passed", i, m.facts.n);
        sp_cert_free(&cut);
    }
    ck_assert_int_eq(sp_minimise(db, 1, &o, &again, &st, why, sizeof why), 0);
    ck_assert_uint_eq(again.facts.n, m.facts.n);
    for (size_t i = 0; i < m.facts.n; i++) {
        size_t la, lb;
        const sp_tok *a = sp_cert_fact(&m, i, &la), *b = sp_cert_fact(&again, i, &lb);
        ck_assert(la == lb && !memcmp(a, b, la * sizeof *a) && m.k[i] == again.k[i]);
    }
    o.root = 3; /* not a root of the base */
    ck_assert_int_eq(sp_minimise(db, 1, &o, &again, &st, why, sizeof why), -1);
    sp_cert_free(&base), sp_cert_free(&m), sp_cert_free(&again);
}
END_TEST

/* Joined certificates prove every root from one set of facts, in both plays, and are written and
 * read back; a root claimed otherwise fails. Outcomes: normal 0*4..0*8 W W L L L, misère 0*1..0*7
 * W L L L W W L (OEIS A164950). The misère base's first root is small: the games of the others'
 * lands last longer than any game from it, and must be allowed (every root counts). */
START_TEST(fact_bases_join_certificates)
{
    char why[512];
    for (int play = SP_CERT_NORMAL; play <= SP_CERT_MISERE; play++) {
        sp_cert base, back, again;
        unsigned first = play == SP_CERT_NORMAL ? 4 : 1, last = play == SP_CERT_NORMAL ? 8 : 7;
        join(&base, play, first, last, 0);
        ck_assert_uint_eq(base.nmore, last - first);
        ck_assert(verified(&base));
        round_trip(&base, "base.cert", &back);
        static const int normal[] = {1, 1, 0, 0, 0}, misere[] = {1, 0, 0, 0, 1, 1, 0};
        for (size_t i = 0; i < back.nmore; i++)
            ck_assert_int_eq(back.more[i].outcome == SP_CERT_WIN,
                             (play == SP_CERT_NORMAL ? normal : misere)[back.more[i].spots - first]);
        back.more[back.nmore - 1].outcome ^= 1;
        ck_assert(!verified(&back));
        back.more[back.nmore - 1].outcome ^= 1;
        /* joining a base to itself adds nothing; joining a land claimed otherwise is refused */
        ck_assert_int_eq(sp_cert_base_init(&again, &back), 0);
        ck_assert_int_eq(sp_cert_merge(&again, &back, why, sizeof why), 0);
        ck_assert_int_eq(sp_cert_merge(&again, &back, why, sizeof why), 0);
        ck_assert_uint_eq(again.facts.n, back.facts.n);
        ck_assert_uint_eq(again.ngames, back.ngames);
        ck_assert(verified(&again));
        if (play == SP_CERT_NORMAL) {
            back.k[0] ^= 1;
            ck_assert_int_eq(sp_cert_merge(&again, &back, why, sizeof why), -1);
            ck_assert_ptr_nonnull(strstr(why, "claimed nimber"));
        } else {
            back.sum_lives++;
            ck_assert_int_eq(sp_cert_merge(&again, &back, why, sizeof why), -1);
            ck_assert_ptr_nonnull(strstr(why, "limits differ"));
        }
        sp_cert_free(&base), sp_cert_free(&back), sp_cert_free(&again);
    }
}
END_TEST

/* Certificates written before the fact bases (forms 0 and 2, as results/certs held them) are read,
 * checked, and join a base that checks: normal 0*6 is lost, misère 0*4 lost (A164950). */
START_TEST(fact_bases_read_older_forms)
{
    char why[512];
    sp_cert old[2], base;
    ck_assert_int_eq(sp_cert_load(&old[0], SP_TEST_DATA_DIR "/normal-6-form0.cert", why, sizeof why), 0);
    ck_assert_int_eq(sp_cert_load(&old[1], SP_TEST_DATA_DIR "/misere-4-form2.cert", why, sizeof why), 0);
    for (int m = 0; m < 2; m++) {
        ck_assert_int_eq(old[m].outcome, SP_CERT_LOSS);
        ck_assert(verified(&old[m]));
        join(&base, m ? SP_CERT_MISERE : SP_CERT_NORMAL, 2, 3, 0);
        ck_assert_msg(sp_cert_merge(&base, &old[m], why, sizeof why) == 0, "%s", why);
        ck_assert_uint_eq(base.nmore, 2);
        ck_assert(verified(&base));
        sp_cert_free(&base);
        sp_cert_free(&old[m]);
    }
}
END_TEST

static void count_reports(void *arg, uint64_t checked, uint64_t items, double seconds)
{
    ck_assert_uint_le(checked, items);
    ck_assert(seconds >= 1.0);
    ++*(unsigned *)arg;
}

/* A check watched by a stop flag ends when the flag is set, saying so (1), and decides nothing; an
 * unset flag changes nothing. */
START_TEST(verifier_stops_when_told)
{
    sp_cert c;
    build_cert(&c, SP_CERT_NORMAL, 9, 0);
    unsigned reports = 0;
    atomic_bool stop = false;
    sp_verify_watch watch = {count_reports, &reports, &stop};
    sp_verify_result r;
    ck_assert_int_eq(sp_verify(&c, 2, &watch, &r), 0);
    ck_assert(r.ok);
    ck_assert_uint_eq(r.facts, c.facts.n);
    atomic_store(&stop, true);
    ck_assert_int_eq(sp_verify(&c, 2, &watch, &r), 1);
    ck_assert(!r.ok);
    sp_cert_free(&c);
}
END_TEST

/* A build with its stop flag set (Ctrl-C in the table run) ends saying so (1) instead of running to
 * the end; the same build unstopped gives a certificate that checks. */
START_TEST(builder_stops_when_told)
{
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    sp_pos p;
    sp_tok key[SP_KEY_MAX];
    sp_pos_spots(&p, 10);
    size_t len = sp_canon_pos(ctx, &p, key);
    sp_canon_ctx_free(ctx);
    sp_solver_opts o = {.tt_bytes = (size_t)32 << 20, .threads = 1};
    sp_solver *s = sp_solver_new(&o);
    ck_assert_int_eq(sp_solver_outcome(s, key, len, SP_PLAY_NORMAL), SP_WIN);
    atomic_bool stop = true;
    sp_cert c;
    char why[256];
    ck_assert_int_eq(sp_cert_init(&c, SP_CERT_NORMAL, 10, key, len, SP_CERT_WIN), 0);
    sp_certify_watch w = {.stop = &stop};
    ck_assert_int_eq(sp_certify(&c, s, &w, why, sizeof why), 1);
    ck_assert_str_eq(why, "stopped");
    sp_cert_free(&c);
    atomic_store(&stop, false);
    ck_assert_int_eq(sp_cert_init(&c, SP_CERT_NORMAL, 10, key, len, SP_CERT_WIN), 0);
    ck_assert_int_eq(sp_certify(&c, s, &w, NULL, 0), 0);
    ck_assert(verified(&c));
    sp_cert_free(&c);
    sp_solver_free(s);
}
END_TEST

/* The keeper of the misère build below: c appended to a file each time (as a table run keeps it in
 * DIR/state), the build stopped after `left` calls. */
typedef struct misere_keeper {
    const char *path;
    sp_cert_mark saved;
    atomic_bool stop;
    unsigned calls, left;
    size_t facts; /* c's facts and land facts at the last call */
} misere_keeper;

static void keep_misere(void *arg, const sp_cert *c, const uint8_t *settled)
{
    misere_keeper *k = arg;
    char err[256];
    ck_assert_ptr_null(settled);
    ck_assert_msg(sp_cert_append(c, k->path, &k->saved, err, sizeof err) == 0, "%s", err);
    k->facts = c->facts.n + c->lands.n;
    if (++k->calls == k->left)
        atomic_store(&k->stop, true);
}

/* Misère 0*10 (a first-player win: Lemoine and Viennot; OEIS A164950) certified by a fresh solver (which searches
 * for the answers), from `kept` (a file a stopped build kept) when not NULL; the nodes searched,
 * and in *facts the facts and land facts of the certificate, which checks. */
static uint64_t certify_misere_10(const char *kept, const sp_certify_watch *w, int want, size_t *facts)
{
    sp_tok key[SP_KEY_MAX];
    size_t len = spots_key(10, key);
    sp_solver_opts o = {.tt_bytes = (size_t)32 << 20, .threads = 1};
    sp_solver *s = sp_solver_new(&o);
    sp_solver_stats st;
    sp_cert c;
    char why[256];
    if (kept)
        ck_assert_msg(sp_cert_load(&c, kept, why, sizeof why) == 0, "%s", why);
    else
        ck_assert_int_eq(sp_cert_init(&c, SP_CERT_MISERE, 10, key, len, SP_CERT_WIN), 0);
    ck_assert_msg(sp_certify(&c, s, w, why, sizeof why) == want, "%s", why);
    sp_solver_stats_get(s, &st);
    if (want == 0)
        ck_assert(verified(&c));
    *facts = c.facts.n + c.lands.n;
    sp_cert_free(&c);
    sp_solver_free(s);
    return st.nodes;
}

/* What a watcher hears of the answers of each misère fact: 0 of n, 1 of n, ... n of n, then 0 of 0. */
typedef struct answer_count {
    size_t facts, answers, at, of;
    bool out_of_turn;
} answer_count;

static void count_answers(void *arg, size_t done, size_t of)
{
    answer_count *a = arg;
    if (of == 0) {
        a->out_of_turn |= done != 0 || a->at != a->of;
        a->facts++;
    } else {
        a->out_of_turn |= done != (done ? a->at + 1 : 0) || (done && of != a->of);
        a->answers += done > 0;
    }
    a->at = done;
    a->of = of;
}

/* The answers of each misère fact are counted to the watcher as they are made (the progress line of
 * a fact of long answers says how far it is): misère 0*10 from a cold solver. */
START_TEST(misere_answers_counted)
{
    answer_count a = {0};
    sp_certify_watch w = {.answered = count_answers, .arg = &a};
    size_t facts;
    certify_misere_10(NULL, &w, 0, &facts);
    ck_assert(!a.out_of_turn);
    ck_assert_uint_gt(a.facts, 10);
    ck_assert_uint_le(a.facts, facts);
    ck_assert_uint_ge(a.answers, 2 * a.facts); /* a lost position of 0*10's play has moves */
    ck_assert_uint_eq(a.of, 0);
}
END_TEST

/* A misère build hands over its certificate as it stands, and a build given it again goes on from
 * there: 0*10 kept before each fact and stopped after 400, then built from the file by a fresh
 * solver, checks, holds every kept fact, and searches less than a whole build (the answers kept
 * are not searched for again); a solver that sums other lands refuses the kept build; one whose game
 * table fills says so (2) and hands over what it built. */
START_TEST(stopped_misere_build_goes_on)
{
    char path[512];
    path_in(path, sizeof path, "misere-cert-10.chunks");
    size_t whole_facts, kept_facts, facts;
    uint64_t whole = certify_misere_10(NULL, NULL, 0, &whole_facts);
    misere_keeper k = {.path = path, .left = 400};
    sp_certify_watch w = {.keep = keep_misere, .arg = &k, .stop = &k.stop};
    certify_misere_10(NULL, &w, 1, &kept_facts);
    ck_assert_uint_gt(k.calls, 400); /* the fact in hand goes on to its end, and c is kept as it stops */
    ck_assert_uint_ge(k.facts, 100); /* the build had gone some way */
    uint64_t rest = certify_misere_10(path, NULL, 0, &facts);
    ck_assert_uint_ge(facts, kept_facts);
    ck_assert_msg(facts <= whole_facts + whole_facts / 10, "%zu facts, %zu in a whole build", facts, whole_facts);
    ck_assert_msg(2 * rest <= whole, "%llu nodes searched again, %llu in a whole build", (unsigned long long)rest,
                  (unsigned long long)whole);
    sp_cert c;
    char why[256];
    ck_assert_msg(sp_cert_load(&c, path, why, sizeof why) == 0, "%s", why);
    ck_assert_uint_eq(c.facts.n + c.lands.n, kept_facts); /* the file holds the build as it stopped */
    sp_tok key[SP_KEY_MAX];
    size_t len = spots_key(10, key);
    sp_solver_opts o = {.tt_bytes = (size_t)32 << 20, .threads = 1, .misere_lives = 3};
    sp_solver *s = sp_solver_new(&o);
    ck_assert_int_eq(sp_solver_outcome(s, key, len, SP_PLAY_MISERE), SP_WIN);
    ck_assert_int_eq(sp_certify(&c, s, NULL, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "summed other lands"));
    sp_solver_free(s);
    sp_cert_free(&c);
    /* a game table too small: out of room (2), and what was built is handed over as the build ends */
    ck_assert_msg(sp_cert_load(&c, path, why, sizeof why) == 0, "%s", why);
    o = (sp_solver_opts){.tt_bytes = (size_t)32 << 20, .threads = 1, .game_bytes = (size_t)1 << 18};
    s = sp_solver_new(&o);
    misere_keeper small = {.path = path};
    sp_cert_mark_all(&c, &small.saved);
    w = (sp_certify_watch){.keep = keep_misere, .arg = &small, .stop = &small.stop, .keep_seconds = 1e9};
    ck_assert_msg(sp_certify(&c, s, &w, why, sizeof why) == 2, "%s", why);
    ck_assert_ptr_nonnull(strstr(why, "game table is full (give it more memory: --game-mb)"));
    ck_assert_uint_eq(small.calls, 1);
    ck_assert_uint_gt(small.facts, kept_facts);
    sp_solver_free(s);
    sp_cert_free(&c);
    certify_misere_10(path, NULL, 0, &facts); /* a solver with room goes on to a certificate that checks */
}
END_TEST

/* A copy of c (games, land facts, facts) with the outcome claimed for the player to move. */
static void copy_cert(sp_cert *to, const sp_cert *c, int outcome)
{
    ck_assert_int_eq(sp_cert_init(to, c->play, c->spots, c->root, c->root_len, outcome), 0);
    to->value_lives = c->value_lives;
    to->sum_lives = c->sum_lives;
    to->sum_birthday = c->sum_birthday;
    for (uint32_t g = 0; g < c->ngames; g++)
        ck_assert_int_ge(sp_cert_add_game(to, c->game_opts + c->game_first[g], c->game_first[g + 1] - c->game_first[g]), 0);
    for (size_t i = 0; i < c->lands.n; i++)
        ck_assert_int_ge(sp_cert_add_land(to, c->lands.tok + c->lands.off[i], c->lands.len[i], c->land_game[i]), 0);
    for (size_t i = 0; i < c->facts.n; i++) {
        size_t len;
        const sp_tok *key = sp_cert_fact(c, i, &len);
        ck_assert_int_ge(sp_cert_add(to, key, len, c->k[i]), 0);
    }
}

START_TEST(verifier_misere)
{
    /* misère: 0*5 is won, 0*7 and 0*8 lost (OEIS A164950), with lands valued (the default) and as
     * whole positions (lives -1) */
    static const int lives[] = {0, -1};
    for (int l = 0; l < 2; l++)
        for (unsigned n = 5; n <= 8; n += 1 + (n == 5)) {
            sp_cert c, back, bad;
            build_cert(&c, SP_CERT_MISERE, n, lives[l]);
            ck_assert_int_eq(c.outcome, n == 5 ? SP_CERT_WIN : SP_CERT_LOSS);
            ck_assert_uint_eq(c.value_lives, l == 0 ? 10 : 0); /* the default misere_lives */
            ck_assert(l == 1 || (c.lands.n > 0 && c.ngames > 1));
            ck_assert(verified(&c));
            round_trip(&c, "m.cert", &back);
            /* a land fact given another game fails (distinct games of the list are distinct) */
            for (size_t i = 0; i < back.lands.n; i += 1 + back.lands.n / 5) {
                uint32_t was = back.land_game[i];
                back.land_game[i] = (was + 1) % back.ngames;
                ck_assert_msg(!verified(&back), "0*%u with land fact %zu changed passed", n, i);
                back.land_game[i] = was;
            }
            /* a fact beside another game fails: the claimed loss is then not proven */
            for (size_t i = 0; l == 0 && i < back.facts.n; i += 1 + back.facts.n / 5) {
                uint32_t was = back.k[i];
                back.k[i] = (was + 1) % back.ngames;
                sp_cert moved;
                copy_cert(&moved, &back, back.outcome);
                back.k[i] = was;
                ck_assert_msg(!verified(&moved), "0*%u with fact %zu moved passed", n, i);
                sp_cert_free(&moved);
            }
            /* a game that lasts longer than any game from the root (*40, Nim heaps being their own
             * simplest forms) is refused before any sum recurses into it */
            if (l == 0) {
                copy_cert(&bad, &c, c.outcome);
                uint32_t heap[41];
                for (unsigned h = 0; h <= 40; h++)
                    heap[h] = (uint32_t)sp_cert_add_game(&bad, heap, h);
                sp_verify_result r;
                ck_assert_int_eq(sp_verify(&bad, 1, NULL, &r), 0);
                ck_assert(!r.ok && strstr(r.reason, "lasts longer"));
                sp_cert_free(&bad);
            }
            /* the opposite claim fails, even with the root added as a claimed loss */
            copy_cert(&bad, &c, c.outcome ^ 1);
            ck_assert(!verified(&bad));
            if (c.outcome == SP_CERT_WIN) {
                ck_assert_int_ge(sp_cert_add(&bad, c.root, c.root_len, 0), 0);
                ck_assert(!verified(&bad));
            }
            sp_cert_free(&bad);
            sp_cert_free(&back);
            sp_cert_free(&c);
        }
}
END_TEST

/* A misère certificate of the first format (whole positions, written by an earlier version) is still
 * read and checked: 0*5 is a misère win (OEIS A164950). */
START_TEST(verifier_reads_whole_position_certificates)
{
    char err[512];
    sp_cert c;
    ck_assert_int_eq(sp_cert_load(&c, SP_TEST_DATA_DIR "/misere-5-whole-positions.cert", err, sizeof err), 0);
    ck_assert_int_eq(c.play, SP_CERT_MISERE);
    ck_assert_int_eq(c.outcome, SP_CERT_WIN);
    ck_assert_uint_eq(c.value_lives, 0);
    ck_assert_uint_eq(c.lands.n, 0);
    ck_assert_uint_gt(c.facts.n, 0);
    ck_assert(verified(&c));
    c.outcome = SP_CERT_LOSS;
    ck_assert(!verified(&c));
    sp_cert_free(&c);
}
END_TEST

/* Conway (On Numbers and Games, ch. 12): 1, 2, 3, 5, 22 distinct misère games are born by day 0..4.
 * The checker's games must count exactly so many: every simplification there is found, none wrong. */
START_TEST(checker_games_conway_counts)
{
    static const unsigned want[] = {1, 2, 3, 5, 22};
    sp_vg *t = sp_vg_new();
    uint32_t day[32] = {0}, next[32];
    unsigned n = 1;
    for (unsigned d = 1; d <= 4; d++) {
        unsigned m = 0;
        for (uint32_t set = 0; set < (1u << n); set++) {
            uint32_t o[32];
            size_t k = 0;
            for (unsigned i = 0; i < n; i++)
                if (set >> i & 1)
                    o[k++] = day[i];
            uint32_t g = sp_vg_make(t, o, k);
            unsigned i = 0;
            while (i < m && next[i] != g)
                i++;
            if (i == m)
                next[m++] = g;
        }
        ck_assert_uint_eq(m, want[d]);
        memcpy(day, next, m * sizeof *day);
        n = m;
    }
    ck_assert_uint_eq(sp_vg_count(t), 22);
    sp_vg_free(t);
}
END_TEST

/* Bouton's misère Nim: the player to move wins iff some heap exceeds 1 and the XOR is not 0, or every
 * heap is at most 1 and the XOR is 0. The checker's sums and outcomes on three heaps up to 5. */
START_TEST(checker_games_misere_nim)
{
    sp_vg *t = sp_vg_new();
    uint32_t heap[6];
    for (unsigned h = 0; h < 6; h++)
        heap[h] = sp_vg_make(t, heap, h); /* *h = {*0, ..., *(h-1)} */
    for (unsigned a = 0; a < 6; a++)
        for (unsigned b = 0; b < 6; b++)
            for (unsigned c = 0; c < 6; c++) {
                bool big = a > 1 || b > 1 || c > 1, wins = big ? (a ^ b ^ c) != 0 : (a ^ b ^ c) == 0;
                uint32_t g = sp_vg_add(t, sp_vg_add(t, heap[a], heap[b]), heap[c]);
                ck_assert_msg(sp_vg_wins(t, g) == wins, "*%u + *%u + *%u", a, b, c);
            }
    /* *1 + *1 = 0 in misère play too, but *2 + *2 is not 0 (it is lost, 0 is won) */
    ck_assert_uint_eq(sp_vg_add(t, heap[1], heap[1]), 0);
    ck_assert_uint_ne(sp_vg_add(t, heap[2], heap[2]), 0);
    sp_vg_free(t);
}
END_TEST

/* ---------------------------------------------------------------- a killed run, resumed */

/* Runs the program with argv, quietly; with child, returns at once (its pid there), else its exit
 * status. */
static int run_quiet(char *const argv[], pid_t *child)
{
    pid_t pid = fork();
    if (pid == 0) {
        freopen("/dev/null", "w", stdout);
        freopen("/dev/null", "w", stderr);
        execv(argv[0], argv);
        _exit(127);
    }
    if (child) {
        *child = pid;
        return 0;
    }
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int run_table(const char *out, int resume, pid_t *child)
{
    char *argv[12] = {(char *)sp_test_program, "table", "--from", "1", "--to", "8", "--tt-mb", "32",
                      "--out", (char *)out, resume ? "--resume" : "--quiet", NULL};
    return run_quiet(argv, child);
}

/* The columns that are results (not timings or provenance) of a CSV, joined. */
static void results_of(const char *csv, char *out, size_t cap)
{
    FILE *f = fopen(csv, "r");
    char line[1024];
    out[0] = '\0';
    ck_assert_ptr_nonnull(f);
    while (fgets(line, sizeof line, f)) {
        char *field[14];
        int n = 0;
        for (char *p = line; p && n < 14; n++) { /* empty fields count */
            field[n] = p;
            p = strchr(p, ',');
            if (p)
                *p++ = '\0';
        }
        ck_assert_int_ge(n, 5);
        snprintf(out + strlen(out), cap - strlen(out), "%s %s %s %s %s;", field[0], field[1], field[2], field[3],
                 field[4]);
    }
    fclose(f);
}

START_TEST(killed_run_resumes_to_the_same_tables)
{
    char full[512], killed[512], a[4096], b[4096], csv[600];
    path_in(full, sizeof full, "full");
    path_in(killed, sizeof killed, "killed");
    ck_assert_int_eq(run_table(full, 0, NULL), 0);
    /* kill runs at several moments, resuming each time, until one finishes */
    int finished = 0;
    for (int attempt = 0; attempt < 40 && !finished; attempt++) {
        pid_t pid;
        run_table(killed, attempt > 0, &pid);
        usleep((useconds_t)(20000 + 15000 * attempt));
        kill(pid, SIGKILL);
        int status;
        waitpid(pid, &status, 0);
        finished = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    ck_assert_int_eq(run_table(killed, 1, NULL), 0);
    const char *files[2] = {"normal.csv", "misere.csv"};
    for (int i = 0; i < 2; i++) {
        snprintf(csv, sizeof csv, "%s/%s", full, files[i]);
        results_of(csv, a, sizeof a);
        snprintf(csv, sizeof csv, "%s/%s", killed, files[i]);
        results_of(csv, b, sizeof b);
        ck_assert_str_eq(a, b);
    }
    ck_assert_ptr_nonnull(strstr(a, "8 loss  L yes;")); /* misère 0*8 */
}
END_TEST

/* Nodes of the row of 0*14 in DIR/normal.csv (-1: no such row). */
static long nodes_of_14(const char *dir)
{
    char path[600], line[1024];
    snprintf(path, sizeof path, "%s/normal.csv", dir);
    FILE *f = fopen(path, "r");
    long nodes = -1;
    while (f && fgets(line, sizeof line, f)) {
        char *field[8];
        int n = 0;
        for (char *p = line; p && n < 8; n++) {
            field[n] = p;
            p = strchr(p, ',');
            if (p)
                *p++ = '\0';
        }
        if (n >= 6 && !strcmp(field[0], "14"))
            nodes = atol(field[5]);
    }
    if (f)
        fclose(f);
    return nodes;
}

static int run_14(const char *out, int resume, pid_t *child)
{
    char *argv[] = {(char *)sp_test_program, "table", "--play", "normal", "--from", "14", "--to", "14",
                    "--tt-mb", "32", "--threads", "1", "--quiet", "--out", (char *)out, resume ? "--resume" : NULL,
                    NULL};
    return run_quiet(argv, child);
}

typedef struct loaded {
    sp_children *lands;
    uint32_t *nimbers;
    size_t cap;
} loaded;

static int load_one(void *arg, const sp_tok *key, size_t len, uint32_t nimber)
{
    loaded *l = arg;
    SP_CHECK(sp_children_add(l->lands, key, len) == 1); /* per land: no mark (testutil.h) */
    SP_CHECK(sp_grow((void **)&l->nimbers, &l->cap, l->lands->n, sizeof *l->nimbers) == 0);
    l->nimbers[l->lands->n - 1] = nimber;
    return 0;
}

/* The lands of DIR/state/nimbers.chunks (keys in a list, nimbers beside them, each land once); false
 * when absent. */
static bool load_nimbers(const char *dir, sp_children *lands, uint32_t **nimbers)
{
    char path[600], err[1024];
    snprintf(path, sizeof path, "%s/state/nimbers.chunks", dir);
    if (access(path, F_OK))
        return false;
    loaded l = {lands, NULL, 0};
    sp_chunks_info info;
    ck_assert_msg(sp_chunks_read(path, SP_CHUNKS_NIMBERS, load_one, &l, &info, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(info.warning, "");
    *nimbers = l.nimbers;
    return true;
}

/* A run stopped by Ctrl-C in the middle of its first size keeps the land nimbers it had proven: each
 * is one that the whole run proves too, with the same nimber (both runs are one thread, the same
 * search until the stop), and the size's row as unsolved with its work. Resumed, the run gets the
 * same outcome, the row the work of both attempts. */
START_TEST(ctrl_c_keeps_the_nimbers_proven)
{
    char fresh[512], stopped[512];
    path_in(fresh, sizeof fresh, "fresh");
    path_in(stopped, sizeof stopped, "stopped");
    double t0 = sp_clock_now();
    ck_assert_int_eq(run_14(fresh, 0, NULL), 0);
    double took = sp_clock_now() - t0;
    ck_assert_int_gt(nodes_of_14(fresh), 10000);
    pid_t pid;
    run_14(stopped, 0, &pid);
    usleep((useconds_t)(took / 4 * 1e6)); /* in the search, most likely */
    kill(pid, SIGINT);
    int status;
    waitpid(pid, &status, 0);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 1); /* stopped before the end */
    long so_far = nodes_of_14(stopped); /* the row: unsolved, with the work of the stopped search */
    ck_assert_int_gt(so_far, 0);
    sp_children all, kept;
    uint32_t *all_v, *kept_v;
    sp_children_init(&all);
    sp_children_init(&kept);
    ck_assert(load_nimbers(fresh, &all, &all_v));
    ck_assert_msg(load_nimbers(stopped, &kept, &kept_v), "the stopped run saved no nimbers");
    ck_assert_uint_ge(kept.n, 100);
    ck_assert_uint_le(kept.n, all.n);
    for (size_t i = 0; i < kept.n; i++) {
        long j = sp_children_find(&all, kept.tok + kept.off[i], kept.len[i]);
        ck_assert_msg(j >= 0 && all_v[j] == kept_v[i], "kept land %zu: not proven so by the whole run", i);
    }
    sp_children_free(&all);
    sp_children_free(&kept);
    free(all_v);
    free(kept_v);
    ck_assert_int_eq(run_14(stopped, 1, NULL), 0);
    ck_assert_int_gt(nodes_of_14(stopped), so_far); /* both attempts */
}
END_TEST

enum { SAVED_LANDS = 200000 }; /* more than a store of 16 MiB holds (131,072) */

static int run_small(const char *out, const char *nim_mb)
{
    char *argv[] = {(char *)sp_test_program, "table", "--play", "normal", "--from", "1", "--to", "3",
                    "--tt-mb", "32", "--threads", "1", "--quiet", "--resume", "--out", (char *)out,
                    nim_mb ? "--nim-mb" : NULL, (char *)nim_mb, NULL};
    return run_quiet(argv, NULL);
}

/* How many of the made-up lands DIR/state/nimbers.chunks holds, each with nimber i % 7. */
static size_t saved_lands_kept(const char *out)
{
    sp_children lands;
    uint32_t *v;
    sp_children_init(&lands);
    ck_assert(load_nimbers(out, &lands, &v));
    size_t kept = 0;
    for (uint32_t i = 0; i < SAVED_LANDS; i++) {
        sp_tok key[5];
        long j = sp_children_find(&lands, key, sp_test_numbered_land(i, key));
        kept += j >= 0 && v[j] == i % 7;
    }
    sp_children_free(&lands);
    free(v);
    return kept;
}

/* Resumed beside an older store file (the earlier format: plain, any order) of more land nimbers than
 * the nimber store's default budget holds, a run makes the budget large enough, writes them all into
 * the chunk file and removes the old store (before, the store kept the first 131,072 and the run
 * saved only those: the others were lost); a budget set too small for them is refused before
 * anything is searched or written, the old store left as it was. */
START_TEST(resume_keeps_every_saved_nimber)
{
    char out[512], state[600], store[700], chunks[700], csv[700], err[512];
    path_in(out, sizeof out, "big");
    snprintf(state, sizeof state, "%s/state", out);
    ck_assert_int_eq(mkdir(out, 0755), 0);
    ck_assert_int_eq(mkdir(state, 0755), 0);
    sp_buf b = {0};
    for (uint32_t i = 0; i < SAVED_LANDS; i++) {
        sp_tok key[5];
        sp_keylist_put(&b, key, sp_test_numbered_land(i, key), i % 7);
    }
    ck_assert(!b.failed);
    snprintf(store, sizeof store, "%s/nimbers.store", state);
    snprintf(chunks, sizeof chunks, "%s/nimbers.chunks", state);
    snprintf(csv, sizeof csv, "%s/normal.csv", out);
    ck_assert_int_eq(sp_store_write(store, SP_STORE_NIMBERS, b.data, b.len, err, sizeof err), 0);
    sp_buf_free(&b);
    size_t size = file_size(store);
    ck_assert_int_eq(run_small(out, "16"), 2);
    ck_assert_uint_eq(file_size(store), size);
    ck_assert_int_ne(access(chunks, F_OK), 0);
    ck_assert_uint_eq(file_size(csv), 0); /* nothing solved */
    ck_assert_int_eq(run_small(out, NULL), 0);
    ck_assert_uint_eq(saved_lands_kept(out), SAVED_LANDS);
    ck_assert_int_ne(access(store, F_OK), 0);
    ck_assert_uint_gt(file_size(csv), 0);
}
END_TEST

/* A size that runs out of its time limit is recorded as unsolved, and the run goes on to the next
 * one, which gets a time limit of its own. */
START_TEST(time_limit_leaves_sizes_unsolved)
{
    char out[512], csv[600], rows[4096];
    path_in(out, sizeof out, "limited");
    char *argv[] = {(char *)sp_test_program, "table", "--play", "normal", "--from", "30", "--to", "31",
                    "--time-limit", "1", "--tt-mb", "32", "--threads", "1", "--quiet", "--out", out, NULL};
    double t0 = sp_clock_now();
    ck_assert_int_eq(run_quiet(argv, NULL), 0);
    ck_assert_double_lt(sp_clock_now() - t0, 60.0);
    snprintf(csv, sizeof csv, "%s/normal.csv", out);
    results_of(csv, rows, sizeof rows);
    ck_assert_ptr_nonnull(strstr(rows, "30 unsolved"));
    ck_assert_ptr_nonnull(strstr(rows, "31 unsolved"));
}
END_TEST

/* ---------------------------------------------------------------- chunk files */

/* Appends a chunk of the made-up lands from .. to - 1, land i with the value i % 7 + plus. */
static void append_lands(const char *path, uint32_t from, uint32_t to, uint32_t plus)
{
    size_t n = to - from;
    sp_tok(*keys)[5] = malloc((n + 1) * sizeof *keys);
    sp_keylist_ref *refs = malloc((n + 1) * sizeof *refs);
    ck_assert(keys && refs);
    for (uint32_t i = 0; i < n; i++)
        refs[i] = (sp_keylist_ref){keys[i], (uint32_t)sp_test_numbered_land(from + i, keys[i]), (from + i) % 7 + plus};
    sp_buf b = {0};
    sp_keylist_put_sorted(&b, refs, n);
    ck_assert(!b.failed);
    char err[1024];
    ck_assert_msg(sp_chunks_append(path, SP_CHUNKS_NIMBERS, b.data, b.len, n, NULL, err, sizeof err) == 0, "%s", err);
    sp_buf_free(&b);
    free(refs);
    free(keys);
}

/* The made-up lands 0 .. n - 1 a chunk file gives, each counted in seen; bad counts the entries that
 * are none of them or have another value than i % 7. */
typedef struct lands_seen {
    uint32_t n;
    uint8_t *seen;
    uint64_t bad;
} lands_seen;

static int see_land(void *arg, const sp_tok *key, size_t len, uint32_t value)
{
    lands_seen *ls = arg;
    uint32_t i = sp_test_land_number(key, len);
    if (i >= ls->n || value != i % 7)
        ls->bad++;
    else
        ls->seen[i]++;
    return 0;
}

/* How many of the lands 0 .. n - 1 the file holds (each once, with the value i % 7, and nothing else),
 * or -1 when it is refused (the reason in err). */
static long read_lands(const char *path, uint32_t n, sp_chunks_info *info, char err[1024])
{
    lands_seen ls = {n, calloc(n, 1), 0};
    int rc = sp_chunks_read(path, SP_CHUNKS_NIMBERS, see_land, &ls, info, err, 1024);
    long kept = 0;
    for (uint32_t i = 0; i < n; i++) {
        ck_assert_uint_le(ls.seen[i], 1);
        kept += ls.seen[i];
    }
    free(ls.seen);
    ck_assert_uint_eq(ls.bad, 0);
    return rc ? -1 : kept;
}

/* The whole of a file (malloc'ed), its length in *len. */
static uint8_t *file_bytes(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    *len = file_size(path);
    uint8_t *data = malloc(*len + 1);
    ck_assert_uint_eq(fread(data, 1, *len, f), *len);
    fclose(f);
    data[*len] = 0; /* text can be searched */
    return data;
}

/* Segment i (from 1) of the chunk file at path. */
static const char *segment_of(const char *path, unsigned i, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s.%u", path, i);
    return buf;
}

/* How many files the chunk file at path has: itself and its segments. */
static unsigned files_of(const char *path)
{
    char seg[800];
    unsigned n = 1;
    while (access(segment_of(path, n, seg, sizeof seg), F_OK) == 0)
        n++;
    return n;
}

/* Removes the segments of the chunk file at path. */
static void drop_segments(const char *path)
{
    char seg[800];
    for (unsigned i = 1; unlink(segment_of(path, i, seg, sizeof seg)) == 0; i++)
        ;
}

/* Writes the file path, its segments left as they are. */
static void put_bytes(const char *path, const uint8_t *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, len, f), len);
    fclose(f);
}

/* Writes path as a lone file (its segments removed). */
static void write_bytes(const char *path, const uint8_t *data, size_t len)
{
    drop_segments(path);
    put_bytes(path, data, len);
}

/* The bytes of a chunk file and of its segments after it, joined (malloc'ed), each segment without
 * its first `skip` bytes. */
static uint8_t *joined(const char *path, size_t *len, size_t skip)
{
    uint8_t *all = file_bytes(path, len);
    char seg[800];
    for (unsigned i = 1; access(segment_of(path, i, seg, sizeof seg), F_OK) == 0; i++) {
        size_t n;
        uint8_t *more = file_bytes(seg, &n);
        ck_assert_uint_gt(n, skip);
        all = realloc(all, *len + n - skip + 1);
        memcpy(all + *len, more + skip, n - skip + 1);
        *len += n - skip;
        free(more);
    }
    return all;
}

static uint8_t *all_bytes(const char *path, size_t *len)
{
    return joined(path, len, 0);
}

/* The chunk file at path and its segments made one file, as appends into the file itself wrote
 * them before segments: each segment's chunks without its file header (16 bytes). */
static void join_segments(const char *path)
{
    size_t len;
    uint8_t *one = joined(path, &len, 16);
    write_bytes(path, one, len);
    free(one);
}

/* A file of three chunks in one file (the form appends wrote before segments), lands 0..99,
 * 100..249, 250..299; ends[i]: where chunk i + 1 ends. */
static void three_chunks(const char *path, size_t ends[3])
{
    unlink(path);
    drop_segments(path);
    char seg[800];
    append_lands(path, 0, 100, 0);
    ends[0] = file_size(path);
    append_lands(path, 100, 250, 0);
    ends[1] = ends[0] + file_size(segment_of(path, 1, seg, sizeof seg)) - 16;
    append_lands(path, 250, 300, 0);
    join_segments(path);
    ends[2] = file_size(path);
}

/* Appends read back: every entry of every chunk, in order; each append is a new segment and leaves
 * the files before it as they were. The older form (appends into the file itself) reads the same.
 * Another kind, another version and another file are refused. */
START_TEST(chunks_round_trip)
{
    char path[512], err[1024];
    path_in(path, sizeof path, "x.chunks");
    size_t ends[3], len;
    char seg[800];
    append_lands(path, 0, 100, 0);
    uint8_t *one = file_bytes(path, &len);
    append_lands(path, 100, 250, 0);
    size_t seg_len;
    uint8_t *two = file_bytes(segment_of(path, 1, seg, sizeof seg), &seg_len);
    append_lands(path, 250, 300, 0);
    size_t now, all;
    uint8_t *after = file_bytes(path, &now), *seg_after = file_bytes(seg, &all);
    ck_assert(now == len && !memcmp(one, after, len));
    ck_assert(all == seg_len && !memcmp(two, seg_after, all));
    ck_assert_uint_gt(file_size(segment_of(path, 2, seg, sizeof seg)), 16);
    all = sp_chunks_size(path);
    sp_chunks_info info;
    ck_assert_int_eq(read_lands(path, 300, &info, err), 300);
    ck_assert_uint_eq(info.kind, SP_CHUNKS_NIMBERS);
    ck_assert_uint_eq(info.chunks, 3);
    ck_assert_uint_eq(info.segments, 3);
    ck_assert_uint_eq(info.entries, 300);
    ck_assert_uint_eq(info.end, all);
    ck_assert_uint_eq(info.torn, 0);
    ck_assert_str_eq(info.warning, "");
    three_chunks(path, ends); /* the same chunks again, in one file */
    ck_assert_uint_eq(ends[2], all - 2 * 16);
    ck_assert_int_eq(read_lands(path, 300, &info, err), 300);
    ck_assert_uint_eq(info.segments, 1);
    ck_assert_uint_eq(info.end, ends[2]);
    ck_assert_int_eq(sp_chunks_read(path, SP_CHUNKS_PROVEN, see_land, NULL, &info, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "expected one of misere proven positions"));
    flip_byte(path, 9); /* the file's format version follows its 8-byte magic */
    ck_assert_int_eq(read_lands(path, 300, &info, err), -1);
    ck_assert_ptr_nonnull(strstr(err, "version"));
    ck_assert_int_eq(sp_store_write_text(path, "n,outcome\n", 10, err, sizeof err), 0);
    ck_assert_int_eq(read_lands(path, 300, &info, err), -1);
    ck_assert_ptr_nonnull(strstr(err, "not a sprouts chunk file"));
    free(one), free(two), free(after), free(seg_after);
}
END_TEST

/* A last chunk cut short anywhere (an append into the file itself killed part way), or failing its
 * checksums, is left out with a warning and the chunks before it kept; the next append cuts it off
 * and the file is whole again. A torn chunk with a segment after it is corruption. */
START_TEST(chunks_torn_last_chunk_is_left_out)
{
    char path[512], err[1024];
    path_in(path, sizeof path, "torn.chunks");
    size_t ends[3], len;
    three_chunks(path, ends);
    uint8_t *whole = file_bytes(path, &len);
    size_t last = ends[2] - ends[1];
    size_t cuts[] = {1, 8, 40, 63, 64, 65, 70, last / 2, last - 1};
    for (size_t c = 0; c < sizeof cuts / sizeof *cuts; c++) {
        write_bytes(path, whole, ends[1] + cuts[c]);
        sp_chunks_info info;
        ck_assert_int_eq(read_lands(path, 300, &info, err), 250);
        ck_assert_uint_eq(info.chunks, 2);
        ck_assert_uint_eq(info.end, ends[1]);
        ck_assert_uint_eq(info.torn, cuts[c]);
        ck_assert_ptr_nonnull(strstr(info.warning, "chunk 3, the last"));
        ck_assert_ptr_null(strchr(info.warning, '\n'));
        append_lands(path, 300, 310, 0);
        size_t now;
        uint8_t *after = file_bytes(path, &now);
        ck_assert(now == ends[1] && !memcmp(after, whole, ends[1]));
        free(after);
        ck_assert_int_eq(read_lands(path, 310, &info, err), 260);
        ck_assert_uint_eq(info.chunks, 3);
        ck_assert_uint_eq(info.torn, 0);
        ck_assert_uint_eq(info.end, sp_chunks_size(path));
        if (c == 0) { /* cut the first file again: its segment follows a torn chunk */
            put_bytes(path, whole, ends[1] + 1);
            ck_assert_int_eq(read_lands(path, 310, &info, err), -1);
            ck_assert_msg(strstr(err, "corrupt") && !strchr(err, '\n') && !strncmp(err, path, strlen(path)), "%s", err);
        }
    }
    long flips[] = {(long)ends[1] + 20, (long)ends[2] - 5}; /* in its header, in its data */
    for (unsigned f = 0; f < 2; f++) {
        write_bytes(path, whole, len);
        flip_byte(path, flips[f]);
        sp_chunks_info info;
        ck_assert_int_eq(read_lands(path, 300, &info, err), 250);
        ck_assert_uint_eq(info.torn, last);
    }
    free(whole);
}
END_TEST

/* A bad chunk with good ones after it is corruption: the file is refused (one line), by the reader
 * and by an append, which writes nothing. */
START_TEST(chunks_corrupt_middle_is_refused)
{
    char path[512], err[1024];
    path_in(path, sizeof path, "bad.chunks");
    size_t ends[3];
    long flips[] = {(long)16 + 3, (long)16 + 40, 0, 0, 0};
    three_chunks(path, ends);
    flips[2] = (long)ends[0] + 20;  /* chunk 2's header */
    flips[3] = (long)ends[1] - 5;   /* chunk 2's data */
    flips[4] = (long)ends[0] - 1;   /* the last byte of chunk 1 */
    for (unsigned f = 0; f < sizeof flips / sizeof *flips; f++) {
        three_chunks(path, ends);
        flip_byte(path, flips[f]);
        sp_chunks_info info;
        ck_assert_int_eq(read_lands(path, 300, &info, err), -1);
        ck_assert_msg(strstr(err, "corrupt") != NULL, "flip at %ld: %s", flips[f], err);
        ck_assert_ptr_null(strchr(err, '\n'));
        sp_buf b = {0};
        ck_assert_int_eq(sp_chunks_append(path, SP_CHUNKS_NIMBERS, b.data, 0, 0, NULL, err, sizeof err), -1);
        char seg[800];
        ck_assert_uint_eq(file_size(path), ends[2]);
        ck_assert_int_ne(access(segment_of(path, 1, seg, sizeof seg), F_OK), 0);
    }
}
END_TEST

/* Compaction leaves one chunk of the same entries, each once; a key given two values (by a later
 * chunk) is refused, and nothing is written. The command says the same. */
START_TEST(chunks_compaction)
{
    char path[512], out[512], err[1024];
    path_in(path, sizeof path, "many.chunks");
    path_in(out, sizeof out, "one.chunks");
    append_lands(path, 0, 100, 0);
    append_lands(path, 50, 150, 0); /* 50 repeats with their values */
    append_lands(path, 150, 400, 0);
    sp_chunks_info info, back;
    uint64_t kept;
    ck_assert_msg(sp_chunks_compact(path, out, &info, &kept, err, sizeof err) == 0, "%s", err);
    ck_assert_uint_eq(info.chunks, 3);
    ck_assert_uint_eq(info.entries, 450);
    ck_assert_uint_eq(kept, 400);
    ck_assert_int_eq(read_lands(out, 400, &back, err), 400);
    ck_assert_uint_eq(back.chunks, 1);
    ck_assert_uint_lt(file_size(out), sp_chunks_size(path));
    char *argv[] = {(char *)sp_test_program, "compact", path, NULL};
    ck_assert_int_eq(run_quiet(argv, NULL), 0); /* in place */
    ck_assert_uint_eq(sp_chunks_size(path), file_size(out)); /* its segments are gone */
    ck_assert_int_eq(read_lands(path, 400, &back, err), 400);
    ck_assert_uint_eq(back.chunks, 1);
    ck_assert_uint_eq(back.segments, 1);
    append_lands(path, 390, 391, 1); /* land 390 again, with another value */
    size_t len;
    uint8_t *before = file_bytes(out, &len);
    ck_assert_int_eq(sp_chunks_compact(path, out, &info, &kept, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "chunk 2 gives a key the value"));
    size_t now;
    uint8_t *after = file_bytes(out, &now);
    ck_assert(now == len && !memcmp(before, after, len));
    char *again[] = {(char *)sp_test_program, "compact", path, "--out", out, NULL};
    ck_assert_int_eq(run_quiet(again, NULL), 2);
    free(before);
    free(after);
}
END_TEST

static int run_growing(const char *out, const char *to, int resume)
{
    char *argv[] = {(char *)sp_test_program, "table", "--from", "1", "--to", (char *)to, "--tt-mb", "32",
                    "--threads", "1", "--quiet", "--out", (char *)out, resume ? "--resume" : NULL, NULL};
    return run_quiet(argv, NULL);
}

/* A table run resumed to larger sizes appends to its chunk files what it learned, and only that:
 * the earlier bytes are unchanged, and no entry is written twice. */
START_TEST(resumed_run_appends_only_what_is_new)
{
    char out[512], path[700], compact[700], err[1024];
    const char *names[3] = {"nimbers", "misere-proven", "misere-lands"};
    path_in(out, sizeof out, "grow");
    path_in(compact, sizeof compact, "compact.chunks");
    ck_assert_int_eq(run_growing(out, "9", 0), 0);
    uint8_t *first[3];
    size_t len[3];
    sp_chunks_info info[3];
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/state/%s.chunks", out, names[i]);
        first[i] = all_bytes(path, &len[i]);
        uint64_t kept;
        if (i < 2)
            ck_assert_int_eq(sp_chunks_compact(path, compact, &info[i], &kept, err, sizeof err), 0);
        else /* a payload of its own: not compacted as a key list */
            ck_assert_int_eq(sp_chunks_compact(path, compact, &info[i], &kept, err, sizeof err), -1);
    }
    ck_assert_int_eq(run_growing(out, "11", 1), 0);
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/state/%s.chunks", out, names[i]);
        size_t now;
        uint8_t *second = all_bytes(path, &now);
        ck_assert_msg(now > len[i], "%s did not grow", names[i]);
        ck_assert_msg(!memcmp(first[i], second, len[i]), "%s: the bytes saved before changed", names[i]);
        if (i == 2) {
            free(first[i]);
            free(second);
            continue;
        }
        sp_chunks_info more;
        uint64_t kept;
        ck_assert_int_eq(sp_chunks_compact(path, compact, &more, &kept, err, sizeof err), 0);
        ck_assert_uint_gt(more.chunks, info[i].chunks);
        ck_assert_uint_gt(more.entries, info[i].entries);
        ck_assert_uint_eq(kept, more.entries); /* no entry twice */
        free(first[i]);
        free(second);
    }
}
END_TEST

/* DIR/certs/NAME, loaded, checked, with `roots` roots. */
static void base_has_roots(const char *dir, const char *name, size_t roots)
{
    char path[700], err[1024];
    sp_cert c;
    snprintf(path, sizeof path, "%s/certs/%s", dir, name);
    ck_assert_msg(sp_cert_load(&c, path, err, sizeof err) == 0, "%s", err);
    ck_assert_uint_eq(1 + c.nmore, roots);
    ck_assert(verified(&c));
    sp_cert_free(&c);
}

/* A table run writes one fact base per play, every solved size a root of it, which the checker
 * accepts whole; a directory of certificates of one size each (as tables were written before) is
 * joined into its base on --resume, the rows then name the base and the old files are gone. */
START_TEST(table_writes_fact_bases)
{
    char out[512], old[512], path[700], err[1024], csv[700];
    path_in(out, sizeof out, "bases");
    ck_assert_int_eq(run_growing(out, "6", 0), 0);
    base_has_roots(out, "normal.cert", 6);
    base_has_roots(out, "misere.cert", 6);
    snprintf(csv, sizeof csv, "%s/normal.csv", out);
    uint8_t *text = file_bytes(csv, &(size_t){0});
    ck_assert_ptr_nonnull(strstr((char *)text, ",certs/normal.cert,"));
    free(text);
    /* a resumed run appends the new sizes' facts: the bytes before stay */
    snprintf(path, sizeof path, "%s/certs/normal.cert", out);
    size_t had, now;
    uint8_t *before = all_bytes(path, &had), *after;
    unsigned files = files_of(path);
    ck_assert_int_eq(run_growing(out, "8", 1), 0);
    after = all_bytes(path, &now);
    ck_assert_uint_gt(now, had);
    ck_assert(!memcmp(before, after, had));
    base_has_roots(out, "normal.cert", 8);
    /* a chunk torn by a kill (an append into the file itself, as before segments) is left out, with
     * a warning, and the roots before it kept (each size appends one: cutting the two of 0*7 and 0*8
     * half way cuts into the second) */
    size_t grown = now - had - 16 * (files_of(path) - files); /* the new chunks, without file headers */
    join_segments(path);
    ck_assert_int_eq(truncate(path, (off_t)(file_size(path) - grown / 2)), 0);
    sp_cert c;
    char warning[1024];
    ck_assert_int_eq(sp_cert_load_info(&c, path, warning, sizeof warning, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(warning, "left out"));
    ck_assert_uint_eq(1 + c.nmore, 7);
    ck_assert(verified(&c));
    sp_cert_free(&c);
    free(before);
    free(after);

    path_in(old, sizeof old, "old");
    snprintf(path, sizeof path, "%s/certs", old);
    ck_assert_int_eq(mkdir(old, 0755), 0);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    sp_table t;
    memset(&t, 0, sizeof t);
    for (unsigned n = 1; n <= 4; n++) {
        sp_cert c;
        build_cert(&c, SP_CERT_NORMAL, n, 0);
        sp_row *r = &t.row[n];
        r->present = 1;
        r->nimber = -1;
        snprintf(r->outcome, sizeof r->outcome, "%s", c.outcome == SP_CERT_WIN ? "win" : "loss");
        snprintf(r->cert, sizeof r->cert, "certs/normal-%u.cert", n);
        snprintf(r->verified, sizeof r->verified, "yes");
        snprintf(path, sizeof path, "%s/%s", old, r->cert);
        ck_assert_int_eq(sp_cert_save(&c, path, err, sizeof err), 0);
        sp_cert_free(&c);
    }
    ck_assert_int_eq(sp_table_save(&t, old, err, sizeof err), 0);
    char *argv[] = {(char *)sp_test_program, "table", "--play", "normal", "--from", "1", "--to", "5", "--tt-mb",
                    "32", "--threads", "1", "--quiet", "--out", old, "--resume", NULL};
    ck_assert_int_eq(run_quiet(argv, NULL), 0);
    base_has_roots(old, "normal.cert", 5);
    snprintf(path, sizeof path, "%s/certs/normal-2.cert", old);
    ck_assert_int_ne(access(path, F_OK), 0);
    sp_table back;
    memset(&back, 0, sizeof back);
    ck_assert_int_eq(sp_table_load(&back, old, err, sizeof err), 0);
    for (unsigned n = 1; n <= 5; n++)
        ck_assert_str_eq(back.row[n].cert, "certs/normal.cert");
}
END_TEST

/* `sprouts table --play PLAY --from 1 --to TO` on one thread into OUT, quietly, for what the search
 * saves in DIR/state: without certificates (three quarters of misère 0*12's time); its exit status. */
static int table_1_to(const char *out, const char *play, const char *to, const char *tt_mb)
{
    char *argv[] = {(char *)sp_test_program, "table", "--play", (char *)play, "--from", "1", "--to", (char *)to,
                    "--tt-mb", (char *)tt_mb, "--threads", "1", "--quiet", "--no-certificates", "--out", (char *)out,
                    NULL};
    return run_quiet(argv, NULL);
}

/* Game g of solver `from`, made in solver `to` from its options (equal games get equal ids). */
static uint32_t game_in(sp_solver *to, sp_solver *from, uint32_t g)
{
    size_t n;
    uint32_t *o = sp_solver_game_options(from, g, &n);
    SP_CHECK(o != NULL); /* per game and subgame: no mark (testutil.h) */
    for (size_t i = 0; i < n; i++)
        o[i] = game_in(to, from, o[i]);
    uint32_t id = sp_solver_game_make(to, o, n);
    free(o);
    return id;
}

typedef struct land_games_seen {
    sp_solver *read, *fresh;
    unsigned lands;
} land_games_seen;

static int same_game(void *arg, const sp_tok *key, size_t len, unsigned game)
{
    land_games_seen *seen = arg;
    uint32_t fresh = sp_solver_land_game(seen->fresh, key, len);
    ck_assert_uint_ne(fresh, SP_GAME_NONE);
    ck_assert_uint_eq(game_in(seen->read, seen->fresh, fresh), game);
    seen->lands++;
    return 0;
}

/* A misère table run saves the land games it learned; read back into another solver, every land has
 * the game that solver computes for it afresh (by enumeration), and a second reading adds nothing. */
START_TEST(misere_land_games_saved_and_read)
{
    char out[512], path[700], err[1024];
    path_in(out, sizeof out, "lands");
    ck_assert_int_eq(table_1_to(out, "misere", "9", "32"), 0);
    snprintf(path, sizeof path, "%s/state/misere-lands.chunks", out);
    sp_solver_opts o = {.tt_bytes = (size_t)32 << 20, .threads = 1};
    land_games_seen seen = {sp_solver_new(&o), sp_solver_new(&o), 0};
    sp_landgames lg;
    sp_landgames_init(&lg);
    sp_chunks_info info;
    ck_assert_msg(sp_landgames_read(&lg, seen.read, path, &info, err, sizeof err) == 0, "%s", err);
    ck_assert_uint_gt(lg.read, 100);
    ck_assert_uint_eq(lg.read, info.entries);
    ck_assert_int_eq(sp_solver_each(seen.read, SP_KEPT_LAND_GAMES, 0, UINT64_MAX, same_game, &seen), 0);
    ck_assert_uint_eq(seen.lands, lg.read);
    /* nothing new since the reading: a save writes nothing */
    size_t before = sp_chunks_size(path);
    ck_assert_int_eq(sp_landgames_save(&lg, seen.read, path, NULL, err, sizeof err), 0);
    ck_assert_uint_eq(sp_chunks_size(path), before);
    sp_landgames_free(&lg);
    sp_solver_free(seen.read);
    sp_solver_free(seen.fresh);
}
END_TEST

/* A lost position read back: a solver that never saw the files finds it lost beside the same game. */
static void check_lost(land_games_seen *seen, const sp_tok *key, size_t len, unsigned game)
{
    uint32_t g = game_in(seen->fresh, seen->read, game);
    ck_assert_uint_ne(g, SP_GAME_NONE);
    ck_assert_int_eq(sp_solver_couple(seen->fresh, key, len, g, SP_PLAY_MISERE), SP_LOSS);
    ck_assert_int_eq(sp_solver_known(seen->read, key, len, game, SP_PLAY_MISERE), SP_LOSS);
}

static int really_lost(void *arg, const sp_tok *key, size_t len, unsigned game)
{
    land_games_seen *seen = arg;
    check_lost(seen, key, len, game);
    return ++seen->lands == 40; /* enough: each is a search of its own */
}

/* ... and so is each position of several lands (kept too: how a reply that splits the board is
 * remembered); some are (the lost ones of 0*12 include splits). */
static int lost_of_lands(void *arg, const sp_tok *key, size_t len, unsigned game)
{
    land_games_seen *seen = arg;
    if (sp_key_lands(key, len, NULL, NULL, 0) > 1)
        check_lost(seen, key, len, game), seen->lands++;
    return seen->lands == 10;
}

/* A misère table run saves the positions its search proved lost beside a game at some cost, naming the
 * games by their numbers in the land-games file; read back, each is lost for a solver that computes
 * it afresh, and the reading solver knows it without search. */
START_TEST(misere_lost_lands_saved_and_read)
{
    char out[512], lands[700], lost[700], err[1024];
    path_in(out, sizeof out, "lost");
    ck_assert_int_eq(table_1_to(out, "misere", "12", "64"), 0);
    snprintf(lands, sizeof lands, "%s/state/misere-lands.chunks", out);
    snprintf(lost, sizeof lost, "%s/state/misere-lost.chunks", out);
    sp_solver_opts o = {.tt_bytes = (size_t)64 << 20, .threads = 1};
    land_games_seen seen = {sp_solver_new(&o), sp_solver_new(&o), 0};
    sp_landgames lg;
    sp_landgames_init(&lg);
    sp_chunks_info info;
    ck_assert_msg(sp_landgames_read(&lg, seen.read, lands, &info, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(sp_landgames_read_lost(&lg, seen.read, lost, &info, err, sizeof err) == 0, "%s", err);
    ck_assert_uint_gt(lg.lost_read, 5);
    ck_assert_uint_eq(lg.lost_read, info.entries);
    sp_solver_each(seen.read, SP_KEPT_LOST, 0, UINT64_MAX, really_lost, &seen);
    ck_assert_uint_gt(seen.lands, 5);
    seen.lands = 0;
    sp_solver_each(seen.read, SP_KEPT_LOST, 0, UINT64_MAX, lost_of_lands, &seen);
    ck_assert_uint_gt(seen.lands, 0);
    /* nothing new since the reading: a save writes nothing to either file */
    size_t had[2] = {sp_chunks_size(lands), sp_chunks_size(lost)};
    ck_assert_int_eq(sp_landgames_save(&lg, seen.read, lands, lost, err, sizeof err), 0);
    ck_assert_uint_eq(sp_chunks_size(lands), had[0]);
    ck_assert_uint_eq(sp_chunks_size(lost), had[1]);
    sp_landgames_free(&lg);
    sp_solver_free(seen.read);
    sp_solver_free(seen.fresh);
}
END_TEST

/* A lost land naming a game the land-games file does not hold is refused, and the run says so. */
START_TEST(misere_lost_land_of_unknown_game_refused)
{
    char out[512], path[700], line[1024];
    path_in(out, sizeof out, "badlost");
    char *argv[] = {(char *)sp_test_program, "table", "--play", "misere", "--from", "1", "--to", "6", "--tt-mb",
                    "32", "--threads", "1", "--quiet", "--out", out, NULL, NULL};
    ck_assert_int_eq(run_quiet(argv, NULL), 0);
    sp_tok key[SP_KEY_MAX];
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    size_t len = sp_test_key(ctx, "0*3", key);
    sp_canon_ctx_free(ctx);
    sp_buf b = {0};
    sp_keylist_put_after(&b, NULL, 0, key, len, 1u << 30);
    snprintf(path, sizeof path, "%s/state/misere-lost.chunks", out);
    char err[512];
    ck_assert_msg(sp_chunks_append(path, SP_CHUNKS_LOST, b.data, b.len, 1, NULL, err, sizeof err) == 0, "%s", err);
    sp_buf_free(&b);
    argv[7] = "7", argv[15] = "--resume"; /* a size to search: the state is read */
    char out2[256];
    int rc = sp_test_run2(argv, out2, sizeof out2, line, sizeof line);
    ck_assert_int_ne(rc, 0);
    ck_assert_msg(strstr(line, "misere-lost.chunks") != NULL && strchr(line, '\n') == strrchr(line, '\n'), "%s",
                  line);
}
END_TEST

/* Misère 0*14 searched by s to the end: its outcome, and the nodes it took (all calls together). */
static uint64_t finish_14(sp_solver *s, const sp_tok *key, size_t len)
{
    sp_solver_set_time_limit(s, 0);
    /* a loss for the player to move: Lemoine and Viennot, misère Sprouts (OEIS A164950) */
    ck_assert_int_eq(sp_solver_outcome(s, key, len, SP_PLAY_MISERE), SP_LOSS);
    sp_solver_stats st;
    sp_solver_stats_get(s, &st);
    return st.nodes;
}

/* A misère search stopped part way and written to a snapshot goes on, in a fresh solver that reads
 * it and then the land games saved beside it (as a table run does: a stored value folds a land the
 * search would not value afresh), as the same search: node for node what the stopped solver makes
 * when it goes on itself. A
 * snapshot of another stamp, or of marks larger than now (a state rewritten), is not used, a corrupt
 * one is refused, and neither leaves anything in the table (its entries name the games of their own
 * game table); one of smaller marks (saves since) is used, and says so. */
START_TEST(snapshot_goes_on_as_the_same_search)
{
    char path[700], lands[700], err[1024];
    path_in(path, sizeof path, "search.snap");
    path_in(lands, sizeof lands, "lands.chunks");
    sp_solver_opts o = {.tt_bytes = (size_t)64 << 20, .threads = 1};
    sp_solver *s = sp_solver_new(&o), *again = sp_solver_new(&o), *other = sp_solver_new(&o);
    sp_tok key[SP_KEY_MAX];
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    size_t len = sp_test_key(ctx, "0*14", key);
    sp_canon_ctx_free(ctx);
    sp_solver_set_time_limit(s, 1);
    ck_assert_int_eq(sp_solver_outcome(s, key, len, SP_PLAY_MISERE), SP_UNKNOWN); /* 0*14 takes longer */
    sp_solver_stats before, st;
    sp_solver_stats_get(s, &before);
    ck_assert_uint_gt(before.tt_filled, 100);
    sp_landgames lg, lg2;
    sp_landgames_init(&lg), sp_landgames_init(&lg2);
    ck_assert_msg(sp_landgames_save(&lg, s, lands, NULL, err, sizeof err) == 0, "%s", err);
    sp_snapshot_stats ss;
    sp_snapshot_stamp test = {"test", {5, 0}, 2}, budgets = {"other budgets", {5, 0}, 2};
    sp_snapshot_stamp smaller = {"test", {4, 7}, 2}, larger = {"test", {5, 1}, 2};
    ck_assert_msg(sp_snapshot_write(path, s, &test, &ss, err, sizeof err) == 0, "%s", err);
    ck_assert_uint_eq(ss.bytes, file_size(path));
    uint64_t went_on = finish_14(s, key, len) - before.nodes;
    ck_assert_int_eq(sp_snapshot_read(path, other, &budgets, &ss, err, sizeof err), 1);
    ck_assert_msg(strstr(err, "other budgets") != NULL, "%s", err);
    ck_assert_int_eq(sp_snapshot_read(path, other, &smaller, &ss, err, sizeof err), 1); /* a state rewritten */
    ck_assert_msg(strstr(err, "another state") != NULL, "%s", err);
    sp_solver_stats_get(other, &st);
    ck_assert_uint_eq(st.tt_filled, 0);
    ck_assert_int_eq(sp_snapshot_read(path, other, &larger, &ss, err, sizeof err), 0); /* saves since: used */
    ck_assert(ss.older);
    sp_solver_stats_get(other, &st);
    ck_assert_uint_eq(st.tt_filled, before.tt_filled);
    finish_14(other, key, len); /* the search goes on to the right end without the land games */
    ck_assert_msg(sp_snapshot_read(path, again, &test, &ss, err, sizeof err) == 0, "%s", err);
    ck_assert(!ss.older);
    sp_chunks_info info;
    ck_assert_msg(sp_landgames_read(&lg2, again, lands, &info, err, sizeof err) == 0, "%s", err);
    sp_solver_stats_get(again, &st);
    ck_assert_uint_eq(st.tt_filled, before.tt_filled);
    ck_assert_uint_eq(st.games, before.games); /* the land games' games were there already, with their ids */
    ck_assert_uint_eq(finish_14(again, key, len), went_on);
    flip_byte(path, (long)file_size(path) / 2); /* in the table's part */
    sp_solver_free(other);
    other = sp_solver_new(&o);
    ck_assert_int_eq(sp_snapshot_read(path, other, &test, &ss, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "corrupt") != NULL, "%s", err);
    sp_solver_stats_get(other, &st);
    ck_assert_uint_eq(st.tt_filled, 0);
    sp_solver_free(s), sp_solver_free(again), sp_solver_free(other);
    sp_landgames_free(&lg), sp_landgames_free(&lg2);
}
END_TEST

/* A misère table run of 0*A..0*B in out, one thread, without certificates (the search is what is
 * tested), with --snapshot snap (unless NULL) and up to four more options (extra, NULL-terminated;
 * a later --threads wins). */
static int run_misere_snaps(const char *out, const char *from, const char *to, const char *snap,
                            const char *const *extra, char *err, size_t errcap)
{
    char *argv[24] = {(char *)sp_test_program, "table", "--play", "misere", "--from", (char *)from, "--to", (char *)to,
                      "--tt-mb", "64", "--threads", "1", "--no-certificates", "--out", (char *)out};
    size_t n = 15;
    if (snap)
        argv[n++] = "--snapshot", argv[n++] = (char *)snap;
    for (size_t i = 0; extra[i]; i++) {
        ck_assert_uint_lt(i, 4);
        argv[n++] = (char *)extra[i];
    }
    char rows[1024];
    return sp_test_run2(argv, rows, sizeof rows, err, errcap);
}

static int run_misere_snap(const char *out, const char *from, const char *to, const char *snap, const char *extra,
                           char *err, size_t errcap)
{
    const char *const extras[] = {extra, NULL};
    return run_misere_snaps(out, from, to, snap, extras, err, errcap);
}

static uint64_t nodes_of_misere_14(const char *out, const char *outcome)
{
    static sp_table t; /* large */
    char err[512];
    t.misere = 1;
    ck_assert_msg(sp_table_load(&t, out, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(t.row[14].outcome, outcome);
    return t.row[14].nodes;
}

/* A table run whose size stops at its time limit with --snapshot leaves the search there, and the
 * run resumed with it goes on with that search: misère 0*14 (a loss: Lemoine and Viennot) takes, over
 * both attempts, the nodes of one search never stopped (`solve`, same budgets) and the few of the
 * path from the root walked again. Beside another state the snapshot is not used, and the run stops
 * rather than write its own search over it (it once did, and lost 1.8 hours of misère 0*22's search). */
START_TEST(table_run_goes_on_from_its_snapshot)
{
    char stopped[512], other[512], snap[512], err[4096], out[1024];
    path_in(stopped, sizeof stopped, "stopped");
    path_in(other, sizeof other, "other");
    path_in(snap, sizeof snap, "misere14.snap");
    char *solve[] = {(char *)sp_test_program, "solve", "0*14", "--misere", "--threads", "1", "--tt-mb", "64", NULL};
    ck_assert_int_eq(sp_test_run2(solve, out, sizeof out, err, sizeof err), 0);
    const char *at = strstr(out, " nodes (");
    ck_assert_ptr_nonnull(at);
    uint64_t one = strtoull(at + 8, NULL, 10);
    ck_assert_uint_gt(one, 10000);
    ck_assert_msg(run_misere_snap(stopped, "14", "14", snap, "--time-limit=1", err, sizeof err) == 0, "%s", err);
    ck_assert_msg(strstr(err, "the search is in the snapshot") != NULL, "%s", err);
    uint64_t first = nodes_of_misere_14(stopped, "unsolved");
    ck_assert_uint_lt(first, one);
    /* beside another state it is not used, nor written over: the run stops at once */
    ck_assert_int_eq(run_misere_snap(other, "14", "14", snap, "--time-limit=1", err, sizeof err), 1);
    ck_assert_msg(strstr(err, "snapshot not used") != NULL && strstr(err, "rather than write over it") != NULL,
                  "%s", err);
    ck_assert_msg(strstr(err, "misere 0*14") == NULL, "%s", err); /* no search began */
    ck_assert_msg(run_misere_snap(stopped, "14", "14", snap, "--resume", err, sizeof err) == 0, "%s", err);
    ck_assert_msg(strstr(err, "goes on from the snapshot") != NULL, "%s", err);
    uint64_t both = nodes_of_misere_14(stopped, "loss");
    ck_assert_msg(both >= one && both <= one + 100, "%llu nodes over two attempts, %llu in one",
                  (unsigned long long)both, (unsigned long long)one);
}
END_TEST

/* How many times needle occurs in hay. */
static unsigned occurrences(const char *hay, const char *needle)
{
    unsigned n = 0;
    for (const char *at = strstr(hay, needle); at; at = strstr(at + 1, needle))
        n++;
    return n;
}

/* The outcome in the row of misère 0*n in out. */
static const char *misere_outcome(const char *out, unsigned n)
{
    static sp_table t; /* large */
    char err[512];
    t.misere = 1;
    ck_assert_msg(sp_table_load(&t, out, err, sizeof err) == 0, "%s", err);
    return t.row[n].outcome;
}

/* A size's search is written to its snapshot while it runs (--snapshot-every; on two threads, so
 * that the helper is held while it is written), not only when it stops. A snapshot taken before later saves of the state (as a killed run leaves it; here 0*14
 * solved since added its facts) is still taken up, and says so. */
START_TEST(table_run_snapshots_as_it_goes)
{
    char dir[512], snap[512], err[8192];
    path_in(dir, sizeof dir, "going");
    path_in(snap, sizeof snap, "going.snap");
    const char *const every[] = {"--time-limit=3", "--checkpoint=1", "--snapshot-every=1", "--threads=2", NULL};
    ck_assert_msg(run_misere_snaps(dir, "15", "15", snap, every, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(occurrences(err, "the search is in the snapshot") >= 2, "%s", err); /* as it went, and at the end */
    ck_assert_str_eq(misere_outcome(dir, 15), "unsolved"); /* 0*15 takes longer */
    const char *const other[] = {"--resume", NULL};
    ck_assert_msg(run_misere_snaps(dir, "14", "14", NULL, other, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(misere_outcome(dir, 14), "loss"); /* Lemoine and Viennot */
    const char *const again[] = {"--resume", "--time-limit=1", NULL};
    ck_assert_msg(run_misere_snaps(dir, "15", "15", snap, again, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(strstr(err, "goes on from the snapshot") != NULL && strstr(err, "before the last saves") != NULL,
                  "%s", err);
}
END_TEST

/* The land nimbers of a chunk file, every key once. */
typedef struct nim_set {
    sp_children keys;
    uint32_t *value;
    size_t cap;
} nim_set;

static int into_set(void *arg, const sp_tok *key, size_t len, uint32_t value)
{
    nim_set *ns = arg;
    if (sp_children_add(&ns->keys, key, len) > 0) {
        ck_assert_int_eq(sp_grow((void **)&ns->value, &ns->cap, ns->keys.n, sizeof *ns->value), 0);
        ns->value[ns->keys.n - 1] = value;
    }
    return 0;
}

static void read_set(const char *path, nim_set *ns)
{
    char err[1024];
    sp_chunks_info info;
    memset(ns, 0, sizeof *ns);
    sp_children_init(&ns->keys);
    ck_assert_msg(sp_chunks_read(path, SP_CHUNKS_NIMBERS, into_set, ns, &info, err, sizeof err) == 0, "%s", err);
}

/* The nimber of a land from the set, or, for one left out, the mex of its children's (Sprague-Grundy),
 * recursively (memo: those found so): what a solver would find again. */
static uint32_t nimber_from(const nim_set *ns, nim_set *memo, sp_canon_ctx *ctx, const sp_tok *land, size_t len)
{
    long at = sp_children_find(&ns->keys, land, len);
    if (at >= 0)
        return ns->value[at];
    if ((at = sp_children_find(&memo->keys, land, len)) >= 0)
        return memo->value[at];
    sp_children kids;
    sp_children_init(&kids);
    ck_assert_int_eq(sp_expand_land(ctx, NULL, land, len, &kids), 0);
    uint64_t seen = 0;
    for (size_t c = 0; c < kids.n; c++) {
        uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS], x = 0;
        const sp_tok *child = kids.tok + kids.off[c];
        unsigned n = sp_key_lands(child, kids.len[c], off, lens, SP_MAX_LANDS);
        for (unsigned i = 0; i < n; i++)
            x ^= nimber_from(ns, memo, ctx, child + off[i], lens[i]);
        ck_assert_uint_lt(x, 64);
        seen |= 1ull << x;
    }
    sp_children_free(&kids);
    uint32_t mex = 0;
    while (seen >> mex & 1)
        mex++;
    into_set(memo, land, len, mex);
    return mex;
}

/* A compaction that drops the derivable land nimbers leaves out some, keeps the rest as they were,
 * and every one it left out is what the Sprague-Grundy recursion over the rest gives. */
START_TEST(derivable_nimbers_follow_from_the_rest)
{
    char out[512], path[700], pruned[700], err[1024];
    path_in(out, sizeof out, "derive");
    ck_assert_int_eq(table_1_to(out, "normal", "12", "32"), 0);
    snprintf(path, sizeof path, "%s/state/nimbers.chunks", out);
    snprintf(pruned, sizeof pruned, "%s/pruned.chunks", out);
    sp_derive_opts d = {.threads = 2};
    sp_chunks_info info;
    uint64_t kept;
    ck_assert_int_eq(sp_chunks_compact_filtered(path, pruned, sp_derive_drop, &d, &info, &kept, err, sizeof err), 0);
    nim_set all, left, memo;
    read_set(path, &all);
    read_set(pruned, &left);
    memset(&memo, 0, sizeof memo);
    sp_children_init(&memo.keys);
    ck_assert_uint_eq(left.keys.n, kept);
    ck_assert_uint_gt(d.dropped, all.keys.n / 20);
    ck_assert_uint_eq(kept + d.dropped, all.keys.n);
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    for (size_t i = 0; i < all.keys.n; i++) {
        const sp_tok *key = all.keys.tok + all.keys.off[i];
        long at = sp_children_find(&left.keys, key, all.keys.len[i]);
        if (at >= 0) {
            ck_assert_uint_eq(left.value[at], all.value[i]);
            continue;
        }
        /* left out: one expansion finds every land it needs among the file's */
        sp_children kids;
        sp_children_init(&kids);
        ck_assert_int_eq(sp_expand_land(ctx, NULL, key, all.keys.len[i], &kids), 0);
        for (size_t c = 0; c < kids.n; c++) {
            uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
            const sp_tok *child = kids.tok + kids.off[c];
            unsigned n = sp_key_lands(child, kids.len[c], off, lens, SP_MAX_LANDS);
            for (unsigned j = 0; j < n; j++)
                ck_assert_int_ge(sp_children_find(&all.keys, child + off[j], lens[j]), 0);
        }
        sp_children_free(&kids);
        ck_assert_uint_eq(nimber_from(&left, &memo, ctx, key, all.keys.len[i]), all.value[i]);
    }
    sp_canon_ctx_free(ctx);
    sp_children_free(&all.keys), free(all.value);
    sp_children_free(&left.keys), free(left.value);
    sp_children_free(&memo.keys), free(memo.value);
}
END_TEST

/* A table run resumed beside a chunk file with a torn last chunk keeps the chunks before it (with a
 * warning) and its first save cuts the torn bytes off; one beside a file that gives a land two
 * nimbers stops with that reason and writes nothing. */
START_TEST(table_reads_torn_and_refuses_two_values)
{
    char out[512], state[600], path[700];
    path_in(out, sizeof out, "given");
    snprintf(state, sizeof state, "%s/state", out);
    snprintf(path, sizeof path, "%s/nimbers.chunks", state);
    ck_assert_int_eq(mkdir(out, 0755), 0);
    ck_assert_int_eq(mkdir(state, 0755), 0);
    append_lands(path, 0, 100, 0);
    size_t good;
    uint8_t *before = file_bytes(path, &good);
    append_lands(path, 100, 200, 0);
    join_segments(path); /* torn as an append into the file itself leaves it */
    ck_assert_int_eq(truncate(path, (off_t)(good + 70)), 0);
    ck_assert_int_eq(run_small(out, NULL), 0);
    size_t len;
    uint8_t *after = all_bytes(path, &len);
    ck_assert_uint_eq(file_size(path), good);
    ck_assert_uint_gt(len, good + 70);
    ck_assert(!memcmp(before, after, good));
    sp_children lands;
    uint32_t *v;
    sp_children_init(&lands);
    ck_assert(load_nimbers(out, &lands, &v)); /* no warning, each land once */
    for (uint32_t i = 0; i < 200; i++) {
        sp_tok key[5];
        long j = sp_children_find(&lands, key, sp_test_numbered_land(i, key));
        ck_assert_msg(i < 100 ? j >= 0 && v[j] == i % 7 : j < 0, "land %u", i);
    }
    ck_assert_uint_gt(lands.n, 100);
    sp_children_free(&lands);
    free(v);
    append_lands(path, 50, 51, 1); /* land 50 again, with another nimber */
    size_t given = sp_chunks_size(path);
    ck_assert_int_eq(run_small(out, NULL), 1);
    ck_assert_uint_eq(sp_chunks_size(path), given);
    free(before);
    free(after);
}
END_TEST

/* A run with --state-lives L saves the nimbers of the lands of at least L lives only, the same ones
 * and values a run saving all of them has; a resumed run reads the normal-play fact base as nimbers
 * too: a state giving a land of the base another nimber is refused. */
START_TEST(state_keeps_the_costly_lands)
{
    char all[512], some[512], path[700], err[1024];
    path_in(all, sizeof all, "all");
    path_in(some, sizeof some, "some");
    char *argv[] = {(char *)sp_test_program, "table", "--play", "normal", "--from", "1", "--to", "11", "--tt-mb",
                    "32", "--threads", "1", "--quiet", "--out", all, NULL, NULL, NULL};
    ck_assert_int_eq(run_quiet(argv, NULL), 0);
    argv[14] = some, argv[15] = "--state-lives", argv[16] = "14";
    ck_assert_int_eq(run_quiet(argv, NULL), 0);
    nim_set a, b;
    snprintf(path, sizeof path, "%s/state/nimbers.chunks", all);
    read_set(path, &a);
    snprintf(path, sizeof path, "%s/state/nimbers.chunks", some);
    read_set(path, &b);
    size_t costly = 0;
    for (size_t i = 0; i < a.keys.n; i++) {
        const sp_tok *key = a.keys.tok + a.keys.off[i];
        if (sp_key_lives(key, a.keys.len[i]) < 14)
            continue;
        costly++;
        long j = sp_children_find(&b.keys, key, a.keys.len[i]);
        ck_assert_msg(j >= 0 && b.value[j] == a.value[i], "land %zu", i);
    }
    ck_assert_uint_gt(costly, 10);
    ck_assert_uint_lt(costly, a.keys.n);
    ck_assert_uint_eq(b.keys.n, costly);

    sp_cert base;
    snprintf(path, sizeof path, "%s/certs/normal.cert", some);
    ck_assert_msg(sp_cert_load(&base, path, err, sizeof err) == 0, "%s", err);
    ck_assert_uint_gt(base.facts.n, 0);
    size_t len = 0, f = 0;
    const sp_tok *land = NULL;
    for (; f < base.facts.n; f++) /* a land of the base that the state does not hold */
        if (sp_key_lives(land = sp_cert_fact(&base, f, &len), len) < 14)
            break;
    ck_assert_uint_lt(f, base.facts.n);
    ck_assert_int_lt(sp_children_find(&b.keys, land, len), 0);
    sp_buf buf = {0};
    sp_keylist_ref ref = {land, (uint32_t)len, base.k[f] + 1};
    sp_keylist_put_sorted(&buf, &ref, 1);
    snprintf(path, sizeof path, "%s/state/nimbers.chunks", some);
    sp_chunks_info info;
    ck_assert_int_eq(sp_chunks_append(path, SP_CHUNKS_NIMBERS, buf.data, buf.len, 1, &info, err, sizeof err), 0);
    sp_buf_free(&buf);
    sp_cert_free(&base);
    argv[15] = "--resume", argv[16] = NULL;
    ck_assert_int_eq(run_quiet(argv, NULL), 1);
    sp_children_free(&a.keys), free(a.value);
    sp_children_free(&b.keys), free(b.value);
}
END_TEST

/* Passes the nimbers of lands of at least min_lives lives on to another solver. */
typedef struct seed {
    sp_solver *to;
    unsigned min_lives;
} seed;

static int seed_nimber(void *arg, const sp_tok *key, size_t len, unsigned value)
{
    seed *sd = arg;
    if (sp_key_lives(key, len) >= sd->min_lives)
        sp_solver_add_nimber(sd->to, key, len, value);
    return 0;
}

/* A solver that knows the nimbers of large lands only (as a run resumed from a state of costly lands
 * does) still gets certificates the checker accepts: where an answer is the Nim move of a position
 * whose small lands it has not valued, it values them (before, the builder found "no answer"). */
START_TEST(builder_values_the_lands_it_lacks)
{
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    for (unsigned n = 6; n <= 9; n++) {
        for (unsigned min_lives = 6; min_lives <= 12; min_lives += 3) {
            sp_pos p;
            sp_tok key[SP_KEY_MAX];
            sp_pos_spots(&p, n);
            size_t len = sp_canon_pos(ctx, &p, key);
            sp_solver_opts o = {.tt_bytes = (size_t)32 << 20, .threads = 1};
            sp_solver *all = sp_solver_new(&o), *some = sp_solver_new(&o);
            ck_assert_int_ge(sp_solver_nimber(all, key, len), 0);
            seed sd = {some, min_lives};
            ck_assert_int_eq(sp_solver_each(all, SP_KEPT_NIMBERS, 0, UINT64_MAX, seed_nimber, &sd), 0);
            sp_outcome out = sp_solver_outcome(some, key, len, SP_PLAY_NORMAL);
            sp_cert c;
            char why[1024];
            ck_assert_int_eq(sp_cert_init(&c, SP_CERT_NORMAL, n, key, len, out == SP_WIN ? SP_CERT_WIN : SP_CERT_LOSS),
                             0);
            ck_assert_msg(sp_certify(&c, some, NULL, why, sizeof why) == 0, "0*%u, lives %u: %s", n,
                          min_lives, why);
            ck_assert(verified(&c));
            sp_cert_free(&c);
            sp_solver_free(all);
            sp_solver_free(some);
        }
    }
    sp_canon_ctx_free(ctx);
}
END_TEST

/* c: the certificate of 0*n (key), won, built by s (freed here) beside the base and checked beside it:
 * r says it checks, with some facts taken from the base and some of its own. */
static void certify_beside(sp_cert *c, sp_solver *s, const sp_cert *base, unsigned n, const sp_tok *key, size_t len,
                           sp_verify_result *r)
{
    char why[256];
    ck_assert_int_eq(sp_cert_init(c, base->play, n, key, len, SP_CERT_WIN), 0);
    ck_assert_msg(sp_certify_given(c, s, base, NULL, why, sizeof why) == 0, "%s", why);
    sp_solver_free(s);
    ck_assert_int_eq(sp_verify_given(c, base, 1, NULL, r), 0);
    ck_assert_msg(r->ok, "%s", r->reason);
    ck_assert_uint_gt(r->given, 0);
    ck_assert_uint_gt(r->facts, 0);
    ck_assert_uint_eq(r->facts + r->given, c->facts.n);
}

/* c joined to base passes the plain checker; both are freed. */
static void joined_checks(sp_cert *base, sp_cert *c)
{
    char err[256];
    ck_assert_msg(sp_cert_merge(base, c, err, sizeof err) == 0, "%s", err);
    ck_assert(verified(base));
    sp_cert_free(c);
    sp_cert_free(base);
}

/* The same in misère play, where a fact of the base counts for a fact of the new certificate when
 * its game has the same structure (games matched by their options): 0*10 (a win: A164950) built by
 * a fresh solver beside the base of 0*9 takes some facts from it and checks; a fact taken from the
 * base, given another game of the certificate, is checked, not trusted; the whole, joined to the
 * base, passes the plain checker. */
START_TEST(misere_certificates_build_on_the_fact_base)
{
    sp_cert base, c;
    build_cert(&base, SP_CERT_MISERE, 9, 0);
    sp_tok key[SP_KEY_MAX];
    size_t len = spots_key(10, key);
    sp_solver_opts o = {.tt_bytes = (size_t)32 << 20, .threads = 1};
    sp_solver *s = sp_solver_new(&o);
    ck_assert_int_eq(sp_solver_outcome(s, key, len, SP_PLAY_MISERE), SP_WIN);
    sp_verify_result r;
    certify_beside(&c, s, &base, 10, key, len, &r);
    uint64_t taken = r.given;
    ck_assert_uint_gt(c.ngames, 1);
    for (size_t i = 0; i < c.facts.n; i++) { /* the first fact taken from the base, moved to another game */
        uint32_t k = c.k[i];
        c.k[i] = (k + 1) % c.ngames;
        ck_assert_int_eq(sp_verify_given(&c, &base, 1, NULL, &r), 0);
        c.k[i] = k;
        if (r.given < taken)
            break;
    }
    ck_assert_uint_eq(r.given, taken - 1);
    joined_checks(&base, &c);
}
END_TEST

/* A certificate built beside a checked fact base (sp_certify_given) answers only the moves of its new
 * facts, and the checker with the base (sp_verify_given) checks just those: 0*11 beside the base of
 * 0*9 checks; a new fact with a wrong nimber fails; a fact of the base given another nimber is
 * checked, not trusted, and fails; the whole passes the plain checker once joined to the base. */
START_TEST(certificates_build_on_the_fact_base)
{
    sp_cert base;
    build_cert(&base, SP_CERT_NORMAL, 9, 0);
    sp_tok key[SP_KEY_MAX];
    size_t len = spots_key(10, key);
    sp_solver_opts o = {.tt_bytes = (size_t)32 << 20, .threads = 1};
    sp_solver *s = sp_solver_new(&o);
    for (size_t i = 0; i < base.facts.n; i++) { /* as a table run reads its base */
        size_t flen;
        const sp_tok *f = sp_cert_fact(&base, i, &flen);
        sp_solver_add_nimber(s, f, flen, base.k[i]);
    }
    ck_assert_int_eq(sp_solver_outcome(s, key, len, SP_PLAY_NORMAL), SP_WIN); /* 0*11 is won (AJS 1991) */
    sp_cert c;
    sp_verify_result r;
    certify_beside(&c, s, &base, 11, key, len, &r);
    size_t mine = SIZE_MAX, shared = SIZE_MAX;
    for (size_t i = 0; i < c.facts.n; i++) {
        size_t flen;
        const sp_tok *f = sp_cert_fact(&c, i, &flen);
        size_t *which = sp_cert_find(&base, f, flen, 0) >= 0 ? &shared : &mine;
        if (*which == SIZE_MAX)
            *which = i;
    }
    ck_assert(mine != SIZE_MAX && shared != SIZE_MAX);
    for (int k = 0; k < 2; k++) {
        size_t i = k ? shared : mine;
        c.k[i] ^= 1;
        ck_assert_int_eq(sp_verify_given(&c, &base, 1, NULL, &r), 0);
        ck_assert_msg(!r.ok, "fact %zu flipped passed", i);
        c.k[i] ^= 1;
    }
    joined_checks(&base, &c);
}
END_TEST

/* The keeper of the test below: each batch of settled facts the base lacks is checked beside the
 * base and joined to it; the build is stopped after `batches` of them. */
typedef struct keeper {
    sp_cert *base;
    atomic_bool stop;
    unsigned batches, left;
} keeper;

static void keep_batch(void *arg, const sp_cert *c, const uint8_t *settled)
{
    keeper *k = arg;
    sp_cert part;
    ck_assert_int_eq(sp_cert_init(&part, SP_CERT_NORMAL, k->base->spots, k->base->root, k->base->root_len,
                                  k->base->outcome), 0);
    size_t fresh = 0;
    for (size_t i = 0, len; i < c->facts.n; i++) {
        const sp_tok *f = sp_cert_fact(c, i, &len);
        if (settled[i] == 1) {
            SP_CHECK(sp_cert_add(&part, f, len, c->k[i]) >= 0);
            fresh += sp_cert_find(k->base, f, len, 0) < 0;
        }
    }
    if (fresh > 0) {
        sp_verify_result r;
        char why[256];
        ck_assert_int_eq(sp_verify_given(&part, k->base, 1, NULL, &r), 0);
        ck_assert_msg(r.ok, "batch %u: %s", k->batches, r.reason);
        ck_assert_uint_eq(r.facts, fresh);
        ck_assert_msg(sp_cert_merge(k->base, &part, why, sizeof why) == 0, "%s", why);
        if (++k->batches == k->left)
            atomic_store(&k->stop, true);
    }
    sp_cert_free(&part);
}

/* 0*14 (a loss: Applegate, Jacobson and Sleator) certified beside the base of 0*11, the facts not
 * answered there (sp_verify_given's count), with the nimbers of a fact base read as a table does. */
static uint64_t certify_14(sp_solver *s, sp_cert *base, const sp_certify_watch *w, int want)
{
    sp_tok key[SP_KEY_MAX];
    size_t len = spots_key(14, key);
    sp_cert c;
    char why[256];
    sp_verify_result r = {.facts = 0};
    ck_assert_int_eq(sp_cert_init(&c, SP_CERT_NORMAL, 14, key, len, SP_CERT_LOSS), 0);
    ck_assert_msg(sp_certify_given(&c, s, base, w, why, sizeof why) == want, "%s", why);
    if (want == 0) {
        ck_assert_int_eq(sp_verify_given(&c, base, 1, NULL, &r), 0);
        ck_assert_msg(r.ok, "%s", r.reason);
        char err[256];
        ck_assert_msg(sp_cert_merge(base, &c, err, sizeof err) == 0, "%s", err);
    }
    sp_cert_free(&c);
    return r.facts;
}

/* A normal-play build hands over its settled facts (certify.h), and every batch checks beside the
 * base: 0*14 built beside the base of 0*11 with a batch after every fact, stopped after 200 of them
 * (the last kept as it stops); the build begun again beside the grown base answers fewer facts than
 * a whole build beside the first base, checks, and the base joined with it passes the plain
 * checker. */
START_TEST(stopped_build_keeps_its_settled_facts)
{
    sp_cert base, first;
    build_cert(&base, SP_CERT_NORMAL, 11, 0);
    build_cert(&first, SP_CERT_NORMAL, 11, 0);
    sp_solver_opts o = {.tt_bytes = (size_t)32 << 20, .threads = 1};
    sp_solver *s = sp_solver_new(&o);
    for (size_t i = 0, flen; i < base.facts.n; i++) /* as a table run reads its base */
        sp_solver_add_nimber(s, sp_cert_fact(&base, i, &flen), flen, base.k[i]);
    sp_tok key[SP_KEY_MAX];
    size_t len = spots_key(14, key);
    ck_assert_int_eq(sp_solver_outcome(s, key, len, SP_PLAY_NORMAL), SP_LOSS);
    uint64_t whole = certify_14(s, &first, NULL, 0);
    keeper k = {.base = &base, .left = 200};
    sp_certify_watch w = {.keep = keep_batch, .arg = &k, .stop = &k.stop};
    size_t before = base.facts.n;
    certify_14(s, &base, &w, 1);
    ck_assert_uint_eq(k.batches, 200);
    ck_assert_uint_ge(base.facts.n, before + 200);
    uint64_t rest = certify_14(s, &base, NULL, 0);
    ck_assert_msg(rest + 200 <= whole, "%llu answered again, %llu in a whole build", (unsigned long long)rest,
                  (unsigned long long)whole);
    ck_assert(verified(&base));
    sp_solver_free(s);
    sp_cert_free(&first);
    sp_cert_free(&base);
}
END_TEST

/* --retry tries a size left unsolved again, each attempt as long as all before it: 0*14 is not solved
 * in one second of search on one thread, but the run ends with it solved (a loss: Applegate, Jacobson
 * and Sleator), its row counting every attempt's seconds; --retry without --time-limit is refused. */
START_TEST(retry_doubles_until_solved)
{
    char out[512], csv[600], rows[4096];
    path_in(out, sizeof out, "retry");
    char *argv[] = {(char *)sp_test_program, "table", "--play", "normal", "--from", "14", "--to", "14",
                    "--time-limit", "1", "--retry", "--tt-mb", "64", "--threads", "1", "--quiet", "--out", out, NULL};
    ck_assert_int_eq(run_quiet(argv, NULL), 0);
    snprintf(csv, sizeof csv, "%s/normal.csv", out);
    results_of(csv, rows, sizeof rows);
    ck_assert_msg(strstr(rows, "14 loss 0 L yes") != NULL, "%s", rows);
    static sp_table t; /* large */
    char err[512];
    t.misere = 0;
    ck_assert_msg(sp_table_load(&t, out, err, sizeof err) == 0, "%s", err);
    ck_assert_double_gt(t.row[14].seconds, 1.0); /* a first attempt of 1 s, and more */
    argv[8] = "--quiet", argv[9] = "--quiet";
    ck_assert_int_eq(run_quiet(argv, NULL), 2);
}
END_TEST

static int run_misere_11(const char *out, int resume, pid_t *child)
{
    char *argv[] = {(char *)sp_test_program, "table", "--play", "misere", "--from", "11", "--to", "11", "--tt-mb", "64",
                    "--threads", "1", "--quiet", "--no-certificates", "--out", (char *)out, resume ? "--resume" : NULL,
                    NULL};
    return run_quiet(argv, child);
}

/* A misère run stopped (Ctrl-C) in the middle of a size saves the land games it has and the size's
 * row as unsolved with the work so far, and --resume finishes the size to the same table as a run
 * that was never stopped (misère 0*11 is a first-player win: Lemoine and Viennot). */
START_TEST(misere_run_stopped_mid_size_resumes)
{
    char fresh[512], stopped[512], csv[700], a[4096], b[4096], lands[700];
    path_in(fresh, sizeof fresh, "fresh");
    path_in(stopped, sizeof stopped, "stopped");
    double t0 = sp_clock_now();
    ck_assert_int_eq(run_misere_11(fresh, 0, NULL), 0);
    double took = sp_clock_now() - t0;
    pid_t pid;
    run_misere_11(stopped, 0, &pid);
    usleep((useconds_t)(took / 3 * 1e6));
    kill(pid, SIGINT);
    int status;
    waitpid(pid, &status, 0);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 1); /* stopped before the end */
    snprintf(lands, sizeof lands, "%s/state/misere-lands.chunks", stopped);
    ck_assert_uint_gt(file_size(lands), 0);
    static sp_table t; /* large */
    char err[512];
    t.misere = 1;
    ck_assert_msg(sp_table_load(&t, stopped, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(t.row[11].present && (!strcmp(t.row[11].outcome, "unsolved") || !strcmp(t.row[11].verified, "stopped")),
                  "%s %s", t.row[11].outcome, t.row[11].verified);
    ck_assert(t.row[11].nodes > 0 && t.row[11].seconds > 0);
    ck_assert_int_eq(run_misere_11(stopped, 1, NULL), 0);
    snprintf(csv, sizeof csv, "%s/misere.csv", fresh);
    results_of(csv, a, sizeof a);
    snprintf(csv, sizeof csv, "%s/misere.csv", stopped);
    results_of(csv, b, sizeof b);
    ck_assert_str_eq(a, b);
    ck_assert_msg(strstr(a, "11 win  W yes;") != NULL, "%s", a);
}
END_TEST

/* A misère run killed (SIGKILL: nothing saved at the end) after a checkpoint leaves the size's row
 * unsolved with the work up to that checkpoint, and --resume solves it with the work of both
 * attempts in the row (misère 0*12 is a first-player win: Lemoine and Viennot). */
START_TEST(killed_misere_run_keeps_its_work)
{
    char out[512], csv[700];
    path_in(out, sizeof out, "killed");
    char *argv[] = {(char *)sp_test_program, "table", "--play", "misere", "--from", "12", "--to", "12", "--tt-mb", "64",
                    "--threads", "1", "--quiet", "--checkpoint", "1", "--no-certificates", "--out", out, NULL, NULL};
    static sp_table t; /* large */
    char err[512];
    t.misere = 1;
    snprintf(csv, sizeof csv, "%s/misere.csv", out);
    pid_t pid;
    run_quiet(argv, &pid);
    for (int i = 0; i < 600 && access(csv, F_OK); i++)
        usleep(50000); /* the first checkpoint, a second or more into the search */
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    ck_assert_msg(WIFSIGNALED(status), "misère 0*12 ended before it was killed");
    ck_assert_msg(sp_table_load(&t, out, err, sizeof err) == 0, "%s", err);
    const sp_row killed = t.row[12];
    ck_assert_msg(killed.present && !strcmp(killed.outcome, "unsolved"), "%s", killed.outcome);
    ck_assert(killed.nodes > 0 && killed.seconds > 0);
    argv[18] = "--resume";
    ck_assert_int_eq(run_quiet(argv, NULL), 0);
    ck_assert_msg(sp_table_load(&t, out, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(t.row[12].outcome, "win");
    ck_assert(t.row[12].nodes > killed.nodes && t.row[12].seconds > killed.seconds);
}
END_TEST

/* Starts a misère table run of 0*1..0*8 in out and stops it (SIGSTOP) once it has written its first
 * row (by then it holds its play's lock and has read both tables), outside the directory's short
 * lock, which a stopped holder would keep from every other run. Returns its pid. */
static pid_t misere_run_paused(const char *out)
{
    char csv[700];
    char *argv[] = {(char *)sp_test_program, "table", "--play", "misere", "--from", "1", "--to", "8", "--tt-mb", "64",
                    "--threads", "1", "--quiet", "--resume", "--out", (char *)out, NULL};
    snprintf(csv, sizeof csv, "%s/misere.csv", out);
    unlink(csv);
    pid_t pid;
    run_quiet(argv, &pid);
    for (int i = 0; i < 600 && access(csv, F_OK); i++)
        usleep(20000);
    char err[512];
    int lock = sp_dirlock_wait(out, "tables", err, sizeof err); /* not stopped while it writes the tables */
    ck_assert_msg(lock >= 0, "%s", err);
    ck_assert_int_eq(kill(pid, SIGSTOP), 0);
    sp_dirlock_release(lock);
    ck_assert_msg(access(csv, F_OK) == 0, "the misère run wrote no row");
    return pid;
}

static int wait_exit(pid_t pid)
{
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Two table runs of the two plays in one directory at once: neither writes over the other's rows,
 * and README.md ends with both. Before, each run wrote both tables as it had read them at its start.
 * Normal 0*7, 0*8 are losses and 0*9 a win (Applegate, Jacobson and Sleator); misère 0*8 a loss
 * (Lemoine and Viennot). */
START_TEST(runs_of_two_plays_share_a_directory)
{
    char out[512], readme[700], buf[65536], err[512];
    path_in(out, sizeof out, "shared");
    char *normal[] = {(char *)sp_test_program, "table", "--play", "normal", "--from", "1", "--to", "6", "--tt-mb", "32",
                      "--threads", "1", "--quiet", "--resume", "--out", out, NULL};
    ck_assert_int_eq(run_quiet(normal, NULL), 0);
    pid_t misere = misere_run_paused(out);
    normal[5] = "7", normal[7] = "9";
    ck_assert_int_eq(run_quiet(normal, NULL), 0);
    ck_assert_int_eq(kill(misere, SIGCONT), 0);
    ck_assert_int_eq(wait_exit(misere), 0);
    static sp_table t[2]; /* large */
    t[1].misere = 1;
    for (int m = 0; m < 2; m++)
        ck_assert_msg(sp_table_load(&t[m], out, err, sizeof err) == 0, "%s", err);
    for (unsigned n = 1; n <= 9; n++)
        ck_assert_msg(t[0].row[n].present, "normal 0*%u lost", n);
    ck_assert_str_eq(t[0].row[8].outcome, "loss");
    ck_assert_str_eq(t[0].row[9].outcome, "win");
    ck_assert_str_eq(t[1].row[8].outcome, "loss");
    snprintf(readme, sizeof readme, "%s/README.md", out);
    sp_test_read_file(readme, buf, sizeof buf);
    ck_assert_msg(strstr(buf, "| 9 | win | 1 |") && strstr(buf, "| 8 | loss |  | L |"), "%s", buf);
}
END_TEST

/* A second run of a play in a directory that a run of that play is writing is refused at once, with
 * one line that says why, and the first run goes on to its end. */
START_TEST(second_run_of_a_play_is_refused)
{
    char out[512], so[256], se[1024];
    path_in(out, sizeof out, "busy");
    ck_assert_int_eq(mkdir(out, 0755), 0);
    pid_t first = misere_run_paused(out);
    char *argv[] = {(char *)sp_test_program, "table", "--play", "misere", "--from", "1", "--to", "3", "--tt-mb", "32",
                    "--threads", "1", "--quiet", "--resume", "--out", out, NULL};
    int rc = sp_test_run2(argv, so, sizeof so, se, sizeof se);
    ck_assert_int_eq(kill(first, SIGCONT), 0);
    ck_assert_int_eq(rc, 1);
    ck_assert_msg(strstr(se, "in use by another 'sprouts table' run of misère play") && sp_test_lines(se) == 1, "%s",
                  se);
    ck_assert_int_eq(wait_exit(first), 0);
    argv[7] = "8";
    ck_assert_int_eq(sp_test_run2(argv, so, sizeof so, se, sizeof se), 0); /* the lock went with its run */
}
END_TEST

/* Runs argv (a table run, not quiet) with its progress on a pipe, and sends Ctrl-C once a line
 * about the certificate shows; the exit status. */
static int run_stopped_at_certificate(char **argv)
{
    int fd[2];
    ck_assert_int_eq(pipe(fd), 0);
    pid_t pid = fork();
    if (pid == 0) {
        freopen("/dev/null", "w", stdout);
        dup2(fd[1], 2);
        close(fd[0]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    FILE *err = fdopen(fd[0], "r");
    char line[1024];
    bool sent = false;
    while (fgets(line, sizeof line, err))
        if (!sent && strstr(line, "the certificate"))
            sent = kill(pid, SIGINT) == 0;
    fclose(err);
    ck_assert_msg(sent, "no progress line about the certificate");
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Runs normal 0*14 alone in DIR (no fact base there), stopped at its certificate. */
static int run_14_stopped_at_certificate(const char *out)
{
    char *argv[] = {(char *)sp_test_program, "table", "--play", "normal", "--from", "14", "--to", "14", "--tt-mb", "64",
                    "--threads", "1", "--out", (char *)out, "--resume", NULL};
    return run_stopped_at_certificate(argv);
}

/* A run stopped (Ctrl-C) while it builds or checks a certificate keeps the search it decided: the
 * row is saved without a certificate, its check "stopped", and --resume certifies it. The search is made short and
 * the certificate long by a state of nimbers never certified (a run to 0*14 elsewhere): the
 * certificate must prove them all (normal 0*14 is a loss: Applegate, Jacobson and Sleator). */
START_TEST(stop_in_certificate_keeps_the_row)
{
    char from[512], out[512], cmd[1600], err[512];
    path_in(from, sizeof from, "from");
    path_in(out, sizeof out, "out");
    char *argv[] = {(char *)sp_test_program, "table", "--play", "normal", "--to", "14", "--tt-mb", "64",
                    "--threads", "1", "--quiet", "--out", from, NULL};
    ck_assert_int_eq(run_quiet(argv, NULL), 0);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp -r '%s/state' '%s/'", out, from, out);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_int_eq(run_14_stopped_at_certificate(out), 1);
    static sp_table t; /* large */
    ck_assert_msg(sp_table_load(&t, out, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(t.row[14].outcome, "loss");
    ck_assert_str_eq(t.row[14].cert, "");
    ck_assert_str_eq(t.row[14].verified, "stopped");
    uint64_t nodes = t.row[14].nodes;
    char *again[] = {(char *)sp_test_program, "table", "--play", "normal", "--from", "14", "--to", "14", "--tt-mb", "64",
                     "--threads", "1", "--quiet", "--out", out, "--resume", NULL};
    ck_assert_int_eq(run_quiet(again, NULL), 0);
    ck_assert_msg(sp_table_load(&t, out, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(t.row[14].outcome, "loss");
    ck_assert_str_ne(t.row[14].cert, "");
    ck_assert_str_eq(t.row[14].verified, "yes");
    ck_assert_uint_gt(t.row[14].nodes, nodes); /* both attempts */
}
END_TEST

/* A misère run stopped (Ctrl-C) while it builds its certificate keeps the build in DIR/state, and
 * --resume goes on to a certificate that checks, then removes the file; the resume's log says `said`.
 * With `other_lives`, the kept build is first made one of another build whose lands of up to 8 lives
 * are valued (misère 0*11 is a first-player win: Lemoine and Viennot; OEIS A164950). */
static void misere_build_stopped_and_resumed(bool other_lives, const char *said)
{
    char out[512], kept[700], err[512], warning[512];
    static char text[1 << 16], rows[1 << 12];
    path_in(out, sizeof out, "out");
    snprintf(kept, sizeof kept, "%s/state/misere-cert-11.chunks", out);
    /* the land store holds the state read back and the lands a build from a cold table values */
    char *argv[] = {(char *)sp_test_program, "table", "--play", "misere", "--from", "11", "--to", "11", "--tt-mb", "64",
                    "--nim-mb", "64", "--threads", "1", "--out", out, NULL, NULL};
    ck_assert_int_eq(run_stopped_at_certificate(argv), 1);
    static sp_table t; /* large */
    t.misere = 1;
    ck_assert_msg(sp_table_load(&t, out, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(t.row[11].outcome, "win");
    ck_assert_str_eq(t.row[11].verified, "stopped");
    ck_assert_uint_gt(file_size(kept), 0);
    if (other_lives) {
        sp_cert c;
        ck_assert_msg(sp_cert_load_info(&c, kept, warning, sizeof warning, err, sizeof err) == 0, "%s", err);
        ck_assert_uint_ne(c.value_lives, 8);
        c.value_lives = 8;
        ck_assert_msg(sp_cert_save(&c, kept, err, sizeof err) == 0, "%s", err);
        sp_cert_free(&c);
    }
    argv[16] = "--resume";
    ck_assert_msg(sp_test_run2(argv, rows, sizeof rows, text, sizeof text) == 0, "%s", text);
    ck_assert_msg(strstr(text, said), "%s", text);
    ck_assert_msg(sp_table_load(&t, out, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(!strcmp(t.row[11].verified, "yes"), "%s", text);
    ck_assert_str_ne(t.row[11].cert, "");
    ck_assert_int_eq(access(kept, F_OK), -1); /* whole now: the fact base holds it */
}

START_TEST(misere_certificate_build_resumes)
{
    misere_build_stopped_and_resumed(false, "the certificate goes on from ");
}
END_TEST

/* ... and one kept by a build that sums other lands (another version's defaults) is set aside with a
 * line, not refused on every resume. */
START_TEST(misere_certificate_build_of_other_lives_set_aside)
{
    misere_build_stopped_and_resumed(true, "built by a program that sums other lands (its misère lives differ) (the "
                                           "certificate is built afresh)");
}
END_TEST

/* A resumed run with nothing left to do still writes DIR/README.md and the plots from the tables
 * (tables joined from elsewhere, or a README of an older version). */
START_TEST(resume_with_nothing_to_do_writes_the_readme)
{
    char out[512], readme[700], plot[700];
    path_in(out, sizeof out, "readme");
    char *argv[] = {(char *)sp_test_program, "table", "--play", "normal", "--to", "4", "--tt-mb", "16", "--threads", "1",
                    "--quiet", "--out", out, "--resume", NULL};
    ck_assert_int_eq(run_quiet(argv, NULL), 0);
    snprintf(readme, sizeof readme, "%s/README.md", out);
    snprintf(plot, sizeof plot, "%s/nodes.svg", out);
    ck_assert_int_eq(unlink(readme), 0);
    ck_assert_int_eq(unlink(plot), 0);
    ck_assert_int_eq(run_quiet(argv, NULL), 0);
    ck_assert_uint_gt(file_size(readme), 0);
    ck_assert_uint_gt(file_size(plot), 0);
}
END_TEST

/* Progress lines: a search gives its own nodes and rate (a table run's solver counts every size
 * before it too); a search made for a pass (the certificate's) names the pass and gives no rate,
 * since the node count is the solver's whole life and the seconds the call's. */
START_TEST(progress_lines_name_the_pass)
{
    char buf[4096] = "";
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    sp_progress p;
    sp_progress_init(&p, "normal 0*9", f);
    sp_solver_stats st = {.nodes = 12345, .seconds = 2, .tt_capacity = 100, .play = SP_PLAY_NORMAL};
    p.nodes0 = 2000; /* the sizes before this one */
    sp_progress_line(&p, &st);
    p.phase = "building the certificate";
    sp_progress_line(&p, &st);
    sp_progress_answers(&p, 3, 14);
    sp_progress_line(&p, &st);
    sp_progress_done(&p);
    sp_progress_line(&p, &st);
    rewind(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    char *second = strchr(buf, '\n');
    ck_assert_ptr_nonnull(second);
    *second++ = '\0';
    ck_assert_msg(strstr(buf, "normal 0*9: 2 s, 10.3k nodes, 5172 nodes/s") != NULL, "%s", buf);
    char *third = strchr(second, '\n'), *fourth = third ? strchr(third + 1, '\n') : NULL;
    ck_assert_ptr_nonnull(fourth);
    *third++ = *fourth++ = '\0';
    ck_assert_msg(strstr(second, "normal 0*9: building the certificate, one of its searches at 2 s, 12.3k nodes in all") &&
                      !strstr(second, "nodes/s"), "%s", second);
    ck_assert_msg(strstr(third, "building the certificate, 3 of a fact's 14 moves answered, one of its searches at 2 s"),
                  "%s", third);
    ck_assert_msg(!strstr(fourth, "answered"), "%s", fourth); /* done: the next pass starts without it */
}
END_TEST

static int run_misere_to_7(const char *out, const char *extra)
{
    char *argv[] = {(char *)sp_test_program, "table", "--play", "misere", "--to", "7", "--tt-mb", "64", "--threads", "1",
                    "--quiet", "--out", (char *)out, "--resume", (char *)extra, NULL};
    return run_quiet(argv, NULL);
}

/* A row solved without a certificate (as when building it ran out of memory) stays so on --resume
 * and is solved again and certified with --recertify (misère 0*7 is a loss: Lemoine and Viennot). */
START_TEST(recertify_certifies_a_row_without_certificate)
{
    char out[512], err[512];
    path_in(out, sizeof out, "recertify");
    ck_assert_int_eq(run_misere_to_7(out, NULL), 0);
    static sp_table t; /* large */
    t.misere = 1;
    ck_assert_msg(sp_table_load(&t, out, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(t.row[7].outcome, "loss");
    ck_assert_str_eq(t.row[7].verified, "yes");
    t.row[7].cert[0] = t.row[7].verified[0] = '\0', t.row[7].cert_facts = 0, t.row[7].nodes = 999999;
    ck_assert_msg(sp_table_save(&t, out, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(run_misere_to_7(out, NULL), 0); /* kept as it is */
    ck_assert_msg(sp_table_load(&t, out, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(t.row[7].cert, "");
    ck_assert_int_eq(run_misere_to_7(out, "--recertify"), 0);
    ck_assert_msg(sp_table_load(&t, out, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(t.row[7].outcome, "loss");
    ck_assert_str_ne(t.row[7].cert, "");
    ck_assert_str_eq(t.row[7].verified, "yes");
    ck_assert_uint_gt(t.row[7].cert_facts, 0);
    ck_assert_uint_ge(t.row[7].nodes, 999999); /* a new attempt adds its nodes (none here) */
    ck_assert_str_eq(t.row[6].verified, "yes"); /* the certified rows are kept */
}
END_TEST

/* --no-certificates: every row solved and saved without a certificate, and said so; --resume
 * --recertify then certifies each (misère 0*1..0*7: Lemoine and Viennot). */
START_TEST(rows_without_certificates_certified_later)
{
    char out[512], err[512], rows[4096];
    path_in(out, sizeof out, "uncertified");
    char *argv[] = {(char *)sp_test_program, "table", "--play", "misere", "--to", "7", "--tt-mb", "64", "--threads", "1",
                    "--quiet", "--out", out, "--no-certificates", NULL};
    ck_assert_int_eq(sp_test_run2(argv, rows, sizeof rows, err, sizeof err), 0);
    ck_assert_msg(strstr(rows, "misere 0*7: loss (predicted so too)") && strstr(rows, "s, no certificate\n"), "%s",
                  rows);
    static sp_table t; /* large */
    t.misere = 1;
    ck_assert_msg(sp_table_load(&t, out, err, sizeof err) == 0, "%s", err);
    for (unsigned n = 1; n <= 7; n++)
        ck_assert_msg(t.row[n].present && t.row[n].cert[0] == '\0' && t.row[n].verified[0] == '\0', "0*%u", n);
    ck_assert_str_eq(t.row[7].outcome, "loss");
    ck_assert_int_eq(run_misere_to_7(out, "--recertify"), 0);
    ck_assert_msg(sp_table_load(&t, out, err, sizeof err) == 0, "%s", err);
    for (unsigned n = 1; n <= 7; n++)
        ck_assert_msg(t.row[n].cert[0] && !strcmp(t.row[n].verified, "yes"), "0*%u", n);
}
END_TEST

static int run_12(const char *out, const char *extra)
{
    char *argv[] = {(char *)sp_test_program, "table", "--play", "normal", "--from", "12", "--to", "12", "--tt-mb", "64",
                    "--threads", "1", "--quiet", "--resume", "--out", (char *)out, (char *)extra, NULL};
    return run_quiet(argv, NULL);
}

/* --base-only leaves the land nimbers of DIR/state unread. Planted there: 0*12 (one land) with the
 * nimber 1. Normal 0*12 is a loss (Applegate, Jacobson and Sleator), so its nimber is 0: read, the
 * planted nimber decides the root a win (of which no checked certificate can be made); left unread, the
 * search finds the loss and its certificate checks. */
START_TEST(base_only_leaves_the_state_unread)
{
    char out[512], state[600], store[700], err[512];
    for (int base_only = 1; base_only >= 0; base_only--) {
        path_in(out, sizeof out, base_only ? "base-only" : "with-state");
        snprintf(state, sizeof state, "%s/state", out);
        ck_assert_int_eq(mkdir(out, 0755), 0);
        ck_assert_int_eq(mkdir(state, 0755), 0);
        sp_pos p;
        sp_tok key[SP_KEY_MAX];
        sp_canon_ctx *ctx = sp_canon_ctx_new();
        sp_pos_spots(&p, 12);
        size_t len = sp_canon_pos(ctx, &p, key);
        sp_canon_ctx_free(ctx);
        sp_buf b = {0};
        sp_keylist_put(&b, key, len, 1);
        ck_assert(!b.failed);
        snprintf(store, sizeof store, "%s/nimbers.store", state);
        ck_assert_int_eq(sp_store_write(store, SP_STORE_NIMBERS, b.data, b.len, err, sizeof err), 0);
        sp_buf_free(&b);
        ck_assert_int_eq(run_12(out, base_only ? "--base-only" : NULL), 0);
        static sp_table t; /* large */
        t.misere = 0;
        ck_assert_msg(sp_table_load(&t, out, err, sizeof err) == 0, "%s", err);
        ck_assert_str_eq(t.row[12].outcome, base_only ? "loss" : "win");
        if (base_only)
            ck_assert_str_eq(t.row[12].verified, "yes");
        else
            ck_assert_str_ne(t.row[12].verified, "yes"); /* no certificate of a win can be checked */
    }
    char *bad[] = {(char *)sp_test_program, "table", "--play", "misere", "--base-only", "--out", out, NULL};
    ck_assert_int_eq(run_quiet(bad, NULL), 2);
}
END_TEST

/* ---------------------------------------------------------------- the variants' table */

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* Antwerp rows join the variants' table beside the others, with only the columns they fill, and
 * DIR/README.md's copy of the section follows (the rest of the README untouched; a README without
 * the section gets it before its provenance, as the main table run writes it). */
START_TEST(variants_table_and_readme)
{
    char csv[512], md[512], readme[512], buf[1 << 16];
    path_in(csv, sizeof csv, "variants.csv");
    path_in(md, sizeof md, "variants.md");
    path_in(readme, sizeof readme, "README.md");
    write_file(readme, "# Results\n\nintro\n\n## Normal play\n\nrows\n\n## Provenance\n\nby whom\n");
    sp_vtable_opts o = {.rules = SP_RULES_BW, .from = 1, .to = 2, .out = dir, .bytes = 16u << 20,
                        .version = "test", .rows = NULL};
    char err[256];
    ck_assert_int_eq(sp_vtable_run(&o, err, sizeof err), 0);
    o.rules = SP_RULES_ANTWERP_COLD, o.to = 3;
    ck_assert_int_eq(sp_vtable_run(&o, err, sizeof err), 0);
    o.rules = SP_RULES_ANTWERP_HOT, o.to = 2;
    ck_assert_int_eq(sp_vtable_run(&o, err, sizeof err), 0);
    sp_test_read_file(csv, buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "\nantwerp-cold,3,0*3,second player wins,,,,,,"));
    ck_assert_ptr_nonnull(strstr(buf, "\nantwerp-hot,2,0*2,first player wins,,,,,,"));
    ck_assert_ptr_nonnull(strstr(buf, "\nbw,2,0*2,win,2,,,first player wins,yes,"));
    char section[1 << 14];
    sp_test_read_file(md, section, sizeof section);
    ck_assert_ptr_nonnull(strstr(section, "**Antwerp sprouts, cold**"));
    ck_assert_ptr_nonnull(strstr(section, "| n | position | outcome | positions expanded | seconds |"));
    ck_assert_ptr_nonnull(strstr(section, "| n | position | outcome | nimber | claim | agrees | positions expanded |"));
    ck_assert_ptr_nonnull(strstr(section, "| 3 | `0*3` | second player wins | "));
    sp_test_read_file(readme, buf, sizeof buf);
    char want[1 << 15];
    snprintf(want, sizeof want, "# Results\n\nintro\n\n## Normal play\n\nrows\n\n%s\n## Provenance\n\nby whom\n", section);
    ck_assert_str_eq(buf, want);
}
END_TEST

/* A case of the second half: tagged so, it runs as a test of its own (tests/meson.build), beside the
 * first half; the two take about as long, so that two cores halve the suite's longest test. */
static void second_half(Suite *s, const char *name, const TTest *t, double timeout)
{
    tcase_set_tags(sp_test_add_case(s, name, t, setup, teardown, timeout), "second");
}

int main(int argc, char **argv)
{
    Suite *s = suite_create("tables");
    TCase *tc = tcase_create("tables");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, store_round_trip_and_corruption);
    tcase_add_test(tc, key_lists_round_trip);
    tcase_add_test(tc, atomic_writes);
    tcase_add_test(tc, csv_round_trip);
    tcase_add_test(tc, verifier_accepts_and_rejects);
    tcase_add_test(tc, minimised_certificates_need_every_fact);
    tcase_add_test(tc, one_root_of_a_fact_base_minimised);
    tcase_add_test(tc, fact_base_of_several_roots);
    tcase_add_test(tc, fact_bases_join_certificates);
    tcase_add_test(tc, fact_bases_read_older_forms);
    tcase_add_test(tc, table_writes_fact_bases);
    tcase_add_test(tc, misere_land_games_saved_and_read);
    tcase_add_test(tc, misere_lost_lands_saved_and_read);
    tcase_add_test(tc, misere_lost_land_of_unknown_game_refused);
    tcase_add_test(tc, derivable_nimbers_follow_from_the_rest);
    tcase_add_test(tc, verifier_stops_when_told);
    tcase_add_test(tc, builder_stops_when_told);
    tcase_add_test(tc, verifier_misere);
    tcase_add_test(tc, verifier_reads_whole_position_certificates);
    tcase_add_test(tc, checker_games_conway_counts);
    tcase_add_test(tc, checker_games_misere_nim);
    tcase_add_test(tc, killed_run_resumes_to_the_same_tables);
    tcase_add_test(tc, ctrl_c_keeps_the_nimbers_proven);
    tcase_add_test(tc, resume_keeps_every_saved_nimber);
    tcase_add_test(tc, time_limit_leaves_sizes_unsolved);
    suite_add_tcase(s, tc);
    sp_test_add_case(s, "recertify", recertify_certifies_a_row_without_certificate, setup, teardown, 120);
    sp_test_add_case(s, "no certificates", rows_without_certificates_certified_later, setup, teardown, 120);
    sp_test_add_case(s, "progress lines", progress_lines_name_the_pass, setup, teardown, 30);
    sp_test_add_case(s, "readme on resume", resume_with_nothing_to_do_writes_the_readme, setup, teardown, 60);
    sp_test_add_case(s, "stop in certificate", stop_in_certificate_keeps_the_row, setup, teardown, 120);
    second_half(s, "stop in misere certificate", misere_certificate_build_resumes, 120);
    second_half(s, "misere certificate of other lives", misere_certificate_build_of_other_lives_set_aside, 120);
    sp_test_add_case(s, "base only", base_only_leaves_the_state_unread, setup, teardown, 120);
    sp_test_add_case(s, "chunks round trip", chunks_round_trip, setup, teardown, 60);
    sp_test_add_case(s, "chunks torn", chunks_torn_last_chunk_is_left_out, setup, teardown, 60);
    sp_test_add_case(s, "chunks corrupt", chunks_corrupt_middle_is_refused, setup, teardown, 60);
    sp_test_add_case(s, "chunks compaction", chunks_compaction, setup, teardown, 60);
    second_half(s, "chunks table", resumed_run_appends_only_what_is_new, 240);
    sp_test_add_case(s, "chunks table given", table_reads_torn_and_refuses_two_values, setup, teardown, 120);
    sp_test_add_case(s, "state lives", state_keeps_the_costly_lands, setup, teardown, 120);
    sp_test_add_case(s, "builder lacks", builder_values_the_lands_it_lacks, setup, teardown, 120);
    sp_test_add_case(s, "builder given", certificates_build_on_the_fact_base, setup, teardown, 120);
    second_half(s, "builder given misere", misere_certificates_build_on_the_fact_base, 120);
    sp_test_add_case(s, "builder keeps", stopped_build_keeps_its_settled_facts, setup, teardown, 240);
    second_half(s, "builder keeps misere", stopped_misere_build_goes_on, 120);
    sp_test_add_case(s, "misere answers counted", misere_answers_counted, setup, teardown, 120);
    sp_test_add_case(s, "retry", retry_doubles_until_solved, setup, teardown, 120);
    second_half(s, "misere stopped", misere_run_stopped_mid_size_resumes, 240);
    second_half(s, "misere killed", killed_misere_run_keeps_its_work, 240);
    second_half(s, "two plays at once", runs_of_two_plays_share_a_directory, 240);
    second_half(s, "one play at a time", second_run_of_a_play_is_refused, 240);
    sp_test_add_case(s, "variants table", variants_table_and_readme, setup, teardown, 60);
    sp_test_add_case(s, "snapshot", snapshot_goes_on_as_the_same_search, setup, teardown, 240);
    second_half(s, "table snapshot", table_run_goes_on_from_its_snapshot, 240);
    second_half(s, "snapshots as it goes", table_run_snapshots_as_it_goes, 240);
    return sp_test_main(s, argc, argv);
}
