/* Execution graphs in the papers' style, as Graphviz DOT: one column per
 * thread, events top to bottom in program order, initial writes on top,
 * coloured and labelled relation edges, the final state as the caption. */
#ifndef GPUBMC_GRAPH_H
#define GPUBMC_GRAPH_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#define GRAPH_MAX_RELATIONS 32

/* The relations drawn when none are asked for. */
extern const char *const graph_default_relations[];

/* Every relation a witness can have (its base relations and what any
 * model, built-in or cat, exports), NULL-terminated: --graph-relations
 * names outside it are refused before any check. */
extern const char *const graph_relation_names[];

/* True when name is one of graph_relation_names. */
bool graph_relation_known(const char *name);

/* The DOT text (caller frees) of the execution in result, an object with
 * "file", "property", "result", "witness" and optionally "explanation"
 * (its witness and evidence then take the place of the witness, the
 * evidence drawn bold), "dpi" (the picture's resolution) and "rewritten"
 * and "rewritten_file" (for a transformation: which rewrite made the
 * program drawn, and where --emit-transformed wrote it).  rels names the edge lists to draw (NULL: the
 * defaults that exist); returns NULL with err filled when a name is not
 * one of the witness's relations (err lists them) or there is no graph. */
char *graph_dot(const cJSON *result, const char *const *rels, int nrels, char *err, size_t errlen);

/* Graphviz's rendering context.  One per process, kept for all its
 * pictures: Graphviz 2.42 caches font data across contexts, so a context
 * freed and made again reads freed memory. */
struct graph_renderer;

/* A renderer; Graphviz is loaded (dlopen) and started on its first .svg or .png. */
struct graph_renderer *graph_renderer_new(void);
/* Frees the renderer (at the end of the process). */
void graph_renderer_free(struct graph_renderer *r);

/* Writes the DOT text to path as .dot text, or renders it as .svg or .png
 * with Graphviz's library; false with err filled on failure (also when
 * the library is missing). */
bool graph_write(struct graph_renderer *r, const char *dot, const char *path, char *err, size_t errlen);

#endif
