/* nim_parallel.h: OpenMP for the Nim-family loops, or nothing when the build has it off: the pragmas
 * vanish instead of warning, and every thread counts as the main one. */
#ifndef SP_NIM_PARALLEL_H
#define SP_NIM_PARALLEL_H

#include <stdbool.h>

#ifdef _OPENMP
#include <omp.h>
#define SP_NIM_PRAGMA(x) _Pragma(#x)
#define SP_NIM_PARALLEL_FOR(clauses) SP_NIM_PRAGMA(omp parallel for clauses)
static inline bool sp_nim_main_thread(void)
{
    return omp_get_thread_num() == 0;
}
#else
#define SP_NIM_PARALLEL_FOR(clauses)
static inline bool sp_nim_main_thread(void)
{
    return true;
}
#endif

#endif
