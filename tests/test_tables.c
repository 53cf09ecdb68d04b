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
#include "clock.h"
#include "grow.h"
#include "keylist.h"
#include "report.h"
#include "store.h"
#include "testutil.h"
#include "verify.h"
#include "vgame.h"

static char dir[256];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/sp_tables_test_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
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
static void build_cert(sp_cert *c, int play, unsigned n, int lives)
{
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    sp_pos p;
    sp_tok key[SP_KEY_MAX];
    sp_pos_spots(&p, n);
    size_t len = sp_canon_pos(ctx, &p, key);
    sp_canon_ctx_free(ctx);
    sp_solver_opts o = {.tt_bytes = (size_t)32 << 20, .threads = 1, .misere_lives = lives};
    sp_solver *s = sp_solver_new(&o);
    sp_outcome out = sp_solver_outcome(s, key, len, play == SP_CERT_MISERE ? SP_PLAY_MISERE : SP_PLAY_NORMAL);
    ck_assert_int_eq(sp_cert_init(c, play, n, key, len, out == SP_WIN ? SP_CERT_WIN : SP_CERT_LOSS), 0);
    ck_assert_int_eq(sp_certify(c, s, NULL, NULL, NULL, NULL), 0);
    sp_solver_free(s);
}

static int verified(const sp_cert *c)
{
    sp_verify_result r;
    ck_assert_int_eq(sp_verify(c, 1, NULL, &r), 0);
    return r.ok;
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
    const char *why = NULL;
    ck_assert_int_eq(sp_cert_init(&c, SP_CERT_NORMAL, 10, key, len, SP_CERT_WIN), 0);
    ck_assert_int_eq(sp_certify(&c, s, NULL, NULL, &stop, &why), 1);
    ck_assert_str_eq(why, "stopped");
    sp_cert_free(&c);
    atomic_store(&stop, false);
    ck_assert_int_eq(sp_cert_init(&c, SP_CERT_NORMAL, 10, key, len, SP_CERT_WIN), 0);
    ck_assert_int_eq(sp_certify(&c, s, NULL, NULL, &stop, NULL), 0);
    ck_assert(verified(&c));
    sp_cert_free(&c);
    sp_solver_free(s);
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
    char path[512], err[512];
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
            path_in(path, sizeof path, "m.cert");
            ck_assert_int_eq(sp_cert_save(&c, path, err, sizeof err), 0);
            ck_assert_int_eq(sp_cert_load(&back, path, err, sizeof err), 0);
            ck_assert_uint_eq(back.facts.n, c.facts.n);
            ck_assert_uint_eq(back.lands.n, c.lands.n);
            ck_assert_uint_eq(back.ngames, c.ngames);
            ck_assert(verified(&back));
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
    ck_assert_int_eq(sp_children_add(l->lands, key, len), 1);
    ck_assert_int_eq(sp_grow((void **)&l->nimbers, &l->cap, l->lands->n, sizeof *l->nimbers), 0);
    l->nimbers[l->lands->n - 1] = nimber;
    return 0;
}

/* The lands of DIR/state/nimbers.store (keys in a list, nimbers beside them); false when absent. */
static bool load_nimbers(const char *dir, sp_children *lands, uint32_t **nimbers)
{
    char path[600], err[512];
    void *payload;
    size_t len;
    sp_store_kind kind;
    snprintf(path, sizeof path, "%s/state/nimbers.store", dir);
    if (sp_store_read_either(path, SP_STORE_NIMBERS_SORTED, SP_STORE_NIMBERS, &kind, &payload, &len, err, sizeof err))
        return false;
    loaded l = {lands, NULL, 0};
    ck_assert_int_eq(sp_keylist_each(payload, len, kind == SP_STORE_NIMBERS_SORTED, load_one, &l), 0);
    free(payload);
    *nimbers = l.nimbers;
    return true;
}

