/* JSON witness construction with cJSON. */
#include "bmc/concrete/witness.h"

#include <stdio.h>

static const char *kind_name(enum ev_kind k)
{
    switch (k) {
    case EV_INIT: return "init";
    case EV_READ: return "read";
    case EV_WRITE: return "write";
    case EV_FENCE: return "fence";
    case EV_BARRIER: return "barrier";
    case EV_UB: return "undefined-behavior";
    }
    return "?";
}

/* The Vulkan tags of an event (storage class, scope, atomicity, av/vis...). */
static cJSON *tags_json(const struct base *b, int e, enum dialect d)
{
    static const enum base_set opencl[] = { S_WI, S_WG, S_DV, S_ALL_SCOPE, S_GLOBAL, S_LOCAL, S_NAL };
    cJSON *a = cJSON_CreateArray();
    if (d == DIALECT_OPENCL) {
        for (size_t k = 0; k < sizeof opencl / sizeof opencl[0]; k++)
            if (b->sets[opencl[k]]->m[e] == LIT_TRUE)
                cJSON_AddItemToArray(a, cJSON_CreateString(base_set_names[opencl[k]]));
        return a;
    }
    for (int s = S_ATOM; s <= S_DV; s++)
        if (b->sets[s]->m[e] == LIT_TRUE)
            cJSON_AddItemToArray(a, cJSON_CreateString(base_set_names[s]));
    return a;
}

static cJSON *event_json(const struct program *p, const struct concrete *x, const struct base *b, int e)
{
    const struct event *ev = &p->events[e];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "id", e);
    if (ev->thread >= 0)
        cJSON_AddNumberToObject(o, "thread", p->lit->threads[ev->thread].id);
    else
        cJSON_AddNullToObject(o, "thread");
    cJSON_AddStringToObject(o, "kind", kind_name(ev->kind));
    cJSON_AddStringToObject(o, "instruction", ev->in ? ev->in->text : "init");
    if (ev->loc >= 0) {
        cJSON_AddStringToObject(o, "location", p->lit->locs[ev->loc].name);
        cJSON_AddStringToObject(o, "physical_location",
                                p->lit->locs[program_root_location(p->lit, ev->loc)].name);
        cJSON_AddStringToObject(o, "generic_location",
                                p->lit->locs[program_generic_location(p->lit, ev->loc)].name);
        cJSON_AddNumberToObject(o, "value", x->val[e]);
    }
    if (ev->proxy >= 0)
        cJSON_AddStringToObject(o, "proxy", proxy_name((enum proxy)ev->proxy));
    if (ev->mo != MO_NONE)
        cJSON_AddStringToObject(o, "order", mo_name(ev->mo));
    if (ev->scope != SCOPE_NONE)
        cJSON_AddStringToObject(o, "scope", scope_name(ev->scope));
    if ((p->lit->dialect == DIALECT_VULKAN && ev->in) || p->lit->dialect == DIALECT_OPENCL)
        cJSON_AddItemToObject(o, "tags", tags_json(b, e, p->lit->dialect));
    if (ev->in && ev->in->pos.line > 0)
        cJSON_AddNumberToObject(o, "line", ev->in->pos.line);
    return o;
}


/* The pairs of a relation; with once, a symmetric pair (a race) is listed
 * once, smaller id first. */
static cJSON *pairs_json(const struct rel *r, bool once)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < r->n; i++) {
        const int *cols;
        const lit *lits;
        int len = rel_row(r, i, &cols, &lits);
        for (int k = 0; k < len; k++) {
            int j = cols[k];
            if (lits[k] == LIT_TRUE && (!once || i <= j || rel_get(r, j, i) != LIT_TRUE)) {
                cJSON *pair = cJSON_CreateArray();
                cJSON_AddItemToArray(pair, cJSON_CreateNumber(i));
                cJSON_AddItemToArray(pair, cJSON_CreateNumber(j));
                cJSON_AddItemToArray(a, pair);
            }
        }
    }
    return a;
}

