/* pos.c: the sp_pos value: construction, lives, invariant checks, and the GLOP 2.x / 1.x string
 * syntaxes (parsing with column-precise errors, printing with per-land letter names). */
#include "pos.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "quote.h"

void sp_pos_clear(sp_pos *p)
{
    p->nsym = p->nbnd = p->nreg = p->nland = p->nletter = 0;
}

bool sp_pos_spots(sp_pos *p, unsigned n)
{
    sp_pos_clear(p);
    if (n == 0)
        return true;
    if (n > SP_MAX_ZEROS)
        return false;
    p->nreg = p->nland = 1;
    p->rend[0] = 0;
    p->zeros[0] = (uint16_t)n;
    p->lend[0] = 1;
    return true;
}

/* Lives of the symbols in boundaries [b0, b1); letters seen twice in the range count once. */
static unsigned boundary_range_lives(const sp_pos *p, unsigned b0, unsigned b1)
{
    unsigned lives = 0, s0 = b0 < b1 ? sp_pos_bstart(p, b0) : 0, s1 = b0 < b1 ? p->bend[b1 - 1] : 0;
    for (unsigned i = s0; i < s1; i++) {
        unsigned s = p->sym[i];
        if (s == SP_SYM_ONE) {
            lives += 2;
        } else if (s == SP_SYM_TWO) {
            lives += 1;
        } else if (sp_sym_is_letter(s)) {
            bool seen = false;
            for (unsigned j = s0; j < i && !seen; j++)
                seen = p->sym[j] == s;
            lives += !seen;
        }
    }
    return lives;
}

unsigned sp_pos_region_lives(const sp_pos *p, unsigned r)
{
    return 3u * p->zeros[r] + boundary_range_lives(p, sp_pos_rstart(p, r), p->rend[r]);
}

unsigned sp_pos_lives(const sp_pos *p)
{
    unsigned lives = 0;
    for (unsigned r = 0; r < p->nreg; r++)
        lives += 3u * p->zeros[r];
    return lives + boundary_range_lives(p, 0, p->nbnd);
}

/* ---------------------------------------------------------------- checking */

const char *sp_pos_check(const sp_pos *p)
{
    static const char *const msgs[] = {"a letter does not occur exactly twice",
                                       "a letter occurs twice in one region on two boundaries",
                                       "a letter spans two lands", "empty boundary", "empty region",
                                       "empty land", "bad symbol"};
    uint16_t count[SP_MAX_SYMS], bnd[SP_MAX_SYMS], reg[SP_MAX_SYMS], land[SP_MAX_SYMS];
    if (p->nletter > SP_MAX_SYMS)
        return msgs[6];
    memset(count, 0, sizeof(uint16_t) * p->nletter);
    for (unsigned l = 0; l < p->nland; l++) {
        if (p->lend[l] <= sp_pos_lstart(p, l))
            return msgs[5];
        for (unsigned r = sp_pos_lstart(p, l); r < p->lend[l]; r++) {
            if (p->rend[r] == sp_pos_rstart(p, r) && p->zeros[r] == 0)
                return msgs[4];
            for (unsigned b = sp_pos_rstart(p, r); b < p->rend[r]; b++) {
                if (p->bend[b] <= sp_pos_bstart(p, b))
                    return msgs[3];
                for (unsigned i = sp_pos_bstart(p, b); i < p->bend[b]; i++) {
                    unsigned s = p->sym[i];
                    if (s == SP_SYM_DEAD || (sp_sym_is_letter(s) && s - SP_SYM_LETTER >= p->nletter))
                        return msgs[6];
                    if (!sp_sym_is_letter(s))
                        continue;
                    unsigned k = s - SP_SYM_LETTER;
                    if (count[k] == 1) {
                        if (land[k] != l)
                            return msgs[2];
                        if (reg[k] == r && bnd[k] != b)
                            return msgs[1];
                    }
                    if (++count[k] > 2)
                        return msgs[0];
                    bnd[k] = (uint16_t)b, reg[k] = (uint16_t)r, land[k] = (uint16_t)l;
                }
            }
        }
    }
    for (unsigned k = 0; k < p->nletter; k++)
        if (count[k] == 1)
            return msgs[0];
    return NULL;
}

/* ---------------------------------------------------------------- parsing */

#define LETTER_NAMES 4096 /* letter numbers accepted in m(k) / Z(k) */

