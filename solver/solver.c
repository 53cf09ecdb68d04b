/* solver.c: the public face of the search (solver.h): owns the engine's shared state (transposition
 * table, nimber store, misère game table and land store), the workers, statistics and progress reports. */
#include "solver.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "engine.h"
#include "grow.h"
#include "mem.h"
#include "tune.h"

#ifdef _OPENMP
#include <omp.h>
#endif

_Static_assert(SP_SOLVER_PN_INF == SP_PN_INF, "one infinity for the engine and its drivers");

struct sp_solver {
    sp_engine eng;
    sp_frame *step_children; /* of the last sp_solver_step */
    sp_worker *workers;
    unsigned threads;
    sp_play play;
    double call_start;
    double last_seconds;
    void (*progress)(void *arg, const sp_solver_stats *s);
    void *progress_arg;
};

#ifndef NDEBUG
/* The contract of a key argument (solver.h): a position key of at most SP_KEY_MAX tokens. */
static bool key_ok(const sp_tok *key, size_t len)
{
    return (key || len == 0) && len <= SP_KEY_MAX;
}

/* ... and of a land key: one land. */
static bool land_ok(const sp_tok *land, size_t len)
{
    return key_ok(land, len) && len > 0 && sp_key_lands(land, len, NULL, NULL, 0) == 1;
}
#endif

size_t sp_solver_phys_bytes(void)
{
    const char *mb = getenv("SPROUTS_MEMORY_MB");
    char *end;
    unsigned long long v = mb ? strtoull(mb, &end, 10) : 0;
    if (mb && end != mb && !*end && v > 0 && v < (1ull << 40))
        return (size_t)v << 20;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (size_t)pages * (size_t)page : 0;
}

size_t sp_solver_default_tt_bytes(void)
{
    size_t phys = sp_solver_phys_bytes();
    if (!phys)
        phys = SP_TUNE_PHYS_UNKNOWN;
    size_t share = phys / SP_TUNE_TT_DIV;
    return share < SP_TUNE_TT_MAX ? share : SP_TUNE_TT_MAX;
}

static size_t store_at_least(size_t bytes)
{
    return bytes < SP_TUNE_STORE_MIN ? SP_TUNE_STORE_MIN : bytes;
}

static size_t default_lcache_bytes(size_t tt_bytes)
{
    size_t b = tt_bytes / SP_TUNE_LCACHE_DIV;
    return b < SP_TUNE_LCACHE_MIN ? SP_TUNE_LCACHE_MIN : b > SP_TUNE_LCACHE_MAX ? SP_TUNE_LCACHE_MAX : b;
}

/* The engine's report (sp_engine.report): the statistics, to the progress callback of the options. */
static void report(void *arg)
{
    sp_solver *s = arg;
    sp_solver_stats st;
    sp_solver_stats_get(s, &st);
    s->progress(s->progress_arg, &st);
}

static unsigned default_threads(void)
{
#ifdef _OPENMP
    return (unsigned)omp_get_max_threads();
#else
    return 1;
#endif
}

