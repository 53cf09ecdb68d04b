/* published.c: the one table of published outcomes of 0*n (published.h), as their authors give them;
 * nothing here is computed by this program, and no answer it prints comes from here. */
#include "published.h"

#include <string.h>

/* Normal play, n = 1..105, one letter per n: Table 2 of Cizek, Balko and Schmid, "Solving Sprouts"
 * (SPOTS, arXiv 2511.10339, 2025), which gathers the earlier results (Conway, Mollison, Applegate,
 * Jacobson and Sleator 1991, AuntBeast 2006, GLOP) with its own; '?': nobody has solved it. */
static const char normal[] = "LLWWWLLLWWWLLLWWWLLLWWWLLLWWWLLLWWWLLLWWWLLLWWWLLLWWWLLLWWWLLL"
                             "?WW?LL?WW?LL?WW?LL?WW?LL?WW?LL?WW?LL?W??LL?";

/* Misère play, n = 1..20: OEIS A164950, from GLOP (Lemoine and Viennot, February 2011). */
static const char misere[] = "WLLLWWLLLWWWLLLWWWLL";

char sp_published_outcome(int misere_play, unsigned n)
{
    const char *s = misere_play ? misere : normal;
    if (n == 0 || n > strlen(s))
        return 0;
    return s[n - 1] == '?' ? 0 : s[n - 1];
}

const char *sp_published_source(int misere_play)
{
    return misere_play ? "OEIS A164950, from GLOP (Lemoine and Viennot, 2011)"
                       : "Table 2 of SPOTS (Cizek, Balko, Schmid 2025), with the results before it";
}
