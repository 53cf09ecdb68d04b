/* rng.h: splitmix64, the one pseudo-random generator of the project (random games, tests, benchmarks):
 * tiny, fast, and the same sequence on every platform for a given seed. */
#ifndef SP_RNG_H
#define SP_RNG_H

#include <stdint.h>

static inline uint64_t sp_rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

#endif
