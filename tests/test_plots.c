/* test_plots.c: the pictures and provenance of the result tables: the SVG plots (well-formed, a point
 * per row where it belongs, in order of n, the log axis right), `sprouts plot` on good and bad tables,
 * and what the CSV and README say about who wrote them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "chart.h"
#include "glop.h"
#include "plot.h"
#include "report.h"
#include "store.h"
#include "testutil.h"

static char dir[256];

static void setup(void)
{
    sp_test_mkdir(dir, sizeof dir, "plots");
}

static void teardown(void)
{
    sp_test_rmdir(dir);
}

/* DIR/name, read whole (malloc'ed, NUL-terminated). */
static char *slurp(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "%s was not written", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    char *s = malloc((size_t)size + 1);
    ck_assert_uint_eq(fread(s, 1, (size_t)size, f), (size_t)size);
    s[size] = '\0';
    fclose(f);
    return s;
}

static void put_file(const char *name, const char *text)
{
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    ck_assert_int_eq(sp_store_write_text(path, text, strlen(text), err, sizeof err), 0);
}

/* ---------------------------------------------------------------- a small table */

static void set_row(sp_table *t, unsigned n, const char *outcome, double seconds, uint64_t nodes, uint64_t facts,
                    const char *verified, const char *version)
{
    sp_row *r = &t->row[n];
    memset(r, 0, sizeof *r);
    r->present = 1;
    snprintf(r->outcome, sizeof r->outcome, "%s", outcome);
    r->nimber = -1;
    r->seconds = seconds;
    r->nodes = nodes;
    r->threads = 1;
    if (facts)
        snprintf(r->cert, sizeof r->cert, "certs/%s-%u.cert", t->misere ? "misere" : "normal", n);
    r->cert_facts = facts;
    snprintf(r->verified, sizeof r->verified, "%s", verified);
    snprintf(r->version, sizeof r->version, "%s", version);
    snprintf(r->date, sizeof r->date, "2026-12-01");
    snprintf(r->machine, sizeof r->machine, "Some CPU (2 cores)");
}

/* Normal play: 0*2..0*7 solved (seconds 0.01, 0.1, 1, ...: one decade apart), 0*8 unsolved; 0*7 without a
 * certificate. Misère: 0*1..0*3 solved, 0*4 unsolved, 0*2 with a certificate that did not check. */
static void small_tables(sp_table *normal, sp_table *misere)
{
    static const char clean[] = "sprouts 0.1.0 (git abc)", dirty[] = "sprouts 0.1.0 (git abc-dirty)";
    memset(normal, 0, sizeof *normal);
    memset(misere, 0, sizeof *misere);
    misere->misere = 1;
    for (unsigned n = 2; n <= 7; n++)
        set_row(normal, n, n % 6 >= 3 ? "win" : "loss", 0.01 * pow(10, n - 2), 10 * n, n == 7 ? 0 : 10 * n, "yes",
                n == 5 ? dirty : clean);
    set_row(normal, 8, "unsolved", 50, 123456, 0, "", clean);
    for (unsigned n = 1; n <= 3; n++)
        set_row(misere, n, n == 1 ? "win" : "loss", 0.0004 * n, n, 100 * n, n == 2 ? "no" : "yes", clean);
    set_row(misere, 4, "unsolved", 9, 99, 0, "", clean);
}

/* ---------------------------------------------------------------- reading the SVG back */

/* Whether the tags of an XML text balance under one root, with every '&' an entity; the root's start
 * tag is copied into root. */
static int well_formed(const char *s, char *root, size_t cap)
{
    char stack[64][32];
    int depth = 0, roots = 0;
    for (const char *amp = strchr(s, '&'); amp; amp = strchr(amp + 1, '&'))
        if (strncmp(amp, "&amp;", 5) && strncmp(amp, "&lt;", 4) && strncmp(amp, "&gt;", 4))
            return 0;
    for (const char *p = strchr(s, '<'); p; p = strchr(p, '<')) {
        const char *end = strchr(p, '>');
        if (!end)
            return 0;
        if (p[1] == '?') {
            p = end + 1;
            continue;
        }
        int closing = p[1] == '/';
        const char *name = p + 1 + closing;
        size_t len = strcspn(name, " \t\n/>");
        if (len == 0 || len >= sizeof stack[0])
            return 0;
        if (closing) {
            if (depth == 0 || strlen(stack[depth - 1]) != len || strncmp(stack[depth - 1], name, len))
                return 0;
            depth--;
        } else {
            if (depth == 0 && roots++ == 0)
                snprintf(root, cap, "%.*s", (int)(end - p + 1), p);
            if (depth == 0 && roots > 1)
                return 0;
            if (end[-1] != '/') {
                if (depth == 64)
                    return 0;
                snprintf(stack[depth++], sizeof stack[0], "%.*s", (int)len, name);
            }
        }
        p = end + 1;
    }
    return depth == 0 && roots == 1;
}

