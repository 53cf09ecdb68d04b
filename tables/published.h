/* published.h: the outcomes of 0*n that others have published, to mark in the result tables which
 * of ours confirm them and which are new. Someone else's data, shown for comparison, never a result. */
#ifndef SP_PUBLISHED_H
#define SP_PUBLISHED_H

/* The published outcome of 0*n for the first player, 'W' or 'L'; 0 where nobody has published one. */
char sp_published_outcome(int misere, unsigned n);

/* Who published the outcomes of a play, for the README ("SPOTS (Cizek, Balko, Schmid 2025) ..."). */
const char *sp_published_source(int misere);

#endif
