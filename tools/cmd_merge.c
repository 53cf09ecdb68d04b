/* cmd_merge.c: `sprouts merge BASE CERT...`: certificates of one play joined into one fact base
 * (tables/merge.h), the base made anew or added to. */
#include <stdio.h>
#include <unistd.h>

#include "cert.h"
#include "chunks.h"
#include "cli.h"
#include "cmds.h"
#include "file.h"
#include "merge.h"

static const char usage[] =
    "Usage: sprouts merge BASE CERT...\n"
    "Joins certificates of one play (per size, as 'sprouts table' wrote them before fact bases,\n"
    "or other fact bases) into the fact base BASE: the facts of all of them, each written once,\n"
    "and the roots of all of them, each of which 'sprouts verify BASE' then checks. BASE is made\n"
    "anew (atomically) when it does not exist; when it does, what is new is appended to it as one\n"
    "chunk, in a segment file of its own (BASE.1, BASE.2, ...; chunks.h). Misère\n"
    "games are matched by their options. Refused, with nothing written: another play, other\n"
    "misère limits, or a land or a root claimed otherwise than in BASE (both cannot be true).\n"
    "The result is not checked here: run 'sprouts verify BASE'.\n"
    "  -h, --help\n"
    "Exit status: 0 written, 1 it could not be written, 2 bad usage, an unreadable certificate,\n"
    "or certificates that cannot be joined.\n";

/* Adds the certificate at path to base (loaded from it when base is still empty). */
static int add_one(sp_cert *base, int *have, const char *path, char *err, size_t cap)
{
    sp_cert c;
    if (sp_cert_load(&c, path, err, cap))
        return -1;
    if (!*have) {
        *base = c;
        *have = 1;
        return 0;
    }
    char why[512];
    int rc = sp_cert_merge(base, &c, why, sizeof why);
    if (rc)
        snprintf(err, cap, "%s: %s", path, why);
    sp_cert_free(&c);
    return rc;
}

int sp_cmd_merge(int argc, char **argv)
{
    static const struct option opts[] = {{"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *prog = "sprouts merge";
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h')
            return fputs(usage, stdout), SP_EXIT_OK;
        return sp_cli_bad_option(prog, argv, "");
    }
    if (argc - optind < 2)
        return sp_cli_usage(prog, "expects a fact base and at least one certificate (see --help)");
    const char *out = argv[optind];
    sp_cert base;
    int have = 0;
    char err[1024];
    int rc = access(out, F_OK) == 0 ? add_one(&base, &have, out, err, sizeof err) : 0;
    sp_cert_mark held = {0};
    if (rc == 0 && have)
        sp_cert_mark_all(&base, &held);
    for (int i = optind + 1; i < argc && rc == 0; i++)
        rc = add_one(&base, &have, argv[i], err, sizeof err);
    if (rc) {
        if (have)
            sp_cert_free(&base);
        return sp_cli_usage(prog, "%s", err);
    }
    rc = sp_cert_append(&base, out, &held, err, sizeof err);
    if (rc == 0)
        printf("%s: %zu roots, %zu facts, %zu land facts, %llu bytes (not checked: run sprouts verify %s)\n",
               out, 1 + base.nmore, base.facts.n, base.lands.n, (unsigned long long)sp_chunks_size(out), out);
    sp_cert_free(&base);
    return rc ? sp_cli_fail(prog, "%s", err) : SP_EXIT_OK;
}
