/* The bits a read can see, from the values written to its location. */
#include "encoders/read_domain.h"

#include <stdlib.h>

#include "util/xalloc.h"

/* The values something can hold, as far as known: every one has the bits
 * of all and none outside any; known false: any value at all. */
struct dom { bool known; uint32_t any, all; };

/* No value yet. */
static const struct dom dom_none = { true, 0, ~(uint32_t)0 };
/* Any value. */
static const struct dom dom_unknown = { false, 0, 0 };

/* The domain of constant v (bv_const keeps the low BV_WIDTH bits). */
static struct dom dom_const(int64_t v)
{
    uint32_t u = (uint32_t)v;
    return (struct dom){ true, u, u };
}

/* Widens *into by from; true when it changed. */
static bool dom_join(struct dom *into, struct dom from)
{
    struct dom old = *into;
    if (!from.known)
        *into = dom_unknown;
    else if (into->known) {
        into->any |= from.any;
        into->all &= from.all;
    }
    return old.known != into->known || (into->known && (old.any != into->any || old.all != into->all));
}

/* The registers of every thread, each a domain (regs[t][r]). */
struct reg_doms { struct dom **regs; };

/* The domain of operand a of an instruction of thread t. */
static struct dom operand_dom(const struct reg_doms *rd, int t, const struct operand *a)
{
    return a->is_reg ? rd->regs[t][a->reg] : dom_const(a->value);
}

/* The domain of root location l (the one read_domain keeps). */
static struct dom loc_dom(const struct read_domain *d, int l)
{
    return d->known[l] ? (struct dom){ true, d->any[l], d->all[l] } : dom_unknown;
}

/* Widens the domain of root location l by v. */
static void widen_loc(struct read_domain *d, int l, struct dom v)
{
    struct dom x = loc_dom(d, l);
    dom_join(&x, v);
    d->known[l] = x.known;
    d->any[l] = x.any;
    d->all[l] = x.all;
}

/* The value write event ev stores: its initial value, a store's operand,
 * an exchange's operand, the new value of a compare-and-swap that writes
 * only when equal; anything else is any value (a compare-and-swap that
 * writes the old value back when unequal too: a cycle of reads between
 * such RMWs, where the model allows it, justifies any value). */
static struct dom written_dom(const struct program *p, const struct reg_doms *rd, const struct event *ev)
{
    const struct instr *in = ev->in;
    if (ev->kind == EV_INIT)
        return dom_const(p->lit->locs[ev->loc].init);
    if (in && in->kind == I_STORE)
        return operand_dom(rd, ev->thread, &in->a);
    if (in && in->kind == I_RMW && in->op == OP_EXCH)
        return operand_dom(rd, ev->thread, &in->a);
    if (in && in->kind == I_RMW && in->op == OP_CAS && in->cas_if_equal)
        return operand_dom(rd, ev->thread, &in->b);
    return dom_unknown;
}

/* The value instruction in of thread t gives its destination register: a
 * move's operand.  Any other is any value: arithmetic, an arbitrary value,
 * and a load's or an RMW's old value too, since a model that allows
 * values out of thin air lets a cycle of reads and stores of registers
 * (r = x; y = r | r = y; x = r) justify any value at all. */
static struct dom assigned_dom(const struct reg_doms *rd, int t, const struct instr *in)
{
    if (in->kind == I_LOCAL && in->op == OP_EXCH)
        return operand_dom(rd, t, &in->a);
    return dom_unknown;
}

/* Widens every register by what its thread's instructions assign it;
 * true when one changed. */
static bool widen_regs(const struct program *p, struct reg_doms *rd)
{
    bool changed = false;
    for (int t = 0; t < p->nthreads; t++)
        for (int k = 0; k < p->threads[t].ncode; k++) {
            const struct instr *in = p->threads[t].code[k].in;
            if (in && in->dst >= 0)
                changed |= dom_join(&rd->regs[t][in->dst], assigned_dom(rd, t, in));
        }
    return changed;
}

/* The largest sum of the constants the adding (or subtracting) RMWs of one
 * location may add to (take from) its other values: values stay below
 * 2^31, and no sum of them wraps. */
#define STEP_MAX ((uint64_t)1 << 31)

/* The constant c that write event ev adds to its location's old value (an
 * RMW add of a known constant 1 <= c < STEP_MAX; *down false) or takes from
 * it (a subtract; *down true); 0 for any other write. */
static uint64_t step_constant(const struct reg_doms *rd, const struct event *ev, bool *down)
{
    const struct instr *in = ev->in;
    if (!in || in->kind != I_RMW || (in->op != OP_ADD && in->op != OP_SUB))
        return 0;
    *down = in->op == OP_SUB;
    struct dom a = operand_dom(rd, ev->thread, &in->a);
    return a.known && a.any == a.all && a.any >= 1 && a.any < STEP_MAX ? a.any : 0;
}

