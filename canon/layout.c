/* layout.c: the planar picture of a drawing (layout.h): the drawing cut finer and made connected as a
 * rotation system, the triangulated disc around it, and Tutte's barycentric placement solved by
 * conjugate gradients. */
#include "layout.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX
#define RELAX_ROUNDS 400
#ifndef SPOT_PUSH
#define SPOT_PUSH 4.0
#endif

#define SPRING 3.0 /* springs softer than the balance of Fruchterman and Reingold: faces get room */

/* The drawing cut finer and bridged, and the edges of the triangulated disc built on it. */
typedef struct amap {
    uint32_t *from, *ccw, *face; /* per dart, twin d ^ 1 */
    size_t ndart;
    uint32_t *lone;              /* per vertex: the face of a vertex without darts, or NONE */
    size_t nvert;
    uint32_t *eu, *ev;           /* the edges of the disc */
    size_t nedge;
    size_t nreal, nreal_dart; /* the spots and cuts come first, and their darts */
    size_t nspot;             /* the spots first of all */
    double *x, *y;
    bool *fixed;
} amap;

static uint32_t to(const amap *a, uint32_t e) { return a->from[e ^ 1u]; }
static uint32_t next(const amap *a, uint32_t e) { return a->ccw[e ^ 1u]; }

static void insert(amap *a, uint32_t e, uint32_t corner)
{
    if (corner == NONE) {
        a->ccw[e] = e;
        return;
    }
    uint32_t t = corner ^ 1u;
    a->ccw[e] = a->ccw[t];
    a->ccw[t] = e;
}

static void add_edge(amap *a, uint32_t u, uint32_t v)
{
    a->eu[a->nedge] = u;
    a->ev[a->nedge++] = v;
}

/* Spot s is vertex s - 1; the cut j (1..SEG-1) of edge q (darts 2q, 2q + 1) is a vertex after them. */
static uint32_t cut_vertex(const sp_draw *d, unsigned q, unsigned j)
{
    if (j == 0)
        return d->from[2 * q] - 1u;
    if (j == SP_LAYOUT_SEG)
        return sp_draw_to(d, 2 * q) - 1u;
    return d->nspot + q * (SP_LAYOUT_SEG - 1) + j - 1;
}

/* The dart of the cut drawing that leaves from[e] along dart e of the drawing. */
static uint32_t first_piece(unsigned e)
{
    unsigned q = e / 2;
    return e % 2 ? 2 * (q * SP_LAYOUT_SEG + SP_LAYOUT_SEG - 1) + 1 : 2 * q * SP_LAYOUT_SEG;
}

static void cut(const sp_draw *d, amap *a)
{
    unsigned nedge = d->ndart / 2;
    for (uint32_t v = 0; v < a->nvert; v++)
        a->lone[v] = v < d->nspot && d->degree[v + 1] == 0 ? d->lone_face[v + 1] : NONE;
    for (unsigned q = 0; q < nedge; q++) {
        for (unsigned j = 0; j < SP_LAYOUT_SEG; j++) {
            uint32_t e = 2 * (q * SP_LAYOUT_SEG + j);
            a->from[e] = cut_vertex(d, q, j);
            a->from[e + 1] = cut_vertex(d, q, j + 1);
            a->face[e] = d->face[2 * q];
            a->face[e + 1] = d->face[2 * q + 1];
            if (j > 0) { /* at a cut: its two darts */
                a->ccw[e] = e - 1;
                a->ccw[e - 1] = e;
            }
        }
    }
    for (unsigned e = 0; e < d->ndart; e++)
        a->ccw[first_piece(e)] = first_piece(d->ccw[e]);
    a->ndart = a->nreal_dart = (size_t)nedge * SP_LAYOUT_SEG * 2;
    a->nreal = a->nvert;
    a->nspot = d->nspot;
}

/* A temporary path a - y - b inside face f, from the corner after dart ca at a to the one after cb
 * at b (NONE: a lone vertex). */
