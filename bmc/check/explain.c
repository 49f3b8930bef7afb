/* Explanations of forbidden outcomes: minimal axiom sets and their evidence. */
#include "bmc/check/explain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmc/check/explain_opencl.h"
#include "bmc/check/explain_steps.h"
#include "bmc/concrete/witness.h"
#include "util/xalloc.h"

/* Finds a minimal set of activation literals to switch off (off[]) so that
 * query becomes satisfiable: grow by failed assumptions until SAT, then
 * put each back on where the query stays satisfiable.  Returns false when
 * no set helps (the program cannot reach the outcome at all). */
static bool minimal_off_set(struct sat_check *s, lit query, bool *off)
{
    for (;;) {
        if (solve_without(s, query, off) == 10)
            break;
        bool grew = false;
        for (int i = 0; i < s->nacts; i++)
            if (!off[i] && cnf_failed(s->c, s->acts[i]))
                off[i] = grew = true;
        if (!grew)
            return false;
    }
    for (int i = 0; i < s->nacts; i++) {
        if (!off[i])
            continue;
        off[i] = false;
        if (solve_without(s, query, off) != 10)
            off[i] = true;
    }
    return solve_without(s, query, off) == 10;   /* leaves the witness as the model */
}

/* The name of a relation of the evaluation that holds (u, v), the simplest
 * first: program order, the base relations, then the model's exports, the
 * ones axioms are made of (fr, locord, asmo, observation) before the
 * orders they come from (cause, sync, sw, hb); the axiom's own name when
 * none does.  OpenCL's barrier and fence pairs are named by what its model
 * makes of them (gsw, lsw, an O-Sscoped edge), not by syncbar and
 * sync_fence. */
static const char *edge_label(const struct evaluation *ev, int u, int v, const char *fallback)
{
    static const enum base_rel simple[] = { R_PO, R_RF, R_CO, R_RMW, R_SYNCBAR, R_SYNC_FENCE };
    static const char *const exports[] = { "fr", "locord", "asmo", "observation", "cause", "sync", "sw", "hb" };
    bool cl = explain_cl(ev);   /* OpenCL orders barriers and fences by gsw, lsw and scp, not by these */
    for (size_t k = 0; k < sizeof simple / sizeof simple[0]; k++)
        if (rel_get(ev->b.rels[simple[k]], u, v) == LIT_TRUE && !(cl && (simple[k] == R_SYNCBAR || simple[k] == R_SYNC_FENCE)))
            return base_rel_names[simple[k]];
    for (size_t i = 0; i < sizeof exports / sizeof exports[0]; i++)
        for (int k = 0; k < ev->m.nexports; k++)
            if (strcmp(ev->m.exports[k].name, exports[i]) == 0 && rel_get(ev->m.exports[k].rel, u, v) == LIT_TRUE)
                return ev->m.exports[k].name;
    for (int k = 0; k < ev->m.nexports; k++)
        if (rel_get(ev->m.exports[k].rel, u, v) == LIT_TRUE)
            return ev->m.exports[k].name;
    return fallback;
}

/* The shortest cycle of constant relation r, as nodes in order; its length,
 * 0 if r is acyclic. */
static int shortest_cycle(const struct rel *r, int *cycle)
{
    int n = r->n, best = 0;
    int *parent = xcalloc((size_t)n + 1, sizeof *parent), *queue = xcalloc((size_t)n + 1, sizeof *queue);
    for (int v = 0; v < n; v++) {
        for (int i = 0; i < n; i++)
            parent[i] = -1;
        int head = 0, tail = 0, end = -1;
        queue[tail++] = v;
        while (head < tail && end < 0) {
            int u = queue[head++];
            const int *cols;
            const lit *lits;
            int len = rel_row(r, u, &cols, &lits);
            for (int k = 0; k < len && end < 0; k++) {
                int w = cols[k];
                if (w == v)
                    end = u;
                else if (parent[w] < 0 && w != v) {
                    parent[w] = u;
                    queue[tail++] = w;
                }
            }
        }
        if (end < 0)
            continue;
        int len = 1;
        for (int x = end; x != v; x = parent[x])
            len++;
        if (best == 0 || len < best) {
            best = len;
            int k = len;
            for (int x = end; x != v; x = parent[x])
                cycle[--k] = x;
            cycle[0] = v;
        }
    }
    free(parent);
    free(queue);
    return best;
}

/* The evidence that axiom ax (evaluated concretely) is violated: its cycle,
 * reflexive pair or pair, as event ids, labelled edges and a text. */
