/* text.h: the text files the tables write (CSV, Markdown, SVG), built in memory: a string that grows
 * with printf-style appends, then is written whole and atomically. */
#ifndef SP_TEXT_H
#define SP_TEXT_H

#include <stddef.h>

typedef struct sp_text {
    char *s;    /* NUL-terminated once anything was added; NULL before */
    size_t len, cap;
    int failed; /* out of memory at some point: later appends do nothing, and saving fails */
} sp_text;

/* Appends like printf. */
void sp_text_add(sp_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Writes the text to path atomically (store.h), then frees it; 0, or -1 with a reason in err (out of
 * memory while building it included). */
int sp_text_save(sp_text *t, const char *path, char *err, size_t errcap);

void sp_text_free(sp_text *t);

#endif
