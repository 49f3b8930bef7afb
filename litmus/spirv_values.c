/* SPIR-V values the litmus dialects cannot write as one instruction: the
 * minimum and maximum of an atomic on the invocation's own memory, the
 * unsigned quotient by a constant, and arbitrary values (OpUndef, a push
 * constant or OpenCL scalar kernel argument without a value), which Dat3M
 * gives any value: one per OpUndef or argument and invocation, one per
 * push constant element for the whole grid (its MemoryTransformer copies
 * the nondeterministic values of Input and Private memory, OpUndef and
 * the entry function's arguments per thread and shares the others). */
#include <stdlib.h>

#include "litmus/spirv_trans.h"
#include "util/xalloc.h"

void em_extremum(struct trans *t, int r, enum binop op, struct val x, struct val y, const struct spv_inst *in)
{
    bool max = op == OP_SMAX || op == OP_UMAX;
    struct cnd keeps_x = { .k = C_CMP, .cmp = CMP_LT, .is_unsigned = op == OP_UMIN || op == OP_UMAX,
                           .a = max ? y : x, .b = max ? x : y };
    em_select(t, r, &keeps_x, x, y, in);
}

void em_select(struct trans *t, int r, const struct cnd *c, struct val a, struct val b, const struct spv_inst *in)
{
    int lt = em_label(t), lf = em_label(t), end = em_label(t);
    em_jump(t, c, lt, lf, in);
    em_place(t, lt, in);
    em_move(t, r, a, in);
    em_goto(t, end, in);
    em_place(t, lf, in);
    em_move(t, r, b, in);
    em_place(t, end, in);
}

int em_divide_nonnegative(struct trans *t, int r, struct val a, struct val d, const struct spv_inst *in)
{
    int neg = em_label(t), end = em_label(t);
    struct instr *x = em(t, I_BRANCH, in);
    x->cmp = CMP_LT;
    x->a = em_operand(a);
    x->b = em_operand(v_const(0, -1));
    x->label = neg;
    em_local(t, r, OP_DIV, a, d, in);
    em_goto(t, end, in);
    em_place(t, neg, in);
    return end;
}

void em_udiv_const(struct trans *t, int r, struct val a, int64_t c, const struct spv_inst *in)
{
    if (c == 1) {
        em_move(t, r, a, in);
        return;
    }
    /* a < 0 stands for 2^31 + x, x = a & 0x7fffffff: the quotient is
       2^31 / c + x / c, plus 1 when the remainders 2^31 % c and x % c add up
       to c or more */
    int64_t q31 = ((int64_t)1 << 31) / c, r31 = ((int64_t)1 << 31) % c;
    struct val cv = v_const(c, -1);
    int end = em_divide_nonnegative(t, r, a, cv, in), x = em_reg(t), rem = em_reg(t);
    em_local(t, x, OP_AND, a, v_const(0x7fffffff, -1), in);
    em_local(t, r, OP_DIV, v_reg(x, -1), cv, in);
    em_local(t, rem, OP_MUL, v_reg(r, -1), cv, in);
    em_local(t, rem, OP_SUB, v_reg(x, -1), v_reg(rem, -1), in);
    em_local(t, r, OP_ADD, v_reg(r, -1), v_const(q31, -1), in);
    struct instr *br = em(t, I_BRANCH, in);
    br->cmp = CMP_LT;
    br->a = em_operand(v_reg(rem, -1));
    br->b = em_operand(v_const(c - r31, -1));
    br->label = end;
    em_local(t, r, OP_ADD, v_reg(r, -1), v_const(1, -1), in);
    em_place(t, end, in);
}

/* The number of the arbitrary value named by (id, tid, part), a new one
 * the first time. */
static int arbitrary_number(struct trans *t, int id, int tid, int64_t part)
{
    for (int k = 0; k < t->lit->nanys; k++)
        if (t->any_keys[k].id == id && t->any_keys[k].tid == tid && t->any_keys[k].part == part)
            return k;
    XGROW(t->any_keys, t->cap_any_keys, t->lit->nanys + 1);
    t->any_keys[t->lit->nanys] = (struct any_key){ id, tid, part };
    return t->lit->nanys++;
}

