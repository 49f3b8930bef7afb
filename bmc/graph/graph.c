/* DOT text of a witness execution. */
#include "bmc/graph/graph.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

const char *const graph_default_relations[] = { "rf", "co", "fr", "rmw", "sync", "sw", "syncbar", "sync_fence",
                                                NULL };

/* The base relations wit_build (bmc/concrete/witness.c) writes, then the
 * exports of the built-in models (models/ *.c, cat_export) and of cat files
 * (models/cat_eval.c, shown); tests/trust_tests.py checks witnesses
 * against it. */
const char *const graph_relation_names[] = { "po", "rf", "co", "rmw", "data", "ctrl", "syncbar", "sync_fence",
                                             "fr", "sync", "cause", "observation", "sw", "hb", "locord", "asmo",
                                             "ghb", "gsw", "lhb", "lsw", "mo", "rb", NULL };

bool graph_relation_known(const char *name)
{
    for (int i = 0; graph_relation_names[i]; i++)
        if (strcmp(graph_relation_names[i], name) == 0)
            return true;
    return false;
}

/* A growing string. */
struct sbuf {
    char *s;
    size_t len, cap;
};

static void put(struct sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->len + (size_t)n + 1 > b->cap) {
        b->cap = 2 * (b->len + (size_t)n + 1);
        b->s = xrealloc(b->s, b->cap);
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* Appends text as the inside of a DOT string ("..." without the quotes). */
static void put_escaped(struct sbuf *b, const char *text)
{
    for (const char *c = text; *c; c++)
        put(b, *c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int num(const cJSON *o, const char *key, int dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valueint : dflt;
}

/* Colour and style of a relation's edges. */
static const char *edge_style(const char *rel)
{
    static const char *const styles[][2] = {
        { "po", "color=black" }, { "rf", "color=\"#d62728\"" }, { "co", "color=\"#1f77b4\"" },
        { "fr", "color=\"#ff7f0e\"" }, { "rmw", "color=\"#9467bd\", style=dashed" },
        { "sync", "color=\"#2ca02c\", penwidth=2" }, { "sw", "color=\"#2ca02c\", penwidth=2" },
        { "syncbar", "color=\"#8c564b\", style=dashed" },
    };
    for (size_t i = 0; i < sizeof styles / sizeof styles[0]; i++)
        if (strcmp(styles[i][0], rel) == 0)
            return styles[i][1];
    return "color=\"#7f7f7f\"";
}

/* Whether pairs holds (a, b). */
static bool has_pair(const cJSON *pairs, int a, int b)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, pairs)
        if (cJSON_GetArrayItem(p, 0)->valueint == a && cJSON_GetArrayItem(p, 1)->valueint == b)
            return true;
    return false;
}

/* Whether (a, b) follows from two pairs (a, c), (c, b): co is drawn as its
 * immediate edges only. */
static bool implied(const cJSON *pairs, int a, int b)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, pairs) {
        int x = cJSON_GetArrayItem(p, 0)->valueint, c = cJSON_GetArrayItem(p, 1)->valueint;
        if (x == a && c != b && has_pair(pairs, c, b))
            return true;
    }
    return false;
}

static void put_node(struct sbuf *b, const cJSON *e)
{
    const char *kind = str(e, "kind"), *loc = str(e, "location");
    put(b, "    e%d [label=\"", num(e, "id", -1));
    if (strcmp(kind, "init") == 0) {
        put(b, "%s = %d", loc, num(e, "value", 0));
    } else {
        put_escaped(b, str(e, "instruction"));
        if (loc)
            put(b, "\\n%s %s = %d", strcmp(kind, "read") == 0 ? "R" : "W", loc, num(e, "value", 0));
        if (num(e, "line", 0) > 0)
            put(b, "\\nline %d", num(e, "line", 0));
    }
    put(b, "\"%s];\n", strcmp(kind, "init") == 0 ? ", style=rounded"
                      : strcmp(kind, "undefined-behavior") == 0 ? ", color=\"#d62728\"" : "");
}

