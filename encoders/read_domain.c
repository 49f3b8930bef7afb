/* The bits a read can see, from the constants written to its location. */
#include "encoders/read_domain.h"

#include <stdlib.h>

#include "util/xalloc.h"

/* Counts value v as written to root location root. */
static void note_value(struct read_domain *d, int root, int64_t v)
{
    uint32_t u = (uint32_t)v;   /* bv_const keeps the low BV_WIDTH bits */
    d->any[root] |= u;
    d->all[root] &= u;
}

void read_domain_build(const struct program *p, struct read_domain *d)
{
    int nl = p->lit->nlocs;
    d->nlocs = nl;
    d->known = xcalloc((size_t)nl + 1, sizeof *d->known);
    d->any = xcalloc((size_t)nl + 1, sizeof *d->any);
    d->all = xcalloc((size_t)nl + 1, sizeof *d->all);
    for (int l = 0; l < nl; l++) {
        d->known[l] = true;
        d->all[l] = ~(uint32_t)0;
    }
    for (int e = 0; e < p->nevents; e++) {
        const struct event *ev = &p->events[e];
        if (!event_is_write(ev) || ev->loc < 0 || ev->loc >= nl)
            continue;
        int root = program_root_location(p->lit, ev->loc);
        if (ev->kind == EV_INIT)
            note_value(d, root, p->lit->locs[ev->loc].init);
        else if (ev->in && ev->in->kind == I_STORE && !ev->in->a.is_reg)
            note_value(d, root, ev->in->a.value);
        else
            d->known[root] = false;
    }
}

struct bv read_domain_value(struct cnf *c, const struct read_domain *d, const struct program *p, int loc)
{
    if (loc < 0 || loc >= d->nlocs)
        return bv_fresh(c);
    int root = program_root_location(p->lit, loc);
    if (!d->known[root])
        return bv_fresh(c);
    struct bv v;
    for (int i = 0; i < BV_WIDTH; i++) {
        uint32_t bit = (uint32_t)1 << i;
        v.b[i] = !(d->any[root] & bit) ? LIT_FALSE : (d->all[root] & bit) ? LIT_TRUE : cnf_var(c);
    }
    return v;
}

void read_domain_free(struct read_domain *d)
{
    free(d->known);
    free(d->any);
    free(d->all);
    d->known = NULL;
    d->any = d->all = NULL;
}
