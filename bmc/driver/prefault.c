/* A worker's memory mapped ahead of its checks (prefault.h). */
#define _GNU_SOURCE   /* for sbrk, dl_iterate_phdr */
#include "bmc/driver/prefault.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <link.h>
#include <malloc.h>
#endif

#if defined(__GLIBC__) && defined(MADV_POPULATE_WRITE)
/* Blocks up to this size come from the heap (glibc maps bigger ones
 * apart, each freed to the system and faulted again when made anew). */
#define PREFAULT_MMAP_MIN ((size_t)8 << 20)

/* The heap's end up to which it is mapped; NULL when off. */
static char *mapped_to;

/* Maps the pages of [from, to) (widened to whole pages) with advice. */
static void populate(uintptr_t from, uintptr_t to, int advice)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    from &= ~(page - 1);
    to = (to + page - 1) & ~(page - 1);
    if (from < to)
        madvise((void *)from, to - from, advice);   /* a refusal leaves the pages to fault */
}

/* Maps each loaded segment of one object: text and read-only data for
 * reading, writable data (past the part made read-only after relocation)
 * for writing. */
static int populate_object(struct dl_phdr_info *info, size_t size, void *unused)
{
    (void)size;
    (void)unused;
    uintptr_t relro_end = 0;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_GNU_RELRO)
            relro_end = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr + info->dlpi_phdr[i].p_memsz;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t from = info->dlpi_addr + ph->p_vaddr, to = from + ph->p_memsz;
        if (!(ph->p_flags & PF_W))
            populate(from, to, MADV_POPULATE_READ);
        else
            populate(from > relro_end ? from : relro_end, to, MADV_POPULATE_WRITE);
    }
    return 0;
}

/* Maps the whole heap writable; its end, or NULL when there is none. */
static char *populate_heap(void)
{
    char *end = sbrk(0);
    if (end == (char *)-1)
        return NULL;
    populate((uintptr_t)end - mallinfo2().arena, (uintptr_t)end, MADV_POPULATE_WRITE);
    return end;
}

/* Sets malloc up to grow the heap in steps it keeps: the top pad is the
 * step, and the heap is never trimmed, so that a stretch mapped once stays
 * mapped for what follows; true when malloc took it. */
static bool grow_in_steps(void)
{
    return mallopt(M_TOP_PAD, (int)PREFAULT_HEAP_STEP) && mallopt(M_TRIM_THRESHOLD, INT32_MAX) &&
           mallopt(M_MMAP_THRESHOLD, (int)PREFAULT_MMAP_MIN);
}
#endif

void prefault_worker_start(void)
{
#if defined(__GLIBC__) && defined(MADV_POPULATE_WRITE)
    dl_iterate_phdr(populate_object, NULL);
    char *end = populate_heap();
    if (end && grow_in_steps())
        mapped_to = end;
#endif
}

void prefault_heap_growth(void)
{
#if defined(__GLIBC__) && defined(MADV_POPULATE_WRITE)
    if (!mapped_to)
        return;
    char *end = sbrk(0);   /* glibc answers from its own record: no system call */
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t from = ((uintptr_t)mapped_to + page - 1) & ~(page - 1);
    if (end == (char *)-1 || (char *)from >= end)
        return;
    /* a kernel before Linux 5.14 refuses: the pages fault as before */
    mapped_to = madvise((void *)from, (size_t)(end - (char *)from), MADV_POPULATE_WRITE) == 0 ? end : NULL;
#endif
}