static void bridge(amap *a, uint32_t va, uint32_t ca, uint32_t vb, uint32_t cb, uint32_t f)
{
    uint32_t y = (uint32_t)a->nvert++, p = (uint32_t)a->ndart, q = p + 2;
    a->ndart += 4;
    a->lone[y] = NONE;
    a->from[p] = va, a->from[p + 1] = y, a->from[q] = vb, a->from[q + 1] = y;
    a->ccw[p + 1] = q + 1, a->ccw[q + 1] = p + 1;
    insert(a, p, ca);
    insert(a, q, cb);
    a->face[p] = a->face[p + 1] = a->face[q] = a->face[q + 1] = f;
    a->lone[va] = a->lone[vb] = NONE;
}

/* Joins the walks of every face into one with bridges from one corner of its first walk. */
static int connect(const sp_draw *d, amap *a)
{
    bool *seen = calloc(a->ndart + 1, sizeof *seen);
    if (!seen)
        return -1;
    size_t ndart0 = a->ndart, nvert0 = a->nvert;
    for (uint32_t f = 0; f < d->nface; f++) {
        uint32_t base_v = NONE, base_c = NONE;
        for (uint32_t e = 0; e < ndart0; e++) {
            if (a->face[e] != f || seen[e])
                continue;
            for (uint32_t x = e; !seen[x]; x = next(a, x))
                seen[x] = true;
            if (base_v == NONE)
                base_v = to(a, e), base_c = e;
            else
                bridge(a, base_v, base_c, to(a, e), e, f);
        }
        for (uint32_t v = 0; v < nvert0; v++) {
            if (a->lone[v] != f)
                continue;
            if (base_v == NONE) {
                base_v = v;
                continue;
            }
            bool was_lone = base_c == NONE;
            bridge(a, base_v, base_c, v, NONE, f);
            if (was_lone)
                base_c = (uint32_t)a->ndart - 3; /* arrives at base_v from the new bridge */
        }
    }
    free(seen);
    return 0;
}

/* In every face a ring of new vertices along its walk, joined to the corners, and a centre (the outer
 * face: its ring fixed on the unit circle, counter-clockwise as the walk runs around the drawing). */
static int triangulate(const sp_draw *d, amap *a)
{
    bool *seen = calloc(a->ndart + 1, sizeof *seen);
    if (!seen)
        return -1;
    for (uint32_t e = 0; e < a->ndart; e += 2)
        add_edge(a, a->from[e], a->from[e + 1]);
    for (uint32_t e = 0; e < a->ndart; e++) {
        if (seen[e])
            continue;
        size_t k = 0, w0 = a->nvert;
        for (uint32_t x = e; !seen[x]; x = next(a, x), k++)
            seen[x] = true;
        assert(k >= 3);
        bool outer = a->face[e] == d->outer;
        uint32_t x = e;
        for (size_t i = 0; i < k; i++, x = next(a, x)) {
            uint32_t w = (uint32_t)(w0 + i), wn = (uint32_t)(w0 + (i + 1) % k), v = to(a, x);
            add_edge(a, w, v);
            add_edge(a, w, wn);
            add_edge(a, v, wn);
            a->fixed[w] = outer;
            a->x[w] = cos(2 * M_PI * (double)i / (double)k);
            a->y[w] = sin(2 * M_PI * (double)i / (double)k);
        }
        a->nvert += k;
        if (!outer) {
            uint32_t z = (uint32_t)a->nvert++;
            for (size_t i = 0; i < k; i++)
                add_edge(a, z, (uint32_t)(w0 + i));
        }
    }
    free(seen);
    return 0;
}

/* ---------------------------------------------------------------- Tutte's placement */

typedef struct csr {
    size_t *start; /* neighbours of v: nb[start[v] .. start[v + 1]) */
    uint32_t *nb;
} csr;

