/* play.h: the words the solver's public face (solver.h) and its internals (engine.h, team.h) share:
 * the rule set played and the outcome of a position. */
#ifndef SP_PLAY_H
#define SP_PLAY_H

typedef enum { SP_PLAY_NORMAL = 0, SP_PLAY_MISERE = 1 } sp_play;
typedef enum { SP_UNKNOWN = -1, SP_LOSS = 0, SP_WIN = 1 } sp_outcome;

#endif
