/* Base sets and relations derived from the event table and exec literals. */
#include "encoders/base.h"

#include <stdlib.h>

#include "util/xalloc.h"

const char *const base_set_names[S_COUNT] = {
    "_", "M", "R", "W", "F", "IW", "BAR", "WEAK", "RLX", "ACQ", "REL", "ACQ_REL", "SC",
    "GEN", "SUR", "TEX", "CON", "ALIAS",
    "ATOM", "NONPRIV", "AV", "VIS", "SEMAV", "SEMVIS", "CBAR", "AVDEVICE", "VISDEVICE", "RMW",
    "SC0", "SC1", "SC2", "SC3", "SEMSC0", "SEMSC1", "SEMSC2", "SEMSC3",
    "SG", "WG", "QF", "DV",
    "WI", "ALL", "GLOBAL", "LOCAL", "NAL", "UB",
};

const char *const base_rel_names[R_COUNT] = {
    "po", "loc", "int", "ext", "rf", "co", "rmw", "addr", "data", "ctrl",
    "sr", "scta", "syncbar", "sync_fence", "vloc",
    "ssg", "swg", "sqf", "ssw", "sdv",
};

bool base_same_location(const struct program *p, const struct event *e1, const struct event *e2)
{
    if (e1->loc < 0 || e2->loc < 0)
        return false;
    return program_root_location(p->lit, e1->loc) == program_root_location(p->lit, e2->loc);
}

bool base_po_fact(const struct skeleton *k, const struct program *p, int a, int b, enum po_fact f)
{
    const struct event *ea = &p->events[a], *eb = &p->events[b];
    if (!(k->on & PO_BIT(f)) || ea->thread < 0 || ea->thread != eb->thread ||
        a >= b || !base_same_location(p, ea, eb))
        return false;
    return k->po_facts(p, a, b) & PO_BIT(f);
}

bool base_rf_candidate(const struct program *p, int w, int r)
{
    const struct event *ew = &p->events[w], *er = &p->events[r];
    return event_is_write(ew) && er->kind == EV_READ && base_same_location(p, ew, er) &&
           w != er->rmw_partner;
}

bool base_rf_possible(const struct skeleton *k, const struct program *p, int w, int r)
{
    return base_rf_candidate(p, w, r) && !base_po_fact(k, p, r, w, PO_NO_FUTURE_READ);
}

bool base_co_backward_impossible(const struct skeleton *k, const struct program *p, int i, int j)
{
    const struct event *a = &p->events[i], *b = &p->events[j];
    return a->kind == EV_WRITE && b->kind == EV_WRITE && base_po_fact(k, p, i, j, PO_CO_NOT_BACK);
}

bool base_co_forced(const struct skeleton *k, const struct program *p, int i, int j)
{
    const struct event *a = &p->events[i], *b = &p->events[j];
    return a->kind == EV_WRITE && b->kind == EV_WRITE && base_po_fact(k, p, i, j, PO_CO_ALONG);
}

bool base_same_vloc(const struct program *p, int a, int b)
{
    const struct event *ea = &p->events[a], *eb = &p->events[b];
    return event_is_mem(ea) && event_is_mem(eb) &&
           program_generic_location(p->lit, ea->loc) == program_generic_location(p->lit, eb->loc);
}

bool base_scopes_overlap(const struct program *p, const struct event *e1, const struct event *e2)
{
    if (e1->scope == SCOPE_NONE || e2->scope == SCOPE_NONE)
        return false;
    return program_same_scope(p, e1->thread, e2->thread, e1->scope) &&
           program_same_scope(p, e2->thread, e1->thread, e2->scope);
}

/* Vulkan flags an event carries: an RMW read keeps the visibility side
 * (and its storage-class semantics only when it acquires), its write the
 * availability side (semantics only when it releases). */
static unsigned vk_event_flags(const struct event *e, bool acq, bool rel, unsigned *semsc)
{
    unsigned f = e->in->vk_flags;
    *semsc = e->in->semsc;
    if (!e->rmw)
        return f;
    bool is_read = e->kind == EV_READ;
    f &= is_read ? ~(unsigned)(VK_AV | VK_SEMAV) : ~(unsigned)(VK_VIS | VK_SEMVIS);
    if (is_read ? !acq : !rel)
        *semsc = 0;
    return f;
}

