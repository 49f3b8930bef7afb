/* Writing DOT text as .dot, or rendering it in-process with Graphviz. */
#include "bmc/graph.h"

#include <graphviz/gvc.h>
#include <stdio.h>
#include <string.h>

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

bool graph_write(const char *dot, const char *path, char *err, size_t errlen)
{
    const char *ext = extension(path);
    if (strcmp(ext, "dot") == 0)
        return write_text(dot, path, err, errlen);
    if (strcmp(ext, "svg") != 0 && strcmp(ext, "png") != 0) {
        snprintf(err, errlen, "%s: the graph's format comes from its extension: .dot, .svg or .png", path);
        return false;
    }
    GVC_t *gvc = gvContext();
    Agraph_t *g = agmemread(dot);
    bool ok = g && gvLayout(gvc, g, "dot") == 0;
    if (ok) {
        ok = gvRenderFilename(gvc, g, ext, path) == 0;
        gvFreeLayout(gvc, g);
    }
    if (g)
        agclose(g);
    gvFreeContext(gvc);
    if (!ok)
        snprintf(err, errlen, "Graphviz could not render %s", path);
    return ok;
}
