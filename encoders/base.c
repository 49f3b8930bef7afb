/* Base sets and relations derived from the event table and exec literals. */
#include "encoders/base.h"

const char *const base_set_names[S_COUNT] = {
    "_", "M", "R", "W", "F", "IW", "BAR", "WEAK", "RLX", "ACQ", "REL", "ACQ_REL", "SC",
    "GEN", "SUR", "TEX", "CON", "ALIAS",
};

const char *const base_rel_names[R_COUNT] = {
    "po", "loc", "int", "ext", "rf", "co", "rmw", "addr", "data", "ctrl",
    "sr", "scta", "syncbar", "sync_fence", "vloc",
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

bool base_scopes_overlap(const struct program *p, const struct event *e1, const struct event *e2)
{
    if (e1->scope == SCOPE_NONE || e2->scope == SCOPE_NONE)
        return false;
    return program_same_scope(p, e1->thread, e2->thread, e1->scope) &&
           program_same_scope(p, e2->thread, e1->thread, e2->scope);
}

/* The tag sets an event belongs to. */
static void tag_event(const struct event *e, bool in[S_COUNT])
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
    in[S_GEN] = e->proxy == PROXY_GENERIC;
    in[S_SUR] = e->proxy == PROXY_SURFACE;
    in[S_TEX] = e->proxy == PROXY_TEXTURE;
    in[S_CON] = e->proxy == PROXY_CONSTANT;
    in[S_ALIAS] = e->kind == EV_FENCE && e->in->kind == I_ALIAS_FENCE;
}

void base_fill_static(struct cnf *c, const struct program *p, const lit *exec, struct base *b)
{
    int n = b->n;
    for (int i = 0; i < n; i++) {
        bool in[S_COUNT];
        tag_event(&p->events[i], in);
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
            if (event_is_mem(e1) && event_is_mem(e2) &&
                program_generic_location(p->lit, e1->loc) == program_generic_location(p->lit, e2->loc))
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
        }
    }
}
