/* fuzz_pos.c: libFuzzer target for the position parser (canon/pos.h): any bytes are parsed, plain and
 * with Antwerp colours; a position that parses is printed in both syntaxes, and each print must parse
 * back to the same canonical key, and simplify and split like the original. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "canonical.h"
#include "fuzz.h"
#include "pos.h"
#include "quote.h"

static sp_canon_ctx *ctx;

/* col: the colours (NULL: a plain position). */
static void reparse(const sp_pos *p, const uint8_t *col, sp_syntax syntax, const sp_tok *key, size_t len)
{
    static char text[1 << 16];
    size_t n = sp_pos_print_colours(p, col, syntax, text, sizeof text);
    if (n >= sizeof text)
        return;
    sp_pos back;
    uint8_t bcol[SP_MAX_SYMS];
    sp_parse_error err;
    int rc = col ? sp_pos_parse_colours(text, &back, bcol, &err) : sp_pos_parse(text, &back, &err);
    assert(rc == 0);
    sp_tok key2[SP_KEY_MAX];
    size_t len2 = col ? sp_pos_key_colours(ctx, &back, bcol, key2) : sp_pos_key(ctx, &back, key2);
    assert(sp_key_cmp(key, len, key2, len2) == 0);
}

static void check_error(const sp_parse_error *err, size_t size)
{
    assert(err->column >= 1 && (size_t)err->column <= size + 1);
    assert(!strchr(err->message, '\n'));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ctx)
        ctx = sp_canon_ctx_new();
    char *text = sp_fuzz_text(data, size, 2048);
    if (!text)
        return 0;
    sp_pos p;
    sp_parse_error err;
    char q[4 * SP_QUOTE_MAX + 8];
    sp_quote(text, SP_QUOTE_MAX, q, sizeof q);
    for (const char *c = q; *c; c++)
        assert((unsigned char)*c >= 0x20);
    sp_tok key[SP_KEY_MAX];
    if (sp_pos_parse(text, &p, &err) == 0) {
        size_t len = sp_pos_key(ctx, &p, key);
        reparse(&p, NULL, SP_SYNTAX_V2, key, len);
        reparse(&p, NULL, SP_SYNTAX_V1, key, len);
    } else {
        check_error(&err, size);
    }
    uint8_t col[SP_MAX_SYMS];
    if (sp_pos_parse_colours(text, &p, col, &err) == 0) {
        size_t len = sp_pos_key_colours(ctx, &p, col, key);
        reparse(&p, col, SP_SYNTAX_V2, key, len);
        reparse(&p, col, SP_SYNTAX_V1, key, len);
    } else {
        check_error(&err, size);
    }
    free(text);
    return 0;
}