/* A run stopped by Ctrl-C in the middle of its first size keeps the land nimbers it had proven: each
 * is one that the whole run proves too, with the same nimber (both runs are one thread, the same
 * search until the stop). Resumed, the run gets the same outcome. */
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
    ck_assert_int_eq(nodes_of_14(stopped), -1);
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
    ck_assert_int_gt(nodes_of_14(stopped), 0);
}
END_TEST

/* A made-up land key per i (a store only asks that a key ends its land with SP_TK_END_L), which no
 * game reaches. */
static size_t numbered_land(uint32_t i, sp_tok key[5])
{
    for (unsigned j = 0; j < 4; j++)
        key[j] = (sp_tok)(SP_TK_ONE + ((i >> (5 * j)) & 31));
    key[4] = SP_TK_END_L;
    return 5;
}

enum { SAVED_LANDS = 200000 }; /* more than a store of 16 MiB holds (131,072) */

static int run_small(const char *out, const char *nim_mb)
{
    char *argv[] = {(char *)sp_test_program, "table", "--play", "normal", "--from", "1", "--to", "3",
                    "--tt-mb", "32", "--threads", "1", "--quiet", "--resume", "--out", (char *)out,
                    nim_mb ? "--nim-mb" : NULL, (char *)nim_mb, NULL};
    return run_quiet(argv, NULL);
}

/* How many of the made-up lands DIR/state/nimbers.store holds, each with nimber i % 7; with sorted,
 * the store must list its lands sorted by key, as the program writes it (lands alike side by side
 * compress to about half). */
static size_t saved_lands_kept(const char *out, bool sorted)
{
    sp_children lands;
    uint32_t *v;
    sp_children_init(&lands);
    ck_assert(load_nimbers(out, &lands, &v));
    for (size_t i = 1; sorted && i < lands.n; i++)
        ck_assert_int_lt(sp_key_cmp(lands.tok + lands.off[i - 1], lands.len[i - 1], lands.tok + lands.off[i],
                                    lands.len[i]),
                         0);
    size_t kept = 0;
    for (uint32_t i = 0; i < SAVED_LANDS; i++) {
        sp_tok key[5];
        long j = sp_children_find(&lands, key, numbered_land(i, key));
        kept += j >= 0 && v[j] == i % 7;
    }
    sp_children_free(&lands);
    free(v);
    return kept;
}

/* Resumed beside more saved land nimbers than the nimber store's default budget holds, a run makes
 * the budget large enough, so that its next save writes them all back (before, the store kept the
 * first 131,072 and the run saved only those: the others were lost); a budget set too small for them
 * is refused before anything is searched or written. */
START_TEST(resume_keeps_every_saved_nimber)
{
    char out[512], state[600], path[700], err[512];
    path_in(out, sizeof out, "big");
    snprintf(state, sizeof state, "%s/state", out);
    ck_assert_int_eq(mkdir(out, 0755), 0);
    ck_assert_int_eq(mkdir(state, 0755), 0);
    sp_buf b = {0};
    for (uint32_t i = 0; i < SAVED_LANDS; i++) {
        sp_tok key[5];
        sp_keylist_put(&b, key, numbered_land(i, key), i % 7); /* the earlier format: plain, any order */
    }
    ck_assert(!b.failed);
    snprintf(path, sizeof path, "%s/nimbers.store", state);
    ck_assert_int_eq(sp_store_write(path, SP_STORE_NIMBERS, b.data, b.len, err, sizeof err), 0);
    sp_buf_free(&b);
    ck_assert_int_eq(run_small(out, "16"), 2);
    ck_assert_uint_eq(saved_lands_kept(out, false), SAVED_LANDS); /* as the test wrote it */
    snprintf(path, sizeof path, "%s/normal.csv", out);
    ck_assert_uint_eq(file_size(path), 0); /* nothing solved */
    ck_assert_int_eq(run_small(out, NULL), 0);
    ck_assert_uint_eq(saved_lands_kept(out, true), SAVED_LANDS);
    ck_assert_uint_gt(file_size(path), 0);
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
    return sp_test_main(s, argc, argv);
}
