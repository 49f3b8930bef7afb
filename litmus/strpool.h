/* A string pool: NUL-terminated copies (and arrays) packed into a few
 * blocks, freed all at once.  The parser copies a test's names into the
 * pool of its struct litmus instead of allocating each one, and takes the
 * arrays that only grow while it parses (threads, locations, registers,
 * labels) from it. */
#ifndef GPUBMC_LITMUS_STRPOOL_H
#define GPUBMC_LITMUS_STRPOOL_H

#include <stdbool.h>
#include <stddef.h>

struct strpool_block;

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
bool strpool_owns(const struct strpool *pool, const char *s);

/* Frees every string of the pool, which is empty again. */
void strpool_free(struct strpool *pool);

#endif