/* The Vulkan tag sets of a thread event. */
static void tag_vulkan(const struct event *e, bool in[S_COUNT])
{
    bool acq = e->mo == MO_ACQUIRE || e->mo == MO_ACQ_REL;
    bool rel = e->mo == MO_RELEASE || e->mo == MO_ACQ_REL;
    in[S_ACQ] = acq;
    in[S_REL] = rel;
    in[S_F] = (e->kind == EV_FENCE && e->in->kind == I_FENCE) ||
              (e->kind == EV_BARRIER && e->mo != MO_NONE);
    in[S_CBAR] = e->kind == EV_BARRIER;
    in[S_AVDEVICE] = e->kind == EV_FENCE && e->in->kind == I_AVDEVICE;
    in[S_VISDEVICE] = e->kind == EV_FENCE && e->in->kind == I_VISDEVICE;
    in[S_RMW] = e->rmw;
    unsigned semsc;
    unsigned f = vk_event_flags(e, acq, rel, &semsc);
    in[S_ATOM] = f & VK_ATOMIC;
    in[S_NONPRIV] = f & VK_NONPRIV;
    in[S_AV] = f & VK_AV;
    in[S_VIS] = f & VK_VIS;
    in[S_SEMAV] = f & VK_SEMAV;
    in[S_SEMVIS] = f & VK_SEMVIS;
    for (int k = 0; k < 4; k++) {
        in[S_SC0 + k] = e->in->storage_class == k;
        in[S_SEMSC0 + k] = semsc & (1u << k);
    }
    in[S_SG] = e->scope == SCOPE_SG;
    in[S_WG] = e->scope == SCOPE_WG;
    in[S_QF] = e->scope == SCOPE_QF;
    in[S_DV] = e->scope == SCOPE_DV;
}

/* The OpenCL tag sets of an event: F holds fences and barriers, the order
 * tags are C11's (a non-atomic access has none), the scope its own
 * (Dat3M: atomics default to device, non-atomic writes work-item,
 * non-atomic reads none, barriers work-group), and the spaces and NAL are
 * a fence's flags or an initial write's location tags. */
static void tag_opencl(const struct program *p, const struct event *e, bool in[S_COUNT])
{
    in[S_WEAK] = false;
    in[S_F] = e->kind == EV_FENCE || e->kind == EV_BARRIER;
    in[S_RMW] = e->rmw;
    in[S_WI] = e->scope == SCOPE_WI;
    in[S_WG] = e->scope == SCOPE_WG;
    in[S_DV] = e->scope == SCOPE_DV;
    in[S_ALL_SCOPE] = e->scope == SCOPE_ALL;
    unsigned tags = 0;
    if (e->kind == EV_INIT)
        tags = p->lit->locs[e->loc].cl_tags;
    else if (in[S_F])
        tags = e->in->cl_flags;
    in[S_GLOBAL] = tags & CL_GLOBAL;
    in[S_LOCAL] = tags & CL_LOCAL;
    in[S_NAL] = tags & CL_NAL;
}

/* The tag sets an event belongs to. */
static void tag_event(const struct program *p, const struct event *e, bool in[S_COUNT])
{
    enum dialect d = p->lit->dialect;
    for (int s = 0; s < S_COUNT; s++)
        in[s] = false;
    in[S_ALL] = true;
    in[S_M] = event_is_mem(e);
    in[S_R] = e->kind == EV_READ;
    in[S_W] = event_is_write(e);
    in[S_F] = e->kind == EV_FENCE;
    in[S_INIT] = e->kind == EV_INIT;
    in[S_BAR] = e->kind == EV_BARRIER;
    in[S_UB] = e->kind == EV_UB;
    switch (e->mo) {
    case MO_WEAK: in[S_WEAK] = true; break;
    case MO_RELAXED: in[S_RLX] = true; break;
    case MO_ACQUIRE: in[S_ACQ] = true; break;
    case MO_RELEASE: in[S_REL] = true; break;
    case MO_ACQ_REL: in[S_ACQ_REL] = true; break;
    case MO_SC: in[S_SC] = true; break;
    default: break;
    }
    if (d == DIALECT_VULKAN) {
        if (e->in)
            tag_vulkan(e, in);
        return;
    }
    if (d == DIALECT_OPENCL) {
        tag_opencl(p, e, in);
        return;
    }
    in[S_GEN] = e->proxy == PROXY_GENERIC;
    in[S_SUR] = e->proxy == PROXY_SURFACE;
    in[S_TEX] = e->proxy == PROXY_TEXTURE;
    in[S_CON] = e->proxy == PROXY_CONSTANT;
    in[S_ALIAS] = e->kind == EV_FENCE && e->in->kind == I_ALIAS_FENCE;
}

bool base_event_in(const struct program *p, int e, enum base_set s)
{
    bool in[S_COUNT];
    tag_event(p, &p->events[e], in);
    return in[s];
}

