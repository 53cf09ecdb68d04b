/* simplify.c: the reduction rules of simplify.h, applied in the literature's order, and the split
 * of the surviving regions into lands (union-find over shared letters). */
#include "simplify.h"

#include <string.h>

/* Rule: a letter whose two corners are cyclically adjacent on a boundary becomes one '2'. */
static void collapse_adjacent(sp_pos *p)
{
    for (unsigned b = 0; b < p->nbnd; b++) {
        unsigned s0 = sp_pos_bstart(p, b), len = p->bend[b] - s0;
        for (unsigned i = 0; i < len && len >= 2; i++) {
            uint16_t *a = &p->sym[s0 + i], *n = &p->sym[s0 + (i + 1) % len];
            if (sp_sym_is_letter(*a) && *a == *n) {
                *a = SP_SYM_TWO;
                *n = SP_SYM_DEAD;
            }
        }
    }
}

/* Per letter: where its live occurrences are. */
typedef struct letters {
    uint8_t count[SP_MAX_SYMS];
    uint16_t at[SP_MAX_SYMS][2];   /* symbol indices */
    uint16_t reg[SP_MAX_SYMS][2];
} letters;

static void index_letters(const sp_pos *p, letters *L, const uint16_t *reg_of_sym)
{
    memset(L->count, 0, p->nletter);
    for (unsigned i = 0; i < p->nsym; i++) {
        unsigned s = p->sym[i];
        if (!sp_sym_is_letter(s))
            continue;
        unsigned k = s - SP_SYM_LETTER, c = L->count[k]++;
        if (c < 2) {
            L->at[k][c] = (uint16_t)i;
            L->reg[k][c] = reg_of_sym[i];
        }
    }
}

static void map_symbols_to_regions(const sp_pos *p, uint16_t *reg_of_sym)
{
    for (unsigned r = 0; r < p->nreg; r++)
        for (unsigned i = sp_pos_bstart(p, sp_pos_rstart(p, r)); i < sp_pos_bstart(p, p->rend[r]); i++)
            reg_of_sym[i] = (uint16_t)r;
}

/* Lives of every region, counting a letter once per region. */
static void region_lives(const sp_pos *p, const letters *L, const uint16_t *reg_of_sym, unsigned *lives)
{
    for (unsigned r = 0; r < p->nreg; r++)
        lives[r] = 3u * p->zeros[r];
    for (unsigned i = 0; i < p->nsym; i++) {
        unsigned s = p->sym[i];
        if (s == SP_SYM_ONE)
            lives[reg_of_sym[i]] += 2;
        else if (s == SP_SYM_TWO)
            lives[reg_of_sym[i]] += 1;
        else if (sp_sym_is_letter(s)) {
            unsigned k = s - SP_SYM_LETTER;
            /* a letter seen twice in one region counts at its first occurrence only */
            if (!(L->count[k] == 2 && L->reg[k][0] == L->reg[k][1] && L->at[k][1] == i))
                lives[reg_of_sym[i]] += 1;
        }
    }
}

/* Antwerp: regions of 2 lives whose two spots are one red and one blue (simplify.h). Two lives and
 * no lone spot: two 1-life spots, or one '1' (white). */
static void kill_stuck(const sp_pos *p, const uint8_t *col, const uint16_t *reg_of_sym, const unsigned *lives,
                       bool *alive)
{
    unsigned seen[SP_MAX_REGS] = {0};
    for (unsigned i = 0; i < p->nsym; i++)
        if (p->sym[i] != SP_SYM_DEAD)
            seen[reg_of_sym[i]] |= 1u << (p->sym[i] == SP_SYM_ONE ? 3 : col[i]);
    for (unsigned r = 0; r < p->nreg; r++)
        if (lives[r] == 2 && p->zeros[r] == 0 && seen[r] == (1u << SP_RED | 1u << SP_BLUE))
            alive[r] = false;
}

/* Rules: delete regions with fewer than 2 lives (and, with colours, stuck ones); in a region with
 * 2-3 lives a letter seen twice becomes one '2'; then a letter seen once in its land becomes '2'.
 * Returns which regions survive. */
