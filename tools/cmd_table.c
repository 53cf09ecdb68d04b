/* cmd_table.c: `sprouts table`: the table generator on the command line (tables/table.h). */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmds.h"
#include "options.h"
#include "signals.h"
#include "sp_config.h"
#include "sp_revision.h"
#include "table.h"
#include "text.h"

static const char usage[] =
    "Usage: sprouts table [--play normal|misere|both] [--from A] [--to B] [--threads N] [--tt-mb M]\n"
    "                     [--nim-mb M] [--game-mb M] [--out DIR] [--resume [--recertify]] [--no-certificates]\n"
    "                     [--time-limit S] [--retry]\n"
    "                     [--checkpoint S] [--minimise R [--reminimise] [--minimise-db CERT]] [--state-lives L] [--base-only]\n"
    "                     [--farm [--worker-threads T] [--lost-seconds S] | --team] [--snapshot F [--snapshot-every S]]\n"
    "                     [--quiet]\n"
    "Solves 0*A..0*B one after the other, reusing what it learns, and writes DIR/normal.csv,\n"
    "DIR/misere.csv (a row per n with provenance), DIR/README.md (the tables and the verdict on the\n"
    "mod-6 pattern), a checked certificate per solved n (DIR/certs/) and what it learned (DIR/state/).\n"
    "Every finished n is saved at once (atomically): after a crash or Ctrl-C, --resume continues.\n"
    "The land nimbers proven so far are saved too on Ctrl-C, and every ten minutes of a long size\n"
    "(--checkpoint), with its row: its nodes and seconds so far, as unsolved;\n"
    "in misère play the land games, and the positions proven lost beside a game after long search.\n"
    "  --play P        normal, misere or both (default both)\n"
    "  --from A        first n (default 1)\n"
    "  --to B          last n (default 12)\n"
    "  --threads N     search threads (default: all cores)\n"
    "  --tt-mb M       transposition table in MiB (default: a quarter of memory,\n"
    "                  at most 4096; the largest power of two within M)\n"
    "  --nim-mb M      nimber store (misère: land store) in MiB (default: an eighth of the table,\n"
    "                  at least 16, doubled until the nimbers DIR saved fill at most half of it;\n"
    "                  a budget given that cannot hold them all is refused); once full, nimbers\n"
    "                  proven later are not kept\n"
    "  --game-mb M     misère game table in MiB (default: half of the table; touched as used).\n"
    "                  A run starts by printing its budgets, and warns when together they may\n"
    "                  pass this machine's memory: the table, once it would replace an entry,\n"
    "                  doubles until it reaches its budget (SPROUTS_MEMORY_MB in the environment\n"
    "                  gives the machine's memory where the system's figure is wrong)\n"
    "  --out DIR       where the tables go (default results); runs of the two plays may share it,\n"
    "                  but a second run of one play there is refused while the first runs\n"
    "  --resume        keep the solved rows of DIR and continue (needed when DIR holds results)\n"
    "  --recertify     with --resume: a kept row solved without a certificate (its build ran out\n"
    "                  of memory) is solved again and certified; give it more memory (--game-mb,\n"
    "                  --tt-mb). A row whose certificate was stopped (Ctrl-C)\n"
    "                  is saved so (verified: stopped) and certified by --resume alone\n"
    "  --no-certificates  a quick table: rows solved are saved without a certificate (a later\n"
    "                  run with --resume --recertify solves and certifies them)\n"
    "  --time-limit S  give up a size after S seconds (it is recorded as unsolved) and go on\n"
    "  --retry         with --time-limit: the sizes never tried first, in order; then the\n"
    "                  unsolved ones again, the one of fewest nodes so far first, each attempt as\n"
    "                  long as all before it together (the time on a size doubles), until all are\n"
    "                  solved or Ctrl-C; a row's nodes and seconds count every attempt, and\n"
    "                  --resume goes on where it stopped\n"
    "  --checkpoint S  save every S seconds of a long size (default 600): what it learned, and\n"
    "                  its row as unsolved with the nodes and seconds so far (a killed run loses\n"
    "                  no more than S seconds of either)\n"
    "  --minimise R    write each normal-play certificate minimised ('sprouts minimise', R rounds;\n"
    "                  much slower than building it for large n), from its own facts and those of\n"
    "                  DIR/certs/normal.cert; default: as built\n"
    "  --reminimise    with --minimise and --resume: the kept normal-play rows A..B too, each count\n"
    "                  that of its root's certificate minimised again from DIR/certs/normal.cert\n"
    "  --minimise-db CERT  with --reminimise: minimise from the fact base CERT instead (smaller: the\n"
    "                  minimiser lists every fact the root reaches in it)\n"
    "  --state-lives L save the nimbers of the lands of at least L lives only (default 1: all);\n"
    "                  the smaller ones are found again in moments, so DIR/state stays small (the\n"
    "                  lands of the normal-play fact base are read as nimbers on every run as well)\n"
    "  --base-only     start from the checked fact base (DIR/certs) alone, not from the land\n"
    "                  nimbers of DIR/state: a search that leans on nimbers never certified (those\n"
    "                  of an unsolved attempt) makes a certificate that must prove them, which can\n"
    "                  cost far more than searching without them (what is proven is still saved)\n"
    "  --farm          normal play's searches on the tree-level parallel search ('sprouts solve\n"
    "                  --help'): --threads workers, each with a share of --tt-mb and a nimber store\n"
    "                  as large as the run's; certificates are still built by one solver. Under\n"
    "                  'mpirun -np R' the farm is on by itself: rank 0 leads and writes DIR, the\n"
    "                  other ranks are its workers (misère play runs on rank 0 alone). On 8\n"
    "                  --threads or more (all cores when not given) it is on unless --team\n"
    "  --worker-threads T  the farm (implies --farm), each worker a team of T threads: --threads N\n"
    "                  make N / T workers; under mpirun each rank runs T (default: 2 from 16\n"
    "                  threads on, else 1; under mpirun 1)\n"
    "  --team          normal play on the team at any --threads (deterministic node counts)\n"
    "  --lost-seconds S  under mpirun: a job unanswered after S seconds (or ten times the longest\n"
    "                  job) is lost with its worker (default 600; see 'sprouts solve --help')\n"
    "  --snapshot F    when a size stops unsolved (Ctrl-C, --time-limit), write its whole search\n"
    "                  to the file F (the transposition and game tables: gigabytes; never in DIR),\n"
    "                  and with --resume take the search up from F when F was written by the same\n"
    "                  program with the same budgets, beside this state or an older one (else it\n"
    "                  says why and stops: remove F, or give another, to start afresh)\n"
    "  --snapshot-every S  with --snapshot: also write F at the first checkpoint after each S\n"
    "                  seconds of a size's search (default 3600), so that a killed run loses no\n"
    "                  more of its search than that; the search pauses while F is written\n"
    "  --quiet         no progress lines on stderr\n"
    "  --rules R       a variant instead: bw, brussels, antwerp-cold, antwerp-hot (see 'sprouts\n"
    "                  table --rules bw --help')\n"
    "  -h, --help\n"
    "Exit status: 0 done, 1 stopped or failed, 2 bad usage.\n";

