/* posarg.c: position arguments of the subcommands (parse with a one-line error, print keys). */
#include "posarg.h"

#include <stdlib.h>

#include "canonical.h"
#include "cli.h"
#include "quote.h"

int sp_tool_parse_pos(const char *prog, const char *text, sp_pos *out)
{
    return sp_tool_parse_pos_colours(prog, text, out, NULL);
}

int sp_tool_parse_pos_colours(const char *prog, const char *text, sp_pos *out, uint8_t *col)
{
    sp_parse_error err;
    if (sp_pos_parse_colours(text, out, col, &err) == 0)
        return 0;
    char q[4 * SP_QUOTE_MAX + 8];
    sp_quote(text, SP_QUOTE_MAX, q, sizeof q);
    return sp_cli_usage(prog, "bad position '%s': column %d: %s", q, err.column, err.message);
}

int sp_tool_pos_key(const char *prog, sp_canon_ctx *ctx, const char *text, sp_tok *key, size_t *len)
{
    sp_pos p;
    int rc = sp_tool_parse_pos(prog, text, &p);
    if (rc == 0)
        *len = sp_pos_key(ctx, &p, key);
    return rc;
}

size_t sp_tool_key_string(const sp_tok *key, size_t len, int v1, char *buf, size_t cap)
{
    sp_pos p;
    uint8_t col[SP_MAX_SYMS];
    if (sp_key_decode_colours(key, len, &p, col)) {
        if (cap)
            buf[0] = '\0';
        return 0;
    }
    return sp_pos_print_colours(&p, col, v1 ? SP_SYNTAX_V1 : SP_SYNTAX_V2, buf, cap);
}

void sp_tool_print_key(FILE *f, const sp_tok *key, size_t len, int v1)
{
    char small[512];
    size_t n = sp_tool_key_string(key, len, v1, small, sizeof small);
    if (n < sizeof small) {
        fprintf(f, "%s\n", small);
        return;
    }
    char *big = malloc(n + 1);
    if (!big)
        return;
    sp_tool_key_string(key, len, v1, big, n + 1);
    fprintf(f, "%s\n", big);
    free(big);
}
