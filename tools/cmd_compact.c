/* cmd_compact.c: `sprouts compact FILE.chunks [--out F]`: rewrites a chunk file (tables/chunks.h) as
 * one chunk, each key once, sorted. */
#include <stdio.h>
#include <sys/stat.h>

#include "chunks.h"
#include "cli.h"
#include "cmds.h"

static const char usage[] =
    "Usage: sprouts compact FILE.chunks [--out F]\n"
    "Rewrites a chunk file that 'sprouts table' appends to (DIR/state/nimbers.chunks,\n"
    "DIR/state/misere-proven.chunks) as one chunk: every key once, in key order, compressed as a\n"
    "whole. The new file replaces the old one atomically (a crash leaves one or the other). A torn\n"
    "last chunk (an append killed part way) is left out with a warning; a corrupt chunk with more\n"
    "after it, or a key given two values, is refused and nothing is written.\n"
    "  --out F      write the compacted file to F instead (FILE is left as it is)\n"
    "  -h, --help\n"
    "Exit status: 0 done, 1 the new file could not be written, 2 bad usage or a file refused.\n";

static unsigned long long size_of(const char *path)
{
    struct stat st;
    return stat(path, &st) ? 0 : (unsigned long long)st.st_size;
}

int sp_cmd_compact(int argc, char **argv)
{
    static const struct option opts[] = {{"out", required_argument, 0, 'o'}, {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *prog = "sprouts compact", *out = NULL;
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h')
            return fputs(usage, stdout), SP_EXIT_OK;
        if (c != 'o')
            return sp_cli_bad_option(prog, argv, "");
        out = optarg;
    }
    if (optind != argc - 1)
        return sp_cli_usage(prog, "expects exactly one chunk file (see --help)");
    const char *in = argv[optind];
    unsigned long long before = size_of(in);
    sp_chunks_info info;
    uint64_t kept = 0;
    char err[1024];
    int rc = sp_chunks_compact(in, out, &info, &kept, err, sizeof err);
    if (info.torn)
        fprintf(stderr, "%s: %s\n", prog, info.warning);
    if (rc)
        return rc == -1 ? sp_cli_usage(prog, "%s", err) : sp_cli_fail(prog, "%s", err);
    printf("%s: %llu chunks, %llu entries, %llu bytes -> %s: 1 chunk, %llu entries, %llu bytes\n", in,
           (unsigned long long)info.chunks, (unsigned long long)info.entries, before, out ? out : in,
           (unsigned long long)kept, size_of(out ? out : in));
    return SP_EXIT_OK;
}
