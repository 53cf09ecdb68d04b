/* variants.c: the memoised searches of variants.h: a Sprague-Grundy recursion over the lands of
 * black-and-white positions, a shortest/longest/nimber recursion over Brussels regions. */
#include "variants.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "canonical.h"
#include "children.h"
#include "movegen.h"
#include "nimstore.h"
#include "simplify.h"

struct sp_variants {
    sp_rules rules;
    sp_nimstore *memo; /* land (region) key -> its value under the rules */
    sp_canon_ctx *ctx;
    uint64_t nodes;
};

static const struct {
    sp_rules rules;
    const char *name;
} rule_names[] = {
    {SP_RULES_BW, "bw"},
    {SP_RULES_BRUSSELS, "brussels"},
    {SP_RULES_ANTWERP_COLD, "antwerp-cold"},
    {SP_RULES_ANTWERP_HOT, "antwerp-hot"},
};

sp_rules sp_rules_parse(const char *name)
{
    for (size_t i = 0; i < sizeof rule_names / sizeof rule_names[0]; i++)
        if (!strcmp(name, rule_names[i].name))
            return rule_names[i].rules;
    return 0;
}

const char *sp_rules_name(sp_rules r)
{
    for (size_t i = 0; i < sizeof rule_names / sizeof rule_names[0]; i++)
        if (rule_names[i].rules == r)
            return rule_names[i].name;
    return "?";
}

sp_variants *sp_variants_new(sp_rules rules, size_t bytes)
{
    sp_variants *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    v->rules = rules;
    v->memo = sp_nimstore_new(bytes < (16u << 20) ? 16u << 20 : bytes);
    v->ctx = sp_canon_ctx_new();
    if (!v->memo || !v->ctx) {
        sp_variants_free(v);
        return NULL;
    }
    return v;
}

void sp_variants_free(sp_variants *v)
{
    if (!v)
        return;
    sp_nimstore_free(v->memo);
    sp_canon_ctx_free(v->ctx);
    free(v);
}

uint64_t sp_variants_nodes(const sp_variants *v) { return v->nodes; }
uint64_t sp_variants_stored(const sp_variants *v) { return sp_nimstore_count(v->memo); }

/* The least value not in seen[0 .. n) (seen[i]: some option has value i). */
static unsigned mex(const bool *seen, size_t n)
{
    unsigned m = 0;
    while (m < n && seen[m])
        m++;
    return m;
}

/* ---------------------------------------------------------------- black-and-white */

typedef struct bw_collect {
    sp_canon_ctx *ctx;
    sp_children *kids;
    sp_tok key[SP_KEY_MAX];
} bw_collect;

static int bw_child(void *arg, sp_pos *child, uint32_t move)
{
    bw_collect *c = arg;
    (void)move;
    sp_pos_simplify(child);
    size_t len = sp_canon_pos(c->ctx, child, c->key);
    return sp_children_add(c->kids, c->key, len) < 0 ? -1 : 0;
}

static int bw_land(sp_variants *v, const sp_tok *land, size_t len);

int sp_variants_bw_nimber(sp_variants *v, const sp_tok *key, size_t len)
{
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    unsigned n = sp_key_lands(key, len, off, lens, SP_MAX_LANDS);
    int x = 0;
    for (unsigned i = 0; i < n && x >= 0; i++) {
        int g = bw_land(v, key + off[i], lens[i]);
        x = g < 0 ? -1 : x ^ g;
    }
    return x;
}

/* The nimber of one land: the mex of its children's, every child generated (no pruning: a nimber
 * needs them all). */
static int bw_land(sp_variants *v, const sp_tok *land, size_t len)
{
    uint64_t h = sp_key_hash64(land, len);
    int got = sp_nimstore_get(v->memo, land, len, h);
    if (got >= 0)
        return got;
    sp_pos *p = malloc(sizeof *p);
    bw_collect *c = malloc(sizeof *c);
    sp_children kids;
    sp_children_init(&kids);
    int rc = !p || !c || sp_key_decode(land, len, p) ? -1 : 0;
    if (rc == 0) {
        c->ctx = v->ctx;
        c->kids = &kids;
        rc = sp_pos_moves_rules(p, SP_MOVES_BW, bw_child, c);
    }
    free(c);
    free(p);
    bool *seen = rc ? NULL : calloc(kids.n + 1, sizeof *seen);
    for (size_t i = 0; seen && i < kids.n; i++) {
        int g = sp_variants_bw_nimber(v, kids.tok + kids.off[i], kids.len[i]);
        if (g < 0) {
            free(seen);
            seen = NULL;
            break;
        }
        if ((size_t)g <= kids.n)
            seen[g] = true;
    }
    int value = seen ? (int)mex(seen, kids.n + 1) : -1;
    free(seen);
    sp_children_free(&kids);
    v->nodes++;
    if (value >= 0 && !sp_nimstore_put(v->memo, land, len, h, (unsigned)value) && sp_nimstore_full(v->memo))
        return -1;
    return value;
}

