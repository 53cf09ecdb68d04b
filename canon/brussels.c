/* brussels.c: the Brussels sprouts model of brussels.h: regions as multisets of boundary arm counts,
 * their strings, canonical order, keys and moves. */
#include "brussels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned rstart(const sp_br_pos *p, unsigned r) { return r ? p->rend[r - 1] : 0; }

unsigned sp_br_arms(const sp_br_pos *p)
{
    unsigned a = 0;
    for (unsigned b = 0; b < p->nbnd; b++)
        a += p->arms[b];
    return a;
}

bool sp_br_crosses(sp_br_pos *p, unsigned n)
{
    memset(p, 0, sizeof *p);
    if (n > SP_BR_MAX_BNDS)
        return false;
    for (unsigned i = 0; i < n; i++)
        p->arms[i] = 4;
    p->nbnd = (uint16_t)n;
    if (n) {
        p->rend[0] = (uint16_t)n;
        p->nreg = 1;
    }
    return true;
}

static int cmp_desc(const void *a, const void *b)
{
    return (int)*(const uint16_t *)b - (int)*(const uint16_t *)a;
}

/* Regions compared by their sorted arm counts: by count of boundaries, then counts. */
static int region_cmp(const uint16_t *a, unsigned na, const uint16_t *b, unsigned nb)
{
    if (na != nb)
        return na < nb ? -1 : 1;
    for (unsigned i = 0; i < na; i++)
        if (a[i] != b[i])
            return a[i] > b[i] ? -1 : 1;
    return 0;
}

typedef struct region_ref {
    const uint16_t *arms;
    unsigned n;
} region_ref;

static int cmp_region_ref(const void *x, const void *y)
{
    const region_ref *a = x, *b = y;
    return region_cmp(a->arms, a->n, b->arms, b->n);
}

void sp_br_canon(sp_br_pos *p)
{
    sp_br_pos q;
    memset(&q, 0, sizeof q);
    region_ref refs[SP_BR_MAX_BNDS];
    unsigned nref = 0;
    for (unsigned r = 0; r < p->nreg; r++) {
        unsigned b0 = rstart(p, r), n = 0, total = 0;
        for (unsigned b = b0; b < p->rend[r]; b++) {
            total += p->arms[b];
            if (p->arms[b])
                p->arms[b0 + n++] = p->arms[b];
        }
        if (total < 2)
            continue; /* no move: the region plays no part */
        qsort(p->arms + b0, n, sizeof p->arms[0], cmp_desc);
        refs[nref++] = (region_ref){p->arms + b0, n};
    }
    qsort(refs, nref, sizeof refs[0], cmp_region_ref);
    for (unsigned i = 0; i < nref; i++) {
        memcpy(q.arms + q.nbnd, refs[i].arms, refs[i].n * sizeof q.arms[0]);
        q.nbnd = (uint16_t)(q.nbnd + refs[i].n);
        q.rend[q.nreg++] = q.nbnd;
    }
    *p = q;
}

size_t sp_br_region_key(const sp_br_pos *p, unsigned r, sp_tok *out)
{
    size_t n = 0;
    for (unsigned b = rstart(p, r); b < p->rend[r]; b++)
        out[n++] = (sp_tok)(SP_TK_ZEROS + p->arms[b]);
    out[n++] = SP_TK_END_L;
    return n;
}

int sp_br_key_decode(const sp_tok *key, size_t len, sp_br_pos *out)
{
    memset(out, 0, sizeof *out);
    if (len == 0 || key[len - 1] != SP_TK_END_L || len - 1 > SP_BR_MAX_BNDS)
        return -1;
    for (size_t i = 0; i + 1 < len; i++) {
        if (key[i] <= SP_TK_ZEROS || key[i] > SP_TK_ZEROS + SP_BR_MAX_ARMS)
            return -1;
        out->arms[out->nbnd++] = (uint16_t)(key[i] - SP_TK_ZEROS);
    }
    if (out->nbnd) {
        out->rend[0] = out->nbnd;
        out->nreg = 1;
    }
    return 0;
}

