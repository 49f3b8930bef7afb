/* graph_layout: lays out a DOT file with Graphviz's dot engine, as
 * gpubmc --graph does, and prints the result in Graphviz's xdot JSON
 * format (the label boxes tests/gallery_tests.py checks for overlap).
 * Usage: graph_layout FILE.dot */
#include <graphviz/gvc.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: graph_layout FILE.dot\n");
        return 1;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    GVC_t *gvc = gvContext();
    Agraph_t *g = agread(f, NULL);
    fclose(f);
    char *out = NULL;
    unsigned int len = 0;
    int rc = g && gvLayout(gvc, g, "dot") == 0 && gvRenderData(gvc, g, "json", &out, &len) == 0 ? 0 : 1;
    if (rc == 0)
        fwrite(out, 1, len, stdout);
    else
        fprintf(stderr, "%s: Graphviz could not lay it out\n", argv[1]);
    if (out)
        gvFreeRenderData(out);
    if (g) {
        gvFreeLayout(gvc, g);
        agclose(g);
    }
    gvFreeContext(gvc);
    return rc;
}
