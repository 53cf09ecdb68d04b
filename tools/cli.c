/* cli.c: the shared command-line conventions of cli.h (error lines, exit codes, number parsing).
 * getopt's own messages are silenced so that every diagnosis has the same one-line shape. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void vreport(const char *prog, const char *fmt, va_list ap)
{
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int sp_cli_usage(const char *prog, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(prog, fmt, ap);
    va_end(ap);
    return SP_EXIT_USAGE;
}

int sp_cli_fail(const char *prog, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(prog, fmt, ap);
    va_end(ap);
    return SP_EXIT_FAIL;
}

int sp_cli_bad_option(const char *prog, char **argv, const char *optstring)
{
    const char *seen = argv[optind - 1];
    if (optopt && strchr(optstring, optopt))
        return sp_cli_usage(prog, "option '-%c' needs a value (see --help)", optopt);
    if (optopt)
        return sp_cli_usage(prog, "unknown option '-%c' (see --help)", optopt);
    if (seen && strncmp(seen, "--", 2) == 0 && strchr(seen, '=') == NULL) {
        /* A known long option without its required value also lands here. */
        return sp_cli_usage(prog, "unknown option or missing value: '%s' (see --help)", seen);
    }
    return sp_cli_usage(prog, "unknown option '%s' (see --help)", seen ? seen : "?");
}

bool sp_cli_parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

int sp_cli_path(const char *prog, const char *name, const char *arg, const char **dst)
{
    if (!arg || !*arg || *arg == '-')
        return sp_cli_usage(prog, "%s needs a path, not '%s' (write ./%s for a name that starts with '-')", name,
                            arg ? arg : "", arg ? arg : "");
    *dst = arg;
    return 0;
}

void sp_cli_getopt_reset(void)
{
    optind = 0; /* glibc: 0 also re-initialises its internal state */
    opterr = 0;
}
