/* report.c: the CSV and Markdown result tables (report.h): writing them whole and atomically after
 * every finished n, reading the CSV back for --resume, provenance of every row. */
#include "report.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cpu.h"
#include "glop.h"
#include "plot.h"
#include "published.h"
#include "text.h"

/* The columns every table has had; later ones are added at the end only, so that a reader that knows
 * fewer still finds these where they were (and this one reads tables written before them). */
static const char base_header[] = "n,outcome,nimber,prediction,agrees,nodes,seconds,threads,certificate,"
                                   "certificate_facts,verified,version,date,machine";
enum { MAX_COLUMNS = 32 };

/* Written after the base ones: whether the row's build came from a modified tree (yes, no, or empty
 * when its version does not say). */
static const char later_columns[] = ",modified";

int sp_table_modified(const char *version)
{
    const char *git = strstr(version, "(git ");
    if (!git || !strncmp(git, "(git unknown", 12))
        return -1;
    return strstr(git, "-dirty") != NULL;
}

static const char *modified_field(const sp_row *r)
{
    int m = sp_table_modified(r->version);
    return m < 0 ? "" : m ? "yes" : "no";
}

char sp_table_prediction(int misere, unsigned n)
{
    unsigned r = n % 6;
    if (!misere)
        return r >= 3 ? 'W' : 'L';
    if (n == 1 || n == 4)
        return n == 1 ? 'W' : 'L';
    return r == 0 || r == 4 || r == 5 ? 'W' : 'L';
}

static const char *file_name(const sp_table *t)
{
    return t->misere ? "misere.csv" : "normal.csv";
}

static int solved(const sp_row *r)
{
    return r->present && (!strcmp(r->outcome, "win") || !strcmp(r->outcome, "loss"));
}

static const char *agrees(const sp_table *t, unsigned n)
{
    const sp_row *r = &t->row[n];
    if (!solved(r))
        return "";
    return (r->outcome[0] == 'w') == (sp_table_prediction(t->misere, n) == 'W') ? "yes" : "no";
}

/* Free text in a CSV field: no commas, quotes or line breaks. */
static void clean(char *s)
{
    for (; *s; s++)
        if (*s == ',' || *s == '"' || *s == '\n' || *s == '\r')
            *s = ' ';
}

/* The nimber column: empty where not computed. */
static void nimber_text(const sp_row *r, char *buf, size_t cap)
{
    if (r->nimber >= 0)
        snprintf(buf, cap, "%d", r->nimber);
    else
        buf[0] = '\0';
}

int sp_table_save(const sp_table *t, const char *dir, char *err, size_t errcap)
{
    sp_text out = {0};
    sp_text_add(&out, "%s%s\n", base_header, later_columns);
    for (unsigned n = 1; n <= SP_TABLE_MAX_N; n++) {
        const sp_row *r = &t->row[n];
        if (!r->present)
            continue;
        char nimber[16];
        nimber_text(r, nimber, sizeof nimber);
        sp_text_add(&out, "%u,%s,%s,%c,%s,%llu,%.3f,%u,%s,%llu,%s,%s,%s,%s,%s\n", n, r->outcome, nimber,
            sp_table_prediction(t->misere, n), agrees(t, n), (unsigned long long)r->nodes, r->seconds, r->threads,
            r->cert, (unsigned long long)r->cert_facts, r->verified, r->version, r->date, r->machine,
            modified_field(r));
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file_name(t));
    return sp_text_save(&out, path, err, errcap);
}

/* Splits a CSV line in place into at most cap fields. */
static int split(char *line, char **field, int cap)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = '\0';
    for (char *p = line; n < cap; n++) {
        field[n] = p;
        char *comma = strchr(p, ',');
        if (!comma)
            return n + 1;
        *comma = '\0';
        p = comma + 1;
    }
    return -1;
}

