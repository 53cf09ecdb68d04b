/* report.c: shared plumbing of the solving subcommands (report.h): signals and solver options from
 * the command line. */
#include "report.h"

#include <string.h>

#include "cli.h"

volatile sig_atomic_t sp_report_stop;

static void on_signal(int sig)
{
    (void)sig;
    sp_report_stop = 1;
}

void sp_report_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int sp_report_threads(const char *prog, const char *arg, sp_solver_opts *opts)
{
    uint64_t v;
    if (!sp_cli_parse_u64(arg, 1, 1024, &v))
        return sp_cli_usage(prog, "--threads needs a number from 1 to 1024, not '%s'", arg);
    opts->threads = (unsigned)v;
    return 0;
}

static int parse_mb(const char *prog, const char *name, uint64_t least, const char *arg, size_t *bytes)
{
    uint64_t v, most = (uint64_t)1 << 22;
    if (!sp_cli_parse_u64(arg, least, most, &v))
        return sp_cli_usage(prog, "--%s needs a size in MiB from %llu to %llu, not '%s'", name,
                            (unsigned long long)least, (unsigned long long)most, arg);
    *bytes = (size_t)v << 20;
    return 0;
}

int sp_report_tt_mb(const char *prog, const char *arg, sp_solver_opts *opts)
{
    return parse_mb(prog, "tt-mb", 1, arg, &opts->tt_bytes);
}

int sp_report_nim_mb(const char *prog, const char *arg, sp_solver_opts *opts)
{
    return parse_mb(prog, "nim-mb", 16, arg, &opts->nim_bytes);
}

int sp_report_misere_lives(const char *prog, const char *name, const char *arg, int *dst)
{
    uint64_t v;
    if (!sp_cli_parse_u64(arg, 0, 1000, &v))
        return sp_cli_usage(prog, "--%s needs a number from 0 to 1000, not '%s'", name, arg);
    *dst = v ? (int)v : -1;
    return 0;
}