sp_solver *sp_solver_new(const sp_solver_opts *o)
{
    sp_solver *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    size_t tt_bytes = o && o->tt_bytes ? o->tt_bytes : sp_solver_default_tt_bytes();
    size_t nim_bytes = store_at_least(o && o->nim_bytes ? o->nim_bytes : tt_bytes / SP_TUNE_NIM_DIV);
    size_t game_bytes = o && o->game_bytes ? o->game_bytes : store_at_least(tt_bytes / SP_TUNE_GAME_DIV);
    int lives = o && o->misere_lives ? o->misere_lives : SP_TUNE_MISERE_LIVES;
    int sum_lives = o && o->misere_sum_lives ? o->misere_sum_lives : SP_TUNE_MISERE_SUM_LIVES;
    s->threads = o && o->threads ? o->threads : default_threads();
    if (s->threads > SP_MAX_TEAM)
        s->threads = SP_MAX_TEAM;
    s->eng.tt = sp_tt_new(tt_bytes);
    s->eng.nim = sp_nimstore_new(nim_bytes);
    s->eng.mis = sp_nimstore_new(nim_bytes); /* untouched memory costs nothing in normal play */
    s->eng.mis_lost = sp_nimstore_new(store_at_least(nim_bytes / SP_TUNE_LOST_DIV));
    s->eng.games = sp_mg_new(game_bytes);
    s->eng.lands = sp_lcache_new(o && o->lcache_bytes ? o->lcache_bytes : default_lcache_bytes(tt_bytes));
    s->eng.mis_lives = lives < 0 ? 0 : (unsigned)lives;
    s->eng.mis_sum_lives = lives < 0 || sum_lives < lives ? s->eng.mis_lives : (unsigned)sum_lives;
    s->workers = aligned_alloc(64, s->threads * sizeof *s->workers); /* sizeof is a multiple of 64 */
    if (s->workers)
        memset(s->workers, 0, s->threads * sizeof *s->workers);
    if (!s->eng.tt || !s->eng.nim || !s->eng.mis || !s->eng.mis_lost || !s->eng.games || !s->eng.lands || !s->workers) {
        sp_solver_free(s);
        return NULL;
    }
    sp_mg_set_exclusive(s->eng.games, true); /* until a search runs on several threads */
    s->eng.stop = o ? o->stop : NULL;
    s->progress = o ? o->progress : NULL;
    s->progress_arg = o ? o->progress_arg : NULL;
    s->eng.report = s->progress ? report : NULL;
    s->eng.report_arg = s;
    atomic_init(&s->eng.aborted, false);
    sp_worker *members[SP_MAX_TEAM];
    for (unsigned i = 0; i < s->threads; i++) {
        s->workers[i].eng = &s->eng;
        s->workers[i].id = i;
        s->workers[i].canon = sp_canon_ctx_new();
        s->workers[i].lands = i == 0 ? s->eng.lands : NULL; /* the leader expands alone what it has cached */
        members[i] = &s->workers[i];
        if (!s->workers[i].canon || !sp_team_member_init(&s->workers[i].tm, s->threads)) {
            sp_solver_free(s);
            return NULL;
        }
    }
    sp_team_init(&s->eng.team, s->threads, members);
    return s;
}

void sp_solver_free(sp_solver *s)
{
    if (!s)
        return;
    for (unsigned i = 0; s->workers && i < s->threads; i++) {
        sp_worker_release(&s->workers[i]);
        sp_canon_ctx_free(s->workers[i].canon);
    }
    free(s->workers);
    sp_tt_free(s->eng.tt);
    sp_nimstore_free(s->eng.nim);
    sp_nimstore_free(s->eng.mis);
    sp_nimstore_free(s->eng.mis_lost);
    sp_mg_free(s->eng.games);
    sp_lcache_free(s->eng.lands);
    free(s);
}

