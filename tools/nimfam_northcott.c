/* nimfam_northcott.c: `nimfam northcott verify|play`: whole-board retrograde checks of Northcott's game
 * (no draws, the XOR-of-gaps rule, the forward-only winner) and play against the machine. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "clock.h"
#include "nimfam.h"
#include "northcott.h"
#include "rng.h"

#ifdef _OPENMP
#include <omp.h>
#endif

#define MAX_BOARD_ITEMS 16
#define PLAY_MAX_STATES UINT64_C(100000000)

static const char verify_usage[] =
    "Usage: nimfam northcott verify [--boards SPEC] [--space auto|full|sorted|both] [--full-limit N]\n"
    "                               [--max-mem MIB] [--threads N] [--out DIR]\n"
    "For every board of SPEC, labels every whole-board position (both checkers of every row, and who is\n"
    "to move) win, loss or draw by retrograde analysis of the rules, then checks: no draw; the player to\n"
    "move wins exactly when the XOR of the gaps is non-zero; and the winner can win moving forward only\n"
    "(the game solved again with the winner allowed only forward moves keeps every winner's position).\n"
    "Exit 0 only when all held on every board.\n"
    "  --boards SPEC    ROWSxCOLUMNS items, ranges allowed, comma-separated (default 1-6x2-6: every board\n"
    "                   up to 6 rows of up to 6 squares); e.g. 1-8x8,1-7x10\n"
    "  --space S        full: every position is its own state (mixed radix); sorted: positions that differ\n"
    "                   only in the order of their rows are one state; both: run both and compare them\n"
    "                   state by state; auto (default): both when the full space has at most --full-limit\n"
    "                   states, else sorted\n"
    "  --full-limit N   (default 100000000)\n"
    "  --max-mem MIB    refuse boards whose label arrays need more (default 4096)\n"
    "  --threads N      threads of the retrograde analysis (default: one per core; 1 when the program\n"
    "                   is built without OpenMP)\n"
    "  --out DIR        also write the summary to DIR/northcott.md\n"
    "  --plant-error    check deliberately wrong claims instead (the AND of the gaps, a winner moving\n"
    "                   backward only), to see the checks fail: exit 1 expected\n"
    "  -h, --help\n";

static const char play_usage[] =
    "Usage: nimfam northcott play [--board ROWSxCOLUMNS] [--seed S] [--first me|machine]\n"
    "Play Northcott's game against the machine. Every row holds one checker of each player, the first\n"
    "player's (X) on the left, the second's (O) on the right. Slide one of your checkers along its row,\n"
    "either way, any distance, never onto or over the other checker; who cannot move loses. Type a move\n"
    "as ROW COLUMN (e.g. '2 5' moves your checker in row 2 to column 5). The board is dealt at random\n"
    "from a seed that is printed, so that a game can be replayed. The machine plays perfectly from\n"
    "retrograde tables of the whole board (up to 100 million states, e.g. 8x8 or 6x10).\n"
    "  --board RxC    rows and columns (asked when not given)\n"
    "  --seed S       the deal (default: from the clock)\n"
    "  --first WHO    who moves first: me or machine (asked when not given)\n"
    "  -h, --help\n";

typedef struct board_item {
    unsigned r0, r1, c0, c1;
} board_item;

typedef enum { SPACE_AUTO, SPACE_FULL, SPACE_SORTED, SPACE_BOTH } space_choice;

/* What is checked: the seed's claims, or deliberately wrong ones (--plant-error). */
typedef struct claims {
    sp_nc_rule rule;
    sp_nc_mode winner_mode;
} claims;

static const claims seed_claims = {sp_nc_xor_rule, SP_NC_FORWARD};
static const claims wrong_claims = {sp_nc_and_rule, SP_NC_BACKWARD};

typedef struct nc_opts {
    board_item item[MAX_BOARD_ITEMS];
    unsigned nitems;
    space_choice space;
    uint64_t full_limit, max_mem, threads;
    const char *out;
    const claims *claims;
} nc_opts;

