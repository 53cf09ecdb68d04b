/* cmds.h: the subcommands of the `sprouts` program, one cmd_*.c file each.
 * Each takes its own argv (argv[0] is the subcommand's name) and returns the exit status. */
#ifndef SP_CMDS_H
#define SP_CMDS_H

typedef int (*sp_cmd_fn)(int argc, char **argv);

struct sp_subcommand {
    const char *name;
    const char *summary;
    sp_cmd_fn run;
};

int sp_cmd_canon(int argc, char **argv);
int sp_cmd_compact(int argc, char **argv);
int sp_cmd_children(int argc, char **argv);
int sp_cmd_plot(int argc, char **argv);
int sp_cmd_merge(int argc, char **argv);
int sp_cmd_minimise(int argc, char **argv);
int sp_cmd_random(int argc, char **argv);
int sp_cmd_replay(int argc, char **argv);
int sp_cmd_solve(int argc, char **argv);
int sp_cmd_table(int argc, char **argv);
int sp_cmd_verify(int argc, char **argv);

/* The variants (cmd_variants.c): which rule set --rules names in argv (0: no --rules, -1: an unknown
 * name), and `solve` and `table` under one. */
int sp_cmd_rules_arg(int argc, char **argv);
int sp_cmd_variant_solve(int argc, char **argv);
int sp_cmd_variant_table(int argc, char **argv);

/* The table sprouts.c dispatches on; ends with a NULL name. */
extern const struct sp_subcommand sp_subcommands[];

/* "sprouts 0.1.0 (git REV, release build, OpenMP on, sanitize none)" */
void sp_print_version(void);

#endif
