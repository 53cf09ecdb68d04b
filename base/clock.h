/* clock.h: the one clock of the project for durations and deadlines: monotonic seconds, unaffected
 * by changes to the wall-clock time. */
#ifndef SP_CLOCK_H
#define SP_CLOCK_H

/* Seconds on the monotonic clock since an unspecified start: only differences mean anything. Never
 * decreases within a process; safe from any thread. */
double sp_clock_now(void);

/* Seconds of processor time the calling thread has used: the cost of a piece of work on a machine
 * whose other cores are busy with something else. */
double sp_clock_thread(void);

#endif
