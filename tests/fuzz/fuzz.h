/* fuzz.h: what the text targets of tests/fuzz share: the fuzzer's bytes as a C string. */
#ifndef SP_FUZZ_H
#define SP_FUZZ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The bytes with a NUL after them (malloc'ed), or NULL when longer than max: long inputs only
 * repeat what short ones test, more slowly. */
static inline char *sp_fuzz_text(const uint8_t *data, size_t size, size_t max)
{
    char *text = size <= max ? malloc(size + 1) : NULL;
    if (text) {
        memcpy(text, data, size);
        text[size] = '\0';
    }
    return text;
}

#endif
