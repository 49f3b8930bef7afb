/* Writing DOT text as .dot, or rendering it in-process with Graphviz,
 * whose library is loaded (dlopen) on the first .svg or .png: a process
 * that draws nothing does not pay for loading it. */
#include "bmc/graph/graph.h"

#include <dlfcn.h>
#include <graphviz/gvc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* The soname of Graphviz's rendering library in Debian's libgvc6 (which
 * libgraphviz-dev, installed by make deps, pulls in); it brings libcgraph. */
#define GVC_SONAME "libgvc.so.6"

/* The extension of path after its last dot, or "". */
static const char *extension(const char *path)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    return dot && (!slash || dot > slash) ? dot + 1 : "";
}

/* Writes text to path; false with err filled. */
static bool write_text(const char *text, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    bool ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        snprintf(err, errlen, "cannot write %s", path);
    return ok;
}

/* The Graphviz functions gpubmc calls, looked up in the loaded library. */
struct graphviz_api {
    GVC_t *(*context)(void);
    int (*free_context)(GVC_t *gvc);
    Agraph_t *(*read)(const char *dot);
    int (*close)(Agraph_t *g);
    int (*layout)(GVC_t *gvc, Agraph_t *g, const char *engine);
    int (*render_file)(GVC_t *gvc, Agraph_t *g, const char *format, const char *path);
    int (*free_layout)(GVC_t *gvc, Agraph_t *g);
};

struct graph_renderer {
    struct graphviz_api api;
    GVC_t *gvc;              /* NULL until the first rendering */
};

struct graph_renderer *graph_renderer_new(void)
{
    return xcalloc(1, sizeof(struct graph_renderer));
}

void graph_renderer_free(struct graph_renderer *r)
{
    if (r && r->gvc)
        r->api.free_context(r->gvc);
    free(r);
}

/* Stores the address of symbol name in *slot (a function pointer); false
 * with err filled when the library lacks it.  (POSIX allows the cast from
 * dlsym's void * to a function pointer.) */
static bool look_up(void *library, const char *name, void *slot, char *err, size_t errlen)
{
    void *address = dlsym(library, name);
    if (!address) {
        snprintf(err, errlen, "Graphviz's %s has no %s", GVC_SONAME, name);
        return false;
    }
    memcpy(slot, &address, sizeof address);
    return true;
}

/* Loads Graphviz and makes its context, once; false with err filled (the
 * picture's format named, e.g. "rendering a PNG") when the library is
 * missing at run time. */
static bool start_graphviz(struct graph_renderer *r, const char *ext, char *err, size_t errlen)
{
    if (r->gvc)
        return true;
    void *library = dlopen(GVC_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(err, errlen, "rendering a%s %s needs Graphviz's %s (make deps installs it): %s",
                 strcmp(ext, "svg") == 0 ? "n" : "", strcmp(ext, "svg") == 0 ? "SVG" : "PNG", GVC_SONAME,
                 dlerror());
        return false;
    }
    struct graphviz_api *a = &r->api;
    if (!look_up(library, "gvContext", &a->context, err, errlen) ||
        !look_up(library, "gvFreeContext", &a->free_context, err, errlen) ||
        !look_up(library, "agmemread", &a->read, err, errlen) || !look_up(library, "agclose", &a->close, err, errlen) ||
        !look_up(library, "gvLayout", &a->layout, err, errlen) ||
        !look_up(library, "gvRenderFilename", &a->render_file, err, errlen) ||
        !look_up(library, "gvFreeLayout", &a->free_layout, err, errlen)) {
        dlclose(library);
        return false;
    }
    r->gvc = a->context();
    return true;
}

bool graph_write(struct graph_renderer *r, const char *dot, const char *path, char *err, size_t errlen)
{
    const char *ext = extension(path);
    if (strcmp(ext, "dot") == 0)
        return write_text(dot, path, err, errlen);
    if (strcmp(ext, "svg") != 0 && strcmp(ext, "png") != 0) {
        snprintf(err, errlen, "%s: the graph's format comes from its extension: .dot, .svg or .png", path);
        return false;
    }
    if (!start_graphviz(r, ext, err, errlen))
        return false;
    const struct graphviz_api *a = &r->api;
    Agraph_t *g = a->read(dot);
    bool ok = g && a->layout(r->gvc, g, "dot") == 0;
    if (ok) {
        ok = a->render_file(r->gvc, g, ext, path) == 0;
        a->free_layout(r->gvc, g);
    }
    if (g)
        a->close(g);
    if (!ok)
        snprintf(err, errlen, "Graphviz could not render %s", path);
    return ok;
}
