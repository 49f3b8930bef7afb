/* Base sets and relations derived from the event table and exec literals. */
#include "encoders/base.h"

#include <stdint.h>
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

/* A set of tag sets, a bit per set. */
typedef uint64_t tag_mask;
_Static_assert(S_COUNT <= 64, "a tag_mask holds every tag set");

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

/* The mask of tag set s when on holds, else 0. */
static inline tag_mask tag(enum base_set s, bool on) { return (tag_mask)on << s; }

/* The Vulkan tag set of scope s (none for another scope). */
static tag_mask vulkan_scope_tag(enum scope s)
{
    switch (s) {
    case SCOPE_SG: return tag(S_SG, true);
    case SCOPE_WG: return tag(S_WG, true);
    case SCOPE_QF: return tag(S_QF, true);
    case SCOPE_DV: return tag(S_DV, true);
    default: return 0;
    }
}

/* The Vulkan tag sets of a thread event, over the common ones in common:
 * ACQ, REL and F are Vulkan's own. */
static tag_mask tag_vulkan(const struct event *e, tag_mask common)
{
    bool acq = e->mo == MO_ACQUIRE || e->mo == MO_ACQ_REL;
    bool rel = e->mo == MO_RELEASE || e->mo == MO_ACQ_REL;
    tag_mask in = common & ~(tag(S_ACQ, true) | tag(S_REL, true) | tag(S_F, true));
    in |= tag(S_ACQ, acq) | tag(S_REL, rel);
    in |= tag(S_F, (e->kind == EV_FENCE && e->in->kind == I_FENCE) ||
                   (e->kind == EV_BARRIER && e->mo != MO_NONE));
    in |= tag(S_CBAR, e->kind == EV_BARRIER);
    in |= tag(S_AVDEVICE, e->kind == EV_FENCE && e->in->kind == I_AVDEVICE);
    in |= tag(S_VISDEVICE, e->kind == EV_FENCE && e->in->kind == I_VISDEVICE);
    in |= tag(S_RMW, e->rmw);
    unsigned semsc;
    unsigned f = vk_event_flags(e, acq, rel, &semsc);
    in |= tag(S_ATOM, f & VK_ATOMIC) | tag(S_NONPRIV, f & VK_NONPRIV);
    in |= tag(S_AV, f & VK_AV) | tag(S_VIS, f & VK_VIS);
    in |= tag(S_SEMAV, f & VK_SEMAV) | tag(S_SEMVIS, f & VK_SEMVIS);
    int sc = e->in->storage_class;
    if (sc >= 0 && sc < 4)
        in |= tag(S_SC0 + sc, true);
    in |= (tag_mask)(semsc & 15u) << S_SEMSC0;   /* SEMSC0..3 are consecutive */
    return in | vulkan_scope_tag(e->scope);
}

/* The OpenCL tag sets of an event, over the common ones in common: F
 * holds fences and barriers, the order tags are C11's (a non-atomic
 * access has none), the scope its own (Dat3M: atomics default to device,
 * non-atomic writes work-item, non-atomic reads none, barriers
 * work-group), and the spaces and NAL are a fence's flags or an initial
 * write's location tags. */
static tag_mask tag_opencl(const struct program *p, const struct event *e, tag_mask common)
{
    bool fence = e->kind == EV_FENCE || e->kind == EV_BARRIER;
    tag_mask in = common & ~(tag(S_WEAK, true) | tag(S_F, true));
    in |= tag(S_F, fence) | tag(S_RMW, e->rmw);
    in |= tag(S_WI, e->scope == SCOPE_WI) | tag(S_WG, e->scope == SCOPE_WG);
    in |= tag(S_DV, e->scope == SCOPE_DV) | tag(S_ALL_SCOPE, e->scope == SCOPE_ALL);
    unsigned tags = 0;
    if (e->kind == EV_INIT)
        tags = p->lit->locs[e->loc].cl_tags;
    else if (fence)
        tags = e->in->cl_flags;
    in |= tag(S_GLOBAL, tags & CL_GLOBAL) | tag(S_LOCAL, tags & CL_LOCAL) | tag(S_NAL, tags & CL_NAL);
    return in;
}

#define T(s) ((tag_mask)1 << (s))

