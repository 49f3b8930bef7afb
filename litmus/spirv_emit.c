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

/* A loop that counts up for ever, here: where the translation cannot
 * follow a path exactly, the path enters it, so that a verdict which
 * reaches it is UNKNOWN at every bound (it is no spin: each round differs). */
void em_diverge(struct trans *t, const struct spv_inst *in)
{
    int l = em_label(t), r = em_reg(t);
    em_place(t, l, in);
    em_local(t, r, OP_ADD, v_reg(r, -1), v_const(1, -1), in);
    em_goto(t, l, in);
}

/* Diverts the path when r = a op b (OP_ADD or OP_SUB on 32 bits) overflowed
 * as a signed 32-bit number: the 64-bit result it stands for lies outside
 * the 32-bit range in which gpubmc keeps 64-bit integers. */
void em_check_wide(struct trans *t, enum binop op, struct val a, struct val b, int r, const struct spv_inst *in)
{
    /* add: (a ^ r) & (b ^ r) < 0; sub: (a ^ b) & (a ^ r) < 0 */
    int x = em_reg(t), y = em_reg(t), over = em_label(t), ok = em_label(t);
    em_local(t, x, OP_XOR, a, v_reg(r, -1), in);
    em_local(t, y, OP_XOR, op == OP_ADD ? b : a, op == OP_ADD ? v_reg(r, -1) : b, in);
    em_local(t, x, OP_AND, v_reg(x, -1), v_reg(y, -1), in);
    struct instr *j = em(t, I_BRANCH, in);
    j->cmp = CMP_LT;
    j->a = em_operand(v_reg(x, -1));
    j->b = em_operand(v_const(0, -1));
    j->label = over;
    em_goto(t, ok, in);
    em_place(t, over, in);
    em_diverge(t, in);
    em_place(t, ok, in);
}

/* Diverts the path when a lies outside [lo, hi] (bounds past the 32-bit
 * range are not checked). */
void em_check_range(struct trans *t, struct val a, int64_t lo, int64_t hi, const struct spv_inst *in)
{
    int over = em_label(t), ok = em_label(t);
    for (int k = 0; k < 2; k++) {
        int64_t bound = k ? hi : lo;
        if (bound < INT32_MIN || bound > INT32_MAX)
            continue;
        struct instr *j = em(t, I_BRANCH, in);
        j->cmp = k ? CMP_GT : CMP_LT;
        j->a = em_operand(a);
        j->b = em_operand(v_const(bound, -1));
        j->label = over;
    }
    em_goto(t, ok, in);
    em_place(t, over, in);
    em_diverge(t, in);
    em_place(t, ok, in);
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

/* dst = v, written v + 0: the Vulkan dialect has no register move, and
 * printed tests must parse again. */
void em_move(struct trans *t, int dst, struct val v, const struct spv_inst *in)
{
    em_local(t, dst, OP_ADD, v, v_const(0, v.type), in);
}

/* Renumbers the thread's labels and registers in the order of their first
 * mention, as the litmus parser numbers them, so that a printed test
 * parses back to the same AST. */
void em_renumber(struct trans *t)
{
    struct thread *th = t->th;
    int *lmap = xcalloc((size_t)th->nlabels + 1, sizeof *lmap), nl = 0;
    for (int i = 0; i < th->nlabels; i++)
        lmap[i] = -1;
    for (int i = 0; i < th->ninstrs; i++) {
        struct instr *x = &th->instrs[i];
        if (x->label >= 0 && (x->kind == I_LABEL || x->kind == I_GOTO || x->kind == I_BRANCH)) {
            if (lmap[x->label] < 0)
                lmap[x->label] = nl++;
            x->label = lmap[x->label];
        }
    }
    char **names = xcalloc((size_t)th->nlabels + 1, sizeof *names);
    for (int i = 0; i < th->nlabels; i++) {
        free(th->label_names[i]);
        if (lmap[i] >= 0) {
            char name[32];
            snprintf(name, sizeof name, "L%d", lmap[i]);
            names[lmap[i]] = xstrdup(name);
        }
    }
    free(th->label_names);
    th->label_names = names;
    th->nlabels = nl;
    free(lmap);
    /* registers: the initialised ones first (the initial state names
       them), then by first mention, dst before operands */
    int *rmap = xcalloc((size_t)th->nregs + 1, sizeof *rmap), nr = 0;
    for (int i = 0; i < th->nregs; i++)
        rmap[i] = -1;
    for (int i = 0; i < th->nregs; i++)
        if (th->reg_has_init[i])
            rmap[i] = nr++;
    for (int i = 0; i < th->ninstrs; i++) {
        struct instr *x = &th->instrs[i];
        int *regs[3] = { x->dst >= 0 ? &x->dst : NULL, x->a.is_reg ? &x->a.reg : NULL,
                         x->b.is_reg ? &x->b.reg : NULL };
        for (int k = 0; k < 3; k++)
            if (regs[k] && rmap[*regs[k]] < 0)
                rmap[*regs[k]] = nr++;
    }
    for (int i = 0; i < th->ninstrs; i++) {
        struct instr *x = &th->instrs[i];
        if (x->dst >= 0)
            x->dst = rmap[x->dst];
        if (x->a.is_reg)
            x->a.reg = rmap[x->a.reg];
        if (x->b.is_reg)
            x->b.reg = rmap[x->b.reg];
    }
    char **rn = xcalloc((size_t)nr + 1, sizeof *rn);
    bool *has = xcalloc((size_t)nr + 1, sizeof *has);
    int64_t *init = xcalloc((size_t)nr + 1, sizeof *init);
    for (int i = 0; i < th->nregs; i++) {
        free(th->reg_names[i]);
        if (rmap[i] < 0)
            continue;
        char name[32];
        snprintf(name, sizeof name, "r%d", rmap[i]);
        rn[rmap[i]] = xstrdup(name);
        has[rmap[i]] = th->reg_has_init[i];
        init[rmap[i]] = th->reg_init[i];
    }
    free(th->reg_names);
    free(th->reg_has_init);
    free(th->reg_init);
    th->reg_names = rn;
    th->reg_has_init = has;
    th->reg_init = init;
    th->nregs = nr;
    free(rmap);
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
            em_goto(t, cmp_holds(c->cmp, (int32_t)a.c, (int32_t)b.c) ? lt : lf, in);
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