/* ---------------------------------------------------------------- Brussels */

/* A region's value packed in one store entry: shortest and longest game (11 bits each), nimber. */
enum { BR_BITS = 11, BR_MASK = (1 << BR_BITS) - 1 };

static unsigned br_pack(unsigned lo, unsigned hi, unsigned nim)
{
    return lo | hi << BR_BITS | nim << (2 * BR_BITS);
}

typedef struct br_collect {
    sp_variants *v;
    unsigned lo, hi;
    bool *seen;
    size_t nseen;
    int err;
} br_collect;

static int br_region(sp_variants *v, const sp_br_pos *p, unsigned r, unsigned *value);

/* Adds the values of a canonical position's regions (a sum: lengths add, nimbers XOR). */
static int br_sum(sp_variants *v, const sp_br_pos *p, unsigned *lo, unsigned *hi, unsigned *nim)
{
    *lo = *hi = *nim = 0;
    for (unsigned r = 0; r < p->nreg; r++) {
        unsigned val;
        if (br_region(v, p, r, &val))
            return -1;
        *lo += val & BR_MASK;
        *hi += val >> BR_BITS & BR_MASK;
        *nim ^= val >> (2 * BR_BITS);
    }
    return 0;
}

static int br_child(void *arg, const sp_br_pos *child)
{
    br_collect *c = arg;
    unsigned lo, hi, nim;
    if (br_sum(c->v, child, &lo, &hi, &nim))
        return -1;
    c->lo = lo < c->lo ? lo : c->lo;
    c->hi = hi > c->hi ? hi : c->hi;
    if (nim >= c->nseen) {
        bool *s = realloc(c->seen, (nim + 1) * sizeof *s);
        if (!s)
            return -1;
        memset(s + c->nseen, 0, (nim + 1 - c->nseen) * sizeof *s);
        c->seen = s, c->nseen = nim + 1;
    }
    c->seen[nim] = true;
    return 0;
}

static int br_region(sp_variants *v, const sp_br_pos *p, unsigned r, unsigned *value)
{
    sp_tok key[SP_BR_MAX_BNDS + 1];
    size_t len = sp_br_region_key(p, r, key);
    uint64_t h = sp_key_hash64(key, len);
    int got = sp_nimstore_get(v->memo, key, len, h);
    if (got >= 0) {
        *value = (unsigned)got;
        return 0;
    }
    br_collect c = {v, UINT32_MAX, 0, NULL, 0, 0};
    int rc = sp_br_region_moves(p, r, br_child, &c);
    unsigned nim = rc ? 0 : mex(c.seen, c.nseen);
    free(c.seen);
    v->nodes++;
    /* a canonical region has 2 arms or more, so a move; lengths must fit their bits */
    if (rc || c.hi + 1 > BR_MASK || nim > 255)
        return -1;
    *value = br_pack(c.lo + 1, c.hi + 1, nim);
    if (!sp_nimstore_put(v->memo, key, len, h, *value) && sp_nimstore_full(v->memo))
        return -1;
    return 0;
}

int sp_variants_brussels(sp_variants *v, const sp_br_pos *p, sp_br_lengths *out)
{
    if (br_sum(v, p, &out->shortest, &out->longest, &out->nimber))
        return -1;
    out->regions = sp_nimstore_count(v->memo);
    return 0;
}

/* ---------------------------------------------------------------- Antwerp */

/* Memo keys: the whole position key with its land ends turned into AW_LAND (the store keeps one
 * land's worth of tokens, ended by SP_TK_END_L), then the player to move, then SP_TK_END_L. No
 * token of a key reaches these values (keys.h). */
enum { AW_LAND = 0xfffe, AW_PLAYER = 0xfff0, AW_MEMO_MAX = SP_KEY_MAX + 2 };

