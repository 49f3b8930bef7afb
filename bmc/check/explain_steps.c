/* Compound edges of explanations, expanded into the steps a reader knows. */
#include "bmc/check/explain_steps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmc/check/explain_opencl.h"
#include "util/xalloc.h"

#define MAX_STEP_RELS 6

void explain_event_name(const struct program *p, int e, char *buf, size_t len)
{
    const struct event *ev = &p->events[e];
    if (ev->thread < 0)
        snprintf(buf, len, "e%d init %s", e, p->lit->locs[ev->loc].name);
    else
        snprintf(buf, len, "e%d P%d `%s`", e, p->lit->threads[ev->thread].id, ev->in->text);
}

bool explain_steps_compound(const char *label)
{
    static const char *const compound[] = { "cause", "hb", "locord", "observation", "sync", "sw", "ghb", "lhb",
                                            "O-Sscoped" };
    for (size_t i = 0; label && i < sizeof compound / sizeof compound[0]; i++)
        if (strcmp(label, compound[i]) == 0)
            return true;
    return false;
}

/* The relations a path steps along: po, the synchronisation steps (the
 * model's sync or sw, barriers, SC fences), then rf, in the order the
 * search prefers them between paths of one length; their number.  An
 * OpenCL happens-before (ghb, lhb) steps along program order inside it
 * and its own synchronises-with (gsw, lsw) alone. */
static int step_rels(const struct evaluation *ev, const char *label, struct step_rel *out)
{
    int n = 0;
    bool global = strcmp(label, "ghb") == 0;
    if (explain_cl(ev) && (global || strcmp(label, "lhb") == 0)) {
        out[n++] = (struct step_rel){ ev->b.rels[R_PO], "po", false, explain_export(ev, label) };
        out[n++] = (struct step_rel){ explain_export(ev, global ? "gsw" : "lsw"), global ? "gsw" : "lsw", true, NULL };
        return n;
    }
    out[n++] = (struct step_rel){ ev->b.rels[R_PO], "po", false, NULL };
    static const char *const syncs[] = { "sync", "sw" };
    for (size_t i = 0; i < sizeof syncs / sizeof syncs[0]; i++) {
        const struct rel *r = explain_export(ev, syncs[i]);
        if (r && strcmp(label, syncs[i]) != 0)     /* sync is not explained by itself */
            out[n++] = (struct step_rel){ r, syncs[i], true, NULL };
    }
    out[n++] = (struct step_rel){ ev->b.rels[R_SYNCBAR], base_rel_names[R_SYNCBAR], true, NULL };
    out[n++] = (struct step_rel){ ev->b.rels[R_SYNC_FENCE], base_rel_names[R_SYNC_FENCE], true, NULL };
    out[n++] = (struct step_rel){ ev->b.rels[R_RF], "rf", false, NULL };
    return n;
}

/* Node x with or without a synchronisation step taken is state 2x or 2x+1. */
int explain_shortest_path(int n, const struct step_rel *rels, int nrels, int u, int v, int *path, int *via)
{
    int *parent = xcalloc((size_t)2 * n + 1, sizeof *parent), *how = xcalloc((size_t)2 * n + 1, sizeof *how);
    int *queue = xcalloc((size_t)2 * n + 1, sizeof *queue), head = 0, tail = 0;
    for (int i = 0; i < 2 * n; i++)
        parent[i] = -1;
    parent[2 * u] = 2 * u;
    queue[tail++] = 2 * u;
    while (head < tail && parent[2 * v + 1] < 0) {
        int s = queue[head++], x = s / 2, synced = s % 2;
        for (int k = 0; k < nrels; k++) {
            const int *cols;
            const lit *lits;
            int len = rel_row(rels[k].r, x, &cols, &lits);
            for (int i = 0; i < len; i++) {
                int t = 2 * cols[i] + (synced || rels[k].sync);
                if (lits[i] != LIT_TRUE || parent[t] >= 0
                    || (rels[k].within && rel_get(rels[k].within, x, cols[i]) != LIT_TRUE))
                    continue;
                parent[t] = s;
                how[t] = k;
                queue[tail++] = t;
            }
        }
    }
    int end = parent[2 * v + 1] >= 0 ? 2 * v + 1 : parent[2 * v] >= 0 && v != u ? 2 * v : -1, steps = 0;
    for (int s = end; s >= 0 && s != 2 * u; s = parent[s])
        steps++;
    for (int s = end, k = steps; s >= 0 && s != 2 * u; s = parent[s]) {
        path[k] = s / 2;
        via[--k] = how[s];
    }
    path[0] = u;
    free(parent);
    free(how);
    free(queue);
    return steps;
}

/* The read of b or po-before b that reads from a or a write po-after a:
 * the rf edge (*w, *r) through which release a reaches acquire b. */