/* A row of a table with `columns` columns; what it says in the later ones follows from the base ones. */
static int parse_row(sp_table *t, char *line, int columns)
{
    char *f[MAX_COLUMNS];
    if (split(line, f, MAX_COLUMNS) != columns)
        return -1;
    char *end;
    unsigned long n = strtoul(f[0], &end, 10);
    if (*end || n < 1 || n > SP_TABLE_MAX_N || strlen(f[1]) >= sizeof t->row[0].outcome)
        return -1;
    sp_row *r = &t->row[n];
    memset(r, 0, sizeof *r);
    r->present = 1;
    snprintf(r->outcome, sizeof r->outcome, "%s", f[1]);
    r->nimber = *f[2] ? atoi(f[2]) : -1;
    r->nodes = strtoull(f[5], NULL, 10);
    r->seconds = strtod(f[6], NULL);
    r->threads = (unsigned)strtoul(f[7], NULL, 10);
    snprintf(r->cert, sizeof r->cert, "%s", f[8]);
    r->cert_facts = strtoull(f[9], NULL, 10);
    snprintf(r->verified, sizeof r->verified, "%s", f[10]);
    snprintf(r->version, sizeof r->version, "%s", f[11]);
    snprintf(r->date, sizeof r->date, "%s", f[12]);
    snprintf(r->machine, sizeof r->machine, "%s", f[13]);
    return strcmp(r->outcome, "win") && strcmp(r->outcome, "loss") && strcmp(r->outcome, "unsolved") ? -1 : 0;
}

/* The number of columns of a header that begins with the base ones (a table written before the later
 * columns has only those); -1 for any other header. */
static int header_columns(const char *line)
{
    size_t base = strlen(base_header);
    if (strncmp(line, base_header, base) || (line[base] != ',' && line[base] != '\n' && line[base] != '\r'))
        return -1;
    int columns = 1;
    for (const char *p = line; *p; p++)
        columns += *p == ',';
    return columns <= MAX_COLUMNS ? columns : -1;
}

int sp_table_load(sp_table *t, const char *dir, char *err, size_t errcap)
{
    int misere = t->misere;
    memset(t, 0, sizeof *t);
    t->misere = misere;
    char path[4096], line[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file_name(t));
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int columns = fgets(line, sizeof line, f) ? header_columns(line) : -1;
    int rc = columns < 0 ? -1 : 0;
    for (int lineno = 2; rc == 0 && fgets(line, sizeof line, f); lineno++)
        if (parse_row(t, line, columns)) {
            snprintf(err, errcap, "%s: line %d is not a row this program wrote", path, lineno);
            rc = -2;
        }
    fclose(f);
    if (rc == -1)
        snprintf(err, errcap, "%s: not a table this program wrote (unexpected header)", path);
    return rc ? -1 : 0;
}

/* The verdict on the conjectured pattern over the solved rows. */
/* Names the solved sizes whose certificate is missing or did not check: their outcome rests on the
 * search alone (the run said why, e.g. a game table too small for the certificate). */
static void unchecked(sp_text *out, const sp_table *t)
{
    unsigned count = 0;
    for (unsigned n = 1; n <= SP_TABLE_MAX_N; n++) {
        const sp_row *r = &t->row[n];
        if (!r->present || !solved(r) || !strcmp(r->verified, "yes"))
            continue;
        if (count++)
            sp_text_add(out, ", %u", n);
        else
            sp_text_add(out, "Solved without a checked certificate (the outcome rests on the search alone): "
                             "n = %u", n);
    }
    if (count)
        sp_text_add(out, ".\n");
}

static void verdict(sp_text *out, const sp_table *t)
{
    unsigned lo = 0, hi = 0, bad = 0, unsolved = 0;
    for (unsigned n = 1; n <= SP_TABLE_MAX_N; n++) {
        if (!t->row[n].present)
            continue;
        if (!solved(&t->row[n])) {
            unsolved++;
            continue;
        }
        lo = lo ? lo : n;
        hi = n;
        if (!bad && !strcmp(agrees(t, n), "no"))
            bad = n;
    }
    if (!lo)
        sp_text_add(out, "No size solved yet.\n");
    else if (bad)
        sp_text_add(out, "**Counterexample: n = %u does not follow the mod-6 pattern.**\n", bad);
    else if (unsolved)
        sp_text_add(out, "The mod-6 pattern holds for every size solved in n = %u..%u (%u size%s unsolved so "
                         "far).\n", lo, hi, unsolved, unsolved == 1 ? "" : "s");
    else
        sp_text_add(out, "The mod-6 pattern holds for n = %u..%u.\n", lo, hi);
    unchecked(out, t);
}

