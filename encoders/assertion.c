/* Assertion encoding over final-state bit-vectors. */
#include "encoders/assertion.h"

#include <stdlib.h>

#include "encoders/symexec.h"
#include "util/xalloc.h"

static struct bv value_of(const struct avalue *v, const struct final_state *fs)
{
    switch (v->kind) {
    case AV_REG: return fs->regs[v->thread][v->reg];
    case AV_LOC: return fs->mem[v->loc];
    default: return bv_const(v->value);
    }
}

lit assertion_encode(struct cnf *c, const struct assertion *a, const struct final_state *fs)
{
    if (!a)
        return LIT_TRUE;
    switch (a->kind) {
    case A_TRUE: return LIT_TRUE;
    case A_AND:
    case A_OR: {             /* a chain, in a loop: it may be any length */
        int n = assertion_chain(a, NULL);
        const struct assertion **ops = xcalloc((size_t)n, sizeof *ops);
        assertion_chain(a, ops);
        lit acc = assertion_encode(c, ops[0], fs);
        for (int i = 1; i < n; i++) {
            lit x = assertion_encode(c, ops[i], fs);
            acc = a->kind == A_AND ? cnf_and(c, acc, x) : cnf_or(c, acc, x);
        }
        free(ops);
        return acc;
    }
    case A_NOT: return -assertion_encode(c, a->lhs, fs);
    case A_CMP: return symexec_cmp(c, a->cmp, value_of(&a->a, fs), value_of(&a->b, fs));
    }
    return LIT_FALSE;
}
