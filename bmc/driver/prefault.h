/* A worker's memory mapped ahead of its checks, in a few system calls
 * (MADV_POPULATE_READ/WRITE) instead of a page fault per page: on the
 * virtual machines we measure a fault costs about 19 us of CPU, a page
 * mapped ahead about 1 us and a page of program text 0.1 us
 * (docs/benchmarks.md, ninth pass).  At its start, what a worker inherits
 * and will touch again: the text of the program and its libraries (a
 * forked process faults on each 64 KB of text it runs) and their data.
 * (The heap is util/fast_malloc.c's mappings: a new one is fresh, zero
 * memory, and mapping those ahead measured no gain.) */
#ifndef GPUBMC_PREFAULT_H
#define GPUBMC_PREFAULT_H

/* Maps what the worker inherited (a worker's first call, before its
 * first check); nothing where the kernel or the C library cannot. */
void prefault_worker_start(void);

#endif