/* The thread's cluster: its events top to bottom (po), and where it is stuck. */
static void put_thread(struct sbuf *b, const cJSON *w, const cJSON *th)
{
    int id = num(th, "id", -1), last = -1;
    put(b, "  subgraph cluster_P%d {\n    label=\"\";\n", id);
    put(b, "    title_P%d [shape=plaintext, fontsize=14, label=\"P%d @ %s\"];\n", id, id, str(th, "place"));
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(w, "events"))
        if (num(e, "thread", -1) == id) {
            put_node(b, e);
            if (last >= 0)
                put(b, "    e%d -> e%d [%s, weight=20];\n", last, num(e, "id", -1), edge_style("po"));
            else
                put(b, "    title_P%d -> e%d [style=invis, weight=20];\n", id, num(e, "id", -1));
            last = num(e, "id", -1);
        }
    const cJSON *s;
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(w, "stuck"))
        if (num(s, "thread", -1) == id) {
            const char *loop = str(s, "loop_back"), *bar = str(s, "barrier");
            put(b, "    stuck%d [shape=note, color=\"#d62728\", fontcolor=\"#d62728\", label=\"%s for ever", id,
                str(s, "how"));
            if (loop && num(s, "loop_line", 0) > 0)
                put(b, "\\nin the loop from line %d", num(s, "loop_line", 0));
            if (loop || bar) {
                put(b, loop ? "\\nback at `" : "\\nat `");
                put_escaped(b, loop ? loop : bar);
                put(b, "`");
            }
            if (bar && num(s, "line", 0) > 0)
                put(b, "\\nline %d", num(s, "line", 0));
            put(b, "\"];\n");
            if (last >= 0)
                put(b, "    e%d -> stuck%d [style=dotted, weight=20];\n", last, id);
            else
                put(b, "    title_P%d -> stuck%d [style=invis, weight=20];\n", id, id);
        }
    put(b, "  }\n");
}

/* Whether events x and y are in one thread (initial writes are in none). */
static bool same_thread(const cJSON *w, int x, int y)
{
    int tx = -2, ty = -3;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(w, "events")) {
        if (num(e, "id", -1) == x)
            tx = num(e, "thread", -2);
        if (num(e, "id", -1) == y)
            ty = num(e, "thread", -3);
    }
    return tx == ty;
}

/* Whether fr(r, x) follows from fr(r, y) and co(y, x): fr is drawn to the
 * coherence-next write only, as co is drawn immediate. */
static bool fr_implied(const cJSON *fr, const cJSON *co, int r, int x)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, fr)
        if (cJSON_GetArrayItem(p, 0)->valueint == r && has_pair(co, cJSON_GetArrayItem(p, 1)->valueint, x))
            return true;
    return false;
}

/* Whether the explanation's evidence draws (x, y) as relation name, in bold
 * (then the plain edge would only repeat it under it). */
static bool in_evidence(const cJSON *expl, const char *name, int x, int y)
{
    const cJSON *ev;
    cJSON_ArrayForEach(ev, cJSON_GetObjectItemCaseSensitive(expl, "evidence")) {
        const cJSON *ids = cJSON_GetObjectItemCaseSensitive(ev, "events");
        const cJSON *labels = cJSON_GetObjectItemCaseSensitive(ev, "edges");
        int k = cJSON_GetArraySize(ids);
        for (int i = 0; i < cJSON_GetArraySize(labels); i++)
            if (cJSON_GetArrayItem(ids, i)->valueint == x && cJSON_GetArrayItem(ids, (i + 1) % k)->valueint == y
                && strcmp(cJSON_GetArrayItem(labels, i)->valuestring, name) == 0)
                return true;
    }
    return false;
}

/* The edges of relation name in witness w: not its self-loops, a symmetric
 * pair once with two heads, co and fr only to the coherence-next write,
 * and the synchronisation relations only between threads (within one
 * thread program order already says it). */
static void put_relation(struct sbuf *b, const cJSON *w, const cJSON *expl, const char *name, const cJSON *pairs,
                         const char *extra)
{
    const cJSON *p, *co = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(w, "edges"), "co");
    bool immediate = strcmp(name, "co") == 0, is_fr = strcmp(name, "fr") == 0;
    bool between = strcmp(name, "sync") == 0 || strcmp(name, "sw") == 0;
    cJSON_ArrayForEach(p, pairs) {
        int x = cJSON_GetArrayItem(p, 0)->valueint, y = cJSON_GetArrayItem(p, 1)->valueint;
        if (x == y || (immediate && implied(pairs, x, y)) || (is_fr && fr_implied(pairs, co, x, y))
            || (between && same_thread(w, x, y)) || in_evidence(expl, name, x, y))
            continue;
        bool both = has_pair(pairs, y, x);
        if (both && y < x)
            continue;   /* a symmetric pair (syncbar) is drawn once, both ways */
        const char *heads = both && !strstr(extra, "dir=both") ? ", dir=both" : "";
        put(b, "  e%d -> e%d [xlabel=\"%s\", fontcolor=gray30, %s, constraint=false%s%s];\n", x, y, name,
            edge_style(name), extra, heads);
    }
}