static void reduce_regions(sp_pos *p, const uint8_t *col, const uint16_t *reg_of_sym, bool *alive, bool *merge)
{
    letters L;
    unsigned lives[SP_MAX_REGS];
    index_letters(p, &L, reg_of_sym);
    region_lives(p, &L, reg_of_sym, lives);
    for (unsigned r = 0; r < p->nreg; r++) {
        alive[r] = lives[r] >= 2;
        merge[r] = lives[r] <= 3 && p->rend[r] - sp_pos_rstart(p, r) >= 1;
    }
    if (col)
        kill_stuck(p, col, reg_of_sym, lives, alive);
    for (unsigned i = 0; i < p->nsym; i++) {
        unsigned s = p->sym[i];
        if (s == SP_SYM_DEAD)
            continue;
        unsigned r = reg_of_sym[i];
        if (!alive[r]) {
            p->sym[i] = SP_SYM_DEAD;
            continue;
        }
        if (!sp_sym_is_letter(s))
            continue;
        unsigned k = s - SP_SYM_LETTER;
        bool pair_here = L.count[k] == 2 && L.reg[k][0] == L.reg[k][1];
        bool partner_alive = L.count[k] == 2 && alive[L.reg[k][0]] && alive[L.reg[k][1]];
        if (pair_here && merge[r])
            p->sym[i] = L.at[k][0] == i ? SP_SYM_TWO : SP_SYM_DEAD;
        else if (!partner_alive)
            p->sym[i] = SP_SYM_TWO;
    }
}

static unsigned uf_find(uint16_t *parent, unsigned x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* Copies the used part of a position (the arrays are mostly empty: a whole copy would be 5 KiB). */
static void copy_used(sp_pos *dst, const sp_pos *src)
{
    dst->nsym = src->nsym, dst->nbnd = src->nbnd, dst->nreg = src->nreg, dst->nland = src->nland;
    dst->nletter = src->nletter;
    memcpy(dst->sym, src->sym, src->nsym * sizeof src->sym[0]);
    memcpy(dst->bend, src->bend, src->nbnd * sizeof src->bend[0]);
    memcpy(dst->rend, src->rend, src->nreg * sizeof src->rend[0]);
    memcpy(dst->zeros, src->zeros, src->nreg * sizeof src->zeros[0]);
    memcpy(dst->lend, src->lend, src->nland * sizeof src->lend[0]);
}

/* Rewrites the surviving regions, grouped into lands, dropping dead symbols and empty boundaries,
 * and merging the boundaries of the regions marked in merge[] into one; colours (if any) move with
 * their symbols. */
static void rebuild(sp_pos *p, uint8_t *col, const bool *alive, const bool *merge, const uint16_t *reg_of_sym)
{
    uint8_t qcol[SP_MAX_SYMS];
    static const uint16_t none = 0xffff;
    uint16_t parent[SP_MAX_REGS], first_reg[SP_MAX_SYMS];
    for (unsigned r = 0; r < p->nreg; r++)
        parent[r] = (uint16_t)r;
    memset(first_reg, 0xff, sizeof(uint16_t) * p->nletter);
    for (unsigned i = 0; i < p->nsym; i++) {
        if (!sp_sym_is_letter(p->sym[i]))
            continue;
        unsigned k = p->sym[i] - SP_SYM_LETTER;
        if (first_reg[k] == none)
            first_reg[k] = reg_of_sym[i];
        else
            parent[uf_find(parent, reg_of_sym[i])] = (uint16_t)uf_find(parent, first_reg[k]);
    }

    sp_pos q;
    sp_pos_clear(&q);
    q.nletter = p->nletter;
    bool done[SP_MAX_REGS] = {false};
    for (unsigned root = 0; root < p->nreg; root++) {
        if (!alive[root] || done[root] || uf_find(parent, root) != root)
            continue;
        for (unsigned r = 0; r < p->nreg; r++) {
            if (!alive[r] || uf_find(parent, r) != root)
                continue;
            done[r] = true;
            q.zeros[q.nreg] = p->zeros[r];
            for (unsigned b = sp_pos_rstart(p, r); b < p->rend[r]; b++) {
                for (unsigned i = sp_pos_bstart(p, b); i < p->bend[b]; i++)
                    if (p->sym[i] != SP_SYM_DEAD) {
                        if (col)
                            qcol[q.nsym] = col[i];
                        q.sym[q.nsym++] = p->sym[i];
                    }
                bool open_merge = merge[r] && b + 1 < p->rend[r];
                if (!open_merge && q.nsym > (q.nbnd ? q.bend[q.nbnd - 1] : 0))
                    q.bend[q.nbnd++] = q.nsym;
            }
            q.rend[q.nreg++] = q.nbnd;
        }
        q.lend[q.nland++] = q.nreg;
    }
    copy_used(p, &q);
    if (col)
        memcpy(col, qcol, q.nsym);
}

void sp_pos_simplify_colours(sp_pos *p, uint8_t *col)
{
    uint16_t reg_of_sym[SP_MAX_SYMS];
    bool alive[SP_MAX_REGS], merge[SP_MAX_REGS];
    collapse_adjacent(p);
    map_symbols_to_regions(p, reg_of_sym);
    reduce_regions(p, col, reg_of_sym, alive, merge);
    rebuild(p, col, alive, merge, reg_of_sym);
}

void sp_pos_simplify(sp_pos *p)
{
    sp_pos_simplify_colours(p, NULL);
}
