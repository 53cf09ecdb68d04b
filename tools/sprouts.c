/* sprouts.c: the `sprouts` program: subcommand dispatch, --help and --version.
 * Every subcommand lives in its own cmd_*.c; this file only routes argv to it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmds.h"
#include "farm.h"
#include "sp_config.h"
#include "sp_revision.h"

#ifdef _OPENMP
#define SP_OPENMP_STATE "on"
#else
#define SP_OPENMP_STATE "off"
#endif

const struct sp_subcommand sp_subcommands[] = {
    {"canon", "print the canonical form of a position", sp_cmd_canon},
    {"children", "list the distinct positions one move away", sp_cmd_children},
    {"minimise", "make a certificate smaller (checked before it is written)", sp_cmd_minimise},
    {"plot", "draw a results directory's plots again from its tables", sp_cmd_plot},
    {"random", "play random moves and print the positions reached", sp_cmd_random},
    {"replay", "replay (and analyse) a game record in the players' notation", sp_cmd_replay},
    {"solve", "decide who wins a position (and its nimber)", sp_cmd_solve},
    {"table", "solve 0*A..0*B into result tables with certificates (the main job)", sp_cmd_table},
    {"verify", "check a certificate without the solver", sp_cmd_verify},
    {"compact", "rewrite a chunk file of a table's state as one chunk", sp_cmd_compact},
    {"merge", "join certificates of one play into one fact base", sp_cmd_merge},
    {NULL, NULL, NULL},
};

void sp_print_version(void)
{
    printf("sprouts %s (git %s, %s build, OpenMP %s, MPI %s, sanitize %s)\n", SP_VERSION, SP_REVISION,
           SP_BUILDTYPE, SP_OPENMP_STATE, SP_HAVE_MPI ? "on" : "off", SP_SANITIZE);
}

static void print_help(void)
{
    printf("Usage: sprouts SUBCOMMAND [OPTIONS] [ARGS]\n"
           "       sprouts --help | --version\n\n"
           "An exhaustive solver and table generator for the game of Sprouts.\n\n"
           "Subcommands:\n");
    for (const struct sp_subcommand *c = sp_subcommands; c->name; c++)
        printf("  %-10s %s\n", c->name, c->summary);
    printf("\nRun 'sprouts SUBCOMMAND --help' for the options of one subcommand.\n"
           "Positions are written as strings (GLOP 2.x: '0*5', '0.1a1a.AB|AB') or 0*n.\n"
           "Exit status: 0 success, 1 failure, 2 bad usage or bad input.\n");
}

int main(int argc, char **argv)
{
    if (sp_farm_mpi_start(&argc, &argv))
        return SP_EXIT_OK; /* a worker rank of an MPI run: it served jobs until the leader ended */
    atexit(sp_farm_mpi_end);
    if (argc < 2)
        return sp_cli_usage("sprouts", "missing subcommand (see 'sprouts --help')");
    const char *name = argv[1];
    if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
        print_help();
        return SP_EXIT_OK;
    }
    if (!strcmp(name, "--version") || !strcmp(name, "-V")) {
        sp_print_version();
        return SP_EXIT_OK;
    }
    for (const struct sp_subcommand *c = sp_subcommands; c->name; c++) {
        if (!strcmp(name, c->name)) {
            sp_cli_getopt_reset();
            return c->run(argc - 1, argv + 1);
        }
    }
    if (name[0] == '-')
        return sp_cli_usage("sprouts", "unknown option '%s' (see 'sprouts --help')", name);
    return sp_cli_usage("sprouts", "unknown subcommand '%s' (see 'sprouts --help')", name);
}
