/* drawing.h: the whole drawing of a replayed game as a plane graph (every spot, every curve, dead
 * parts included), and the replay of a record on it, steered by the labelled replay (labelled.h).
 *
 * Contract:
 * - sp_draw is a flat value. Spots are 1..nspot. Move i (0-based) of the record adds curve i, two
 *   edges through its new spot g: darts 4i (f->g), 4i+1 (g->f), 4i+2 (h->g), 4i+3 (g->h); the twin of
 *   dart d is d ^ 1, so the two curves of a loop stay apart.
 * - The embedding is a rotation system: ccw[d] is the next dart counter-clockwise around from[d]
 *   (y pointing up). Walking along dart d with the face on the right, the next dart is ccw[d ^ 1]:
 *   a walk is a boundary of labelled.h, in its left-hand order. face[d] is the face on d's right;
 *   a spot without curves lies in lone_face[s]. A face may hold several walks.
 * - outer is the face drawn outside: the start's one region, and after a move that splits it the
 *   side away from the spots [L] names (without such a list, the side with more corners).
 * - A move is played on a drawing the way labelled.c plays it on the labelled position: the same
 *   corners, and the other walks of the split face go where build_split puts their boundaries; a
 *   walk of dead spots only (which the labelled position has dropped) goes to the side of [L] when
 *   it holds a spot of L, else to the other. The projection (sp_draw_to_lab without dead parts) of
 *   every drawing the replay keeps is a reading of replay.h.
 */
#ifndef SP_DRAWING_H
#define SP_DRAWING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "labelled.h"
#include "record.h"

#define SP_DRAW_MAX_DARTS (4 * SP_LAB_MAX_SPOTS)
#define SP_DRAW_NONE UINT16_MAX

typedef struct sp_draw {
    uint16_t nspot, ndart, nface, outer;
    uint8_t degree[SP_LAB_MAX_SPOTS + 1];
    uint16_t lone_face[SP_LAB_MAX_SPOTS + 1];
    uint16_t from[SP_DRAW_MAX_DARTS], ccw[SP_DRAW_MAX_DARTS], face[SP_DRAW_MAX_DARTS];
} sp_draw;

static inline unsigned sp_draw_to(const sp_draw *d, unsigned dart) { return d->from[dart ^ 1u]; }

/* The labelled position of the drawing: faces as regions, walks as boundaries; with keep_dead false
 * the walks of dead spots only and the faces left empty are dropped, as labelled.h does. */
void sp_draw_to_lab(const sp_draw *d, bool keep_dead, sp_lab *out);

typedef struct sp_draw_replay sp_draw_replay;

/* Replays rec on drawings; NULL when memory runs out. The replay stops at the first move for which
 * no drawing fits (the record is illegal there: replay.h says why). */
sp_draw_replay *sp_draw_replay_new(const sp_record *rec);
void sp_draw_replay_free(sp_draw_replay *r);

/* Steps replayed: the start and one after each move that fits. */
size_t sp_draw_replay_steps(const sp_draw_replay *r);

/* The drawing after move k (0: the start) of one game that fits the whole replayed record, and into
 * *classes how many different labelled positions (up to the sphere's symmetries, mirror images
 * included: replay.h's classes) such games have at that step. k < sp_draw_replay_steps(r). */
void sp_draw_replay_at(const sp_draw_replay *r, size_t k, sp_draw *out, size_t *classes);

#endif
