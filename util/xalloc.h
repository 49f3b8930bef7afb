/* Allocation that never returns NULL: out of memory ends the process with a message. */
#ifndef GPUBMC_XALLOC_H
#define GPUBMC_XALLOC_H

#include <stddef.h>

/* calloc that aborts with a message on failure. */
void *xcalloc(size_t n, size_t size);
/* realloc that aborts with a message on failure. */
void *xrealloc(void *p, size_t size);
/* strdup that aborts with a message on failure. */
char *xstrdup(const char *s);

/* Grows *arr (element size es) so that index need-1 fits; *cap is updated. */
void xgrow(void **arr, size_t es, int *cap, int need);

#define XGROW(arr, cap, need) xgrow((void **)&(arr), sizeof *(arr), &(cap), (need))

#endif
