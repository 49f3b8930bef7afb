/* Checked allocation helpers. */
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(void)
{
    fputs("gpubmc: out of memory\n", stderr);
    exit(1);
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (!q)
        out_of_memory();
    return q;
}

char *xstrdup(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d)
        out_of_memory();
    return d;
}

size_t xcapacity(size_t cap, size_t need, size_t first)
{
    size_t ncap = cap ? cap : first;
    while (ncap < need)
        ncap *= 2;
    return ncap;
}