static int parse_play(const char *prog, const char *arg, sp_table_opts *o)
{
    o->normal = !strcmp(arg, "normal") || !strcmp(arg, "both");
    o->misere = !strcmp(arg, "misere") || !strcmp(arg, "both");
    return o->normal || o->misere ? 0 : sp_cli_usage(prog, "--play is normal, misere or both, not '%s'", arg);
}

static int parse_n(const char *prog, const char *opt, const char *arg, unsigned *out)
{
    uint64_t v;
    if (!sp_cli_parse_u64(arg, 1, 200, &v))
        return sp_cli_usage(prog, "%s needs a number of spots from 1 to 200, not '%s'", opt, arg);
    *out = (unsigned)v;
    return 0;
}

typedef struct farm_args {
    int farm, team;
    unsigned worker_threads;
    double lost_seconds;
} farm_args;

/* Whether path's directory is dir or lies under it (both as they resolve now; a directory not made
 * yet is taken as written). */
static bool inside(const char *dir, const char *path)
{
    char d[PATH_MAX], p[PATH_MAX], parent[PATH_MAX];
    const char *slash = strrchr(path, '/');
    int len = !slash ? 1 : slash == path ? 1 : (int)(slash - path); /* "f": ".", "/f": "/" */
    snprintf(parent, sizeof parent, "%.*s", len, slash ? path : ".");
    if (!realpath(dir, d))
        snprintf(d, sizeof d, "%s", dir);
    if (!realpath(parent, p))
        snprintf(p, sizeof p, "%s", parent);
    size_t n = strlen(d);
    return !strncmp(p, d, n) && (p[n] == 0 || p[n] == '/');
}

