/* symmetry.c: random images of positions under the game's symmetries, and the GLOP-style heuristic
 * form that the exact canonical form is measured against (symmetry.h). */
#include "symmetry.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

static void shuffle(uint16_t *a, unsigned n, uint64_t *rng)
{
    for (unsigned i = n; i > 1; i--) {
        unsigned j = (unsigned)(sp_rng_next(rng) % i);
        uint16_t t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

static void identity(uint16_t *a, unsigned n, unsigned from)
{
    for (unsigned i = 0; i < n; i++)
        a[i] = (uint16_t)(from + i);
}

void sp_sym_random_image(const sp_pos *p, sp_pos *q, uint64_t *rng)
{
    sp_sym_random_image_colours(p, NULL, q, NULL, rng);
}

void sp_sym_random_image_colours(const sp_pos *p, const uint8_t *col, sp_pos *q, uint8_t *qcol, uint64_t *rng)
{
    uint16_t rename[SP_MAX_SYMS], lands[SP_MAX_LANDS], regs[SP_MAX_REGS], bnds[SP_MAX_BNDS];
    identity(rename, p->nletter, 0);
    shuffle(rename, p->nletter, rng);
    sp_pos_clear(q);
    q->nletter = p->nletter;
    identity(lands, p->nland, 0);
    shuffle(lands, p->nland, rng);
    for (unsigned li = 0; li < p->nland; li++) {
        unsigned l = lands[li], r0 = sp_pos_lstart(p, l), nr = p->lend[l] - r0;
        identity(regs, nr, r0);
        shuffle(regs, nr, rng);
        for (unsigned ri = 0; ri < nr; ri++) {
            unsigned r = regs[ri], b0 = sp_pos_rstart(p, r), nb = p->rend[r] - b0;
            bool mirror = sp_rng_next(rng) & 1;
            identity(bnds, nb, b0);
            shuffle(bnds, nb, rng);
            for (unsigned bi = 0; bi < nb; bi++) {
                unsigned b = bnds[bi], s0 = sp_pos_bstart(p, b), n = p->bend[b] - s0;
                unsigned rot = (unsigned)(sp_rng_next(rng) % n);
                for (unsigned k = 0; k < n; k++) {
                    unsigned i = mirror ? s0 + (rot + n - k) % n : s0 + (rot + k) % n, s = p->sym[i];
                    if (col)
                        qcol[q->nsym] = col[i];
                    q->sym[q->nsym++] =
                        sp_sym_is_letter(s) ? (uint16_t)(SP_SYM_LETTER + rename[s - SP_SYM_LETTER]) : (uint16_t)s;
                }
                q->bend[q->nbnd++] = q->nsym;
            }
            q->zeros[q->nreg] = p->zeros[r];
            q->rend[q->nreg++] = q->nbnd;
        }
        q->lend[q->nland++] = q->nreg;
    }
}

/* ---------------------------------------------------------------- the heuristic form */

#define NONE 0xffff

typedef struct layout {
    uint16_t b[SP_MAX_BNDS], rot[SP_MAX_BNDS];
    unsigned n, o;
} layout;

typedef struct glop {
    sp_pos q;                   /* the position, rewritten in the order chosen so far */
    uint16_t name[SP_MAX_SYMS]; /* upper-case names by first appearance */
    uint16_t partner[SP_MAX_SYMS];
    sp_tok str[SP_KEY_MAX];     /* region strings, one after the other */
    uint32_t soff[SP_MAX_REGS], slen[SP_MAX_REGS];
    layout best[SP_MAX_REGS], lay[2];
    sp_tok alt[SP_KEY_MAX], tmp[2][SP_MAX_SYMS + 1];
    sp_pos out;
} glop;

static void name_letters(glop *g)
{
    const sp_pos *q = &g->q;
    uint16_t first[SP_MAX_SYMS], first_b[SP_MAX_SYMS], next = 0;
    memset(first, 0xff, sizeof(uint16_t) * q->nletter);
    for (unsigned b = 0, i = 0; b < q->nbnd; b++) {
        for (; i < q->bend[b]; i++) {
            g->partner[i] = NONE;
            if (!sp_sym_is_letter(q->sym[i]))
                continue;
            unsigned k = q->sym[i] - SP_SYM_LETTER;
            if (first[k] == NONE) {
                first[k] = (uint16_t)i, first_b[k] = (uint16_t)b;
                g->name[k] = NONE;
            } else if (first_b[k] == b) {
                g->partner[i] = first[k], g->partner[first[k]] = (uint16_t)i;
            }
        }
    }
    for (unsigned i = 0; i < q->nsym; i++)
        if (sp_sym_is_letter(q->sym[i]) && g->partner[i] == NONE && g->name[q->sym[i] - SP_SYM_LETTER] == NONE)
            g->name[q->sym[i] - SP_SYM_LETTER] = next++;
}

/* Tokens of boundary b read in orientation o starting at rot, then SP_TK_END_B. */
static unsigned read_boundary(const glop *g, unsigned b, unsigned o, unsigned rot, sp_tok *out)
{
    const sp_pos *q = &g->q;
    unsigned s0 = sp_pos_bstart(q, b), n = q->bend[b] - s0;
    for (unsigned k = 0; k < n; k++) {
        unsigned pos = (rot + k) % n, i = o ? s0 + n - 1 - pos : s0 + pos, s = q->sym[i];
        if (s == SP_SYM_ONE || s == SP_SYM_TWO)
            out[k] = s == SP_SYM_ONE ? SP_TK_ONE : SP_TK_TWO;
        else if (g->partner[i] == NONE)
            out[k] = (sp_tok)(SP_TK_UP + g->name[s - SP_SYM_LETTER]);
        else {
            unsigned d = (g->partner[i] + n - i) % n;
            out[k] = (sp_tok)(SP_TK_LO + (o ? n - d : d));
        }
    }
    out[n] = SP_TK_END_B;
    return n + 1;
}

static unsigned least_rot(glop *g, unsigned b, unsigned o)
{
    unsigned n = g->q.bend[b] - sp_pos_bstart(&g->q, b), r = 0;
    read_boundary(g, b, o, 0, g->tmp[0]);
    for (unsigned k = 1; k < n; k++) {
        read_boundary(g, b, o, k, g->tmp[1]);
        if (sp_key_cmp(g->tmp[1], n, g->tmp[0], n) < 0) {
            memcpy(g->tmp[0], g->tmp[1], n * sizeof(sp_tok));
            r = k;
        }
    }
    return r;
}

/* Region r laid out in orientation o: least rotations, boundaries sorted; its string into out. */
static unsigned region_layout(glop *g, unsigned r, unsigned o, layout *lay, sp_tok *out)
{
    const sp_pos *q = &g->q;
    unsigned b0 = sp_pos_rstart(q, r);
    lay->n = q->rend[r] - b0;
    lay->o = o;
    for (unsigned i = 0; i < lay->n; i++) {
        unsigned b = b0 + i, rot = least_rot(g, b, o), j = i;
        unsigned lb = read_boundary(g, b, o, rot, g->tmp[0]);
        while (j > 0) {
            unsigned la = read_boundary(g, lay->b[j - 1], o, lay->rot[j - 1], g->tmp[1]);
            if (sp_key_cmp(g->tmp[1], la, g->tmp[0], lb) <= 0)
                break;
            lay->b[j] = lay->b[j - 1], lay->rot[j] = lay->rot[j - 1];
            j--;
        }
        lay->b[j] = (uint16_t)b, lay->rot[j] = (uint16_t)rot;
    }
    unsigned len = 0;
    out[len++] = (sp_tok)(SP_TK_ZEROS + q->zeros[r]);
    for (unsigned i = 0; i < lay->n; i++)
        len += read_boundary(g, lay->b[i], o, lay->rot[i], out + len);
    out[len++] = SP_TK_END_R;
    return len;
}

/* Every region in its better orientation (strings into g->str), under the current names. */
static void lay_out_regions(glop *g)
{
    uint32_t off = 0;
    name_letters(g);
    for (unsigned r = 0; r < g->q.nreg; r++) {
        unsigned l0 = region_layout(g, r, 0, &g->lay[0], g->str + off);
        unsigned l1 = region_layout(g, r, 1, &g->lay[1], g->alt);
        unsigned pick = sp_key_cmp(g->alt, l1, g->str + off, l0) < 0;
        if (pick)
            memcpy(g->str + off, g->alt, l1 * sizeof(sp_tok));
        g->soff[r] = off;
        g->slen[r] = pick ? l1 : l0;
        g->best[r] = g->lay[pick];
        off += g->slen[r];
    }
}

static int region_cmp(const glop *g, unsigned a, unsigned b)
{
    return sp_key_cmp(g->str + g->soff[a], g->slen[a], g->str + g->soff[b], g->slen[b]);
}

/* One pass: regions laid out and sorted within their land; g->q is rewritten in that order.
 * Returns whether anything moved. */
static bool glop_pass(glop *g)
{
    const sp_pos *q = &g->q;
    uint16_t order[SP_MAX_REGS];
    bool moved = false;
    lay_out_regions(g);
    sp_pos_clear(&g->out);
    g->out.nletter = q->nletter;
    for (unsigned l = 0; l < q->nland; l++) {
        unsigned r0 = sp_pos_lstart(q, l), nr = q->lend[l] - r0;
        for (unsigned i = 0; i < nr; i++) {
            unsigned j = i;
            for (; j > 0 && region_cmp(g, order[j - 1], r0 + i) > 0; j--)
                order[j] = order[j - 1];
            order[j] = (uint16_t)(r0 + i);
        }
        for (unsigned i = 0; i < nr; i++) {
            unsigned r = order[i];
            const layout *lay = &g->best[r];
            moved |= r != r0 + i || lay->o;
            for (unsigned k = 0; k < lay->n; k++) {
                unsigned b = lay->b[k], s0 = sp_pos_bstart(q, b), n = q->bend[b] - s0, rot = lay->rot[k];
                moved |= b != sp_pos_rstart(q, r) + k || rot;
                for (unsigned t = 0; t < n; t++) {
                    unsigned pos = (rot + t) % n;
                    g->out.sym[g->out.nsym++] = q->sym[lay->o ? s0 + n - 1 - pos : s0 + pos];
                }
                g->out.bend[g->out.nbnd++] = g->out.nsym;
            }
            g->out.zeros[g->out.nreg] = q->zeros[r];
            g->out.rend[g->out.nreg++] = g->out.nbnd;
        }
        g->out.lend[g->out.nland++] = g->out.nreg;
    }
    g->q = g->out;
    return moved;
}

size_t sp_sym_glop_form(const sp_pos *p, sp_tok *out)
{
    glop *g = malloc(sizeof *g);
    if (!g)
        return 0;
    g->q = *p;
    for (int pass = 0; pass < 8 && glop_pass(g); pass++)
        ;
    lay_out_regions(g);
    /* land strings in place, then sorted */
    uint32_t loff[SP_MAX_LANDS], llen[SP_MAX_LANDS];
    uint16_t order[SP_MAX_LANDS];
    size_t len = 0;
    for (unsigned l = 0; l < g->q.nland; l++) {
        loff[l] = (uint32_t)len;
        for (unsigned r = sp_pos_lstart(&g->q, l); r < g->q.lend[l]; r++) {
            memcpy(g->alt + len, g->str + g->soff[r], g->slen[r] * sizeof(sp_tok));
            len += g->slen[r];
        }
        g->alt[len++] = SP_TK_END_L;
        llen[l] = (uint32_t)(len - loff[l]);
        unsigned j = l;
        for (; j > 0 && sp_key_cmp(g->alt + loff[order[j - 1]], llen[order[j - 1]], g->alt + loff[l], llen[l]) > 0; j--)
            order[j] = order[j - 1];
        order[j] = (uint16_t)l;
    }
    size_t n = 0;
    for (unsigned i = 0; i < g->q.nland; i++) {
        memcpy(out + n, g->alt + loff[order[i]], llen[order[i]] * sizeof(sp_tok));
        n += llen[order[i]];
    }
    free(g);
    return n;
}
