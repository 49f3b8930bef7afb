/* Base sets and relations derived from the event table and exec literals. */
#include "encoders/base.h"

const char *const base_set_names[S_COUNT] = {
    "_", "M", "R", "W", "F", "IW", "BAR", "WEAK", "RLX", "ACQ", "REL", "ACQ_REL", "SC",
    "GEN", "SUR", "TEX", "CON", "ALIAS",
    "ATOM", "NONPRIV", "AV", "VIS", "SEMAV", "SEMVIS", "CBAR", "AVDEVICE", "VISDEVICE", "RMW",
    "SC0", "SC1", "SC2", "SC3", "SEMSC0", "SEMSC1", "SEMSC2", "SEMSC3",
    "SG", "WG", "QF", "DV",
};

const char *const base_rel_names[R_COUNT] = {
    "po", "loc", "int", "ext", "rf", "co", "rmw", "addr", "data", "ctrl",
    "sr", "scta", "syncbar", "sync_fence", "vloc",
    "ssg", "swg", "sqf", "ssw",
};

void base_init(struct base *b, int n)
{
    b->n = n;
    for (int s = 0; s < S_COUNT; s++)
        b->sets[s] = set_empty(n);
    for (int r = 0; r < R_COUNT; r++)
        b->rels[r] = rel_empty(n);
}

void base_free(struct base *b)
{
    for (int s = 0; s < S_COUNT; s++)
        set_free(&b->sets[s]);
    for (int r = 0; r < R_COUNT; r++)
        rel_free(&b->rels[r]);
}

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

/* The tag sets an event belongs to. */
static void tag_event(const struct event *e, enum dialect d, bool in[S_COUNT])
{
    for (int s = 0; s < S_COUNT; s++)
        in[s] = false;
    in[S_ALL] = true;
    in[S_M] = event_is_mem(e);
    in[S_R] = e->kind == EV_READ;
    in[S_W] = event_is_write(e);
    in[S_F] = e->kind == EV_FENCE;
    in[S_INIT] = e->kind == EV_INIT;
    in[S_BAR] = e->kind == EV_BARRIER;
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
    in[S_GEN] = e->proxy == PROXY_GENERIC;
    in[S_SUR] = e->proxy == PROXY_SURFACE;
    in[S_TEX] = e->proxy == PROXY_TEXTURE;
    in[S_CON] = e->proxy == PROXY_CONSTANT;
    in[S_ALIAS] = e->kind == EV_FENCE && e->in->kind == I_ALIAS_FENCE;
}

bool base_event_in(const struct program *p, int e, enum base_set s)
{
    bool in[S_COUNT];
    tag_event(&p->events[e], p->lit->dialect, in);
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

void base_fill_static(struct cnf *c, const struct program *p, const lit *exec, struct base *b)
{
    int n = b->n;
    for (int i = 0; i < n; i++) {
        bool in[S_COUNT];
        tag_event(&p->events[i], p->lit->dialect, in);
        for (int s = 0; s < S_COUNT; s++)
            b->sets[s].m[i] = in[s] ? exec[i] : LIT_FALSE;
    }
    for (int i = 0; i < n; i++) {
        const struct event *e1 = &p->events[i];
        for (int j = 0; j < n; j++) {
            const struct event *e2 = &p->events[j];
            lit both = cnf_and(c, exec[i], exec[j]);
            if (both == LIT_FALSE)
                continue;
            bool same_thread = e1->thread >= 0 && e1->thread == e2->thread;
            if (same_thread && i < j)
                rel_set(&b->rels[R_PO], i, j, both);
            if (event_is_mem(e1) && event_is_mem(e2) && base_same_location(p, e1, e2))
                rel_set(&b->rels[R_LOC], i, j, both);
            if (base_same_vloc(p, i, j))
                rel_set(&b->rels[R_VLOC], i, j, both);
            if (i != j || same_thread)
                rel_set(&b->rels[same_thread || i == j ? R_INT : R_EXT], i, j, both);
            if (e1->rmw && e1->kind == EV_READ && e1->rmw_partner == j)
                rel_set(&b->rels[R_RMW], i, j, both);
            if (base_scopes_overlap(p, e1, e2))
                rel_set(&b->rels[R_SR], i, j, both);
            if (e1->thread >= 0 && e2->thread >= 0 &&
                program_same_scope(p, e1->thread, e2->thread,
                                   p->lit->dialect == DIALECT_PTX ? SCOPE_CTA : SCOPE_WG))
                rel_set(&b->rels[R_SCTA], i, j, both);
            if (p->lit->dialect == DIALECT_VULKAN && e1->thread >= 0 && e2->thread >= 0) {
                static const enum base_rel same[] = { R_SSG, R_SWG, R_SQF };
                static const enum scope level[] = { SCOPE_SG, SCOPE_WG, SCOPE_QF };
                for (int k = 0; k < 3; k++)
                    if (program_same_scope(p, e1->thread, e2->thread, level[k]))
                        rel_set(&b->rels[same[k]], i, j, both);
                if (e1->thread != e2->thread && ssw_declared(p->lit, e1->thread, e2->thread))
                    rel_set(&b->rels[R_SSW], i, j, both);
            }
        }
    }
}
