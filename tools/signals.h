/* signals.h: Ctrl-C for the long subcommands: SIGINT and SIGTERM set a flag that the searches, the
 * certificate builder and the checker watch, so that they end cleanly instead of dying. */
#ifndef SP_SIGNALS_H
#define SP_SIGNALS_H

#include <stdatomic.h>

/* Set by SIGINT / SIGTERM once sp_signals_catch() ran (lock-free, so a handler may set it). */
extern atomic_bool sp_signals_stop;
void sp_signals_catch(void);

#endif
