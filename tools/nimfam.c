/* nimfam.c: the `nimfam` program: routes `nimfam GAME verify|play` to the game files and answers
 * --help and --version. The games live in nimfam_marienbad.c, nimfam_fibonacci.c, nimfam_northcott.c. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "nimfam.h"
#include "sp_config.h"
#include "sp_revision.h"

static const nf_game *const games[] = {&nf_marienbad, &nf_fibonacci, &nf_northcott, NULL};

static bool is_help(const char *s)
{
    return !strcmp(s, "--help") || !strcmp(s, "-h") || !strcmp(s, "help");
}

static void print_help(void)
{
    printf("Usage: nimfam GAME verify [OPTIONS]\n"
           "       nimfam GAME play [OPTIONS]\n"
           "       nimfam --help | --version\n\n"
           "Exhaustive checks of the Nim-family results of the seed documents, and play against the\n"
           "machine. 'verify' compares each theorem with an independent brute-force game search and\n"
           "exits 0 only when it held everywhere; 'play' lets you play, the machine playing perfectly.\n\n"
           "Games:\n");
    for (const nf_game *const *g = games; *g; g++)
        printf("  %-10s %s\n", (*g)->name, (*g)->summary);
    printf("\nRun 'nimfam GAME --help' or 'nimfam GAME verify --help' for the options.\n"
           "Exit status: 0 success (verify: the theorem held), 1 failure, 2 bad usage.\n");
}

static void print_game_help(const nf_game *g)
{
    printf("Usage: nimfam %s verify [OPTIONS]\n"
           "       nimfam %s play [OPTIONS]\n\n"
           "%s.\n\n"
           "Subcommands:\n"
           "  verify     check the seed's claims exhaustively and print what was checked\n"
           "  play       play against the machine in the terminal\n\n"
           "Run 'nimfam %s verify --help' or 'nimfam %s play --help' for their options.\n",
           g->name, g->name, g->summary, g->name, g->name);
}

static int run_game(const nf_game *g, int argc, char **argv, const nf_cmdline *cl)
{
    char prog[64];
    snprintf(prog, sizeof prog, "nimfam %s", g->name);
    if (argc < 2)
        return sp_cli_usage(prog, "missing subcommand: verify or play (see 'nimfam %s --help')", g->name);
    if (is_help(argv[1])) {
        print_game_help(g);
        return SP_EXIT_OK;
    }
    nf_cmd_fn fn = !strcmp(argv[1], "verify") ? g->verify : !strcmp(argv[1], "play") ? g->play : NULL;
    if (!fn)
        return sp_cli_usage(prog, "unknown subcommand '%s' (see 'nimfam %s --help')", argv[1], g->name);
    sp_cli_getopt_reset();
    return fn(argc - 1, argv + 1, cl);
}

int main(int argc, char **argv)
{
    nf_cmdline cl = {argc, argv};
    if (argc < 2)
        return sp_cli_usage("nimfam", "missing game (see 'nimfam --help')");
    if (is_help(argv[1])) {
        print_help();
        return SP_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("nimfam %s (git %s, %s build, sanitize %s)\n", SP_VERSION, SP_REVISION, SP_BUILDTYPE,
               SP_SANITIZE);
        return SP_EXIT_OK;
    }
    for (const nf_game *const *g = games; *g; g++)
        if (!strcmp(argv[1], (*g)->name))
            return run_game(*g, argc - 1, argv + 1, &cl);
    if (argv[1][0] == '-')
        return sp_cli_usage("nimfam", "unknown option '%s' (see 'nimfam --help')", argv[1]);
    return sp_cli_usage("nimfam", "unknown game '%s' (see 'nimfam --help')", argv[1]);
}
