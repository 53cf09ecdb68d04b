/* testpos.c: position helpers of the solver and tables suites (testpos.h). */
#include "testpos.h"

#include <check.h>
#include <stdio.h>
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

int sp_test_spots_nimbers(sp_canon_ctx *ctx, void (*fn)(void *arg, const char *pos, const sp_tok *key, size_t len,
                                                        int nimber),
                          void *arg)
{
    char path[512], line[512];
    snprintf(path, sizeof path, "%s/spots-nimbers.tsv", SP_TEST_DATA_DIR);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f)); /* the header */
    int count = 0;
    while (fgets(line, sizeof line, f)) {
        char pos[256];
        int nimber;
        if (sscanf(line, "%255s %d", pos, &nimber) != 2)
            continue;
        sp_tok key[SP_KEY_MAX];
        size_t len = sp_test_key(ctx, pos, key);
        fn(arg, pos, key, len, nimber);
        count++;
    }
    fclose(f);
    return count;
}
