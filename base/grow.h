/* grow.h: growable arrays, the one helper every module uses for them: capacity doubles, so appending
 * stays amortised O(1). */
#ifndef SP_GROW_H
#define SP_GROW_H

#include <stdlib.h>

/* Makes room for `need` elements of `elem` bytes in *p (capacity *cap); returns 0, or -1 out of memory
 * (*p is then unchanged). */
static inline int sp_grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

#endif
