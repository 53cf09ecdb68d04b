/* cmd_minimise.c: `sprouts minimise CERT`: a smaller certificate of the same claim from the facts of
 * one or more certificates (tables/minimise.h), checked before it is written. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cmds.h"
#include "minimise.h"
#include "options.h"
#include "posarg.h"
#include "progress.h"
#include "signals.h"

static const char usage[] =
    "Usage: sprouts minimise CERT [--out FILE] [--rounds R] [--seed S] [--db CERT2]... [--nimbers STORE]\n"
    "                            [--nimbers-lives L] [--lazy] [--joint] [--root N] [--threads N] [--quiet]\n"
    "Chooses, among the facts of CERT (and of the certificates given with --db, of the same play, any\n"
    "root), a smaller set that still proves CERT's root and claim: greedy rounds that answer each\n"
    "question with the facts already chosen where they can, then the removal of every fact the others\n"
    "can do without. The result is checked by the checker of 'sprouts verify' and written (atomically)\n"
    "only when it passes. The same input, rounds and seed give the same certificate. Normal play only.\n"
    "  --out FILE   where to write it (default: over CERT)\n"
    "  --rounds R   greedy rounds with random tie-breaks after the first (default 8)\n"
    "  --seed S     of the tie-breaks (default 1)\n"
    "  --db CERT2   more facts to choose from (repeatable; they need not be trusted: the result is checked)\n"
    "  --nimbers STORE  more facts: the lands of a nimber store (DIR/state/nimbers.store) with fewer lives\n"
    "               than CERT's root\n"
    "  --nimbers-lives L  of the store, only the lands of at most L lives\n"
    "  --lazy       list a fact's questions only when a round chooses it (for large databases)\n"
    "  --joint      prove the roots of the --db certificates too: one fact base for all of them\n"
    "  --root N     prove CERT's root 0*N alone (CERT a fact base of several sizes: one of them)\n"
    "  --threads N  threads of the final check (default: all cores)\n"
    "  --quiet      no progress lines on stderr\n"
    "  -h, --help\n"
    "Prints the facts before and after. Exit status: 0 written, 1 failed (the result was not written),\n"
    "2 bad usage or an unreadable certificate.\n";

#define MAX_DBS 64

typedef struct args {
    const char *in, *out, *db[MAX_DBS], *nimbers;
    size_t ndb;
    unsigned nimbers_lives;
    bool quiet;
    sp_minimise_opts mo;
} args;

/* One option (getopt's c) into a; 0, or the exit status of a usage error. */
static int option(int c, char **argv, args *a, sp_solver_opts *so)
{
    const char *prog = "sprouts minimise";
    uint64_t v;
    switch (c) {
    case 'q': a->quiet = true; return 0;
    case 'o': return sp_cli_path(prog, "--out", optarg, &a->out);
    case 'n': a->nimbers = optarg; return 0;
    case 'L':
        if (!sp_cli_parse_u64(optarg, 1, 100000, &v))
            return sp_cli_usage(prog, "--nimbers-lives expects a whole number from 1 to 100000, not '%s'", optarg);
        a->nimbers_lives = (unsigned)v;
        return 0;
    case 'l': a->mo.lazy = 1; return 0;
    case 'j': a->mo.joint = 1; return 0;
    case 'R':
        if (!sp_cli_parse_u64(optarg, 1, 100000, &v))
            return sp_cli_usage(prog, "--root expects a number of spots from 1 to 100000, not '%s'", optarg);
        a->mo.root = (unsigned)v;
        return 0;
    case 'T': return sp_opt_threads(prog, optarg, so) ? SP_EXIT_USAGE : 0;
    case 'd':
        if (a->ndb == MAX_DBS)
            return sp_cli_usage(prog, "at most %d --db certificates", MAX_DBS);
        a->db[a->ndb++] = optarg;
        return 0;
    case 'r':
        if (!sp_cli_parse_u64(optarg, 0, 100000, &v))
            return sp_cli_usage(prog, "--rounds expects a whole number from 0 to 100000, not '%s'", optarg);
        a->mo.rounds = (unsigned)v;
        return 0;
    case 's':
        if (!sp_cli_parse_u64(optarg, 0, UINT64_MAX, &v))
            return sp_cli_usage(prog, "--seed expects a whole number, not '%s'", optarg);
        a->mo.seed = v;
        return 0;
    default: return sp_cli_bad_option(prog, argv, "");
    }
}