/* The row beside what others published: the published outcome, "**new**" for a size nobody had
 * solved, "-" for one neither has; a disagreement is spelled out, as it means a bug in one program. */
static const char *published_cell(const sp_table *t, unsigned n, char *buf, size_t cap)
{
    char theirs = sp_published_outcome(t->misere, n);
    char ours = !strcmp(t->row[n].outcome, "win") ? 'W' : !strcmp(t->row[n].outcome, "loss") ? 'L' : 0;
    if (!theirs)
        snprintf(buf, cap, "%s", ours ? "**new**" : "-");
    else if (ours && ours != theirs)
        snprintf(buf, cap, "%c **differs**", theirs);
    else
        snprintf(buf, cap, "%c", theirs);
    return buf;
}

/* Lists the solved sizes whose cell above holds mark ("**new**", "differs"). */
static unsigned list_marked(sp_text *out, const sp_table *t, const char *mark, const char *lead)
{
    unsigned count = 0;
    for (unsigned n = 1; n <= SP_TABLE_MAX_N; n++) {
        char cell[32];
        if (!solved(&t->row[n]) || !strstr(published_cell(t, n, cell, sizeof cell), mark))
            continue;
        if (count++)
            sp_text_add(out, ", %u", n);
        else
            sp_text_add(out, "%s: n = %u", lead, n);
    }
    return count;
}

/* What the table adds to the published outcomes, and whether it agrees with them. */
static void published_md(sp_text *out, const sp_table *t)
{
    sp_text_add(out, "Published outcomes (column `published`): %s.", sp_published_source(t->misere));
    if (list_marked(out, t, "differs", " **Solved here against the published outcome"))
        sp_text_add(out, "**.");
    if (list_marked(out, t, "**new**", " Solved here and never published before (new results)"))
        sp_text_add(out, ".");
    sp_text_add(out, "\n");
}

/* Whether the row's build came from a modified tree, for the README. */
static const char *tree_md(const sp_row *r)
{
    int m = sp_table_modified(r->version);
    return m < 0 ? "unknown" : m ? "**modified**" : "clean";
}

static void table_md(sp_text *out, const sp_table *t)
{
    sp_text_add(out, "| n | outcome | nimber | predicted | agrees | published | nodes | seconds | threads "
                     "| certificate (facts) | verified | source tree |\n");
    sp_text_add(out, "| ---: | --- | ---: | --- | --- | --- | ---: | ---: | ---: | --- | --- | --- |\n");
    for (unsigned n = 1; n <= SP_TABLE_MAX_N; n++) {
        const sp_row *r = &t->row[n];
        if (!r->present)
            continue;
        char nimber[16];
        nimber_text(r, nimber, sizeof nimber);
        char cert[sizeof r->cert + 32];
        if (r->cert[0])
            snprintf(cert, sizeof cert, "%s (%llu)", r->cert, (unsigned long long)r->cert_facts);
        else
            snprintf(cert, sizeof cert, "none");
        char theirs[32];
        sp_text_add(out, "| %u | %s | %s | %c | %s | %s | %llu | %.2f | %u | %s | %s | %s |\n", n, r->outcome,
            nimber, sp_table_prediction(t->misere, n), agrees(t, n), published_cell(t, n, theirs, sizeof theirs),
            (unsigned long long)r->nodes, r->seconds, r->threads, cert, r->verified, tree_md(r));
    }
}

/* ", a build from a modified tree" where the version says so. */
static const char *modified_md(const char *version)
{
    return sp_table_modified(version) == 1 ? ", a build from a modified tree: not exactly the commit named" : "";
}

