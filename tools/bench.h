/* bench.h: what the benchmarks of `sprouts-bench` share (bench_common.c): the usage text,
 * medians, and the benchmarks kept in files of their own. */
#ifndef SP_BENCH_H
#define SP_BENCH_H

#include <stdint.h>

extern const char sp_bench_usage[];

/* The median of v[0..n) (sorts v). */
double sp_bench_median(double *v, int n);

/* The options of a benchmark over a sample: --NAME N (its size, 1..max), --seed S, --runs R (1..99);
 * -1 when they are fine, else the exit status (after --help, or a usage error reported). */
int sp_bench_sample_options(int argc, char **argv, const char *prog, const char *name, uint64_t max, uint64_t *count,
                            uint64_t *seed, uint64_t *runs);

/* `sprouts-bench moves`: the cost of a move by how two threads split the moves of each land. */
int sp_bench_moves(int argc, char **argv);

/* `sprouts-bench simulate`: the farm's workers simulated in virtual time (bench_simulate.c). */
int sp_bench_simulate(int argc, char **argv);

#endif