/* Whether name is one of the witness's relations; if not, err lists them. */
static bool known_relation(const cJSON *edges, const char *name, char *err, size_t errlen)
{
    if (cJSON_GetObjectItemCaseSensitive(edges, name))
        return true;
    size_t used = (size_t)snprintf(err, errlen, "unknown relation '%s' (the witness has:", name);
    const cJSON *r;
    cJSON_ArrayForEach(r, edges)
        if (used < errlen)
            used += (size_t)snprintf(err + used, errlen - used, " %s", r->string);
    if (used < errlen)
        snprintf(err + used, errlen - used, ")");
    return false;
}

/* The caption: file, property and verdict, why (if explained), the final state. */
static void put_caption(struct sbuf *b, const cJSON *result, const cJSON *w, const cJSON *expl)
{
    put(b, "  label=\"");
    put_escaped(b, str(result, "file") ? str(result, "file") : "");
    put(b, ": %s", str(result, "property") ? str(result, "property") : "");
    if (str(result, "progress"))
        put(b, " (progress %s)", str(result, "progress"));
    put(b, " %s", str(result, "result") ? str(result, "result") : "");
    if (str(result, "rewritten")) {       /* a transformation's execution: of the rewritten program */
        put(b, "\\nrewritten by ");
        put_escaped(b, str(result, "rewritten"));
        put(b, "\\ndrawn: the events and lines of the rewritten program");
        if (str(result, "rewritten_file")) {
            put(b, " ");
            put_escaped(b, str(result, "rewritten_file"));
        } else {
            put(b, " (--emit-transformed DIR writes it)");
        }
    }
    if (expl) {
        put(b, "\\nshown without:");
        const cJSON *a;
        cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(expl, "axioms"))
            put(b, " %s", a->valuestring);
        put(b, " (its violation in bold)");
    }
    const cJSON *fin = cJSON_GetObjectItemCaseSensitive(w, "final");
    bool stuck = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(w, "stuck")) > 0;
    if (cJSON_GetObjectItemCaseSensitive(w, "cut_at_bound"))
        put(b, "\\ncut at the loop bound: a prefix");
    const char *parts[] = { "registers", "memory" };
    int shown = 0;   /* eight values a line keeps the caption as wide as a few columns */
    for (int k = 0; k < 2; k++) {
        const cJSON *v;
        cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(fin, parts[k]))
            put(b, "%s%s=%d", shown++ % 8 == 0 ? (shown == 1 ? (stuck ? "\\nwhen stuck: " : "\\nfinal: ")
                                                              : "\\n") : "  ", v->string, v->valueint);
    }
    put(b, "\";\n  labelloc=b;\n");
}

/* The evidence of an explanation, drawn bold over the execution. */
static void put_evidence(struct sbuf *b, const cJSON *expl)
{
    const cJSON *ev;
    cJSON_ArrayForEach(ev, cJSON_GetObjectItemCaseSensitive(expl, "evidence")) {
        const cJSON *ids = cJSON_GetObjectItemCaseSensitive(ev, "events");
        const cJSON *labels = cJSON_GetObjectItemCaseSensitive(ev, "edges");
        int k = cJSON_GetArraySize(ids);
        if (k == 2 && cJSON_GetArraySize(labels) == 2) {   /* a 2-cycle: one edge both ways, one label */
            put(b, "  e%d -> e%d [xlabel=\"%s: %s,\\n%s back\", dir=both, penwidth=3, color=black, "
                   "fontname=\"Helvetica-Bold\", constraint=false];\n",
                cJSON_GetArrayItem(ids, 0)->valueint, cJSON_GetArrayItem(ids, 1)->valueint, str(ev, "axiom"),
                cJSON_GetArrayItem(labels, 0)->valuestring, cJSON_GetArrayItem(labels, 1)->valuestring);
            continue;
        }
        for (int i = 0; i < cJSON_GetArraySize(labels); i++)
            put(b, "  e%d -> e%d [xlabel=\"%s: %s\", penwidth=3, color=black, fontname=\"Helvetica-Bold\", "
                   "constraint=false];\n",
                cJSON_GetArrayItem(ids, i)->valueint, cJSON_GetArrayItem(ids, (i + 1) % k)->valueint,
                str(ev, "axiom"), cJSON_GetArrayItem(labels, i)->valuestring);
    }
}