/* "RxC" with each side a number or a range, e.g. "1-6x2-6". */
static bool parse_board(const char *s, board_item *b)
{
    char buf[64];
    if (strlen(s) >= sizeof buf)
        return false;
    strcpy(buf, s);
    char *x = strchr(buf, 'x');
    if (!x)
        return false;
    *x = '\0';
    return nf_parse_range(buf, 1, SP_NC_MAX_ROWS, &b->r0, &b->r1) &&
           nf_parse_range(x + 1, 2, SP_NC_MAX_COLS, &b->c0, &b->c1);
}

static bool parse_boards(const char *s, nc_opts *o)
{
    char buf[512];
    if (strlen(s) >= sizeof buf)
        return false;
    strcpy(buf, s);
    o->nitems = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        if (o->nitems == MAX_BOARD_ITEMS || !parse_board(tok, &o->item[o->nitems++]))
            return false;
    return o->nitems > 0;
}

static bool parse_space(const char *s, space_choice *out)
{
    static const char *const names[] = {"auto", "full", "sorted", "both"};
    for (unsigned i = 0; i < 4; i++)
        if (!strcmp(s, names[i])) {
            *out = (space_choice)i;
            return true;
        }
    return false;
}

/* ---------------------------------------------------------------- verify: one board */

typedef struct plan {
    bool full, sorted;
    uint64_t nfull, nsorted, bytes;
} plan;

static plan plan_board(const nc_opts *o, unsigned rows, unsigned cols)
{
    plan p = {false, false, sp_nc_state_count(rows, cols, SP_NC_FULL), sp_nc_state_count(rows, cols, SP_NC_SORTED), 0};
    p.full = o->space == SPACE_FULL || o->space == SPACE_BOTH || (o->space == SPACE_AUTO && p.nfull && p.nfull <= o->full_limit);
    p.sorted = o->space != SPACE_FULL;
    uint64_t nf = p.full ? p.nfull : 0, ns = p.sorted ? p.nsorted : 0;
    p.bytes = nf + ns + (nf > ns ? nf : ns); /* both label arrays, and one scratch array */
    return p;
}

static const char *pos_str(const sp_nc_space *sp, uint64_t s, char *buf, size_t cap)
{
    sp_nc_pos p;
    sp_nc_decode(sp, s, &p);
    size_t len = (size_t)snprintf(buf, cap, "player %u to move; columns of X,O per row:", p.side + 1);
    for (unsigned i = 0; i < p.rows && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, " (%u,%u)", p.left[i] + 1, p.right[i] + 1);
    return buf;
}

/* Failures are listed under the table, which they would break. */
static void note_failure(FILE *failures, const char *what, const sp_nc_space *sp, uint64_t s)
{
    char b[256];
    sp_nc_pos p;
    sp_nc_decode(sp, s, &p);
    fprintf(failures, "- %ux%u: %s: %s\n", p.rows, p.cols, what, pos_str(sp, s, b, sizeof b));
}

/* Solves one space, checks the rule and the forward-only winner, prints one table row. The labels
 * stay in lab for the cross-check. */
static bool run_space(nf_report *rep, const claims *cl, unsigned rows, unsigned cols, sp_nc_kind kind, uint8_t *lab,
                      uint8_t *scratch, nf_progress *pg, FILE *failures, sp_nc_space **keep)
{
    static const sp_nc_mode free_play[2] = {SP_NC_FREE, SP_NC_FREE};
    double t0 = sp_clock_now();
    sp_nc_space *sp = sp_nc_space_new(rows, cols, kind, free_play);
    sp_retro_graph g;
    sp_nc_rule_report rr;
    sp_nc_restricted_report fr;
    if (sp)
        g = sp_nc_space_graph(sp);
    if (!sp || sp_retro_solve(&g, lab, &pg->p, NULL) ||
        sp_nc_check_restricted(rows, cols, kind, lab, cl->winner_mode, scratch, &pg->p, &fr)) {
        nf_say(rep, "| %ux%u | %s | out of memory |\n", rows, cols, kind ? "sorted" : "full");
        sp_nc_space_free(sp);
        return false;
    }
    sp_nc_check_rule(sp, lab, cl->rule, &pg->p, &rr);
    nf_say(rep, "| %ux%u | %s | %llu | %llu | %llu | %llu | %llu | %llu | %llu | %llu | %.2f |\n", rows, cols,
           kind ? "sorted" : "full", (unsigned long long)rr.states, (unsigned long long)rr.positions,
           (unsigned long long)rr.wins, (unsigned long long)rr.losses, (unsigned long long)rr.draws,
           (unsigned long long)rr.mismatches, (unsigned long long)(fr.checked[0] + fr.checked[1]),
           (unsigned long long)fr.failures, sp_clock_now() - t0);
    if (rr.have_bad)
        note_failure(failures, "first state the rule gets wrong", sp, rr.first_bad);
    if (fr.have_bad)
        note_failure(failures, "first state the forward-only winner loses", sp, fr.first_bad);
    *keep = sp;
    return rr.mismatches == 0 && fr.failures == 0;
}

