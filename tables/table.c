/* table.c: the generator loop (table.h): for each play and size, solve, compute the nimber, build
 * and check a certificate, then write the row, the README and plots and the certificate, each
 * atomically, and append what was learned since the last save to the chunk files; with --resume, read
 * them back first. */
#include "table.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cert.h"
#include "certify.h"
#include "chunks.h"
#include "clock.h"
#include "dirlock.h"
#include "grow.h"
#include "keylist.h"
#include "landgames.h"
#include "merge.h"
#include "minimise.h"
#include "plot.h"
#include "progress.h"
#include "report.h"
#include "snapshot.h"
#include "store.h"
#include "tune.h"
#include "verify.h"

typedef struct run {
    const sp_table_opts *o;
    sp_solver *s;
    sp_farm *farm;       /* or NULL: normal play searched by s (o->farm) */
    uint64_t farm_fed;   /* s's nimber mark up to which the farm has s's nimbers */
    uint64_t farm_taken; /* the farm's mark up to which s has the farm's */
    sp_table tables[2]; /* normal, misère */
    int play_lock[2];   /* the locks of the plays this run runs (dirlock.h), else -1 */
    sp_children proven; /* misère positions proven lost alone (certificate facts), kept across runs */
    sp_landgames lands; /* misère land games: what DIR/state/misere-lands.chunks has */
    sp_cert base[2];    /* the fact bases DIR/certs/PLAY.cert (normal, misère), once loaded or begun */
    sp_cert_mark base_saved[2]; /* how much of each the file holds */
    bool have_base[2];
    sp_cert_mark kept_saved; /* how much of a misère certificate build DIR/state keeps (keep_build) */
    uint64_t nim_saved;  /* the mark of the nimber store (solver.h) up to which the chunk file has its nimbers */
    size_t proven_saved; /* how many of proven the chunk file has */
    bool nim_old, proven_old; /* read from an older store file, to be replaced by the chunk file */
    double checkpoint;  /* monotonic seconds: when the stores were last saved */
    double snapshot_at; /* and when the search was last written to the snapshot (or began) */
    struct {            /* the search of an unsolved size under way, whose row each checkpoint writes */
        sp_row *row;    /* NULL: none */
        sp_row before;  /* the row as the attempts before left it */
        uint64_t nodes; /* the solver's (or farm's) node count when the search began */
        double start;
        unsigned threads;
    } now;
    sp_progress progress;
    char date[32], machine[128];
    char err[8192];
} run;

static int save_stores(run *r);
static int save_tables(run *r);
static void write_snapshot(run *r);

/* Seconds between two checkpoints. */
static double every(const run *r)
{
    return r->o->checkpoint > 0 ? r->o->checkpoint : SP_TUNE_CHECKPOINT_SECONDS;
}

/* Seconds between two snapshots of a size's search (--snapshot). */
static double snapshot_every(const run *r)
{
    return r->o->snapshot_every > 0 ? r->o->snapshot_every : SP_TUNE_SNAPSHOT_SECONDS;
}

/* Fills the row of an attempt at a size: its outcome, and the work of this attempt added to the
 * attempts' before (a row is every attempt at its size, so that no work goes unrecorded). */
static void fill_row(const run *r, sp_row *row, const sp_row *before, sp_outcome o, uint64_t nodes, double seconds,
                     unsigned threads)
{
    memset(row, 0, sizeof *row);
    row->present = 1;
    row->nimber = -1;
    row->seconds = (before->present ? before->seconds : 0) + seconds;
    row->nodes = (before->present ? before->nodes : 0) + nodes;
    row->threads = threads;
    snprintf(row->outcome, sizeof row->outcome, "%s", o == SP_WIN ? "win" : o == SP_LOSS ? "loss" : "unsolved");
    snprintf(row->version, sizeof row->version, "%s", r->o->version);
    snprintf(row->date, sizeof row->date, "%s", r->date);
    snprintf(row->machine, sizeof row->machine, "%s", r->machine);
}

/* A checkpoint: the stores, and the row of the size being searched as unsolved with the work so far
 * (`nodes` the solver's or farm's count now), so that a killed run loses none of it. */
static bool checkpoint(run *r, uint64_t nodes)
{
    if (sp_clock_now() - r->checkpoint < every(r))
        return false;
    if (r->now.row)
        fill_row(r, r->now.row, &r->now.before, SP_UNKNOWN, nodes - r->now.nodes, sp_clock_now() - r->now.start,
                 r->now.threads);
    bool failed = r->now.row ? save_tables(r) : save_stores(r);
    if (failed)
        fprintf(r->o->log, "sprouts table: checkpoint: %s\n", r->err);
    return !failed;
}

/* The solver calls this at most once a second, from the thread that stores nimbers: it prints
 * progress and saves the stores now and then (checkpoint()): the land nimbers are
 * facts of the game, whatever size they were met in. */
static void on_progress(void *arg, const sp_solver_stats *st)
{
    run *r = arg;
    sp_progress_line(&r->progress, st);
    if (checkpoint(r, st->nodes) && r->now.row && sp_clock_now() - r->snapshot_at >= snapshot_every(r))
        write_snapshot(r); /* beside the state just saved: a run killed later takes it up */
}

static int stopped_from_outside(const run *r)
{
    return r->o->stop && atomic_load(r->o->stop);
}

/* Whether this run runs play m (0 normal, 1 misère): its rows, state and fact base are this run's to
 * write while it holds the play's lock; another run may write the other play's meanwhile. */