/* A lasso's cycle (a termination FAIL of the explicit-state engine): its
 * events get a bold blue border; the stem before it keeps the plain one. */
static void put_lasso(struct sbuf *b, const cJSON *w)
{
    const cJSON *id;
    const cJSON *lasso = cJSON_GetObjectItemCaseSensitive(w, "lasso");
    cJSON_ArrayForEach(id, cJSON_GetObjectItemCaseSensitive(lasso, "cycle"))
        put(b, "  e%d [color=\"#1f77b4\", penwidth=2.5];\n", id->valueint);
    if (lasso)
        put(b, "  lasso [shape=plaintext, fontcolor=\"#1f77b4\", label=\"blue: the cycle, repeated for ever "
               "after a stem of %d step%s\"];\n", num(lasso, "stem_steps", 0), num(lasso, "stem_steps", 0) == 1 ? "" : "s");
}

/* Layout: initial writes above every thread's title, and the titles on
 * one rank, left to right in thread order: each thread is a column under
 * the initial state, a halted thread (no event) too. */
static void put_columns(struct sbuf *b, const cJSON *w)
{
    const cJSON *e, *th;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(w, "events"))
        if (cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(e, "thread")))
            cJSON_ArrayForEach(th, cJSON_GetObjectItemCaseSensitive(w, "threads"))
                put(b, "  e%d -> title_P%d [style=invis];\n", num(e, "id", -1), num(th, "id", -1));
    int prev = -1;
    put(b, "  { rank=same;");
    cJSON_ArrayForEach(th, cJSON_GetObjectItemCaseSensitive(w, "threads")) {
        if (prev >= 0)
            put(b, " title_P%d -> title_P%d [style=invis];", prev, num(th, "id", -1));
        prev = num(th, "id", -1);
    }
    put(b, " }\n");
}

char *graph_dot(const cJSON *result, const char *const *rels, int nrels, char *err, size_t errlen)
{
    const cJSON *expl = cJSON_GetObjectItemCaseSensitive(result, "explanation");
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(expl ? expl : result, "witness");
    if (!cJSON_IsObject(w)) {
        snprintf(err, errlen, "no single execution decides this verdict, so there is no graph");
        return NULL;
    }
    const cJSON *edges = cJSON_GetObjectItemCaseSensitive(w, "edges");
    for (int i = 0; i < nrels; i++)
        if (!known_relation(edges, rels[i], err, errlen))
            return NULL;
    struct sbuf b = { 0 };
    put(&b, "digraph execution {\n  newrank=true;\n  mclimit=0.01;\n  forcelabels=true;\n  fontname=Helvetica;\n"
            "  node [shape=box, fontname=Helvetica, fontsize=10];\n"
            "  edge [fontname=Helvetica, fontsize=9, arrowsize=0.7];\n");
    if (num(result, "dpi", 0) > 0)
        put(&b, "  dpi=%d;\n", num(result, "dpi", 0));
    put_caption(&b, result, w, expl);
    put(&b, "  subgraph cluster_init {\n    label=\"initial state\";\n    labelloc=t;\n    style=dashed;\n");
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(w, "events"))
        if (cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(e, "thread")))
            put_node(&b, e);
    put(&b, "  }\n");
    const cJSON *th;
    cJSON_ArrayForEach(th, cJSON_GetObjectItemCaseSensitive(w, "threads"))
        put_thread(&b, w, th);
    put_columns(&b, w);
    if (rels) {
        for (int i = 0; i < nrels; i++)
            put_relation(&b, w, expl, rels[i], cJSON_GetObjectItemCaseSensitive(edges, rels[i]), "");
    } else {
        for (int i = 0; graph_default_relations[i]; i++)
            put_relation(&b, w, expl, graph_default_relations[i],
                         cJSON_GetObjectItemCaseSensitive(edges, graph_default_relations[i]), "");
    }
    const cJSON *flag;
    cJSON_ArrayForEach(flag, cJSON_GetObjectItemCaseSensitive(w, "flags")) {
        char extra[96];
        snprintf(extra, sizeof extra, ", dir=both, penwidth=2.5, color=\"#d62728\", fontcolor=\"#d62728\"");
        char name[96];
        /* undefined-behavior flags single events (a loop on each), the others pairs that race */
        snprintf(name, sizeof name, strcmp(flag->string, "undefined-behavior") ? "race (%s)" : "%s", flag->string);
        put_relation(&b, w, expl, name, flag, extra);
    }
    if (expl)
        put_evidence(&b, expl);
    put_lasso(&b, w);
    put(&b, "}\n");
    return b.s;
}
