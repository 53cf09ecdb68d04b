/* deadline.h: deciding a position within a time budget: a watchdog thread sets the solver's stop flag
 * when the budget runs out, so the search ends with SP_UNKNOWN instead of running on. */
#ifndef SP_DEADLINE_H
#define SP_DEADLINE_H

#include <signal.h>

#include "solver.h"

/* sp_solver_outcome with a budget of ms milliseconds (wall time). `stop` must be the flag the solver
 * was made with (sp_solver_opts.stop); it is cleared first and set when time runs out. */
sp_outcome sp_deadline_outcome(sp_solver *s, volatile sig_atomic_t *stop, const sp_tok *key, size_t len,
                               sp_play play, unsigned ms);

#endif
