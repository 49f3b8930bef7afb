/* Assertion encoding over final-state bit-vectors. */
#include "encoders/assertion.h"

#include "encoders/symexec.h"

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
    case A_AND: return cnf_and(c, assertion_encode(c, a->lhs, fs), assertion_encode(c, a->rhs, fs));
    case A_OR: return cnf_or(c, assertion_encode(c, a->lhs, fs), assertion_encode(c, a->rhs, fs));
    case A_NOT: return -assertion_encode(c, a->lhs, fs);
    case A_CMP: return symexec_cmp(c, a->cmp, value_of(&a->a, fs), value_of(&a->b, fs));
    }
    return LIT_FALSE;
}