typedef struct parser {
    const char *text;
    const char *at;
    bool v1;
    sp_pos *p;
    sp_parse_error *err;
    /* the current boundary, region and land being built */
    unsigned bsym0;   /* first symbol of the open boundary */
    bool bzero;       /* the open boundary is a lone spot (0 or 0*k) */
    unsigned nzero;   /* how many lone spots it stands for */
    unsigned r0;      /* first region of the open land */
    /* letters of the open land: name -> id, and where each id was seen */
    int16_t id_of[2][LETTER_NAMES + 1];
    uint16_t used_names[SP_MAX_SYMS];
    unsigned nused;
    /* lower-case letters seen once on an earlier boundary of the open region */
    uint16_t pending_name[SP_MAX_SYMS];
    int pending_col[SP_MAX_SYMS];
    unsigned npending;
    uint16_t seen[SP_MAX_SYMS], seen_bnd[SP_MAX_SYMS], seen_reg[SP_MAX_SYMS];
    int seen_col[SP_MAX_SYMS];
    uint8_t seen_upper[SP_MAX_SYMS];
    uint16_t seen_name[SP_MAX_SYMS];
    /* colours (NULL: refused), and each letter's as its first occurrence gave it, with its column */
    uint8_t *col;
    uint8_t id_col[SP_MAX_SYMS];
    int id_col_at[SP_MAX_SYMS];
} parser;

