/* OpenCL's synchronisation steps and evidence shapes in explanations. */
#include "bmc/check/explain_opencl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmc/check/explain_steps.h"
#include "util/xalloc.h"

const struct rel *explain_export(const struct evaluation *ev, const char *name)
{
    for (int k = 0; k < ev->m.nexports; k++)
        if (strcmp(ev->m.exports[k].name, name) == 0)
            return ev->m.exports[k].rel;
    return NULL;
}

bool explain_cl(const struct evaluation *ev)
{
    static const char *const names[] = { "ghb", "lhb", "gsw", "lsw", "mo", "rb" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!explain_export(ev, names[i]))
            return false;
    return true;
}

/* (a, b) is a pair of r (a relation the model may lack: NULL). */
static bool has(const struct rel *r, int a, int b)
{
    return r && rel_get(r, a, b) == LIT_TRUE;
}

/* e is in base set s. */
static bool in(const struct evaluation *ev, enum base_set s, int e)
{
    return set_has(ev->b.sets[s], e);
}

/* e is in dynamic_tag(X) (opencl.cat line 26): a fence tagged X, or an
 * access to a location whose initial write is tagged X. */
static bool tagged(const struct program *p, const struct evaluation *ev, enum base_set x, int e)
{
    if (in(ev, S_F, e))
        return in(ev, x, e);
    for (int i = 0; i < p->nevents; i++)
        if (in(ev, S_INIT, i) && in(ev, x, i) && (i == e || has(ev->b.rels[R_LOC], i, e)))
            return true;
    return false;
}

/* rs(h, w) (lines 49-50): w is mo-after h and every write mo-between them
 * and w itself is an RMW or the work-item's own. */
static bool release_sequence(const struct program *p, const struct evaluation *ev, int h, int w)
{
    const struct rel *mo = explain_export(ev, "mo"), *wi = ev->b.rels[R_INT];
    if (!has(mo, h, w) || !(in(ev, S_RMW, w) || has(wi, h, w)))
        return false;
    for (int x = 0; x < p->nevents; x++)
        if (has(mo, h, x) && has(mo, x, w) && !(in(ev, S_RMW, x) || has(wi, h, x)))
            return false;
    return true;
}

/* The inclusive scope of a and b (incl, line 35), "" when none. */
static const char *inclusive_scope(const struct evaluation *ev, int a, int b)
{
    if (has(ev->b.rels[R_SWG], a, b) && in(ev, S_WG, a) && in(ev, S_WG, b))
        return "work-group";
    if (has(ev->b.rels[R_SDV], a, b) && in(ev, S_DV, a) && in(ev, S_DV, b))
        return "device";
    if (in(ev, S_ALL_SCOPE, a) && in(ev, S_ALL_SCOPE, b))
        return "all-svm-devices";
    return "";
}

/* ra_sw(dynamic_tag(region)) from a to b (line 53): a's write h (a
 * itself, or a write after the release fence a), the write w of h's
 * release sequence that the read rd (b itself, or a read before the
 * acquire fence b) reads from.  False when there is none. */
static bool ra_through(const struct program *p, const struct evaluation *ev, enum base_set region, int a, int b,
                       int *h, int *w, int *rd)
{
    const struct rel *po = ev->b.rels[R_PO], *rf = ev->b.rels[R_RF];
    if (!tagged(p, ev, region, a) || !tagged(p, ev, region, b))
        return false;
    for (int x = 0; x < p->nevents; x++) {
        if (!(x == a ? in(ev, S_W, a) : in(ev, S_F, a) && has(po, a, x)) || !in(ev, S_W, x) || in(ev, S_WI, x))
            continue;
        for (int y = 0; y < p->nevents; y++) {
            if (y != x && !release_sequence(p, ev, x, y))
                continue;
            if (!in(ev, S_W, y) || !tagged(p, ev, region, y))
                continue;
            for (int z = 0; z < p->nevents; z++)
                if ((z == b ? in(ev, S_R, b) : in(ev, S_F, b) && has(po, z, b)) && in(ev, S_R, z) && !in(ev, S_WI, z)
                    && has(rf, y, z)) {
                    *h = x;
                    *w = y;
                    *rd = z;
                    return true;
                }
        }
    }
    return false;
}

