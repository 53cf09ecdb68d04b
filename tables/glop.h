/* glop.h: published figures to draw beside ours: the sizes of GLOP's minimal databases of losing
 * couples for 0*n in normal play. They are someone else's data, shown for comparison, never a result. */
#ifndef SP_GLOP_H
#define SP_GLOP_H

#include <stdint.h>

/* The number of losing couples (P, k) in GLOP's minimal database for 0*n, normal play; -1 where GLOP
 * publishes none. */
int64_t sp_glop_min_database(unsigned n);

#endif
