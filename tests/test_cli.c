/* test_cli.c: the command-line contract of `sprouts`: exit codes (0 ok, 2 usage), --help on every
 * subcommand, errors as one line on stderr. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

static char out[1 << 16], err[1 << 14];

static int run(const char *a1, const char *a2, const char *a3)
{
    char *argv[] = {(char *)sp_test_program, (char *)a1, (char *)a2, (char *)a3, NULL};
    return sp_test_run2(argv, out, sizeof out, err, sizeof err);
}


START_TEST(help_and_version)
{
    ck_assert_int_eq(run("--help", NULL, NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "canon"));
    ck_assert_ptr_nonnull(strstr(out, "children"));
    ck_assert_int_eq(run("--version", NULL, NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "sprouts "));
    ck_assert_ptr_nonnull(strstr(out, "OpenMP"));
}
END_TEST

START_TEST(unknown_subcommand_and_option)
{
    ck_assert_int_eq(run("frobnicate", NULL, NULL), 2);
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_str_eq(out, "");
    ck_assert_int_eq(run("--frobnicate", NULL, NULL), 2);
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_int_eq(run(NULL, NULL, NULL), 2);
    ck_assert_int_eq(run("canon", "--frobnicate", "0*3"), 2);
    ck_assert_int_eq(sp_test_lines(err), 1);
}
END_TEST

START_TEST(every_subcommand_has_help)
{
    ck_assert_int_eq(run("--help", NULL, NULL), 0);
    char listing[1 << 14];
    strncpy(listing, out, sizeof listing - 1);
    listing[sizeof listing - 1] = '\0';
    /* subcommand lines look like "  name   summary" after the "Subcommands:" header */
    char *p = strstr(listing, "Subcommands:");
    ck_assert_ptr_nonnull(p);
    int seen = 0;
    for (char *line = strchr(p, '\n'); line && line[1] == ' '; line = strchr(line + 1, '\n')) {
        char name[32];
        if (sscanf(line + 1, " %31s", name) != 1)
            break;
        ck_assert_int_eq(run(name, "--help", NULL), 0);
        ck_assert_ptr_nonnull(strstr(out, "Usage: sprouts"));
        seen++;
    }
    ck_assert_int_ge(seen, 3);
}
END_TEST

START_TEST(bad_position_is_usage_error)
{
    ck_assert_int_eq(run("canon", "0*3x", NULL), 2);
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_ptr_nonnull(strstr(err, "column 4"));
    ck_assert_int_eq(run("children", "1a", NULL), 2);
    ck_assert_int_eq(run("canon", NULL, NULL), 2);
    /* line breaks and control bytes come back escaped, a long string cut: one line all the same */
    ck_assert_int_eq(run("canon", "0*2.\n1a1a|\x01\n", NULL), 2);
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_ptr_nonnull(strstr(err, "'0*2.\\n1a1a|\\x01\\n': column 5: unknown character '\\n'"));
    char longpos[2000] = "";
    for (int i = 0; i < 300; i++)
        strcat(longpos, "0.\n");
    ck_assert_int_eq(run("solve", longpos, NULL), 2);
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_uint_lt(strlen(err), 400);
    ck_assert_ptr_nonnull(strstr(err, "...'"));
}
END_TEST

