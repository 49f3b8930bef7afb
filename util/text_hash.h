/* A hash of a string for the slots of a hash table. */
#ifndef GPUBMC_TEXT_HASH_H
#define GPUBMC_TEXT_HASH_H

#include <stdint.h>
#include <string.h>

/* Mixes the text s into h eight bytes at a time (the last ones
 * zero-filled, the length after them), folding each product's high half
 * into the low bits that a table's mask keeps. */
static inline uint64_t text_hash(uint64_t h, const char *s)
{
    size_t n = strlen(s);
    uint64_t w;
    for (; n >= 8; n -= 8, s += 8) {
        memcpy(&w, s, 8);
        h = (h ^ w) * 1099511628211u;
        h ^= h >> 29;
    }
    w = 0;
    memcpy(&w, s, n);
    h = (h ^ w ^ n) * 1099511628211u;
    return h ^ h >> 29;
}

#endif
