/* A worker's memory mapped ahead of its checks, in a few system calls
 * (MADV_POPULATE_READ/WRITE) instead of a page fault per page: on the
 * virtual machines we measure a fault costs about 19 us of CPU, a page
 * mapped ahead about 1 us and a page of program text 0.1 us
 * (docs/benchmarks.md, ninth pass).
 *   - At its start, what a worker inherits and will touch again: the text
 *     of the program and its libraries (a forked process faults on each
 *     64 KB of text it runs), their data, and the heap made before the
 *     fork (shared until written).
 *   - Between its checks, the heap: glibc's malloc grows it in steps of
 *     PREFAULT_HEAP_STEP and keeps it, and each new stretch is mapped at
 *     once. */
#ifndef GPUBMC_PREFAULT_H
#define GPUBMC_PREFAULT_H

/* Bytes the heap grows beyond each request, mapped ahead. */
#define PREFAULT_HEAP_STEP ((size_t)1 << 20)

/* Maps what the worker inherited and sets malloc up to grow the heap in
 * steps it keeps (a worker's first call, before its first check);
 * nothing where the kernel or the C library cannot. */
void prefault_worker_start(void);

/* Maps the pages the heap grew by since the last call, in one system
 * call (when another check follows: the next check's first writes find
 * them mapped); nothing when it did not grow. */
void prefault_heap_growth(void);

#endif
