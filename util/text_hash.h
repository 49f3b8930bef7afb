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
    size_t n = strlen(s), whole = n;
    uint64_t w;
    for (; n >= 8; n -= 8, s += 8) {
        memcpy(&w, s, 8);
        h = (h ^ w) * 1099511628211u;
        h ^= h >> 29;
    }
    /* the last n bytes as one word (on a little-endian machine, as a
     * copy of them zero-filled), loaded whole, not by a copy of n bytes:
     * past 8, the word that ends with them shifted; else two overlapping
     * halves, or the bytes one by one */
    uint32_t first, last;
    if (n > 0 && whole >= 8) {
        memcpy(&w, s + n - 8, 8);
        w >>= 8 * (8 - n);
    } else if (n >= 4) {
        memcpy(&first, s, 4), memcpy(&last, s + n - 4, 4);
        w = first | (uint64_t)last << 8 * (n - 4);
    } else {
        w = 0;
        for (size_t k = 0; k < n; k++)
            w |= (uint64_t)(unsigned char)s[k] << 8 * k;
    }
    h = (h ^ w ^ n) * 1099511628211u;
    return h ^ h >> 29;
}

#endif
