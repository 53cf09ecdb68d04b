/* mem.h: the memory this process holds, for progress lines, statistics and reports: resident now and
 * at its peak. */
#ifndef SP_MEM_H
#define SP_MEM_H

#include <stddef.h>

/* The resident memory now and its peak so far, in bytes (the kernel's VmRSS and VmHWM); each is 0 where
 * the system does not tell (the peak then comes from getrusage where it can). */
void sp_mem_usage(size_t *resident, size_t *peak);

/* The peak alone, as sp_mem_usage gives it. */
size_t sp_mem_peak(void);

#endif
