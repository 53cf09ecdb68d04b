/* table.c: the generator loop (table.h): for each play and size, solve, compute the nimber, build
 * and check a certificate, then write the row, the README and plots, the certificate and the stores, each
 * atomically; with --resume, read them back first. */
#include "table.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cert.h"
#include "certify.h"
#include "clock.h"
#include "grow.h"
#include "keylist.h"
#include "plot.h"
#include "progress.h"
#include "report.h"
#include "store.h"
#include "tune.h"
#include "verify.h"

typedef struct run {
    const sp_table_opts *o;
    sp_solver *s;
    sp_table tables[2]; /* normal, misère */
    sp_children proven; /* misère positions proven lost alone (certificate facts), kept across runs */
    double checkpoint;  /* monotonic seconds: when the stores were last saved */
    sp_progress progress;
    char date[32], machine[128];
    char err[8192];
} run;

static int save_stores(run *r);

/* The solver calls this at most once a second, from the thread that stores nimbers: it prints
 * progress and saves the stores now and then (SP_TUNE_CHECKPOINT_SECONDS): the land nimbers are
 * facts of the game, whatever size they were met in. */
static void on_progress(void *arg, const sp_solver_stats *st)
{
    run *r = arg;
    sp_progress_line(&r->progress, st);
    if (sp_clock_now() - r->checkpoint >= SP_TUNE_CHECKPOINT_SECONDS && save_stores(r))
        fprintf(r->o->log, "sprouts table: checkpoint: %s\n", r->err);
}

static int stopped_from_outside(const run *r)
{
    return r->o->stop && atomic_load(r->o->stop);
}

/* DIR/name */
static const char *in_dir(const run *r, char *buf, size_t cap, const char *name)
{
    snprintf(buf, cap, "%s/%s", r->o->out, name);
    return buf;
}

static int make_dir(const char *path, char *err, size_t cap)
{
    if (mkdir(path, 0755) == 0 || errno == EEXIST)
        return 0;
    snprintf(err, cap, "%s: %s", path, strerror(errno));
    return -1;
}

/* ---------------------------------------------------------------- stores */

/* The land nimbers to save, pointing into the solver's store, to be written sorted (keylist.h). */
typedef struct nimber_ref {
    const sp_tok *key;
    uint32_t len, nimber;
} nimber_ref;

typedef struct nimber_refs {
    nimber_ref *v;
    size_t n, cap;
} nimber_refs;

static int keep_ref(void *arg, const sp_tok *key, size_t len, unsigned nimber)
{
    nimber_refs *refs = arg;
    if (sp_grow((void **)&refs->v, &refs->cap, refs->n + 1, sizeof *refs->v))
        return -1;
    refs->v[refs->n++] = (nimber_ref){key, (uint32_t)len, nimber};
    return 0;
}

static int by_key(const void *a, const void *b)
{
    const nimber_ref *x = a, *y = b;
    return sp_key_cmp(x->key, x->len, y->key, y->len);
}

/* The payload of the nimber store: every land nimber the solver holds, sorted by key. */
static int put_nimbers(run *r, sp_buf *b)
{
    nimber_refs refs = {0};
    int rc = sp_solver_each_nimber(r->s, keep_ref, &refs);
    if (rc == 0) {
        qsort(refs.v, refs.n, sizeof *refs.v, by_key);
        for (size_t i = 0; i < refs.n; i++)
            sp_keylist_put_after(b, i ? refs.v[i - 1].key : NULL, i ? refs.v[i - 1].len : 0, refs.v[i].key,
                                 refs.v[i].len, refs.v[i].nimber);
    }
    free(refs.v);
    if (rc || b->failed)
        return snprintf(r->err, sizeof r->err, "out of memory while saving the land nimbers"), -1;
    return 0;
}

static void put_keys(sp_buf *b, const sp_children *keys)
{
    for (size_t i = 0; i < keys->n; i++)
        sp_keylist_put(b, keys->tok + keys->off[i], keys->len[i], 0);
}

static int save_stores(run *r)
{
    char path[4096];
    r->checkpoint = sp_clock_now();
    sp_buf b = {0};
    in_dir(r, path, sizeof path, "state/nimbers.store");
    int rc = put_nimbers(r, &b) ? -1
                                : sp_store_write(path, SP_STORE_NIMBERS_SORTED, b.data, b.len, r->err, sizeof r->err);
    sp_buf_free(&b);
    put_keys(&b, &r->proven);
    in_dir(r, path, sizeof path, "state/misere-proven.store");
    if (rc == 0)
        rc = b.failed ? (snprintf(r->err, sizeof r->err, "out of memory while saving the misere facts"), -1)
                      : sp_store_write(path, SP_STORE_PROVEN, b.data, b.len, r->err, sizeof r->err);
    sp_buf_free(&b);
    return rc;
}

