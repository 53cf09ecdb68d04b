/* cli.h: conventions shared by every program and subcommand of the command line.
 * Usage errors are one line on stderr and exit status 2; results go to stdout. */
#ifndef SP_CLI_H
#define SP_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

enum { SP_EXIT_OK = 0, SP_EXIT_FAIL = 1, SP_EXIT_USAGE = 2 };

/* Prints "PROG: message" on stderr and returns SP_EXIT_USAGE, for `return sp_cli_usage(...)`. */
int sp_cli_usage(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints "PROG: message" on stderr and returns SP_EXIT_FAIL. */
int sp_cli_fail(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The one-line diagnosis of what getopt_long just rejected (unknown option, missing argument). */
int sp_cli_bad_option(const char *prog, char **argv, const char *optstring);

/* Parses a whole decimal number in [lo, hi]; false (and nothing written) otherwise. */
bool sp_cli_parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);

/* Takes ARG as the path given to option NAME ("--out"); a value that starts with '-' is refused
 * (`--out --resume` would otherwise make a directory named "--resume"). 0 or SP_EXIT_USAGE. */
int sp_cli_path(const char *prog, const char *name, const char *arg, const char **dst);

/* Resets getopt so that a subcommand can parse its own argv. */
void sp_cli_getopt_reset(void);

#endif
