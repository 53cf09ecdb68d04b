/* test_base.c: the base layer (base/): the clock, memory figures, the CPU name, atomic file
 * replacement, growing arrays and the random generator, each against the contract of its header. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "cpu.h"
#include "file.h"
#include "grow.h"
#include "mem.h"
#include "rng.h"
#include "testutil.h"

/* ---------------------------------------------------------------- clock */

START_TEST(clock_is_monotonic_and_counts_seconds)
{
    double t0 = sp_clock_now(), last = t0;
    for (int i = 0; i < 100000; i++) {
        double t = sp_clock_now();
        ck_assert(t >= last);
        last = t;
    }
    usleep(50000);
    double slept = sp_clock_now() - t0;
    ck_assert_msg(slept >= 0.045 && slept < 5.0, "50 ms of sleep measured as %g s", slept);
}
END_TEST

/* ---------------------------------------------------------------- memory, CPU */

START_TEST(mem_figures_follow_what_is_touched)
{
    size_t rss, peak;
    sp_mem_usage(&rss, &peak);
    ck_assert_uint_gt(rss, 0);
    ck_assert_uint_ge(peak, rss);
    size_t big = (size_t)64 << 20;
    char *buf = malloc(big);
    ck_assert_ptr_nonnull(buf);
    volatile char *p = buf; /* the writes must happen, though nothing reads them */
    for (size_t i = 0; i < big; i += 4096)
        p[i] = 1;
    size_t rss2, peak2;
    sp_mem_usage(&rss2, &peak2);
    ck_assert_uint_ge(rss2, rss + big / 2);
    ck_assert_uint_ge(peak2, rss2);
    ck_assert_uint_ge(peak2, peak);
    ck_assert_uint_ge(sp_mem_peak(), peak2);
    free(buf);
}
END_TEST

START_TEST(cpu_model_is_one_line)
{
    char model[256], small[4];
    sp_cpu_model(model, sizeof model);
    ck_assert_uint_gt(strlen(model), 0);
    ck_assert_ptr_null(strchr(model, '\n'));
    ck_assert(model[0] != ' ' && model[0] != ':');
    sp_cpu_model(small, sizeof small);
    ck_assert_uint_eq(strlen(small), 3);
    ck_assert_int_eq(strncmp(small, model, 3), 0);
}
END_TEST

/* ---------------------------------------------------------------- atomic files */

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/sp_base_test_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[400];
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* The whole file at path (NUL-terminated, at most cap - 1 bytes), or "" when it cannot be read. */
static const char *contents(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
    return buf;
}

static int entries(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return n;
}

static int write_whole(const char *path, const char *text)
{
    sp_file_out o;
    if (sp_file_open(&o, path))
        return -1;
    fputs(text, o.f);
    return sp_file_commit(&o);
}

START_TEST(file_replaced_whole_or_not_at_all)
{
    char path[128], buf[4096];
    snprintf(path, sizeof path, "%s/state.store", dir);
    ck_assert_int_eq(write_whole(path, "old contents\n"), 0);
    ck_assert_str_eq(contents(path, buf, sizeof buf), "old contents\n");
    ck_assert_int_eq(write_whole(path, "new, longer contents\n"), 0);
    ck_assert_str_eq(contents(path, buf, sizeof buf), "new, longer contents\n");
    ck_assert_int_eq(entries(), 1); /* no temporary file left beside it */

    /* while a replacement is under way the old file stands; given up, it still does */
    sp_file_out o;
    ck_assert_int_eq(sp_file_open(&o, path), 0);
    fputs("half of a third", o.f);
    fflush(o.f);
    ck_assert_str_eq(contents(path, buf, sizeof buf), "new, longer contents\n");
    sp_file_abort(&o);
    ck_assert_str_eq(contents(path, buf, sizeof buf), "new, longer contents\n");
    ck_assert_int_eq(entries(), 1);
}
END_TEST

START_TEST(file_in_missing_directory_fails)
{
    char path[128];
    snprintf(path, sizeof path, "%s/absent/state.store", dir);
    errno = 0;
    ck_assert_int_eq(write_whole(path, "x"), -1);
    ck_assert_int_eq(errno, ENOENT);
    ck_assert_int_eq(entries(), 0);
}
END_TEST

/* ---------------------------------------------------------------- growing arrays, random numbers */

START_TEST(grow_keeps_contents_and_room)
{
    uint32_t *v = NULL;
    size_t cap = 0;
    for (uint32_t i = 0; i < 100000; i++) {
        ck_assert_int_eq(sp_grow((void **)&v, &cap, i + 1, sizeof *v), 0);
        ck_assert_uint_ge(cap, i + 1);
        v[i] = i * 7;
    }
    for (uint32_t i = 0; i < 100000; i++)
        ck_assert_uint_eq(v[i], i * 7);
    uint32_t *before = v;
    size_t cap_before = cap;
    ck_assert_int_eq(sp_grow((void **)&v, &cap, cap, sizeof *v), 0); /* room enough: nothing moves */
    ck_assert_ptr_eq(v, before);
    ck_assert_uint_eq(cap, cap_before);
    ck_assert_uint_lt(cap, 2 * 100000); /* doubling, not more */
    free(v);
}
END_TEST

START_TEST(rng_reproducible_from_a_seed)
{
    /* splitmix64's published sequence from seed 0: random games, tests and benchmarks rely on it */
    uint64_t s = 0;
    ck_assert_uint_eq(sp_rng_next(&s), 0xe220a8397b1dcdafull);
    ck_assert_uint_eq(sp_rng_next(&s), 0x6e789e6aa1b965f4ull);
    ck_assert_uint_eq(sp_rng_next(&s), 0x06c45d188009454full);
    uint64_t a = 12345, b = 12345, c = 12346;
    int differ = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = sp_rng_next(&a);
        ck_assert_uint_eq(x, sp_rng_next(&b));
        differ += x != sp_rng_next(&c);
    }
    ck_assert_int_eq(differ, 1000);
}
END_TEST

int main(int argc, char **argv)
{
    Suite *s = suite_create("base");
    TCase *tc = tcase_create("base");
    tcase_add_test(tc, clock_is_monotonic_and_counts_seconds);
    tcase_add_test(tc, mem_figures_follow_what_is_touched);
    tcase_add_test(tc, cpu_model_is_one_line);
    tcase_add_test(tc, grow_keeps_contents_and_room);
    tcase_add_test(tc, rng_reproducible_from_a_seed);
    TCase *files = tcase_create("files");
    tcase_add_checked_fixture(files, make_dir, remove_dir);
    tcase_add_test(files, file_replaced_whole_or_not_at_all);
    tcase_add_test(files, file_in_missing_directory_fails);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, files);
    return sp_test_main(s, argc, argv);
}