/* The payload of store DIR/state/name, of kind *kind or the older `old` (*kind then says which; NULL, 0
 * when there is no such file); -1 when unreadable. */
static int read_store(run *r, const char *name, sp_store_kind *kind, sp_store_kind old, void **payload, size_t *len)
{
    char path[4096], rel[256];
    snprintf(rel, sizeof rel, "state/%s", name);
    in_dir(r, path, sizeof path, rel);
    *payload = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    fclose(f);
    return sp_store_read_either(path, *kind, old, kind, payload, len, r->err, sizeof r->err);
}

/* Calls add for each (key, value) of a store's payload (sorted or plain, by its kind); -1 when it is
 * malformed. */
static int each_entry(run *r, const char *name, sp_store_kind kind, const void *payload, size_t len, sp_keylist_fn add)
{
    if (sp_keylist_each(payload, len, kind == SP_STORE_NIMBERS_SORTED, add, r) == 0)
        return 0;
    snprintf(r->err, sizeof r->err, "%s/state/%s: malformed store payload", r->o->out, name);
    return -1;
}

static int add_nimber(void *arg, const sp_tok *key, size_t len, uint32_t v)
{
    run *r = arg;
    sp_solver_add_nimber(r->s, key, len, v);
    return 0;
}

/* A position proven lost in misère play by an earlier run: the solver starts out knowing it. */
static int add_proven(void *arg, const sp_tok *key, size_t len, uint32_t v)
{
    run *r = arg;
    (void)v;
    if (sp_children_add(&r->proven, key, len) > 0)
        sp_solver_add_proven(r->s, key, len, 0, SP_PLAY_MISERE, SP_LOSS);
    return 0;
}

/* Keeps the misère facts that stand alone (beside the game with no move) for the next runs. */
static void keep_proven(run *r, const sp_cert *c)
{
    for (size_t i = 0; i < c->facts.n; i++) {
        size_t len;
        const sp_tok *key = sp_cert_fact(c, i, &len);
        if (c->game_first[c->k[i] + 1] == c->game_first[c->k[i]])
            sp_children_add(&r->proven, key, len);
    }
}

/* ---------------------------------------------------------------- one size */

/* Builds, checks and writes the certificate of a solved row. */
static void certify_row(run *r, sp_row *row, int misere, unsigned n, const sp_tok *key, size_t len, sp_outcome o)
{
    sp_cert c;
    char path[4096];
    if (sp_cert_init(&c, misere ? SP_CERT_MISERE : SP_CERT_NORMAL, n, key, len, o == SP_WIN ? SP_CERT_WIN : SP_CERT_LOSS))
        return;
    r->progress.phase = "building the certificate";
    const char *why = NULL;
    int rc = sp_certify(&c, r->s, sp_progress_facts, &r->progress, r->o->stop, &why);
    if (rc < 0)
        fprintf(r->o->log, "certify: %s\n", why);
    sp_progress_done(&r->progress);
    r->progress.phase = "checking the certificate";
    sp_verify_result v;
    sp_verify_watch watch = {sp_progress_facts, &r->progress, r->o->stop};
    int checked = rc == 0 ? sp_verify(&c, r->o->solver.threads, &watch, &v) : -1;
    sp_progress_done(&r->progress);
    if (checked == 1) { /* stopped from outside: the size is not finished */
        sp_cert_free(&c);
        return;
    }
    if (checked == 0) {
        snprintf(row->verified, sizeof row->verified, "%s", v.ok ? "yes" : "no");
        if (!v.ok)
            fprintf(r->o->log, "sprouts table: %s 0*%u: the certificate does not check: %s\n",
                    misere ? "misere" : "normal", n, v.reason);
    }
    snprintf(row->cert, sizeof row->cert, "certs/%s-%u.cert", misere ? "misere" : "normal", n);
    in_dir(r, path, sizeof path, row->cert);
    if (rc == 0 && sp_cert_save(&c, path, r->err, sizeof r->err) == 0) {
        row->cert_facts = c.facts.n + (misere ? c.lands.n : 0);
        if (misere)
            keep_proven(r, &c);
    } else {
        if (rc == 0)
            fprintf(r->o->log, "sprouts table: %s\n", r->err);
        row->cert[0] = '\0';
        row->verified[0] = '\0';
    }
    sp_cert_free(&c);
}

