/* fuzz_pos.c: libFuzzer target for the position parser (canon/pos.h): any bytes are parsed; a
 * position that parses is printed in both syntaxes, and each print must parse back to the same
 * canonical key, and simplify and split like the original. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "canonical.h"
#include "fuzz.h"
#include "pos.h"
#include "quote.h"

static sp_canon_ctx *ctx;

static void reparse(const sp_pos *p, sp_syntax syntax, const sp_tok *key, size_t len)
{
    static char text[1 << 16];
    size_t n = sp_pos_print(p, syntax, text, sizeof text);
    if (n >= sizeof text)
        return;
    sp_pos back;
    sp_parse_error err;
    int rc = sp_pos_parse(text, &back, &err);
    assert(rc == 0);
    sp_tok key2[SP_KEY_MAX];
    size_t len2 = sp_pos_key(ctx, &back, key2);
    assert(sp_key_cmp(key, len, key2, len2) == 0);
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
    if (sp_pos_parse(text, &p, &err) == 0) {
        sp_tok key[SP_KEY_MAX];
        size_t len = sp_pos_key(ctx, &p, key);
        reparse(&p, SP_SYNTAX_V2, key, len);
        reparse(&p, SP_SYNTAX_V1, key, len);
    } else {
        assert(err.column >= 1 && (size_t)err.column <= size + 1);
        assert(!strchr(err.message, '\n'));
    }
    free(text);
    return 0;
}