/* po as immediate successors: the readable transitive reduction. */
static cJSON *po_json(const struct program *p, const struct concrete *x)
{
    cJSON *a = cJSON_CreateArray();
    for (int t = 0; t < p->nthreads; t++) {
        int prev = -1;
        const struct pthread *pt = &p->threads[t];
        for (int e = pt->first_event; e < pt->first_event + pt->nevents; e++) {
            if (!x->exec[e])
                continue;
            if (prev >= 0) {
                cJSON *pair = cJSON_CreateArray();
                cJSON_AddItemToArray(pair, cJSON_CreateNumber(prev));
                cJSON_AddItemToArray(pair, cJSON_CreateNumber(e));
                cJSON_AddItemToArray(a, pair);
            }
            prev = e;
        }
    }
    return a;
}

static cJSON *final_json(const struct program *p, const struct concrete *x)
{
    cJSON *o = cJSON_CreateObject(), *regs = cJSON_CreateObject(), *mem = cJSON_CreateObject();
    for (int t = 0; t < p->nthreads; t++) {
        const struct thread *th = p->threads[t].src;
        for (int r = 0; r < th->nregs; r++) {
            char name[96];
            snprintf(name, sizeof name, "P%d:%s", th->id, th->reg_names[r]);
            cJSON_AddNumberToObject(regs, name, x->final_regs[t][r]);
        }
    }
    for (int l = 0; l < p->lit->nlocs; l++)
        cJSON_AddNumberToObject(mem, p->lit->locs[l].name, x->final_mem[l]);
    cJSON_AddItemToObject(o, "registers", regs);
    cJSON_AddItemToObject(o, "memory", mem);
    return o;
}

/* The reads of the iteration that ends at backjump uop b of thread t, each
 * with the write it reads: what a stuck loop keeps seeing. */
static cJSON *last_reads_json(const struct program *p, const struct concrete *x,
                              const struct base *b, int t, int bj)
{
    const struct pthread *pt = &p->threads[t];
    cJSON *a = cJSON_CreateArray();
    int first = pt->code[pt->code[bj].head].first_event, end = pt->code[bj].first_event;
    for (int r = first; r < end; r++) {
        if (!x->exec[r] || p->events[r].kind != EV_READ)
            continue;
        const int *writes;
        const lit *lits;
        for (int k = 0, len = rel_col(b->rels[R_RF], r, &writes, &lits); k < len; k++) {
            int w = writes[k];
            if (lits[k] == LIT_TRUE) {
                cJSON *o = cJSON_CreateObject();
                cJSON_AddNumberToObject(o, "read", r);
                cJSON_AddNumberToObject(o, "write", w);
                cJSON_AddNumberToObject(o, "value", x->val[r]);
                cJSON_AddItemToArray(a, o);
            }
        }
    }
    return a;
}

/* The threads that never terminate: how (spins, repeats, waits, halted),
 * where (the loop's first line or the barrier), and what the stuck loop's
 * last reads read.  Empty when every thread ends. */