void sp_solver_stats_get(sp_solver *s, sp_solver_stats *out)
{
    memset(out, 0, sizeof *out);
    for (unsigned i = 0; i < s->threads; i++) {
        out->nodes += s->workers[i].nodes;
        out->tt_probes += atomic_load_explicit(&s->workers[i].tt_probes, memory_order_relaxed);
        out->tt_hits += atomic_load_explicit(&s->workers[i].tt_hits, memory_order_relaxed);
    }
    out->tt_filled = sp_tt_filled(s->eng.tt);
    out->tt_capacity = sp_tt_capacity(s->eng.tt);
    out->tt_bytes = sp_tt_bytes(s->eng.tt);
    out->tt_used_bytes = sp_tt_used_bytes(s->eng.tt);
    out->nimbers = sp_nimstore_count(s->eng.nim);
    out->nim_bytes = sp_nimstore_bytes(s->eng.nim);
    out->nim_used_bytes = sp_nimstore_used_bytes(s->eng.nim);
    out->nim_full = sp_nimstore_full(s->eng.nim);
    out->mis_lands = sp_nimstore_count(s->eng.mis);
    out->games = sp_mg_count(s->eng.games);
    out->sums = sp_mg_sums(s->eng.games);
    out->sum_flushes = sp_mg_flushes(s->eng.games);
    out->mis_lost = sp_nimstore_count(s->eng.mis_lost);
    out->game_bytes = sp_mg_bytes(s->eng.games) + sp_nimstore_bytes(s->eng.mis) + sp_nimstore_bytes(s->eng.mis_lost);
    out->game_used_bytes =
        sp_mg_used_bytes(s->eng.games) + sp_nimstore_used_bytes(s->eng.mis) + sp_nimstore_used_bytes(s->eng.mis_lost);
    sp_lcache_stats lc;
    sp_lcache_get_stats(s->eng.lands, &lc);
    out->lcache_bytes = lc.bytes;
    out->lcache_used_bytes = lc.used_bytes;
    out->lcache_lookups = lc.lookups;
    out->lcache_hits = lc.hits;
    out->lcache_partial = lc.partial;
    out->lands_full = sp_nimstore_full(s->eng.mis);
    out->games_full = sp_mg_full(s->eng.games) || out->lands_full;
    out->seconds = s->call_start > 0 ? sp_clock_now() - s->call_start : s->last_seconds;
    out->threads = s->threads;
    sp_mem_usage(&out->rss_bytes, &out->peak_bytes);
    out->play = s->play;
    out->misere_lives = s->eng.mis_lives;
    out->misere_sum_lives = s->eng.mis_sum_lives;
    out->misere_sum_birthday = SP_TUNE_MISERE_SUM_BIRTHDAY;
    sp_root_view root;
    sp_engine_root_view(&s->workers[0], &root);
    out->root_moves = root.moves;
    out->root_refuted = root.refuted;
    out->root_pn = root.pn;
    out->root_dn = root.dn;
}

struct sp_lcache *sp_solver_land_cache(sp_solver *s)
{
    return s->eng.lands;
}

void sp_solver_set_time_limit(sp_solver *s, double seconds)
{
    assert(seconds >= 0);
    s->eng.deadline = seconds > 0 ? sp_clock_now() + seconds : 0;
}

void sp_solver_interrupt(sp_solver *s)
{
    atomic_store(&s->eng.aborted, true);
}

static void begin_call(sp_solver *s, sp_play play)
{
    s->play = play;
    s->call_start = sp_clock_now();
    s->eng.last_report = s->call_start;
    atomic_store(&s->eng.aborted, false);
    for (unsigned i = 0; i < s->threads; i++)
        s->workers[i].failed = false;
}

static void end_call(sp_solver *s)
{
    s->last_seconds = sp_clock_now() - s->call_start;
    s->call_start = 0;
}

/* Searches n (sp_engine_job): worker 0 searches, the other threads share out its large expansions
 * (engine.h). */
static sp_outcome job_parallel(sp_solver *s, const sp_rules *rules, sp_node *n, const uint32_t th[2],
                               uint64_t max_nodes, uint32_t *pn, uint32_t *dn)
{
    sp_outcome result = SP_UNKNOWN;
    sp_team_start(&s->eng.team);
#ifdef _OPENMP
    sp_mg_set_exclusive(s->eng.games, s->threads == 1); /* the team values lands too */
#pragma omp parallel num_threads(s->threads)
    {
        if (omp_get_thread_num() == 0) {
            result = sp_engine_job(&s->workers[0], rules, n, th[0], th[1], max_nodes, pn, dn);
            sp_team_quit(&s->eng.team);
        } else {
            sp_team_help(&s->workers[omp_get_thread_num()]);
        }
    }
    sp_mg_set_exclusive(s->eng.games, true); /* a full memo is emptied here */
#else
    result = sp_engine_job(&s->workers[0], rules, n, th[0], th[1], max_nodes, pn, dn);
#endif
    s->workers[0].next_check = 0;
    return result;
}