typedef struct points {
    int n, open;
    double x[64], y[64];
} points;

/* The points of series k (from 1) of an SVG written by chart.c. */
static points points_of(const char *svg, int k)
{
    points pts = {0};
    char id[64];
    snprintf(id, sizeof id, "<g class=\"series\" id=\"series-%d\">", k);
    const char *p = strstr(svg, id);
    ck_assert_msg(p != NULL, "no series %d", k);
    const char *end = strstr(p + 1, "<g class=\"series\"");
    if (!end)
        end = strstr(p, "<g class=\"legend\"");
    ck_assert_ptr_nonnull(end);
    for (p = strstr(p, "<g class=\"point"); p && p < end; p = strstr(p + 1, "<g class=\"point")) {
        ck_assert_int_lt(pts.n, 64);
        pts.open += !strncmp(p, "<g class=\"point open\"", 21);
        const char *t = strstr(p, "translate(");
        ck_assert(t && sscanf(t, "translate(%lf,%lf)", &pts.x[pts.n], &pts.y[pts.n]) == 2);
        pts.n++;
    }
    return pts;
}

static void assert_increasing_x(const points *p)
{
    for (int i = 1; i < p->n; i++)
        ck_assert_msg(p->x[i] > p->x[i - 1], "point %d is not right of the one before", i);
}

static int svg_attr(const char *root, const char *name, char *value, size_t cap)
{
    char key[64];
    snprintf(key, sizeof key, " %s=\"", name);
    const char *p = strstr(root, key);
    if (!p)
        return 0;
    p += strlen(key);
    snprintf(value, cap, "%.*s", (int)strcspn(p, "\""), p);
    return 1;
}

/* The SVG is well-formed, with an <svg> root that gives its size. */
static char *checked_svg(const char *name)
{
    char *svg = slurp(name), root[1024] = "", v[64];
    ck_assert_msg(well_formed(svg, root, sizeof root), "%s is not well-formed", name);
    ck_assert_msg(!strncmp(root, "<svg ", 5), "%s: the root is %s", name, root);
    ck_assert(svg_attr(root, "width", v, sizeof v) && atof(v) > 0);
    ck_assert(svg_attr(root, "height", v, sizeof v) && atof(v) > 0);
    ck_assert(svg_attr(root, "viewBox", v, sizeof v));
    ck_assert_ptr_nonnull(strstr(root, "xmlns=\"http://www.w3.org/2000/svg\""));
    return svg;
}

/* ---------------------------------------------------------------- tests */

/* Each plot of a small table is well-formed SVG, has a point per row where the contract puts one (an
 * unsolved row hollow), and its points run left to right in order of n. */