/* Parses argv into a; returns -1 when the command is to go on, else the exit status. */
static int parse(int argc, char **argv, args *a)
{
    static const struct option opts[] = {
        {"out", required_argument, 0, 'o'},  {"rounds", required_argument, 0, 'r'},
        {"seed", required_argument, 0, 's'}, {"db", required_argument, 0, 'd'},
        {"threads", required_argument, 0, 'T'}, {"quiet", no_argument, 0, 'q'},
        {"nimbers", required_argument, 0, 'n'}, {"lazy", no_argument, 0, 'l'},
        {"nimbers-lives", required_argument, 0, 'L'}, {"joint", no_argument, 0, 'j'},
        {"root", required_argument, 0, 'R'},
        {"help", no_argument, 0, 'h'},       {0, 0, 0, 0}};
    sp_solver_opts so = {0};
    int c, rc = 0;
    a->mo.rounds = 8;
    a->mo.seed = 1;
    while (rc == 0 && (c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h')
            return fputs(usage, stdout), SP_EXIT_OK;
        rc = option(c, argv, a, &so);
    }
    if (rc)
        return rc;
    if (optind != argc - 1)
        return sp_cli_usage("sprouts minimise", "expects exactly one certificate file (see --help)");
    a->in = argv[optind];
    a->out = a->out ? a->out : a->in;
    a->mo.threads = so.threads;
    return -1;
}

/* Loads the certificate to minimise, the extra databases and the nimber store into db[0 ..
 * *loaded). */
static int load_all(const args *a, sp_cert *db, size_t *loaded)
{
    char err[1024];
    for (*loaded = 0; *loaded <= a->ndb; ++*loaded) {
        const char *path = *loaded ? a->db[*loaded - 1] : a->in;
        if (sp_cert_load(&db[*loaded], path, err, sizeof err))
            return sp_cli_usage("sprouts minimise", "%s", err);
        if (db[*loaded].play != SP_CERT_NORMAL)
            return ++*loaded, sp_cli_usage("sprouts minimise", "%s: only normal-play certificates can be minimised",
                                           path);
    }
    if (!a->nimbers)
        return -1;
    unsigned lives = a->mo.root ? 3 * a->mo.root : sp_key_lives(db[0].root, db[0].root_len); /* 0*n: 3n lives */
    lives = lives ? lives - 1 : 0;
    if (a->nimbers_lives && a->nimbers_lives < lives)
        lives = a->nimbers_lives;
    if (sp_minimise_load_nimbers(&db[*loaded], a->nimbers, lives, err, sizeof err))
        return sp_cli_usage("sprouts minimise", "%s", err);
    ++*loaded;
    return -1;
}

static int run(const args *a, const sp_cert *const *dbs)
{
    const char *prog = "sprouts minimise";
    sp_progress progress;
    sp_progress_init(&progress, "minimise", a->quiet ? NULL : stderr);
    progress.phase = "listing the questions";
    sp_minimise_opts mo = a->mo;
    mo.progress = sp_progress_facts;
    mo.arg = &progress;
    mo.stop = &sp_signals_stop;
    sp_cert out;
    sp_minimise_stats st;
    char why[1024], err[1024], root[4096];
    int rc = sp_minimise(dbs, a->ndb + 1 + (a->nimbers != NULL), &mo, &out, &st, why, sizeof why);
    sp_progress_done(&progress);
    if (rc)
        return sp_cli_fail(prog, "%s; nothing written", why);
    sp_tool_key_string(out.root, out.root_len, 0, root, sizeof root);
    char more[64] = "";
    if (out.nmore)
        snprintf(more, sizeof more, " and %zu more roots", out.nmore);
    int saved = sp_cert_save(&out, a->out, err, sizeof err);
    sp_cert_free(&out);
    if (saved)
        return sp_cli_fail(prog, "%s", err);
    printf("%s%s: %zu -> %zu facts (greedy %zu, %zu listed, %llu positions), verified, %.2f s: %s\n", root, more,
           st.before, st.after, st.greedy, st.explored, (unsigned long long)st.positions, st.seconds, a->out);
    return SP_EXIT_OK;
}

int sp_cmd_minimise(int argc, char **argv)
{
    args a = {0};
    int rc = parse(argc, argv, &a);
    if (rc >= 0)
        return rc;
    sp_cert db[MAX_DBS + 2];
    const sp_cert *dbs[MAX_DBS + 2];
    size_t loaded;
    rc = load_all(&a, db, &loaded);
    for (size_t i = 0; i < loaded; i++)
        dbs[i] = &db[i];
    if (rc < 0) {
        sp_signals_catch();
        rc = run(&a, dbs);
    }
    for (size_t i = 0; i < loaded; i++)
        sp_cert_free(&db[i]);
    return rc;
}