/* Appends fmt with a and b at *used, while text has room. */
static void append(char *text, size_t len, size_t *used, const char *fmt, const char *a, const char *b)
{
    if (*used < len)
        *used += (size_t)snprintf(text + *used, len - *used, fmt, a, b);
}

cJSON *explain_cl_synchronisation(const struct program *p, const struct evaluation *ev, const char *relation, int a,
                                  int b, char *text, size_t len, size_t *used)
{
    bool global = strcmp(relation, "gsw") == 0;
    enum base_set own = global ? S_GLOBAL : S_LOCAL, other = global ? S_LOCAL : S_GLOBAL;
    char na[160], nb[160], nx[160], ny[160];
    cJSON *o = explain_step_object(p, a, b, na, nb, sizeof na);
    const char *kind = cJSON_GetObjectItem(o, "kind")->valuestring;
    append(text, len, used, "; the %s %s", kind, na);
    append(text, len, used, " and %s (%s", nb, "");
    int h, w, rd;
    enum base_set region = own;
    if (strcmp(kind, "barrier") == 0) {   /* bar_sw: the barriers fence the step's own region */
        cJSON_AddStringToObject(o, "memory", global ? "global" : "local");
        cJSON_AddStringToObject(o, "scope", "work-group");
        append(text, len, used, "%s memory, one work-group)", global ? "global" : "local", "");
        return o;
    }
    if (!ra_through(p, ev, region, a, b, &h, &w, &rd)) {
        region = other;                   /* scf admits ra_sw of the other region */
        if (!ra_through(p, ev, region, a, b, &h, &w, &rd))
            region = S_COUNT;
    }
    if (region != S_COUNT) {
        cJSON *rf = cJSON_AddArrayToObject(o, "through");
        cJSON_AddItemToArray(rf, cJSON_CreateNumber(w));
        cJSON_AddItemToArray(rf, cJSON_CreateNumber(rd));
        explain_event_name(p, w, nx, sizeof nx);
        explain_event_name(p, rd, ny, sizeof ny);
        append(text, len, used, "%s reads from %s", ny, nx);
        if (w != h) {
            cJSON_AddNumberToObject(o, "release_sequence_of", h);
            explain_event_name(p, h, nx, sizeof nx);
            append(text, len, used, ", in the release sequence of %s%s", nx, "");
        }
        append(text, len, used, "; %s memory", region == S_GLOBAL ? "global" : "local", "");
        cJSON_AddStringToObject(o, "memory", region == S_GLOBAL ? "global" : "local");
    }
    const char *scope = inclusive_scope(ev, a, b);
    cJSON_AddStringToObject(o, "scope", scope);
    append(text, len, used, region != S_COUNT ? ", %s scope" : "%s scope", scope, "");
    if (region == other) {
        bool sc = in(ev, S_SC, a) && in(ev, S_SC, b);
        cJSON_AddStringToObject(o, "scf", sc ? "seq_cst" : "both regions");
        append(text, len, used, "; in %s happens-before too: %s", global ? "global" : "local",
               sc ? "both seq_cst" : "both fence global and local memory");
    }
    append(text, len, used, ")%s", "", "");
    return o;
}