static int parse(int argc, char **argv, sp_table_opts *o, farm_args *fa)
{
    static const struct option opts[] = {
        {"play", required_argument, 0, 'p'},    {"from", required_argument, 0, 'f'},
        {"to", required_argument, 0, 't'},      {"threads", required_argument, 0, 'T'},
        {"tt-mb", required_argument, 0, 'm'},   {"out", required_argument, 0, 'o'},
        {"resume", no_argument, 0, 'r'},        {"time-limit", required_argument, 0, 'l'},
        {"quiet", no_argument, 0, 'q'},         {"help", no_argument, 0, 'h'},
        {"nim-mb", required_argument, 0, 'N'},  {"minimise", required_argument, 0, 'M'},
        {"state-lives", required_argument, 0, 'S'}, {"retry", no_argument, 0, 'R'},
        {"reminimise", no_argument, 0, 'E'},    {"minimise-db", required_argument, 0, 'D'},
        {"recertify", no_argument, 0, 'C'},
        {"base-only", no_argument, 0, 'B'},     {"game-mb", required_argument, 0, 'G'},
        {"farm", no_argument, 0, 'F'},          {"lost-seconds", required_argument, 0, 'L'},
        {"team", no_argument, 0, 'A'},          {"checkpoint", required_argument, 0, 'K'},
        {"worker-threads", required_argument, 0, 'W'}, {"snapshot", required_argument, 0, 'P'},
        {"snapshot-every", required_argument, 0, 'Y'}, {"no-certificates", no_argument, 0, 'O'},
        {0, 0, 0, 0}};
    const char *prog = "sprouts table", *wt = NULL;
    int c, rc = 0;
    uint64_t secs;
    while (rc == 0 && (c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'h': fputs(usage, stdout); return -1;
        case 'p': rc = parse_play(prog, optarg, o); break;
        case 'f': rc = parse_n(prog, "--from", optarg, &o->from); break;
        case 't': rc = parse_n(prog, "--to", optarg, &o->to); break;
        case 'T': rc = sp_opt_threads(prog, optarg, &o->solver); break;
        case 'm': rc = sp_opt_tt_mb(prog, optarg, &o->solver); break;
        case 'N': rc = sp_opt_nim_mb(prog, optarg, &o->solver); break;
        case 'G': rc = sp_opt_game_mb(prog, optarg, &o->solver); break;
        case 'o': rc = sp_cli_path(prog, "--out", optarg, &o->out); break;
        case 'r': o->resume = 1; break;
        case 'R': o->retry = 1; break;
        case 'q': o->quiet = 1; break;
        case 'E': o->reminimise = 1; break;
        case 'C': o->recertify = 1; break;
        case 'O': o->no_certificates = 1; break;
        case 'B': o->base_only = 1; break;
        case 'D': rc = sp_cli_path(prog, "--minimise-db", optarg, &o->minimise_db); break;
        case 'P': rc = sp_cli_path(prog, "--snapshot", optarg, &o->snapshot); break;
        case 'F': fa->farm = 1; break;
        case 'A': fa->team = 1; break;
        case 'W': wt = optarg; break;
        case 'L':
            rc = sp_cli_parse_u64(optarg, 1, 100000000, &secs)
                     ? (fa->lost_seconds = (double)secs, 0)
                     : sp_cli_usage(prog, "--lost-seconds needs a number of seconds, not '%s'", optarg);
            break;
        case 'M':
            rc = sp_cli_parse_u64(optarg, 1, 100000, &secs)
                     ? (o->minimise = (unsigned)secs, 0)
                     : sp_cli_usage(prog, "--minimise needs a number of rounds from 1 to 100000, not '%s'", optarg);
            break;
        case 'S':
            rc = sp_cli_parse_u64(optarg, 1, 100000, &secs)
                     ? (o->state_lives = (unsigned)secs, 0)
                     : sp_cli_usage(prog, "--state-lives needs a number of lives from 1 to 100000, not '%s'", optarg);
            break;
        case 'K':
            rc = sp_cli_parse_u64(optarg, 1, 100000000, &secs)
                     ? (o->checkpoint = (double)secs, 0)
                     : sp_cli_usage(prog, "--checkpoint needs a number of seconds, not '%s'", optarg);
            break;
        case 'Y':
            rc = sp_cli_parse_u64(optarg, 1, 100000000, &secs)
                     ? (o->snapshot_every = (double)secs, 0)
                     : sp_cli_usage(prog, "--snapshot-every needs a number of seconds, not '%s'", optarg);
            break;
        case 'l':
            rc = sp_cli_parse_u64(optarg, 1, 100000000, &secs)
                     ? (o->time_limit = (double)secs, 0)
                     : sp_cli_usage(prog, "--time-limit needs a number of seconds, not '%s'", optarg);
            break;
        default: return sp_cli_bad_option(prog, argv, "");
        }
    }
    if (rc == 0 && wt)
        rc = sp_opt_worker_threads(prog, wt, &o->solver, &fa->worker_threads);
    if (rc)
        return rc;
    if (optind != argc)
        return sp_cli_usage(prog, "unexpected argument '%s' (see --help)", argv[optind]);
    if (o->from > o->to)
        return sp_cli_usage(prog, "--from %u is after --to %u", o->from, o->to);
    if (o->retry && o->time_limit <= 0)
        return sp_cli_usage(prog, "--retry needs --time-limit (the first attempt's seconds)");
    if (o->no_certificates && (o->recertify || o->minimise))
        return sp_cli_usage(prog, "--no-certificates goes with neither --recertify nor --minimise");
    if (o->recertify && !o->resume)
        return sp_cli_usage(prog, "--recertify goes with --resume (it acts on the kept rows)");
    if (o->base_only && !o->normal)
        return sp_cli_usage(prog, "--base-only is for normal play (the fact base of land nimbers)");
    if (o->snapshot_every > 0 && !o->snapshot)
        return sp_cli_usage(prog, "--snapshot-every goes with --snapshot F");
    if (o->snapshot && inside(o->out, o->snapshot))
        return sp_cli_usage(prog, "--snapshot %s lies in --out %s, which is for what a clone carries: give a "
                            "path outside it", o->snapshot, o->out);
    if (o->reminimise && !o->minimise)
        return sp_cli_usage(prog, "--reminimise goes with --minimise R");
    if (o->minimise_db && !o->reminimise)
        return sp_cli_usage(prog, "--minimise-db goes with --reminimise");
    if ((fa->farm || fa->lost_seconds > 0) && !o->normal)
        return sp_cli_usage(prog, "--farm and --lost-seconds are for normal play, which the farm searches");
    if (fa->farm && fa->team)
        return sp_cli_usage(prog, "--farm and --team exclude each other");
    if (wt && (fa->team || !o->normal))
        return sp_cli_usage(prog, "--worker-threads is for the farm: normal play, not --team");
    fa->farm |= wt != NULL;
    return 0;
}

