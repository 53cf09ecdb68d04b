/* bench.h: what the benchmarks of `sprouts-bench` (bench.c, bench_moves.c) share: the usage text,
 * medians, and the benchmarks kept in files of their own. */
#ifndef SP_BENCH_H
#define SP_BENCH_H

extern const char sp_bench_usage[];

/* The median of v[0..n) (sorts v). */
double sp_bench_median(double *v, int n);

/* `sprouts-bench moves`: the cost of a move by how two threads split the moves of each land. */
int sp_bench_moves(int argc, char **argv);

#endif
