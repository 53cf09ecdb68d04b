/* posarg.h: reading a position from the command line and printing keys, shared by the subcommands. */
#ifndef SP_POSARG_H
#define SP_POSARG_H

#include <stdio.h>

#include "canonical.h"
#include "pos.h"

/* Parses text into *out; on error prints "PROG: bad position: column C: MESSAGE" and returns 2. */
int sp_tool_parse_pos(const char *prog, const char *text, sp_pos *out);

/* The same for a position with Antwerp colours (pos.h), written into col beside out->sym. */
int sp_tool_parse_pos_colours(const char *prog, const char *text, sp_pos *out, uint8_t *col);

/* Parses text and writes its canonical key; returns 0 or 2 (after printing the error). */
int sp_tool_pos_key(const char *prog, sp_canon_ctx *ctx, const char *text, sp_tok *key, size_t *len);

/* Prints a key as a position string (2.x, or 1.x when v1) followed by a newline. */
void sp_tool_print_key(FILE *f, const sp_tok *key, size_t len, int v1);

/* Writes a key (with its colours, if it has any) as a position string into buf (as sp_pos_print does). */
size_t sp_tool_key_string(const sp_tok *key, size_t len, int v1, char *buf, size_t cap);

#endif
