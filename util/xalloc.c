/* Checked allocation helpers. */
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void xalloc_failed(void)
{
    fputs("gpubmc: out of memory\n", stderr);
    exit(1);
}

char *xstrdup(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d)
        xalloc_failed();
    return d;
}

size_t xcapacity(size_t cap, size_t need, size_t first)
{
    size_t ncap = cap ? cap : first;
    while (ncap < need)
        ncap *= 2;
    return ncap;
}