static bool rf_through(const struct program *p, const struct evaluation *ev, int a, int b, int *w, int *r)
{
    const struct rel *po = ev->b.rels[R_PO], *rf = ev->b.rels[R_RF];
    for (int x = 0; x < p->nevents; x++) {
        if (x != a && rel_get(po, a, x) != LIT_TRUE)
            continue;
        const int *cols;
        const lit *lits;
        int len = rel_row(rf, x, &cols, &lits);
        for (int i = 0; i < len; i++)
            if (lits[i] == LIT_TRUE && (cols[i] == b || rel_get(po, cols[i], b) == LIT_TRUE)) {
                *w = x;
                *r = cols[i];
                return true;
            }
    }
    return false;
}

cJSON *explain_step_object(const struct program *p, int a, int b, char *na, char *nb, size_t n)
{
    enum ev_kind ka = p->events[a].kind, kb = p->events[b].kind;
    const char *kind = ka == EV_BARRIER && kb == EV_BARRIER ? "barrier"
                       : ka == EV_FENCE && kb == EV_FENCE ? "fence pair" : "release/acquire pattern";
    explain_event_name(p, a, na, n);
    explain_event_name(p, b, nb, n);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kind", kind);
    cJSON_AddNumberToObject(o, "release", a);
    cJSON_AddNumberToObject(o, "acquire", b);
    return o;
}

/* The synchronisation step (a, b) as a reader knows it; appends its text. */
static cJSON *synchronisation(const struct program *p, const struct evaluation *ev, int a, int b, char *text,
                              size_t len, size_t *used)
{
    char na[160], nb[160], nw[160], nr[160];
    cJSON *o = explain_step_object(p, a, b, na, nb, sizeof na);
    const char *kind = cJSON_GetObjectItem(o, "kind")->valuestring;
    if (*used < len)
        *used += (size_t)snprintf(text + *used, len - *used, "; the %s %s and %s", kind, na, nb);
    int w, r;
    if (strcmp(kind, "barrier") != 0 && rf_through(p, ev, a, b, &w, &r)) {
        cJSON *rf = cJSON_AddArrayToObject(o, "through");
        cJSON_AddItemToArray(rf, cJSON_CreateNumber(w));
        cJSON_AddItemToArray(rf, cJSON_CreateNumber(r));
        explain_event_name(p, w, nw, sizeof nw);
        explain_event_name(p, r, nr, sizeof nr);
        if (*used < len)
            *used += (size_t)snprintf(text + *used, len - *used, " (%s reads from %s)", nr, nw);
    }
    return o;
}

cJSON *explain_steps(const struct program *p, const struct evaluation *ev, int u, int v, const char *label)
{
    char text[2048];
    size_t len = sizeof text, at = 0, *used = &at;
    struct step_rel rels[MAX_STEP_RELS];
    /* a path visits each event at most twice: before and after its synchronisation step */
    size_t most = 2 * (size_t)p->nevents + 4;
    int *path = xcalloc(most, sizeof *path), *via = xcalloc(most, sizeof *via), steps;
    const char **names = xcalloc(most, sizeof *names);
    bool seq_cst = explain_cl(ev) && strcmp(label, "O-Sscoped") == 0;
    if (seq_cst) {
        steps = explain_cl_scp_path(p, ev, u, v, path, names);
    } else {
        int nrels = step_rels(ev, label, rels);
        steps = explain_shortest_path(p->nevents, rels, nrels, u, v, path, via);
        for (int k = 0; k < steps; k++)
            names[k] = rels[via[k]].name;
    }
    cJSON *o = NULL;
    if (steps > 0 && !(steps == 1 && strcmp(names[0], label) == 0)) {
        o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "from", u);
        cJSON_AddNumberToObject(o, "to", v);
        cJSON_AddStringToObject(o, "relation", label);
        cJSON *st = cJSON_AddArrayToObject(o, "steps"), *syn = cJSON_AddArrayToObject(o, "synchronisation");
        char name[160];
        explain_event_name(p, u, name, sizeof name);
        if (*used < len)
            *used += (size_t)snprintf(text + *used, len - *used, "%s is %s", label, name);
        for (int k = 0; k < steps; k++) {
            cJSON *s = cJSON_CreateObject();
            cJSON_AddNumberToObject(s, "from", path[k]);
            cJSON_AddNumberToObject(s, "to", path[k + 1]);
            cJSON_AddStringToObject(s, "relation", names[k]);
            cJSON_AddItemToArray(st, s);
            explain_event_name(p, path[k + 1], name, sizeof name);
            if (*used < len)
                *used += (size_t)snprintf(text + *used, len - *used, " -%s-> %s", names[k], name);
        }
        if (seq_cst)
            cJSON_AddItemToArray(syn, explain_cl_seq_cst(p, ev, u, v, text, len, used));
        for (int k = 0; k < steps; k++)
            if (explain_cl(ev) && (strcmp(names[k], "gsw") == 0 || strcmp(names[k], "lsw") == 0))
                cJSON_AddItemToArray(syn, explain_cl_synchronisation(p, ev, names[k], path[k], path[k + 1], text,
                                                                     len, used));
            else if (!seq_cst && rels[via[k]].sync)
                cJSON_AddItemToArray(syn, synchronisation(p, ev, path[k], path[k + 1], text, len, used));
        cJSON_AddStringToObject(o, "text", text);
    }
    free(path);
    free(via);
    free(names);
    return o;
}
