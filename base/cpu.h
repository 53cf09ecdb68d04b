/* cpu.h: the name of the machine's processor, for the provenance that reports and tables record of
 * where a result was computed. */
#ifndef SP_CPU_H
#define SP_CPU_H

#include <stddef.h>

/* Writes the processor's model name (the first "model name" of /proc/cpuinfo, without the newline)
 * into buf, truncated to cap - 1 characters; "unknown CPU" where the system does not tell. cap > 0. */
void sp_cpu_model(char *buf, size_t cap);

#endif