typedef struct totals {
    FILE *failures; /* a memory stream */
    unsigned boards, compared;
    uint64_t states, compared_states, disagreements, max_bytes;
    uint32_t rows_done[SP_NC_MAX_COLS + 1]; /* bit r: the board of r rows held, per number of columns */
} totals;

static bool run_board(nf_report *rep, const nc_opts *o, unsigned rows, unsigned cols, totals *tot)
{
    plan p = plan_board(o, rows, cols);
    uint64_t nf = p.full ? p.nfull : 0, ns = p.sorted ? p.nsorted : 0, nmax = nf > ns ? nf : ns;
    uint8_t *lf = p.full ? malloc(p.nfull) : NULL, *ls = p.sorted ? malloc(p.nsorted) : NULL, *scratch = malloc(nmax);
    sp_nc_space *sf = NULL, *ss = NULL;
    char label[64];
    nf_progress pg;
    snprintf(label, sizeof label, "northcott %ux%u", rows, cols);
    nf_progress_init(&pg, label);
    bool ok = scratch && (!p.full || lf) && (!p.sorted || ls);
    if (ok && p.full)
        ok = run_space(rep, o->claims, rows, cols, SP_NC_FULL, lf, scratch, &pg, tot->failures, &sf);
    if (ok && p.sorted)
        ok = run_space(rep, o->claims, rows, cols, SP_NC_SORTED, ls, scratch, &pg, tot->failures, &ss);
    if (ok && sf && ss) {
        uint64_t bad = sp_nc_cross_check(sf, lf, ss, ls, &pg.p);
        tot->compared++;
        tot->compared_states += sp_nc_space_states(sf);
        tot->disagreements += bad;
        ok = bad == 0;
    }
    if (!scratch || (p.full && !lf) || (p.sorted && !ls))
        nf_say(rep, "| %ux%u | out of memory |\n", rows, cols);
    tot->boards++;
    tot->states += nf + ns;
    tot->max_bytes = p.bytes > tot->max_bytes ? p.bytes : tot->max_bytes;
    if (ok)
        tot->rows_done[cols] |= UINT32_C(1) << rows;
    sp_nc_space_free(sf);
    sp_nc_space_free(ss);
    free(lf);
    free(ls);
    free(scratch);
    return ok;
}

/* ---------------------------------------------------------------- verify: options and the run */

static int check_plans(const char *prog, const nc_opts *o)
{
    for (unsigned i = 0; i < o->nitems; i++)
        for (unsigned c = o->item[i].c0; c <= o->item[i].c1; c++)
            for (unsigned r = o->item[i].r0; r <= o->item[i].r1; r++) {
                plan p = plan_board(o, r, c);
                if (!p.nsorted || (p.full && !p.nfull))
                    return sp_cli_usage(prog, "the %ux%u board is too large for a state space here", r, c);
                if ((double)p.bytes > (double)o->max_mem * 1048576.0)
                    return sp_cli_usage(prog, "the %ux%u board needs %.0f MiB, over --max-mem %llu", r, c,
                                        (double)p.bytes / 1048576.0, (unsigned long long)o->max_mem);
            }
    return 0;
}