/* True when thread `from` is declared to system-synchronise with `to`. */
static bool ssw_declared(const struct litmus *l, int from, int to)
{
    for (int i = 0; i < l->nssw; i++)
        if (l->ssw[i].from == from && l->ssw[i].to == to)
            return true;
    return false;
}

/* Scratch of base_init, made once in one allocation and reused by each
 * relation it builds (rel_class and set_of copy what they are given). */
struct base_scratch {
    int *key;                /* per event: a class key (rel_class) */
    bool *member;            /* per event: in a set (set_of) */
    int *rep, *tkey;         /* per thread: scope_keys's representatives, keys */
    int *level;              /* per event: its scope's level, -1 for none */
    bool (*in)[S_COUNT];     /* per event: its tag sets */
    void *block;             /* the allocation of the arrays above */
};

/* Places the arrays of w for p in block (NULL: measures); returns its size. */
static size_t scratch_layout(const struct program *p, struct base_scratch *w, char *block)
{
    struct xblock b = { block, 0 };
    size_t n = (size_t)p->nevents + 1, nt = (size_t)p->nthreads + 1;
    w->key = xblock_take(&b, n, sizeof *w->key);
    w->member = xblock_take(&b, n, sizeof *w->member);
    w->rep = xblock_take(&b, nt, sizeof *w->rep);
    w->tkey = xblock_take(&b, nt, sizeof *w->tkey);
    w->level = xblock_take(&b, n, sizeof *w->level);
    w->in = xblock_take(&b, n, sizeof *w->in);
    return b.size;
}

/* Per event, in w->key: the instance of scope s its thread is in (dense
 * ids), -1 for an initial write. */
static const int *scope_keys(const struct program *p, enum scope s, struct base_scratch *w)
{
    int nt = p->nthreads, *rep = w->rep, *tkey = w->tkey;
    int groups = 0;
    for (int t = 0; t < nt; t++) {
        tkey[t] = -1;
        for (int g = 0; g < groups && tkey[t] < 0; g++)
            if (program_same_scope(p, t, rep[g], s))
                tkey[t] = g;
        if (tkey[t] < 0) {
            rep[groups] = t;
            tkey[t] = groups++;
        }
    }
    for (int e = 0; e < p->nevents; e++)
        w->key[e] = p->events[e].thread >= 0 ? tkey[p->events[e].thread] : -1;
    return w->key;
}

/* i, j in the same instance of scope s. */
static const struct rel *same_scope(struct rels *A, const struct program *p, enum scope s,
                                    struct base_scratch *w)
{
    return rel_class(A, scope_keys(p, s, w), false);
}

/* OpenCL's sdv: i, j of threads on one device (placement {0, wg, dev}). */
static const struct rel *same_device(struct rels *A, const struct program *p, struct base_scratch *w)
{
    for (int e = 0; e < p->nevents; e++) {
        int t = p->events[e].thread;
        w->key[e] = t >= 0 ? p->lit->threads[t].scope_id[2] : -1;
    }
    return rel_class(A, w->key, false);
}

/* sr: each event's scope includes the other's thread.  Scope instances
 * nest, so that is one instance of the narrower of the two scopes: the
 * union over scopes S of (events scoped S or wider)^2 & same instance of S. */
static const struct rel *scope_relation(struct rels *A, const struct program *p, struct base_scratch *w)
{
    static const enum scope ptx[] = { SCOPE_CTA, SCOPE_GPU, SCOPE_SYS };
    static const enum scope vk[] = { SCOPE_SG, SCOPE_WG, SCOPE_QF, SCOPE_DV };
    bool vulkan = p->lit->dialect == DIALECT_VULKAN;
    int count = vulkan ? 4 : 3, n = p->nevents;
    bool *wide = w->member;
    for (int e = 0; e < n; e++)
        w->level[e] = p->events[e].scope == SCOPE_NONE ? -1 : program_scope_level(p->events[e].scope);
    const struct rel *sr = rel_empty(A);
    for (int k = 0; k < count; k++) {
        enum scope s = vulkan ? vk[k] : ptx[k];
        int level = program_scope_level(s);
        for (int e = 0; e < n; e++)
            wide[e] = w->level[e] >= level;
        const struct set *ws = set_of(A, wide);
        sr = rel_union(A, sr, rel_inter(A, rel_product(A, ws, ws), same_scope(A, p, s, w)));
    }
    return sr;
}

/* Per event: key(e) when e is a memory access, -1 otherwise. */
static const struct rel *same_location(struct rels *A, const struct program *p, bool generic,
                                       struct base_scratch *w)
{
    for (int e = 0; e < p->nevents; e++) {
        const struct event *ev = &p->events[e];
        w->key[e] = !event_is_mem(ev) || ev->loc < 0 ? -1
                    : generic ? program_generic_location(p->lit, ev->loc) : program_root_location(p->lit, ev->loc);
    }
    return rel_class(A, w->key, false);
}