static cJSON *evidence(const struct program *p, const struct evaluation *ev, const struct axiom *ax,
                       char *text, size_t len)
{
    int n = ax->rel->n, *path = xcalloc((size_t)n + 2, sizeof *path), k = 0;
    const char **labs = xcalloc((size_t)n + 2, sizeof *labs);   /* an edge's label when not edge_label's */
    if (ax->kind == AX_ACYCLIC) {
        k = shortest_cycle(ax->rel, path);
    } else {
        for (int i = 0; i < n && k == 0; i++) {
            int j = ax->kind == AX_EMPTY ? -1 : i;
            if (j < 0) {
                const int *cols;
                const lit *lits;
                j = rel_row(ax->rel, i, &cols, &lits) > 0 ? cols[0] : -1;
            } else if (rel_get(ax->rel, i, i) != LIT_TRUE) {
                j = -1;
            }
            if (j >= 0) {
                path[k++] = i;
                if (i != j)
                    path[k++] = j;
            }
        }
    }
    if (ax->kind == AX_IRREFLEXIVE && k == 1 && explain_cl(ev)) {   /* in the shape of OpenCL's axiom */
        int len = explain_cl_reflexive(ev, ax->name, path[0], path, labs);
        k = len > 0 ? len : k;
    }
    if (ax->kind == AX_IRREFLEXIVE && k == 1) {   /* (i, i) of a composite: through some k */
        for (int m = 0; m < n && k == 1; m++)
            if (m != path[0] && edge_label(ev, path[0], m, NULL) && edge_label(ev, m, path[0], NULL))
                path[k++] = m;
    }
    static const char *const kinds[] = { "empty", "irreflexive", "acyclic", "flag" };
    cJSON *o = cJSON_CreateObject(), *events = cJSON_CreateArray(), *labels = cJSON_CreateArray();
    cJSON *expansions = cJSON_CreateArray();
    cJSON_AddStringToObject(o, "axiom", ax->name);
    cJSON_AddStringToObject(o, "kind", kinds[ax->kind]);
    size_t used = (size_t)snprintf(text, len, "%s:", ax->name);
    bool closed = ax->kind != AX_EMPTY;   /* a cycle or a reflexive pair returns to its start */
    for (int i = 0; i < k; i++) {
        char name[160];
        explain_event_name(p, path[i], name, sizeof name);
        cJSON_AddItemToArray(events, cJSON_CreateNumber(path[i]));
        if (used < len)
            used += (size_t)snprintf(text + used, len - used, " %s", name);
        if (i + 1 < k || closed) {
            int to = path[(i + 1) % k];
            const char *lab = labs[i] ? labs[i] : edge_label(ev, path[i], to, ax->name);
            cJSON_AddItemToArray(labels, cJSON_CreateString(lab));
            cJSON *steps = explain_steps_compound(lab) ? explain_steps(p, ev, path[i], to, lab) : NULL;
            if (steps)
                cJSON_AddItemToArray(expansions, steps);
            if (used < len)
                used += (size_t)snprintf(text + used, len - used, " -%s->", lab);
        }
    }
    if (closed && k > 0 && used < len) {
        char name[160];
        explain_event_name(p, path[0], name, sizeof name);
        used += (size_t)snprintf(text + used, len - used, " %s", name);
    }
    if (ax->kind == AX_EMPTY && k == 2 && explain_cl(ev))   /* a read of a write it cannot see: why */
        explain_cl_hidden(p, ev, ax->name, path[0], path[1], o, expansions, text, len, &used);
    cJSON_AddItemToObject(o, "events", events);
    cJSON_AddItemToObject(o, "edges", labels);
    cJSON_AddItemToObject(o, "expansions", expansions);
    cJSON_AddStringToObject(o, "text", text);
    free(path);
    free(labs);
    return o;
}

cJSON *explain_forbidden(struct sat_check *s, lit query, enum goal goal, char *text, size_t len)
{
    cJSON *out = cJSON_CreateObject(), *names = cJSON_CreateArray();
    cJSON_AddItemToObject(out, "axioms", names);
    bool off[MODEL_MAX_AXIOMS] = { false };
    if (!minimal_off_set(s, query, off)) {
        snprintf(text, len, "no execution of the program reaches it, whatever the axioms: its control "
                 "flow and values decide, and in the final state a thread's later store to a "
                 "location replaces its earlier one");
        cJSON_AddStringToObject(out, "reason", text);
        return out;
    }
    struct check_opts opts = *s->o;   /* the evaluation skips the axioms switched off */
    for (int i = 0; i < s->nacts; i++)
        if (off[i] && opts.ndisabled < CHECK_MAX_DISABLED) {
            opts.disabled[opts.ndisabled++] = s->act_names[i];
            cJSON_AddItemToArray(names, cJSON_CreateString(s->act_names[i]));
        }
    const struct check_opts *saved = s->o;
    s->o = &opts;
    struct choice ch;
    const struct evaluation *ev;
    const char *why = evaluate_model(s, goal, &ch, &ev);
    s->o = saved;
    size_t used = (size_t)snprintf(text, len, "without");
    for (int i = 0; i < s->nacts && used < len; i++)
        if (off[i])
            used += (size_t)snprintf(text + used, len - used, " %s", s->act_names[i]);
    if (used < len)
        used += (size_t)snprintf(text + used, len - used, " it is reachable");
    if (why) {
        snprintf(text, len, "internal error: the concrete evaluator rejects the explanation's execution (%s)", why);
        cJSON_AddStringToObject(out, "error", text);
    } else {
        cJSON *evid = cJSON_CreateArray();
        for (int k = 0; k < ev->m.naxioms; k++) {
            const struct axiom *ax = &ev->m.axioms[k];
            if (!cJSON_GetArrayItem(names, 0) || ax->violated != LIT_TRUE || ax->kind == AX_FLAG)
                continue;
            for (int i = 0; i < s->nacts; i++)
                if (off[i] && strcmp(s->act_names[i], ax->name) == 0) {
                    char one[1024];
                    cJSON_AddItemToArray(evid, evidence(s->p, ev, ax, one, sizeof one));
                    if (used < len)
                        used += (size_t)snprintf(text + used, len - used, "; %s", one);
                }
        }
        cJSON_AddItemToObject(out, "evidence", evid);
        if (s->o->want_witness)
            cJSON_AddItemToObject(out, "witness", wit_build(s->p, &ev->x, &ev->b, &ev->m));
    }
    choice_free(&ch);
    return out;
}

void explain_print_steps(FILE *f, const char *indent, const cJSON *explanation)
{
    const cJSON *evidence, *expansion;
    cJSON_ArrayForEach(evidence, cJSON_GetObjectItemCaseSensitive(explanation, "evidence"))
        cJSON_ArrayForEach(expansion, cJSON_GetObjectItemCaseSensitive(evidence, "expansions"))
            fprintf(f, "%s%s\n", indent, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(expansion, "text")));
}
