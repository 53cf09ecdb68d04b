/* test_tables.c: the table generator's parts: store files (round trip, atomic writes, corruption),
 * the CSV tables, certificates and their independent checker, and a table run killed with SIGKILL
 * then resumed. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cert.h"
#include "certify.h"
#include "report.h"
#include "store.h"
#include "testutil.h"
#include "verify.h"

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
                           "2026-11-29,Some CPU (2 cores)\n");
    memset(&back, 0, sizeof back);
    back.misere = 1;
    ck_assert_int_eq(sp_table_load(&back, dir, err, sizeof err), 0);
    ck_assert(back.row[7].present && back.row[12].present && !back.row[8].present);
    ck_assert_str_eq(back.row[7].outcome, "loss");
    ck_assert_uint_eq(back.row[7].cert_facts, 442);
    ck_assert_str_eq(back.row[12].outcome, "unsolved");
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

static void build_cert(sp_cert *c, int play, unsigned n)
{
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    sp_pos p;
    sp_tok key[SP_KEY_MAX];
    sp_pos_spots(&p, n);
    size_t len = sp_canon_pos(ctx, &p, key);
    sp_canon_ctx_free(ctx);
    sp_solver_opts o = {.tt_bytes = (size_t)32 << 20, .threads = 1};
    sp_solver *s = sp_solver_new(&o);
    sp_outcome out = sp_solver_outcome(s, key, len, play == SP_CERT_MISERE ? SP_PLAY_MISERE : SP_PLAY_NORMAL);
    ck_assert_int_eq(sp_cert_init(c, play, n, key, len, out == SP_WIN ? SP_CERT_WIN : SP_CERT_LOSS), 0);
    ck_assert_int_eq(sp_certify(c, s), 0);
    sp_solver_free(s);
}

static int verified(const sp_cert *c)
{
    sp_verify_result r;
    ck_assert_int_eq(sp_verify(c, 1, &r), 0);
    return r.ok;
}

START_TEST(verifier_accepts_and_rejects)
{
    char path[512], err[512];
    /* normal play: 0*7 is lost, 0*9 won (Applegate, Jacobson, Sleator) */
    for (unsigned n = 7; n <= 9; n += 2) {
        sp_cert c, back;
        build_cert(&c, SP_CERT_NORMAL, n);
        ck_assert_int_eq(c.outcome, n == 7 ? SP_CERT_LOSS : SP_CERT_WIN);
        ck_assert(verified(&c));
        path_in(path, sizeof path, "c.cert");
        ck_assert_int_eq(sp_cert_save(&c, path, err, sizeof err), 0);
        ck_assert_int_eq(sp_cert_load(&back, path, err, sizeof err), 0);
        ck_assert_uint_eq(back.facts.n, c.facts.n);
        ck_assert(verified(&back));
        /* one flipped entry anywhere makes it fail */
        for (size_t i = 0; i < back.facts.n; i += 1 + back.facts.n / 7) {
            back.nimber[i] ^= 1;
            ck_assert_msg(!verified(&back), "0*%u with fact %zu flipped passed", n, i);
            back.nimber[i] ^= 1;
        }
        /* and so does the opposite claim */
        back.outcome ^= 1;
        ck_assert(!verified(&back));
        sp_cert_free(&c);
        sp_cert_free(&back);
    }
}
END_TEST

START_TEST(verifier_misere)
{
    /* misère: 0*5 is won, 0*7 lost (OEIS A164950) */
    for (unsigned n = 5; n <= 7; n += 2) {
        sp_cert c;
        build_cert(&c, SP_CERT_MISERE, n);
        ck_assert_int_eq(c.outcome, n == 5 ? SP_CERT_WIN : SP_CERT_LOSS);
        ck_assert(verified(&c));
        /* replacing a claimed loss by a won position (its first child's first answer is lost, so the
         * child itself is won... use the root of 0*5, a win, as the flipped entry) */
        sp_cert bad;
        sp_canon_ctx *ctx = sp_canon_ctx_new();
        sp_pos p;
        sp_tok win[SP_KEY_MAX];
        sp_pos_spots(&p, 5);
        size_t wl = sp_canon_pos(ctx, &p, win);
        sp_canon_ctx_free(ctx);
        ck_assert_int_eq(sp_cert_init(&bad, c.play, c.spots, c.root, c.root_len, c.outcome), 0);
        ck_assert_int_ge(sp_cert_add(&bad, win, wl, 0), 0);
        for (size_t i = 1; i < c.facts.n; i++)
            ck_assert_int_ge(sp_cert_add(&bad, c.facts.tok + c.facts.off[i], c.facts.len[i], 0), 0);
        ck_assert(!verified(&bad));
        sp_cert_free(&bad);
        sp_cert_free(&c);
    }
}
END_TEST

/* ---------------------------------------------------------------- a killed run, resumed */

static int run_table(const char *out, int resume, pid_t *child)
{
    char *argv[12] = {(char *)sp_test_program, "table", "--from", "1", "--to", "8", "--tt-mb", "32",
                      "--out", (char *)out, resume ? "--resume" : "--quiet", NULL};
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

int main(int argc, char **argv)
{
    Suite *s = suite_create("tables");
    TCase *tc = tcase_create("tables");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, store_round_trip_and_corruption);
    tcase_add_test(tc, atomic_writes);
    tcase_add_test(tc, csv_round_trip);
    tcase_add_test(tc, verifier_accepts_and_rejects);
    tcase_add_test(tc, verifier_misere);
    tcase_add_test(tc, killed_run_resumes_to_the_same_tables);
    suite_add_tcase(s, tc);
    return sp_test_main(s, argc, argv);
}