static sp_outcome prove_parallel(sp_solver *s, const sp_rules *rules, sp_node *n)
{
    uint32_t pn, dn, th[2] = {SP_PN_INF, SP_PN_INF};
    return job_parallel(s, rules, n, th, 0, &pn, &dn);
}

sp_outcome sp_solver_outcome(sp_solver *s, const sp_tok *key, size_t len, sp_play play)
{
    return sp_solver_couple(s, key, len, 0, play);
}

/* nimber(L): the k for which (L, k) is lost, trying k = 0, 1, ... (each proof in parallel). */
static int land_nimber(sp_solver *s, const sp_tok *land, size_t len)
{
    int g = sp_nimstore_get(s->eng.nim, land, len, sp_key_hash64(land, len));
    for (uint32_t k = 0; g < 0; k++) {
        sp_node n = {land, (uint32_t)len, k, {0, 0}};
        sp_node_hash(&n, SP_PLAY_NORMAL);
        sp_outcome o = prove_parallel(s, &sp_rules_normal, &n);
        if (o == SP_UNKNOWN)
            return -1;
        if (o == SP_LOSS)
            g = (int)k;
    }
    return g;
}

int sp_solver_nimber(sp_solver *s, const sp_tok *key, size_t len)
{
    assert(s && key_ok(key, len));
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    unsigned nl = sp_key_lands(key, len, off, lens, SP_MAX_LANDS);
    int g = 0;
    begin_call(s, SP_PLAY_NORMAL);
    for (unsigned i = 0; i < nl && g >= 0; i++) {
        int x = land_nimber(s, key + off[i], lens[i]);
        g = x < 0 ? -1 : g ^ x;
    }
    end_call(s);
    return g;
}

sp_outcome sp_solver_couple(sp_solver *s, const sp_tok *key, size_t len, uint32_t k, sp_play play)
{
    assert(s && key_ok(key, len) && (play == SP_PLAY_NORMAL || play == SP_PLAY_MISERE));
    begin_call(s, play);
    if (s->workers[0].nframes > 0 && s->workers[0].frames[0])
        sp_frame_reset(s->workers[0].frames[0]); /* the root's children are this call's */
    sp_node n = {key, (uint32_t)len, k, {0, 0}};
    sp_node_hash(&n, play);
    sp_outcome o = prove_parallel(s, play == SP_PLAY_MISERE ? &sp_rules_misere : &sp_rules_normal, &n);
    end_call(s);
    return o;
}

uint32_t sp_solver_land_game(sp_solver *s, const sp_tok *land, size_t len)
{
    assert(s && land_ok(land, len));
    return sp_misere_land_game(&s->workers[0], land, len);
}

uint32_t sp_solver_game_sum(sp_solver *s, uint32_t g, uint32_t h)
{
    return sp_mg_sum(s->eng.games, g, h);
}

uint32_t *sp_solver_game_options(sp_solver *s, uint32_t g, size_t *n)
{
    *n = sp_mg_noptions(s->eng.games, g);
    uint32_t *o = malloc((*n + 1) * sizeof *o);
    if (o)
        sp_mg_options(s->eng.games, g, o);
    return o;
}

unsigned sp_solver_game_birthday(sp_solver *s, uint32_t g)
{
    return sp_mg_birthday(s->eng.games, g);
}

bool sp_solver_game_wins(sp_solver *s, uint32_t g)
{
    return sp_mg_wins(s->eng.games, g);
}

int sp_solver_known_nimber(sp_solver *s, const sp_tok *land, size_t len)
{
    assert(s && key_ok(land, len));
    return sp_nimstore_get(s->eng.nim, land, len, sp_key_hash64(land, len));
}

