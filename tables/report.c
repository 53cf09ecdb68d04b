/* report.c: the CSV and Markdown result tables (report.h): writing them whole and atomically after
 * every finished n, reading the CSV back for --resume, provenance of every row. */
#include "report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cpu.h"
#include "grow.h"
#include "store.h"

static const char header[] =
    "n,outcome,nimber,prediction,agrees,nodes,seconds,threads,certificate,certificate_facts,verified,version,date,machine\n";

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

/* Appends to a malloc'ed string; keeps going (and reports) when memory is short. */
typedef struct text {
    char *s;
    size_t len, cap;
    int failed;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(text *t, const char *fmt, ...)
{
    for (int pass = 0; pass < 2 && !t->failed; pass++) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->failed = 1;
            return;
        }
        if (t->s && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        if (sp_grow((void **)&t->s, &t->cap, t->len + (size_t)n + 1, 1)) {
            t->failed = 1;
            return;
        }
    }
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
    text out = {0};
    add(&out, "%s", header);
    for (unsigned n = 1; n <= SP_TABLE_MAX_N; n++) {
        const sp_row *r = &t->row[n];
        if (!r->present)
            continue;
        char nimber[16];
        nimber_text(r, nimber, sizeof nimber);
        add(&out, "%u,%s,%s,%c,%s,%llu,%.3f,%u,%s,%llu,%s,%s,%s,%s\n", n, r->outcome, nimber,
            sp_table_prediction(t->misere, n), agrees(t, n), (unsigned long long)r->nodes, r->seconds, r->threads,
            r->cert, (unsigned long long)r->cert_facts, r->verified, r->version, r->date, r->machine);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file_name(t));
    int rc = out.failed ? (snprintf(err, errcap, "%s: out of memory", path), -1)
                        : sp_store_write_text(path, out.s, out.len, err, errcap);
    free(out.s);
    return rc;
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

static int parse_row(sp_table *t, char *line)
{
    char *f[14];
    if (split(line, f, 14) != 14)
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
    int rc = fgets(line, sizeof line, f) && !strcmp(line, header) ? 0 : -1;
    for (int lineno = 2; rc == 0 && fgets(line, sizeof line, f); lineno++)
        if (parse_row(t, line)) {
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
static void unchecked(text *out, const sp_table *t)
{
    unsigned count = 0;
    for (unsigned n = 1; n <= SP_TABLE_MAX_N; n++) {
        const sp_row *r = &t->row[n];
        if (!r->present || !solved(r) || !strcmp(r->verified, "yes"))
            continue;
        if (count++)
            add(out, ", %u", n);
        else
            add(out, "Solved without a checked certificate (the outcome rests on the search alone): n = %u", n);
    }
    if (count)
        add(out, ".\n");
}

static void verdict(text *out, const sp_table *t)
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
        add(out, "No size solved yet.\n");
    else if (bad)
        add(out, "**Counterexample: n = %u does not follow the mod-6 pattern.**\n", bad);
    else if (unsolved)
        add(out, "The mod-6 pattern holds for every size solved in n = %u..%u (%u size%s unsolved within the time "
                 "limit).\n", lo, hi, unsolved, unsolved == 1 ? "" : "s");
    else
        add(out, "The mod-6 pattern holds for n = %u..%u.\n", lo, hi);
    unchecked(out, t);
}

static void table_md(text *out, const sp_table *t)
{
    add(out, "| n | outcome | nimber | predicted | agrees | nodes | seconds | threads | certificate (facts) | verified |\n");
    add(out, "| ---: | --- | ---: | --- | --- | ---: | ---: | ---: | --- | --- |\n");
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
        add(out, "| %u | %s | %s | %c | %s | %llu | %.2f | %u | %s | %s |\n", n, r->outcome, nimber,
            sp_table_prediction(t->misere, n), agrees(t, n), (unsigned long long)r->nodes, r->seconds, r->threads,
            cert, r->verified);
    }
}

/* The provenance lines: every distinct (version, machine) pair of the rows. */
static void provenance_md(text *out, const sp_table *a, const sp_table *b)
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
                add(out, "- %s (rows dated %s and later)\n", line, r->date);
            }
        }
    }
}

int sp_table_readme(const sp_table *normal, const sp_table *misere, const char *dir, char *err, size_t errcap)
{
    text out = {0};
    add(&out, "# Results\n\nWritten by `sprouts table`; do not edit by hand. The outcome is for the first player "
              "from n spots (0*n); `nimber` is its normal-play nimber where computed; `seconds` is the search "
              "(outcome and nimber), without the certificate. A solved row has a certificate (`certs/`) "
              "that `sprouts verify` checks without the solver; its size counts the facts (normal play: "
              "lands with their nimbers; misère play: lost positions beside a game, and the games of small "
              "lands), unless the verdict below names it.\n\n");
    add(&out, "## Normal play\n\nConjecture (Applegate, Jacobson, Sleator 1991): the first player wins iff n mod 6 "
              "is 3, 4 or 5.\n\n");
    verdict(&out, normal);
    add(&out, "\n");
    table_md(&out, normal);
    add(&out, "\n## Misère play\n\nConjecture (Lemoine and Viennot): for n > 4 the first player wins iff n mod 6 "
              "is 0, 4 or 5 (and wins n = 1, loses n = 4).\n\n");
    verdict(&out, misere);
    add(&out, "\n");
    table_md(&out, misere);
    add(&out, "\n## Provenance\n\n");
    provenance_md(&out, normal, misere);
    char path[4096];
    snprintf(path, sizeof path, "%s/README.md", dir);
    int rc = out.failed ? (snprintf(err, errcap, "%s: out of memory", path), -1)
                        : sp_store_write_text(path, out.s, out.len, err, errcap);
    free(out.s);
    return rc;
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
