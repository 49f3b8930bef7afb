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

/* Places a final state's arrays for p in block (NULL: measures): regs
 * first, so that the allocation is fs->regs; returns its size. */
static size_t final_state_layout(const struct program *p, struct final_state *fs, struct bv **mem,
                                 char *block)
{
    struct xblock b = { block, 0 };
    fs->regs = xblock_take(&b, (size_t)p->nthreads + 1, sizeof *fs->regs);
    *mem = xblock_take(&b, (size_t)p->lit->nlocs + 1, sizeof **mem);
    fs->mem = *mem;
    for (int t = 0; t < p->nthreads; t++) {
        struct bv *regs = xblock_take(&b, (size_t)p->threads[t].src->nregs + 1, sizeof *regs);
        if (block)
            fs->regs[t] = regs;
    }
    return b.size;
}

/* The final state as constant bit-vectors, in one allocation (fs.regs). */
static struct final_state final_state_of(const struct program *p, const struct concrete *x)
{
    struct final_state fs;
    struct bv *mem;
    final_state_layout(p, &fs, &mem, xcalloc(1, final_state_layout(p, &fs, &mem, NULL)));
    for (int t = 0; t < p->nthreads; t++) {
        int nr = p->threads[t].src->nregs;
        for (int r = 0; r < nr; r++)
            fs.regs[t][r] = bv_const(x->final_regs[t][r]);
    }
    for (int l = 0; l < p->lit->nlocs; l++)
        mem[l] = bv_const(x->final_mem[l]);
    return fs;
}

/* Whether condition a reads a register or a location (`exists 0==0`,
 * the liveness tests' condition, reads neither). */
static bool reads_state(const struct assertion *a)
{
    for (; a; a = a->lhs) {   /* down a chain's spine (and a negation's operand) */
        if (a->kind == A_CMP)
            return a->a.kind != AV_CONST || a->b.kind != AV_CONST;
        if ((a->kind == A_AND || a->kind == A_OR) && reads_state(a->rhs))
            return true;
    }
    return false;
}

/* The filter and the assertion on the final state (true when absent; the
 * final state made once, and only for a condition that reads it). */
static void final_conditions(struct cnf *c, const struct program *p, const struct concrete *x, struct evaluation *ev)
{
    ev->filter = ev->assertion = true;
    if (!reads_state(p->lit->filter) && !reads_state(p->lit->assertion)) {
        struct final_state none = { NULL, NULL };   /* nothing reads it */
        ev->filter = assertion_encode(c, p->lit->filter, &none) == LIT_TRUE;
        ev->assertion = assertion_encode(c, p->lit->assertion, &none) == LIT_TRUE;
        return;
    }
    struct final_state fs = final_state_of(p, x);
    ev->filter = assertion_encode(c, p->lit->filter, &fs) == LIT_TRUE;
    ev->assertion = assertion_encode(c, p->lit->assertion, &fs) == LIT_TRUE;
    free(fs.regs);   /* the allocation of every array of fs */
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
    final_conditions(ev->c, p, &ev->x, ev);
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