static sp_outcome known_node(sp_solver *s, const sp_tok *key, size_t len, uint32_t k, sp_play play)
{
    sp_node n = {key, (uint32_t)len, k, {0, 0}};
    sp_tt_entry e;
    sp_node_hash(&n, play);
    if (!sp_tt_probe(s->eng.tt, n.h, &e) || (e.pn != 0 && e.dn != 0))
        return SP_UNKNOWN;
    return e.pn == 0 ? SP_WIN : SP_LOSS;
}

/* In misère play the search stores a node as it folds it (misere.c), which may differ from the
 * form the caller holds (a certificate's normal form sums some lands the search leaves, and the
 * reverse): the node is looked up folded too. */
static sp_outcome known_folded(sp_solver *s, const sp_tok *key, size_t len, uint32_t k)
{
    sp_tok out[SP_KEY_MAX];
    sp_mg_id g = k;
    size_t olen = sp_misere_fold(&s->workers[0], key, len, &g, out);
    if (olen == 0) /* every land folded: the game decides */
        return sp_mg_wins(s->eng.games, g) ? SP_WIN : SP_LOSS;
    return olen == len ? SP_UNKNOWN : known_node(s, out, olen, g, SP_PLAY_MISERE);
}

/* In normal play the search stores a node with the stored nimbers of its lands folded into k (a
 * child's lands are folded when it is made), so the node is looked up as given and folded. */
sp_outcome sp_solver_known(sp_solver *s, const sp_tok *key, size_t len, uint32_t k, sp_play play)
{
    assert(s && key_ok(key, len));
    sp_outcome o = known_node(s, key, len, k, play);
    if (o != SP_UNKNOWN)
        return o;
    if (play == SP_PLAY_MISERE)
        return known_folded(s, key, len, k);
    uint32_t off[SP_MAX_LANDS], lens[SP_MAX_LANDS];
    unsigned nl = sp_key_lands(key, len, off, lens, SP_MAX_LANDS);
    sp_tok rest[SP_KEY_MAX];
    size_t rlen = 0;
    for (unsigned i = 0; i < nl; i++) {
        int g = sp_nimstore_get(s->eng.nim, key + off[i], lens[i], sp_key_hash64(key + off[i], lens[i]));
        if (g >= 0) {
            k ^= (uint32_t)g;
        } else {
            memcpy(rest + rlen, key + off[i], lens[i] * sizeof *rest);
            rlen += lens[i];
        }
    }
    if (rlen == 0)
        return k ? SP_WIN : SP_LOSS;
    return rlen == len ? SP_UNKNOWN : known_node(s, rest, rlen, k, play);
}

static sp_nimstore *kept_store(sp_solver *s, sp_kept which)
{
    assert(which == SP_KEPT_NIMBERS || which == SP_KEPT_LAND_GAMES || which == SP_KEPT_LOST);
    return which == SP_KEPT_NIMBERS ? s->eng.nim : which == SP_KEPT_LAND_GAMES ? s->eng.mis : s->eng.mis_lost;
}

uint64_t sp_solver_mark(sp_solver *s, sp_kept which)
{
    return sp_nimstore_mark(kept_store(s, which));
}

int sp_solver_each(sp_solver *s, sp_kept which, uint64_t from, uint64_t to,
                   int (*fn)(void *arg, const sp_tok *key, size_t len, unsigned value), void *arg)
{
    return sp_nimstore_each(kept_store(s, which), from, to, fn, arg);
}

bool sp_solver_add_nimber(sp_solver *s, const sp_tok *land, size_t len, unsigned nimber)
{
    assert(s && key_ok(land, len));
    return sp_nimstore_put(s->eng.nim, land, len, sp_key_hash64(land, len), nimber);
}

bool sp_solver_add_land_game(sp_solver *s, const sp_tok *land, size_t len, uint32_t game)
{
    assert(s && key_ok(land, len) && game < sp_mg_count(s->eng.games));
    return sp_nimstore_put(s->eng.mis, land, len, sp_key_hash64(land, len), game);
}

