/* Allocation that never returns NULL: out of memory ends the process with a message. */
#ifndef GPUBMC_XALLOC_H
#define GPUBMC_XALLOC_H

#include <stddef.h>
#include <stdlib.h>

/* Ends the process with "gpubmc: out of memory". */
_Noreturn void xalloc_failed(void);

/* calloc that aborts with a message on failure (inline: a call to calloc
 * alone, where most of the program's allocations are). */
static inline void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        xalloc_failed();
    return p;
}

/* realloc that aborts with a message on failure (inline, as xcalloc). */
static inline void *xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (!q)
        xalloc_failed();
    return q;
}
/* strdup that aborts with a message on failure. */
char *xstrdup(const char *s);

/* Growable arrays: one capacity rule, doubling from a first capacity. */

/* The capacity for need elements: cap when it holds them, else cap (first
 * when 0) doubled until it does. */
size_t xcapacity(size_t cap, size_t need, size_t first);

/* Resizes array arr to n elements, keeping the first ones. */
#define XRESIZE(arr, n) ((arr) = xrealloc((arr), (size_t)(n) * sizeof *(arr)))

/* Grows array arr, whose capacity is the integer lvalue cap, so that index
 * need-1 fits (xcapacity from first). */
#define XGROW_FROM(arr, cap, need, first)                                         \
    do {                                                                          \
        if ((size_t)(need) > (size_t)(cap)) {                                     \
            (cap) = xcapacity((size_t)(cap), (size_t)(need), (first));            \
            XRESIZE(arr, cap);                                                    \
        }                                                                         \
    } while (0)

/* XGROW_FROM with the first capacity 8. */
#define XGROW(arr, cap, need) XGROW_FROM(arr, cap, need, 8)

/* Several arrays of one structure in one allocation: a layout function
 * takes each array from a block, run once on a block whose base is NULL
 * to measure it (every array NULL) and once on the zeroed allocation of
 * that size to place them; freeing the allocation frees them all. */
struct xblock {
    char *base;              /* NULL while measuring */
    size_t size;             /* bytes taken so far */
};

/* The next n elements of size bytes from block b, aligned for any type;
 * NULL while measuring (inline: layouts take many small arrays). */
static inline void *xblock_take(struct xblock *b, size_t n, size_t size)
{
    size_t align = _Alignof(max_align_t);
    size_t at = (b->size + align - 1) / align * align;
    b->size = at + n * size;
    return b->base ? b->base + at : NULL;
}

#endif