static void print_row(FILE *out, const sp_table *t, unsigned n)
{
    const sp_row *row = &t->row[n];
    char nodes[32];
    sp_progress_count(nodes, sizeof nodes, (double)row->nodes);
    fprintf(out, "%s 0*%u: %s", t->misere ? "misere" : "normal", n, row->outcome);
    if (row->nimber >= 0)
        fprintf(out, ", nimber %d", row->nimber);
    if (strcmp(row->outcome, "unsolved"))
        fprintf(out, " (predicted %s)", (row->outcome[0] == 'w') == (sp_table_prediction(t->misere, n) == 'W')
                                           ? "so too" : "THE OPPOSITE");
    fprintf(out, ", %s nodes, %.2f s", nodes, row->seconds);
    if (row->cert[0])
        fprintf(out, ", certificate %llu facts%s", (unsigned long long)row->cert_facts,
                !strcmp(row->verified, "yes") ? " (checked)" : " (NOT checked)");
    fprintf(out, "\n");
    fflush(out);
}

/* Solves 0*n in one play and fills its row; returns 1 when stopped from outside. */
static int solve_size(run *r, int misere, unsigned n)
{
    sp_row *row = &r->tables[misere].row[n];
    sp_pos p;
    sp_tok key[SP_KEY_MAX];
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    if (!ctx)
        return 1;
    sp_pos_spots(&p, n);
    size_t len = sp_canon_pos(ctx, &p, key);
    sp_canon_ctx_free(ctx);

    char label[64];
    snprintf(label, sizeof label, "%s 0*%u", misere ? "misere" : "normal", n);
    sp_progress_init(&r->progress, label, r->o->quiet ? NULL : r->o->log);
    sp_solver_set_time_limit(r->s, r->o->time_limit); /* for the outcome and the nimber together */
    double t0 = sp_clock_now();
    sp_solver_stats before;
    sp_solver_stats_get(r->s, &before);
    sp_outcome o = sp_solver_outcome(r->s, key, len, misere ? SP_PLAY_MISERE : SP_PLAY_NORMAL);
    int nimber = o == SP_LOSS && !misere ? 0 : -1;
    if (o == SP_WIN && !misere)
        nimber = sp_solver_nimber(r->s, key, len); /* -1 when out of time: "where computed" */
    sp_solver_stats st;
    sp_solver_stats_get(r->s, &st);
    sp_progress_done(&r->progress);
    if (stopped_from_outside(r))
        return 1;
    memset(row, 0, sizeof *row);
    row->present = 1;
    row->nimber = nimber;
    row->seconds = sp_clock_now() - t0;
    row->nodes = st.nodes - before.nodes;
    row->threads = st.threads;
    snprintf(row->outcome, sizeof row->outcome, "%s", o == SP_WIN ? "win" : o == SP_LOSS ? "loss" : "unsolved");
    snprintf(row->version, sizeof row->version, "%s", r->o->version);
    snprintf(row->date, sizeof row->date, "%s", r->date);
    snprintf(row->machine, sizeof row->machine, "%s", r->machine);
    if (o != SP_UNKNOWN) {
        sp_solver_set_time_limit(r->s, 0); /* the certificate is part of the result, not of the time limit */
        certify_row(r, row, misere, n, key, len, o);
    }
    return stopped_from_outside(r);
}

static int save_tables(run *r)
{
    sp_table_origin by = {r->o->command, r->o->version, r->date};
    if (sp_table_save(&r->tables[0], r->o->out, r->err, sizeof r->err) ||
        sp_table_save(&r->tables[1], r->o->out, r->err, sizeof r->err) ||
        sp_table_readme(&r->tables[0], &r->tables[1], &by, r->o->out, r->err, sizeof r->err) ||
        sp_plot_write(&r->tables[0], &r->tables[1], r->o->out, r->err, sizeof r->err))
        return -1;
    return save_stores(r);
}

/* ---------------------------------------------------------------- the run */

static int prepare(run *r)
{
    char path[4096];
    if (make_dir(r->o->out, r->err, sizeof r->err) || make_dir(in_dir(r, path, sizeof path, "certs"), r->err, sizeof r->err) ||
        make_dir(in_dir(r, path, sizeof path, "state"), r->err, sizeof r->err))
        return -1;
    r->tables[1].misere = 1;
    for (int m = 0; m < 2; m++)
        if (sp_table_load(&r->tables[m], r->o->out, r->err, sizeof r->err))
            return -1;
    if (!r->o->resume) {
        for (int m = 0; m < 2; m++)
            for (unsigned n = 1; n <= SP_TABLE_MAX_N; n++)
                if (r->tables[m].row[n].present) {
                    snprintf(r->err, sizeof r->err, "%s already holds results: add --resume to continue them "
                             "(finished sizes are kept), or choose another --out", r->o->out);
                    return -2;
                }
    }
    sp_table_provenance(r->date, sizeof r->date, r->machine, sizeof r->machine);
    return 0;
}

