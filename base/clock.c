/* clock.c: the monotonic clock (clock.h), read through clock_gettime. */
#include "clock.h"

#include <time.h>

double sp_clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
