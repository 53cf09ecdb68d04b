/* testutil.c: program runner and suite driver for the Check tests (testutil.h). */
#include "testutil.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char *sp_test_program;

static void drain(int fd, char *buf, size_t cap)
{
    size_t len = 0;
    char sink[4096];
    for (;;) {
        char *dst = len + 1 < cap ? buf + len : sink;
        size_t room = len + 1 < cap ? cap - 1 - len : sizeof sink;
        ssize_t n = read(fd, dst, room);
        if (n <= 0)
            break;
        if (dst != sink)
            len += (size_t)n;
    }
    if (cap)
        buf[len] = '\0';
}

int sp_test_run2(char *const argv[], char *out, size_t cap, char *err, size_t errcap)
{
    char errfile[] = "/tmp/sp_test_err_XXXXXX";
    int efd = mkstemp(errfile);
    int pipefd[2];
    if (efd < 0 || pipe(pipefd))
        return -1;
    unlink(errfile);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        dup2(devnull, 0);
        dup2(pipefd[1], 1);
        dup2(efd, 2);
        close(pipefd[0]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(pipefd[1]);
    drain(pipefd[0], out, cap);
    close(pipefd[0]);
    int status;
    waitpid(pid, &status, 0);
    lseek(efd, 0, SEEK_SET);
    if (err)
        drain(efd, err, errcap);
    close(efd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int sp_test_run(char *const argv[], char *out, size_t cap)
{
    return sp_test_run2(argv, out, cap, NULL, 0);
}

char *sp_test_read_file(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    size_t n = fread(buf, 1, cap - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

int sp_test_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

TCase *sp_test_add_case(Suite *s, const char *name, const TTest *t, SFun setup, SFun teardown, double timeout)
{
    TCase *tc = tcase_create(name);
    if (setup || teardown)
        tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, timeout);
    tcase_add_test(tc, t);
    suite_add_tcase(s, tc);
    return tc;
}

int sp_test_main(Suite *s, int argc, char **argv)
{
    sp_test_program = argc > 1 ? argv[1] : NULL;
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

void sp_test_mkdir(char *dir, size_t cap, const char *tag)
{
    snprintf(dir, cap, "/tmp/sp_%s_test_XXXXXX", tag);
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

void sp_test_rmdir(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}