START_TEST(table_and_verify_usage)
{
    ck_assert_int_eq(run("table", "--play", "sideways"), 2);
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_int_eq(run("table", "--from=9", "--to=3"), 2);
    ck_assert_int_eq(run("table", "--time-limit", "soon"), 2);
    ck_assert_int_eq(run("table", "--to", "201"), 2);
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_int_eq(run("solve", "0*3", "--misere-lives=many"), 2);
    ck_assert_int_eq(run("verify", "/nonexistent/file.cert", NULL), 2);
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_int_eq(run("verify", NULL, NULL), 2);
    ck_assert_int_eq(run("compact", "/nonexistent/nimbers.chunks", NULL), 2);
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_int_eq(run("compact", NULL, NULL), 2);
    ck_assert_int_eq(run("compact", "a.chunks", "b.chunks"), 2);
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_int_eq(run("solve", "0*3", "--threads=0"), 2);
    ck_assert_int_eq(run("solve", "0*3", "--tt-mb=lots"), 2);
    ck_assert_int_eq(run("solve", "0*3", "--nim-mb=8"), 2); /* the store's least is 16 MiB */
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_int_eq(run("table", "--nim-mb", "x"), 2);
    ck_assert_int_eq(run("table", "--game-mb", "8"), 2); /* the game table's least is 16 MiB */
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_int_eq(run("solve", "0*5", "--game-mb=40"), 0);
    ck_assert_int_eq(run("solve", "0*5", "--nim-mb=40"), 0); /* and the report says what it got */
    ck_assert_ptr_nonnull(strstr(out, "of 40 MiB)"));
    ck_assert_int_eq(run("solve", "--nimber", "--misere"), 2);
    ck_assert_int_eq(run("table", "--snapshot=results/search.snap", NULL), 2); /* gigabytes, in what git carries */
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_int_eq(run("table", "--snapshot-every=60", NULL), 2); /* of what, without --snapshot */
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_int_eq(run("table", "--snapshot=/tmp/x.snap", "--snapshot-every=soon"), 2);
    ck_assert_int_eq(run("table", "--minimise", "0"), 2);
    ck_assert_int_eq(run("table", "--no-certificates", "--minimise=3"), 2); /* nothing to minimise */
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_int_eq(run("minimise", "/nonexistent/file.cert", NULL), 2);
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_int_eq(run("minimise", NULL, NULL), 2);
    ck_assert_int_eq(run("minimise", "--rounds", "many"), 2);
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_int_eq(run("minimise", "--seed=-1", "x.cert"), 2);
    /* a path option followed by another option is a slip, not a directory named "--resume" */
    ck_assert_int_eq(run("table", "--out", "--resume"), 2);
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_ptr_nonnull(strstr(err, "--out needs a path"));
    ck_assert_int_eq(run("compact", "--out", "-q"), 2);
    ck_assert_int_eq(run("replay", "--svg", "--json"), 2);
}
END_TEST

/* A table run states its memory budgets (a table asked for that is not a power of two gets the largest
 * within it, and the line says so), and warns when together they may pass the machine's memory
 * (told here by SPROUTS_MEMORY_MB: 100 MiB, against a table of 64 and games of 64). */
START_TEST(table_reports_budgets)
{
    char dir[256];
    sp_test_mkdir(dir, sizeof dir, "budgets");
    char *small[] = {(char *)sp_test_program, "table", "--play", "misere", "--to", "1", "--tt-mb", "16",
                     "--out", dir, NULL};
    ck_assert_int_eq(sp_test_run2(small, out, sizeof out, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "memory budgets: table 16 MiB"));
    ck_assert_ptr_nonnull(strstr(err, "misère games"));
    ck_assert_ptr_null(strstr(err, "warning"));
    ck_assert_ptr_null(strstr(err, "asked"));
    char *odd[] = {(char *)sp_test_program, "table", "--play", "misere", "--to", "1", "--tt-mb", "24",
                   "--out", dir, "--resume", NULL}; /* a power of two: 16 MiB, and the line says so */
    ck_assert_int_eq(sp_test_run2(odd, out, sizeof out, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "memory budgets: table 16 MiB (of 24 asked"));
    char *big[] = {(char *)sp_test_program, "table", "--play", "misere", "--to", "1", "--tt-mb", "64",
                   "--game-mb", "64", "--quiet", "--out", dir, "--resume", NULL};
    setenv("SPROUTS_MEMORY_MB", "100", 1);
    ck_assert_int_eq(sp_test_run2(big, out, sizeof out, err, sizeof err), 0);
    unsetenv("SPROUTS_MEMORY_MB");
    ck_assert_ptr_nonnull(strstr(err, "warning: these budgets may pass this machine's memory"));
    ck_assert_int_eq(sp_test_lines(err), 1);
    big[10] = "--resume"; /* not quiet: it says what the state gave misère play */
    ck_assert_int_eq(sp_test_run2(big, out, sizeof out, err, sizeof err), 0);
    ck_assert_msg(strstr(err, "misère play starts from ") && strstr(err, " land games and "), "%s", err);
    sp_test_rmdir(dir);
}
END_TEST

