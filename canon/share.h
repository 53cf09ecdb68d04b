/* share.h: the moves (or children) of one land shared out between threads as they go, each thread
 * taking the next one nobody has taken from its end of the list.
 *
 * Contract: each thread that takes part in the same share and round takes, whenever it is done with
 * its last item, the next one nobody has taken from its end of the list: the first (a part going up)
 * or the last (a part going down), so that a thread slowed by dearer items (or by another process)
 * simply takes fewer of them. Each item is taken by one thread, unless the round is stopped first;
 * where the two ends meet, an item may be taken by two (one per thread at most). A share is reused
 * round after round; a thread still on an old round takes nothing from a new one. The items are a
 * land's moves (movegen.h) or the children of a cached list (expand.h), numbered 0, 1, ...
 */
#ifndef SP_SHARE_H
#define SP_SHARE_H

#include <stdbool.h>
#include <stdint.h>

/* Items of one round are numbered below this (the share counts them in 31 bits). */
#define SP_SHARE_MAX 0x7fffffffu

typedef struct sp_move_share {
    _Atomic uint64_t state; /* round << 32 | stopped << 31 | the least item nobody has taken */
    _Atomic uint64_t back;  /* round << 32 | how many items were taken from the top */
} sp_move_share;

/* Starts a round (before any thread starts on it) whose items are taken from number `from` on: the
 * children of the moves before come from elsewhere (a land cache). */
void sp_move_share_start(sp_move_share *s, uint32_t round, uint32_t from);

/* The least item nobody has taken from the front in the round: once it is stopped and every part
 * has ended, each item numbered below it was taken. */
uint32_t sp_move_share_next(const sp_move_share *s);

/* Stops the round: every thread ends after the item it is on. No effect on a later round. */
void sp_move_share_stop(sp_move_share *s, uint32_t round);

/* How one thread takes part in a round. */
typedef struct sp_move_part {
    sp_move_share *share; /* NULL: every item is this thread's */
    uint32_t round;
    bool down;            /* takes the items from the last one down */
} sp_move_part;

/* What sp_move_part_take() found. */
typedef enum { SP_TAKEN, SP_EXHAUSTED, SP_ENDED } sp_take;

/* The next of n items for a part: SP_TAKEN (*item set), SP_EXHAUSTED (none left) or SP_ENDED (the
 * round was stopped, or has given way to the next, before they ran out). A part alone (part NULL or
 * without a share) takes *next and counts it on; a shared one ignores *next. */
sp_take sp_move_part_take(const sp_move_part *part, uint32_t n, uint32_t *next, uint32_t *item);

#endif
