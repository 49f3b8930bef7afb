/* Writing DOT text as .dot, or rendering it in-process with Graphviz. */
#include "bmc/graph/graph.h"

#include <graphviz/gvc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

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

struct graph_renderer {
    GVC_t *gvc;              /* NULL until the first rendering */
};

struct graph_renderer *graph_renderer_new(void)
{
    return xcalloc(1, sizeof(struct graph_renderer));
}

void graph_renderer_free(struct graph_renderer *r)
{
    if (r && r->gvc)
        gvFreeContext(r->gvc);
    free(r);
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
    if (!r->gvc)
        r->gvc = gvContext();
    Agraph_t *g = agmemread(dot);
    bool ok = g && gvLayout(r->gvc, g, "dot") == 0;
    if (ok) {
        ok = gvRenderFilename(r->gvc, g, ext, path) == 0;
        gvFreeLayout(r->gvc, g);
    }
    if (g)
        agclose(g);
    if (!ok)
        snprintf(err, errlen, "Graphviz could not render %s", path);
    return ok;
}
