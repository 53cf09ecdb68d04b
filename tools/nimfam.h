/* nimfam.h: what the files of the `nimfam` program share: the game commands, the verification report
 * (stdout plus an optional summary file with provenance), progress on stderr, option values, prompts. */
#ifndef SP_NIMFAM_H
#define SP_NIMFAM_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "nim_progress.h"

/* The whole command line, for the provenance of a summary file. */
typedef struct nf_cmdline {
    int argc;
    char **argv;
} nf_cmdline;

/* A subcommand of a game: argv[0] is the subcommand's name. */
typedef int (*nf_cmd_fn)(int argc, char **argv, const nf_cmdline *cl);

typedef struct nf_game {
    const char *name, *summary;
    nf_cmd_fn verify, play;
} nf_game;

extern const nf_game nf_marienbad, nf_fibonacci, nf_northcott;

/* ---- verification reports */

typedef struct nf_report {
    const char *prog;   /* "nimfam GAME verify", for messages */
    FILE *body;         /* a memory stream holding what went to stdout */
    char *text;
    size_t len;
    double start;
} nf_report;

/* false when memory runs out */
bool nf_report_begin(nf_report *r, const char *prog);

/* Writes to stdout and to the report body. */
void nf_say(nf_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints time and memory, and when out_dir is set writes out_dir/file (provenance, then the body)
 * through a temporary file and a rename. Frees the report. Returns the exit status: held ? 0 : 1, or
 * 1 when the file cannot be written. */
int nf_report_end(nf_report *r, const char *title, const char *out_dir, const char *file,
                  const nf_cmdline *cl, bool held);

/* ---- progress on stderr, at most once a second and only once a run has taken a second */

typedef struct nf_progress {
    sp_nim_progress p;
    const char *label;
    double start, last;
} nf_progress;

void nf_progress_init(nf_progress *pg, const char *label);

/* ---- option values */

/* "1,3,5,7": 1 .. cap numbers each in [lo, hi]; returns how many, 0 on a bad list. */
unsigned nf_parse_list(const char *s, uint64_t lo, uint64_t hi, unsigned *out, unsigned cap);

/* "4" or "2-6", within [lo, hi]. */
bool nf_parse_range(const char *s, uint64_t lo, uint64_t hi, unsigned *first, unsigned *last);

/* "me" or "machine" for --first: *human_first. */
bool nf_parse_first(const char *s, bool *human_first);

/* ---- play */

/* Prints prompt, reads one line into buf (without its newline); false at end of input. */
bool nf_prompt(const char *prompt, char *buf, size_t cap);

/* The --first value, or asks until it gets one; false at end of input. */
bool nf_who_starts(const char *opt, bool *human_first);

/* Reads up to cap whole non-negative numbers separated by spaces from line; returns how many, or -1
 * when the line holds anything else or more numbers. */
int nf_numbers(const char *line, uint64_t *out, int cap);

/* Says the game was left unfinished (end of input) and returns exit status 0. */
int nf_input_ended(void);

#endif
