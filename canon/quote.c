/* quote.c: one-line quotes of input for messages (quote.h): C escapes for control bytes, a cut with
 * "..." after `max` characters. */
#include "quote.h"

#include <stdio.h>
#include <string.h>

typedef struct out {
    char *buf;
    size_t cap, len, kept; /* kept: bytes written, whole pieces only (no cut escape or character) */
} out;

static void add(out *o, const char *s, size_t len)
{
    if (o->kept == o->len && o->len + len < o->cap) {
        memcpy(o->buf + o->len, s, len);
        o->kept += len;
    }
    o->len += len;
}

size_t sp_quote_n(const char *text, size_t n, size_t max, char *buf, size_t cap)
{
    out o = {buf, cap, 0, 0};
    size_t chars = 0, i = 0;
    while (i < n) {
        if (chars == max) {
            add(&o, "...", 3);
            break;
        }
        unsigned char c = (unsigned char)text[i];
        char esc[8];
        if (c == '\n' || c == '\r' || c == '\t' || c == '\\') {
            esc[0] = '\\';
            esc[1] = c == '\n' ? 'n' : c == '\r' ? 'r' : c == '\t' ? 't' : '\\';
            add(&o, esc, 2);
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            snprintf(esc, sizeof esc, "\\x%02x", c);
            add(&o, esc, 4);
            i++;
        } else {
            size_t len = 1;
            while (c >= 0xc0 && i + len < n && len < 4 && ((unsigned char)text[i + len] & 0xc0) == 0x80)
                len++;
            add(&o, text + i, len);
            i += len;
        }
        chars++;
    }
    if (cap)
        buf[o.kept] = '\0';
    return o.len;
}

size_t sp_quote(const char *text, size_t max, char *buf, size_t cap)
{
    return sp_quote_n(text, strlen(text), max, buf, cap);
}
