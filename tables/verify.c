/* verify.c: the certificate checker (verify.h). Each fact is checked alone, from its moves, so the
 * facts can be checked in parallel; the first failure is reported. */
#include "verify.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

/* Per-thread scratch: a canonicaliser and child lists, one per recursion level. */
typedef struct checker {
    const sp_cert *c;
    sp_canon_ctx *ctx;
    sp_children kids[3];
    uint64_t positions;
    int oom;
} checker;

/* Normal play: the XOR of the facts' nimbers over the lands of a position key, or -1 when a land has
 * no fact. */
static long xor_of_facts(const sp_cert *c, const sp_tok *key, size_t len)
{
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    unsigned n = sp_key_lands(key, len, off, lens, SP_MAX_LANDS);
    long x = 0;
    for (unsigned i = 0; i < n; i++) {
        long f = sp_cert_find(c, key + off[i], lens[i]);
        if (f < 0)
            return -1;
        x ^= c->nimber[f];
    }
    return x;
}

/* Is the position key (beside a heap of j, normal play) lost by the facts? */
static bool claimed_loss(const sp_cert *c, const sp_tok *key, size_t len, uint32_t j)
{
    if (c->play == SP_CERT_MISERE)
        return sp_cert_find(c, key, len) >= 0;
    return xor_of_facts(c, key, len) == (long)j;
}

/* Does the player to move in (key, j) have a move to a claimed loss? Level picks the scratch list. */
static bool answered(checker *k, const sp_tok *key, size_t len, uint32_t j, int level)
{
    const sp_cert *c = k->c;
    if (c->play == SP_CERT_NORMAL) {
        long x = xor_of_facts(c, key, len); /* the Nim move to (key, x) */
        if (x >= 0 && x < (long)j)
            return true;
    }
    sp_children *ch = &k->kids[level];
    if (sp_pos_children(k->ctx, key, len, ch)) {
        k->oom = 1;
        return false;
    }
    k->positions += ch->n;
    if (c->play == SP_CERT_MISERE && ch->n == 0)
        return true; /* no move: the player to move has won */
    for (size_t i = 0; i < ch->n; i++)
        if (claimed_loss(c, ch->tok + ch->off[i], ch->len[i], j))
            return true;
    return false;
}

/* Checks fact i: every move from it must be answered. Writes the first unanswered move into why. */
static bool check_fact(checker *k, size_t i, char *why, size_t cap)
{
    const sp_cert *c = k->c;
    const sp_tok *key = c->facts.tok + c->facts.off[i];
    size_t len = c->facts.len[i];
    uint32_t g = c->play == SP_CERT_NORMAL ? c->nimber[i] : 0;
    for (uint32_t j = 0; j < g; j++) { /* the Nim moves of (L, g) */
        if (!answered(k, key, len, j, 1)) {
            snprintf(why, cap, "fact %zu (nimber %u): the move to the heap %u has no answer", i, g, j);
            return false;
        }
    }
    sp_children *ch = &k->kids[0];
    if (sp_pos_children(k->ctx, key, len, ch)) {
        k->oom = 1;
        return false;
    }
    k->positions += ch->n;
    if (c->play == SP_CERT_MISERE && ch->n == 0) {
        snprintf(why, cap, "fact %zu: a position with no move is a misère win, not a loss", i);
        return false;
    }
    for (size_t m = 0; m < ch->n; m++) {
        if (!answered(k, ch->tok + ch->off[m], ch->len[m], g, 1)) {
            snprintf(why, cap, "fact %zu%s: its move number %zu has no answer in the certificate", i,
                     c->play == SP_CERT_NORMAL ? " (a claimed nimber)" : "", m + 1);
            return false;
        }
    }
    return true;
}

static bool check_root(checker *k, char *why, size_t cap)
{
    const sp_cert *c = k->c;
    bool ok = c->outcome == SP_CERT_LOSS ? claimed_loss(c, c->root, c->root_len, 0)
                                         : answered(k, c->root, c->root_len, 0, 0);
    if (!ok)
        snprintf(why, cap, "the root's claimed %s does not follow from the facts",
                 c->outcome == SP_CERT_LOSS ? "loss" : "win");
    return ok;
}

static unsigned thread_count(unsigned want)
{
#ifdef _OPENMP
    return want ? want : (unsigned)omp_get_max_threads();
#else
    (void)want;
    return 1;
#endif
}

static int checker_init(checker *k, const sp_cert *c)
{
    memset(k, 0, sizeof *k);
    k->c = c;
    k->ctx = sp_canon_ctx_new();
    for (int i = 0; i < 3; i++)
        sp_children_init(&k->kids[i]);
    return k->ctx ? 0 : -1;
}

static void checker_free(checker *k)
{
    for (int i = 0; i < 3; i++)
        sp_children_free(&k->kids[i]);
    sp_canon_ctx_free(k->ctx);
}

int sp_verify(const sp_cert *c, unsigned threads, sp_verify_result *res)
{
    memset(res, 0, sizeof *res);
    long first_bad = -1;
    int oom = 0;
    char why[512] = "";
    unsigned nt = thread_count(threads);
    (void)nt;
#pragma omp parallel num_threads(nt)
    {
        checker k;
        char mine[512];
        if (checker_init(&k, c))
            k.oom = 1;
#pragma omp for schedule(dynamic, 4)
        for (long i = 0; i < (long)c->facts.n; i++) {
            if (k.oom || check_fact(&k, (size_t)i, mine, sizeof mine))
                continue;
#pragma omp critical(sp_verify_first)
            if (!k.oom && (first_bad < 0 || i < first_bad)) {
                first_bad = i;
                memcpy(why, mine, sizeof why);
            }
        }
#pragma omp critical(sp_verify_sum)
        {
            res->positions += k.positions;
            oom |= k.oom;
        }
        checker_free(&k);
    }
    if (oom)
        return -1;
    res->facts = c->facts.n;
    if (first_bad >= 0) {
        snprintf(res->reason, sizeof res->reason, "%s", why);
        return 0;
    }
    checker k;
    if (checker_init(&k, c))
        return -1;
    res->ok = check_root(&k, res->reason, sizeof res->reason);
    res->positions += k.positions;
    oom = k.oom;
    checker_free(&k);
    return oom ? -1 : 0;
}
