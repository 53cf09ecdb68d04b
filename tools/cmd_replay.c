/* cmd_replay.c: `sprouts replay [FILE|-]`: reads a game record, replays it (canon/replay.h) and prints
 * each move with the position after it; with --analyse also who wins there and which moves threw a win away;
 * with --svg a picture of the drawing (canon/drawing.h, layout.h, drawsvg.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmds.h"
#include "drawing.h"
#include "drawsvg.h"
#include "grow.h"
#include "layout.h"
#include "options.h"
#include "posarg.h"
#include "quote.h"
#include "replay.h"

static const char usage[] =
    "Usage: sprouts replay [FILE|-] [--analyse] [--budget-ms N] [--json] [--svg OUT.svg [--move K]]\n"
    "                     [--threads N] [--tt-mb M]\n"
    "Replays a game record in the players' notation (Conway / WGOSA, with Hoey's '!'), read from FILE\n"
    "or standard input, e.g. '5+ (Ann - Bob*) 1(6)2 3(7)4 6!(8)7 1(9)1 [5]'. Prints one line per move:\n"
    "its number, the move, the lives left in the drawing and the canonical position after it.\n"
    "  --analyse      also the outcome for the player to move after each move (normal or misère play,\n"
    "                 as the header says; '?' when not decided in the budget), and 'mistake' on each\n"
    "                 move that turned a won position into a lost one\n"
    "  --budget-ms N  solver time for each position in milliseconds (default 2000)\n"
    "  --json         print one JSON object instead of text\n"
    "  --svg OUT.svg  also draw the game into OUT.svg: spots numbered as in the record, the regions,\n"
    "                 live spots in green with their lives, the last move in red (one of the drawings\n"
    "                 when the record allows several: the picture says so)\n"
    "  --move K       the drawing after move K (0: the start; default: the last move)\n"
    "  --threads N    solver threads (default: all cores)\n"
    "  --tt-mb M      solver transposition table in MiB (default 64)\n"
    "  -h, --help\n"
    "Exit status: 0 legal record (an ambiguous one gets a note on stderr), 1 out of memory,\n"
    "2 bad usage, or a malformed or illegal record (the reason on stderr).\n";

#define MAX_INPUT (1u << 20)

typedef struct replay_args {
    sp_solver_opts opts;
    int analyse, json, has_move;
    unsigned budget_ms;
    size_t move;       /* --move */
    const char *svg;   /* --svg: the picture's file, or NULL */
    const char *file; /* NULL or "-": standard input */
} replay_args;

static int parse(int argc, char **argv, replay_args *a)
{
    static const struct option opts[] = {
        {"analyse", no_argument, 0, 'a'},  {"analyze", no_argument, 0, 'a'},    {"budget-ms", required_argument, 0, 'b'},
        {"json", no_argument, 0, 'j'},     {"svg", required_argument, 0, 's'}, {"move", required_argument, 0, 'm'},
        {"threads", required_argument, 0, 't'}, {"tt-mb", required_argument, 0, 'T'},
        {"help", no_argument, 0, 'h'},     {0, 0, 0, 0}};
    const char *prog = "sprouts replay";
    int c, rc = 0;
    uint64_t v;
    while (rc == 0 && (c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'h': fputs(usage, stdout); return -1;
        case 'a': a->analyse = 1; break;
        case 'j': a->json = 1; break;
        case 'b':
            if (!sp_cli_parse_u64(optarg, 1, 3600000, &v))
                return sp_cli_usage(prog, "--budget-ms needs a number of milliseconds from 1 to 3600000, not '%s'", optarg);
            a->budget_ms = (unsigned)v;
            break;
        case 's': rc = sp_cli_path(prog, "--svg", optarg, &a->svg); break;
        case 'm':
            if (!sp_cli_parse_u64(optarg, 0, 1000000, &v))
                return sp_cli_usage(prog, "--move needs a move number (0: the start), not '%s'", optarg);
            a->move = (size_t)v;
            a->has_move = 1;
            break;
        case 't': rc = sp_opt_threads(prog, optarg, &a->opts); break;
        case 'T': rc = sp_opt_tt_mb(prog, optarg, &a->opts); break;
        default: return sp_cli_bad_option(prog, argv, "");
        }
    }
    if (rc)
        return rc;
    if (a->has_move && !a->svg)
        return sp_cli_usage(prog, "--move says which drawing --svg writes; give --svg too");
    if (optind < argc - 1)
        return sp_cli_usage(prog, "expects at most one record file (see --help)");
    a->file = optind < argc ? argv[optind] : NULL;
    return 0;
}