static cJSON *stuck_json(const struct program *p, const struct concrete *x, const struct base *b)
{
    cJSON *a = cJSON_CreateArray();
    for (int t = 0; t < p->nthreads; t++) {
        int at = x->stuck_at[t];
        if (at < 0 || x->bound_hit[t])
            continue;
        const struct pthread *pt = &p->threads[t];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "thread", pt->src->id);
        const char *how = x->spins[t] ? "spins" : x->repeats[t] ? "repeats"
                        : x->blocked[t] ? "waits" : "halted";
        cJSON_AddStringToObject(o, "how", how);
        if (at < pt->ncode && pt->code[at].kind == U_BACKJUMP) {
            const struct uop *first = &pt->code[pt->code[at].head + 1];
            cJSON_AddStringToObject(o, "loop_back", pt->code[at].in->text);
            if (first->in && first->in->pos.line > 0)
                cJSON_AddNumberToObject(o, "loop_line", first->in->pos.line);
            cJSON_AddItemToObject(o, "last_reads", last_reads_json(p, x, b, t, at));
        } else if (x->blocked[t]) {
            cJSON_AddStringToObject(o, "barrier", pt->code[at].in->text);
            cJSON_AddNumberToObject(o, "line", pt->code[at].in->pos.line);
        }
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

/* Each thread's id and its place in the scope tree ("cta 0, gpu 0", "wg 0, dev 0"). */
static cJSON *threads_json(const struct program *p)
{
    static const char *const ptx[] = { "cta", "gpu" }, *const vk[] = { "sg", "wg", "qf" };
    bool is_ptx = p->lit->dialect == DIALECT_PTX;
    cJSON *a = cJSON_CreateArray();
    for (int t = 0; t < p->nthreads; t++) {
        const struct thread *th = p->threads[t].src;
        char place[96];
        if (is_ptx)
            snprintf(place, sizeof place, "%s %d, %s %d", ptx[0], th->scope_id[0], ptx[1], th->scope_id[1]);
        else if (p->lit->dialect == DIALECT_OPENCL)
            snprintf(place, sizeof place, "wg %d, dev %d", th->scope_id[1], th->scope_id[2]);
        else
            snprintf(place, sizeof place, "%s %d, %s %d, %s %d", vk[0], th->scope_id[0], vk[1],
                     th->scope_id[1], vk[2], th->scope_id[2]);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "id", th->id);
        cJSON_AddStringToObject(o, "place", place);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

cJSON *wit_build(const struct program *p, const struct concrete *x, const struct base *b,
                 const struct model_out *m)
{
    cJSON *w = cJSON_CreateObject(), *events = cJSON_CreateArray(), *edges = cJSON_CreateObject();
    for (int e = 0; e < p->nevents; e++)
        if (x->exec[e])
            cJSON_AddItemToArray(events, event_json(p, x, b, e));
    cJSON_AddItemToObject(edges, "po", po_json(p, x));
    static const enum base_rel shown[] = { R_RF, R_CO, R_RMW, R_DATA, R_CTRL, R_SYNCBAR, R_SYNC_FENCE };
    for (size_t k = 0; k < sizeof shown / sizeof shown[0]; k++)
        cJSON_AddItemToObject(edges, base_rel_names[shown[k]], pairs_json(b->rels[shown[k]], false));
    for (int k = 0; k < m->nexports; k++)
        cJSON_AddItemToObject(edges, m->exports[k].name, pairs_json(m->exports[k].rel, false));
    cJSON *flags = cJSON_CreateObject();
    for (int k = 0; k < m->naxioms; k++)
        if (m->axioms[k].kind == AX_FLAG && m->axioms[k].violated == LIT_TRUE)
            cJSON_AddItemToObject(flags, m->axioms[k].name, pairs_json(m->axioms[k].rel, true));
    cJSON_AddItemToObject(w, "threads", threads_json(p));
    cJSON_AddItemToObject(w, "events", events);
    cJSON_AddItemToObject(w, "edges", edges);
    cJSON_AddItemToObject(w, "flags", flags);
    cJSON *cut = cJSON_CreateArray();   /* the threads cut at the loop bound */
    for (int t = 0; t < p->nthreads; t++)
        if (x->bound_hit[t])
            cJSON_AddItemToArray(cut, cJSON_CreateNumber(p->threads[t].src->id));
    if (cJSON_GetArraySize(cut) == 0)   /* a cut execution has no final state */
        cJSON_AddItemToObject(w, "final", final_json(p, x));
    cJSON_AddItemToObject(w, "stuck", stuck_json(p, x, b));
    if (cJSON_GetArraySize(cut) > 0)
        cJSON_AddItemToObject(w, "cut_at_bound", cut);
    else
        cJSON_Delete(cut);
    return w;
}