START_TEST(solve_json)
{
    ck_assert_int_eq(run("solve", "0*4", "--json"), 0);
    ck_assert_ptr_nonnull(strstr(out, "\"outcome\": \"win\""));
    ck_assert_ptr_nonnull(strstr(out, "\"play\": \"normal\""));
    ck_assert_int_eq(sp_test_lines(out), 1);
    ck_assert_int_eq(run("solve", "0*4", "--misere"), 0);
    ck_assert_ptr_nonnull(strstr(out, "outcome: loss")); /* misère 0*4 is a loss (A164950) */
    char *farm[] = {(char *)sp_test_program, "solve", "0*12", "--farm", "--threads", "3", "--tt-mb", "64", NULL};
    ck_assert_int_eq(sp_test_run2(farm, out, sizeof out, err, sizeof err), 0); /* a loss (Applegate et al.) */
    ck_assert_ptr_nonnull(strstr(out, "outcome: loss"));
    ck_assert_ptr_nonnull(strstr(out, " 3 workers of 1 thread, "));
    char *misere_farm[] = {(char *)sp_test_program, "solve", "0*3", "--misere", "--farm", NULL};
    ck_assert_int_eq(sp_test_run2(misere_farm, out, sizeof out, err, sizeof err), 2);
    ck_assert_ptr_nonnull(strstr(err, "normal play only"));
    ck_assert_int_eq(sp_test_lines(err), 1);
}
END_TEST

/* Antwerp positions on the command line: colours read and printed, the class said, bad colours
 * refused on one line with their column (the plain commands refuse colours). */
START_TEST(antwerp_positions)
{
    ck_assert_int_eq(run("solve", "AB:r|0.AB:r", "--rules=antwerp-cold"), 0);
    ck_assert_ptr_nonnull(strstr(out, "(canonical AB:r|0.AB:r)"));
    ck_assert_int_eq(run("solve", "0*2", "--rules=antwerp-hot"), 0);
    ck_assert_ptr_nonnull(strstr(out, "outcome: first player wins (Left moving first wins, Right moving first wins)"));
    ck_assert_int_eq(run("solve", "0*2 ", "--rules=antwerp-cold"), 0);
    ck_assert_ptr_nonnull(strstr(out, "outcome: second player wins"));
    ck_assert_int_eq(run("solve", "2:r2:q", "--rules=antwerp-cold"), 2);
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_ptr_nonnull(strstr(err, "'2:r2:q': column 5: a colour is ':r' (red), ':b' (blue) or ':w' (white), not ':q'"));
    ck_assert_int_eq(run("canon", "2:r2", NULL), 2);
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_ptr_nonnull(strstr(err, "antwerp"));
}
END_TEST

/* Ctrl-C during a long search: a clean stop with a one-line message and exit status 1. */
START_TEST(interrupt_stops_cleanly)
{
    int errpipe[2];
    ck_assert_int_eq(pipe(errpipe), 0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(errpipe[1], 2);
        close(errpipe[0]);
        freopen("/dev/null", "w", stdout);
        execl(sp_test_program, sp_test_program, "solve", "0*30", "--quiet", "--tt-mb", "16", (char *)NULL);
        _exit(127);
    }
    close(errpipe[1]);
    usleep(400000);
    kill(pid, SIGINT);
    int status;
    waitpid(pid, &status, 0);
    ssize_t n = read(errpipe[0], err, sizeof err - 1);
    close(errpipe[0]);
    err[n > 0 ? n : 0] = '\0';
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(WEXITSTATUS(status), 1);
    ck_assert_ptr_nonnull(strstr(err, "interrupted"));
    ck_assert_int_eq(sp_test_lines(err), 1);
}
END_TEST

int main(int argc, char **argv)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("exit codes");
    tcase_set_timeout(tc, 60); /* programs run here: a loaded machine must not fail them */
    tcase_add_test(tc, help_and_version);
    tcase_add_test(tc, unknown_subcommand_and_option);
    tcase_add_test(tc, every_subcommand_has_help);
    tcase_add_test(tc, bad_position_is_usage_error);
    tcase_add_test(tc, table_and_verify_usage);
    tcase_add_test(tc, table_reports_budgets);
    tcase_add_test(tc, solve_json);
    tcase_add_test(tc, antwerp_positions);
    tcase_add_test(tc, interrupt_stops_cleanly);
    suite_add_tcase(s, tc);
    return sp_test_main(s, argc, argv);
}
