/* replay.h: replaying a parsed record (record.h) on labelled positions (labelled.h): every reading
 * of the drawing that agrees with the record so far, the solver's position after each move, and the
 * first move that no reading allows.
 *
 * Contract:
 * - A reading is a labelled position. Readings are kept up to the homeomorphisms of the sphere that
 *   keep its orientation (sp_lab_same without mirror): Hoey's '!' speaks of left and right, so a
 *   drawing and its mirror image read later moves differently and both are kept while the record
 *   allows both.
 * - After each move, the readings are every drawing of the move (sp_lab_play) from every reading
 *   before it, without repeats. A move that no reading allows ends the replay: the record is
 *   illegal, and the error names the move (1-based) and why. Moves before it stay replayed.
 * - Readings that a later move rules out are forgotten retroactively: the positions of a step are
 *   those of the readings that lead to one that survives the last replayed move.
 * - The record is ambiguous when the surviving readings fall into more than one class up to the
 *   sphere's symmetries, mirror images included (sp_replay_classes > 1): the record then describes
 *   more than one drawing. Such readings may still be one game position (same canonical key).
 * - At most SP_REPLAY_MAX_READINGS readings at a time; more is an error at that move.
 */
#ifndef SP_REPLAY_H
#define SP_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "canonical.h"
#include "labelled.h"
#include "record.h"

#define SP_REPLAY_MAX_READINGS 64

typedef struct sp_replay sp_replay;

sp_replay *sp_replay_new(void);
void sp_replay_free(sp_replay *r);

/* Replays rec from its start position (what was replayed before is forgotten). Returns 0 when the
 * replay ran (the record may still be illegal: sp_replay_legal), -1 when memory ran out. */
int sp_replay_run(sp_replay *r, const sp_record *rec, sp_canon_ctx *ctx);

bool sp_replay_legal(const sp_replay *r);
/* The move the replay stopped at (1-based; 0: the header) and why; 0 and "" for a legal record. */
size_t sp_replay_error_move(const sp_replay *r);
const char *sp_replay_error(const sp_replay *r);

/* Positions replayed: the start (step 0) and one after each legal move. */
size_t sp_replay_steps(const sp_replay *r);
/* Lives left in the drawing at a step: 3 per starting spot, less one per move. */
unsigned sp_replay_lives(const sp_replay *r, size_t step);
/* The distinct canonical keys of the surviving readings at a step (usually one), and key i of them. */
size_t sp_replay_npos(const sp_replay *r, size_t step);
const sp_tok *sp_replay_pos(const sp_replay *r, size_t step, size_t i, size_t *len);

/* The readings after the last replayed step, and how many classes they form up to mirror images. */
size_t sp_replay_nreadings(const sp_replay *r);
const sp_lab *sp_replay_reading(const sp_replay *r, size_t i);
size_t sp_replay_classes(const sp_replay *r);

#endif
