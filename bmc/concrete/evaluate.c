/* Concrete evaluation of one execution. */
#include "bmc/concrete/evaluate.h"

#include <stdlib.h>
#include <string.h>

#include "encoders/assertion.h"
#include "util/xalloc.h"

bool axiom_disabled(const char *name, const char *const *disabled, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(disabled[i], name) == 0)
            return true;
    return false;
}

/* Final state as constant bit-vectors. */
static lit final_condition(struct cnf *c, const struct program *p, const struct concrete *x,
                           const struct assertion *a)
{
    struct bv **regs = xcalloc((size_t)p->nthreads, sizeof *regs);
    struct bv *mem = xcalloc((size_t)p->lit->nlocs, sizeof *mem);
    for (int t = 0; t < p->nthreads; t++) {
        int nr = p->threads[t].src->nregs;
        regs[t] = xcalloc((size_t)nr, sizeof **regs);
        for (int r = 0; r < nr; r++)
            regs[t][r] = bv_const(x->final_regs[t][r]);
    }
    for (int l = 0; l < p->lit->nlocs; l++)
        mem[l] = bv_const(x->final_mem[l]);
    struct final_state fs = { regs, mem };
    lit v = assertion_encode(c, a, &fs);
    for (int t = 0; t < p->nthreads; t++)
        free(regs[t]);
    free(regs);
    free(mem);
    return v;
}

void evaluate(const struct program *p, const struct model_desc *md, const struct skeleton *k,
              const char *const *disabled, int ndisabled, const struct choice *ch, struct evaluation *ev)
{
    memset(ev, 0, sizeof *ev);
    interp_run(p, ch, k, &ev->x);
    if (!ev->x.valid)
        return;
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
    ev->filter = final_condition(ev->c, p, &ev->x, p->lit->filter) == LIT_TRUE;
    ev->assertion = final_condition(ev->c, p, &ev->x, p->lit->assertion) == LIT_TRUE;
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