cJSON *explain_cl_seq_cst(const struct program *p, const struct evaluation *ev, int a, int b, char *text,
                          size_t len, size_t *used)
{
    bool fences = p->events[a].kind == EV_FENCE && p->events[b].kind == EV_FENCE;
    const char *kind = fences ? "fence pair" : "seq_cst pair", *scope = inclusive_scope(ev, a, b);
    char na[160], nb[160];
    cJSON *o = explain_step_object(p, a, b, na, nb, sizeof na);
    cJSON_ReplaceItemInObject(o, "kind", cJSON_CreateString(kind));
    cJSON_AddStringToObject(o, "scope", scope);
    append(text, len, used, "; the %s %s", kind, na);
    append(text, len, used, " and %s (seq_cst, %s scope)", nb, scope);
    return o;
}

/* The happens-before path from u to v of hb ("ghb" or "lhb"), program
 * order inside hb and its synchronises-with, into path and names; its
 * number of steps, 0 when none. */
static int hb_path(const struct program *p, const struct evaluation *ev, const char *hb, int u, int v, int *path,
                   const char **names)
{
    bool global = strcmp(hb, "ghb") == 0;
    struct step_rel rels[2] = {
        { ev->b.rels[R_PO], "po", false, explain_export(ev, hb) },
        { explain_export(ev, global ? "gsw" : "lsw"), global ? "gsw" : "lsw", true, NULL },
    };
    int *via = xcalloc(2 * (size_t)p->nevents + 2, sizeof *via);
    int steps = explain_shortest_path(p->nevents, rels, 2, u, v, path, via);
    for (int k = 0; k < steps; k++)
        names[k] = rels[via[k]].name;
    free(via);
    return steps;
}

int explain_cl_scp_path(const struct program *p, const struct evaluation *ev, int a, int b, int *path,
                        const char **names)
{
    const struct rel *po = ev->b.rels[R_PO];
    static const char *const middles[] = { "rb", "mo", "ghb", "lhb" };
    size_t most = 2 * (size_t)p->nevents + 4;
    int *sub = xcalloc(most, sizeof *sub), best = 0;
    const char **subnames = xcalloc(most, sizeof *subnames);
    for (int c = 0; c < p->nevents; c++) {
        if (c != a && !(in(ev, S_F, a) && has(po, a, c)))     /* Fsb? */
            continue;
        for (int d = 0; d < p->nevents; d++) {
            if (d != b && !(in(ev, S_F, b) && has(po, d, b)))  /* sbF? */
                continue;
            for (size_t m = 0; m < sizeof middles / sizeof middles[0]; m++) {
                if (!has(explain_export(ev, middles[m]), c, d))
                    continue;
                int n = m < 2 ? 1 : hb_path(p, ev, middles[m], c, d, sub, subnames);
                if (m < 2) {
                    sub[0] = c;
                    sub[1] = d;
                    subnames[0] = middles[m];
                }
                int total = n + (c != a) + (d != b);
                if (n == 0 || (best > 0 && total >= best))
                    continue;
                int k = 0;
                path[0] = a;
                if (c != a) {
                    names[k] = "po";
                    path[++k] = c;
                }
                for (int i = 0; i < n; i++) {
                    names[k] = subnames[i];
                    path[++k] = sub[i + 1];
                }
                if (d != b) {
                    names[k] = "po";
                    path[++k] = b;
                }
                best = total;
            }
        }
    }
    free(sub);
    free(subnames);
    return best;
}

/* The label of the edge (x, i) of happens-before hb: po where program
 * order holds it, else hb. */
static const char *hb_label(const struct evaluation *ev, const char *hb, int x, int i)
{
    return has(ev->b.rels[R_PO], x, i) ? "po" : hb;
}