static int parse_verify(int argc, char **argv, const char *prog, nc_opts *o)
{
    static const struct option opts[] = {
        {"boards", required_argument, 0, 'b'}, {"space", required_argument, 0, 's'},
        {"full-limit", required_argument, 0, 'F'}, {"max-mem", required_argument, 0, 'M'},
        {"threads", required_argument, 0, 't'}, {"out", required_argument, 0, 'o'},
        {"plant-error", no_argument, 0, 'P'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h')
            return fputs(verify_usage, stdout), -1;
        if (c == 'b' && !parse_boards(optarg, o))
            return sp_cli_usage(prog, "--boards needs items like 6x6 or 1-6x2-6 (rows 1-%d, columns 2-%d), not '%s'",
                                SP_NC_MAX_ROWS, SP_NC_MAX_COLS, optarg);
        if (c == 's' && !parse_space(optarg, &o->space))
            return sp_cli_usage(prog, "--space needs auto, full, sorted or both, not '%s'", optarg);
        if (c == 'F' && !sp_cli_parse_u64(optarg, 0, UINT64_MAX, &o->full_limit))
            return sp_cli_usage(prog, "--full-limit needs a number of states, not '%s'", optarg);
        if (c == 'M' && !sp_cli_parse_u64(optarg, 1, UINT64_C(1) << 30, &o->max_mem))
            return sp_cli_usage(prog, "--max-mem needs a number of MiB, not '%s'", optarg);
        if (c == 't' && !sp_cli_parse_u64(optarg, 1, 256, &o->threads))
            return sp_cli_usage(prog, "--threads needs a number from 1 to 256, not '%s'", optarg);
        if (c == 'o')
            o->out = optarg;
        if (c == 'P')
            o->claims = &wrong_claims;
        if (c == '?' || c == ':')
            return sp_cli_bad_option(prog, argv, "");
    }
    if (optind != argc)
        return sp_cli_usage(prog, "unexpected argument '%s' (see --help)", argv[optind]);
    return check_plans(prog, o);
}

static void say_totals(nf_report *rep, const totals *t)
{
    nf_say(rep, "\n- boards: %u; states labelled (all spaces): %llu\n", t->boards, (unsigned long long)t->states);
    nf_say(rep, "- label memory of the largest board (labels of each space and one scratch array): %.1f MiB\n",
           (double)t->max_bytes / 1048576.0);
    if (t->compared)
        nf_say(rep, "- full and sorted spaces compared state by state on %u boards (%llu full states): "
                    "%llu disagreements\n",
               t->compared, (unsigned long long)t->compared_states, (unsigned long long)t->disagreements);
    for (unsigned c = 2; c <= SP_NC_MAX_COLS; c++) {
        if (!t->rows_done[c])
            continue;
        nf_say(rep, "- %u columns: held on the boards of rows", c);
        for (unsigned r = 1, sep = 0; r <= SP_NC_MAX_ROWS; r++) {
            if (!(t->rows_done[c] >> r & 1) || (t->rows_done[c] >> (r - 1) & 1))
                continue; /* print each run of rows once, from its start */
            unsigned end = r;
            while (end < SP_NC_MAX_ROWS && t->rows_done[c] >> (end + 1) & 1)
                end++;
            nf_say(rep, end > r ? "%s %u-%u" : "%s %u", sep++ ? "," : "", r, end);
        }
        nf_say(rep, "\n");
    }
}

/* Applies --threads and says how many threads run. */
static int threads(const nc_opts *o)
{
#ifdef _OPENMP
    if (o->threads)
        omp_set_num_threads((int)o->threads);
    return omp_get_max_threads();
#else
    (void)o;
    return 1;
#endif
}

static const char table_head[] =
    "Columns: states labelled, board positions they stand for, won / lost / drawn for the player to move, "
    "states where the XOR-of-gaps rule is wrong or that are drawn, states checked with the winner restricted "
    "to forward moves, those whose outcome changed, seconds.\n\n"
    "| board RxC | space | states | positions | won | lost | drawn | rule wrong | forward-only checked | "
    "forward-only failed | time s |\n"
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";

/* Every board of the options, in order; true when all held. */
static bool run_boards(nf_report *rep, const nc_opts *o)
{
    char *failures = NULL;
    size_t len = 0;
    totals tot;
    memset(&tot, 0, sizeof tot);
    tot.failures = open_memstream(&failures, &len);
    if (!tot.failures)
        return false;
    bool held = true;
    for (unsigned i = 0; i < o->nitems; i++)
        for (unsigned c = o->item[i].c0; c <= o->item[i].c1; c++)
            for (unsigned r = o->item[i].r0; r <= o->item[i].r1; r++)
                held &= run_board(rep, o, r, c, &tot);
    fclose(tot.failures);
    if (len)
        nf_say(rep, "\n%s", failures);
    free(failures);
    say_totals(rep, &tot);
    return held;
}

static int verify(int argc, char **argv, const nf_cmdline *cl)
{
    const char *prog = "nimfam northcott verify";
    nc_opts o = {{{1, 6, 2, 6}}, 1, SPACE_AUTO, 100000000, 4096, 0, NULL, &seed_claims};
    int rc = parse_verify(argc, argv, prog, &o);
    if (rc)
        return rc < 0 ? SP_EXIT_OK : rc;
    nf_report rep;
    if (!nf_report_begin(&rep, prog))
        return sp_cli_fail(prog, "out of memory");
    if (o.claims == &wrong_claims)
        nf_say(&rep, "PLANTED ERROR: checking the AND of the gaps and a winner moving backward only instead of "
                     "the seed's claims; this run must fail.\n\n");
    nf_say(&rep, "## Whole boards by retrograde analysis\n\n- threads: %d\n\n%s", threads(&o), table_head);
    bool held = run_boards(&rep, &o);
    return nf_report_end(&rep, "Northcott's game: verification", o.out, "northcott.md", cl, held);
}

/* ---------------------------------------------------------------- play */

typedef struct machine {
    sp_nc_space *normal, *forward; /* same indexing; in `forward` the machine moves only forward */
    uint8_t *lab_normal, *lab_forward;
    unsigned side;
    uint64_t rng;
} machine;

static void machine_free(machine *m)
{
    sp_nc_space_free(m->normal);
    sp_nc_space_free(m->forward);
    free(m->lab_normal);
    free(m->lab_forward);
}

static bool machine_init(machine *m, unsigned rows, unsigned cols, unsigned side, uint64_t seed)
{
    static const sp_nc_mode free_play[2] = {SP_NC_FREE, SP_NC_FREE};
    sp_nc_mode fwd[2] = {SP_NC_FREE, SP_NC_FREE};
    fwd[side] = SP_NC_FORWARD;
    memset(m, 0, sizeof *m);
    m->side = side;
    m->rng = seed ^ 0x5eed;
    m->normal = sp_nc_space_new(rows, cols, SP_NC_SORTED, free_play);
    m->forward = sp_nc_space_new(rows, cols, SP_NC_SORTED, fwd);
    uint64_t n = m->normal ? sp_nc_space_states(m->normal) : 0;
    m->lab_normal = n ? malloc(n) : NULL;
    m->lab_forward = n ? malloc(n) : NULL;
    nf_progress pg;
    nf_progress_init(&pg, "preparing the machine");
    sp_retro_graph g1, g2;
    if (!m->forward || !m->lab_normal || !m->lab_forward)
        return false;
    g1 = sp_nc_space_graph(m->normal);
    g2 = sp_nc_space_graph(m->forward);
    return !sp_retro_solve(&g1, m->lab_normal, &pg.p, NULL) && !sp_retro_solve(&g2, m->lab_forward, &pg.p, NULL);
}

static sp_retro_outcome_t outcome_after(const sp_nc_space *sp, const uint8_t *lab, const sp_nc_pos *p, sp_nc_move mv)
{
    sp_nc_pos q = *p;
    sp_nc_play(&q, mv);
    return sp_retro_outcome(lab[sp_nc_encode(sp, &q)]);
}

/* A won position: a forward move the forward-only table wins with (it cannot cycle, the machine's
 * checkers only advance), else any move to a lost position; a lost one: a random move. */
static sp_nc_move machine_move(machine *m, const sp_nc_pos *p)
{
    sp_nc_move mv[SP_NC_MAX_ROWS * SP_NC_MAX_COLS];
    unsigned n = sp_nc_moves(p, SP_NC_FREE, mv);
    for (unsigned i = 0; i < n; i++)
        if (sp_nc_is_forward(p, mv[i]) && outcome_after(m->forward, m->lab_forward, p, mv[i]) == SP_RETRO_LOSS)
            return mv[i];
    for (unsigned i = 0; i < n; i++)
        if (outcome_after(m->normal, m->lab_normal, p, mv[i]) == SP_RETRO_LOSS)
            return mv[i];
    return mv[sp_rng_next(&m->rng) % n];
}

static void show(const sp_nc_pos *p)
{
    printf("\n     ");
    for (unsigned c = 0; c < p->cols; c++)
        printf("%3u", c + 1);
    printf("\n");
    for (unsigned r = 0; r < p->rows; r++) {
        printf("  %2u ", r + 1);
        for (unsigned c = 0; c < p->cols; c++)
            printf("  %c", c == p->left[r] ? 'X' : c == p->right[r] ? 'O' : '.');
        printf("    gap %d\n", p->right[r] - p->left[r] - 1);
    }
    printf("\n");
}

static void explain_row(const sp_nc_pos *p, unsigned row)
{
    sp_nc_move mv[SP_NC_MAX_ROWS * SP_NC_MAX_COLS];
    unsigned n = sp_nc_moves(p, SP_NC_FREE, mv), to[SP_NC_MAX_COLS], k = 0;
    for (unsigned i = 0; i < n; i++)
        if (mv[i].row == row)
            to[k++] = mv[i].to + 1u;
    if (k == 0) {
        printf("Your checker in row %u is boxed in: it has no square to go to.\n", row + 1);
        return;
    }
    printf("Your checker in row %u can go to column%s", row + 1, k > 1 ? "s " : " ");
    for (unsigned i = 0; i < k; i++)
        printf(i ? ", %u" : "%u", to[i]);
    printf(" (not onto or over the other checker).\n");
}

/* Asks until the person types a legal move; false at end of input. */
static bool human_move(const sp_nc_pos *p, sp_nc_move *out)
{
    char line[256];
    for (;;) {
        uint64_t v[2];
        if (!nf_prompt("Your move (ROW COLUMN): ", line, sizeof line))
            return false;
        if (nf_numbers(line, v, 2) != 2) {
            printf("Type a row and the column your checker goes to, e.g. '1 %u'.\n", p->cols);
            continue;
        }
        if (v[0] < 1 || v[0] > p->rows || v[1] < 1 || v[1] > p->cols) {
            printf("Rows are 1 to %u and columns 1 to %u.\n", p->rows, p->cols);
            continue;
        }
        unsigned r = (unsigned)v[0] - 1, c = (unsigned)v[1] - 1;
        unsigned from = p->side ? p->right[r] : p->left[r];
        bool blocked = p->side ? c <= p->left[r] : c >= p->right[r];
        if (c != from && !blocked) {
            *out = (sp_nc_move){(uint8_t)r, (uint8_t)c};
            return true;
        }
        explain_row(p, r);
    }
}

static void deal(sp_nc_pos *p, unsigned rows, unsigned cols, uint64_t seed)
{
    uint64_t st = seed, k = cols * (cols - 1) / 2;
    p->rows = rows;
    p->cols = cols;
    p->side = 0;
    for (unsigned r = 0; r < rows; r++) {
        uint64_t d = sp_rng_next(&st) % k;
        unsigned a = 0;
        while (d >= cols - 1 - a) /* placements with the left checker at a: cols-1-a of them */
            d -= cols - 1 - a++;
        p->left[r] = (uint8_t)a;
        p->right[r] = (uint8_t)(a + 1 + d);
    }
}

/* Plays until someone cannot move; false at end of input. */
static bool play_game(machine *m, sp_nc_pos *p)
{
    for (;;) {
        sp_nc_move mv[SP_NC_MAX_ROWS * SP_NC_MAX_COLS], mine;
        bool human = p->side != m->side;
        show(p);
        if (sp_nc_moves(p, SP_NC_FREE, mv) == 0) {
            printf(human ? "You cannot move: the machine wins.\n" : "The machine cannot move: you win!\n");
            return true;
        }
        if (human && !human_move(p, &mine))
            return false;
        if (!human) {
            mine = machine_move(m, p);
            printf("The machine moves its checker in row %u from column %u to column %u.\n", mine.row + 1,
                   (p->side ? p->right[mine.row] : p->left[mine.row]) + 1, mine.to + 1);
        }
        sp_nc_play(p, mine);
    }
}

static bool playable(unsigned rows, unsigned cols)
{
    uint64_t n = sp_nc_state_count(rows, cols, SP_NC_SORTED);
    return n && n <= PLAY_MAX_STATES;
}

static bool ask_board(const char *opt, unsigned *rows, unsigned *cols)
{
    char line[256];
    board_item b;
    if (opt)
        return parse_board(opt, &b) && (*rows = b.r0, *cols = b.c0, true);
    for (;;) {
        if (!nf_prompt("Board size as ROWSxCOLUMNS (e.g. 6x6 or 8x8): ", line, sizeof line))
            return false;
        if (parse_board(line, &b) && b.r0 == b.r1 && b.c0 == b.c1 && playable(b.r0, b.c0)) {
            *rows = b.r0;
            *cols = b.c0;
            return true;
        }
        printf("Please type a board like 6x6: 1 to %d rows, 2 to %d columns, at most %llu states in the sorted\n"
               "space (8x8 and 6x10 fit, 10x10 does not).\n",
               SP_NC_MAX_ROWS, SP_NC_MAX_COLS, (unsigned long long)PLAY_MAX_STATES);
    }
}

typedef struct play_opts {
    const char *board, *first;
    uint64_t seed;
    bool have_seed;
} play_opts;

static int parse_play(int argc, char **argv, const char *prog, play_opts *o)
{
    static const struct option opts[] = {{"board", required_argument, 0, 'b'}, {"seed", required_argument, 0, 's'},
                                         {"first", required_argument, 0, 'f'}, {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    board_item b;
    bool dummy;
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h')
            return fputs(play_usage, stdout), -1;
        if (c == 'b' && !(parse_board(optarg, &b) && b.r0 == b.r1 && b.c0 == b.c1 && playable(b.r0, b.c0)))
            return sp_cli_usage(prog, "--board needs ROWSxCOLUMNS like 6x6 with at most %llu sorted states, not '%s'",
                                (unsigned long long)PLAY_MAX_STATES, optarg);
        if (c == 'b')
            o->board = optarg;
        if (c == 's' && !sp_cli_parse_u64(optarg, 0, UINT64_MAX, &o->seed))
            return sp_cli_usage(prog, "--seed needs a non-negative number, not '%s'", optarg);
        o->have_seed |= c == 's';
        if (c == 'f' && !nf_parse_first(optarg, &dummy))
            return sp_cli_usage(prog, "--first needs 'me' or 'machine', not '%s'", optarg);
        if (c == 'f')
            o->first = optarg;
        if (c == '?' || c == ':')
            return sp_cli_bad_option(prog, argv, "");
    }
    if (optind != argc)
        return sp_cli_usage(prog, "unexpected argument '%s' (see --help)", argv[optind]);
    return 0;
}

static int play(int argc, char **argv, const nf_cmdline *cl)
{
    (void)cl;
    const char *prog = "nimfam northcott play";
    play_opts o = {NULL, NULL, 0, false};
    int rc = parse_play(argc, argv, prog, &o);
    if (rc)
        return rc < 0 ? SP_EXIT_OK : rc;
    unsigned rows, cols;
    bool human_first;
    printf("Northcott's game: slide one of your checkers along its row, either way, never onto or over\n"
           "the other checker. Who cannot move loses. X moves first.\n");
    if (!ask_board(o.board, &rows, &cols) || !nf_who_starts(o.first, &human_first))
        return nf_input_ended();
    uint64_t seed = o.have_seed ? o.seed : (uint64_t)time(NULL) * 1000003u ^ (uint64_t)getpid();
    printf("Board %ux%u dealt from seed %llu (replay it with --board %ux%u --seed %llu).\n", rows, cols,
           (unsigned long long)seed, rows, cols, (unsigned long long)seed);
    printf("You play %s.\n", human_first ? "X (the left checkers, moving first)" : "O (the right checkers)");
    uint64_t n = sp_nc_state_count(rows, cols, SP_NC_SORTED);
    printf("The machine solves the whole board first (%llu states, %.0f MiB)%s.\n", (unsigned long long)n,
           2.0 * (double)n / 1048576.0, n > 10000000 ? "; this takes a while" : "");
    machine m;
    if (!machine_init(&m, rows, cols, human_first ? 1 : 0, seed)) {
        machine_free(&m);
        return sp_cli_fail(prog, "out of memory for the machine's tables");
    }
    sp_nc_pos p;
    deal(&p, rows, cols, seed);
    bool finished = play_game(&m, &p);
    machine_free(&m);
    return finished ? SP_EXIT_OK : nf_input_ended();
}

const nf_game nf_northcott = {"northcott", "Northcott's game: a checker of each player per row", verify, play};
