/* glop.c: the one table of GLOP's published minimal database sizes (glop.h), as its authors give
 * them; nothing here is computed or measured by this program. */
#include "glop.h"

#include <stddef.h>

/* Source: GLOP (Julien Lemoine and Simon Viennot), the records page of its site,
 * http://sprouts.tuxfamily.org/wiki/doku.php?id=records, "minimal databases": for each 0*n of normal
 * play it lists, the number of losing couples (P, k) from which the outcome is checked. Copied as
 * issue 21 quotes them; sizes the page does not list are absent. */
static const struct {
    unsigned n;
    int64_t couples;
} published[] = {
    {2, 3},     {3, 6},     {4, 15},    {5, 15},    {6, 43},    {7, 65},    {8, 137},
    {9, 58},    {10, 110},  {11, 113},  {16, 669},  {17, 329},  {18, 1997}, {19, 1736},
    {20, 1831}, {21, 5312}, {22, 1581}, {23, 1058}, {24, 5327}, {25, 2497},
};

int64_t sp_glop_min_database(unsigned n)
{
    for (size_t i = 0; i < sizeof published / sizeof published[0]; i++)
        if (published[i].n == n)
            return published[i].couples;
    return -1;
}