/* The tag sets of each kind of event. */
static const tag_mask kind_tags[] = {
    [EV_INIT] = T(S_ALL) | T(S_M) | T(S_W) | T(S_INIT),
    [EV_READ] = T(S_ALL) | T(S_M) | T(S_R),
    [EV_WRITE] = T(S_ALL) | T(S_M) | T(S_W),
    [EV_FENCE] = T(S_ALL) | T(S_F),
    [EV_BARRIER] = T(S_ALL) | T(S_BAR),
    [EV_UB] = T(S_ALL) | T(S_UB),
};

/* The tag set of each memory order (none for MO_NONE). */
static const tag_mask order_tags[] = {
    [MO_NONE] = 0, [MO_WEAK] = T(S_WEAK), [MO_RELAXED] = T(S_RLX), [MO_ACQUIRE] = T(S_ACQ),
    [MO_RELEASE] = T(S_REL), [MO_ACQ_REL] = T(S_ACQ_REL), [MO_SC] = T(S_SC),
};

/* The PTX tag set of each proxy. */
static const tag_mask proxy_tags[] = {
    [PROXY_GENERIC] = T(S_GEN), [PROXY_SURFACE] = T(S_SUR), [PROXY_TEXTURE] = T(S_TEX),
    [PROXY_CONSTANT] = T(S_CON),
};

/* The tag sets an event belongs to, a bit per set. */
static tag_mask tag_event(const struct program *p, const struct event *e)
{
    enum dialect d = p->lit->dialect;
    tag_mask in = kind_tags[e->kind] | order_tags[e->mo];
    if (d == DIALECT_VULKAN)
        return e->in ? tag_vulkan(e, in) : in;
    if (d == DIALECT_OPENCL)
        return tag_opencl(p, e, in);
    if (e->proxy >= 0)   /* -1: none */
        in |= proxy_tags[e->proxy];
    in |= tag(S_ALIAS, e->kind == EV_FENCE && e->in->kind == I_ALIAS_FENCE);
    return in;
}

bool base_event_in(const struct program *p, int e, enum base_set s)
{
    const struct event *ev = &p->events[e];
    if (s == S_ATOM)   /* asked most: only tag_vulkan tags it, from the flag an RMW's halves share */
        return p->lit->dialect == DIALECT_VULKAN && ev->in && (ev->in->vk_flags & VK_ATOMIC);
    return tag_event(p, ev) >> s & 1;
}

unsigned long long base_event_tags(const struct program *p, int e)
{
    return tag_event(p, &p->events[e]);
}

/* Scratch of base_init, made once in one allocation and reused by each
 * relation it builds (rel_class and set_of copy what they are given). */
struct base_scratch {
    int *key;                /* per event: a class key (rel_class) */
    int *generic_key;        /* per event: another (location_relations) */
    bool *member;            /* per event: in a set (set_of) */
    int *rep, *tkey;         /* per thread: scope_keys's representatives, keys */
    int *level;              /* per event: its scope's level, -1 for none */
    const struct rel *by_scope[SCOPE_ALL + 1];   /* same_scope's relations made */
    tag_mask *tags;          /* per event: its tag sets */
    unsigned long long *columns; /* per tag set: its executable events, a bit each (set_of_bits) */
    int column_words;        /* the words of a column */
    void *block;             /* the allocation of the arrays above */
};