/* ---------------------------------------------------------------- input */

/* The whole input as a NUL-terminated string, or NULL after printing why. */
static char *read_input(const char *prog, const char *file)
{
    bool std = !file || !strcmp(file, "-");
    FILE *f = std ? stdin : fopen(file, "rb");
    char q[4 * SP_QUOTE_MAX + 8];
    sp_quote(std ? "standard input" : file, SP_QUOTE_MAX, q, sizeof q);
    if (!f) {
        sp_cli_usage(prog, "cannot open '%s'", q);
        return NULL;
    }
    char *buf = malloc(MAX_INPUT + 1);
    size_t n = buf ? fread(buf, 1, MAX_INPUT + 1, f) : 0;
    bool err = ferror(f);
    if (!std)
        fclose(f);
    const char *name = q;
    const char *why = !buf ? "out of memory reading" : err ? "cannot read" : n > MAX_INPUT ? "larger than 1 MiB:"
                      : memchr(buf, '\0', n) ? "not text:" : NULL;
    if (why) {
        sp_cli_usage(prog, "%s %s", why, name);
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

/* ---------------------------------------------------------------- analysis */

typedef struct step_info {
    char *position;     /* the positions of the surviving readings, joined by " or " */
    sp_outcome outcome; /* for the player to move; SP_UNKNOWN when not analysed or not decided */
} step_info;

/* One outcome for a step: the same for every position of the step, or unknown. */
static sp_outcome step_outcome(sp_solver *s, const sp_replay *r, size_t step, sp_play play, unsigned ms)
{
    sp_outcome all = SP_UNKNOWN;
    for (size_t i = 0; i < sp_replay_npos(r, step); i++) {
        size_t len;
        const sp_tok *key = sp_replay_pos(r, step, i, &len);
        sp_solver_set_time_limit(s, ms / 1000.0);
        sp_outcome o = sp_solver_outcome(s, key, len, play);
        if (o == SP_UNKNOWN || (i > 0 && o != all))
            return SP_UNKNOWN;
        all = o;
    }
    return all;
}

/* Outcomes of every step, the last first: the small positions near the end fill the solver's table
 * with what the earlier ones need. Returns 0, or 1 when the solver cannot be made. */
static int analyse(const replay_args *a, bool misere, const sp_replay *r, step_info *info)
{
    sp_solver_opts opts = a->opts;
    if (!opts.tt_bytes)
        opts.tt_bytes = (size_t)64 << 20;
    sp_solver *s = sp_solver_new(&opts);
    if (!s)
        return sp_cli_fail("sprouts replay", "cannot allocate the solver's table (try a smaller --tt-mb)");
    sp_play play = misere ? SP_PLAY_MISERE : SP_PLAY_NORMAL;
    for (size_t k = sp_replay_steps(r); k-- > 0;)
        info[k].outcome = step_outcome(s, r, k, play, a->budget_ms);
    sp_solver_free(s);
    return 0;
}

/* A move threw a win away: its mover could win before it, and the opponent can win after it. */
static bool mistake(const step_info *info, size_t k)
{
    return info[k - 1].outcome == SP_WIN && info[k].outcome == SP_WIN;
}

static bool decided(const step_info *info, size_t k)
{
    return info[k - 1].outcome != SP_UNKNOWN && info[k].outcome != SP_UNKNOWN;
}

static const char *outcome_word(sp_outcome o, const char *unknown)
{
    return o == SP_WIN ? "win" : o == SP_LOSS ? "loss" : unknown;
}

/* ---------------------------------------------------------------- positions */

static char *positions_text(const sp_replay *r, size_t step)
{
    size_t cap = 64, len = 0;
    char *out = malloc(cap);
    for (size_t i = 0; out && i < sp_replay_npos(r, step); i++) {
        size_t klen;
        const sp_tok *key = sp_replay_pos(r, step, i, &klen);
        size_t need = sp_tool_key_string(key, klen, 0, NULL, 0) + 5;
        if (sp_grow((void **)&out, &cap, len + need + 1, 1)) {
            free(out);
            return NULL;
        }
        if (i)
            len += (size_t)snprintf(out + len, cap - len, " or ");
        len += sp_tool_key_string(key, klen, 0, out + len, cap - len);
    }
    return out;
}

static step_info *make_info(const sp_replay *r)
{
    size_t n = sp_replay_steps(r);
    step_info *info = calloc(n ? n : 1, sizeof *info);
    for (size_t k = 0; info && k < n; k++) {
        info[k].outcome = SP_UNKNOWN;
        if (!(info[k].position = positions_text(r, k))) {
            while (k-- > 0)
                free(info[k].position);
            free(info);
            return NULL;
        }
    }
    return info;
}

static void free_info(step_info *info, size_t n)
{
    for (size_t k = 0; info && k < n; k++)
        free(info[k].position);
    free(info);
}

/* ---------------------------------------------------------------- notes on the result */

/* Who won by the rules when the replay reached a position without moves: 0 if it did not. */
static unsigned rule_winner(const sp_record *rec, const sp_replay *r)
{
    size_t steps = sp_replay_steps(r), len;
    if (!sp_replay_legal(r) || steps == 0 || sp_replay_npos(r, steps - 1) != 1)
        return 0;
    size_t last = steps - 1;
    sp_replay_pos(r, last, 0, &len);
    if (len != 0)
        return 0;
    unsigned last_mover = rec->nmoves % 2 ? 1 : 2;
    return rec->misere ? 3 - last_mover : last_mover;
}

static void print_notes(const sp_record *rec, const sp_replay *r)
{
    const char *prog = "sprouts replay";
    size_t classes = sp_replay_classes(r), npos = classes > 1 ? sp_replay_npos(r, sp_replay_steps(r) - 1) : 1;
    if (classes > 1 && npos > 1)
        fprintf(stderr, "%s: note: the record is ambiguous: %zu drawings fit it (not mirror images of each other), "
                        "and they differ as positions at the end\n", prog, classes);
    else if (classes > 1)
        fprintf(stderr, "%s: note: the record is ambiguous: %zu drawings fit it (not mirror images of each other), "
                        "all one position at the end\n", prog, classes);
    unsigned w = rule_winner(rec, r);
    if (w && rec->winner && w != rec->winner)
        fprintf(stderr, "%s: note: the record says %s won, but the game is over and %s won it\n", prog,
                rec->winner == 1 ? "I" : "II", w == 1 ? "I" : "II");
}

/* ---------------------------------------------------------------- text output */

static size_t move_width(const sp_record *rec, size_t moves)
{
    size_t w = 5; /* "start" */
    for (size_t i = 0; i < moves; i++) {
        size_t n = sp_rec_move_text(rec, i, NULL, 0);
        w = n > w ? n : w;
    }
    return w;
}

static void print_text(const replay_args *a, const sp_record *rec, const sp_replay *r, const step_info *info)
{
    size_t steps = sp_replay_steps(r), w = move_width(rec, steps ? steps - 1 : 0);
    printf("# %u spots, %s play", rec->spots, rec->misere ? "misere" : "normal");
    for (unsigned i = 0; i < rec->nplayers; i++)
        printf("%s%s%s", i ? " - " : ", ", rec->player[i], rec->chooser == i + 1 ? "*" : "");
    if (rec->winner)
        printf(", won by %s", rec->winner == 1 ? "I" : "II");
    printf("\n%3s  %-*s  %5s  %s%s\n", "#", (int)w, "move", "lives", a->analyse ? "to move  mistake  " : "", "position");
    for (size_t k = 0; k < steps; k++) {
        char move[256] = "start";
        if (k)
            sp_rec_move_text(rec, k - 1, move, sizeof move);
        printf("%3zu  %-*s  %5u  ", k, (int)w, move, sp_replay_lives(r, k));
        if (a->analyse)
            printf("%-7s  %-7s  ", outcome_word(info[k].outcome, "?"), k && mistake(info, k) ? "mistake" : "");
        printf("%s\n", info[k].position);
    }
}

/* ---------------------------------------------------------------- JSON output */

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static void json_step(const replay_args *a, const sp_replay *r, const step_info *info, size_t k)
{
    printf("\"position\": ");
    json_string(info[k].position);
    printf(", \"lives\": %u", sp_replay_lives(r, k));
    if (a->analyse)
        printf(", \"outcome\": \"%s\"", outcome_word(info[k].outcome, "unknown"));
    if (a->analyse && k && decided(info, k))
        printf(", \"mistake\": %s", mistake(info, k) ? "true" : "false");
}

static void json_header(const sp_record *rec)
{
    printf("{\"spots\": %u, \"play\": \"%s\", \"players\": [", rec->spots, rec->misere ? "misere" : "normal");
    for (unsigned i = 0; i < rec->nplayers; i++) {
        printf(i ? ", " : "");
        json_string(rec->player[i]);
    }
    printf("]");
    if (rec->chooser)
        printf(", \"chooser\": %u", rec->chooser);
    if (rec->winner)
        printf(", \"winner\": %u", rec->winner);
}

static void print_json(const replay_args *a, const sp_record *rec, const sp_replay *r, const step_info *info)
{
    size_t steps = sp_replay_steps(r);
    json_header(rec);
    if (steps) {
        printf(", \"start\": {");
        json_step(a, r, info, 0);
        printf("}");
    }
    printf(", \"moves\": [");
    for (size_t k = 1; k < steps; k++) {
        char move[256];
        sp_rec_move_text(rec, k - 1, move, sizeof move);
        printf("%s{\"move\": ", k > 1 ? ", " : "");
        json_string(move);
        printf(", ");
        json_step(a, r, info, k);
        printf("}");
    }
    printf("], \"legal\": %s, \"readings\": %zu, \"ambiguous\": %s", sp_replay_legal(r) ? "true" : "false",
           sp_replay_classes(r), sp_replay_classes(r) > 1 ? "true" : "false");
    if (!sp_replay_legal(r)) {
        printf(", \"error_move\": %zu, \"error\": ", sp_replay_error_move(r));
        json_string(sp_replay_error(r));
    }
    printf("}\n");
}

/* ---------------------------------------------------------------- errors */

static int parse_error(const replay_args *a, const sp_rec_error *e)
{
    char name[4 * SP_QUOTE_MAX + 8];
    sp_quote(a->file && strcmp(a->file, "-") ? a->file : "standard input", SP_QUOTE_MAX, name, sizeof name);
    if (a->json) {
        char msg[256];
        snprintf(msg, sizeof msg, "line %u, column %u: %s", e->line, e->column, e->message);
        printf("{\"moves\": [], \"legal\": false, \"error_line\": %u, \"error_column\": %u, \"error\": ", e->line,
               e->column);
        json_string(msg);
        printf("}\n");
    }
    return sp_cli_usage("sprouts replay", "%s: line %u, column %u: %s", name, e->line, e->column, e->message);
}

static int illegal(const sp_record *rec, const sp_replay *r)
{
    size_t k = sp_replay_error_move(r);
    if (k == 0)
        return sp_cli_usage("sprouts replay", "%s", sp_replay_error(r));
    char move[256];
    sp_rec_move_text(rec, k - 1, move, sizeof move);
    return sp_cli_usage("sprouts replay", "move %zu '%s' (line %u, column %u): %s", k, move, rec->moves[k - 1].line,
                        rec->moves[k - 1].column, sp_replay_error(r));
}

/* ---------------------------------------------------------------- the picture */

/* The record's name for the caption: its file's name without the directory. */
static const char *record_name(const char *file)
{
    if (!file || !strcmp(file, "-"))
        return "standard input";
    const char *slash = strrchr(file, '/');
    return slash ? slash + 1 : file;
}

static int draw_picture(const replay_args *a, const sp_record *rec, const sp_draw *d, size_t drawings)
{
    const char *prog = "sprouts replay";
    char q[4 * SP_QUOTE_MAX + 8], move[256] = "";
    sp_quote(a->svg, SP_QUOTE_MAX, q, sizeof q);
    size_t k = a->has_move ? a->move : rec->nmoves;
    if (k)
        sp_rec_move_text(rec, k - 1, move, sizeof move);
    sp_layout l;
    if (sp_layout_make(d, &l))
        return sp_cli_fail(prog, "out of memory laying out the drawing");
    size_t crossed = sp_layout_crossings(l.cx, l.cy, l.ncurve);
    if (crossed) /* the layout promises none; say so rather than hand out a wrong picture silently */
        fprintf(stderr, "%s: warning: %zu pairs of curve pieces cross in the picture (the layout ran out of precision)\n",
                prog, crossed);
    FILE *f = fopen(a->svg, "w");
    sp_svg_caption cap = {record_name(a->file), k ? move : NULL, k, rec->nmoves, drawings};
    int bad = !f || sp_draw_svg(f, d, &l, &cap);
    bad |= f && fclose(f);
    sp_layout_free(&l);
    return bad ? sp_cli_usage(prog, "cannot write '%s'", q) : 0;
}

/* Writes the picture --svg asks for, of the moves the replay found legal. */
static int picture(const replay_args *a, const sp_record *rec)
{
    const char *prog = "sprouts replay";
    size_t k = a->has_move ? a->move : rec->nmoves;
    sp_draw_replay *dr = sp_draw_replay_new(rec);
    sp_draw *d = malloc(sizeof *d);
    int rc;
    if (!dr || !d)
        rc = sp_cli_fail(prog, "out of memory drawing the game");
    else if (k >= sp_draw_replay_steps(dr))
        rc = sp_cli_usage(prog, "--svg: cannot draw the game after move %zu, which is not legal", k);
    else {
        size_t drawings;
        sp_draw_replay_at(dr, k, d, &drawings);
        rc = draw_picture(a, rec, d, drawings);
    }
    free(d);
    sp_draw_replay_free(dr);
    return rc;
}

/* ---------------------------------------------------------------- the subcommand */

static int report(const replay_args *a, const sp_record *rec, const sp_replay *r)
{
    step_info *info = make_info(r);
    if (!info)
        return sp_cli_fail("sprouts replay", "out of memory");
    int rc = a->analyse && sp_replay_steps(r) ? analyse(a, rec->misere, r, info) : 0;
    if (rc == 0) {
        (a->json ? print_json : print_text)(a, rec, r, info);
        fflush(stdout);
        print_notes(rec, r);
        rc = sp_replay_legal(r) ? SP_EXIT_OK : illegal(rec, r);
    }
    free_info(info, sp_replay_steps(r));
    return rc;
}

int sp_cmd_replay(int argc, char **argv)
{
    replay_args a;
    memset(&a, 0, sizeof a);
    a.budget_ms = 2000;
    int rc = parse(argc, argv, &a);
    if (rc)
        return rc < 0 ? SP_EXIT_OK : rc;
    char *text = read_input("sprouts replay", a.file);
    if (!text)
        return SP_EXIT_USAGE;
    sp_record rec;
    sp_rec_error err;
    rc = sp_rec_parse(text, &rec, &err);
    free(text);
    if (rc)
        return parse_error(&a, &err);
    if (a.has_move && a.move > rec.nmoves) {
        rc = sp_cli_usage("sprouts replay", "--move %zu: the record has %zu moves (0: the start)", a.move, rec.nmoves);
        sp_rec_free(&rec);
        return rc;
    }
    sp_canon_ctx *ctx = sp_canon_ctx_new();
    sp_replay *r = sp_replay_new();
    if (!ctx || !r || sp_replay_run(r, &rec, ctx))
        rc = sp_cli_fail("sprouts replay", "out of memory");
    else
        rc = report(&a, &rec, r);
    if (rc == SP_EXIT_OK && a.svg)
        rc = picture(&a, &rec);
    sp_replay_free(r);
    sp_canon_ctx_free(ctx);
    sp_rec_free(&rec);
    return rc;
}
