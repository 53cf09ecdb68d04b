/* landgames.h: the misère land games a table run learns (land -> its game in simplest form), saved
 * to a chunk file (chunks.h, SP_CHUNKS_LAND_GAMES) and read back into another solver; and the lands
 * its searches proved lost beside a game, in a second chunk file (SP_CHUNKS_LOST) that names those
 * games by their numbers in the first.
 *
 * Payload of a chunk, little-endian: u32 first (how many games the chunks before it hold), u32 n,
 * then n games, each u32 k and k options (game numbers of the file, below its own: first + i); then
 * the lands new to the file as a sorted key list (keylist.h), each valued by a game number of the
 * file. The games of a file are numbered by their order in it; a solver's ids are its own and never
 * written.
 *
 * Contract:
 * - sp_landgames_save() appends the lands the solver stored since the last save (or read), with the
 *   games they need that the file has not; nothing new, nothing written. The mapping of the
 *   solver's ids to the file's numbers is kept in the sp_landgames between calls. Given a second
 *   path, it also appends there the lost lands stored since (SP_KEPT_LOST), their games
 *   numbered in the land-games file first: a lost land names only games of the file.
 * - sp_landgames_read() gives the solver the file's games (each made again from its options) and
 *   lands. A payload that is malformed (an option or a land's game not below, games that do not
 *   start where the chunks before end, lands out of order or more than the header says) refuses the
 *   file as corrupt; a torn last chunk is left out as chunks.h says. Lands the solver has no room
 *   for are not kept (the game table or the land store full), and the count read says how many were.
 * - sp_landgames_read_lost() records the lost lands of its file in the solver (trusted as proven: a
 *   file this program wrote), after sp_landgames_read() of the land-games file they were saved
 *   with; one that names a game the land-games file lacks, or is not a position of one land or
 *   more, refuses the file. Files written before positions of several lands were kept hold lands
 *   only, and read as before.
 * - Read before the first save, once: what is read counts as saved.
 */
#ifndef SP_LANDGAMES_H
#define SP_LANDGAMES_H

#include <stddef.h>
#include <stdint.h>

#include "chunks.h"
#include "solver.h"

typedef struct sp_landgames {
    uint32_t *file_of;   /* solver id -> game number of the file (UINT32_MAX: not in it) */
    size_t file_cap;
    uint32_t *solver_of; /* game number of the file -> solver id */
    size_t solver_cap;
    uint32_t games;      /* games the file holds */
    uint64_t saved;      /* the land store's mark up to which the file has the lands */
    uint64_t read;       /* lands read back and kept */
    uint64_t lost_saved; /* the lost store's mark up to which the second file has the lost lands */
    uint64_t lost_read;  /* lost lands read back and kept */
} sp_landgames;

void sp_landgames_init(sp_landgames *lg);
void sp_landgames_free(sp_landgames *lg);

/* Reads the file at path into s; 0 (info filled, a warning in it for a torn last chunk), or -1 with
 * a reason. */
int sp_landgames_read(sp_landgames *lg, sp_solver *s, const char *path, sp_chunks_info *info, char *err,
                      size_t errcap);

/* Reads the lost lands of the file at path into s (after sp_landgames_read); 0, or -1 with a reason. */
int sp_landgames_read_lost(sp_landgames *lg, sp_solver *s, const char *path, sp_chunks_info *info, char *err,
                           size_t errcap);

/* Appends what is new, the lost lands to lost_path unless it is NULL; 0, or -1 with a reason (the
 * files then end where their good chunks end, and the next save tries again). */
int sp_landgames_save(sp_landgames *lg, sp_solver *s, const char *path, const char *lost_path, char *err,
                      size_t errcap);

#endif