/* Places the arrays of w for p in block (NULL: measures); returns its size. */
static size_t scratch_layout(const struct program *p, struct base_scratch *w, char *block)
{
    struct xblock b = { block, 0 };
    size_t n = (size_t)p->nevents + 1, nt = (size_t)p->nthreads + 1;
    w->key = xblock_take(&b, n, sizeof *w->key);
    w->generic_key = xblock_take(&b, n, sizeof *w->generic_key);
    w->member = xblock_take(&b, n, sizeof *w->member);
    w->rep = xblock_take(&b, nt, sizeof *w->rep);
    w->tkey = xblock_take(&b, nt, sizeof *w->tkey);
    w->level = xblock_take(&b, n, sizeof *w->level);
    w->tags = xblock_take(&b, n, sizeof *w->tags);
    w->column_words = (p->nevents + 63) / 64;
    w->columns = xblock_take(&b, (size_t)S_COUNT * (size_t)w->column_words, sizeof *w->columns);
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

/* i, j in the same instance of scope s, made once per scope (in
 * w->by_scope). */
static const struct rel *same_scope(struct rels *A, const struct program *p, enum scope s,
                                    struct base_scratch *w)
{
    if (!w->by_scope[s])
        w->by_scope[s] = rel_class(A, scope_keys(p, s, w), false);
    return w->by_scope[s];
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
static const struct rel *scope_relation(struct rels *A, const struct program *p, const lit *exec,
                                        struct base_scratch *w)
{
    static const enum scope ptx[] = { SCOPE_CTA, SCOPE_GPU, SCOPE_SYS };
    static const enum scope vk[] = { SCOPE_SG, SCOPE_WG, SCOPE_QF, SCOPE_DV };
    bool vulkan = p->lit->dialect == DIALECT_VULKAN;
    int count = vulkan ? 4 : 3, n = p->nevents;
    bool *wide = w->member;
    int widest = -1;   /* the widest scope level of an event that can execute */
    for (int e = 0; e < n; e++) {
        w->level[e] = p->events[e].scope == SCOPE_NONE ? -1 : program_scope_level(p->events[e].scope);
        if (exec[e] != LIT_FALSE && w->level[e] > widest)
            widest = w->level[e];
    }
    const struct rel *sr = rel_empty(A);
    for (int k = 0; k < count; k++) {
        enum scope s = vulkan ? vk[k] : ptx[k];
        int level = program_scope_level(s);
        if (level > widest)   /* no event scoped this wide, nor wider */
            break;
        for (int e = 0; e < n; e++)
            wide[e] = w->level[e] >= level;
        const struct set *ws = set_of(A, wide);
        sr = rel_union(A, sr, rel_inter(A, rel_product(A, ws, ws), same_scope(A, p, s, w)));
    }
    return sr;
}

/* loc and vloc: i, j memory accesses of one root location, and of one
 * generic location; one relation when the two partitions agree. */
static void location_relations(struct rels *A, const struct program *p, struct base *b,
                               struct base_scratch *w)
{
    bool agree = true;
    for (int e = 0; e < p->nevents; e++) {
        const struct event *ev = &p->events[e];
        bool access = event_is_mem(ev) && ev->loc >= 0;
        w->key[e] = access ? program_root_location(p->lit, ev->loc) : -1;
        w->generic_key[e] = access ? program_generic_location(p->lit, ev->loc) : -1;
        agree &= w->key[e] == w->generic_key[e];
    }
    b->rels[R_LOC] = rel_class(A, w->key, false);
    b->rels[R_VLOC] = agree ? b->rels[R_LOC] : rel_class(A, w->generic_key, false);
}

/* The tag sets of every event: sets with the same events that can
 * execute (most are empty) are one set (set_of_bits finds it by its
 * bits).  Each set's executable events are a column of bits in
 * w->columns. */
static void tag_sets(const struct program *p, const lit *exec, struct base *b, struct base_scratch *w)
{
    int n = p->nevents, words = w->column_words;
    tag_mask present = 0;   /* the sets with an executable event */
    for (int e = 0; e < n; e++) {
        w->tags[e] = tag_event(p, &p->events[e]);
        if (exec[e] == LIT_FALSE)
            continue;
        present |= w->tags[e];
        for (tag_mask m = w->tags[e]; m; m &= m - 1)
            w->columns[__builtin_ctzll(m) * words + e / 64] |= 1ull << (e % 64);
    }
    b->sets[S_ALL] = set_all(b->arena);
    /* every set without executable events is the first one's, made in its
     * turn: the sets made are those of present and that one */
    tag_mask absent = ~present & (~(tag_mask)0 >> (64 - S_COUNT)) & ~tag(S_ALL, true);
    tag_mask first_absent = absent & -absent;
    for (tag_mask todo = (present & ~tag(S_ALL, true)) | first_absent; todo; todo &= todo - 1) {
        int s = __builtin_ctzll(todo);
        b->sets[s] = set_of_bits(b->arena, w->columns + s * words);
    }
    if (first_absent)
        for (tag_mask m = absent & ~first_absent; m; m &= m - 1)
            b->sets[__builtin_ctzll(m)] = b->sets[__builtin_ctzll(first_absent)];
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
                if (t1 == t2 || !base_ssw_declared(p->lit, t1, t2))
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
    struct base_scratch w = { 0 };
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
    location_relations(A, p, b, &w);
    b->rels[R_SR] = scope_relation(A, p, exec, &w);
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
