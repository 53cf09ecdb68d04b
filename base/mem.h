/* mem.h: the memory this process holds, for progress lines, statistics and reports (resident now and
 * at its peak), and room for the large tables that hold most of it. */
#ifndef SP_MEM_H
#define SP_MEM_H

#include <stddef.h>

/* The resident memory now and its peak so far, in bytes (the kernel's VmRSS and VmHWM); each is 0 where
 * the system does not tell (the peak then comes from getrusage where it can). */
void sp_mem_usage(size_t *resident, size_t *peak);

/* The peak alone, as sp_mem_usage gives it. */
size_t sp_mem_peak(void);

/* Zeroed room of `bytes` for a large table read at random, aligned to a cache line (64 bytes): from
 * SP_MEM_TABLE_MAP bytes on, anonymous pages asked to be huge (the system may say no), touched only
 * when used; below it, from the heap. NULL when memory is short. Give it back with
 * sp_mem_table_free() and the same bytes. */
#define SP_MEM_TABLE_MAP ((size_t)2 << 20)
void *sp_mem_table(size_t bytes);
void sp_mem_table_free(void *p, size_t bytes);

#endif