static int make_csr(const amap *a, csr *g)
{
    g->start = calloc(a->nvert + 1, sizeof *g->start);
    g->nb = malloc(2 * a->nedge * sizeof *g->nb);
    if (!g->start || !g->nb)
        return -1;
    for (size_t i = 0; i < a->nedge; i++)
        g->start[a->eu[i] + 1]++, g->start[a->ev[i] + 1]++;
    for (size_t v = 0; v < a->nvert; v++)
        g->start[v + 1] += g->start[v];
    size_t *fill = malloc(a->nvert * sizeof *fill);
    if (!fill)
        return -1;
    memcpy(fill, g->start, a->nvert * sizeof *fill);
    for (size_t i = 0; i < a->nedge; i++) {
        g->nb[fill[a->eu[i]]++] = a->ev[i];
        g->nb[fill[a->ev[i]]++] = a->eu[i];
    }
    free(fill);
    return 0;
}

/* Tutte's placement shrinks nested faces geometrically: a game's deepest parts come out some 1e-13
 * across, near the end of double's precision, so it is solved in long double. */
typedef long double real;

/* out = L p on the free vertices (fixed ones count as 0). */
static void laplace(const amap *a, const csr *g, const real *p, real *out)
{
    for (size_t v = 0; v < a->nvert; v++) {
        real s = 0;
        for (size_t i = g->start[v]; i < g->start[v + 1] && !a->fixed[v]; i++)
            s += p[v] - (a->fixed[g->nb[i]] ? 0 : p[g->nb[i]]);
        out[v] = s;
    }
}

static real dot(const real *u, const real *v, size_t n)
{
    real s = 0;
    for (size_t i = 0; i < n; i++)
        s += u[i] * v[i];
    return s;
}

/* Solves L x = b on the free vertices by conjugate gradients (L is positive definite there: every
 * free vertex reaches a fixed one), b from the fixed neighbours. x holds the fixed values on entry
 * and keeps them. work: room for 4 nvert reals. */
static void solve(const amap *a, const csr *g, double *x, real *work)
{
    size_t n = a->nvert;
    real *r = work, *p = work + n, *xf = work + 2 * n, *ap = work + 3 * n;
    for (size_t v = 0; v < n; v++) {
        real b = 0;
        for (size_t i = g->start[v]; i < g->start[v + 1] && !a->fixed[v]; i++)
            if (a->fixed[g->nb[i]])
                b += x[g->nb[i]];
        r[v] = p[v] = b;
        xf[v] = 0;
    }
    real rr = dot(r, r, n), stop = rr * 1e-38L;
    for (size_t it = 0; it < 20 * n + 100 && rr > stop; it++) {
        laplace(a, g, p, ap);
        real alpha = rr / dot(p, ap, n);
        for (size_t v = 0; v < n; v++)
            xf[v] += alpha * p[v], r[v] -= alpha * ap[v];
        real rr1 = dot(r, r, n);
        for (size_t v = 0; v < n; v++)
            p[v] = r[v] + rr1 / rr * p[v];
        rr = rr1;
    }
    for (size_t v = 0; v < n; v++)
        if (!a->fixed[v])
            x[v] = (double)xf[v];
}

/* ---------------------------------------------------------------- relaxing the placement */

/* Squared distance from (px, py) to the segment a-b; *ex, *ey: from its nearest point to (px, py). */
static double seg_off(double px, double py, double ax, double ay, double bx, double by, double *ex, double *ey)
{
    double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
    double t = l2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / l2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    *ex = px - ax - t * dx, *ey = py - ay - t * dy;
    return *ex * *ex + *ey * *ey;
}

static double seg_dist2(double px, double py, double ax, double ay, double bx, double by)
{
    double ex, ey;
    return seg_off(px, py, ax, ay, bx, by, &ex, &ey);
}

/* How far vertex v may move without any segment crossing another on the way: a point moved by less
 * than its distance to a segment does not reach it, and a segment whose end moves by delta sweeps a
 * triangle within delta of where it was. */
