/* graph_dump WITNESS.json OUT.dot|svg|png [REL...]: draws the result object
 * that --witness wrote (one object, or the first of an array) with the
 * project's graph writer, for tests and for looking at pictures. */
#include <stdio.h>
#include <stdlib.h>

#include "bmc/graph/graph.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: graph_dump WITNESS.json OUT.dot|svg|png [REL...]\n");
        return 1;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", argv[1]);
        return 1;
    }
    static char text[1 << 22];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    cJSON *o = cJSON_Parse(text);
    cJSON *result = cJSON_IsArray(o) ? cJSON_GetArrayItem(o, 0) : o;
    char err[512];
    char *dot = result ? graph_dot(result, argc > 3 ? (const char *const *)argv + 3 : NULL, argc - 3, err, sizeof err)
                       : NULL;
    struct graph_renderer *gr = graph_renderer_new();
    bool ok = dot && graph_write(gr, dot, argv[2], err, sizeof err);
    graph_renderer_free(gr);
    if (!ok)
        fprintf(stderr, "graph_dump: %s\n", result ? err : "not JSON");
    free(dot);
    cJSON_Delete(o);
    return ok ? 0 : 1;
}
