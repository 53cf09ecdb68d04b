/* mem.c: resident and peak memory (mem.h), read from /proc/self/status, with getrusage for the peak
 * where that file is missing. */
#include "mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

void sp_mem_usage(size_t *resident, size_t *peak)
{
    char line[256];
    *resident = *peak = 0;
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f)) {
        unsigned long kb;
        if (sscanf(line, "VmRSS: %lu kB", &kb) == 1)
            *resident = (size_t)kb << 10;
        else if (sscanf(line, "VmHWM: %lu kB", &kb) == 1)
            *peak = (size_t)kb << 10;
    }
    if (f)
        fclose(f);
    struct rusage ru;
    if (!*peak && !getrusage(RUSAGE_SELF, &ru) && ru.ru_maxrss > 0)
        *peak = (size_t)ru.ru_maxrss << 10; /* kilobytes on Linux */
}

size_t sp_mem_peak(void)
{
    size_t resident, peak;
    sp_mem_usage(&resident, &peak);
    return peak;
}

void *sp_mem_table(size_t bytes)
{
    if (bytes < SP_MEM_TABLE_MAP) {
        size_t n = (bytes + 63) / 64 * 64;
        void *p = aligned_alloc(64, n ? n : 64);
        return p ? memset(p, 0, n) : NULL;
    }
    void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    /* A table read at random touches every page: with small ones each costs a TLB miss, and a page
     * first read and then written costs a second fault that stops every other thread of the process
     * to flush its TLB (copy on write of the zero page). Advisory. */
    madvise(m, bytes, MADV_HUGEPAGE);
    return m;
}

void sp_mem_table_free(void *p, size_t bytes)
{
    if (!p)
        return;
    if (bytes < SP_MEM_TABLE_MAP)
        free(p);
    else
        munmap(p, bytes);
}