static double room(const amap *a, uint32_t v)
{
    double best = INFINITY;
    for (size_t e = 0; e < a->nreal_dart; e += 2) {
        uint32_t p = a->from[e], q = a->from[e + 1];
        if (p != v && q != v) {
            best = fmin(best, seg_dist2(a->x[v], a->y[v], a->x[p], a->y[p], a->x[q], a->y[q]));
            continue;
        }
        for (uint32_t w = 0; w < a->nreal; w++)
            if (w != p && w != q)
                best = fmin(best, seg_dist2(a->x[w], a->y[w], a->x[p], a->y[p], a->x[q], a->y[q]));
    }
    return sqrt(best);
}

/* The other side of a segment pushing a vertex off: vertices near v's segment v-q push v away. */
static void push_segment(const amap *a, uint32_t v, uint32_t q, double k, double *fx, double *fy)
{
    for (uint32_t w = 0; w < a->nreal; w++) {
        if (w == v || w == q)
            continue;
        double ex, ey, d = sqrt(seg_off(a->x[w], a->y[w], a->x[v], a->y[v], a->x[q], a->y[q], &ex, &ey));
        if (d > 0 && d < k)
            *fx -= ex / d * (k - d) * (k - d) / d / 2, *fy -= ey / d * (k - d) * (k - d) / d / 2;
    }
}

/* The spring force on v: every vertex pushes it away, and so do the segments near it; its segments
 * pull it in, and a weak pull to the middle keeps separate pieces together. */
static void force(const amap *a, uint32_t v, double k, double *fx, double *fy)
{
    double x = a->x[v], y = a->y[v];
    *fx = -0.05 * x / k, *fy = -0.05 * y / k;
    for (uint32_t u = 0; u < a->nreal; u++) {
        double dx = x - a->x[u], dy = y - a->y[u], d2 = dx * dx + dy * dy;
        double m = v < a->nspot && u < a->nspot && d2 < k * k ? SPOT_PUSH : 1; /* two discs close by */
        if (u != v && d2 > 0)
            *fx += m * dx * k * k / d2, *fy += m * dy * k * k / d2;
    }
    for (size_t e = 0; e < a->nreal_dart; e++) {
        uint32_t p = a->from[e], q = a->from[e ^ 1u];
        if (p == v) {
            double dx = x - a->x[q], dy = y - a->y[q], d = hypot(dx, dy);
            *fx -= dx * d / (SPRING * k), *fy -= dy * d / (SPRING * k);
            push_segment(a, v, q, k, fx, fy);
        } else if (e % 2 == 0 && q != v) { /* segments near v push it off, a spot (a disc) harder */
            double ex, ey, d = sqrt(seg_off(x, y, a->x[p], a->y[p], a->x[q], a->y[q], &ex, &ey)), m = v < a->nspot ? SPOT_PUSH : 1;
            if (d > 0 && d < k)
                *fx += m * ex / d * (k - d) * (k - d) / d, *fy += m * ey / d * (k - d) * (k - d) / d;
        }
    }
}

/* Force-directed moves that never let two segments cross (so the embedding stays), from Tutte's
 * placement, whose nested faces shrink fast, towards even spacing. */
