/* vtable.c: the variants' table (vtable.h): the searches of solver/variants.h per size, the CSV kept
 * as lines (other rule sets' rows untouched), and the README section built from it. */
#include "vtable.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "canonical.h"
#include "clock.h"
#include "dirlock.h"
#include "report.h"
#include "text.h"

#define VT_MAX_ROWS 1024
#define VT_HEADER "rules,n,position,outcome,nimber,shortest,longest,claim,agrees,nodes,stored,seconds,version,date,machine"

typedef struct vt_rows {
    char *line[VT_MAX_ROWS];
    unsigned n;
} vt_rows;

static void rows_free(vt_rows *r)
{
    for (unsigned i = 0; i < r->n; i++)
        free(r->line[i]);
    r->n = 0;
}

/* Reads DIR/variants.csv's rows (none when the file is missing); -1 when it is not ours. */
static int rows_load(vt_rows *r, const char *path, char *err, size_t errcap)
{
    FILE *f = fopen(path, "r");
    char buf[1024];
    r->n = 0;
    if (!f)
        return 0;
    int rc = 0;
    if (!fgets(buf, sizeof buf, f) || strncmp(buf, VT_HEADER, strlen(VT_HEADER)))
        rc = -1, snprintf(err, errcap, "%s: not a variants table this program wrote", path);
    while (rc == 0 && fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\r\n")] = '\0';
        if (!*buf)
            continue;
        if (r->n >= VT_MAX_ROWS || !(r->line[r->n] = strdup(buf)))
            rc = -1, snprintf(err, errcap, "%s: too many rows", path);
        else
            r->n++;
    }
    fclose(f);
    return rc;
}

/* The rule set and n a row is for. */
static void row_id(const char *line, char *rules, size_t cap, unsigned *n)
{
    size_t k = strcspn(line, ",");
    snprintf(rules, cap, "%.*s", (int)(k < cap - 1 ? k : cap - 1), line);
    *n = line[k] ? (unsigned)strtoul(line + k + 1, NULL, 10) : 0;
}

/* Puts a row in place of the one for the same rules and n, or adds it; rows kept sorted. */
static int rows_put(vt_rows *r, char *line)
{
    char ra[32], rb[32];
    unsigned na, nb, i = 0;
    row_id(line, ra, sizeof ra, &na);
    for (; i < r->n; i++) {
        row_id(r->line[i], rb, sizeof rb, &nb);
        int c = strcmp(rb, ra);
        if (c == 0 && nb == na) {
            free(r->line[i]);
            r->line[i] = line;
            return 0;
        }
        if (c > 0 || (c == 0 && nb > na))
            break;
    }
    if (r->n >= VT_MAX_ROWS)
        return -1;
    memmove(r->line + i + 1, r->line + i, (r->n - i) * sizeof r->line[0]);
    r->line[i] = line;
    r->n++;
    return 0;
}

/* Field k (0-based) of a CSV row without quoting, into buf. */
static const char *field(const char *line, unsigned k, char *buf, size_t cap)
{
    for (; k && line; k--)
        line = strchr(line, ','), line = line ? line + 1 : NULL;
    size_t len = line ? strcspn(line, ",") : 0;
    snprintf(buf, cap, "%.*s", (int)(len < cap - 1 ? len : cap - 1), line ? line : "");
    return buf;
}

static const char *intro(const char *rules)
{
    if (!strcmp(rules, "bw"))
        return "**Black-and-white sprouts** (the player who draws a curve chooses whether to put a new "
               "spot on it), normal play, from n spots. The seed article: \"the first player wins with "
               "perfect play\". Nimbers by the Sprague-Grundy recursion over lands (every child of every "
               "land reached, no pruning); the first player wins iff the nimber is not 0.";
    if (!strncmp(rules, "antwerp-", 8)) {
        bool hot = !strcmp(rules, "antwerp-hot");
        return hot ? "**Antwerp sprouts, hot** (as cold, but Left draws a blue spot on each curve and Right a red "
                     "one), normal play, from n white spots, found the same way."
                   : "**Antwerp sprouts, cold** (every spot white, red or blue; Left may join only spots that are "
                     "not red, Right only spots that are not blue; Left draws a red spot on each curve, Right a "
                     "blue one), normal play, from n white spots. The seed article names the variant and claims "
                     "no outcome. A partizan game: Sprague-Grundy does not apply, so the outcome class comes "
                     "from two memoised minimax searches over whole positions with the player to move in the "
                     "memo key (Left first, Right first). n white spots look the same to both players once the "
                     "colours are exchanged, so the class is always \"first player wins\" or \"second player "
                     "wins\".";
    }
    if (!strcmp(rules, "brussels"))
        return "**Brussels sprouts** (crosses of four arms), normal play, from n crosses. The seed "
               "article: \"every game lasts 5n - 2 moves\". The shortest and the longest game are found "
               "over every region reachable from n crosses (every game of a position is a game of each "
               "of its independent regions, interleaved), with the nimber by the Sprague-Grundy recursion "
               "over the same regions.";
    return rules;
}

