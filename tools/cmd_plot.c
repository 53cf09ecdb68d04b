/* cmd_plot.c: `sprouts plot DIR`: draws a results directory's plots again from its two tables
 * (tables/plot.h), as `sprouts table` does after every size. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cmds.h"
#include "plot.h"
#include "report.h"

static const char usage[] =
    "Usage: sprouts plot DIR\n"
    "Rewrites DIR/seconds.svg, DIR/nodes.svg and DIR/certificates.svg (the plots that 'sprouts table'\n"
    "writes after every size, embedded in DIR/README.md) from DIR/normal.csv and DIR/misere.csv.\n"
    "Nothing else in DIR is touched.\n"
    "  -h, --help\n"
    "Exit status: 0 written, 1 a plot could not be written, 2 bad usage or bad input (a missing or\n"
    "malformed table).\n";

/* Reads one of DIR's tables; a missing one is bad input here (sp_table_load takes it for an empty one). */
static int load(const char *prog, const char *dir, int misere, sp_table *t)
{
    char path[4096], err[1024];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, misere ? "misere.csv" : "normal.csv");
    if (stat(path, &st))
        return sp_cli_usage(prog, "%s: %s", path, strerror(errno));
    t->misere = misere;
    if (sp_table_load(t, dir, err, sizeof err))
        return sp_cli_usage(prog, "%s", err);
    return SP_EXIT_OK;
}

int sp_cmd_plot(int argc, char **argv)
{
    static const struct option opts[] = {{"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *prog = "sprouts plot";
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c != 'h')
            return sp_cli_bad_option(prog, argv, "");
        return fputs(usage, stdout), SP_EXIT_OK;
    }
    if (optind != argc - 1)
        return sp_cli_usage(prog, "expects exactly one directory (see --help)");
    const char *dir = argv[optind];
    sp_table *tables = calloc(2, sizeof *tables);
    if (!tables)
        return sp_cli_fail(prog, "out of memory");
    int rc = load(prog, dir, 0, &tables[0]);
    if (rc == SP_EXIT_OK)
        rc = load(prog, dir, 1, &tables[1]);
    char err[8192];
    if (rc == SP_EXIT_OK && sp_plot_write(&tables[0], &tables[1], dir, err, sizeof err))
        rc = sp_cli_fail(prog, "%s", err);
    free(tables);
    return rc;
}
