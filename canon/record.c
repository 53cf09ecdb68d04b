/* record.c: the parser of game records (record.h): a hand-written scanner over the text that keeps
 * the offset of every token, so that each rejection names the line and column it happened at. */
#include "record.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "quote.h"

#define NUMBER_MAX 99999u /* spot numbers and counts: far above any playable game */
#define RANGE_MAX 10000u  /* spots one range may name */

typedef struct parser {
    const char *text;
    const char *at;
    sp_record *rec;
    sp_rec_error *err;
} parser;

/* ---------------------------------------------------------------- errors */

/* Line and column (in UTF-8 characters) of a place in the text. */
static void locate(const char *text, const char *where, unsigned *line, unsigned *col)
{
    *line = 1;
    *col = 1;
    for (const char *c = text; c < where && *c; c++) {
        if (*c == '\n') {
            (*line)++;
            *col = 1;
        } else if (((unsigned char)*c & 0xC0) != 0x80) {
            (*col)++;
        }
    }
}

static int fail_at(parser *ps, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail_at(parser *ps, const char *where, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    locate(ps->text, where, &ps->err->line, &ps->err->column);
    vsnprintf(ps->err->message, sizeof ps->err->message, fmt, ap);
    va_end(ap);
    return -1;
}

/* What the scanner is looking at, for messages: "'x'", "the end of the record" or "a line break". */
static const char *seen(const char *at, char *buf, size_t cap)
{
    if (!*at)
        return "the end of the record";
    if (*at == '\n' || *at == '\r')
        return "a line break";
    size_t n = 1;
    while (n < 4 && ((unsigned char)at[n] & 0xC0) == 0x80)
        n++; /* a whole UTF-8 character */
    char q[8];
    sp_quote_n(at, n, 1, q, sizeof q);
    snprintf(buf, cap, "'%s'", q);
    return buf;
}

static int expected(parser *ps, const char *what)
{
    char buf[24];
    return fail_at(ps, ps->at, "expected %s, not %s", what, seen(ps->at, buf, sizeof buf));
}

/* ---------------------------------------------------------------- scanning */

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Skips white space and comments: '#' to the end of the line (a data file's note of its source). */
static void skip_space(parser *ps)
{
    for (;;) {
        while (is_space(*ps->at))
            ps->at++;
        if (*ps->at != '#')
            return;
        while (*ps->at && *ps->at != '\n')
            ps->at++;
    }
}

/* A minus sign: '-', or U+2212 MINUS SIGN / U+2013 EN DASH as typeset texts write it. Returns its
 * length in bytes, 0 if there is none at s. */
static size_t dash_len(const char *s)
{
    if (*s == '-')
        return 1;
    if (!strncmp(s, "\xE2\x88\x92", 3) || !strncmp(s, "\xE2\x80\x93", 3))
        return 3;
    return 0;
}

static int read_number(parser *ps, unsigned *out)
{
    const char *start = ps->at;
    unsigned long v = 0;
    if (*ps->at < '0' || *ps->at > '9')
        return expected(ps, "a number");
    while (*ps->at >= '0' && *ps->at <= '9') {
        v = v * 10 + (unsigned long)(*ps->at++ - '0');
        if (v > NUMBER_MAX)
            return fail_at(ps, start, "number too large (at most %u)", NUMBER_MAX);
    }
    *out = (unsigned)v;
    return 0;
}

/* Skips white space, then reads a spot number. */
static int next_number(parser *ps, unsigned *out)
{
    skip_space(ps);
    const char *start = ps->at;
    if (read_number(ps, out))
        return -1;
    return *out ? 0 : fail_at(ps, start, "spots are numbered from 1");
}

/* Skips white space, then consumes c if it is there. */
static bool accept(parser *ps, char c)
{
    skip_space(ps);
    if (*ps->at != c)
        return false;
    ps->at++;
    return true;
}

/* ---------------------------------------------------------------- header */

/* One player's name between start and end: trimmed, a '*' at either end marks the chooser. */
static int add_player(parser *ps, const char *start, const char *end)
{
    sp_record *r = ps->rec;
    while (start < end && is_space(*start))
        start++;
    while (end > start && is_space(end[-1]))
        end--;
    const char *star = NULL;
    if (start < end && *start == '*')
        star = start++;
    else if (start < end && end[-1] == '*')
        star = --end;
    while (start < end && is_space(*start))
        start++;
    while (end > start && is_space(end[-1]))
        end--;
    if (start == end)
        return fail_at(ps, start, "a player's name is empty");
    const char *inner = memchr(start, '*', (size_t)(end - start));
    if (inner)
        return fail_at(ps, inner, "'*' goes at the start or end of a name (it marks who chose the number of spots)");
    if (star && r->chooser)
        return fail_at(ps, star, "only one player can be marked '*' (the one who chose the number of spots)");
    if ((size_t)(end - start) >= SP_REC_NAME_MAX)
        return fail_at(ps, start, "a player's name is too long (at most %d bytes)", SP_REC_NAME_MAX - 1);
    memcpy(r->player[r->nplayers], start, (size_t)(end - start));
    r->player[r->nplayers][end - start] = '\0';
    r->nplayers++;
    if (star)
        r->chooser = r->nplayers;
    return 0;
}

/* The separator between two names in [start, end): the first ',', else the first dash with white
 * space on both sides, else a dash without (as in "(Khorkov-Peltier*)") when it is the only one, so
 * that a hyphenated name stays whole beside a spaced separator. Sets *sep and *sep_end, or leaves
 * them NULL. */
static void find_separator(const char *start, const char *end, bool bare_ok, const char **sep, const char **sep_end)
{
    *sep = *sep_end = NULL;
    const char *comma = memchr(start, ',', (size_t)(end - start));
    if (comma) {
        *sep = comma;
        *sep_end = comma + 1;
        return;
    }
    const char *bare = NULL;
    size_t bare_len = 0, bare_count = 0;
    for (const char *c = start + 1; c < end; c++) {
        size_t d = dash_len(c);
        if (!d)
            continue;
        if (is_space(c[-1]) && c + d < end && is_space(c[d])) {
            *sep = c;
            *sep_end = c + d;
            return;
        }
        if (c + d < end) {
            bare = c;
            bare_len = d;
            bare_count++;
        }
        c += d - 1;
    }
    if (bare_ok && bare_count == 1) {
        *sep = bare;
        *sep_end = bare + bare_len;
    }
}

/* "(NAME SEP NAME)", "(NAME)" or "()", the '(' being at ps->at. */
static int read_players(parser *ps)
{
    const char *open = ps->at++;
    const char *close = ps->at;
    while (*close && *close != ')') {
        if (*close == '(')
            return fail_at(ps, close, "'(' inside the players' names");
        close++;
    }
    if (!*close)
        return fail_at(ps, open, "the players' names are not closed with ')'");
    const char *start = ps->at, *sep, *sep_end;
    ps->at = close + 1;
    find_separator(start, close, true, &sep, &sep_end);
    if (!sep) {
        const char *c = start;
        while (c < close && is_space(*c))
            c++;
        return c == close ? 0 : add_player(ps, start, close);
    }
    const char *again, *again_end;
    find_separator(sep_end, close, false, &again, &again_end);
    if (again)
        return fail_at(ps, again, "more than two players");
    if (add_player(ps, start, sep))
        return -1;
    return add_player(ps, sep_end, close);
}

static int read_header(parser *ps)
{
    sp_record *r = ps->rec;
    skip_space(ps);
    if (*ps->at < '0' || *ps->at > '9')
        return expected(ps, "the number of spots (a record starts like '5+' or '5-')");
    const char *start = ps->at;
    if (read_number(ps, &r->spots))
        return -1;
    if (r->spots == 0)
        return fail_at(ps, start, "a game starts from at least one spot");
    skip_space(ps);
    size_t d = dash_len(ps->at);
    if (*ps->at == '+') {
        ps->at++;
    } else if (d) {
        r->misere = true;
        ps->at += d;
    } else {
        return expected(ps, "'+' (normal play) or '-' (misère) after the number of spots");
    }
    skip_space(ps);
    return *ps->at == '(' ? read_players(ps) : 0;
}

/* ---------------------------------------------------------------- moves */

static int push_spot(parser *ps, unsigned s)
{
    sp_record *r = ps->rec;
    if (sp_grow((void **)&r->list, &r->list_cap, r->nlist + 1, sizeof *r->list))
        return fail_at(ps, ps->at, "out of memory");
    r->list[r->nlist++] = s;
    return 0;
}

/* One list item: a number or a range A-B. */
static int read_item(parser *ps)
{
    const char *start = ps->at;
    unsigned a, b;
    if (next_number(ps, &a))
        return -1;
    skip_space(ps);
    size_t d = dash_len(ps->at);
    b = a;
    if (d) {
        ps->at += d;
        if (next_number(ps, &b))
            return -1;
        if (b < a)
            return fail_at(ps, start, "the range %u-%u runs backwards", a, b);
        if (b - a >= RANGE_MAX)
            return fail_at(ps, start, "the range %u-%u is too long", a, b);
    }
    for (unsigned s = a; s <= b; s++)
        if (push_spot(ps, s))
            return -1;
    return 0;
}

/* "[L]", the '[' being at ps->at. */
static int read_list(parser *ps, sp_rec_move *m)
{
    const char *open = ps->at++;
    m->has_list = true;
    m->list_off = ps->rec->nlist;
    if (accept(ps, ']'))
        return 0;
    for (;;) {
        if (read_item(ps))
            return -1;
        skip_space(ps);
        if (*ps->at == ']')
            break;
        if (*ps->at != ',' && *ps->at != '&')
            return *ps->at ? expected(ps, "',', '&' or ']' in the list of separated spots")
                           : fail_at(ps, open, "the list of separated spots is not closed with ']'");
        ps->at++;
    }
    ps->at++;
    m->nlist = ps->rec->nlist - m->list_off;
    return 0;
}

static int read_move(parser *ps)
{
    sp_record *r = ps->rec;
    if (sp_grow((void **)&r->moves, &r->move_cap, r->nmoves + 1, sizeof *r->moves))
        return fail_at(ps, ps->at, "out of memory");
    sp_rec_move *m = &r->moves[r->nmoves];
    memset(m, 0, sizeof *m);
    locate(ps->text, ps->at, &m->line, &m->column);
    if (next_number(ps, &m->f))
        return -1;
    m->bang_f = accept(ps, '!');
    if (!accept(ps, '('))
        return expected(ps, "'(' after the first spot of a move (moves look like f(g)h)");
    if (next_number(ps, &m->g))
        return -1;
    if (accept(ps, '@') && next_number(ps, &m->at))
        return -1;
    if (!accept(ps, ')'))
        return expected(ps, m->at ? "')' after @i" : "')' or '@' after the new spot");
    m->bang_h = accept(ps, '!');
    if (next_number(ps, &m->h))
        return -1;
    if (*ps->at == '!')
        return fail_at(ps, ps->at, "'!' for the last spot goes before it: f(g)!h");
    skip_space(ps);
    if (*ps->at == '[' && read_list(ps, m))
        return -1;
    r->nmoves++;
    return 0;
}

/* "I" or "II", the 'I' being at ps->at; nothing may follow. */
static int read_result(parser *ps)
{
    const char *start = ps->at;
    ps->at++;
    ps->rec->winner = 1;
    if (*ps->at == 'I') {
        ps->at++;
        ps->rec->winner = 2;
    }
    if (*ps->at && !is_space(*ps->at))
        return fail_at(ps, start, "the result is I or II");
    skip_space(ps);
    if (*ps->at)
        return fail_at(ps, ps->at, "nothing may follow the result (I or II)");
    return 0;
}

static int read_moves(parser *ps)
{
    for (;;) {
        skip_space(ps);
        char c = *ps->at;
        if (!c)
            return 0;
        if (c == 'I')
            return read_result(ps);
        if (c == '!')
            return fail_at(ps, ps->at, "'!' goes right after the first spot or right before the last: f!(g)h, f(g)!h");
        if (c < '0' || c > '9')
            return expected(ps, "a move like f(g)h, or the result I or II");
        if (read_move(ps))
            return -1;
    }
}

/* ---------------------------------------------------------------- public */

int sp_rec_parse(const char *text, sp_record *out, sp_rec_error *err)
{
    memset(out, 0, sizeof *out);
    memset(err, 0, sizeof *err);
    parser ps = {text, text, out, err};
    if (!strncmp(ps.at, "\xEF\xBB\xBF", 3))
        ps.at += 3; /* a UTF-8 byte order mark */
    if (read_header(&ps) || read_moves(&ps)) {
        sp_rec_free(out);
        return -1;
    }
    return 0;
}

void sp_rec_free(sp_record *r)
{
    free(r->moves);
    free(r->list);
    r->moves = NULL;
    r->list = NULL;
    r->nmoves = r->nlist = r->move_cap = r->list_cap = 0;
}

typedef struct text_out {
    char *buf;
    size_t cap, len;
} text_out;

static void out_printf(text_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void out_printf(text_out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = o->len < o->cap ? o->cap - o->len : 0;
    int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->len += (size_t)n;
}

static int cmp_unsigned(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

/* The list sorted without repeats, runs of three or more spots as A-B. */
static void list_text(text_out *o, const unsigned *list, size_t n)
{
    unsigned small[64];
    unsigned *s = n <= 64 ? small : malloc(n * sizeof *s);
    if (!s)
        return;
    if (n)
        memcpy(s, list, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_unsigned);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || s[i] != s[m - 1])
            s[m++] = s[i];
    out_printf(o, "[");
    const char *sep = "";
    for (size_t i = 0; i < m;) {
        size_t j = i;
        while (j + 1 < m && s[j + 1] == s[j] + 1)
            j++;
        if (j >= i + 2) {
            out_printf(o, "%s%u-%u", sep, s[i], s[j]);
            sep = ",";
        } else {
            for (size_t t = i; t <= j; t++, sep = ",")
                out_printf(o, "%s%u", sep, s[t]);
        }
        i = j + 1;
    }
    out_printf(o, "]");
    if (s != small)
        free(s);
}

size_t sp_rec_move_text(const sp_record *r, size_t i, char *buf, size_t cap)
{
    const sp_rec_move *m = &r->moves[i];
    text_out o = {buf, cap, 0};
    if (cap)
        buf[0] = '\0';
    out_printf(&o, "%u%s(%u", m->f, m->bang_f ? "!" : "", m->g);
    if (m->at)
        out_printf(&o, "@%u", m->at);
    out_printf(&o, ")%s%u", m->bang_h ? "!" : "", m->h);
    if (m->has_list) {
        out_printf(&o, " ");
        list_text(&o, m->nlist ? r->list + m->list_off : NULL, m->nlist);
    }
    return o.len;
}