/* The README's columns: CSV field, title, right-aligned; those of fields 4..8 are shown for a rule set
 * only when one of its rows fills them (Antwerp has no nimber, black-and-white no game lengths). */
static const struct {
    unsigned field;
    const char *title;
    bool right;
} columns[] = {
    {1, "n", true},         {2, "position", false},       {3, "outcome", false},  {4, "nimber", true},
    {5, "shortest", true},  {6, "longest", true},         {7, "claim", false},    {8, "agrees", false},
    {9, "positions expanded", true}, {11, "seconds", true}, {12, "version", false}, {13, "date", false},
    {14, "machine", false},
};
enum { NCOLUMNS = sizeof columns / sizeof columns[0] };

/* Which columns the rows of rule set `rules` from row i on fill (bit k: columns[k]). */
static unsigned used_columns(const vt_rows *r, unsigned i, const char *rules)
{
    char f[160], ru[160];
    unsigned mask = 0;
    for (; i < r->n && !strcmp(field(r->line[i], 0, ru, sizeof ru), rules); i++)
        for (unsigned k = 0; k < NCOLUMNS; k++)
            if (columns[k].field < 4 || columns[k].field > 8 || *field(r->line[i], columns[k].field, f, sizeof f))
                mask |= 1u << k;
    return mask;
}

/* Writes DIR/variants.md: a table per rule set, from the rows. */
static int write_section(const vt_rows *r, const char *dir, char *err, size_t errcap)
{
    sp_text t = {0};
    char path[4096], f[160], prev[160] = "";
    unsigned mask = 0;
    sp_text_add(&t, "## The variants of the seed article\n\n"
                    "Written by `sprouts table --rules R` from `variants.csv` (a row per rule set and n, with "
                    "provenance). A separate memoised solver (`solver/variants.h`), exhaustive: no "
                    "certificates yet.\n");
    for (unsigned i = 0; i < r->n; i++) {
        field(r->line[i], 0, f, sizeof f);
        if (strcmp(prev, f)) {
            snprintf(prev, sizeof prev, "%s", f);
            mask = used_columns(r, i, prev);
            sp_text_add(&t, "\n%s\n\n|", intro(prev));
            for (unsigned k = 0; k < NCOLUMNS; k++)
                if (mask >> k & 1)
                    sp_text_add(&t, " %s |", columns[k].title);
            sp_text_add(&t, "\n|");
            for (unsigned k = 0; k < NCOLUMNS; k++)
                if (mask >> k & 1)
                    sp_text_add(&t, " %s |", columns[k].right ? "---:" : "---");
            sp_text_add(&t, "\n");
        }
        sp_text_add(&t, "|");
        for (unsigned k = 0; k < NCOLUMNS; k++)
            if (mask >> k & 1)
                sp_text_add(&t, columns[k].field == 2 ? " `%s` |" : " %s |",
                            field(r->line[i], columns[k].field, f, sizeof f));
        sp_text_add(&t, "\n");
    }
    snprintf(path, sizeof path, "%s/variants.md", dir);
    return sp_text_save(&t, path, err, errcap);
}

static int write_csv(const vt_rows *r, const char *dir, char *err, size_t errcap)
{
    sp_text t = {0};
    char path[4096];
    sp_text_add(&t, "%s\n", VT_HEADER);
    for (unsigned i = 0; i < r->n; i++)
        sp_text_add(&t, "%s\n", r->line[i]);
    snprintf(path, sizeof path, "%s/variants.csv", dir);
    return sp_text_save(&t, path, err, errcap);
}

/* Writes variants.csv as it is on disk now with this run's rows put in, its README section and
 * README.md, under the directory's lock: another run may be writing other rule sets' rows meanwhile. */
static int save_rows(const vt_rows *mine, const char *dir, char *err, size_t errcap)
{
    char path[4096];
    vt_rows all = {0};
    snprintf(path, sizeof path, "%s/variants.csv", dir);
    int lock = sp_dirlock_wait(dir, "tables", err, errcap);
    int rc = lock < 0 ? -1 : rows_load(&all, path, err, errcap);
    for (unsigned i = 0; rc == 0 && i < mine->n; i++) {
        char *line = strdup(mine->line[i]);
        if (!line || rows_put(&all, line))
            free(line), rc = -1, snprintf(err, errcap, "%s: too many rows, or out of memory", path);
    }
    if (rc == 0 && (write_csv(&all, dir, err, errcap) || write_section(&all, dir, err, errcap) ||
                    sp_table_readme_variants(dir, err, errcap)))
        rc = -1;
    rows_free(&all);
    sp_dirlock_release(lock);
    return rc;
}