static size_t aw_memo_key(const sp_tok *key, size_t len, sp_player who, sp_tok *out)
{
    for (size_t i = 0; i < len; i++)
        out[i] = key[i] == SP_TK_END_L ? (sp_tok)AW_LAND : key[i];
    out[len] = (sp_tok)(AW_PLAYER + who);
    out[len + 1] = SP_TK_END_L;
    return len + 2;
}

/* The memo's answer for `who` to move in a position key: 1 win, 0 loss, -1 unknown. */
static int aw_memo_get(const sp_variants *v, const sp_tok *key, size_t len, sp_player who)
{
    sp_tok mk[AW_MEMO_MAX];
    size_t n = aw_memo_key(key, len, who, mk);
    return sp_nimstore_get(v->memo, mk, n, sp_key_hash64(mk, n));
}

/* Records an answer; false when the store is full (nothing more can be kept). */
static bool aw_memo_put(sp_variants *v, const sp_tok *key, size_t len, sp_player who, unsigned wins)
{
    sp_tok mk[AW_MEMO_MAX];
    size_t n = aw_memo_key(key, len, who, mk);
    return sp_nimstore_put(v->memo, mk, n, sp_key_hash64(mk, n), wins) || !sp_nimstore_full(v->memo);
}

typedef struct aw_collect {
    sp_canon_ctx *ctx;
    sp_children *kids;
    sp_tok key[SP_KEY_MAX];
} aw_collect;

static int aw_child(void *arg, sp_pos *child, uint8_t *col)
{
    aw_collect *c = arg;
    sp_pos_simplify_colours(child, col);
    size_t len = sp_canon_pos_colours(c->ctx, child, col, c->key);
    return sp_children_add(c->kids, c->key, len) < 0 ? -1 : 0;
}

/* The children of `who`'s moves in a position key, canonical and without repeats; -1 on an error. */
static int aw_children(sp_variants *v, const sp_tok *key, size_t len, sp_player who, sp_children *kids)
{
    sp_pos *p = malloc(sizeof *p);
    uint8_t *col = malloc(SP_MAX_SYMS);
    aw_collect *c = malloc(sizeof *c);
    int rc = !p || !col || !c || sp_key_decode_colours(key, len, p, col) ? -1 : 0;
    if (rc == 0) {
        c->ctx = v->ctx;
        c->kids = kids;
        rc = sp_aw_moves(p, col, v->rules == SP_RULES_ANTWERP_HOT, who, aw_child, c);
    }
    free(c);
    free(col);
    free(p);
    return rc;
}

int sp_variants_antwerp_wins(sp_variants *v, const sp_tok *key, size_t len, sp_player who)
{
    if (len == 0)
        return 0; /* no move left: normal play, the player to move loses */
    int got = aw_memo_get(v, key, len, who);
    if (got >= 0)
        return got;
    sp_children kids;
    sp_children_init(&kids);
    int value = aw_children(v, key, len, who, &kids) ? -1 : 0;
    sp_player other = who == SP_LEFT ? SP_RIGHT : SP_LEFT;
    /* a child the memo already knows lost for the opponent decides at once; then search the others */
    for (size_t i = 0; value == 0 && i < kids.n; i++)
        value = aw_memo_get(v, kids.tok + kids.off[i], kids.len[i], other) == 0;
    for (size_t i = 0; value == 0 && i < kids.n; i++) {
        int g = sp_variants_antwerp_wins(v, kids.tok + kids.off[i], kids.len[i], other);
        value = g < 0 ? -1 : g == 0;
    }
    sp_children_free(&kids);
    v->nodes++;
    if (value >= 0 && !aw_memo_put(v, key, len, who, (unsigned)value))
        return -1;
    return value;
}

int sp_variants_antwerp_class(sp_variants *v, const sp_tok *key, size_t len)
{
    int l = sp_variants_antwerp_wins(v, key, len, SP_LEFT);
    int r = l < 0 ? -1 : sp_variants_antwerp_wins(v, key, len, SP_RIGHT);
    return r < 0 ? -1 : l | r << 1;
}

const char *sp_aw_class_name(sp_aw_class c)
{
    static const char *const names[] = {"second player wins", "Left wins", "Right wins", "first player wins"};
    return (unsigned)c < 4 ? names[c] : "?";
}