START_TEST(plots_of_a_small_table)
{
    sp_table normal, misere;
    char err[512];
    small_tables(&normal, &misere);
    ck_assert_int_eq(sp_plot_write(&normal, &misere, dir, err, sizeof err), 0);
    for (int k = 0; k < 2; k++) { /* seconds, nodes */
        char *svg = checked_svg(sp_plot_files[k].name);
        points a = points_of(svg, 1), b = points_of(svg, 2);
        ck_assert_int_eq(a.n, 7); /* six solved and one unsolved */
        ck_assert_int_eq(a.open, 1);
        ck_assert_int_eq(b.n, 4);
        ck_assert_int_eq(b.open, 1);
        assert_increasing_x(&a);
        assert_increasing_x(&b);
        ck_assert_double_eq_tol(a.x[1] - a.x[0], a.x[5] - a.x[4], 1e-6); /* x is linear in n */
        ck_assert_ptr_null(strstr(svg, "series-3"));
        free(svg);
    }
    char *svg = checked_svg("certificates.svg");
    points ours = points_of(svg, 1), theirs = points_of(svg, 3), mis = points_of(svg, 2);
    ck_assert_int_eq(ours.n, 5); /* 0*7 has no certificate, 0*8 is unsolved */
    ck_assert_int_eq(ours.open, 0);
    ck_assert_int_eq(mis.n, 3);
    ck_assert_int_eq(mis.open, 1); /* the one that did not check */
    int published = 0;
    for (unsigned n = 1; n <= SP_TABLE_MAX_N; n++)
        published += sp_glop_min_database(n) >= 0;
    ck_assert_int_eq(published, 20);
    ck_assert_int_eq(theirs.n, published);
    assert_increasing_x(&ours);
    assert_increasing_x(&theirs);
    ck_assert_double_eq_tol(ours.x[0], theirs.x[0], 1e-6); /* both start at n = 2 */
    free(svg);
}
END_TEST

/* The log axis: powers of ten at equal steps, known values where they belong; on the plot, seconds a
 * decade apart are equally spaced, upwards. */
START_TEST(log_axis_is_right)
{
    int lo, hi;
    sp_chart_decades(0.003, 6300, &lo, &hi);
    ck_assert_int_eq(lo, -3);
    ck_assert_int_eq(hi, 4);
    sp_chart_decades(0.001, 1000, &lo, &hi); /* exact powers of ten stay on their decade */
    ck_assert_int_eq(lo, -3);
    ck_assert_int_eq(hi, 3);
    sp_chart_decades(5, 5, &lo, &hi);
    ck_assert_int_eq(lo, 0);
    ck_assert_int_eq(hi, 1);
    ck_assert_double_eq_tol(sp_chart_log_pos(1, 0, 2, 300, 100), 300, 1e-9);
    ck_assert_double_eq_tol(sp_chart_log_pos(10, 0, 2, 300, 100), 200, 1e-9);
    ck_assert_double_eq_tol(sp_chart_log_pos(100, 0, 2, 300, 100), 100, 1e-9);
    ck_assert_double_eq_tol(sp_chart_log_pos(sqrt(10), 0, 2, 300, 100), 250, 1e-9);
    ck_assert_double_eq_tol(sp_chart_log_pos(0.01, -3, 1, 400, 0), 300, 1e-9);

    sp_table normal, misere;
    char err[512];
    small_tables(&normal, &misere);
    ck_assert_int_eq(sp_plot_write(&normal, &misere, dir, err, sizeof err), 0);
    char *svg = slurp("seconds.svg");
    points a = points_of(svg, 1); /* 0.01, 0.1, ..., 1000 s, then the unsolved one at 50 s */
    for (int i = 1; i < 6; i++) {
        ck_assert_double_lt(a.y[i], a.y[i - 1]); /* SVG's y grows downwards */
        ck_assert_double_eq_tol(a.y[i - 1] - a.y[i], a.y[0] - a.y[1], 0.02);
    }
    double decade = a.y[0] - a.y[1]; /* 50 s sits log10(50) decades above 1 s */
    ck_assert_double_eq_tol(a.y[2] - a.y[6], log10(50) * decade, 0.05);
    /* misère 0*1 (0.4 ms) is drawn at the floor of 1 ms, where 0*2 (0.8 ms) is too */
    points b = points_of(svg, 2);
    ck_assert_double_eq_tol(b.y[0], b.y[1], 1e-6);
    ck_assert_double_eq_tol(b.y[0] - b.y[2], log10(1.2 / 1.0) * decade, 0.05);
    free(svg);
}
END_TEST

static int run_plot(const char *arg, char *out, size_t cap, char *err, size_t errcap)
{
    char *argv[] = {(char *)sp_test_program, "plot", (char *)arg, NULL};
    return sp_test_run2(argv, out, cap, err, errcap);
}

/* `sprouts plot DIR` writes the plots from DIR's tables; a missing or malformed table is one line on
 * stderr and exit status 2, and no plot is written. */