/* The provenance lines: every distinct (version, machine) pair of the rows. */
static void provenance_md(sp_text *out, const sp_table *a, const sp_table *b)
{
    const sp_table *ts[2] = {a, b};
    char seen[16][256];
    int nseen = 0;
    for (int i = 0; i < 2; i++) {
        for (unsigned n = 1; n <= SP_TABLE_MAX_N; n++) {
            const sp_row *r = &ts[i]->row[n];
            if (!r->present)
                continue;
            char line[256];
            snprintf(line, sizeof line, "%s on %s", r->version, r->machine);
            int dup = 0;
            for (int k = 0; k < nseen && !dup; k++)
                dup = !strcmp(seen[k], line);
            if (!dup && nseen < 16) {
                snprintf(seen[nseen++], sizeof seen[0], "%s", line);
                sp_text_add(out, "- %s (rows dated %s and later%s)\n", line, r->date, modified_md(r->version));
            }
        }
    }
}

/* s as a Markdown code span. */
static void code_md(sp_text *out, const char *s)
{
    sp_text_add(out, strchr(s, '`') ? "`` %s ``" : "`%s`", s);
}

/* Who wrote this README; rows kept from earlier runs name their own build below. */
static void intro_md(sp_text *out, const sp_table_origin *by)
{
    sp_text_add(out, "# Results\n\n");
    if (by && by->command) {
        sp_text_add(out, "Written by ");
        code_md(out, by->command);
        sp_text_add(out, " (%s%s) on %s; do not edit by hand. Rows kept from earlier runs name their own build "
                         "(Provenance, below). ", by->version ? by->version : "version not given",
                    by->version ? modified_md(by->version) : "", by->date ? by->date : "a day not given");
    } else {
        sp_text_add(out, "Written by `sprouts table`; do not edit by hand. ");
    }
    sp_text_add(out, "The outcome is for the first player "
              "from n spots (0*n); `nimber` is its normal-play nimber where computed; `seconds` is the search "
              "(outcome and nimbers) of every attempt at the size, without the certificate. A solved row "
              "has a certificate in the fact base of its play (`certs/`), which `sprouts verify` checks "
              "whole without the solver; its size counts the facts it needs (normal play: lands with their "
              "nimbers; misère play: lost positions beside a game, and the games of small lands), unless "
              "the verdict below names it. A size is checked as it joins the base of its play: its facts "
              "that the base holds already were checked before, the others are checked then.\n\n");
}

static void plots_md(sp_text *out)
{
    sp_text_add(out, "\n## Plots\n\nDrawn from the two CSV files by `sprouts table` after every size "
                     "(`sprouts plot DIR` draws them again).\n\n");
    for (int k = 0; k < SP_PLOT_COUNT; k++)
        sp_text_add(out, "![%s](%s)\n\n", sp_plot_files[k].alt, sp_plot_files[k].name);
}

enum { GLOP_COMPARED_TO = 25 }; /* the last size GLOP publishes a minimal database for */

/* One row of the comparison; returns the ratio (ours / GLOP's), or -1 when one of them is missing. */
static double glop_row(sp_text *out, const sp_row *r, unsigned n)
{
    int64_t glop = sp_glop_min_database(n);
    int ours = r->present && r->cert[0] && r->cert_facts > 0;
    char mine[48] = "-", theirs[24] = "-", ratio[24] = "-";
    if (ours)
        snprintf(mine, sizeof mine, "%llu%s", (unsigned long long)r->cert_facts,
                 strcmp(r->verified, "yes") ? " (not checked)" : "");
    if (glop >= 0)
        snprintf(theirs, sizeof theirs, "%lld", (long long)glop);
    double q = ours && glop > 0 ? (double)r->cert_facts / (double)glop : -1;
    if (q >= 0)
        snprintf(ratio, sizeof ratio, "%.2f", q);
    sp_text_add(out, "| %u | %s | %s | %s |\n", n, mine, theirs, ratio);
    return q;
}

