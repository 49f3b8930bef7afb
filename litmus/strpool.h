/* A string pool: NUL-terminated copies (and arrays) packed into a few
 * blocks, freed all at once.  The parser copies a test's names into the
 * pool of its struct litmus instead of allocating each one, and takes the
 * arrays that only grow while it parses (threads, locations, registers,
 * labels) from it. */
#ifndef GPUBMC_LITMUS_STRPOOL_H
#define GPUBMC_LITMUS_STRPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A block of a pool (its fields are strpool.c's; strpool_owns reads them
 * inline, as litmus_free asks it of every string). */
struct strpool_block {
    struct strpool_block *next;
    size_t used, room;
    size_t index;            /* blocks before this one */
    _Alignas(max_align_t) char bytes[];
};

/* An empty pool is all zero. */
struct strpool {
    struct strpool_block *blocks;   /* the newest first */
};

/* A NUL-terminated copy of the len bytes at s, in the pool; NULL when
 * out of memory. */
char *strpool_copy(struct strpool *pool, const char *s, size_t len);

/* Room for size bytes (size > 0) aligned for any type, in the pool, not
 * zeroed; NULL when out of memory. */
void *strpool_alloc(struct strpool *pool, size_t size);

/* True when s points into a string or an array of the pool. */
static inline bool strpool_owns(const struct strpool *pool, const char *s)
{
    uintptr_t at = (uintptr_t)s;
    for (const struct strpool_block *b = pool->blocks; b; b = b->next)
        if (at >= (uintptr_t)b->bytes && at < (uintptr_t)b->bytes + b->used)
            return true;
    return false;
}

/* Frees every string of the pool, which is empty again. */
void strpool_free(struct strpool *pool);

#endif
