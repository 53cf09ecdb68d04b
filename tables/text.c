/* text.c: in-memory text with printf-style appends (text.h); written through the store's atomic text
 * writer. */
#include "text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "grow.h"
#include "store.h"

void sp_text_add(sp_text *t, const char *fmt, ...)
{
    for (int pass = 0; pass < 2 && !t->failed; pass++) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->failed = 1;
            return;
        }
        if (t->s && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        if (sp_grow((void **)&t->s, &t->cap, t->len + (size_t)n + 1, 1)) {
            t->failed = 1;
            return;
        }
    }
}

int sp_text_save(sp_text *t, const char *path, char *err, size_t errcap)
{
    int rc = t->failed ? (snprintf(err, errcap, "%s: out of memory", path), -1)
                       : sp_store_write_text(path, t->s ? t->s : "", t->len, err, errcap);
    sp_text_free(t);
    return rc;
}

void sp_text_free(sp_text *t)
{
    free(t->s);
    t->s = NULL;
    t->len = t->cap = 0;
}