/* Widens every location by what its writes store.  A location whose
 * writes are constants (known bits) and RMWs adding constants of at least
 * 1 (a ticket or a counter) holds values from 0 to the largest constant
 * plus the sum of all the added ones, whatever the model: a write's value
 * is a constant's plus the constants of a chain of distinct such RMWs
 * (each reads a value another write stored; a chain that came back to an
 * RMW would add a positive sum below 2^32 to a value and get it back,
 * which 32-bit addition never does), so the bits above that sum's highest
 * are 0.  (Constants added by several RMWs in a thin-air cycle that a
 * model allows justify nothing: the sum of a cycle is never 0.)  Likewise
 * RMWs subtracting constants, when the smallest constant is at least their
 * sum: values from that difference to the largest constant.  Adds and
 * subtracts on one location could cancel out in a cycle: any value. */
static void widen_locs(const struct program *p, struct read_domain *d, const struct reg_doms *rd)
{
    uint64_t *steps = xcalloc(2 * ((size_t)d->nlocs + 1), sizeof *steps);   /* up, down per root */
    for (int e = 0; e < p->nevents; e++) {
        const struct event *ev = &p->events[e];
        if (!event_is_write(ev) || ev->loc < 0 || ev->loc >= d->nlocs)
            continue;
        int root = program_root_location(p->lit, ev->loc);
        bool down = false;
        uint64_t c = step_constant(rd, ev, &down);
        uint64_t *sum = &steps[2 * (size_t)root + down];
        if (c && *sum < STEP_MAX)
            *sum += c;
        else
            widen_loc(d, root, written_dom(p, rd, ev));
    }
    for (int l = 0; l < d->nlocs; l++) {
        uint64_t up = steps[2 * (size_t)l], down = steps[2 * (size_t)l + 1];
        if ((!up && !down) || !d->known[l])
            continue;
        uint64_t top = (uint64_t)d->any[l] + up;   /* the largest value; the smallest at least all - down */
        bool some = (d->all[l] & ~d->any[l]) == 0;   /* a constant is written (the initial value) */
        d->known[l] = some && top < STEP_MAX && (!up || !down) && (uint64_t)d->all[l] >= down;
        d->any[l] = (uint32_t)top;
        for (int shift = 1; shift < 32; shift *= 2)   /* every bit up to top's highest */
            d->any[l] |= d->any[l] >> shift;
        d->all[l] = 0;
    }
    free(steps);
}

/* Places d's per-location arrays in block (NULL: measures), known first,
 * so that the allocation is d->known; returns its size. */
static size_t domain_layout(struct read_domain *d, char *block)
{
    struct xblock b = { block, 0 };
    size_t n = (size_t)d->nlocs + 1;
    d->known = xblock_take(&b, n, sizeof *d->known);
    d->any = xblock_take(&b, n, sizeof *d->any);
    d->all = xblock_take(&b, n, sizeof *d->all);
    return b.size;
}

/* Places rd's per-thread rows for p in block (NULL: measures), the array of
 * rows first, so that the allocation is rd->regs; returns its size. */
static size_t reg_doms_layout(const struct program *p, struct reg_doms *rd, char *block)
{
    struct xblock b = { block, 0 };
    rd->regs = xblock_take(&b, (size_t)p->nthreads + 1, sizeof *rd->regs);
    for (int t = 0; t < p->nthreads; t++) {
        struct dom *row = xblock_take(&b, (size_t)p->threads[t].src->nregs + 1, sizeof *row);
        if (block)
            rd->regs[t] = row;
    }
    return b.size;
}

void read_domain_build(const struct program *p, struct read_domain *d)
{
    int nl = p->lit->nlocs;
    d->nlocs = nl;
    domain_layout(d, xcalloc(1, domain_layout(d, NULL)));
    for (int l = 0; l < nl; l++) {   /* no value yet */
        d->known[l] = dom_none.known;
        d->all[l] = dom_none.all;
    }
    struct reg_doms rd;
    reg_doms_layout(p, &rd, xcalloc(1, reg_doms_layout(p, &rd, NULL)));
    for (int t = 0; t < p->nthreads; t++) {   /* each register starts at its initial value */
        const struct thread *th = p->threads[t].src;
        for (int r = 0; r < th->nregs; r++)
            rd.regs[t][r] = dom_const(th->reg_has_init[r] ? th->reg_init[r] : 0);
    }
    while (widen_regs(p, &rd))   /* registers only widen, bit by bit: a fixpoint soon */
        ;
    widen_locs(p, d, &rd);
    free(rd.regs);   /* and every row */
}

struct bv read_domain_value(struct cnf *c, const struct read_domain *d, const struct program *p, int loc)
{
    if (loc < 0 || loc >= d->nlocs)
        return bv_fresh(c);
    int root = program_root_location(p->lit, loc);
    if (!d->known[root])
        return bv_fresh(c);
    /* a bit no write sets is 0, one every write sets is 1, the others
     * variables (made lowest bit first) */
    uint32_t any = d->any[root], all = d->all[root];
    struct bv v = bv_const(any & all);
    for (uint32_t free_bits = any & ~all; free_bits; free_bits &= free_bits - 1)
        v.b[__builtin_ctz(free_bits)] = cnf_var(c);
    return v;
}

void read_domain_free(struct read_domain *d)
{
    free(d->known);   /* and any, all */
    d->known = NULL;
    d->any = d->all = NULL;
}
