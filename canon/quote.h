/* quote.h: input quoted in a one-line message: control characters and line breaks escaped, long
 * text cut, so that an error about any input stays one line.
 *
 * Contract: sp_quote writes at most `max` characters of text (bytes of a UTF-8 character are kept
 * together and count as one) with '\n', '\r', '\t' and other control bytes (and DEL) written as C
 * escapes ("\n", "\x01"), a backslash as "\\", and "..." after a cut; the result has no byte below
 * 0x20. It writes at most cap bytes (NUL included) and returns the length it needs, like snprintf. */
#ifndef SP_QUOTE_H
#define SP_QUOTE_H

#include <stddef.h>

#define SP_QUOTE_MAX 60 /* characters of an input a message quotes */

size_t sp_quote(const char *text, size_t max, char *buf, size_t cap);

/* sp_quote of the n bytes at text (which need not end in a NUL). */
size_t sp_quote_n(const char *text, size_t n, size_t max, char *buf, size_t cap);

#endif