static bool runs_play(const run *r, int m)
{
    return m ? r->o->misere : r->o->normal;
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

/* The entries of a save point at keys held by the solver or by run.proven (sp_keylist_refs). */
typedef sp_keylist_refs refs;

/* DIR/state/NAME.EXT */
static const char *state_file(const run *r, char *buf, size_t cap, const char *name, const char *ext)
{
    snprintf(buf, cap, "%s/state/%s.%s", r->o->out, name, ext);
    return buf;
}

/* Saves the entries of rs, sorted, as a chunk appended to DIR/state/NAME.chunks. When the state was
 * read from the older NAME.store (*old), the chunk file is written whole instead, every entry in one
 * chunk, and the old store is removed once it is on disk: its entries are all in the chunk file
 * then, and git's history keeps it. Nothing new, nothing written. */
static int save_chunk(run *r, const char *name, sp_chunks_kind kind, refs *rs, bool *old)
{
    char path[4096];
    if (rs->n == 0 && !*old)
        return 0;
    sp_buf b = {0};
    sp_keylist_put_sorted(&b, rs->v, rs->n);
    state_file(r, path, sizeof path, name, "chunks");
    sp_chunks_info info = {0};
    int rc = b.failed ? sp_store_fail(r->err, sizeof r->err, "out of memory while saving %s", path)
             : *old   ? sp_chunks_write(path, kind, b.data, b.len, rs->n, r->err, sizeof r->err)
                      : sp_chunks_append(path, kind, b.data, b.len, rs->n, &info, r->err, sizeof r->err);
    sp_buf_free(&b);
    if (rc == 0 && info.torn)
        fprintf(r->o->log, "sprouts table: %s\n", info.warning);
    if (rc == 0 && *old) {
        if (!r->o->quiet)
            fprintf(r->o->log, "sprouts table: %s: %zu entries, written whole from %s.store (now removed)\n", path,
                    rs->n, name);
        unlink(state_file(r, path, sizeof path, name, "store"));
        *old = false;
    }
    return rc;
}

typedef struct costly {
    refs rs;
    unsigned lives;
} costly;

/* Lists a land nimber to save unless its land is one of those --state-lives leaves out. */
static int add_costly(void *arg, const sp_tok *key, size_t len, unsigned value)
{
    costly *c = arg;
    return sp_key_lives(key, len) < c->lives ? 0 : sp_keylist_refs_add(&c->rs, key, len, value);
}

/* Saves the land nimbers stored since the last save (of lands of at least --state-lives lives). */
static int save_nimbers(run *r)
{
    uint64_t now = sp_solver_mark(r->s, SP_KEPT_NIMBERS);
    costly c = {{0}, r->o->state_lives};
    int rc = sp_solver_each(r->s, SP_KEPT_NIMBERS, r->nim_saved, now, add_costly, &c)
                 ? sp_store_fail(r->err, sizeof r->err, "out of memory while saving the land nimbers")
                 : save_chunk(r, "nimbers", SP_CHUNKS_NIMBERS, &c.rs, &r->nim_old);
    if (rc == 0)
        r->nim_saved = now;
    free(c.rs.v);
    return rc;
}

/* Saves the misère positions proven since the last save. */
static int save_proven(run *r)
{
    const sp_children *p = &r->proven;
    refs rs = {0};
    int rc = 0;
    for (size_t i = r->proven_saved; rc == 0 && i < p->n; i++)
        rc = sp_keylist_refs_add(&rs, p->tok + p->off[i], p->len[i], 0);
    rc = rc ? sp_store_fail(r->err, sizeof r->err, "out of memory while saving the misere facts")
            : save_chunk(r, "misere-proven", SP_CHUNKS_PROVEN, &rs, &r->proven_old);
    if (rc == 0)
        r->proven_saved = p->n;
    free(rs.v);
    return rc;
}

/* Saves the misère land games stored since the last save, and the lands the search proved lost
 * beside a game since (none under --base-only, which trusts no search of its own across runs). */
static int save_land_games(run *r)
{
    char path[4096], lost[4096];
    return sp_landgames_save(&r->lands, r->s, state_file(r, path, sizeof path, "misere-lands", "chunks"),
                             r->o->base_only ? NULL : state_file(r, lost, sizeof lost, "misere-lost", "chunks"),
                             r->err, sizeof r->err);
}

/* What a snapshot goes with (snapshot.h): the program and the budgets, and the state files as they
 * are (a snapshot is taken after a save, and read before the first), which only grow. */
static void snapshot_stamp(run *r, char *buf, size_t cap, sp_snapshot_stamp *st)
{
    static const char *const files[] = {"nimbers", "misere-proven", "misere-lands", "misere-lost"};
    static_assert(sizeof files / sizeof *files <= SP_SNAPSHOT_MARKS, "a mark per state file");
    char path[4096];
    sp_solver_stats ss;
    sp_solver_stats_get(r->s, &ss);
    snprintf(buf, cap, "%s; tt %zu, games %zu", r->o->version, ss.tt_bytes, ss.game_bytes);
    st->text = buf;
    st->nmarks = sizeof files / sizeof *files;
    for (unsigned i = 0; i < st->nmarks; i++)
        st->marks[i] = sp_chunks_size(state_file(r, path, sizeof path, files[i], "chunks"));
}

/* A size stopped unsolved, or searched for --snapshot-every seconds since the last snapshot: its search
 * whole, for the run that resumes it here (--snapshot). */
static void write_snapshot(run *r)
{
    char text[2048];
    sp_snapshot_stamp stamp;
    sp_snapshot_stats st;
    if (!r->o->snapshot || r->o->base_only)
        return;
    snapshot_stamp(r, text, sizeof text, &stamp);
    if (sp_snapshot_write(r->o->snapshot, r->s, &stamp, &st, r->err, sizeof r->err))
        fprintf(r->o->log, "sprouts table: no snapshot: %s\n", r->err);
    else
        fprintf(r->o->log, "sprouts table: the search is in the snapshot %s (%.2f GiB, %.0f s)\n", r->o->snapshot,
                (double)st.bytes / (1 << 30), st.seconds);
    r->snapshot_at = sp_clock_now();
}

/* Takes up the search a snapshot holds, when it was taken beside this state or an older one; -1 when
 * it cannot: the run would write its own search over one that another run (another build, other
 * budgets, another directory) may still take up, so it stops and leaves the choice to the user. */
static int read_snapshot(run *r)
{
    char text[2048];
    sp_snapshot_stamp stamp;
    sp_snapshot_stats st;
    if (!r->o->snapshot || r->o->base_only || access(r->o->snapshot, F_OK))
        return 0;
    snapshot_stamp(r, text, sizeof text, &stamp);
    int rc = sp_snapshot_read(r->o->snapshot, r->s, &stamp, &st, r->err, sizeof r->err);
    if (rc == 0)
        fprintf(r->o->log, "sprouts table: the search goes on from the snapshot %s (%.2f GiB, %.0f s)%s\n",
                r->o->snapshot, (double)st.bytes / (1 << 30), st.seconds,
                st.older ? ", taken before the last saves of the state: what they hold is read over it" : "");
    else {
        char why[sizeof r->err];
        snprintf(why, sizeof why, "%s", r->err);
        sp_store_fail(r->err, sizeof r->err, "snapshot not used: %s; the run stops rather than write over it "
                      "(remove it, or give another --snapshot file, to start afresh)", why);
    }
    return rc ? -1 : 0;
}

static int save_stores(run *r)
{
    r->checkpoint = sp_clock_now();
    if (runs_play(r, 0) && save_nimbers(r))
        return -1;
    return runs_play(r, 1) && (save_proven(r) || save_land_games(r)) ? -1 : 0;
}

/* Calls add for each entry DIR/state holds of one thing: first the older store file NAME.store (of
 * kind `kind` or `older`; *old says whether there is one), then the chunk file NAME.chunks; -1 when
 * one is unreadable or refused (a reason in r->err). */
static int read_state(run *r, const char *name, sp_store_kind kind, sp_store_kind older, sp_chunks_kind chunks,
                      sp_keylist_fn add, bool *old)
{
    char path[4096];
    void *payload = NULL;
    size_t len = 0;
    *old = access(state_file(r, path, sizeof path, name, "store"), F_OK) == 0;
    int rc = *old ? sp_store_read_either(path, kind, older, &kind, &payload, &len, r->err, sizeof r->err) : 0;
    if (rc == 0 && *old && sp_keylist_each(payload, len, kind == SP_STORE_NIMBERS_SORTED, add, r) < 0)
        rc = sp_store_fail(r->err, sizeof r->err, "%s: malformed store payload", path);
    free(payload);
    if (rc || access(state_file(r, path, sizeof path, name, "chunks"), F_OK))
        return rc ? -1 : 0;
    sp_chunks_info info;
    rc = sp_chunks_read(path, chunks, add, r, &info, r->err, sizeof r->err);
    if (rc == 0 && info.torn)
        fprintf(r->o->log, "sprouts table: %s\n", info.warning);
    return rc ? -1 : 0; /* add's reason, when it stopped the reading, is in r->err */
}

/* A land nimber saved by an earlier run. A land saved twice keeps its first nimber, and must have
 * the same one the second time. */
static int add_nimber(void *arg, const sp_tok *key, size_t len, uint32_t v)
{
    run *r = arg;
    int had = sp_solver_add_nimber(r->s, key, len, v) ? -1 : sp_solver_known_nimber(r->s, key, len);
    if (had < 0 || (uint32_t)had == v)
        return 0; /* stored, or a repeat, or no room (the budget is checked once all are read) */
    sp_store_fail(r->err, sizeof r->err, "%s/state: a land saved with the nimber %d, and again with %u", r->o->out,
                  had, v);
    return 1;
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

/* ---------------------------------------------------------------- fact bases */

/* The fact base of a play, relative to DIR: every size's certificate joined (merge.h). */
static const char *base_name(int misere)
{
    return misere ? "certs/misere.cert" : "certs/normal.cert";
}

/* Loads DIR's fact base of a play once, when there is one; 0, or -1 (a reason in r->err). */
static int load_base(run *r, int misere)
{
    char path[4096];
    if (r->have_base[misere] || access(in_dir(r, path, sizeof path, base_name(misere)), F_OK))
        return 0;
    char warning[1024];
    if (sp_cert_load_info(&r->base[misere], path, warning, sizeof warning, r->err, sizeof r->err))
        return -1;
    if (warning[0])
        fprintf(r->o->log, "sprouts table: %s\n", warning);
    sp_cert_mark_all(&r->base[misere], &r->base_saved[misere]);
    r->have_base[misere] = true;
    return 0;
}

/* Joins c to the fact base of its play (begun from c when there is none yet); 0, or -1. */
static int join_base(run *r, int misere, const sp_cert *c)
{
    char why[512];
    if (load_base(r, misere))
        return -1;
    if (!r->have_base[misere] && sp_cert_base_init(&r->base[misere], c))
        return sp_store_fail(r->err, sizeof r->err, "out of memory");
    r->have_base[misere] = true;
    if (sp_cert_merge(&r->base[misere], c, why, sizeof why))
        return sp_store_fail(r->err, sizeof r->err, "%s/%s: %s", r->o->out, base_name(misere), why);
    return 0;
}

/* Appends to the base's file what it does not have yet. */
static int save_base(run *r, int misere)
{
    char path[4096];
    return sp_cert_append(&r->base[misere], in_dir(r, path, sizeof path, base_name(misere)), &r->base_saved[misere],
                          r->err, sizeof r->err);
}

/* Joins a size's certificate, checked, to the fact base and writes the base. */
static int add_to_base(run *r, int misere, const sp_cert *c)
{
    r->progress.phase = "writing the fact base";
    return join_base(r, misere, c) || save_base(r, misere) ? -1 : 0;
}

/* Certificates of one size each (as tables were written before fact bases) join the fact base, their
 * rows then name it, and the files go once the base is on disk: git's history keeps them. 1 when
 * some did, 0 when there were none, -1 (a reason in r->err). */
static int migrate_certs(run *r, int misere)
{
    char path[4096];
    sp_table *t = &r->tables[misere];
    bool moved[SP_TABLE_MAX_N + 1] = {false}, any = false;
    for (unsigned n = 1; n <= SP_TABLE_MAX_N; n++) {
        sp_row *row = &t->row[n];
        if (!row->present || !row->cert[0] || !strcmp(row->cert, base_name(misere)) ||
            access(in_dir(r, path, sizeof path, row->cert), F_OK))
            continue;
        sp_cert c;
        if (sp_cert_load(&c, path, r->err, sizeof r->err))
            return -1;
        int rc = join_base(r, misere, &c);
        sp_cert_free(&c);
        if (rc)
            return -1;
        moved[n] = any = true;
    }
    if (!any)
        return 0;
    if (save_base(r, misere))
        return -1;
    for (unsigned n = 1; n <= SP_TABLE_MAX_N; n++)
        if (moved[n]) {
            sp_chunks_remove(in_dir(r, path, sizeof path, t->row[n].cert), NULL, 0); /* its facts are in the base */
            snprintf(t->row[n].cert, sizeof t->row[n].cert, "%s", base_name(misere));
        }
    if (!r->o->quiet)
        fprintf(r->o->log, "sprouts table: %s/%s: the certificates of %s sizes joined into one fact base\n",
                r->o->out, base_name(misere), misere ? "misere" : "normal");
    return 1;
}

/* ---------------------------------------------------------------- one size */

/* Replaces c by its minimised certificate, which sp_minimise() has had checked; 1 when it did, 0 when
 * c stays as built (minimisation failed or was stopped: the certificate built is checked instead). */
static int minimise_cert(run *r, sp_cert *c)
{
    if (load_base(r, 0)) {
        fprintf(r->o->log, "sprouts table: minimise: %s (the certificate is written as built)\n", r->err);
        return 0;
    }
    /* the fact base is a database too: the sizes' proofs go through each other's positions */
    const sp_cert *db[2] = {c, &r->base[0]};
    sp_minimise_opts mo = {.rounds = r->o->minimise, .seed = 1, .threads = r->o->solver.threads,
                           .progress = sp_progress_facts, .arg = &r->progress, .stop = r->o->stop};
    sp_minimise_stats st;
    sp_cert small;
    char why[512];
    r->progress.phase = "minimising the certificate";
    int rc = sp_minimise(db, r->have_base[0] ? 2 : 1, &mo, &small, &st, why, sizeof why);
    sp_progress_done(&r->progress);
    if (rc) {
        fprintf(r->o->log, "sprouts table: minimise: %s (the certificate is written as built)\n", why);
        return 0;
    }
    sp_cert_free(c);
    *c = small;
    return 1;
}

/* The settled facts of a normal-play build (certify.h), checked beside the base and joined to it, so
 * that a build stopped after hours keeps them: the next attempt finds them given. The checker looks
 * answers up in the certificate it checks, so the part holds every settled fact, the base's too
 * (those are not checked again). It stands beside the base's own root, which gains nothing. A part
 * the checker refuses (a bug) stays out, and the build goes on. */
static void keep_settled(void *arg, const sp_cert *c, const uint8_t *settled)
{
    run *r = arg;
    sp_cert *base = &r->base[0], part;
    if (!r->have_base[0] || sp_cert_init(&part, SP_CERT_NORMAL, base->spots, base->root, base->root_len, base->outcome))
        return;
    size_t fresh = 0, len;
    for (size_t i = 0; i < c->facts.n; i++) {
        const sp_tok *f = sp_cert_fact(c, i, &len);
        if (settled[i] == 1 && (sp_cert_add(&part, f, len, c->k[i]) < 0 || sp_cert_find(base, f, len, 0) < 0))
            fresh++; /* out of memory counts too: the check then fails and says so */
    }
    sp_verify_result v = {.ok = 0};
    const char *phase = r->progress.phase;
    r->progress.phase = "checking the facts settled so far";
    int rc = fresh ? sp_verify_given(&part, base, r->o->solver.threads, NULL, &v) : 0;
    if (fresh && (rc || !v.ok))
        fprintf(r->o->log, "sprouts table: the settled facts do not check (left out): %s\n",
                rc ? "out of memory" : v.reason);
    else if (fresh && add_to_base(r, 0, &part))
        fprintf(r->o->log, "sprouts table: keeping the settled facts: %s\n", r->err);
    else if (fresh && !r->o->quiet)
        fprintf(r->o->log, "sprouts table: %zu settled facts of the certificate checked and joined to %s/%s\n",
                fresh, r->o->out, base_name(0));
    r->progress.phase = phase;
    sp_cert_free(&part);
}

/* DIR/state/misere-cert-N.chunks: what a stopped misère certificate build of 0*N kept. */
static const char *kept_build(const run *r, char *buf, size_t cap, unsigned n)
{
    char name[64];
    snprintf(name, sizeof name, "misere-cert-%u", n);
    return state_file(r, buf, cap, name, "chunks");
}

/* A misère build hands over its certificate as it stands (certify.h): appended to its file, so that
 * a build stopped after hours begins again from there. */
static void keep_build(void *arg, const sp_cert *c, const uint8_t *settled)
{
    run *r = arg;
    char path[4096];
    (void)settled;
    if (sp_cert_append(c, kept_build(r, path, sizeof path, c->spots), &r->kept_saved, r->err, sizeof r->err))
        fprintf(r->o->log, "sprouts table: keeping the certificate built so far: %s\n", r->err);
}

/* Begins the misère certificate c of 0*n from what a stopped build of the same claim kept, when
 * there is such a file (a file that cannot be used is said, and written anew by the build). */
static void begin_from_kept(run *r, sp_cert *c, unsigned n)
{
    char path[4096], warning[1024], why[512];
    sp_cert kept;
    r->kept_saved = (sp_cert_mark){0};
    if (access(kept_build(r, path, sizeof path, n), F_OK))
        return;
    if (sp_cert_load_info(&kept, path, warning, sizeof warning, why, sizeof why)) {
        fprintf(r->o->log, "sprouts table: %s (the certificate is built afresh)\n", why);
        return;
    }
    bool claim = kept.play == c->play && kept.spots == n && kept.outcome == c->outcome &&
                 kept.root_len == c->root_len && !memcmp(kept.root, c->root, c->root_len * sizeof *c->root);
    const char *other = !claim                                 ? "not a build of this claim"
                        : !sp_certify_sums_alike(&kept, r->s) ? "built by a program that sums other lands (its misère "
                                                                 "lives differ)"
                                                               : NULL;
    if (other) { /* the build's first keep writes the file anew */
        fprintf(r->o->log, "sprouts table: %s: %s (the certificate is built afresh)\n", path, other);
        sp_cert_free(&kept);
        return;
    }
    if (warning[0])
        fprintf(r->o->log, "sprouts table: %s\n", warning);
    if (!r->o->quiet)
        fprintf(r->o->log, "sprouts table: the certificate goes on from %zu facts, %zu land facts and %u games kept in %s\n",
                kept.facts.n, kept.lands.n, kept.ngames, path);
    sp_cert_free(c);
    *c = kept;
    sp_cert_mark_all(c, &r->kept_saved);
}

static void build_progress(void *arg, uint64_t done, uint64_t items, double seconds)
{
    sp_progress_facts(&((run *)arg)->progress, done, items, seconds);
}

static void build_answers(void *arg, size_t done, size_t of)
{
    sp_progress_answers(&((run *)arg)->progress, done, of);
}

/* Builds, (optionally) minimises, checks and writes the certificate of a solved row. */
static void certify_row(run *r, sp_row *row, int misere, unsigned n, const sp_tok *key, size_t len, sp_outcome o)
{
    sp_cert c;
    if (sp_cert_init(&c, misere ? SP_CERT_MISERE : SP_CERT_NORMAL, n, key, len, o == SP_WIN ? SP_CERT_WIN : SP_CERT_LOSS))
        return;
    r->progress.phase = "building the certificate";
    char why[1024];
    /* a minimised certificate stands alone; one as built rests on the checked fact base */
    const sp_cert *given =
        !r->o->minimise && load_base(r, misere) == 0 && r->have_base[misere] ? &r->base[misere] : NULL;
    /* normal play: kept when it rests on the base (a minimised certificate is made from the whole
     * build); misère play: kept in DIR/state until it is whole */
    sp_certify_watch cw = {build_progress, misere ? keep_build : given ? keep_settled : NULL, r, r->o->stop,
                           every(r), build_answers};
    if (misere)
        begin_from_kept(r, &c, n);
    int rc = sp_certify_given(&c, r->s, given, &cw, why, sizeof why);
    if (misere && rc == 0)
        sp_chunks_remove(kept_build(r, why, sizeof why, n), NULL, 0); /* whole now: the row holds it */
    if (rc < 0)
        fprintf(r->o->log, "certify: %s\n", why);
    if (rc == 2) /* kept: a solver with empty stores goes on from it */
        fprintf(r->o->log, "sprouts table: %s 0*%u: certificate: %s; what is built is kept (rerun with --resume)\n",
                misere ? "misere" : "normal", n, why);
    sp_progress_done(&r->progress);
    int small = rc == 0 && !misere && r->o->minimise ? minimise_cert(r, &c) : 0;
    r->progress.phase = "checking the certificate";
    sp_verify_result v = {.ok = 1};
    sp_verify_watch watch = {sp_progress_facts, &r->progress, r->o->stop};
    int checked = rc == 0 && !small ? sp_verify_given(&c, given, r->o->solver.threads, &watch, &v) : rc == 0 ? 0 : -1;
    sp_progress_done(&r->progress);
    if (checked == 1 || rc == 1 || rc == 2) { /* the certificate is made (or goes on) on --resume */
        snprintf(row->verified, sizeof row->verified, "stopped");
        sp_cert_free(&c);
        return;
    }
    if (checked == 0) {
        snprintf(row->verified, sizeof row->verified, "%s", v.ok ? "yes" : "no");
        if (!v.ok)
            fprintf(r->o->log, "sprouts table: %s 0*%u: the certificate does not check: %s\n",
                    misere ? "misere" : "normal", n, v.reason);
    }
    if (rc == 0 && !v.ok)
        rc = -1; /* a certificate the checker rejects stays out of the fact base: the row says so */
    if (rc == 0 && add_to_base(r, misere, &c) == 0) {
        snprintf(row->cert, sizeof row->cert, "%s", base_name(misere));
        row->cert_facts = c.facts.n + (misere ? c.lands.n : 0);
        if (misere)
            keep_proven(r, &c);
    } else {
        if (rc == 0)
            fprintf(r->o->log, "sprouts table: %s\n", r->err);
        row->cert[0] = '\0';
        if (v.ok)
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
    else if (strcmp(row->outcome, "unsolved") && strcmp(row->verified, "stopped"))
        fprintf(out, ", no certificate");
    fprintf(out, "\n");
    fflush(out);
}

/* ---------------------------------------------------------------- the farm */

static int to_farm(void *arg, const sp_tok *key, size_t len, unsigned nimber)
{
    return sp_farm_learn_nimber(arg, key, len, nimber) ? 0 : -1;
}

static int from_farm(void *arg, const sp_tok *key, size_t len, unsigned nimber)
{
    sp_solver_add_nimber(arg, key, len, nimber); /* false: known already, or the store is full */
    return 0;
}

/* The farm learns the nimbers the solver has that it lacks (from the state, the fact base, the
 * certificates built since), the solver those the farm proved (to be saved, and there for the
 * certificate builder); -1 when memory is short. */
static int share_nimbers(run *r)
{
    if (sp_solver_each(r->s, SP_KEPT_NIMBERS, r->farm_fed, sp_solver_mark(r->s, SP_KEPT_NIMBERS), to_farm, r->farm))
        return -1;
    uint64_t now = sp_farm_nimber_mark(r->farm);
    sp_farm_each_nimber(r->farm, r->farm_taken, now, from_farm, r->s);
    r->farm_taken = now;
    r->farm_fed = sp_solver_mark(r->s, SP_KEPT_NIMBERS); /* what just came from the farm goes back for nothing */
    return 0;
}

/* The farm's progress: a line, and the stores saved now and then, as on_progress does. */
static void on_farm_progress(void *arg, const sp_farm_stats *st)
{
    run *r = arg;
    sp_progress_farm(&r->progress, st);
    if (sp_clock_now() - r->checkpoint >= every(r) && share_nimbers(r))
        fprintf(r->o->log, "sprouts table: checkpoint: out of memory giving the solver the farm's nimbers\n");
    checkpoint(r, st->nodes);
}

/* The farm of o->farm, its nimber stores as large as the solver's; -1 when memory is short. */
static int open_farm(run *r)
{
    sp_farm_opts fo = *r->o->farm;
    sp_solver_stats st;
    sp_solver_stats_get(r->s, &st);
    fo.worker.nim_bytes = fo.leader.nim_bytes = st.nim_bytes;
    fo.worker.stop = fo.leader.stop = r->o->stop;
    fo.progress = on_farm_progress;
    fo.progress_arg = r;
    if (!(r->farm = sp_farm_new(&fo)))
        return sp_store_fail(r->err, sizeof r->err, "cannot allocate the farm's %u workers (try a smaller --tt-mb)",
                             fo.workers);
    return share_nimbers(r) ? sp_store_fail(r->err, sizeof r->err, "out of memory giving the farm the nimbers") : 0;
}

/* The outcome of key in one play and, won in normal play, its nimber (-1: out of time first), by
 * the solver, or by the farm in normal play when there is one; the nodes and threads (the farm's:
 * its workers' threads) of the work. */
static sp_outcome search(run *r, int misere, const sp_tok *key, size_t len, double limit, int *nimber,
                         uint64_t *nodes, unsigned *threads)
{
    sp_outcome o;
    if (misere || !r->farm) {
        sp_solver_stats before, st;
        sp_solver_stats_get(r->s, &before);
        r->now.nodes = r->progress.nodes0 = before.nodes, r->now.threads = before.threads;
        sp_solver_set_time_limit(r->s, limit); /* for the outcome and the nimber together */
        o = sp_solver_outcome(r->s, key, len, misere ? SP_PLAY_MISERE : SP_PLAY_NORMAL);
        *nimber = o == SP_WIN && !misere ? sp_solver_nimber(r->s, key, len) : o == SP_LOSS && !misere ? 0 : -1;
        sp_solver_stats_get(r->s, &st);
        *nodes = st.nodes - before.nodes, *threads = st.threads;
        return o;
    }
    sp_farm_stats before, st;
    sp_farm_stats_get(r->farm, &before);
    unsigned team = r->o->farm->team ? r->o->farm->team : 1;
    r->now.nodes = r->progress.nodes0 = before.nodes, r->now.threads = before.workers * team;
    sp_farm_set_time_limit(r->farm, limit);
    o = share_nimbers(r) ? SP_UNKNOWN : sp_farm_couple(r->farm, key, len, 0);
    *nimber = o == SP_WIN ? sp_farm_nimber(r->farm, key, len) : o == SP_LOSS ? 0 : -1;
    sp_farm_set_time_limit(r->farm, 0);
    share_nimbers(r);
    sp_farm_stats_get(r->farm, &st);
    *nodes = st.nodes - before.nodes, *threads = st.workers * team;
    return o;
}

/* Solves 0*n in one play within `limit` seconds of search (0: none) and fills its row, whose nodes
 * and seconds add up every attempt at the size (a row there is an attempt: unsolved, or solved and
 * solved again for its certificate, which may take one node from the state); returns 1 when
 * stopped from outside in the search (the row of a size not solved before is unsolved with the
 * work so far, the row of one solved before as it was), 2 when stopped after it (the row is filled;
 * verified "stopped" and no certificate when its build or check was stopped). */
static int solve_size(run *r, int misere, unsigned n, double limit)
{
    sp_row *row = &r->tables[misere].row[n];
    const sp_row before = *row;
    bool solved_before = row->present && strcmp(row->outcome, "unsolved");
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
    double t0 = sp_clock_now();
    int nimber;
    uint64_t nodes;
    unsigned threads;
    r->now.row = solved_before ? NULL : row, r->now.before = before, r->now.start = t0, r->snapshot_at = t0;
    sp_outcome o = search(r, misere, key, len, limit, &nimber, &nodes, &threads);
    r->now.row = NULL;
    sp_progress_done(&r->progress);
    if (stopped_from_outside(r)) {
        if (!solved_before) /* else kept whole: no checkpoint wrote it */
            fill_row(r, row, &before, SP_UNKNOWN, nodes, sp_clock_now() - t0, threads);
        return 1;
    }
    fill_row(r, row, &before, o, nodes, sp_clock_now() - t0, threads);
    row->nimber = nimber;
    if (o != SP_UNKNOWN && !r->o->no_certificates) {
        sp_solver_set_time_limit(r->s, 0); /* the certificate is part of the result, not of the time limit */
        certify_row(r, row, misere, n, key, len, o);
    }
    return stopped_from_outside(r) ? 2 : 0;
}

/* Writes the tables of the plays this run runs, and README.md and the plots from those and from the
 * other play's table as it is on disk now (another run may be writing it), under the directory's lock. */
static int save_tables(run *r)
{
    sp_table_origin by = {r->o->command, r->o->version, r->date};
    int lock = sp_dirlock_wait(r->o->out, "tables", r->err, sizeof r->err);
    int rc = lock < 0 ? -1 : 0;
    for (int m = 0; m < 2 && rc == 0; m++)
        rc = runs_play(r, m) ? sp_table_save(&r->tables[m], r->o->out, r->err, sizeof r->err)
                             : sp_table_load(&r->tables[m], r->o->out, r->err, sizeof r->err);
    if (rc == 0 && (sp_table_readme(&r->tables[0], &r->tables[1], &by, r->o->out, r->err, sizeof r->err) ||
                    sp_plot_write(&r->tables[0], &r->tables[1], r->o->out, r->err, sizeof r->err)))
        rc = -1;
    sp_dirlock_release(lock);
    return rc ? -1 : save_stores(r);
}

/* Takes the lock of each play this run runs: a second run of a play in one directory would write
 * over the first one's rows and state. */
static int lock_plays(run *r)
{
    for (int m = 0; m < 2; m++) {
        if (!runs_play(r, m))
            continue;
        const char *name = m ? "misere" : "normal";
        r->play_lock[m] = sp_dirlock_try(r->o->out, name, r->err, sizeof r->err);
        if (r->play_lock[m] == -2)
            snprintf(r->err, sizeof r->err, "%s is in use by another 'sprouts table' run of %s play (it holds "
                     "%s/state/%s.lock): wait for it to end, or choose another --out", r->o->out,
                     m ? "misère" : "normal", r->o->out, name);
        if (r->play_lock[m] < 0)
            return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- the run */

static int prepare(run *r)
{
    char path[4096];
    if (make_dir(r->o->out, r->err, sizeof r->err) || make_dir(in_dir(r, path, sizeof path, "certs"), r->err, sizeof r->err) ||
        make_dir(in_dir(r, path, sizeof path, "state"), r->err, sizeof r->err) || lock_plays(r))
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

/* The lands of the normal-play fact base are land nimbers proven and checked: the solver starts out
 * knowing them too, so the state need not hold them again (a compaction may leave them out). */
static int add_base_nimbers(run *r)
{
    if (load_base(r, 0))
        return -1;
    const sp_cert *c = &r->base[0];
    for (size_t i = 0; r->have_base[0] && i < c->facts.n; i++) {
        size_t len;
        const sp_tok *key = sp_cert_fact(c, i, &len);
        if (add_nimber(r, key, len, c->k[i]))
            return -1;
    }
    return 0;
}

/* A solver holding the nimbers earlier runs saved. Unless --nim-mb sets it, the nimber store's budget
 * doubles until they fill at most half of it: a store that kept only some of them would lose the
 * others at the next rewrite of the chunk file (a conversion, a compaction). */
static int solver_with_nimbers(run *r, sp_solver_opts *so)
{
    for (;;) {
        sp_solver_stats st;
        if (!(r->s = sp_solver_new(so)))
            return sp_store_fail(r->err, sizeof r->err, "cannot allocate the solver's memory");
        if ((!r->o->base_only && read_state(r, "nimbers", SP_STORE_NIMBERS_SORTED, SP_STORE_NIMBERS,
                                            SP_CHUNKS_NIMBERS, add_nimber, &r->nim_old)) ||
            (r->o->normal && add_base_nimbers(r)))
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
                            "%s/state holds more land nimbers than --nim-mb %zu keeps: give a larger budget, or "
                            "leave --nim-mb out to have one that holds them",
                            r->o->out, r->o->solver.nim_bytes >> 20),
                   -2;
        so->nim_bytes = 2 * st.nim_bytes;
        sp_solver_free(r->s);
        r->s = NULL;
    }
}

/* The solver, knowing what earlier runs saved; what it read counts as saved, unless it came from an
 * older store file (then the first save writes it all to the chunk file). */
static int open_solver(run *r, sp_solver_opts *so)
{
    int rc = solver_with_nimbers(r, so);
    if (rc == 0 && r->s)
        rc = read_snapshot(r); /* first: the games it names must get their ids */
    if (rc == 0)
        rc = read_state(r, "misere-proven", SP_STORE_PROVEN, SP_STORE_PROVEN, SP_CHUNKS_PROVEN, add_proven,
                        &r->proven_old);
    char path[4096];
    sp_chunks_info info;
    if (rc == 0 && access(state_file(r, path, sizeof path, "misere-lands", "chunks"), F_OK) == 0) {
        rc = sp_landgames_read(&r->lands, r->s, path, &info, r->err, sizeof r->err);
        if (rc == 0 && info.torn)
            fprintf(r->o->log, "sprouts table: %s\n", info.warning);
    }
    if (rc == 0 && !r->o->base_only && access(state_file(r, path, sizeof path, "misere-lost", "chunks"), F_OK) == 0) {
        rc = sp_landgames_read_lost(&r->lands, r->s, path, &info, r->err, sizeof r->err);
        if (rc == 0 && info.torn)
            fprintf(r->o->log, "sprouts table: %s\n", info.warning);
    }
    sp_solver_stats st;
    if (rc == 0 && r->s && !r->o->quiet && r->o->misere && (sp_solver_stats_get(r->s, &st), st.mis_lands > 0))
        fprintf(r->o->log, "sprouts table: misère play starts from %llu land games and %llu positions proven lost, "
                "read from %s/state\n", (unsigned long long)st.mis_lands, (unsigned long long)st.mis_lost, r->o->out);
    r->nim_saved = r->nim_old || !r->s ? 0 : sp_solver_mark(r->s, SP_KEPT_NIMBERS);
    r->proven_saved = r->proven_old ? 0 : r->proven.n;
    return rc;
}

/* One line on the solver's budgets (memory is touched as used, so these are bounds), and a warning
 * when together they may pass this machine's memory: a run that reaches them late is then killed
 * hours in, where a smaller budget would only have cost some speed. */
static void report_budgets(const run *r)
{
    sp_solver_stats st;
    sp_solver_stats_get(r->s, &st);
    size_t mib = (size_t)1 << 20, phys = sp_solver_phys_bytes();
    size_t most = st.tt_bytes + st.lcache_bytes + (r->o->normal ? st.nim_bytes : 0) +
                  (r->o->misere ? st.game_bytes : 0);
    if (r->farm && r->o->farm->driver == SP_FARM_THREADS) /* MPI ranks may be on other machines */
        most += (r->o->farm->workers + 1) * (r->o->farm->worker.tt_bytes + st.nim_bytes);
    if (!r->o->quiet) {
        fprintf(r->o->log, "sprouts table: memory budgets: table %zu MiB", st.tt_bytes / mib);
        if (r->o->solver.tt_bytes > st.tt_bytes) /* the table's sizes are powers of two */
            fprintf(r->o->log, " (of %zu asked: the largest power of two within it)", r->o->solver.tt_bytes / mib);
        fprintf(r->o->log, ", land nimbers %zu MiB, land cache %zu MiB", st.nim_bytes / mib, st.lcache_bytes / mib);
        if (r->o->misere)
            fprintf(r->o->log, ", misère games %zu MiB", st.game_bytes / mib);
        fprintf(r->o->log, "; at most %.1f GiB of %.1f GiB\n", (double)most / (1024.0 * mib),
                (double)phys / (1024.0 * mib));
    }
    if (r->farm && !r->o->quiet) {
        const sp_farm_opts *f = r->o->farm;
        fprintf(r->o->log, "sprouts table: normal play on a farm of %u workers of %u thread%s (%s), each and its "
                "leader: table %zu MiB, land nimbers %zu MiB\n", f->workers, f->team ? f->team : 1,
                f->team > 1 ? "s" : "", f->driver == SP_FARM_MPI ? "MPI ranks" : "threads", f->worker.tt_bytes / mib,
                st.nim_bytes / mib);
    }
    if (phys && most > phys)
        fprintf(r->o->log, "sprouts table: warning: these budgets may pass this machine's memory; a long run "
                           "may then be killed (lower --tt-mb%s)\n", r->o->misere ? " or --game-mb" : " or --nim-mb");
}

static bool unsolved(const sp_row *row)
{
    return row->present && !strcmp(row->outcome, "unsolved");
}

/* The search budget of an attempt at 0*n: the time limit; with --retry, at least the seconds all
 * attempts before took, so that each attempt at a size doubles the time spent on it. */
static double budget(const run *r, const sp_row *row)
{
    double limit = r->o->time_limit;
    return r->o->retry && unsolved(row) && row->seconds > limit ? row->seconds : limit;
}

/* One attempt at 0*n, saved and reported; 1 when stopped or failed. */
static int attempt(run *r, int misere, unsigned n)
{
    double limit = budget(r, &r->tables[misere].row[n]);
    if (r->o->retry && unsolved(&r->tables[misere].row[n]))
        fprintf(r->o->log, "sprouts table: %s 0*%u again, %.0f s of search this time (%.0f s so far)\n",
                misere ? "misere" : "normal", n, limit, r->tables[misere].row[n].seconds);
    int stopped = solve_size(r, misere, n, limit);
    if (stopped == 1) { /* the work of the search so far is in the row */
        if (save_tables(r))
            fprintf(r->o->log, "sprouts table: %s\n", r->err);
        else if (misere || !r->farm)
            write_snapshot(r);
        return 1;
    }
    /* a search decided is kept even when its certificate was stopped: --resume finishes it */
    if (save_tables(r)) {
        fprintf(r->o->log, "sprouts table: %s\n", r->err);
        return 1;
    }
    print_row(r->o->rows, &r->tables[misere], n);
    if (!r->o->retry && unsolved(&r->tables[misere].row[n]) && (misere || !r->farm))
        write_snapshot(r); /* its time limit reached: a later run takes it up */
    if (stopped && !strcmp(r->tables[misere].row[n].verified, "stopped"))
        fprintf(r->o->log, "sprouts table: %s 0*%u: stopped before its certificate was done; the row is "
                "saved without one (rerun with --resume to certify it)\n",
                misere ? "misere" : "normal", n);
    return stopped != 0;
}

/* With --retry: the unsolved size of the range with the fewest nodes so far (the one closest to
 * falling, by what the attempts measured), or 0 when none is left. The sizes never tried come first,
 * in order, with the time limit. */
static unsigned easiest_unsolved(const run *r, int misere)
{
    unsigned best = 0;
    for (unsigned n = r->o->from; n <= r->o->to; n++) {
        const sp_row *row = &r->tables[misere].row[n];
        if (unsolved(row) && (!best || row->nodes < r->tables[misere].row[best].nodes))
            best = n;
    }
    return best;
}

/* A kept normal-play row whose root the fact base proves: its certificate minimised again from the
 * base (every size's facts; or from --minimise-db, a smaller base to list), the row's count that of
 * the result, which the checker has accepted. The base is unchanged. 1 when the row changed. */
static int reminimise_row(run *r, sp_row *row, unsigned n)
{
    if (strcmp(row->cert, base_name(0)) || load_base(r, 0) || !r->have_base[0])
        return 0;
    sp_cert given;
    if (r->o->minimise_db && sp_cert_load(&given, r->o->minimise_db, r->err, sizeof r->err)) {
        fprintf(r->o->log, "sprouts table: minimise: %s\n", r->err);
        return 0;
    }
    const sp_cert *db[1] = {r->o->minimise_db ? &given : &r->base[0]};
    sp_minimise_opts mo = {.rounds = r->o->minimise, .seed = 1, .threads = r->o->solver.threads, .root = n,
                           .progress = sp_progress_facts, .arg = &r->progress, .stop = r->o->stop};
    sp_minimise_stats st;
    sp_cert small;
    char why[512], label[64];
    snprintf(label, sizeof label, "normal 0*%u", n);
    sp_progress_init(&r->progress, label, r->o->quiet ? NULL : r->o->log);
    r->progress.phase = "minimising the certificate";
    int rc = sp_minimise(db, 1, &mo, &small, &st, why, sizeof why);
    sp_progress_done(&r->progress);
    if (r->o->minimise_db)
        sp_cert_free(&given);
    if (rc == 0 && small.outcome != (row->outcome[0] == 'w' ? SP_CERT_WIN : SP_CERT_LOSS)) {
        snprintf(why, sizeof why, "%s claims the other outcome", r->o->minimise_db);
        sp_cert_free(&small);
        rc = -1;
    }
    if (rc) {
        fprintf(r->o->log, "sprouts table: minimise 0*%u: %s (the row is kept as it was)\n", n, why);
        return 0;
    }
    row->cert_facts = small.facts.n;
    snprintf(row->verified, sizeof row->verified, "yes");
    sp_cert_free(&small);
    return 1;
}

static int run_play(run *r, int misere)
{
    for (unsigned n = r->o->from; n <= r->o->to; n++) {
        sp_row *row = &r->tables[misere].row[n];
        bool solved = row->present && strcmp(row->outcome, "unsolved");
        bool certify = !strcmp(row->verified, "stopped") || (r->o->recertify && !row->cert[0]);
        if (solved && !certify) {
            if (!misere && r->o->minimise && r->o->reminimise && reminimise_row(r, row, n)) {
                if (save_tables(r)) {
                    fprintf(r->o->log, "sprouts table: %s\n", r->err);
                    return 1;
                }
                print_row(r->o->rows, &r->tables[misere], n);
                continue;
            }
            if (stopped_from_outside(r))
                return 1;
            fprintf(r->o->rows, "%s 0*%u: %s, kept from an earlier run\n", misere ? "misere" : "normal", n,
                    row->outcome);
            continue;
        }
        if (r->o->retry && unsolved(row) && r->o->time_limit > 0)
            continue; /* tried before: its turn comes by its nodes, below */
        if (attempt(r, misere, n))
            return 1;
    }
    for (unsigned n; r->o->retry && r->o->time_limit > 0 && (n = easiest_unsolved(r, misere));)
        if (attempt(r, misere, n))
            return 1;
    return 0;
}

int sp_table_run(const sp_table_opts *o)
{
    assert(o && o->out && o->rows && o->log && o->from >= 1 && o->from <= o->to && o->to <= SP_TABLE_MAX_N);
    run *r = calloc(1, sizeof *r);
    if (!r)
        return 1;
    r->o = o;
    r->play_lock[0] = r->play_lock[1] = -1;
    r->checkpoint = sp_clock_now();
    sp_children_init(&r->proven);
    sp_landgames_init(&r->lands);
    sp_solver_opts so = o->solver;
    so.progress = on_progress;
    so.progress_arg = r;
    so.stop = o->stop;
    int rc = prepare(r);
    if (rc == 0)
        rc = open_solver(r, &so);
    if (rc == 0 && o->farm && o->normal)
        rc = open_farm(r);
    if (rc == 0)
        report_budgets(r);
    if (rc == 0 && (r->nim_old || r->proven_old))
        rc = save_stores(r); /* the older files become chunk files at once, whether any size runs or not */
    int moved = 0; /* so do the certificates of one size each */
    for (int m = 0; rc == 0 && m < 2; m++) {
        int one = runs_play(r, m) ? migrate_certs(r, m) : 0;
        rc = one < 0 ? -1 : 0;
        moved |= one > 0;
    }
    if (rc == 0 && moved && save_tables(r))
        rc = -1;
    if (rc) {
        fprintf(r->o->log, "sprouts table: %s\n", r->err);
        rc = rc == -2 ? 2 : 1;
    }
    if (rc == 0 && o->normal)
        rc = run_play(r, 0);
    if (rc == 0 && o->misere)
        rc = run_play(r, 1);
    if (rc == 0 && save_tables(r)) { /* a run with nothing to do still brings README and plots up to date */
        fprintf(o->log, "sprouts table: %s\n", r->err);
        rc = 1;
    }
    if (rc == 1 && stopped_from_outside(r)) {
        bool kept = save_stores(r) == 0;
        fprintf(o->log, "sprouts table: stopped; finished sizes are saved%s (rerun with --resume to continue)\n",
                kept ? ", and the land nimbers proven so far" : "");
    }
    sp_farm_free(r->farm);
    sp_solver_free(r->s);
    sp_children_free(&r->proven);
    sp_landgames_free(&r->lands);
    for (int m = 0; m < 2; m++) {
        if (r->have_base[m])
            sp_cert_free(&r->base[m]);
        sp_dirlock_release(r->play_lock[m]);
    }
    free(r);
    return rc;
}