/* ---------------------------------------------------------------- strings */

static int fail(sp_parse_error *err, const char *text, const char *at, const char *msg)
{
    err->column = (int)(at - text) + 1;
    snprintf(err->message, sizeof err->message, "%s", msg);
    return -1;
}

static bool add_boundary(sp_br_pos *p, unsigned arms)
{
    if (p->nbnd >= SP_BR_MAX_BNDS)
        return false;
    p->arms[p->nbnd++] = (uint16_t)arms;
    return true;
}

/* One boundary at *s: a run of '2', 'x', or "x*k" (k boundaries). */
static int parse_boundary(const char *text, const char **s, sp_br_pos *p, sp_parse_error *err)
{
    const char *at = *s;
    if (*at == 'x') {
        unsigned long k = 1;
        at++;
        if (*at == '*') {
            char *end;
            if (at[1] < '0' || at[1] > '9')
                return fail(err, text, at + 1, "expected a number of crosses after 'x*'");
            k = strtoul(at + 1, &end, 10);
            if (k == 0 || k > SP_BR_MAX_BNDS)
                return fail(err, text, at + 1, "number of crosses out of range");
            at = end;
        }
        for (unsigned long i = 0; i < k; i++)
            if (!add_boundary(p, 4))
                return fail(err, text, *s, "too many boundaries");
    } else if (*at == '2') {
        unsigned n = 0;
        while (*at == '2')
            at++, n++;
        if (n > SP_BR_MAX_ARMS || !add_boundary(p, n))
            return fail(err, text, *s, "boundary too long or too many boundaries");
    } else
        return fail(err, text, at, *at ? "expected a boundary ('2' per free arm, 'x' for a cross)"
                                       : "unexpected end: expected a boundary");
    *s = at;
    return 0;
}

int sp_br_parse(const char *text, sp_br_pos *out, sp_parse_error *err)
{
    const char *s = text;
    memset(out, 0, sizeof *out);
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    if (*s == '!')
        s++;
    else
        for (;;) {
            if (parse_boundary(text, &s, out, err))
                return -1;
            if (*s == '.') {
                s++;
                continue;
            }
            out->rend[out->nreg++] = out->nbnd;
            if (*s != '|' && *s != '+')
                break;
            s++;
        }
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    if (*s)
        return fail(err, text, s, "unexpected character after the position");
    sp_br_canon(out);
    return 0;
}

typedef struct out_buf {
    char *buf;
    size_t cap, len;
} out_buf;

static void emit(out_buf *o, const char *fmt, unsigned v)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, fmt, v);
    for (int i = 0; i < n; i++, o->len++)
        if (o->len + 1 < o->cap)
            o->buf[o->len] = tmp[i];
}

size_t sp_br_print(const sp_br_pos *p, char *buf, size_t cap)
{
    out_buf o = {buf, cap, 0};
    if (p->nreg == 0)
        emit(&o, "!", 0);
    for (unsigned r = 0; r < p->nreg; r++) {
        if (r)
            emit(&o, "+", 0);
        for (unsigned b = rstart(p, r); b < p->rend[r];) {
            if (b > rstart(p, r))
                emit(&o, ".", 0);
            unsigned run = 1;
            if (p->arms[b] == 4) {
                while (b + run < p->rend[r] && p->arms[b + run] == 4)
                    run++;
                emit(&o, run > 1 ? "x*%u" : "x", run);
            } else
                for (unsigned i = 0; i < p->arms[b]; i++)
                    emit(&o, "2", 0);
            b += run;
        }
    }
    if (cap)
        buf[o.len < cap ? o.len : cap - 1] = '\0';
    return o.len;
}

/* ---------------------------------------------------------------- moves */