static void glop_md(sp_text *out, const sp_table *normal)
{
    sp_text_add(out, "## Certificate sizes beside GLOP's\n\nGLOP (Lemoine and Viennot) publishes, on its records "
                     "page, the size of its minimal databases for 0*n in normal play: the losing couples (P, k) from "
                     "which the outcome is checked (`tables/glop.c` holds them as published). Ours count the facts "
                     "of our normal-play certificates, lands with their nimbers, the same kind of claim. "
                     "`-`: no figure.\n\n| n | ours (facts) | GLOP's (losing couples) | ours / GLOP's |\n"
                     "| ---: | ---: | ---: | ---: |\n");
    unsigned compared = 0, at_or_below = 0, worst_n = 0;
    double worst = 0;
    for (unsigned n = 1; n <= GLOP_COMPARED_TO; n++) {
        double q = glop_row(out, &normal->row[n], n);
        if (q < 0)
            continue;
        compared++;
        at_or_below += q <= 1;
        if (q > worst)
            worst = q, worst_n = n;
    }
    if (compared)
        sp_text_add(out, "\nOurs are at or below GLOP's for %u of the %u sizes both have; the largest ratio is %.2f "
                         "(n = %u).\n", at_or_below, compared, worst, worst_n);
}

/* Appends the file at path (nothing when it cannot be read); returns whether it could. */
static bool add_file(sp_text *out, const char *path)
{
    char buf[4096];
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    for (size_t n; (n = fread(buf, 1, sizeof buf - 1, f)) > 0;) {
        buf[n] = '\0';
        sp_text_add(out, "%s", buf);
    }
    fclose(f);
    return true;
}

/* The section DIR/variants.md holds (written by `sprouts table --rules R`), when there is one. */
static void variants_md(sp_text *out, const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/variants.md", dir);
    if (access(path, R_OK) == 0) {
        sp_text_add(out, "\n");
        add_file(out, path);
    }
}

static const char variants_heading[] = "\n## The variants of the seed article\n";
static const char provenance_heading[] = "\n## Provenance\n";

int sp_table_readme_variants(const char *dir, char *err, size_t errcap)
{
    char path[4096];
    sp_text old = {0}, out = {0};
    snprintf(path, sizeof path, "%s/README.md", dir);
    if (!add_file(&old, path) || !old.s)
        return 0;
    char *end = strstr(old.s, provenance_heading), *start = end ? strstr(old.s, variants_heading) : NULL;
    if (end && (!start || start > end))
        start = end; /* no section yet: it goes before the provenance, as sp_table_readme() puts it */
    if (end) {
        sp_text_add(&out, "%.*s", (int)(start - old.s), old.s);
        variants_md(&out, dir);
        sp_text_add(&out, "%s", end);
    }
    sp_text_free(&old);
    return end ? sp_text_save(&out, path, err, errcap) : 0;
}

int sp_table_readme(const sp_table *normal, const sp_table *misere, const sp_table_origin *by, const char *dir,
                    char *err, size_t errcap)
{
    sp_text out = {0};
    intro_md(&out, by);
    sp_text_add(&out, "## Normal play\n\nConjecture (Applegate, Jacobson, Sleator 1991): the first player wins iff "
                      "n mod 6 is 3, 4 or 5.\n\n");
    verdict(&out, normal);
    published_md(&out, normal);
    sp_text_add(&out, "\n");
    table_md(&out, normal);
    sp_text_add(&out, "\n## Misère play\n\nConjecture (Lemoine and Viennot): for n > 4 the first player wins iff "
                      "n mod 6 is 0, 4 or 5 (and wins n = 1, loses n = 4).\n\n");
    verdict(&out, misere);
    published_md(&out, misere);
    sp_text_add(&out, "\n");
    table_md(&out, misere);
    plots_md(&out);
    glop_md(&out, normal);
    variants_md(&out, dir);
    sp_text_add(&out, "\n## Provenance\n\n");
    provenance_md(&out, normal, misere);
    char path[4096];
    snprintf(path, sizeof path, "%s/README.md", dir);
    return sp_text_save(&out, path, err, errcap);
}

void sp_table_provenance(char *date, size_t dcap, char *machine, size_t mcap)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, dcap, "%Y-%m-%d", &tm);
    char model[256];
    sp_cpu_model(model, sizeof model);
    clean(model);
    snprintf(machine, mcap, "%s (%ld cores)", model, sysconf(_SC_NPROCESSORS_ONLN));
}