/* An arbitrary scalar of type (a bool, an integer of at most 32 bits) in a
 * new register; false with err for other types. */
static bool arbitrary_scalar(struct trans *t, int id, int tid, int64_t part, int type, const struct spv_inst *in,
                             struct val *out)
{
    const struct ty *y = &t->ty[type];
    if (y->k != TY_BOOL && !(y->k == TY_INT && y->width <= 32))
        return spv_fail(t->err, in->pos, "%%%s: an arbitrary value of this type is not supported (only booleans "
                        "and integers of at most 32 bits)", tr_name(t, id));
    int r = em_reg(t);
    struct instr *x = em(t, I_ANY, in);
    x->dst = r;
    x->op = OP_EXCH;
    x->a = em_operand(v_const(arbitrary_number(t, id, tid, part), -1));
    int bits = y->k == TY_BOOL ? 1 : y->width;
    if (bits < 32)   /* kept as 0/1, narrow integers zero-extended */
        em_local(t, r, OP_AND, v_reg(r, -1), v_const((int64_t)((UINT32_C(1) << bits) - 1), -1), in);
    *out = v_reg(r, type);
    return true;
}

bool tr_undef(struct trans *t, int id, struct val *out)
{
    const struct spv_inst *def = &t->m->inst[t->m->id_def[id]];
    const struct ty *y = &t->ty[def->rtype];
    if (y->k != TY_VECTOR)
        return arbitrary_scalar(t, id, t->tid, 0, def->rtype, def, out);
    *out = (struct val){ .k = V_COMP, .type = def->rtype, .n = (int)y->count,
                         .el = tr_alloc(t, sizeof(struct val) * (size_t)(y->count + 1)) };
    for (int i = 0; i < out->n; i++)
        if (!arbitrary_scalar(t, id, t->tid, i, y->elem, def, &out->el[i]))
            return false;
    return true;
}

bool tr_vector_shuffle(struct trans *t, struct frame *fr, const struct spv_inst *in, struct val *out)
{
    struct val a, b;
    if (!tr_get(t, fr, &in->args[0], &a) || !tr_get(t, fr, &in->args[1], &b))
        return false;
    if (a.k != V_COMP || b.k != V_COMP)
        return spv_fail(t->err, in->pos, "OpVectorShuffle: operands are not vectors");
    int n = in->nargs - 2;
    *out = (struct val){ .k = V_COMP, .type = in->rtype, .n = n, .el = tr_alloc(t, sizeof(struct val) * (size_t)(n + 1)) };
    for (int i = 0; i < n; i++) {
        int64_t k = in->args[i + 2].num;
        if (k == 0xFFFFFFFF) {
            if (!arbitrary_scalar(t, in->result, t->tid, i, t->ty[in->rtype].elem, in, &out->el[i]))
                return false;
            continue;
        }
        if (k < 0 || k >= a.n + b.n)
            return spv_fail(t->err, in->args[i + 2].pos, "OpVectorShuffle: component %lld is out of range",
                            (long long)k);
        out->el[i] = k < a.n ? a.el[k] : b.el[k - a.n];
    }
    return true;
}

bool tr_unset_input(struct trans *t, const struct obj *o, int64_t off, int type, const struct spv_inst *in,
                    struct val *out)
{
    int var_type = t->m->inst[t->m->id_def[o->var]].rtype;
    bool per_invocation = t->ty[var_type].sclass == 1;   /* Input */
    return arbitrary_scalar(t, o->var, per_invocation ? t->tid : -1, off, type, in, out);
}

bool tr_unset_arg(struct trans *t, const struct spv_inst *param, struct val *out)
{
    return arbitrary_scalar(t, param->result, t->tid, 0, param->rtype, param, out);
}
