/* testutil.h: helpers shared by the Check suites: running a built program and capturing its output,
 * and a main() that runs one suite. */
#ifndef SP_TESTUTIL_H
#define SP_TESTUTIL_H

#include <check.h>
#include <stddef.h>

/* Runs argv (argv[0] is the program's path) with stdin from /dev/null; captures stdout (up to cap-1
 * bytes, NUL-terminated) and returns the exit status, or -1 if it did not exit normally. */
int sp_test_run(char *const argv[], char *out, size_t cap);

/* Same, with stderr captured into err as well. */
int sp_test_run2(char *const argv[], char *out, size_t cap, char *err, size_t errcap);

/* The contents of a file (up to cap - 1 bytes) into buf, NUL-terminated; the test fails when it
 * cannot be opened. Returns buf. */
char *sp_test_read_file(const char *path, char *buf, size_t cap);

/* Number of lines (newlines) in a captured output. */
int sp_test_lines(const char *s);

/* The program path given to the test binary on its command line (meson passes it). */
extern const char *sp_test_program;

/* Adds a test in a case of its own (so that each gets its own timeout, in seconds), with a fixture
 * run around it (setup and teardown may be NULL); returns the case (to tag it). */
TCase *sp_test_add_case(Suite *s, const char *name, const TTest *t, SFun setup, SFun teardown, double timeout);

/* A fresh scratch directory /tmp/sp_TAG_test_XXXXXX into dir (cap bytes), made or the test fails;
 * sp_test_rmdir removes it and everything in it. */
void sp_test_mkdir(char *dir, size_t cap, const char *tag);
void sp_test_rmdir(const char *dir);

/* An assertion for hot loops: fails the test as ck_assert does, but costs nothing when it holds.
 * Check marks each assertion that holds, in a forked test one write(2) to its pipe: the raw minimax
 * of the variants suite spent half of its 43 s so. */
#define SP_CHECK(expr)                                                                                         \
    do {                                                                                                       \
        if (!(expr))                                                                                           \
            ck_abort_msg("%s:%d: assertion '%s' failed", __FILE__, __LINE__, #expr);                          \
    } while (0)

/* Runs the suite with CK_NORMAL output; returns the process exit status. */
int sp_test_main(Suite *s, int argc, char **argv);

#endif
