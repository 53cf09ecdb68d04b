/* nimfam_common.c: the shared parts of `nimfam` (nimfam.h): verification reports and their summary
 * files with provenance, progress lines, option values, and the line-by-line prompts of play. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "clock.h"
#include "cpu.h"
#include "file.h"
#include "mem.h"
#include "nimfam.h"
#include "sp_config.h"
#include "sp_revision.h"

static double peak_mib(void)
{
    return (double)sp_mem_peak() / (1 << 20);
}

/* ---------------------------------------------------------------- reports */

bool nf_report_begin(nf_report *r, const char *prog)
{
    r->prog = prog;
    r->text = NULL;
    r->len = 0;
    r->start = sp_clock_now();
    r->body = open_memstream(&r->text, &r->len);
    return r->body != NULL;
}

void nf_say(nf_report *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    va_start(ap, fmt);
    vfprintf(r->body, fmt, ap);
    va_end(ap);
    fflush(stdout);
}

/* The command line as typed, the program named `nimfam` whatever path ran it. */
static void print_cmdline(FILE *f, const nf_cmdline *cl)
{
    fputs("nimfam", f);
    for (int i = 1; i < cl->argc; i++) {
        const char *a = cl->argv[i];
        bool plain = *a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=,./:") ==
                               strlen(a);
        fprintf(f, plain ? " %s" : " '%s'", a);
    }
}

static void print_provenance(FILE *f, const nf_cmdline *cl, double seconds)
{
    char cpu[256], date[64];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
    sp_cpu_model(cpu, sizeof cpu);
    fprintf(f, "- program: nimfam %s (git %s, %s build, sanitize %s)\n", SP_VERSION, SP_REVISION,
            SP_BUILDTYPE, SP_SANITIZE);
    fputs("- command: `", f);
    print_cmdline(f, cl);
    fprintf(f, "`\n- date: %s\n- machine: %s, %ld cores\n", date, cpu, sysconf(_SC_NPROCESSORS_ONLN));
    fprintf(f, "- time: %.2f s; peak memory: %.1f MiB\n\n", seconds, peak_mib());
}

static bool write_file(const char *prog, const char *dir, const char *file, const char *title,
                       const nf_cmdline *cl, double seconds, const char *body, size_t len)
{
    char path[4096];
    if (mkdir(dir, 0777) && errno != EEXIST)
        return sp_cli_fail(prog, "cannot create %s: %s", dir, strerror(errno)), false;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    sp_file_out o;
    if (sp_file_open(&o, path))
        return sp_cli_fail(prog, "cannot write %s: %s", path, strerror(errno)), false;
    fprintf(o.f, "# %s\n\nWritten by `nimfam`; not edited by hand.\n\n", title);
    print_provenance(o.f, cl, seconds);
    fwrite(body, 1, len, o.f);
    if (sp_file_commit(&o))
        return sp_cli_fail(prog, "cannot write %s: %s", path, strerror(errno)), false;
    printf("summary written to %s\n", path);
    return true;
}

int nf_report_end(nf_report *r, const char *title, const char *out_dir, const char *file,
                  const nf_cmdline *cl, bool held)
{
    double seconds = sp_clock_now() - r->start;
    nf_say(r, "\nVerdict: %s\n", held ? "the theorem held everywhere it was checked"
                                      : "FAILED: the theorem did not hold (see above)");
    printf("time %.2f s, peak memory %.1f MiB\n", seconds, peak_mib());
    fclose(r->body);
    bool written = !out_dir || write_file(r->prog, out_dir, file, title, cl, seconds, r->text, r->len);
    free(r->text);
    return held && written ? SP_EXIT_OK : SP_EXIT_FAIL;
}

/* ---------------------------------------------------------------- progress */

static void progress_line(void *arg, const char *stage, uint64_t done, uint64_t total)
{
    nf_progress *pg = arg;
    double t = sp_clock_now();
    if (t - pg->last < 1.0)
        return;
    pg->last = t;
    fprintf(stderr, "%s: %s %.1f%% (%.0f s)\n", pg->label, stage, total ? 100.0 * (double)done / (double)total : 0.0,
            t - pg->start);
}

void nf_progress_init(nf_progress *pg, const char *label)
{
    pg->p.fn = progress_line;
    pg->p.arg = pg;
    pg->label = label;
    pg->start = pg->last = sp_clock_now();
}

/* ---------------------------------------------------------------- option values */

unsigned nf_parse_list(const char *s, uint64_t lo, uint64_t hi, unsigned *out, unsigned cap)
{
    unsigned n = 0;
    for (;;) {
        char num[24];
        size_t len = strcspn(s, ",");
        uint64_t v;
        if (n == cap || len == 0 || len >= sizeof num)
            return 0;
        memcpy(num, s, len);
        num[len] = '\0';
        if (!sp_cli_parse_u64(num, lo, hi, &v))
            return 0;
        out[n++] = (unsigned)v;
        if (!s[len])
            return n;
        s += len + 1;
    }
}

bool nf_parse_range(const char *s, uint64_t lo, uint64_t hi, unsigned *first, unsigned *last)
{
    char buf[64];
    uint64_t a, b;
    if (strlen(s) >= sizeof buf)
        return false;
    strcpy(buf, s);
    char *dash = strchr(buf, '-');
    if (dash)
        *dash = '\0';
    if (!sp_cli_parse_u64(buf, lo, hi, &a) || (dash && !sp_cli_parse_u64(dash + 1, a, hi, &b)))
        return false;
    *first = (unsigned)a;
    *last = (unsigned)(dash ? b : a);
    return true;
}

bool nf_parse_first(const char *s, bool *human_first)
{
    if (!strcmp(s, "me") || !strcmp(s, "human") || !strcmp(s, "you")) {
        *human_first = true;
        return true;
    }
    if (!strcmp(s, "machine") || !strcmp(s, "computer")) {
        *human_first = false;
        return true;
    }
    return false;
}

/* ---------------------------------------------------------------- play */

bool nf_prompt(const char *prompt, char *buf, size_t cap)
{
    fputs(prompt, stdout);
    fflush(stdout);
    if (!fgets(buf, (int)cap, stdin))
        return false;
    size_t len = strcspn(buf, "\n");
    if (buf[len] != '\n' && !feof(stdin)) { /* an over-long line: drop the rest, keep what fitted */
        int c;
        while ((c = getchar()) != EOF && c != '\n')
            ;
    }
    buf[len] = '\0';
    return true;
}

bool nf_who_starts(const char *opt, bool *human_first)
{
    char line[128];
    if (opt)
        return nf_parse_first(opt, human_first);
    for (;;) {
        if (!nf_prompt("Who starts, you or the machine? [me/machine] ", line, sizeof line))
            return false;
        char *s = line + strspn(line, " \t");
        s[strcspn(s, " \t")] = '\0';
        if (nf_parse_first(s, human_first))
            return true;
        printf("Please answer 'me' or 'machine'.\n");
    }
}

int nf_numbers(const char *line, uint64_t *out, int cap)
{
    int n = 0;
    const char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (!*p)
            return n;
        if (!isdigit((unsigned char)*p) || n == cap)
            return -1;
        char *end;
        errno = 0;
        unsigned long long v = strtoull(p, &end, 10);
        if (errno || (*end && *end != ' ' && *end != '\t' && *end != '\r'))
            return -1;
        out[n++] = v;
        p = end;
    }
}

int nf_input_ended(void)
{
    printf("\nEnd of input: the game is left unfinished.\n");
    return SP_EXIT_OK;
}