static int fail_at(parser *ps, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail_at(parser *ps, const char *where, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ps->err->column = (int)(where - ps->text) + 1;
    vsnprintf(ps->err->message, sizeof ps->err->message, fmt, ap);
    va_end(ap);
    return -1;
}

/* An unknown character, quoted so that the message stays one line (a line break is "\n"). */
static int unknown(parser *ps, const char *where)
{
    char q[16];
    size_t n = 1;
    while (n < 4 && ((unsigned char)where[n] & 0xC0) == 0x80)
        n++; /* a whole UTF-8 character */
    sp_quote_n(where, n, 1, q, sizeof q);
    return fail_at(ps, where, "unknown character '%s'", q);
}

static void letter_text(char *buf, size_t cap, bool upper, unsigned name)
{
    if (!upper && name <= 12)
        snprintf(buf, cap, "%c", 'a' + name - 1);
    else if (upper && name <= 25)
        snprintf(buf, cap, "%c", 'A' + name - 1);
    else
        snprintf(buf, cap, "%c(%u)", upper ? 'Z' : 'm', name);
}

static bool boundary_open(const parser *ps)
{
    return ps->bzero || ps->p->nsym > ps->bsym0;
}

static int push_sym(parser *ps, unsigned s, const char *where)
{
    if (ps->bzero)
        return fail_at(ps, where, "a lone spot 0 must be a boundary by itself");
    if (ps->p->nsym >= SP_MAX_SYMS)
        return fail_at(ps, where, "position too large (more than %d spot occurrences)", SP_MAX_SYMS);
    if (ps->col)
        ps->col[ps->p->nsym] = SP_WHITE;
    ps->p->sym[ps->p->nsym++] = (uint16_t)s;
    return 0;
}

static int read_number(parser *ps, unsigned max, unsigned *out)
{
    const char *start = ps->at;
    unsigned long v = 0;
    while (*ps->at >= '0' && *ps->at <= '9') {
        v = v * 10 + (unsigned long)(*ps->at - '0');
        if (v > max)
            return fail_at(ps, start, "number too large (at most %u)", max);
        ps->at++;
    }
    if (ps->at == start)
        return fail_at(ps, start, "a number is expected here");
    *out = (unsigned)v;
    return 0;
}

static int read_letter(parser *ps, bool upper)
{
    const char *where = ps->at;
    unsigned name = 0;
    char c = *ps->at++;
    if (c == 'm' || c == 'Z') {
        if (*ps->at != '(')
            return fail_at(ps, ps->at, "'%c' must be followed by '(' and a letter number", c);
        ps->at++;
        if (read_number(ps, LETTER_NAMES, &name))
            return -1;
        if (*ps->at != ')')
            return fail_at(ps, ps->at, "unbalanced '%c(': ')' expected", c);
        ps->at++;
        if (name == 0)
            return fail_at(ps, where, "letter numbers start at 1");
    } else {
        name = (unsigned)(upper ? c - 'A' : c - 'a') + 1;
    }
    sp_pos *p = ps->p;
    int id = ps->id_of[upper][name];
    unsigned b = p->nbnd, r = p->nreg;
    char txt[16];
    letter_text(txt, sizeof txt, upper, name);
    if (id < 0 && !upper) {
        for (unsigned i = 0; i < ps->npending; i++)
            if (ps->pending_name[i] == name)
                return fail_at(ps, where, "lower-case letter '%s' on two boundaries (use upper case across regions)", txt);
    }
    if (id < 0) {
        if (p->nletter >= SP_MAX_SYMS)
            return fail_at(ps, where, "position too large (too many letters)");
        id = p->nletter++;
        ps->id_of[upper][name] = (int16_t)id;
        ps->used_names[ps->nused++] = (uint16_t)(name | (upper ? 0x8000u : 0));
        ps->seen[id] = 0;
        ps->seen_upper[id] = upper;
        ps->seen_name[id] = (uint16_t)name;
    } else if (ps->seen[id] == 2) {
        return fail_at(ps, where, "letter '%s' occurs a third time (a letter stands for a spot seen twice)", txt);
    } else if (upper && ps->seen_reg[id] == r && ps->seen_bnd[id] != b) {
        return fail_at(ps, where, "letter '%s' twice in one region on two boundaries: impossible", txt);
    }
    ps->seen[id]++;
    ps->seen_bnd[id] = (uint16_t)b;
    ps->seen_reg[id] = (uint16_t)r;
    ps->seen_col[id] = (int)(where - ps->text);
    return push_sym(ps, SP_SYM_LETTER + (unsigned)id, where);
}

static int read_zero(parser *ps)
{
    const char *where = ps->at;
    if (boundary_open(ps))
        return fail_at(ps, where, "a lone spot 0 must be a boundary by itself");
    ps->at++;
    unsigned k = 1;
    if (*ps->at == '*') {
        ps->at++;
        if (read_number(ps, SP_MAX_ZEROS, &k))
            return -1;
        if (k == 0)
            return fail_at(ps, where, "0*k needs k >= 1");
    }
    ps->bzero = true;
    ps->nzero = k;
    return 0;
}

static int close_letters(parser *ps, bool upper);

static int close_boundary(parser *ps, const char *where)
{
    sp_pos *p = ps->p;
    if (!boundary_open(ps))
        return fail_at(ps, where, "empty boundary");
    if (p->nreg >= SP_MAX_REGS)
        return fail_at(ps, where, "position too large (more than %d regions)", SP_MAX_REGS);
    if (ps->bzero) {
        if (p->zeros[p->nreg] + ps->nzero > SP_MAX_ZEROS)
            return fail_at(ps, where, "too many lone spots in one region (at most %d)", SP_MAX_ZEROS);
        p->zeros[p->nreg] = (uint16_t)(p->zeros[p->nreg] + ps->nzero);
    } else {
        if (p->nbnd >= SP_MAX_BNDS)
            return fail_at(ps, where, "position too large (more than %d boundaries)", SP_MAX_BNDS);
        p->bend[p->nbnd++] = p->nsym;
    }
    ps->bzero = false;
    ps->bsym0 = p->nsym;
    return close_letters(ps, false);
}

/* Lower-case letters are scoped to their boundary, upper-case ones to their land (as GLOP and SPOTS
 * print them). When a scope closes its names are free again; a lower-case letter seen once waits in
 * `pending` until the region closes, so that its reuse on a later boundary gets the precise error. */
static int close_letters(parser *ps, bool upper)
{
    unsigned keep = 0;
    for (unsigned i = 0; i < ps->nused; i++) {
        unsigned name = ps->used_names[i] & 0x7fff;
        bool up = ps->used_names[i] >> 15;
        if (up != upper) {
            ps->used_names[keep++] = ps->used_names[i];
            continue;
        }
        int id = ps->id_of[up][name];
        if (ps->seen[id] == 1 && up) {
            char txt[16];
            letter_text(txt, sizeof txt, up, name);
            return fail_at(ps, ps->text + ps->seen_col[id],
                           "letter '%s' occurs only once in its land (a letter stands for a spot seen twice)", txt);
        }
        if (ps->seen[id] == 1) {
            ps->pending_name[ps->npending] = (uint16_t)name;
            ps->pending_col[ps->npending++] = ps->seen_col[id];
        }
        ps->id_of[up][name] = -1;
    }
    ps->nused = keep;
    return 0;
}

static int close_pending(parser *ps)
{
    if (ps->npending == 0)
        return 0;
    char txt[16];
    letter_text(txt, sizeof txt, false, ps->pending_name[0]);
    return fail_at(ps, ps->text + ps->pending_col[0],
                   "lower-case letter '%s' occurs only once (it stands for a spot seen twice on one boundary)", txt);
}

static int close_region(parser *ps, const char *where)
{
    sp_pos *p = ps->p;
    unsigned r = p->nreg;
    if (p->zeros[r] == 0 && sp_pos_rstart(p, r) == p->nbnd)
        return fail_at(ps, where, "empty region");
    if (close_pending(ps))
        return -1;
    p->rend[r] = p->nbnd;
    p->nreg++;
    if (p->nreg < SP_MAX_REGS)
        p->zeros[p->nreg] = 0;
    return 0;
}

static int close_land(parser *ps, const char *where)
{
    sp_pos *p = ps->p;
    if (p->nreg == ps->r0)
        return fail_at(ps, where, "empty land");
    if (p->nland >= SP_MAX_LANDS)
        return fail_at(ps, where, "position too large (more than %d lands)", SP_MAX_LANDS);
    if (close_letters(ps, true))
        return -1;
    p->lend[p->nland++] = p->nreg;
    ps->r0 = p->nreg;
    return 0;
}

static bool is_item_start(char c)
{
    return (c >= '0' && c <= '2') || (c >= 'a' && c <= 'm') || (c >= 'A' && c <= 'Z');
}

static const char *const colour_names[] = {"white", "red", "blue"};

/* A colour suffix (":r", ":b", ":w"; none: white) after the item that began at `item` and pushed the
 * last symbol (none after a 0). Only 1-life spots have colours, and a letter's two occurrences are one
 * spot, so they must agree. */
static int read_colour(parser *ps, const char *item, char kind)
{
    const char *where = ps->at;
    sp_colour k = SP_WHITE;
    if (*where == ':') {
        char c = where[1];
        if (!ps->col)
            return fail_at(ps, where,
                           "a colour (':r', ':b') belongs to Antwerp positions (--rules antwerp-cold or antwerp-hot)");
        if (kind == '0' || kind == '1')
            return fail_at(ps, where, "a spot of 2 or 3 lives ('%c') is always white: only a 1-life spot has a colour",
                           kind);
        if (c != 'r' && c != 'b' && c != 'w') {
            char q[16];
            sp_quote_n(where + 1, c ? 1 : 0, 1, q, sizeof q);
            return fail_at(ps, where, "a colour is ':r' (red), ':b' (blue) or ':w' (white), not ':%s'", q);
        }
        k = c == 'r' ? SP_RED : c == 'b' ? SP_BLUE : SP_WHITE;
        ps->at += 2;
    }
    if (!ps->col || kind == '0')
        return 0;
    unsigned i = ps->p->nsym - 1u, s = ps->p->sym[i];
    ps->col[i] = (uint8_t)k;
    if (!sp_sym_is_letter(s))
        return 0;
    unsigned id = s - SP_SYM_LETTER;
    if (ps->seen[id] == 1) { /* the first occurrence: the second is checked against it */
        ps->id_col[id] = (uint8_t)k;
        ps->id_col_at[id] = (int)(item - ps->text);
        return 0;
    }
    if (ps->id_col[id] == k)
        return 0;
    char txt[16];
    letter_text(txt, sizeof txt, ps->seen_upper[id], ps->seen_name[id]);
    return fail_at(ps, item, "letter '%s' is %s at column %d but %s here (its two occurrences are one spot)", txt,
                   colour_names[ps->id_col[id]], ps->id_col_at[id] + 1, colour_names[k]);
}

static int read_item(parser *ps)
{
    const char *item = ps->at;
    char c = *ps->at;
    int rc;
    if (c == '0') {
        rc = read_zero(ps);
    } else if (c == '1' || c == '2') {
        ps->at++;
        rc = push_sym(ps, c == '1' ? SP_SYM_ONE : SP_SYM_TWO, ps->at - 1);
    } else {
        rc = read_letter(ps, c >= 'A' && c <= 'Z');
        c = 'a';
    }
    return rc ? rc : read_colour(ps, item, c);
}

static bool p_region_open(const parser *ps);

/* Closes the open boundary, and with level >= 2 the region, with level 3 the land (2.x syntax),
 * naming the innermost empty thing when there is one. */
static int close_v2(parser *ps, const char *where, int level)
{
    if (!boundary_open(ps)) {
        if (level == 1 || p_region_open(ps))
            return fail_at(ps, where, "empty boundary");
        return fail_at(ps, where, level == 3 && ps->p->nreg == ps->r0 ? "empty land" : "empty region");
    }
    if (close_boundary(ps, where))
        return -1;
    if (level >= 2 && close_region(ps, where))
        return -1;
    return level == 3 ? close_land(ps, where) : 0;
}

/* GLOP 2.x: '.', '|' and '+' separate; the end closes everything. */
/* Reads spot items up to the next separator; returns 1 with the separator in *c and its place in
 * *where, 0 at the end of the text, -1 on an error. */
static int next_separator(parser *ps, const char *end, char *c, const char **where)
{
    while (ps->at < end) {
        if (is_item_start(*ps->at)) {
            if (read_item(ps))
                return -1;
            continue;
        }
        *where = ps->at;
        *c = *ps->at++;
        return 1;
    }
    return 0;
}

static int parse_v2(parser *ps, const char *end)
{
    const char *where;
    char c;
    int got;
    while ((got = next_separator(ps, end, &c, &where)) > 0) {
        if (c == '.' || c == '|' || c == '+') {
            if (close_v2(ps, where, c == '.' ? 1 : c == '|' ? 2 : 3))
                return -1;
        } else if (c == '!') {
            return fail_at(ps, where, "'!' stands alone for the empty position");
        } else if (c == '}' || c == ']') {
            return fail_at(ps, where, "'%c' is GLOP 1.x syntax; this string uses 2.x separators", c);
        } else {
            return unknown(ps, where);
        }
    }
    return got < 0 ? -1 : close_v2(ps, end, 3);
}

static bool p_region_open(const parser *ps)
{
    const sp_pos *p = ps->p;
    return p->zeros[p->nreg] > 0 || p->nbnd > sp_pos_rstart(p, p->nreg);
}

/* GLOP 1.x: '.', '}', ']' and '!' terminate boundary, region, land and position. */
static int parse_v1(parser *ps, const char *end)
{
    const char *where;
    char c;
    int got;
    while ((got = next_separator(ps, end, &c, &where)) > 0) {
        if (c == '.') {
            if (close_boundary(ps, where))
                return -1;
        } else if (c == '}' || c == ']' || c == '!') {
            if (boundary_open(ps))
                return fail_at(ps, where, "GLOP 1.x: end the boundary with '.' before '%c'", c);
            if (c == '}' && close_region(ps, where))
                return -1;
            if (c == ']' && (p_region_open(ps) ? fail_at(ps, where, "GLOP 1.x: end the region with '}' before ']'")
                                               : close_land(ps, where)))
                return -1;
            if (c == '!') {
                if (ps->p->nreg != ps->r0 || p_region_open(ps))
                    return fail_at(ps, where, "GLOP 1.x: end the land with ']' before '!'");
                if (ps->at != end)
                    return fail_at(ps, ps->at, "nothing may follow the final '!'");
                return 0;
            }
        } else if (c == '|' || c == '+') {
            return fail_at(ps, where, "'%c' is GLOP 2.x syntax; this string uses 1.x terminators", c);
        } else {
            return unknown(ps, where);
        }
    }
    return got < 0 ? -1 : fail_at(ps, end, "GLOP 1.x string must end with '!'");
}

int sp_pos_parse(const char *text, sp_pos *out, sp_parse_error *err)
{
    return sp_pos_parse_colours(text, out, NULL, err);
}

int sp_pos_parse_colours(const char *text, sp_pos *out, uint8_t *col, sp_parse_error *err)
{
    parser ps;
    sp_parse_error dummy;
    memset(&ps, 0, sizeof ps);
    memset(ps.id_of, 0xff, sizeof ps.id_of);
    ps.text = text;
    ps.col = col;
    ps.p = out;
    ps.err = err ? err : &dummy;
    sp_pos_clear(out);
    out->zeros[0] = 0;

    const char *start = text, *end = text + strlen(text);
    while (start < end && (*start == ' ' || *start == '\t' || *start == '\n' || *start == '\r'))
        start++;
    while (end > start && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r'))
        end--;
    ps.at = start;
    if (start == end)
        return fail_at(&ps, start, "empty position string (write '!' for the position with no move)");
    if (end - start == 1 && *start == '!')
        return 0;
    for (const char *c = start; c < end; c++)
        ps.v1 |= *c == '}' || *c == ']';
    ps.v1 |= end[-1] == '!';
    int rc = ps.v1 ? parse_v1(&ps, end) : parse_v2(&ps, end);
    if (rc)
        sp_pos_clear(out);
    return rc;
}

/* ---------------------------------------------------------------- printing */

typedef struct printer {
    char *buf;
    size_t cap, len;
} printer;

static void put(printer *pr, const char *s)
{
    for (; *s; s++, pr->len++)
        if (pr->len + 1 < pr->cap)
            pr->buf[pr->len] = *s;
}

size_t sp_pos_print(const sp_pos *p, sp_syntax syntax, char *buf, size_t cap)
{
    return sp_pos_print_colours(p, NULL, syntax, buf, cap);
}

static void put_colour(printer *pr, const uint8_t *col, unsigned i)
{
    if (col && col[i] != SP_WHITE)
        put(pr, col[i] == SP_RED ? ":r" : ":b");
}

size_t sp_pos_print_colours(const sp_pos *p, const uint8_t *col, sp_syntax syntax, char *buf, size_t cap)
{
    printer pr = {buf, cap, 0};
    uint16_t name[SP_MAX_SYMS];
    const bool v1 = syntax == SP_SYNTAX_V1;
    char tmp[32];
    if (p->nland == 0)
        put(&pr, "!");
    for (unsigned l = 0; l < p->nland; l++) {
        unsigned nupper = 0;
        for (unsigned r = sp_pos_lstart(p, l); r < p->lend[l]; r++)
            for (unsigned i = sp_pos_bstart(p, sp_pos_rstart(p, r)); i < sp_pos_bstart(p, p->rend[r]); i++)
                if (sp_sym_is_letter(p->sym[i]))
                    name[p->sym[i] - SP_SYM_LETTER] = 0;
        if (l && !v1)
            put(&pr, "+");
        for (unsigned r = sp_pos_lstart(p, l); r < p->lend[l]; r++) {
            if (r > sp_pos_lstart(p, l) && !v1)
                put(&pr, "|");
            unsigned nb = 0;
            if (p->zeros[r] && v1) {
                for (unsigned z = 0; z < p->zeros[r]; z++)
                    put(&pr, "0.");
            } else if (p->zeros[r]) {
                snprintf(tmp, sizeof tmp, p->zeros[r] == 1 ? "0" : "0*%u", (unsigned)p->zeros[r]);
                put(&pr, tmp);
                nb++;
            }
            for (unsigned b = sp_pos_rstart(p, r); b < p->rend[r]; b++, nb++) {
                if (nb && !v1)
                    put(&pr, ".");
                unsigned s0 = sp_pos_bstart(p, b), nlower = 0; /* lower case: named per boundary */
                for (unsigned i = s0; i < p->bend[b]; i++) {
                    unsigned s = p->sym[i];
                    if (s == SP_SYM_ONE || s == SP_SYM_TWO) {
                        put(&pr, s == SP_SYM_ONE ? "1" : "2");
                        put_colour(&pr, col, i);
                        continue;
                    }
                    unsigned k = s - SP_SYM_LETTER;
                    bool lower = false;
                    for (unsigned j = s0; j < p->bend[b]; j++)
                        lower |= j != i && p->sym[j] == s;
                    if (!name[k])
                        name[k] = (uint16_t)(lower ? ++nlower : ++nupper);
                    letter_text(tmp, sizeof tmp, !lower, name[k]);
                    put(&pr, tmp);
                    put_colour(&pr, col, i);
                }
                if (v1)
                    put(&pr, ".");
            }
            if (v1)
                put(&pr, "}");
        }
        if (v1)
            put(&pr, "]");
    }
    if (v1 && p->nland)
        put(&pr, "!");
    if (cap)
        buf[pr.len < cap ? pr.len : cap - 1] = '\0';
    return pr.len;
}
