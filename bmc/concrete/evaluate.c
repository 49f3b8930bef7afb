/* Concrete evaluation of one execution. */
#include "bmc/concrete/evaluate.h"

#include <stddef.h>
#include <string.h>

bool axiom_disabled(const char *name, const char *const *disabled, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(disabled[i], name) == 0)
            return true;
    return false;
}

/* The value v names in the run's final state, as 32 bits (a constant
 * wraps as the encoders' bit-vectors hold it). */
static int32_t final_value(const struct avalue *v, const struct concrete *x)
{
    switch (v->kind) {
    case AV_REG: return x->final_regs[v->thread][v->reg];
    case AV_LOC: return x->final_mem[v->loc];
    default: return (int32_t)(uint32_t)v->value;
    }
}

/* Whether condition a holds in the run's final state (true when absent):
 * a comparison of 32-bit signed values, as the encoders compare them; a
 * chain walked down its spine (lhs), recursion only into real nesting. */
static bool holds(const struct assertion *a, const struct concrete *x)
{
    if (!a)
        return true;
    switch (a->kind) {
    case A_TRUE: return true;
    case A_NOT: return !holds(a->lhs, x);
    case A_CMP: return cmp_holds(a->cmp, final_value(&a->a, x), final_value(&a->b, x));
    case A_AND: case A_OR: {
        bool conj = a->kind == A_AND;
        const struct assertion *op = a;
        for (; op->kind == a->kind; op = op->lhs)   /* each link's right operand */
            if (holds(op->rhs, x) != conj)
                return !conj;
        return holds(op, x);   /* the chain's first operand */
    }
    }
    return false;
}

void evaluate(const struct program *p, const struct model_desc *md, const struct skeleton *k,
              const char *const *disabled, int ndisabled, const struct choice *ch, struct evaluation *ev)
{
    /* b and m, most of ev, are filled whole by interp_base and
     * model_build, and zeroed only for a choice that is no execution */
    memset(ev, 0, offsetof(struct evaluation, b));
    memset(&ev->consistent, 0, sizeof *ev - offsetof(struct evaluation, consistent));
    interp_run(p, ch, k, &ev->x);
    if (!ev->x.valid) {
        memset(&ev->b, 0, sizeof ev->b);
        memset(&ev->m, 0, sizeof ev->m);
        return;
    }
    ev->c = cnf_new(false);
    interp_base(ev->c, p, ch, &ev->x, &ev->b);
    model_build(md, ev->c, &ev->b, &ev->m);
    ev->consistent = true;
    for (int i = 0; i < ev->m.naxioms; i++) {
        const struct axiom *ax = &ev->m.axioms[i];
        if (ax->kind == AX_FLAG || axiom_disabled(ax->name, disabled, ndisabled))
            continue;
        if (ax->violated == LIT_TRUE && ev->consistent) {
            ev->consistent = false;
            ev->violated = ax->name;
        }
    }
    ev->terminated = true;
    for (int t = 0; t < p->nthreads; t++) {
        ev->terminated &= ev->x.terminated[t];
        ev->bound_hit |= ev->x.bound_hit[t];
    }
    ev->filter = holds(p->lit->filter, &ev->x);
    ev->assertion = holds(p->lit->assertion, &ev->x);
}

void evaluation_free(const struct program *p, struct evaluation *ev)
{
    concrete_free(p, &ev->x);
    if (ev->c) {
        base_free(&ev->b);
        model_out_free(&ev->m);
        cnf_free(ev->c);
    }
}
