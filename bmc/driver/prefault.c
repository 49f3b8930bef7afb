/* A worker's memory mapped ahead of its checks (prefault.h). */
#define _GNU_SOURCE   /* for dl_iterate_phdr */
#include "bmc/driver/prefault.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <link.h>
#endif

#if defined(__GLIBC__) && defined(MADV_POPULATE_WRITE)
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

#endif

void prefault_worker_start(void)
{
#if defined(__GLIBC__) && defined(MADV_POPULATE_WRITE)
    dl_iterate_phdr(populate_object, NULL);
#endif
}