/* The tag sets of every event: a set no event that can execute is in
 * (most are) is the empty set, made once. */
static void tag_sets(const struct program *p, const lit *exec, struct base *b, struct base_scratch *w)
{
    int n = p->nevents;
    bool present[S_COUNT] = { false };
    for (int e = 0; e < n; e++) {
        tag_event(p, &p->events[e], w->in[e]);
        if (exec[e] != LIT_FALSE)
            for (int s = 0; s < S_COUNT; s++)
                present[s] |= w->in[e][s];
    }
    const struct set *none = NULL;
    for (int s = 0; s < S_COUNT; s++) {
        if (s == S_ALL) {
            b->sets[s] = set_all(b->arena);
            continue;
        }
        if (!present[s] && none) {
            b->sets[s] = none;
            continue;
        }
        for (int e = 0; e < n; e++)
            w->member[e] = w->in[e][s];
        b->sets[s] = set_of(b->arena, w->member);
        if (!present[s])
            none = b->sets[s];
    }
}

/* rmw (each RMW read to its write) and ssw (declared thread pairs). */
static void listed_relations(const struct program *p, struct base *b)
{
    struct rels *A = b->arena;
    struct rel_builder rmw, ssw;
    rel_builder_init(&rmw);
    rel_builder_init(&ssw);
    for (int i = 0; i < p->nevents; i++) {
        const struct event *e1 = &p->events[i];
        if (e1->rmw && e1->kind == EV_READ && e1->rmw_partner >= 0)
            rel_add(&rmw, i, e1->rmw_partner, rels_both(A, i, e1->rmw_partner));
    }
    if (p->lit->dialect == DIALECT_VULKAN)
        for (int t1 = 0; t1 < p->nthreads; t1++)
            for (int t2 = 0; t2 < p->nthreads; t2++) {
                if (t1 == t2 || !ssw_declared(p->lit, t1, t2))
                    continue;
                const struct pthread *a = &p->threads[t1], *c = &p->threads[t2];
                for (int i = a->first_event; i < a->first_event + a->nevents; i++)
                    for (int j = c->first_event; j < c->first_event + c->nevents; j++)
                        rel_add(&ssw, i, j, rels_both(A, i, j));
            }
    b->rels[R_RMW] = rel_build(A, &rmw, true);
    b->rels[R_SSW] = rel_build(A, &ssw, true);
}

void base_init(struct base *b, struct cnf *c, const struct program *p, const lit *exec)
{
    int n = p->nevents;
    b->n = n;
    b->arena = rels_new(c, n, exec);
    struct rels *A = b->arena;
    struct base_scratch w;
    w.block = xcalloc(1, scratch_layout(p, &w, NULL));
    scratch_layout(p, &w, w.block);
    tag_sets(p, exec, b, &w);
    for (int r = 0; r < R_COUNT; r++)
        b->rels[r] = rel_empty(A);
    for (int e = 0; e < n; e++)
        w.key[e] = p->events[e].thread;
    b->rels[R_PO] = rel_class(A, w.key, true);
    b->rels[R_INT] = rel_class(A, w.key, false);   /* initial writes are in neither int nor ext */
    b->rels[R_EXT] = rel_diff(A, rel_product(A, set_all(A), set_all(A)),
                              rel_union(A, b->rels[R_INT], rel_id(A, set_all(A))));
    b->rels[R_LOC] = same_location(A, p, false, &w);
    b->rels[R_VLOC] = same_location(A, p, true, &w);
    b->rels[R_SR] = scope_relation(A, p, &w);
    bool vulkan = p->lit->dialect == DIALECT_VULKAN;
    b->rels[R_SCTA] = same_scope(A, p, vulkan ? SCOPE_WG : SCOPE_CTA, &w);
    if (p->lit->dialect == DIALECT_OPENCL) {
        b->rels[R_SWG] = same_scope(A, p, SCOPE_WG, &w);
        b->rels[R_SDV] = same_device(A, p, &w);
    }
    if (vulkan) {
        b->rels[R_SSG] = same_scope(A, p, SCOPE_SG, &w);
        b->rels[R_SWG] = same_scope(A, p, SCOPE_WG, &w);
        b->rels[R_SQF] = same_scope(A, p, SCOPE_QF, &w);
    }
    free(w.block);
    listed_relations(p, b);
}

void base_free(struct base *b)
{
    rels_free(b->arena);
    b->arena = NULL;
}
