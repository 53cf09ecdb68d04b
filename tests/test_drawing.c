/* test_drawing.c: the whole drawing of a record (canon/drawing.h), its layout (layout.h) and
 * `sprouts replay --svg`: on every real record, the drawing projects onto the replay's readings, the
 * layout keeps the rotation system and has no crossing, and the SVG shows every spot and curve. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "canonical.h"
#include "drawing.h"
#include "layout.h"
#include "record.h"
#include "replay.h"
#include "testutil.h"

static char *read_file(const char *path)
{
    static char buf[1 << 20];
    return sp_test_read_file(path, buf, sizeof buf);
}

/* The paths of the real records (the .rec files of tests/data/records), sorted; returns how many. */
static size_t record_paths(char paths[][1024], size_t cap)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/records", SP_TEST_DATA_DIR);
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < cap) {
        size_t len = strlen(e->d_name);
        if (len >= 4 && !strcmp(e->d_name + len - 4, ".rec"))
            snprintf(paths[n++], 1024, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    qsort(paths, n, sizeof *paths, (int (*)(const void *, const void *))strcmp);
    return n;
}

static void parse_file(const char *path, sp_record *rec)
{
    sp_rec_error e;
    ck_assert_msg(sp_rec_parse(read_file(path), rec, &e) == 0, "%s: %s", path, e.message);
}

/* ---------------------------------------------------------------- the library */

/* The crossing count itself, on curves drawn by hand: two polylines meeting at an end only, then one
 * crossing the other, then one lying along the other's first segment, then along its line the other
 * way. */
START_TEST(crossings_counted)
{
    double x[2 * SP_LAYOUT_POINTS], y[2 * SP_LAYOUT_POINTS];
    for (int i = 0; i < SP_LAYOUT_POINTS; i++) {
        x[i] = i, y[i] = 0;                                  /* 0..6 along the axis */
        x[SP_LAYOUT_POINTS + i] = -i, y[SP_LAYOUT_POINTS + i] = (i > 0) * 1.0; /* from (0,0) away */
    }
    ck_assert_uint_eq(sp_layout_crossings(x, y, 2), 0);
    x[SP_LAYOUT_POINTS + 1] = 0.5, y[SP_LAYOUT_POINTS + 1] = -1; /* its first segment crosses ... */
    x[SP_LAYOUT_POINTS + 2] = 0.5, y[SP_LAYOUT_POINTS + 2] = 1;  /* ... the axis and comes back */
    ck_assert_uint_eq(sp_layout_crossings(x, y, 2), 1);
    x[SP_LAYOUT_POINTS + 1] = 0.5, y[SP_LAYOUT_POINTS + 1] = 0; /* along the axis from (0,0) */
    ck_assert_uint_ge(sp_layout_crossings(x, y, 2), 1);
    x[SP_LAYOUT_POINTS + 1] = -0.5; /* along the axis the other way: they meet at the shared end only */
    ck_assert_uint_eq(sp_layout_crossings(x, y, 2), 0);
}
END_TEST


/* At every spot with two or three curve ends, the directions in which its curves leave it in the
 * layout turn counter-clockwise in the order of the rotation system. */
static void check_rotation(const sp_draw *d, const sp_layout *l, const char *name)
{
    for (unsigned e = 0; e < d->ndart; e++) {
        unsigned n = d->ccw[e], nn = d->ccw[n];
        if (n == e || nn == e) /* fewer than three darts: any order is counter-clockwise */
            continue;
        double ang[3];
        unsigned darts[3] = {e, n, nn};
        for (int k = 0; k < 3; k++) {
            unsigned c = darts[k] / 4, j = darts[k] % 4, idx = j == 0 ? 1 : j == 1 ? SP_LAYOUT_SEG - 1 : j == 2 ? 2 * SP_LAYOUT_SEG - 1 : SP_LAYOUT_SEG + 1;
            unsigned s = d->from[darts[k]];
            size_t at = (size_t)c * SP_LAYOUT_POINTS + idx;
            ang[k] = atan2(l->cy[at] - l->y[s], l->cx[at] - l->x[s]);
        }
        double a1 = fmod(ang[1] - ang[0] + 4 * M_PI, 2 * M_PI), a2 = fmod(ang[2] - ang[0] + 4 * M_PI, 2 * M_PI);
        ck_assert_msg(a1 < a2, "%s: spot %u: the curves leave it clockwise", name, d->from[e]);
    }
}

static void check_layout(const sp_draw *d, const char *name)
{
    sp_layout l;
    ck_assert_int_eq(sp_layout_make(d, &l), 0);
    ck_assert_uint_eq(l.nspot, d->nspot);
    ck_assert_uint_eq(l.ncurve, d->ndart / 4);
    ck_assert_msg(sp_layout_crossings(l.cx, l.cy, l.ncurve) == 0, "%s: curves cross in the layout", name);
    for (unsigned s = 1; s <= d->nspot; s++)
        for (unsigned t = s + 1; t <= d->nspot; t++)
            ck_assert_msg(l.x[s] != l.x[t] || l.y[s] != l.y[t], "%s: spots %u and %u at one point", name, s, t);
    check_rotation(d, &l, name);
    sp_layout_free(&l);
}

/* Every real record: the drawing replays every move; its labelled projection at the end is one of
 * the replay's readings; as many drawings as the replay counts; the layout at the end and after the
 * first move is planar and keeps the rotation system. */
START_TEST(records_draw)
{
    static char paths[64][1024];
    size_t n = record_paths(paths, 64);
    ck_assert_uint_ge(n, 20);
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    static sp_draw d;
    static sp_lab lab;
    for (size_t i = 0; i < n; i++) {
        sp_record rec;
        parse_file(paths[i], &rec);
        sp_replay *r = sp_replay_new();
        ck_assert_int_eq(sp_replay_run(r, &rec, ctx), 0);
        ck_assert(sp_replay_legal(r));
        sp_draw_replay *dr = sp_draw_replay_new(&rec);
        ck_assert_ptr_nonnull(dr);
        ck_assert_uint_eq(sp_draw_replay_steps(dr), rec.nmoves + 1);
        size_t classes;
        sp_draw_replay_at(dr, rec.nmoves, &d, &classes);
        ck_assert_msg(classes == sp_replay_classes(r), "%s: %zu drawings, the replay has %zu", paths[i], classes,
                      sp_replay_classes(r));
        ck_assert_uint_eq(d.nspot, rec.spots + rec.nmoves);
        ck_assert_uint_eq(d.ndart, 4 * rec.nmoves);
        ck_assert_uint_eq(3u * d.nspot - d.ndart, 3 * rec.spots - rec.nmoves); /* lives: one less a move */
        sp_draw_to_lab(&d, false, &lab);
        bool found = false;
        for (size_t k = 0; k < sp_replay_nreadings(r) && !found; k++)
            found = sp_lab_same(&lab, sp_replay_reading(r, k), false);
        ck_assert_msg(found, "%s: the drawing is no reading of the replay", paths[i]);
        check_layout(&d, paths[i]);
        sp_draw_replay_at(dr, 1, &d, &classes);
        check_layout(&d, paths[i]);
        sp_draw_replay_free(dr);
        sp_replay_free(r);
        sp_rec_free(&rec);
    }
    sp_canon_ctx_free(ctx);
}
END_TEST

static double turn(double x0, double y0, double x1, double y1, double base)
{
    return fmod(atan2(y1 - y0, x1 - x0) - base + 4 * M_PI, 2 * M_PI);
}

/* Where the ant walking along the last move 6(8)7 of text from 8 to 7 sees 7's higher neighbour 4
 * in the picture: on its right when, counter-clockwise around 7, the curve to 4 comes right after
 * the one to 8 (the curve to 3 after that). */
static bool higher_on_right(const char *text)
{
    sp_record rec;
    sp_rec_error e;
    ck_assert_int_eq(sp_rec_parse(text, &rec, &e), 0);
    sp_draw_replay *dr = sp_draw_replay_new(&rec);
    static sp_draw d;
    size_t classes;
    sp_draw_replay_at(dr, 3, &d, &classes);
    sp_layout l;
    ck_assert_int_eq(sp_layout_make(&d, &l), 0);
    /* curve 2 runs 6 .. 8 .. 7, curve 1 runs 3 .. 7 .. 4 */
    const double *cx = l.cx + 2 * SP_LAYOUT_POINTS, *cy = l.cy + 2 * SP_LAYOUT_POINTS;
    const double *ox = l.cx + SP_LAYOUT_POINTS, *oy = l.cy + SP_LAYOUT_POINTS;
    double x7 = l.x[7], y7 = l.y[7], to8 = turn(x7, y7, cx[2 * SP_LAYOUT_SEG - 1], cy[2 * SP_LAYOUT_SEG - 1], 0);
    double to4 = turn(x7, y7, ox[SP_LAYOUT_SEG + 1], oy[SP_LAYOUT_SEG + 1], to8);
    double to3 = turn(x7, y7, ox[SP_LAYOUT_SEG - 1], oy[SP_LAYOUT_SEG - 1], to8);
    bool right = to4 < to3;
    sp_layout_free(&l);
    sp_draw_replay_free(dr);
    sp_rec_free(&rec);
    return right;
}

START_TEST(bang_is_drawn)
{
    ck_assert(higher_on_right("5+ 1(6)2 3(7)4 6(8)7"));
    ck_assert(!higher_on_right("5+ 1(6)2 3(7)4 6(8)!7"));
    ck_assert(higher_on_right("5+ 1(6)2 3(7)4 6!(8)7"));
    ck_assert(!higher_on_right("5+ 1(6)2 3(7)4 6!(8)!7"));
}
END_TEST

/* ---------------------------------------------------------------- the program */

static char out[1 << 16], err[1 << 14];

static int run(const char *a1, const char *a2, const char *a3, const char *a4, const char *a5)
{
    char *argv[] = {(char *)sp_test_program, "replay", (char *)a1, (char *)a2, (char *)a3, (char *)a4, (char *)a5, NULL};
    return sp_test_run2(argv, out, sizeof out, err, sizeof err);
}

/* Checks an SVG the program wrote: spots circles and labels 1..nspot once each, ncurve polylines
 * (the last one marked when ncurve > 0) that do not cross, and "one of N drawings" when drawings > 1
 * (0: not checked). */
static void check_svg(const char *path, unsigned nspot, unsigned ncurve, size_t drawings)
{
    const char *svg = read_file(path);
    unsigned circles = 0, *seen = calloc(nspot + 2, sizeof *seen);
    for (const char *p = svg; (p = strstr(p, "<circle class=\"spot ")); p++)
        circles++;
    ck_assert_uint_eq(circles, nspot);
    for (const char *p = svg; (p = strstr(p, "<text class=\"label\"")); p++) {
        unsigned s = (unsigned)strtoul(strchr(p, '>') + 1, NULL, 10);
        ck_assert_msg(s >= 1 && s <= nspot, "%s: a label %u", path, s);
        seen[s]++;
    }
    for (unsigned s = 1; s <= nspot; s++)
        ck_assert_msg(seen[s] == 1, "%s: spot %u labelled %u times", path, s, seen[s]);
    free(seen);
    double *px = malloc(((size_t)ncurve * SP_LAYOUT_POINTS + 1) * sizeof *px);
    double *py = malloc(((size_t)ncurve * SP_LAYOUT_POINTS + 1) * sizeof *py);
    unsigned lines = 0, last = 0;
    for (const char *p = svg; (p = strstr(p, "<polyline class=\"curve")); p++, lines++) {
        ck_assert_uint_lt(lines, ncurve);
        last += !strncmp(p, "<polyline class=\"curve last\"", 28);
        char *q = strstr(p, "points=\"") + 8;
        for (int k = 0; k < SP_LAYOUT_POINTS; k++) {
            px[lines * SP_LAYOUT_POINTS + k] = strtod(q, &q);
            ck_assert_int_eq(*q++, ',');
            py[lines * SP_LAYOUT_POINTS + k] = strtod(q, &q);
        }
        ck_assert_int_eq(*q, '"');
    }
    ck_assert_uint_eq(lines, ncurve);
    ck_assert_uint_eq(last, ncurve > 0);
    ck_assert_msg(sp_layout_crossings(px, py, ncurve) == 0, "%s: curves cross", path);
    free(px);
    free(py);
    char want[64];
    snprintf(want, sizeof want, "One of %zu drawings", drawings);
    if (drawings)
        ck_assert_int_eq(strstr(svg, "One of ") != NULL, drawings > 1);
    if (drawings > 1)
        ck_assert_ptr_nonnull(strstr(svg, want));
}

/* Every real record drawn at its end and after move 1. */
START_TEST(program_draws_records)
{
    static char paths[64][1024];
    size_t n = record_paths(paths, 64);
    char dir[128], svg[256];
    sp_test_mkdir(dir, sizeof dir, "drawing");
    snprintf(svg, sizeof svg, "%s/out.svg", dir);
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    for (size_t i = 0; i < n; i++) {
        sp_record rec;
        parse_file(paths[i], &rec);
        sp_replay *r = sp_replay_new();
        ck_assert_int_eq(sp_replay_run(r, &rec, ctx), 0);
        ck_assert_int_eq(run(paths[i], "--svg", svg, NULL, NULL), 0);
        check_svg(svg, rec.spots + (unsigned)rec.nmoves, (unsigned)rec.nmoves, sp_replay_classes(r));
        ck_assert_int_eq(run(paths[i], "--svg", svg, "--move", "1"), 0);
        check_svg(svg, rec.spots + 1, 1, 0);
        sp_replay_free(r);
        sp_rec_free(&rec);
    }
    sp_canon_ctx_free(ctx);
    sp_test_rmdir(dir);
}
END_TEST

START_TEST(program_rejects_moves)
{
    char dir[128], svg[256], rec[256];
    sp_test_mkdir(dir, sizeof dir, "drawing");
    snprintf(svg, sizeof svg, "%s/out.svg", dir);
    snprintf(rec, sizeof rec, "%s/records/wgosa-2001-gotw-8p.rec", SP_TEST_DATA_DIR);
    ck_assert_int_eq(run(rec, "--svg", svg, "--move", "0"), 0); /* the start: 8 lone spots */
    check_svg(svg, 8, 0, 1);
    ck_assert_int_eq(run(rec, "--svg", svg, "--move", "8"), 0);
    check_svg(svg, 16, 8, 4);
    const char *bad[] = {"9", "x", "-1", "2x", ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ck_assert_int_eq(run(rec, "--svg", svg, "--move", bad[i]), 2);
        ck_assert_int_eq(sp_test_lines(err), 1);
        ck_assert_ptr_nonnull(strstr(err, "--move"));
        ck_assert_str_eq(out, "");
    }
    ck_assert_int_eq(run(rec, "--move", "1", NULL, NULL), 2); /* --move without --svg */
    ck_assert_int_eq(sp_test_lines(err), 1);
    ck_assert_int_eq(run(rec, "--svg", "/nonexistent/dir/x.svg", NULL, NULL), 2);
    ck_assert_ptr_nonnull(strstr(err, "cannot write"));
    sp_test_rmdir(dir);
}
END_TEST

int main(int argc, char **argv)
{
    Suite *s = suite_create("drawing");
    sp_test_add_case(s, "crossings_counted", crossings_counted, NULL, NULL, 10);
    sp_test_add_case(s, "records_draw", records_draw, NULL, NULL, 120);
    sp_test_add_case(s, "bang_is_drawn", bang_is_drawn, NULL, NULL, 30);
    sp_test_add_case(s, "program_draws_records", program_draws_records, NULL, NULL, 120);
    sp_test_add_case(s, "program_rejects_moves", program_rejects_moves, NULL, NULL, 30);
    return sp_test_main(s, argc, argv);
}