static void relax(amap *a)
{
    if (a->nreal < 2)
        return;
    double k = 1.0 / sqrt((double)a->nreal), gap = 0.05 * k; /* no move brings a vertex closer than gap */
    for (int round = 0; round < RELAX_ROUNDS; round++) {
        double temp = k * (1.0 - (double)round / RELAX_ROUNDS) + 1e-3 * k;
        for (uint32_t v = 0; v < a->nreal; v++) {
            double fx, fy;
            force(a, v, k, &fx, &fy);
            double f = hypot(fx, fy);
            if (!(f > 0))
                continue;
            double r0 = room(a, v), step = fmin(fmin(f, temp), 0.45 * r0), x0 = a->x[v], y0 = a->y[v];
            for (int tries = 0; tries < 4; tries++, step /= 2) {
                a->x[v] = x0 + fx / f * step;
                a->y[v] = y0 + fy / f * step;
                if (room(a, v) >= fmin(r0, gap))
                    break;
                a->x[v] = x0, a->y[v] = y0;
            }
        }
    }
    double lo_x = INFINITY, hi_x = -INFINITY, lo_y = INFINITY, hi_y = -INFINITY;
    for (uint32_t v = 0; v < a->nreal; v++) {
        lo_x = fmin(lo_x, a->x[v]), hi_x = fmax(hi_x, a->x[v]);
        lo_y = fmin(lo_y, a->y[v]), hi_y = fmax(hi_y, a->y[v]);
    }
    double span = fmax(hi_x - lo_x, hi_y - lo_y), mx = (lo_x + hi_x) / 2, my = (lo_y + hi_y) / 2;
    for (uint32_t v = 0; v < a->nreal && span > 0; v++) {
        a->x[v] = 2 * (a->x[v] - mx) / span;
        a->y[v] = 2 * (a->y[v] - my) / span;
    }
}

/* ---------------------------------------------------------------- public */

static int alloc_map(const sp_draw *d, amap *a)
{
    size_t n = d->nspot, darts = (size_t)d->ndart * SP_LAYOUT_SEG + 4 * (n + d->ndart) + 8;
    size_t verts = n + (size_t)d->ndart * SP_LAYOUT_SEG + (n + d->ndart) + darts + darts + 8;
    size_t edges = darts / 2 + 4 * darts;
    memset(a, 0, sizeof *a);
    a->from = malloc(darts * sizeof *a->from);
    a->ccw = malloc(darts * sizeof *a->ccw);
    a->face = malloc(darts * sizeof *a->face);
    a->lone = malloc(verts * sizeof *a->lone);
    a->eu = malloc(edges * sizeof *a->eu);
    a->ev = malloc(edges * sizeof *a->ev);
    a->x = calloc(verts, sizeof *a->x);
    a->y = calloc(verts, sizeof *a->y);
    a->fixed = calloc(verts, sizeof *a->fixed);
    a->nvert = n + (size_t)(d->ndart / 2) * (SP_LAYOUT_SEG - 1);
    return a->from && a->ccw && a->face && a->lone && a->eu && a->ev && a->x && a->y && a->fixed ? 0 : -1;
}

static void free_map(amap *a)
{
    free(a->from), free(a->ccw), free(a->face), free(a->lone);
    free(a->eu), free(a->ev), free(a->x), free(a->y), free(a->fixed);
}

static int place(amap *a)
{
    csr g = {NULL, NULL};
    real *work = malloc(4 * a->nvert * sizeof *work);
    int rc = -1;
    if (work && make_csr(a, &g) == 0) {
        solve(a, &g, a->x, work);
        solve(a, &g, a->y, work);
        rc = 0;
    }
    free(work);
    free(g.start);
    free(g.nb);
    return rc;
}

/* The points of dart e of the drawing from from[e] to its other end, without the last. */
static void put_chain(const sp_draw *d, const amap *a, unsigned e, double *x, double *y)
{
    for (unsigned j = 0; j < SP_LAYOUT_SEG; j++) {
        uint32_t v = e % 2 ? cut_vertex(d, e / 2, SP_LAYOUT_SEG - j) : cut_vertex(d, e / 2, j);
        x[j] = a->x[v];
        y[j] = a->y[v];
    }
}

