/* A string pool: copies packed into blocks that double in size. */
#include "litmus/strpool.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The first block's room: the names and instruction texts of most tests
 * (with its header, under the 1 KB that malloc keeps cached chunks of). */
#define STRPOOL_FIRST_ROOM 976

struct strpool_block {
    struct strpool_block *next;
    size_t used, room;
    char bytes[];
};

/* A NUL-terminated copy of the len bytes at s, in the pool. */
char *strpool_copy(struct strpool *pool, const char *s, size_t len)
{
    struct strpool_block *b = pool->blocks;
    if (len >= SIZE_MAX / 4)
        return NULL;
    if (!b || b->room - b->used < len + 1) {
        size_t room = b ? b->room * 2 : STRPOOL_FIRST_ROOM;
        while (room < len + 1)
            room *= 2;
        struct strpool_block *fresh = malloc(sizeof *fresh + room);
        if (!fresh)
            return NULL;
        fresh->next = b;
        fresh->used = 0;
        fresh->room = room;
        pool->blocks = b = fresh;
    }
    char *copy = b->bytes + b->used;
    memcpy(copy, s, len);
    copy[len] = '\0';
    b->used += len + 1;
    return copy;
}

/* True when s points into a string of the pool. */
bool strpool_owns(const struct strpool *pool, const char *s)
{
    uintptr_t at = (uintptr_t)s;
    for (const struct strpool_block *b = pool->blocks; b; b = b->next)
        if (at >= (uintptr_t)b->bytes && at < (uintptr_t)b->bytes + b->used)
            return true;
    return false;
}

/* Frees every block. */
void strpool_free(struct strpool *pool)
{
    struct strpool_block *b = pool->blocks;
    while (b) {
        struct strpool_block *next = b->next;
        free(b);
        b = next;
    }
    pool->blocks = NULL;
}
