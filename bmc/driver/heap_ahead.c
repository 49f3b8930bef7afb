/* A worker's heap mapped ahead of its checks (heap_ahead.h). */
#define _DEFAULT_SOURCE   /* for sbrk, madvise */
#include "bmc/driver/heap_ahead.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/* Blocks up to this size come from the heap (glibc maps bigger ones
 * apart, each freed to the system and faulted again when made anew). */
#define HEAP_AHEAD_MMAP_MIN ((size_t)8 << 20)

/* The heap's end up to which it is mapped; NULL when off. */
static char *mapped_to;

void heap_ahead_init(void)
{
#if defined(__GLIBC__) && defined(MADV_POPULATE_WRITE)
    /* the top pad is the step; the heap is never trimmed, so that a
     * stretch mapped once stays mapped for the checks that follow */
    if (mallopt(M_TOP_PAD, (int)HEAP_AHEAD_STEP) && mallopt(M_TRIM_THRESHOLD, INT32_MAX) &&
        mallopt(M_MMAP_THRESHOLD, (int)HEAP_AHEAD_MMAP_MIN))
        mapped_to = sbrk(0);
#endif
}

void heap_ahead_map(void)
{
#ifdef MADV_POPULATE_WRITE
    if (!mapped_to || mapped_to == (char *)-1)
        return;
    char *end = sbrk(0);   /* glibc answers from its own record: no system call */
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t from = ((uintptr_t)mapped_to + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
    if (end == (char *)-1 || (char *)from >= end)
        return;
    /* a kernel before Linux 5.14 refuses: the pages fault as before */
    mapped_to = madvise((void *)from, (size_t)(end - (char *)from), MADV_POPULATE_WRITE) == 0 ? end : NULL;
#endif
}
