/* cpu.c: the processor's model name (cpu.h), read from /proc/cpuinfo. */
#include "cpu.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

void sp_cpu_model(char *buf, size_t cap)
{
    assert(buf && cap > 0);
    snprintf(buf, cap, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) || !colon)
            continue;
        colon += 1 + (colon[1] == ' ');
        colon[strcspn(colon, "\n")] = '\0';
        snprintf(buf, cap, "%s", colon);
        break;
    }
    if (f)
        fclose(f);
}