/* Hands the sink the canonical form of the two faces (or the one region) built so far. */
static int give(sp_br_pos *c, sp_br_sink sink, void *arg)
{
    sp_br_canon(c);
    return sink(arg, c);
}

/* The other boundaries of a region grouped by arm count (a canonical region lists them by decreasing
 * count, so equal ones are adjacent): a split sends take[g] of the cnt[g] of group g to the first
 * face, which covers every distinct split once. */
typedef struct groups {
    uint16_t arms[SP_BR_MAX_BNDS], cnt[SP_BR_MAX_BNDS], take[SP_BR_MAX_BNDS];
    unsigned n;
} groups;

static void group_others(const sp_br_pos *p, unsigned r, unsigned at, groups *g)
{
    g->n = 0;
    for (unsigned b = rstart(p, r); b < p->rend[r]; b++) {
        if (b == at)
            continue;
        if (g->n && g->arms[g->n - 1] == p->arms[b])
            g->cnt[g->n - 1]++;
        else
            g->arms[g->n] = p->arms[b], g->cnt[g->n] = 1, g->take[g->n++] = 0;
    }
}

/* The next way to share the groups out (an odometer over take[]); false after the last. */
static bool next_take(groups *g)
{
    for (unsigned i = 0; i < g->n; i++) {
        if (g->take[i] < g->cnt[i]) {
            g->take[i]++;
            return true;
        }
        g->take[i] = 0;
    }
    return false;
}

/* Splits at boundary `at` (a arms on the first side): the first face takes g->take of each group. */
static int split(const sp_br_pos *p, unsigned at, unsigned a, const groups *g, sp_br_sink sink, void *arg)
{
    sp_br_pos c;
    memset(&c, 0, sizeof c);
    for (int face = 0; face < 2; face++) {
        c.arms[c.nbnd++] = (uint16_t)(face == 0 ? a + 1 : p->arms[at] - 1 - a);
        for (unsigned i = 0; i < g->n; i++)
            for (unsigned k = 0, m = face == 0 ? g->take[i] : (unsigned)(g->cnt[i] - g->take[i]); k < m; k++)
                c.arms[c.nbnd++] = g->arms[i];
        c.rend[c.nreg++] = c.nbnd;
    }
    return give(&c, sink, arg);
}

static int merge(const sp_br_pos *p, unsigned r, unsigned b1, unsigned b2, sp_br_sink sink, void *arg)
{
    sp_br_pos c;
    memset(&c, 0, sizeof c);
    c.arms[c.nbnd++] = (uint16_t)(p->arms[b1] + p->arms[b2]);
    for (unsigned b = rstart(p, r); b < p->rend[r]; b++)
        if (b != b1 && b != b2)
            c.arms[c.nbnd++] = p->arms[b];
    c.rend[c.nreg++] = c.nbnd;
    return give(&c, sink, arg);
}

int sp_br_region_moves(const sp_br_pos *p, unsigned r, sp_br_sink sink, void *arg)
{
    unsigned b0 = rstart(p, r), b1 = p->rend[r];
    int rc = 0;
    groups g;
    for (unsigned at = b0; at < b1 && rc == 0; at++) {
        if (at > b0 && p->arms[at] == p->arms[at - 1])
            continue; /* the same split as at the boundary before */
        for (unsigned a = 0; a + 2 <= p->arms[at] && rc == 0; a++) {
            group_others(p, r, at, &g);
            do
                rc = split(p, at, a, &g, sink, arg);
            while (rc == 0 && next_take(&g));
        }
    }
    for (unsigned x = b0; x < b1 && rc == 0; x++)
        for (unsigned y = x + 1; y < b1 && rc == 0; y++)
            if (!(x > b0 && p->arms[x] == p->arms[x - 1]) && !(y > x + 1 && p->arms[y] == p->arms[y - 1]))
                rc = merge(p, r, x, y, sink, arg);
    return rc < 0 ? -1 : rc > 0;
}