/* Appends arg as a shell word: quoted when it holds anything but plain characters. */
static void put_word(sp_text *t, const char *arg)
{
    static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+=.,/:@%";
    if (*arg && strspn(arg, plain) == strlen(arg)) {
        sp_text_add(t, " %s", arg);
        return;
    }
    sp_text_add(t, " '");
    for (const char *p = arg; *p; p++)
        if (*p == '\'')
            sp_text_add(t, "'\\''");
        else
            sp_text_add(t, "%c", *p);
    sp_text_add(t, "'");
}

/* The command line as typed ("sprouts table ..."), for the README. */
static void command_line(int argc, char **argv, sp_text *t)
{
    sp_text_add(t, "sprouts");
    for (int i = 0; i < argc; i++)
        put_word(t, argv[i]);
}

int sp_cmd_table(int argc, char **argv)
{
    if (sp_cmd_rules_arg(argc, argv))
        return sp_cmd_variant_table(argc, argv);
    sp_table_opts o;
    sp_text command = {0};
    memset(&o, 0, sizeof o);
    o.normal = o.misere = 1;
    o.from = 1;
    o.to = 12;
    o.out = "results";
    o.version = "sprouts " SP_VERSION " (git " SP_REVISION ")";
    o.rows = stdout;
    o.log = stderr;
    command_line(argc, argv, &command); /* before getopt reorders argv */
    o.command = command.s;
    farm_args fa = {0, 0, 0, 0};
    sp_farm_opts fo;
    int rc = parse(argc, argv, &o, &fa);
    /* under mpirun the ranks are the workers, whatever the play (misère runs on rank 0 alone) */
    if (rc == 0 && (sp_farm_mpi_ranks() > 1 || (o.normal && sp_opt_farm_chosen(&o.solver, fa.farm, fa.team)))) {
        sp_opt_farm(&o.solver, fa.lost_seconds, fa.worker_threads, &fo);
        o.farm = &fo;
    }
    if (rc == 0) {
        sp_signals_catch();
        o.stop = &sp_signals_stop;
        rc = sp_table_run(&o);
    }
    sp_text_free(&command);
    return rc < 0 ? SP_EXIT_OK : rc;
}