uint32_t sp_solver_game_make(sp_solver *s, uint32_t *opts, size_t n)
{
    return sp_mg_canon(s->eng.games, opts, n);
}

bool sp_solver_add_lost(sp_solver *s, const sp_tok *key, size_t len, uint32_t game)
{
    assert(s && key_ok(key, len) && len > 0 && game < sp_mg_count(s->eng.games));
    sp_solver_add_proven(s, key, len, game, SP_PLAY_MISERE, SP_LOSS);
    return sp_nimstore_put(s->eng.mis_lost, key, len, sp_key_hash64(key, len), game);
}

void sp_solver_add_proven(sp_solver *s, const sp_tok *key, size_t len, uint32_t k, sp_play play, sp_outcome o)
{
    assert(s && key_ok(key, len) && (o == SP_WIN || o == SP_LOSS));
    sp_node n = {key, (uint32_t)len, k, {0, 0}};
    sp_node_hash(&n, play);
    sp_tt_entry e = {o == SP_WIN ? 0 : SP_PN_INF, o == SP_WIN ? SP_PN_INF : 0, UINT32_MAX};
    sp_tt_store(s->eng.tt, n.h, &e);
}

/* ---------------------------------------------------------------- snapshots */

#define SNAP_BUF 4096 /* u32 words gathered per put */

/* Games 1 .. count-1 (0 is every table's), each as u32 n and its n options. */
static int save_games(const sp_mg *t, sp_solver_put put, void *arg)
{
    uint64_t count = sp_mg_count(t);
    if (put(arg, &count, sizeof count))
        return -1;
    uint32_t buf[SNAP_BUF];
    size_t used = 0;
    for (sp_mg_id g = 1; g < count; g++) {
        size_t n = sp_mg_noptions(t, g);
        if (used + 1 + n > SNAP_BUF) {
            if (used && put(arg, buf, used * sizeof *buf))
                return -1;
            used = 0;
        }
        if (1 + n > SNAP_BUF) { /* a long list goes by itself */
            uint32_t *o = malloc((n + 1) * sizeof *o);
            int rc = !o || (o[0] = (uint32_t)n, sp_mg_options(t, g, o + 1), put(arg, o, (n + 1) * sizeof *o));
            free(o);
            if (rc)
                return -1;
            continue;
        }
        buf[used++] = (uint32_t)n;
        used += sp_mg_options(t, g, buf + used);
    }
    return used && put(arg, buf, used * sizeof *buf) ? -1 : 0;
}

static int load_games(sp_mg *t, sp_solver_get get, void *arg)
{
    uint64_t count;
    if (get(arg, &count, sizeof count))
        return -1;
    if (count == 0 || count > UINT32_MAX || sp_mg_count(t) != 1)
        return count == 0 ? -1 : -2;
    sp_mg_id *opts = NULL;
    size_t cap = 0;
    int rc = 0;
    for (uint64_t g = 1; g < count && rc == 0; g++) {
        uint32_t n;
        if (get(arg, &n, sizeof n) || n > g || sp_grow((void **)&opts, &cap, (size_t)n + 1, sizeof *opts) ||
            get(arg, opts, n * sizeof *opts)) {
            rc = -1; /* its options are distinct games before it */
            break;
        }
        for (uint32_t i = 0; i < n && rc == 0; i++)
            rc = opts[i] >= g ? -1 : 0;
        sp_mg_id id = rc ? SP_MG_NONE : sp_mg_canon(t, opts, n);
        if (rc == 0 && id != g)
            rc = id == SP_MG_NONE ? -2 : -1; /* no room; or not the game it was */
    }
    free(opts);
    return rc;
}

int sp_solver_snapshot_save(sp_solver *s, sp_solver_put put, void *arg)
{
    assert(s && put);
    if (s->call_start > 0) /* from the progress callback, on the leader: */
        sp_team_quiesce(&s->eng.team); /* no helper adds a game or reads the table till the next round */
    return save_games(s->eng.games, put, arg) || sp_tt_save(s->eng.tt, put, arg) ? -1 : 0;
}

