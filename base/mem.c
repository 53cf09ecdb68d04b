/* mem.c: resident and peak memory (mem.h), read from /proc/self/status, with getrusage for the peak
 * where that file is missing. */
#include "mem.h"

#include <stdio.h>
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
