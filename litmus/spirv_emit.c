/* Emitting litmus instructions into the thread being translated:
 * registers, labels, local arithmetic, and jumps on comparison trees
 * (unsigned comparisons by flipping the sign bit, booleans made 0/1
 * registers where a value is needed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/spirv_trans.h"
#include "util/xalloc.h"

/* A constant scalar value. */
struct val v_const(int64_t c, int type)
{
    return (struct val){ .k = V_CONST, .type = type, .c = (int64_t)(int32_t)(uint32_t)c, .reg = -1 };
}

/* A register scalar value. */
struct val v_reg(int reg, int type)
{
    return (struct val){ .k = V_REG, .type = type, .reg = reg };
}

/* A new register of the current thread. */
int em_reg(struct trans *t)
{
    struct thread *th = t->th;
    int cap = t->cap_regs;
    XGROW(th->reg_names, cap, th->nregs + 1);
    cap = t->cap_regs;
    XGROW(th->reg_has_init, cap, th->nregs + 1);
    XGROW(th->reg_init, t->cap_regs, th->nregs + 1);
    char name[32];
    snprintf(name, sizeof name, "r%d", th->nregs);
    th->reg_names[th->nregs] = xstrdup(name);
    th->reg_has_init[th->nregs] = false;
    th->reg_init[th->nregs] = 0;
    return th->nregs++;
}

/* A new label of the current thread. */
int em_label(struct trans *t)
{
    struct thread *th = t->th;
    XGROW(th->label_names, t->cap_labels, th->nlabels + 1);
    char name[32];
    snprintf(name, sizeof name, "L%d", th->nlabels);
    th->label_names[th->nlabels] = xstrdup(name);
    return th->nlabels++;
}

/* Appends an instruction. */
struct instr *em(struct trans *t, enum instr_kind kind, const struct spv_inst *in)
{
    struct thread *th = t->th;
    XGROW(th->instrs, t->cap_instrs, th->ninstrs + 1);
    struct instr *x = &th->instrs[th->ninstrs++];
    memset(x, 0, sizeof *x);
    x->kind = kind;
    x->dst = x->loc = x->label = -1;
    x->storage_class = -1;
    if (in) {
        char text[160];
        if (in->result >= 0)
            snprintf(text, sizeof text, "%%%s = %s", tr_name(t, in->result), in->op->name);
        else
            snprintf(text, sizeof text, "%s", in->op->name);
        x->pos = in->pos;
        x->text = xstrdup(text);
    } else {
        x->text = xstrdup("");
    }
    return x;
}

/* Places label l here. */
void em_place(struct trans *t, int l, const struct spv_inst *in)
{
    em(t, I_LABEL, in)->label = l;
}

/* Jumps to l. */
void em_goto(struct trans *t, int l, const struct spv_inst *in)
{
    em(t, I_GOTO, in)->label = l;
}

/* An operand from a scalar value. */
struct operand em_operand(struct val v)
{
    struct operand o = { 0 };
    if (v.k == V_REG) {
        o.is_reg = true;
        o.reg = v.reg;
    } else {
        o.value = (int64_t)(int32_t)(uint32_t)v.c;
    }
    return o;
}

/* dst = op(a, b). */
void em_local(struct trans *t, int dst, enum binop op, struct val a, struct val b, const struct spv_inst *in)
{
    struct instr *x = em(t, I_LOCAL, in);
    x->dst = dst;
    x->op = op;
    x->a = em_operand(a);
    x->b = em_operand(b);
}

/* dst = v. */
void em_move(struct trans *t, int dst, struct val v, const struct spv_inst *in)
{
    em_local(t, dst, OP_EXCH, v, v_const(0, v.type), in);
}

static bool eval_cmp(enum cmpop op, int32_t a, int32_t b)
{
    switch (op) {
    case CMP_EQ: return a == b;
    case CMP_NE: return a != b;
    case CMP_LT: return a < b;
    case CMP_GT: return a > b;
    case CMP_LE: return a <= b;
    case CMP_GE: return a >= b;
    }
    return false;
}

/* The value with its sign bit flipped (unsigned order as signed order). */
static struct val flip(struct trans *t, struct val v, const struct spv_inst *in)
{
    if (v.k == V_CONST)
        return v_const(v.c ^ (int64_t)0x80000000, v.type);
    int r = em_reg(t);
    em_local(t, r, OP_XOR, v, v_const((int64_t)0x80000000, v.type), in);
    return v_reg(r, v.type);
}

/* Jumps to lt when c holds, else to lf. */
void em_jump(struct trans *t, const struct cnd *c, int lt, int lf, const struct spv_inst *in)
{
    switch (c->k) {
    case C_NOT:
        em_jump(t, c->l, lf, lt, in);
        return;
    case C_AND: case C_OR: {
        int mid = em_label(t);
        if (c->k == C_AND)
            em_jump(t, c->l, mid, lf, in);
        else
            em_jump(t, c->l, lt, mid, in);
        em_place(t, mid, in);
        em_jump(t, c->r, lt, lf, in);
        return;
    }
    case C_CMP: {
        struct val a = c->a, b = c->b;
        bool ordered = c->cmp != CMP_EQ && c->cmp != CMP_NE;
        if (c->is_unsigned && ordered) {
            a = flip(t, a, in);
            b = flip(t, b, in);
        }
        if (a.k == V_CONST && b.k == V_CONST) {
            em_goto(t, eval_cmp(c->cmp, (int32_t)a.c, (int32_t)b.c) ? lt : lf, in);
            return;
        }
        struct instr *x = em(t, I_BRANCH, in);
        x->cmp = c->cmp;
        x->a = em_operand(a);
        x->b = em_operand(b);
        x->label = lt;
        em_goto(t, lf, in);
        return;
    }
    }
}

/* A scalar value for v; a condition becomes a 0/1 register. */
struct val em_scalar(struct trans *t, struct val v, const struct spv_inst *in)
{
    if (v.k != V_COND)
        return v;
    int r = em_reg(t), lt = em_label(t), lf = em_label(t), end = em_label(t);
    em_jump(t, v.cond, lt, lf, in);
    em_place(t, lt, in);
    em_move(t, r, v_const(1, v.type), in);
    em_goto(t, end, in);
    em_place(t, lf, in);
    em_move(t, r, v_const(0, v.type), in);
    em_place(t, end, in);
    return v_reg(r, v.type);
}
