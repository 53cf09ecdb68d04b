/* cmd_compact.c: `sprouts compact FILE.chunks [--out F] [--drop-derivable] [--min-lives L]`: rewrites a
 * chunk file (tables/chunks.h) as one chunk, each key once, sorted; optionally without the derivable
 * nimbers or those of small lands. */
#include <stdbool.h>
#include <stdio.h>

#include "chunks.h"
#include "cli.h"
#include "cmds.h"
#include "file.h"
#include "derive.h"
#include "options.h"
#include "progress.h"

static const char usage[] =
    "Usage: sprouts compact FILE.chunks [--out F] [--min-lives L] [--drop-derivable [--threads N]]\n"
    "                       [--quiet]\n"
    "Rewrites a chunk file that 'sprouts table' appends to (DIR/state/nimbers.chunks,\n"
    "DIR/state/misere-proven.chunks, DIR/state/misere-lost.chunks) as one chunk: every key once, in\n"
    "key order, compressed as a whole. The new file replaces the old one atomically (a crash leaves one or the other), and its\n"
    "segments (FILE.1, FILE.2, ...: one per append) are removed. A torn last chunk (an append of\n"
    "older versions killed part way) is left out with a warning; a corrupt chunk with more\n"
    "after it, or a key given two values, is refused and nothing is written.\n"
    "  --out F      write the compacted file to F instead (FILE is left as it is)\n"
    "  --drop-derivable  land nimbers only: leave out those of the lands every child of which is\n"
    "               made of lands the file has (one expansion recovers them from the others; the\n"
    "               solver does it when it needs one). Each land is expanded: slow for large files\n"
    "  --min-lives L  land nimbers only: leave out those of the lands of fewer than L lives (the\n"
    "               solver finds them again in moments; the costly large lands are what a resumed\n"
    "               run needs)\n"
    "  --threads N  threads of --drop-derivable (default: all cores)\n"
    "  --quiet      no progress lines on stderr\n"
    "  -h, --help\n"
    "Exit status: 0 done, 1 the new file could not be written, 2 bad usage or a file refused.\n";

/* Ends a reading at its first entry: enough to know the file's kind. */
static int first_only(void *arg, const sp_tok *key, size_t len, uint32_t value)
{
    (void)arg, (void)key, (void)len, (void)value;
    return 1;
}

int sp_cmd_compact(int argc, char **argv)
{
    static const struct option opts[] = {{"out", required_argument, 0, 'o'},
                                         {"drop-derivable", no_argument, 0, 'd'},
                                         {"min-lives", required_argument, 0, 'm'},
                                         {"threads", required_argument, 0, 'T'},
                                         {"quiet", no_argument, 0, 'q'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *prog = "sprouts compact", *out = NULL;
    sp_solver_opts so = {0};
    bool derive = false, quiet = false;
    uint64_t min_lives = 0;
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h')
            return fputs(usage, stdout), SP_EXIT_OK;
        if (c == 'o') {
            if (sp_cli_path(prog, "--out", optarg, &out))
                return SP_EXIT_USAGE;
        }
        else if (c == 'd')
            derive = true;
        else if (c == 'q')
            quiet = true;
        else if (c == 'm') {
            if (!sp_cli_parse_u64(optarg, 1, 100000, &min_lives))
                return sp_cli_usage(prog, "--min-lives expects a whole number from 1 to 100000, not '%s'", optarg);
        }
        else if (c != 'T')
            return sp_cli_bad_option(prog, argv, "");
        else if (sp_opt_threads(prog, optarg, &so))
            return SP_EXIT_USAGE;
    }
    if (optind != argc - 1)
        return sp_cli_usage(prog, "expects exactly one chunk file (see --help)");
    const char *in = argv[optind];
    unsigned long long before = (unsigned long long)sp_chunks_size(in);
    sp_chunks_info info;
    uint64_t kept = 0;
    char err[1024];
    bool filter = derive || min_lives;
    if (filter && sp_chunks_read(in, SP_CHUNKS_NIMBERS, first_only, NULL, &info, err, sizeof err) < 0)
        return sp_cli_usage(prog, "%s (--drop-derivable and --min-lives are for land nimbers only)", err);
    sp_progress progress;
    sp_progress_init(&progress, prog, quiet ? NULL : stderr);
    progress.phase = "expanding the lands";
    sp_derive_opts d = {.threads = so.threads, .progress = sp_progress_facts, .arg = &progress,
                        .min_lives = (unsigned)min_lives, .derivable = derive};
    int rc = sp_chunks_compact_filtered(in, out, filter ? sp_derive_drop_small : NULL, &d, &info, &kept, err,
                                        sizeof err);
    sp_progress_done(&progress);

    if (info.torn)
        fprintf(stderr, "%s: %s\n", prog, info.warning);
    if (rc)
        return rc == -1 ? sp_cli_usage(prog, "%s", err) : sp_cli_fail(prog, "%s", err);
    printf("%s: %llu chunks, %llu entries, %llu bytes -> %s: 1 chunk, %llu entries, %llu bytes\n", in,
           (unsigned long long)info.chunks, (unsigned long long)info.entries, before, out ? out : in,
           (unsigned long long)kept, (unsigned long long)sp_chunks_size(out ? out : in));
    return SP_EXIT_OK;
}
