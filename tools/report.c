/* report.c: shared plumbing of the solving subcommands (report.h): signals, solver options from the
 * command line, progress lines. */
#include "report.h"

#include <string.h>
#include <unistd.h>

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

int sp_report_tt_mb(const char *prog, const char *arg, sp_solver_opts *opts)
{
    uint64_t v;
    if (!sp_cli_parse_u64(arg, 1, (uint64_t)1 << 22, &v))
        return sp_cli_usage(prog, "--tt-mb needs a size in MiB from 1 to 4194304, not '%s'", arg);
    opts->tt_bytes = (size_t)v << 20;
    return 0;
}

int sp_report_misere_lives(const char *prog, const char *name, const char *arg, int *dst)
{
    uint64_t v;
    if (!sp_cli_parse_u64(arg, 0, 1000, &v))
        return sp_cli_usage(prog, "--%s needs a number from 0 to 1000, not '%s'", name, arg);
    *dst = v ? (int)v : -1;
    return 0;
}

void sp_report_count(char *buf, size_t cap, double v)
{
    if (v >= 1e9)
        snprintf(buf, cap, "%.2fG", v / 1e9);
    else if (v >= 1e6)
        snprintf(buf, cap, "%.2fM", v / 1e6);
    else if (v >= 1e4)
        snprintf(buf, cap, "%.1fk", v / 1e3);
    else
        snprintf(buf, cap, "%.0f", v);
}

void sp_progress_init(sp_progress *p, const char *label)
{
    p->label = label;
    p->tty = isatty(2);
    p->printed = false;
}

void sp_progress_line(void *arg, const sp_solver_stats *s)
{
    sp_progress *p = arg;
    char nodes[32], rate[32];
    sp_report_count(nodes, sizeof nodes, (double)s->nodes);
    sp_report_count(rate, sizeof rate, s->seconds > 0 ? (double)s->nodes / s->seconds : 0);
    char stored[64];
    if (s->play == SP_PLAY_MISERE)
        snprintf(stored, sizeof stored, "%llu land values, %llu games%s", (unsigned long long)s->mis_lands,
                 (unsigned long long)s->games, s->games_full ? " (full)" : "");
    else
        snprintf(stored, sizeof stored, "%llu nimbers", (unsigned long long)s->nimbers);
    fprintf(stderr, "%s%s: %.0f s, %s nodes, %s nodes/s, tt %.0f%% full, %s%s", p->tty ? "\r" : "", p->label,
            s->seconds, nodes, rate, 100.0 * (double)s->tt_filled / (double)s->tt_capacity, stored,
            p->tty ? "   " : "\n");
    fflush(stderr);
    p->printed = true;
}

void sp_progress_done(sp_progress *p)
{
    if (p->printed && p->tty)
        fputc('\n', stderr);
    p->printed = false;
}