/* A solver holding the nimbers an earlier run saved (a store's payload). Unless --nim-mb sets it, the
 * nimber store's budget doubles until they fill at most half of it: a store that kept only some of
 * them would write only those at the next save, and the others would be lost. */
static int solver_with_nimbers(run *r, sp_solver_opts *so, sp_store_kind kind, const void *nim, size_t len)
{
    for (;;) {
        sp_solver_stats st;
        if (!(r->s = sp_solver_new(so)))
            return snprintf(r->err, sizeof r->err, "cannot allocate the solver's memory"), -1;
        if (each_entry(r, "nimbers.store", kind, nim, len, add_nimber))
            return -1;
        sp_solver_stats_get(r->s, &st);
        if (!st.nim_full && (r->o->solver.nim_bytes || st.nim_used_bytes <= st.nim_bytes / 2)) {
            if (so->nim_bytes != r->o->solver.nim_bytes && !r->o->quiet)
                fprintf(r->o->log, "sprouts table: nimber store budget %zu MiB, to hold the %llu land nimbers saved\n",
                        st.nim_bytes >> 20, (unsigned long long)st.nimbers);
            return 0;
        }
        if (r->o->solver.nim_bytes)
            return snprintf(r->err, sizeof r->err,
                            "%s/state/nimbers.store holds more land nimbers than --nim-mb %zu keeps: give a "
                            "larger budget, or leave --nim-mb out to have one that holds them",
                            r->o->out, r->o->solver.nim_bytes >> 20),
                   -2;
        so->nim_bytes = 2 * st.nim_bytes;
        sp_solver_free(r->s);
        r->s = NULL;
    }
}

/* The solver, knowing what earlier runs saved. */
static int open_solver(run *r, sp_solver_opts *so)
{
    void *nim = NULL, *proven = NULL;
    size_t nim_len = 0, proven_len = 0;
    sp_store_kind nim_kind = SP_STORE_NIMBERS_SORTED, proven_kind = SP_STORE_PROVEN;
    int rc = read_store(r, "nimbers.store", &nim_kind, SP_STORE_NIMBERS, &nim, &nim_len) ||
                     read_store(r, "misere-proven.store", &proven_kind, SP_STORE_PROVEN, &proven, &proven_len)
                 ? -1
                 : 0;
    if (rc == 0)
        rc = solver_with_nimbers(r, so, nim_kind, nim, nim_len);
    if (rc == 0)
        rc = each_entry(r, "misere-proven.store", proven_kind, proven, proven_len, add_proven);
    free(nim);
    free(proven);
    return rc;
}

static int run_play(run *r, int misere)
{
    for (unsigned n = r->o->from; n <= r->o->to; n++) {
        const sp_row *row = &r->tables[misere].row[n];
        if (row->present && strcmp(row->outcome, "unsolved")) {
            fprintf(r->o->rows, "%s 0*%u: %s, kept from an earlier run\n", misere ? "misere" : "normal", n,
                    row->outcome);
            continue;
        }
        if (solve_size(r, misere, n))
            return 1;
        if (save_tables(r)) {
            fprintf(r->o->log, "sprouts table: %s\n", r->err);
            return 1;
        }
        print_row(r->o->rows, &r->tables[misere], n);
    }
    return 0;
}

int sp_table_run(const sp_table_opts *o)
{
    assert(o && o->out && o->rows && o->log && o->from >= 1 && o->from <= o->to && o->to <= SP_TABLE_MAX_N);
    run *r = calloc(1, sizeof *r);
    if (!r)
        return 1;
    r->o = o;
    r->checkpoint = sp_clock_now();
    sp_children_init(&r->proven);
    sp_solver_opts so = o->solver;
    so.progress = on_progress;
    so.progress_arg = r;
    so.stop = o->stop;
    int rc = prepare(r);
    if (rc == 0)
        rc = open_solver(r, &so);
    if (rc) {
        fprintf(r->o->log, "sprouts table: %s\n", r->err);
        rc = rc == -2 ? 2 : 1;
    }
    if (rc == 0 && o->normal)
        rc = run_play(r, 0);
    if (rc == 0 && o->misere)
        rc = run_play(r, 1);
    if (rc == 1 && stopped_from_outside(r)) {
        bool kept = save_stores(r) == 0;
        fprintf(o->log, "sprouts table: stopped; finished sizes are saved%s (rerun with --resume to continue)\n",
                kept ? ", and the land nimbers proven so far" : "");
    }
    sp_solver_free(r->s);
    sp_children_free(&r->proven);
    free(r);
    return rc;
}
