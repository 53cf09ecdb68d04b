/* cmd_verify.c: `sprouts verify CERT`: checks a certificate without the solver (tables/verify.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmds.h"
#include "options.h"
#include "posarg.h"
#include "progress.h"
#include "signals.h"
#include "verify.h"

static const char usage[] =
    "Usage: sprouts verify CERT [--threads N] [--quiet]\n"
    "Checks a certificate written by 'sprouts table' with code that shares only the position model\n"
    "with the solver: every claimed loss must have an answer to each of its moves, and the root's\n"
    "claimed outcome must follow (every root's, for a fact base of several sizes). Prints the\n"
    "verdict; a long check reports progress on stderr (at most once a second) and stops cleanly\n"
    "on Ctrl-C.\n"
    "  --threads N  checking threads (default: all cores)\n"
    "  --quiet      no progress lines on stderr\n"
    "  -h, --help\n"
    "Exit status: 0 the certificate proves its claim, 1 it does not (or interrupted), 2 bad usage or\n"
    "unreadable file.\n";

int sp_cmd_verify(int argc, char **argv)
{
    static const struct option opts[] = {{"threads", required_argument, 0, 'T'}, {"quiet", no_argument, 0, 'q'},
                                         {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *prog = "sprouts verify";
    sp_solver_opts so = {0};
    bool quiet = false;
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h')
            return fputs(usage, stdout), SP_EXIT_OK;
        if (c == 'q')
            quiet = true;
        else if (c != 'T')
            return sp_cli_bad_option(prog, argv, "");
        else if (sp_opt_threads(prog, optarg, &so))
            return SP_EXIT_USAGE;
    }
    if (optind != argc - 1)
        return sp_cli_usage(prog, "expects exactly one certificate file (see --help)");
    sp_cert cert;
    char err[1024];
    char warning[1024];
    if (sp_cert_load_info(&cert, argv[optind], warning, sizeof warning, err, sizeof err))
        return sp_cli_usage(prog, "%s", err);
    if (warning[0])
        fprintf(stderr, "%s: %s\n", prog, warning);
    sp_verify_result res;
    char root[4096];
    if (cert.spots) /* 0*1 is the string "0": name it as the table does */
        snprintf(root, sizeof root, "0*%u", cert.spots);
    else
        sp_tool_key_string(cert.root, cert.root_len, 0, root, sizeof root);
    const char *play = cert.play == SP_CERT_MISERE ? "misere" : "normal";
    const char *claim = cert.outcome == SP_CERT_WIN ? "win" : "loss";
    size_t nmore = cert.nmore;
    sp_progress progress;
    char label[64];
    snprintf(label, sizeof label, "verify %s", argv[optind]);
    sp_progress_init(&progress, label, quiet ? NULL : stderr);
    sp_signals_catch();
    progress.phase = "checking the certificate";
    sp_verify_watch watch = {sp_progress_facts, &progress, &sp_signals_stop};
    int rc = sp_verify(&cert, so.threads, &watch, &res);
    sp_progress_done(&progress);
    sp_cert_free(&cert);
    if (rc)
        return sp_cli_fail(prog, rc > 0 ? "interrupted; nothing decided" : "out of memory");
    if (!res.ok) {
        printf("REJECTED: %s, %s play, claimed %s: %s\n", root, play, claim, res.reason);
        return SP_EXIT_FAIL;
    }
    char lands[64] = "", more[64] = "";
    if (nmore)
        snprintf(more, sizeof more, ", as are the claims of its %zu further roots", nmore);
    if (res.lands)
        snprintf(lands, sizeof lands, " and %llu games of lands", (unsigned long long)res.lands);
    printf("OK: %s is a %s for the player to move in %s play%s (%llu facts%s checked, %llu positions generated)\n",
           root, claim, play, more, (unsigned long long)res.facts, lands, (unsigned long long)res.positions);
    return SP_EXIT_OK;
}
