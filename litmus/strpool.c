/* A string pool: copies and arrays packed into blocks that double in size. */
#include "litmus/strpool.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The first block's room: the names, instruction texts and arrays of most
 * tests in one block, 2 KB with its header (util/fast_malloc.c keeps freed
 * blocks by size class: the next test takes it again).  With fewer blocks,
 * strpool_owns walks fewer (litmus_free asks for every string); 976 bytes
 * took 2.7 blocks a test of the corpus. */
#define STRPOOL_FIRST_ROOM 2016

/* Blocks of the first room a pool takes before its blocks double: each
 * comes from malloc's per-size caches. */
#define STRPOOL_SMALL_BLOCKS 4

/* Puts a new block with room for at least size bytes first in the pool:
 * STRPOOL_FIRST_ROOM for the first STRPOOL_SMALL_BLOCKS blocks, then twice
 * the last one's room; NULL when out of memory. */
static struct strpool_block *new_block(struct strpool *pool, size_t size)
{
    struct strpool_block *b = pool->blocks;
    if (size >= SIZE_MAX / 4)
        return NULL;
    size_t index = b ? b->index + 1 : 0;
    size_t room = index < STRPOOL_SMALL_BLOCKS ? STRPOOL_FIRST_ROOM : b->room * 2;
    while (room < size)
        room *= 2;
    struct strpool_block *fresh = malloc(sizeof *fresh + room);
    if (!fresh)
        return NULL;
    fresh->next = b;
    fresh->used = 0;
    fresh->room = room;
    fresh->index = index;
    pool->blocks = fresh;
    return fresh;
}

/* Puts a NUL-terminated copy of the len bytes at s at the end of block b. */
static char *copy_into(struct strpool_block *b, const char *s, size_t len)
{
    char *copy = b->bytes + b->used;
    copy[len] = '\0';
    b->used += len + 1;
    return memcpy(copy, s, len);   /* the last call: a jump */
}

/* strpool_copy into a new block (out of its path, which then saves no
 * registers); NULL when out of memory. */
__attribute__((noinline))
static char *copy_into_new_block(struct strpool *pool, const char *s, size_t len)
{
    struct strpool_block *b = new_block(pool, len + 1);
    return b ? copy_into(b, s, len) : NULL;
}

/* A NUL-terminated copy of the len bytes at s, in the pool. */
char *strpool_copy(struct strpool *pool, const char *s, size_t len)
{
    struct strpool_block *b = pool->blocks;
    if (!b || b->room - b->used <= len)
        return copy_into_new_block(pool, s, len);
    return copy_into(b, s, len);
}

/* Room for size bytes aligned for any type, in the pool. */
void *strpool_alloc(struct strpool *pool, size_t size)
{
    size_t align = _Alignof(max_align_t);
    struct strpool_block *b = pool->blocks;
    size_t at = b ? (b->used + align - 1) / align * align : 0;
    if (!b || at > b->room || b->room - at < size) {
        if (!(b = new_block(pool, size)))
            return NULL;
        at = 0;
    }
    b->used = at + size;
    return b->bytes + at;
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