/* Solves size n; fills the row's fields after `position`. Returns 0, or 1 out of room. */
static int solve_size(sp_variants *v, sp_rules rules, unsigned n, sp_text *row)
{
    if (rules == SP_RULES_BRUSSELS) {
        sp_br_pos p;
        sp_br_lengths L;
        if (!sp_br_crosses(&p, n) || sp_variants_brussels(v, &p, &L))
            return 1;
        bool agrees = L.shortest == L.longest && L.longest == 5 * n - 2;
        sp_text_add(row, "x*%u,%s,%u,%u,%u,every game 5n-2 = %u moves,%s", n, L.nimber ? "win" : "loss", L.nimber,
                    L.shortest, L.longest, 5 * n - 2, agrees ? "yes" : "no");
        return 0;
    }
    sp_pos p;
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    sp_tok key[SP_KEY_MAX];
    if (!ctx || !sp_pos_spots(&p, n)) {
        sp_canon_ctx_free(ctx);
        return 1;
    }
    size_t len = sp_pos_key(ctx, &p, key);
    sp_canon_ctx_free(ctx);
    if (rules == SP_RULES_ANTWERP_COLD || rules == SP_RULES_ANTWERP_HOT) {
        int c = sp_variants_antwerp_class(v, key, len); /* n white spots: a key without colours */
        if (c < 0)
            return 1;
        sp_text_add(row, "0*%u,%s,,,,,", n, sp_aw_class_name((sp_aw_class)c));
        return 0;
    }
    int g = sp_variants_bw_nimber(v, key, len);
    if (g < 0)
        return 1;
    sp_text_add(row, "0*%u,%s,%d,,,first player wins,%s", n, g ? "win" : "loss", g, g ? "yes" : "no");
    return 0;
}

int sp_vtable_run(const sp_vtable_opts *o, char *err, size_t errcap)
{
    char path[4096], state[4096], date[32], machine[128];
    vt_rows rows; /* this run's */
    snprintf(state, sizeof state, "%s/state", o->out); /* where the directory's locks are (dirlock.h) */
    const char *dirs[2] = {o->out, state};
    for (int i = 0; i < 2; i++)
        if (mkdir(dirs[i], 0755) && errno != EEXIST) {
            snprintf(err, errcap, "%s: %s", dirs[i], strerror(errno));
            return -1;
        }
    snprintf(path, sizeof path, "%s/variants.csv", o->out);
    int bad = rows_load(&rows, path, err, errcap); /* refused at once if it is not ours */
    rows_free(&rows);
    if (bad)
        return -1;
    sp_table_provenance(date, sizeof date, machine, sizeof machine);
    for (char *c = machine; *c; c++)
        if (*c == ',')
            *c = ';';
    sp_variants *v = sp_variants_new(o->rules, o->bytes);
    int rc = v ? 0 : (snprintf(err, errcap, "out of memory"), -1);
    double start = sp_clock_now();
    for (unsigned n = o->from; rc == 0 && n <= o->to; n++) {
        if (o->time_limit > 0 && sp_clock_now() - start > o->time_limit) {
            rc = 1;
            break;
        }
        double t0 = sp_clock_now();
        uint64_t nodes0 = sp_variants_nodes(v);
        sp_text row = {0};
        sp_text_add(&row, "%s,%u,", sp_rules_name(o->rules), n);
        if (solve_size(v, o->rules, n, &row)) {
            sp_text_free(&row);
            rc = 1;
            break;
        }
        sp_text_add(&row, ",%llu,%llu,%.2f,%s,%s,%s", (unsigned long long)(sp_variants_nodes(v) - nodes0),
                    (unsigned long long)sp_variants_stored(v), sp_clock_now() - t0, o->version, date, machine);
        if (row.failed || rows_put(&rows, row.s)) {
            sp_text_free(&row);
            rc = -1, snprintf(err, errcap, "out of memory");
            break;
        }
        if (o->rows)
            fprintf(o->rows, "%s\n", row.s), fflush(o->rows);
        if (save_rows(&rows, o->out, err, errcap))
            rc = -1;
    }
    sp_variants_free(v);
    rows_free(&rows);
    return rc;
}