START_TEST(plot_command)
{
    char out[4096], err[4096], path[512];
    sp_table normal, misere;
    small_tables(&normal, &misere);
    ck_assert_int_eq(sp_table_save(&normal, dir, err, sizeof err), 0);
    ck_assert_int_eq(run_plot(dir, out, sizeof out, err, sizeof err), 2); /* misere.csv is missing */
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_ptr_nonnull(strstr(err, "misere.csv"));
    snprintf(path, sizeof path, "%s/seconds.svg", dir);
    struct stat st;
    ck_assert_int_ne(stat(path, &st), 0);

    ck_assert_int_eq(sp_table_save(&misere, dir, err, sizeof err), 0);
    ck_assert_int_eq(run_plot(dir, out, sizeof out, err, sizeof err), 0);
    ck_assert_str_eq(err, "");
    for (int k = 0; k < SP_PLOT_COUNT; k++)
        free(checked_svg(sp_plot_files[k].name));

    char *csv = slurp("normal.csv");
    char *row = strstr(csv, "\n3,");
    ck_assert_ptr_nonnull(row);
    row[1] = 'x'; /* a row that is not a number */
    put_file("normal.csv", csv);
    free(csv);
    ck_assert_int_eq(run_plot(dir, out, sizeof out, err, sizeof err), 2);
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_ptr_nonnull(strstr(err, "line 3"));
    put_file("normal.csv", "n,outcome\n1,win\n"); /* not a table this program wrote */
    ck_assert_int_eq(run_plot(dir, out, sizeof out, err, sizeof err), 2);
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_ptr_nonnull(strstr(err, "header"));

    char *help[] = {(char *)sp_test_program, "plot", "--help", NULL};
    ck_assert_int_eq(sp_test_run2(help, out, sizeof out, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(out, "Usage: sprouts plot DIR"));
    char *none[] = {(char *)sp_test_program, "plot", NULL};
    ck_assert_int_eq(sp_test_run2(none, out, sizeof out, err, sizeof err), 2);
    ck_assert_int_eq(sp_test_lines(err), 1);
}
END_TEST

/* A row says whether its build came from a modified tree, in the CSV (a column at the end) and in the
 * README; a table written before that column is still read; the README names the command that wrote
 * it and puts the certificate sizes beside GLOP's with their ratio. */
START_TEST(provenance_and_glop_table)
{
    ck_assert_int_eq(sp_table_modified("sprouts 0.1.0 (git 4e58f6d35c2e-dirty)"), 1);
    ck_assert_int_eq(sp_table_modified("sprouts 0.1.0 (git 4e58f6d35c2e)"), 0);
    ck_assert_int_eq(sp_table_modified("sprouts 0.1.0 (git unknown)"), -1);
    ck_assert_int_eq(sp_table_modified(""), -1);

    sp_table normal, misere, back;
    char err[512];
    small_tables(&normal, &misere);
    ck_assert_int_eq(sp_table_save(&normal, dir, err, sizeof err), 0);
    char *csv = slurp("normal.csv");
    ck_assert_ptr_nonnull(strstr(csv, ",machine,modified\n"));
    ck_assert_ptr_nonnull(strstr(csv, "\n5,win,,W,yes,50,10.000,1,certs/normal-5.cert,50,yes,sprouts 0.1.0 (git "
                                      "abc-dirty),2026-12-01,Some CPU (2 cores),yes\n"));
    ck_assert_ptr_nonnull(strstr(csv, "(git abc),2026-12-01,Some CPU (2 cores),no\n"));
    free(csv);

    /* the columns before `modified` only, as tables were written before it */
    put_file("normal.csv", "n,outcome,nimber,prediction,agrees,nodes,seconds,threads,certificate,"
                           "certificate_facts,verified,version,date,machine\n"
                           "4,win,1,W,yes,103,0.020,2,certs/normal-4.cert,25,yes,"
                           "sprouts 0.1.0 (git bb3b6ce07460-dirty),2026-11-29,AMD EPYC (2 cores)\n");
    memset(&back, 0, sizeof back);
    ck_assert_int_eq(sp_table_load(&back, dir, err, sizeof err), 0);
    ck_assert(back.row[4].present && back.row[4].cert_facts == 25);
    /* a row with fewer fields than its header has columns is refused */
    put_file("normal.csv", "n,outcome,nimber,prediction,agrees,nodes,seconds,threads,certificate,"
                           "certificate_facts,verified,version,date,machine,modified\n"
                           "4,win,1,W,yes,103,0.020,2,certs/normal-4.cert,25,yes,sprouts 0.1.0 (git abc),"
                           "2026-11-29,AMD EPYC (2 cores)\n");
    ck_assert_int_eq(sp_table_load(&back, dir, err, sizeof err), -1);

    sp_table_origin by = {"sprouts table --play normal --from 1 --to 20 --resume --out results",
                          "sprouts 0.1.0 (git abc-dirty)", "2026-12-01"};
    ck_assert_int_eq(sp_table_readme(&normal, &misere, &by, dir, err, sizeof err), 0);
    char *md = slurp("README.md");
    ck_assert_ptr_nonnull(strstr(md, "Written by `sprouts table --play normal --from 1 --to 20 --resume --out "
                                     "results` (sprouts 0.1.0 (git abc-dirty), a build from a modified tree"));
    ck_assert_ptr_nonnull(strstr(md, "| 5 | win |  | W | yes | W | 50 | 10.00 | 1 | certs/normal-5.cert (50) | yes | "
                                     "**modified** |\n"));
    ck_assert_ptr_nonnull(strstr(md, "| 4 | win |  | W | yes | W | 40 | 1.00 | 1 | certs/normal-4.cert (40) | yes | "
                                     "clean |\n"));
    for (int k = 0; k < SP_PLOT_COUNT; k++) {
        char embed[256];
        snprintf(embed, sizeof embed, "](%s)\n", sp_plot_files[k].name);
        ck_assert_ptr_nonnull(strstr(md, embed));
    }
    /* 0*4: 40 facts against GLOP's 15; 0*7 has no certificate; GLOP has nothing for 0*12 */
    ck_assert_ptr_nonnull(strstr(md, "| 4 | 40 | 15 | 2.67 |\n"));
    ck_assert_ptr_nonnull(strstr(md, "| 7 | - | 65 | - |\n"));
    ck_assert_ptr_nonnull(strstr(md, "| 12 | - | - | - |\n"));
    ck_assert_ptr_nonnull(strstr(md, "| 25 | - | 2497 | - |\n"));
    ck_assert_ptr_null(strstr(md, "| 26 |"));
    ck_assert_ptr_nonnull(strstr(md, "at or below GLOP's for 0 of the 5 sizes both have; the largest ratio is "
                                     "6.67 (n = 2)"));
    free(md);
}
END_TEST

/* A table run writes the plots beside its README, and the README names the run's command line as
 * typed, a word with a space quoted. */
START_TEST(table_run_writes_plots_and_names_its_command)
{
    char out[600], rows[4096], err[4096], cmd[1024];
    snprintf(out, sizeof out, "%s/with space", dir);
    char *argv[] = {(char *)sp_test_program, "table", "--play", "normal", "--from", "1", "--to", "3", "--tt-mb", "32",
                    "--threads", "1", "--quiet", "--out", out, NULL};
    ck_assert_int_eq(sp_test_run2(argv, rows, sizeof rows, err, sizeof err), 0);
    char *md = slurp("with space/README.md");
    snprintf(cmd, sizeof cmd, "Written by `sprouts table --play normal --from 1 --to 3 --tt-mb 32 --threads 1 --quiet "
                              "--out '%s'` (sprouts ", out);
    ck_assert_msg(strstr(md, cmd) != NULL, "the README does not name the command: %.300s", md);
    free(md);
    char *svg = checked_svg("with space/seconds.svg");
    points a = points_of(svg, 1);
    ck_assert_int_eq(a.n, 3);
    ck_assert_int_eq(a.open, 0);
    free(svg);
}
END_TEST

int main(int argc, char **argv)
{
    Suite *s = suite_create("plots");
    TCase *tc = tcase_create("plots");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, plots_of_a_small_table);
    tcase_add_test(tc, log_axis_is_right);
    tcase_add_test(tc, plot_command);
    tcase_add_test(tc, provenance_and_glop_table);
    tcase_add_test(tc, table_run_writes_plots_and_names_its_command);
    suite_add_tcase(s, tc);
    return sp_test_main(s, argc, argv);
}