int explain_cl_reflexive(const struct evaluation *ev, const char *axiom, int i, int *path, const char **labels)
{
    const struct rel *rf = ev->b.rels[R_RF], *ghb = explain_export(ev, "ghb"), *lhb = explain_export(ev, "lhb");
    int n = ev->b.n;
    if (strcmp(axiom, "O-Rf") == 0) {   /* irreflexive rf; (ghb | lhb) (line 93) */
        for (int m = 0; m < n; m++)
            if (has(rf, i, m) && (has(ghb, m, i) || has(lhb, m, i))) {
                path[0] = i;
                path[1] = m;
                labels[0] = "rf";
                labels[1] = hb_label(ev, has(ghb, m, i) ? "ghb" : "lhb", m, i);
                return 2;
            }
        return 0;
    }
    /* irreflexive (rf^-1)?; mo; rf?; hb (lines 84-86): (rf^-1)?; mo is rb or mo */
    const char *hb = strcmp(axiom, "O-CohG") == 0 ? "ghb" : strcmp(axiom, "O-CohL") == 0 ? "lhb" : NULL;
    if (!hb)
        return 0;
    static const char *const firsts[] = { "rb", "mo" };
    for (int with_rf = 0; with_rf < 2; with_rf++)
        for (size_t f = 0; f < 2; f++)
            for (int j = 0; j < n; j++) {
                if (!has(explain_export(ev, firsts[f]), i, j))
                    continue;
                for (int m = 0; m < n; m++) {
                    if ((with_rf ? !has(rf, j, m) : m != j) || !has(explain_export(ev, hb), m, i))
                        continue;
                    int k = 0;
                    path[k] = i;
                    labels[k++] = firsts[f];
                    path[k] = j;
                    if (with_rf) {
                        labels[k++] = "rf";
                        path[k] = m;
                    }
                    labels[k++] = hb_label(ev, hb, m, i);
                    return k;
                }
            }
    return 0;
}

void explain_cl_hidden(const struct program *p, const struct evaluation *ev, const char *axiom, int w, int r,
                       cJSON *o, cJSON *expansions, char *text, size_t len, size_t *used)
{
    const char *hb = strcmp(axiom, "O-NaRfG") == 0 ? "ghb" : strcmp(axiom, "O-NaRfL") == 0 ? "lhb" : NULL;
    if (!hb)
        return;
    const struct rel *h = explain_export(ev, hb), *po = ev->b.rels[R_PO];
    char nw[160], nr[160], nh[160];
    explain_event_name(p, w, nw, sizeof nw);
    explain_event_name(p, r, nr, sizeof nr);
    if (!has(h, w, r)) {
        cJSON_AddBoolToObject(o, "unordered", true);
        if (*used < len)
            *used += (size_t)snprintf(text + *used, len - *used, ", not %s-before it", hb);
        return;
    }
    for (int x = 0; x < p->nevents; x++) {   /* vis (line 96): no write x with w -hb&loc-> x -hb-> r */
        if (!in(ev, S_W, x) || !has(ev->b.rels[R_LOC], x, r) || !has(h, w, x) || !has(h, x, r))
            continue;
        explain_event_name(p, x, nh, sizeof nh);
        const char *first = has(po, w, x) ? "po" : hb, *second = has(po, x, r) ? "po" : hb;
        cJSON *hidden = cJSON_AddObjectToObject(o, "hidden_by");
        cJSON_AddNumberToObject(hidden, "write", x);
        cJSON *events = cJSON_AddArrayToObject(hidden, "events"), *edges = cJSON_AddArrayToObject(hidden, "edges");
        int ids[3] = { w, x, r };
        for (int i = 0; i < 3; i++)
            cJSON_AddItemToArray(events, cJSON_CreateNumber(ids[i]));
        cJSON_AddItemToArray(edges, cJSON_CreateString(first));
        cJSON_AddItemToArray(edges, cJSON_CreateString(second));
        if (*used < len)
            *used += (size_t)snprintf(text + *used, len - *used, ", hidden by %s: %s -%s-> %s -%s-> %s", nh, nw,
                                      first, nh, second, nr);
        const char *labels[2] = { first, second };
        for (int i = 0; i < 2; i++) {
            cJSON *steps = strcmp(labels[i], "po") ? explain_steps(p, ev, ids[i], ids[i + 1], labels[i]) : NULL;
            if (steps)
                cJSON_AddItemToArray(expansions, steps);
        }
        return;
    }
}
