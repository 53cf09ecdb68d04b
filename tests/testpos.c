/* testpos.c: position helpers of the solver suites (testpos.h). */
#include "testpos.h"

#include <check.h>

#include "canonical.h"

size_t sp_test_key(sp_canon_ctx *ctx, const char *text, sp_tok *key)
{
    sp_pos p;
    sp_parse_error e;
    ck_assert_msg(sp_pos_parse(text, &p, &e) == 0, "%s: %s", text, e.message);
    return sp_pos_key(ctx, &p, key);
}
