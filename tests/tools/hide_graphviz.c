/* A preload library (LD_PRELOAD) that hides Graphviz from gpubmc, as on a
 * machine without it: dlopen of any libgvc fails with the loader's own
 * error.  tests/picture_tests.py builds it with cc -shared. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>

/* dlopen, but a libgvc is looked for where none is. */
void *dlopen(const char *file, int mode)
{
    void *(*real_dlopen)(const char *, int);
    void *address = dlsym(RTLD_NEXT, "dlopen");
    memcpy(&real_dlopen, &address, sizeof address);
    if (file && strstr(file, "libgvc"))
        return real_dlopen("/nonexistent/libgvc.so.6", mode);
    return real_dlopen(file, mode);
}