int sp_solver_snapshot_load(sp_solver *s, sp_solver_get get, void *arg)
{
    assert(s && get);
    int rc = load_games(s->eng.games, get, arg);
    return rc ? rc : sp_tt_load(s->eng.tt, get, arg);
}

void sp_solver_snapshot_drop(sp_solver *s)
{
    sp_tt_clear(s->eng.tt);
}

static sp_step_couple step_couple(const sp_tok *key, uint32_t len, uint32_t k, uint32_t pn, uint32_t dn,
                                  uint32_t order)
{
    return (sp_step_couple){key, len, k, pn, dn, order};
}

sp_step_kind sp_solver_step(sp_solver *s, const sp_tok *key, size_t len, uint32_t k, sp_step *out)
{
    assert(s && key_ok(key, len) && out);
    sp_worker *w = &s->workers[0];
    sp_node n = {key, (uint32_t)len, k, {0, 0}}, sub;
    sp_node_hash(&n, SP_PLAY_NORMAL);
    memset(out, 0, sizeof *out);
    w->failed = false;
    sp_resolved r = sp_engine_step(w, &sp_rules_normal, &n, &sub, out->rest, &s->step_children, &out->cut_child);
    if (w->failed)
        return out->kind = SP_STEP_FAILED;
    if (r == SP_SUM) {
        sp_tt_entry e;
        uint32_t pn = 1, dn = sp_engine_initial_dn(sub.key, sub.len, sub.k);
        if (sp_engine_probe(w, sub.h, &e))
            pn = e.pn, dn = e.dn;
        out->sub = step_couple(sub.key, sub.len, sub.k, pn, dn, 0);
        return out->kind = SP_STEP_SUM;
    }
    if (r == SP_EXPAND)
        out->children = s->step_children->n;
    return out->kind = r == SP_EXPAND ? SP_STEP_EXPAND : r == SP_RESOLVED_WIN ? SP_STEP_WIN : SP_STEP_LOSS;
}

sp_step_couple sp_solver_step_child(sp_solver *s, size_t i)
{
    assert(s && s->step_children && i < s->step_children->n);
    const sp_frame *f = s->step_children;
    const sp_child *c = &f->c[i];
    return step_couple(f->tok + c->off, c->len, c->k, c->pn, c->dn, c->order);
}

sp_outcome sp_solver_job(sp_solver *s, const sp_tok *key, size_t len, uint32_t k, const uint32_t th[2],
                         uint64_t max_nodes, uint32_t *pn, uint32_t *dn, bool *failed)
{
    assert(s && key_ok(key, len) && pn && dn && failed);
    begin_call(s, SP_PLAY_NORMAL);
    sp_node n = {key, (uint32_t)len, k, {0, 0}};
    sp_node_hash(&n, SP_PLAY_NORMAL);
    sp_outcome o = job_parallel(s, &sp_rules_normal, &n, th, max_nodes, pn, dn);
    *failed = s->workers[0].failed;
    end_call(s);
    return o;
}

void sp_solver_child_thresholds(const uint32_t th[2], const uint32_t numbers[2], uint32_t dn2,
                                const uint32_t child[2], uint32_t cth[2])
{
    sp_engine_child_thresholds(th[0], th[1], numbers[1], dn2, child[0], child[1], &cth[0], &cth[1]);
}

void sp_solver_part_thresholds(const uint32_t th[2], const uint32_t part[2], const uint32_t rest[2], uint32_t cth[2])
{
    uint32_t pn, dn;
    if (!sp_engine_part_thresholds(part[0], part[1], rest, th[0], th[1], &pn, &dn, &cth[0], &cth[1]))
        cth[0] = part[0] + 1, cth[1] = part[1] + 1; /* at its thresholds already: one more step */
}
