/* progress.c: the progress lines of long searches (progress.h). */
#include "progress.h"

#include <assert.h>
#include <stdio.h>
#include <unistd.h>

#include "clock.h"

void sp_progress_count(char *buf, size_t cap, double v)
{
    if (v >= 1e9)
        snprintf(buf, cap, "%.2fG", v / 1e9);
    else if (v >= 1e6)
        snprintf(buf, cap, "%.2fM", v / 1e6);
    else if (v >= 1e4)
        snprintf(buf, cap, "%.1fk", v / 1e3);
    else
        snprintf(buf, cap, "%.0f", v);
}

void sp_progress_init(sp_progress *p, const char *label, FILE *out)
{
    assert(p && label);
    snprintf(p->label, sizeof p->label, "%s", label);
    p->out = out;
    p->tty = out && isatty(fileno(out));
    p->printed = false;
    p->phase = NULL;
    p->answers = p->of = 0;
    p->start = sp_clock_now();
    p->nodes0 = 0;
}

/* The nodes of the label's own search, from a count of the solver's (or farm's) whole life. */
static double own_nodes(const sp_progress *p, uint64_t nodes)
{
    return nodes > p->nodes0 ? (double)(nodes - p->nodes0) : 0;
}

void sp_progress_line(void *arg, const sp_solver_stats *s)
{
    sp_progress *p = arg;
    if (!p->out)
        return;
    char nodes[32], rate[32];
    double own = own_nodes(p, s->nodes);
    sp_progress_count(nodes, sizeof nodes, p->phase ? (double)s->nodes : own);
    sp_progress_count(rate, sizeof rate, s->seconds > 0 ? own / s->seconds : 0);
    char stored[64];
    if (s->play == SP_PLAY_MISERE)
        snprintf(stored, sizeof stored, "%llu land values, %llu games%s", (unsigned long long)s->mis_lands,
                 (unsigned long long)s->games, s->games_full ? " (full)" : "");
    else
        snprintf(stored, sizeof stored, "%llu nimbers%s", (unsigned long long)s->nimbers,
                 s->nim_full ? " (store full)" : "");
    char work[224], fact[64] = ""; /* the nodes count the solver's whole life; a pass's searches are short calls */
    if (p->phase && p->of)
        snprintf(fact, sizeof fact, ", %zu of a fact's %zu moves answered", p->answers, p->of);
    if (p->phase)
        snprintf(work, sizeof work, "%s%s, one of its searches at %.0f s, %s nodes in all", p->phase, fact, s->seconds,
                 nodes);
    else
        snprintf(work, sizeof work, "%.0f s, %s nodes, %s nodes/s", s->seconds, nodes, rate);
    char root[96] = ""; /* a loss is proven when every first move is refuted, a win when pn reaches 0 */
    if (!p->phase && s->root_moves > 0)
        snprintf(root, sizeof root, ", %u of %u first moves refuted, root pn %u dn %u", s->root_refuted,
                 s->root_moves, s->root_pn, s->root_dn);
    fprintf(p->out, "%s%s: %s, tt %.0f%% full, %s, %.0f MiB%s%s", p->tty ? "\r" : "", p->label, work,
            100.0 * (double)s->tt_filled / (double)s->tt_capacity, stored, (double)s->rss_bytes / (1 << 20), root,
            p->tty ? "   " : "\n");
    fflush(p->out);
    p->printed = true;
}

void sp_progress_farm(void *arg, const sp_farm_stats *s)
{
    sp_progress *p = arg;
    if (!p->out)
        return;
    char nodes[32];
    sp_progress_count(nodes, sizeof nodes, own_nodes(p, s->nodes));
    fprintf(p->out, "%s%s: %.0f s, %s nodes, %llu jobs, %u workers%s, root pn %u dn %u, %u free leaves%s",
            p->tty ? "\r" : "", p->label, sp_clock_now() - p->start, nodes, (unsigned long long)s->jobs, s->workers,
            s->lost ? " (some lost)" : "", s->root_pn, s->root_dn, s->free_leaves, p->tty ? "   " : "\n");
    fflush(p->out);
    p->printed = true;
}

void sp_progress_facts(void *arg, uint64_t done, uint64_t items, double seconds)
{
    sp_progress *p = arg;
    if (!p->out)
        return;
    char d[32], all[32];
    sp_progress_count(d, sizeof d, (double)done);
    sp_progress_count(all, sizeof all, (double)items);
    fprintf(p->out, "%s%s: %s, %s of %s facts, %.0f s%s", p->tty ? "\r" : "", p->label,
            p->phase ? p->phase : "working", d, all, seconds, p->tty ? "   " : "\n");
    fflush(p->out);
    p->printed = true;
}

void sp_progress_answers(void *arg, size_t done, size_t of)
{
    sp_progress *p = arg;
    p->answers = done;
    p->of = of;
}

void sp_progress_done(sp_progress *p)
{
    p->answers = p->of = 0;
    if (p->printed && p->tty)
        fputc('\n', p->out);
    p->printed = false;
}
