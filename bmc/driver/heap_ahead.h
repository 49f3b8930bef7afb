/* A worker's heap mapped ahead of its checks: glibc's malloc grows the
 * heap in steps of HEAP_AHEAD_STEP and keeps it, and each new stretch's
 * pages are mapped in one system call (MADV_POPULATE_WRITE) instead of a
 * page fault per page on its first write.  On the virtual machines we
 * measure a fault costs about 19 us of CPU and a page mapped ahead about
 * 1 us (docs/benchmarks.md, ninth pass). */
#ifndef GPUBMC_HEAP_AHEAD_H
#define GPUBMC_HEAP_AHEAD_H

/* Bytes the heap grows beyond each request, mapped ahead. */
#define HEAP_AHEAD_STEP ((size_t)1 << 20)

/* Sets malloc up to grow the heap in steps it keeps (a worker's first
 * call, before its first check); nothing where malloc is not glibc's. */
void heap_ahead_init(void);

/* Maps the pages the heap grew by since the last call, in one system
 * call (when another check follows: the next check's first writes find
 * them mapped); nothing when it did not grow or the kernel cannot. */
void heap_ahead_map(void);

#endif
