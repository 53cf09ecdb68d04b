/* testpos.c: position helpers of the solver and tables suites (testpos.h). */
#include "testpos.h"

#include <check.h>
#include <string.h>

#include "canonical.h"

size_t sp_test_key(sp_canon_ctx *ctx, const char *text, sp_tok *key)
{
    sp_pos p;
    sp_parse_error e;
    ck_assert_msg(sp_pos_parse(text, &p, &e) == 0, "%s: %s", text, e.message);
    return sp_pos_key(ctx, &p, key);
}

size_t sp_test_numbered_land(uint32_t i, sp_tok key[5])
{
    for (unsigned j = 0; j < 4; j++)
        key[j] = (sp_tok)(SP_TK_ONE + ((i >> (5 * j)) & 31));
    key[4] = SP_TK_END_L;
    return 5;
}

uint32_t sp_test_land_number(const sp_tok *key, size_t len)
{
    uint32_t i = 0;
    for (unsigned j = 0; j < 4 && len == 5; j++)
        i |= (uint32_t)(key[j] - SP_TK_ONE) << (5 * j);
    sp_tok again[5];
    return len == 5 && !memcmp(again, key, sp_test_numbered_land(i, again) * sizeof *key) ? i : UINT32_MAX;
}