static int fill(const sp_draw *d, const amap *a, sp_layout *out)
{
    out->nspot = d->nspot;
    out->ncurve = d->ndart / 4;
    size_t np = (size_t)out->ncurve * SP_LAYOUT_POINTS + 1;
    out->x = malloc((d->nspot + 1u) * sizeof *out->x);
    out->y = malloc((d->nspot + 1u) * sizeof *out->y);
    out->cx = malloc(np * sizeof *out->cx);
    out->cy = malloc(np * sizeof *out->cy);
    if (!out->x || !out->y || !out->cx || !out->cy)
        return -1;
    out->x[0] = out->y[0] = 0;
    for (unsigned s = 1; s <= d->nspot; s++)
        out->x[s] = a->x[s - 1], out->y[s] = a->y[s - 1];
    for (unsigned i = 0; i < out->ncurve; i++) {
        double *x = out->cx + (size_t)i * SP_LAYOUT_POINTS, *y = out->cy + (size_t)i * SP_LAYOUT_POINTS;
        put_chain(d, a, 4 * i, x, y);
        put_chain(d, a, 4 * i + 3, x + SP_LAYOUT_SEG, y + SP_LAYOUT_SEG);
        unsigned h = d->from[4 * i + 2];
        x[2 * SP_LAYOUT_SEG] = out->x[h];
        y[2 * SP_LAYOUT_SEG] = out->y[h];
    }
    return 0;
}

int sp_layout_make(const sp_draw *d, sp_layout *out)
{
    memset(out, 0, sizeof *out);
    amap a;
    int rc = alloc_map(d, &a);
    if (rc == 0 && d->ndart == 0 && d->nspot == 1) {
        a.x[0] = a.y[0] = 0;
    } else if (rc == 0) {
        cut(d, &a);
        rc = connect(d, &a) || triangulate(d, &a) ? -1 : place(&a);
        if (rc == 0)
            relax(&a);
    }
    if (rc == 0)
        rc = fill(d, &a, out);
    free_map(&a);
    if (rc)
        sp_layout_free(out);
    return rc;
}

/* ---------------------------------------------------------------- checking */

typedef struct pt {
    double x, y;
} pt;

static double orient(pt a, pt b, pt c) { return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x); }
static bool same_pt(pt a, pt b) { return a.x == b.x && a.y == b.y; }

/* c within the box of a-b: on the segment, given that the three are collinear */
static bool within(pt a, pt b, pt c)
{
    return fmin(a.x, b.x) <= c.x && c.x <= fmax(a.x, b.x) && fmin(a.y, b.y) <= c.y && c.y <= fmax(a.y, b.y);
}

static bool opposite(double u, double v) { return (u > 0 && v < 0) || (u < 0 && v > 0); }

/* Whether segments a-b and c-d meet other than at one shared end. */
static bool segments_meet(pt a, pt b, pt c, pt d)
{
    int shared = same_pt(a, c) + same_pt(a, d) + same_pt(b, c) + same_pt(b, d);
    if (shared > 1)
        return true;
    if (shared == 1) { /* they overlap when the other ends lie on one ray from the shared one */
        pt p = same_pt(a, c) || same_pt(a, d) ? a : b, x = same_pt(p, a) ? b : a, y = same_pt(p, c) ? d : c;
        return orient(p, x, y) == 0 && (x.x - p.x) * (y.x - p.x) + (x.y - p.y) * (y.y - p.y) > 0;
    }
    double o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
    if (opposite(o1, o2) && opposite(o3, o4))
        return true;
    return (o1 == 0 && within(a, b, c)) || (o2 == 0 && within(a, b, d)) || (o3 == 0 && within(c, d, a)) ||
           (o4 == 0 && within(c, d, b));
}

size_t sp_layout_crossings(const double *x, const double *y, size_t ncurve)
{
    size_t bad = 0, nseg = SP_LAYOUT_POINTS - 1;
    for (size_t i = 0; i < ncurve * nseg; i++) {
        size_t a = i / nseg * SP_LAYOUT_POINTS + i % nseg;
        for (size_t j = i + 1; j < ncurve * nseg; j++) {
            size_t c = j / nseg * SP_LAYOUT_POINTS + j % nseg;
            bad += segments_meet((pt){x[a], y[a]}, (pt){x[a + 1], y[a + 1]}, (pt){x[c], y[c]}, (pt){x[c + 1], y[c + 1]});
        }
    }
    return bad;
}

void sp_layout_free(sp_layout *l)
{
    free(l->x), free(l->y), free(l->cx), free(l->cy);
    memset(l, 0, sizeof *l);
}
