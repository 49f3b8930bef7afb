/* Function bodies: values of ids per call frame, integer arithmetic and
 * comparisons (folded where constant), composites, structured control flow
 * as labels and jumps (OpPhi as moves on the edges), and function calls
 * inlined. */
#include <stdint.h>
#include <string.h>

#include "litmus/spirv_trans.h"
#include "util/xalloc.h"

#define MAX_CALL_DEPTH 16

/* The value of operand a. */
bool tr_get(struct trans *t, struct frame *fr, const struct spv_arg *a, struct val *out)
{
    int id = a->id;
    if (a->tk != TK_ID || id < 0)
        return spv_fail(t->err, a->pos, "expected an id");
    if (fr && fr->vals[id].k != V_NONE) {
        *out = fr->vals[id];
        return true;
    }
    if (t->globals[id].k != V_NONE) {
        *out = t->globals[id];
        return true;
    }
    int d = t->m->id_def[id];
    if (d >= 0 && spv_is(&t->m->inst[d], "OpUndef"))
        return tr_undef(t, id, out);
    if (d >= 0 && t->m->inst[d].rtype >= 0 && tr_is_wide_int(t, t->m->inst[d].rtype) && spv_is(&t->m->inst[d], "OpConstant"))
        return spv_fail(t->err, a->pos, "%%%s: a 64-bit constant out of the 32-bit range gpubmc computes in",
                        tr_name(t, id));
    if (d >= 0 && t->m->inst[d].rtype >= 0 && t->ty[t->m->inst[d].rtype].k == TY_FLOAT)
        return spv_fail(t->err, a->pos, "%%%s: floating-point values are not supported", tr_name(t, id));
    return spv_fail(t->err, a->pos, "%%%s is used before its definition", tr_name(t, id));
}

static int64_t sx32(int64_t v)
{
    return (int64_t)(int32_t)(uint32_t)v;
}

/* The scalar component type of id's declared type (a vector's element), or -1. */
static int scalar_type_of(const struct trans *t, int id)
{
    int d = t->m->id_def[id];
    int ty = d >= 0 ? t->m->inst[d].rtype : -1;
    if (ty >= 0 && t->ty[ty].k == TY_VECTOR)
        ty = t->ty[ty].elem;
    return ty;
}

/* Checks that operands from..to of in are integers of the width of the
 * result's (or, for comparisons, of each other's); false with err. */
static bool check_int_operands(struct trans *t, const struct spv_inst *in, int from, int to, bool compare)
{
    int want = compare ? scalar_type_of(t, in->args[from].id) : in->rtype;
    if (want >= 0 && t->ty[want].k == TY_VECTOR)
        want = t->ty[want].elem;
    for (int i = from; i <= to && i < in->nargs; i++) {
        int ty = scalar_type_of(t, in->args[i].id);
        if (ty < 0 || want < 0)
            continue;
        const struct ty *a = &t->ty[ty], *b = &t->ty[want];
        if (a->k != TY_INT || b->k != TY_INT || a->width != b->width)
            return spv_fail(t->err, in->args[i].pos, "%s: %%%s has type %%%s, not an integer as wide as %%%s",
                            in->op->name, tr_name(t, in->args[i].id), tr_name(t, ty), tr_name(t, want));
    }
    return true;
}

/* ------------------------------------------------------------------------ */
/* Arithmetic                                                                */

static bool binop_const(const char *op, int64_t a, int64_t b, int64_t *r)
{
    uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
    int32_t sa = (int32_t)ua, sb = (int32_t)ub;
    if (!strcmp(op, "OpIAdd")) *r = (int64_t)(ua + ub);
    else if (!strcmp(op, "OpISub")) *r = (int64_t)(ua - ub);
    else if (!strcmp(op, "OpIMul")) *r = (int64_t)(ua * ub);
    else if (!strcmp(op, "OpBitwiseAnd")) *r = ua & ub;
    else if (!strcmp(op, "OpBitwiseOr")) *r = ua | ub;
    else if (!strcmp(op, "OpBitwiseXor")) *r = ua ^ ub;
    else if (!strcmp(op, "OpShiftLeftLogical")) *r = ub < 32 ? (int64_t)(uint32_t)(ua << ub) : 0;
    else if (!strcmp(op, "OpShiftRightLogical")) *r = ub < 32 ? ua >> ub : 0;
    else if (!strcmp(op, "OpShiftRightArithmetic")) *r = ub < 32 ? sa >> ub : (sa < 0 ? -1 : 0);
    else if (ub == 0 && strstr(op, "Div")) return false;
    else if (ub == 0 && (strstr(op, "Mod") || strstr(op, "Rem"))) return false;
    else if (!strcmp(op, "OpUDiv")) *r = ua / ub;
    else if (!strcmp(op, "OpUMod")) *r = ua % ub;
    else if (!strcmp(op, "OpSDiv")) *r = (sa == INT32_MIN && sb == -1) ? sa : sa / sb;
    else if (!strcmp(op, "OpSRem")) *r = (sa == INT32_MIN && sb == -1) ? 0 : sa % sb;
    else if (!strcmp(op, "OpSMod")) {
        int32_t m = (sa == INT32_MIN && sb == -1) ? 0 : sa % sb;
        *r = (m != 0 && ((m < 0) != (sb < 0))) ? m + sb : m;
    } else return false;
    *r = sx32(*r);
    return true;
}

/* A scalar binary operation with a register operand. */
static bool binop_reg(struct trans *t, const struct spv_inst *in, struct val a, struct val b, struct val *out)
{
    const char *op = in->op->name;
    static const struct { const char *name; enum binop op; } direct[] = {
        { "OpIAdd", OP_ADD }, { "OpISub", OP_SUB }, { "OpIMul", OP_MUL }, { "OpSDiv", OP_DIV },
        { "OpBitwiseAnd", OP_AND }, { "OpBitwiseOr", OP_OR }, { "OpBitwiseXor", OP_XOR },
    };
    int r = em_reg(t);
    *out = v_reg(r, in->rtype);
    for (int i = 0; i < (int)(sizeof direct / sizeof *direct); i++)
        if (!strcmp(op, direct[i].name)) {
            em_local(t, r, direct[i].op, a, b, in);
            return true;
        }
    if (!strcmp(op, "OpShiftLeftLogical") && b.k == V_CONST && b.c >= 0 && b.c < 32) {
        em_local(t, r, OP_MUL, a, v_const((int64_t)1 << b.c, -1), in);
        return true;
    }
    if ((!strcmp(op, "OpShiftRightArithmetic") || !strcmp(op, "OpShiftRightLogical")) && b.k == V_CONST
        && b.c >= 0 && b.c < 32) {
        /* a >= 0: a / 2^k; else arithmetic: ~(~a / 2^k), logical: (a & 0x7fffffff) / 2^k | 2^(31-k) */
        bool arith = !strcmp(op, "OpShiftRightArithmetic");
        struct val p2 = v_const((int64_t)1 << b.c, -1);
        int end = em_divide_nonnegative(t, r, a, p2, in);
        if (b.c == 0) {
            em_move(t, r, a, in);
        } else if (arith) {
            em_local(t, r, OP_XOR, a, v_const(-1, -1), in);
            em_local(t, r, OP_DIV, v_reg(r, -1), p2, in);
            em_local(t, r, OP_XOR, v_reg(r, -1), v_const(-1, -1), in);
        } else {
            em_local(t, r, OP_AND, a, v_const(0x7fffffff, -1), in);
            em_local(t, r, OP_DIV, v_reg(r, -1), p2, in);
            em_local(t, r, OP_OR, v_reg(r, -1), v_const((int64_t)1 << (31 - b.c), -1), in);
        }
        em_place(t, end, in);
        return true;
    }
    if (!strcmp(op, "OpUMod") && b.k == V_CONST && b.c > 0) {
        /* a >= 0: a srem c; else (a + 2^32) mod c = (a srem c) + (2^32 mod c),
           plus c when that is negative (it is below c) */
        int64_t c = b.c, k = ((int64_t)1 << 32) % c;
        int nonneg = em_label(t);
        em_local(t, r, OP_DIV, a, b, in);
        em_local(t, r, OP_MUL, v_reg(r, -1), b, in);
        em_local(t, r, OP_SUB, a, v_reg(r, -1), in);
        struct instr *x = em(t, I_BRANCH, in);
        x->cmp = CMP_GE;
        x->a = em_operand(a);
        x->b = em_operand(v_const(0, -1));
        x->label = nonneg;
        em_local(t, r, OP_ADD, v_reg(r, -1), v_const(k, -1), in);
        x = em(t, I_BRANCH, in);
        x->cmp = CMP_GE;
        x->a = em_operand(v_reg(r, -1));
        x->b = em_operand(v_const(0, -1));
        x->label = nonneg;
        em_local(t, r, OP_ADD, v_reg(r, -1), b, in);
        em_place(t, nonneg, in);
        return true;
    }
    if (!strcmp(op, "OpUDiv") && b.k == V_CONST && b.c > 0) {
        em_udiv_const(t, r, a, b.c, in);
        return true;
    }
    if (!strcmp(op, "OpSRem")) {     /* a - (a / b) * b, the sign of a */
        em_local(t, r, OP_DIV, a, b, in);
        em_local(t, r, OP_MUL, v_reg(r, -1), b, in);
        em_local(t, r, OP_SUB, a, v_reg(r, -1), in);
        return true;
    }
    return spv_fail(t->err, in->pos, "%s on values read from memory is not supported", op);
}

/* Applies the scalar or component-wise operation f. */
typedef bool (*scalar_fn)(struct trans *, const struct spv_inst *, struct val, struct val, struct val *);

static bool componentwise(struct trans *t, const struct spv_inst *in, struct val a, struct val b, scalar_fn f,
                          struct val *out)
{
    if (a.k == V_COMP || b.k == V_COMP) {
        int n = a.k == V_COMP ? a.n : b.n;
        if ((a.k == V_COMP && a.n != n) || (b.k == V_COMP && b.n != n))
            return spv_fail(t->err, in->pos, "%s: operands of different sizes", in->op->name);
        *out = (struct val){ .k = V_COMP, .type = in->rtype, .n = n, .el = tr_alloc(t, sizeof(struct val) * (size_t)n) };
        for (int i = 0; i < n; i++)
            if (!f(t, in, a.k == V_COMP ? a.el[i] : a, b.k == V_COMP ? b.el[i] : b, &out->el[i]))
                return false;
        return true;
    }
    return f(t, in, a, b, out);
}

static bool arith_scalar(struct trans *t, const struct spv_inst *in, struct val a, struct val b, struct val *out)
{
    a = em_scalar(t, a, in);
    b = em_scalar(t, b, in);
    if (a.k == V_CONST && b.k == V_CONST) {
        int64_t r;
        if (!binop_const(in->op->name, a.c, b.c, &r))
            return spv_fail(t->err, in->pos, "%s: division by zero or unsupported operation", in->op->name);
        *out = v_const(r, in->rtype);
        return true;
    }
    if (a.k != V_CONST && a.k != V_REG)
        return spv_fail(t->err, in->pos, "%s: an operand is not an integer", in->op->name);
    if (b.k != V_CONST && b.k != V_REG)
        return spv_fail(t->err, in->pos, "%s: an operand is not an integer", in->op->name);
    return binop_reg(t, in, a, b, out);
}

/* 64-bit integer arithmetic, on values kept in 32 bits (exact while every
 * value fits in 32 bits signed): bitwise operations are exact; a constant
 * result outside that range is refused; an addition or subtraction of
 * registers that leaves it diverts the path (em_check_wide). */
static bool wide_scalar(struct trans *t, const struct spv_inst *in, struct val a, struct val b, struct val *out)
{
    const char *op = in->op->name;
    bool add = !strcmp(op, "OpIAdd"), sub = !strcmp(op, "OpISub"), mul = !strcmp(op, "OpIMul");
    bool bitwise = !strncmp(op, "OpBitwise", 9);
    a = em_scalar(t, a, in);
    b = em_scalar(t, b, in);
    if (a.k == V_CONST && b.k == V_CONST && (add || sub || mul)) {
        int64_t r = add ? a.c + b.c : sub ? a.c - b.c : a.c * b.c;    /* a.c, b.c within 32 bits */
        if (r < INT32_MIN || r > INT32_MAX)
            return spv_fail(t->err, in->pos, "%s: the 64-bit result %lld is out of the 32-bit range gpubmc "
                            "computes in", op, (long long)r);
        *out = v_const(r, in->rtype);
        return true;
    }
    if (bitwise)
        return arith_scalar(t, in, a, b, out);
    if (mul && (a.k == V_CONST || b.k == V_CONST)) {    /* x * c stays in range while x does between bounds */
        struct val x = a.k == V_CONST ? b : a;
        int64_t c = a.k == V_CONST ? a.c : b.c;
        if (c > 0)
            em_check_range(t, x, INT32_MIN / c, INT32_MAX / c, in);
        else if (c < 0)
            em_check_range(t, x, INT32_MAX / c, INT32_MIN / c, in);
        return arith_scalar(t, in, a, b, out);
    }
    if (!add && !sub)
        return spv_fail(t->err, in->pos, "%s: of 64-bit integer arithmetic on values read from memory, only "
                        "addition, subtraction, multiplication by a constant and bitwise operations are supported",
                        op);
    if (!arith_scalar(t, in, a, b, out))
        return false;
    em_check_wide(t, add ? OP_ADD : OP_SUB, a, b, out->reg, in);
    return true;
}

/* 8- and 16-bit integer arithmetic on values kept zero-extended: the
 * 32-bit result's low bits (exact for the operations whose low bits depend
 * only on their operands' low bits: add, sub, mul, bitwise, left shift). */
static bool narrow_scalar(struct trans *t, const struct spv_inst *in, struct val a, struct val b, struct val *out)
{
    const char *op = in->op->name;
    if (strcmp(op, "OpIAdd") && strcmp(op, "OpISub") && strcmp(op, "OpIMul") && strncmp(op, "OpBitwise", 9)
        && strcmp(op, "OpShiftLeftLogical"))
        return spv_fail(t->err, in->pos, "%s: of 8- and 16-bit integer arithmetic only addition, subtraction, "
                        "multiplication, bitwise operations and left shifts are supported", op);
    int st = scalar_type_of(t, in->result);
    int64_t mask = ((int64_t)1 << t->ty[st].width) - 1;
    if (!arith_scalar(t, in, a, b, out))
        return false;
    if (out->k == V_CONST) {
        out->c &= mask;
    } else {
        em_local(t, out->reg, OP_AND, *out, v_const(mask, -1), in);
    }
    return true;
}

static struct cnd *new_cnd(struct trans *t, enum cnd_kind k)
{
    struct cnd *c = tr_alloc(t, sizeof *c);
    c->k = k;
    return c;
}

/* A boolean value as a condition tree (NULL for a constant, in *k). */
static struct cnd *as_cnd(struct trans *t, struct val v, int *konst)
{
    *konst = -1;
    if (v.k == V_CONST) {
        *konst = v.c != 0;
        return NULL;
    }
    if (v.k == V_COND)
        return v.cond;
    struct cnd *c = new_cnd(t, C_CMP);
    c->cmp = CMP_NE;
    c->a = v;
    c->b = v_const(0, -1);
    return c;
}

static bool compare_scalar(struct trans *t, const struct spv_inst *in, struct val a, struct val b, struct val *out)
{
    static const struct { const char *name; enum cmpop cmp; bool u; } cmps[] = {
        { "OpIEqual", CMP_EQ, false }, { "OpINotEqual", CMP_NE, false },
        { "OpULessThan", CMP_LT, true }, { "OpULessThanEqual", CMP_LE, true },
        { "OpUGreaterThan", CMP_GT, true }, { "OpUGreaterThanEqual", CMP_GE, true },
        { "OpSLessThan", CMP_LT, false }, { "OpSLessThanEqual", CMP_LE, false },
        { "OpSGreaterThan", CMP_GT, false }, { "OpSGreaterThanEqual", CMP_GE, false },
        { "OpLogicalEqual", CMP_EQ, false }, { "OpLogicalNotEqual", CMP_NE, false },
    };
    a = em_scalar(t, a, in);
    b = em_scalar(t, b, in);
    if ((a.k != V_CONST && a.k != V_REG) || (b.k != V_CONST && b.k != V_REG))
        return spv_fail(t->err, in->pos, "%s: an operand is not an integer or boolean", in->op->name);
    for (int i = 0; i < (int)(sizeof cmps / sizeof *cmps); i++) {
        if (strcmp(in->op->name, cmps[i].name))
            continue;
        if (a.k == V_CONST && b.k == V_CONST) {
            int64_t x = cmps[i].u ? (int64_t)(uint32_t)a.c : a.c, y = cmps[i].u ? (int64_t)(uint32_t)b.c : b.c;
            bool r = cmps[i].cmp == CMP_EQ ? x == y : cmps[i].cmp == CMP_NE ? x != y : cmps[i].cmp == CMP_LT ? x < y
                   : cmps[i].cmp == CMP_LE ? x <= y : cmps[i].cmp == CMP_GT ? x > y : x >= y;
            *out = v_const(r, in->rtype);
            return true;
        }
        struct cnd *c = new_cnd(t, C_CMP);
        c->cmp = cmps[i].cmp;
        c->is_unsigned = cmps[i].u;
        c->a = a;
        c->b = b;
        *out = (struct val){ .k = V_COND, .type = in->rtype, .cond = c, .reg = -1 };
        return true;
    }
    return spv_fail(t->err, in->pos, "%s is not supported", in->op->name);
}

static bool logical_scalar(struct trans *t, const struct spv_inst *in, struct val a, struct val b, struct val *out)
{
    int ka, kb = -1;
    struct cnd *ca = as_cnd(t, a, &ka), *cb = in->nargs > 1 ? as_cnd(t, b, &kb) : NULL;
    if (spv_is(in, "OpLogicalNot")) {
        if (ka >= 0) {
            *out = v_const(!ka, in->rtype);
            return true;
        }
        struct cnd *c = new_cnd(t, C_NOT);
        c->l = ca;
        *out = (struct val){ .k = V_COND, .type = in->rtype, .cond = c, .reg = -1 };
        return true;
    }
    bool is_and = spv_is(in, "OpLogicalAnd");
    if (ka >= 0 || kb >= 0) {
        int k = ka >= 0 ? ka : kb;
        struct val other = ka >= 0 ? b : a;
        if (is_and)
            *out = k ? other : v_const(0, in->rtype);
        else
            *out = k ? v_const(1, in->rtype) : other;
        if (ka >= 0 && kb >= 0)
            *out = v_const(is_and ? (ka && kb) : (ka || kb), in->rtype);
        return true;
    }
    struct cnd *c = new_cnd(t, is_and ? C_AND : C_OR);
    c->l = ca;
    c->r = cb;
    *out = (struct val){ .k = V_COND, .type = in->rtype, .cond = c, .reg = -1 };
    return true;
}

/* OpSelect of scalars. */
static bool select_scalar(struct trans *t, const struct spv_inst *in, struct val cond, struct val a, struct val b,
                          struct val *out)
{
    int k;
    struct cnd *c = as_cnd(t, cond, &k);
    if (k >= 0) {
        *out = k ? a : b;
        return true;
    }
    if (a.k == V_PTR || b.k == V_PTR || a.k == V_COMP || b.k == V_COMP)
        return spv_fail(t->err, in->pos, "OpSelect of pointers or composites on a runtime condition is not supported");
    a = em_scalar(t, a, in);
    b = em_scalar(t, b, in);
    int r = em_reg(t);
    em_select(t, r, c, a, b, in);
    *out = v_reg(r, in->rtype);
    return true;
}

/* GLSL.std.450's SMin, SMax, UMin, UMax (b: the second operand), SAbs and
 * FindILsb on a scalar; in->args[1] names the instruction. */
static bool glsl_scalar(struct trans *t, const struct spv_inst *in, struct val a, struct val b, struct val *out)
{
    const struct spv_arg *w = &in->args[1];
    a = em_scalar(t, a, in);
    b = em_scalar(t, b, in);
    if (w->len == 8 && !memcmp(w->s, "FindILsb", 8)) {
        if (a.k == V_REG) {     /* r = -1, then r = k for each set bit k from 31 down to 0 */
            int r = em_reg(t), bit = em_reg(t);
            em_move(t, r, v_const(-1, -1), in);
            for (int k = 31; k >= 0; k--) {
                int skip = em_label(t);
                em_local(t, bit, OP_AND, a, v_const((int64_t)(int32_t)(UINT32_C(1) << k), -1), in);
                struct instr *x = em(t, I_BRANCH, in);
                x->cmp = CMP_EQ;
                x->a = em_operand(v_reg(bit, -1));
                x->b = em_operand(v_const(0, -1));
                x->label = skip;
                em_move(t, r, v_const(k, -1), in);
                em_place(t, skip, in);
            }
            *out = v_reg(r, in->rtype);
            return true;
        }
        if (a.k != V_CONST)
            return spv_fail(t->err, w->pos, "FindILsb: the operand is not an integer");
        uint32_t x = (uint32_t)a.c;
        int64_t r = -1;
        for (int i = 0; i < 32 && x; i++)
            if (x >> i & 1) {
                r = i;
                break;
            }
        *out = v_const(r, in->rtype);
        return true;
    }
    bool is_abs = w->len == 4 && !memcmp(w->s, "SAbs", 4);
    if (is_abs)
        b = a;
    bool min = w->s[1] == 'M' && w->s[2] == 'i', is_unsigned = w->s[0] == 'U';
    struct cnd *c = tr_alloc(t, sizeof *c);
    c->k = C_CMP;
    c->cmp = is_abs ? CMP_LT : min ? CMP_LT : CMP_GT;
    c->is_unsigned = is_unsigned;
    c->a = a;
    c->b = is_abs ? v_const(0, -1) : b;
    struct val neg = a;
    if (is_abs) {
        struct spv_inst sub = *in;
        sub.op = spv_grammar_op(t->m->g, "OpISub", 6);
        if (!arith_scalar(t, &sub, v_const(0, -1), a, &neg))
            return false;
    }
    struct val cond = { .k = V_COND, .type = -1, .cond = c, .reg = -1 };
    if (a.k == V_CONST && b.k == V_CONST) {
        int64_t x = is_unsigned ? (int64_t)(uint32_t)a.c : a.c, y = is_unsigned ? (int64_t)(uint32_t)b.c : b.c;
        *out = is_abs ? (a.c < 0 ? neg : a) : ((min ? x < y : x > y) ? a : b);
        out->type = in->rtype;
        return true;
    }
    return select_scalar(t, in, cond, is_abs ? neg : a, is_abs ? a : b, out);
}

/* OpExtInst: non-semantic sets are ignored; GLSL.std.450's integer
 * minimum, maximum, absolute value and lowest set bit; OpenCL.std's in
 * spirv_opencl.c. */
static bool ext_inst(struct trans *t, struct frame *fr, const struct spv_inst *in, struct val *out)
{
    const struct spv_inst *set = &t->m->inst[t->m->id_def[in->args[0].id]];
    const struct spv_arg *name = &set->args[0], *w = &in->args[1];
    if (name->len >= 12 && !strncmp(name->s, "NonSemantic.", 12))
        return true;
    if (!(name->len == 12 && !strncmp(name->s, "GLSL.std.450", 12)))
        return tr_cl_ext_inst(t, fr, in, name, out);
    static const char *ops[] = { "SMin", "SMax", "UMin", "UMax", "SAbs", "FindILsb" };
    bool known = false;
    for (int i = 0; i < 6; i++)
        known = known || ((int)strlen(ops[i]) == w->len && !memcmp(ops[i], w->s, (size_t)w->len));
    if (!known || w->tk != TK_WORD)
        return spv_fail(t->err, w->pos, "OpExtInst: GLSL.std.450 %.*s is not supported", w->len, w->s);
    bool unary = w->s[1] == 'A' || w->s[0] == 'F';
    if (in->nargs != (unary ? 3 : 4))
        return spv_fail(t->err, in->pos, "OpExtInst: %.*s takes %d operands", w->len, w->s, unary ? 1 : 2);
    struct val a, b;
    if (!tr_get(t, fr, &in->args[2], &a) || !tr_get(t, fr, &in->args[unary ? 2 : 3], &b))
        return false;
    return componentwise(t, in, a, b, glsl_scalar, out);
}

/* ------------------------------------------------------------------------ */
/* Composites                                                                */

static bool composite(struct trans *t, struct frame *fr, const struct spv_inst *in, struct val *out)
{
    if (spv_is(in, "OpCompositeConstruct")) {
        *out = (struct val){ .k = V_COMP, .type = in->rtype, .n = in->nargs,
                             .el = tr_alloc(t, sizeof(struct val) * (size_t)(in->nargs + 1)) };
        for (int i = 0; i < in->nargs; i++)
            if (!tr_get(t, fr, &in->args[i], &out->el[i]))
                return false;
        const struct ty *y = &t->ty[in->rtype];
        if (y->k == TY_VECTOR && out->n != y->count)
            return spv_fail(t->err, in->pos, "OpCompositeConstruct of vectors from vectors is not supported");
        return true;
    }
    if (spv_is(in, "OpVectorShuffle"))
        return tr_vector_shuffle(t, fr, in, out);
    bool insert = spv_is(in, "OpCompositeInsert");
    struct val obj, part;
    if (!tr_get(t, fr, &in->args[insert ? 1 : 0], &obj) || (insert && !tr_get(t, fr, &in->args[0], &part)))
        return false;
    int first = insert ? 2 : 1;
    /* copy the path down when inserting */
    struct val root = obj, *cur = &root;
    for (int i = first; i < in->nargs; i++) {
        int64_t k = in->args[i].num;
        if (cur->k != V_COMP || k < 0 || k >= cur->n)
            return spv_fail(t->err, in->args[i].pos, "%s: index %lld is out of the composite", in->op->name,
                            (long long)k);
        if (insert) {
            struct val *copy = tr_alloc(t, sizeof(struct val) * (size_t)cur->n);
            memcpy(copy, cur->el, sizeof(struct val) * (size_t)cur->n);
            cur->el = copy;
        }
        cur = &cur->el[k];
    }
    if (insert) {
        *cur = part;
        *out = root;
    } else {
        *out = *cur;
    }
    out->type = in->rtype;
    return true;
}

/* ------------------------------------------------------------------------ */
/* Control flow and functions                                                */

static int fn_index(const struct trans *t, int id)
{
    int d = t->m->id_def[id];
    return d >= 0 && spv_is(&t->m->inst[d], "OpFunction") ? d : -1;
}

static int block_label(struct trans *t, struct frame *fr, int block)
{
    if (fr->vals[block].k != V_LABEL) {
        fr->vals[block] = (struct val){ .k = V_LABEL, .reg = em_label(t) };
    }
    return fr->vals[block].reg;
}

/* Moves for the OpPhi instructions of block target, coming from block from. */
static bool phi_moves(struct trans *t, struct frame *fr, int from, int target, const struct spv_inst *at)
{
    int d = t->m->id_def[target];
    if (d < 0 || !spv_is(&t->m->inst[d], "OpLabel"))
        return spv_fail(t->err, at->pos, "%s: %%%s is not a block label", at->op->name, tr_name(t, target));
    int nphi = 0;
    struct val tmp[64];
    int dst[64];
    for (int i = d + 1; i < t->m->ninst; i++) {
        const struct spv_inst *p = &t->m->inst[i];
        if (spv_is(p, "OpLine") || spv_is(p, "OpNoLine"))
            continue;
        if (!spv_is(p, "OpPhi"))
            break;
        if (nphi == 64)
            return spv_fail(t->err, p->pos, "OpPhi: too many in one block");
        const struct ty *y = &t->ty[p->rtype];
        if (y->k != TY_INT && y->k != TY_BOOL)
            return spv_fail(t->err, p->pos, "OpPhi of %s values is not supported",
                            y->k == TY_POINTER ? "pointer" : "composite or floating-point");
        int k = -1;
        for (int a = 0; a + 1 < p->nargs; a += 2)
            if (p->args[a + 1].id == from)
                k = a;
        if (k < 0)
            return spv_fail(t->err, p->pos, "OpPhi has no value for the edge from %%%s", tr_name(t, from));
        struct val v;
        if (!tr_get(t, fr, &p->args[k], &v))
            return false;
        v = em_scalar(t, v, at);
        if (fr->vals[p->result].k != V_REG)
            fr->vals[p->result] = v_reg(em_reg(t), p->rtype);
        dst[nphi] = fr->vals[p->result].reg;
        tmp[nphi++] = v;
    }
    /* a phi reading another phi of the block reads its old value */
    for (int i = 0; i < nphi; i++)
        for (int j = 0; j < nphi; j++)
            if (tmp[i].k == V_REG && tmp[i].reg == dst[j] && j < i) {
                int r = em_reg(t);
                em_move(t, r, tmp[i], at);
                tmp[i] = v_reg(r, tmp[i].type);
            }
    for (int i = 0; i < nphi; i++)
        if (!(tmp[i].k == V_REG && tmp[i].reg == dst[i]))
            em_move(t, dst[i], tmp[i], at);
    return true;
}

static bool has_phi(const struct trans *t, int target)
{
    int d = t->m->id_def[target];
    for (int i = d + 1; d >= 0 && i < t->m->ninst; i++) {
        const struct spv_inst *p = &t->m->inst[i];
        if (spv_is(p, "OpPhi"))
            return true;
        if (!spv_is(p, "OpLine") && !spv_is(p, "OpNoLine"))
            return false;
    }
    return false;
}

/* Marks block target as reached by a jump from at; false with err when the
 * block was skipped already (it comes before every block that reaches it). */
static bool reach(struct trans *t, struct frame *fr, int target, const struct spv_inst *at)
{
    if (fr->block_state[target] == BLOCK_SKIPPED)
        return spv_fail(t->err, at->pos, "%s: block %%%s is reached only from blocks after it, which gpubmc "
                        "does not translate", at->op->name, tr_name(t, target));
    if (fr->block_state[target] == BLOCK_UNSEEN)
        fr->block_state[target] = BLOCK_REACHED;
    return true;
}

/* Jumps from block from to target with its phi moves. */
static bool jump_to(struct trans *t, struct frame *fr, int from, int target, const struct spv_inst *at)
{
    if (!reach(t, fr, target, at) || !phi_moves(t, fr, from, target, at))
        return false;
    em_goto(t, block_label(t, fr, target), at);
    return true;
}

/* The label to jump to for target: the block's, or a stub doing its phi moves. */
static int edge_label(struct trans *t, struct frame *fr, int target, int *stub)
{
    if (!has_phi(t, target)) {
        *stub = -1;
        return block_label(t, fr, target);
    }
    *stub = em_label(t);
    return *stub;
}

static bool call(struct trans *t, int fn, struct val *args, int nargs, struct frame *parent,
                 const struct spv_inst *site, struct val *result);

static bool branch(struct trans *t, struct frame *fr, int block, const struct spv_inst *in)
{
    if (spv_is(in, "OpBranch"))
        return jump_to(t, fr, block, in->args[0].id, in);
    if (spv_is(in, "OpBranchConditional")) {
        struct val c;
        if (!tr_get(t, fr, &in->args[0], &c))
            return false;
        int k;
        struct cnd *cc = as_cnd(t, c, &k);
        if (k >= 0)
            return jump_to(t, fr, block, in->args[k ? 1 : 2].id, in);
        int s1, s2;
        if (!reach(t, fr, in->args[1].id, in) || !reach(t, fr, in->args[2].id, in))
            return false;
        int l1 = edge_label(t, fr, in->args[1].id, &s1), l2 = edge_label(t, fr, in->args[2].id, &s2);
        em_jump(t, cc, l1, l2, in);
        if (s1 >= 0) {
            em_place(t, s1, in);
            if (!jump_to(t, fr, block, in->args[1].id, in))
                return false;
        }
        if (s2 >= 0) {
            em_place(t, s2, in);
            if (!jump_to(t, fr, block, in->args[2].id, in))
                return false;
        }
        return true;
    }
    /* OpSwitch selector default (literal label)* */
    struct val sel;
    if (!tr_get(t, fr, &in->args[0], &sel))
        return false;
    sel = em_scalar(t, sel, in);
    int ncase = (in->nargs - 2) / 2;
    if (sel.k == V_CONST) {
        int target = in->args[1].id;
        for (int i = 0; i < ncase; i++)
            if (sx32(in->args[2 + 2 * i].num) == sel.c)
                target = in->args[3 + 2 * i].id;
        return jump_to(t, fr, block, target, in);
    }
    int *stubs = tr_alloc(t, sizeof(int) * (size_t)(ncase + 1));
    for (int i = 0; i < ncase; i++) {
        if (!reach(t, fr, in->args[3 + 2 * i].id, in))
            return false;
        int s, l = edge_label(t, fr, in->args[3 + 2 * i].id, &s);
        stubs[i] = s;
        struct instr *x = em(t, I_BRANCH, in);
        x->cmp = CMP_EQ;
        x->a = em_operand(sel);
        x->b = em_operand(v_const(in->args[2 + 2 * i].num, -1));
        x->label = l;
    }
    if (!jump_to(t, fr, block, in->args[1].id, in))
        return false;
    for (int i = 0; i < ncase; i++)
        if (stubs[i] >= 0) {
            em_place(t, stubs[i], in);
            if (!jump_to(t, fr, block, in->args[3 + 2 * i].id, in))
                return false;
        }
    return true;
}

/* One instruction of a function body. */
static bool body_inst(struct trans *t, struct frame *fr, int *block, const struct spv_inst *in)
{
    const char *n = in->op->name;
    struct val *res = in->result >= 0 ? &fr->vals[in->result] : NULL;
    struct val a, b, c;
    if (spv_is(in, "OpLabel")) {
        *block = in->result;
        em_place(t, block_label(t, fr, in->result), in);
        return true;
    }
    if (spv_is(in, "OpPhi")) {
        if (res->k != V_REG)
            *res = v_reg(em_reg(t), in->rtype);
        return true;
    }
    if (spv_is(in, "OpBranch") || spv_is(in, "OpBranchConditional") || spv_is(in, "OpSwitch"))
        return branch(t, fr, *block, in);
    if (spv_is(in, "OpReturn") || spv_is(in, "OpReturnValue")) {
        if (spv_is(in, "OpReturnValue")) {
            if (!tr_get(t, fr, &in->args[0], &a))
                return false;
            if (a.k == V_PTR || a.k == V_COMP) {
                if (fr->has_ret && (fr->ret.k != a.k || fr->ret.obj != a.obj || fr->ret.off != a.off
                                    || fr->ret.reg != a.reg || fr->ret.maybe_null || a.maybe_null
                                    || a.k == V_COMP))
                    return spv_fail(t->err, in->pos, "OpReturnValue: returning different pointers or composites "
                                    "is not supported");
                fr->ret = a;
            } else {
                a = em_scalar(t, a, in);
                if (fr->ret_reg < 0)
                    fr->ret_reg = em_reg(t);
                em_move(t, fr->ret_reg, a, in);
                fr->ret = v_reg(fr->ret_reg, in->rtype);
            }
            fr->has_ret = true;
        }
        em_goto(t, fr->ret_label, in);
        return true;
    }
    if (spv_is(in, "OpUnreachable")) {   /* Dat3M: an event tagged UB; the function ends there */
        em(t, I_UB, in);
        em_goto(t, fr->ret_label, in);
        return true;
    }
    if (spv_is(in, "OpSelectionMerge") || spv_is(in, "OpLoopMerge") || spv_is(in, "OpLine")
        || spv_is(in, "OpNoLine") || spv_is(in, "OpNop") || !strncmp(n, "OpDecorate", 10)
        || spv_is(in, "OpName") || spv_is(in, "OpMemberName"))
        return true;
    if (spv_is(in, "OpVariable")) {
        int o = tr_private_object(t, in);
        if (o < 0)
            return false;
        *res = (struct val){ .k = V_PTR, .type = in->rtype, .obj = o, .reg = -1 };
        if (in->nargs > 1) {     /* the initializer, each time the variable is reached */
            if (!tr_get(t, fr, &in->args[1], &a))
                return false;
            const struct obj *ob = &t->obj[o];
            if (a.k == V_COMP || ob->nleaf != 1)
                return spv_fail(t->err, in->pos, "OpVariable: composite initializers of Function variables are "
                                "not supported");
            em_move(t, ob->leaf[0].reg, em_scalar(t, a, in), in);
        }
        return true;
    }
    if (!strncmp(n, "OpConstant", 10) || (!strncmp(n, "OpSpecConstant", 14) && strcmp(n, "OpSpecConstantOp")))
        return tr_constant(t, in, res);
    if (spv_is(in, "OpLoad") || spv_is(in, "OpStore"))
        return tr_load_store(t, fr, in, res);
    if (strstr(n, "AccessChain"))
        return tr_access_chain(t, fr, in, res);
    if (!strncmp(n, "OpAtomic", 8))
        return tr_atomic(t, fr, in, res);
    if (spv_is(in, "OpControlBarrier") || spv_is(in, "OpMemoryBarrier"))
        return tr_barrier(t, fr, in);
    if (spv_is(in, "OpBitcast") || spv_is(in, "OpCopyObject") || spv_is(in, "OpUConvert")
        || spv_is(in, "OpSConvert")) {
        if (!tr_get(t, fr, &in->args[0], &a))
            return false;
        if (a.k == V_PTR)
            return tr_access_chain(t, fr, in, res);
        const struct ty *y = &t->ty[in->rtype];
        int st = scalar_type_of(t, in->args[0].id);
        const struct ty *from = st >= 0 ? &t->ty[st] : NULL;
        bool narrow_from = from && from->k == TY_INT && from->width < 32 && a.k != V_COMP;
        bool narrow_to = y->k == TY_INT && y->width < 32;
        if (narrow_from && !spv_is(in, "OpCopyObject") && spv_is(in, "OpSConvert") && !narrow_to) {
            /* 8 and 16 bits are kept zero-extended: sign-extend, (x ^ m) - m */
            int64_t m = (int64_t)1 << (from->width - 1);
            if (a.k == V_CONST) {
                a.c = (a.c ^ m) - m;
            } else {
                int r = em_reg(t);
                em_local(t, r, OP_XOR, a, v_const(m, -1), in);
                em_local(t, r, OP_SUB, v_reg(r, -1), v_const(m, -1), in);
                a = v_reg(r, in->rtype);
            }
        }
        if (narrow_to && !spv_is(in, "OpCopyObject") && a.k != V_COMP) {     /* keep the low bits */
            int64_t mask = ((int64_t)1 << y->width) - 1;
            if (a.k == V_CONST) {
                a.c &= mask;
            } else {
                int r = em_reg(t);
                em_local(t, r, OP_AND, em_scalar(t, a, in), v_const(mask, -1), in);
                a = v_reg(r, in->rtype);
            }
        } else if (y->k == TY_INT && y->width > 32 && spv_is(in, "OpUConvert") && !(a.k == V_CONST && a.c >= 0)) {
            return spv_fail(t->err, in->pos, "OpUConvert to 64 bits of a value that may be negative is not supported");
        } else if (!spv_is(in, "OpCopyObject") && y->k != TY_INT && !(y->k == TY_VECTOR && a.k == V_COMP))
            return spv_fail(t->err, in->pos, "%s to a %d-bit type is not supported", n, y->width);
        *res = a;
        res->type = in->rtype;
        return true;
    }
    if (spv_is(in, "OpFunctionCall")) {
        int fn = fn_index(t, in->args[0].id);
        if (fn < 0)
            return spv_fail(t->err, in->args[0].pos, "OpFunctionCall: %%%s is not a function",
                            tr_name(t, in->args[0].id));
        struct val *args = tr_alloc(t, sizeof(struct val) * (size_t)in->nargs);
        for (int i = 1; i < in->nargs; i++)
            if (!tr_get(t, fr, &in->args[i], &args[i - 1]))
                return false;
        if (fr->depth >= MAX_CALL_DEPTH)
            return spv_fail(t->err, in->pos, "OpFunctionCall: calls nested deeper than %d (recursion?)",
                            MAX_CALL_DEPTH);
        return call(t, fn, args, in->nargs - 1, fr, in, res);
    }
    if (spv_is(in, "OpExtInst"))
        return ext_inst(t, fr, in, res);
    if (spv_is(in, "OpSelect")) {
        if (!tr_get(t, fr, &in->args[0], &c) || !tr_get(t, fr, &in->args[1], &a) || !tr_get(t, fr, &in->args[2], &b))
            return false;
        return select_scalar(t, in, c, a, b, res);
    }
    if (!strncmp(n, "OpComposite", 11) || spv_is(in, "OpVectorShuffle"))
        return composite(t, fr, in, res);
    if (spv_is(in, "OpNot") || spv_is(in, "OpSNegate")) {
        if (!tr_get(t, fr, &in->args[0], &a))
            return false;
        struct spv_inst tmp = *in;
        const char *as = spv_is(in, "OpNot") ? "OpBitwiseXor" : "OpISub";
        tmp.op = spv_grammar_op(t->m->g, as, strlen(as));
        int st = scalar_type_of(t, in->result);
        scalar_fn f = st >= 0 && tr_is_wide_int(t, st) ? wide_scalar
                    : st >= 0 && t->ty[st].k == TY_INT && t->ty[st].width < 32 ? narrow_scalar : arith_scalar;
        return spv_is(in, "OpNot") ? componentwise(t, &tmp, a, v_const(-1, -1), f, res)
                                   : componentwise(t, &tmp, v_const(0, -1), a, f, res);
    }
    static const char *ariths[] = { "OpIAdd", "OpISub", "OpIMul", "OpUDiv", "OpSDiv", "OpUMod", "OpSRem", "OpSMod",
                                    "OpShiftLeftLogical", "OpShiftRightLogical", "OpShiftRightArithmetic",
                                    "OpBitwiseAnd", "OpBitwiseOr", "OpBitwiseXor", NULL };
    for (int i = 0; ariths[i]; i++)
        if (!strcmp(n, ariths[i])) {
            if (!tr_get(t, fr, &in->args[0], &a) || !tr_get(t, fr, &in->args[1], &b))
                return false;
            const struct ty *y = &t->ty[in->rtype];
            if (!check_int_operands(t, in, 0, 1, false))
                return false;
            int st = scalar_type_of(t, in->result);
            const struct ty *e = st >= 0 ? &t->ty[st] : y;
            if (e->k != TY_INT)
                return spv_fail(t->err, in->pos, "%s: only integer arithmetic is supported", n);
            return componentwise(t, in, a, b, e->width > 32 ? wide_scalar : e->width < 32 ? narrow_scalar
                                 : arith_scalar, res);
        }
    if (strstr(n, "Equal") || strstr(n, "LessThan") || strstr(n, "GreaterThan")) {
        if (strncmp(n, "OpI", 3) && strncmp(n, "OpU", 3) && strncmp(n, "OpS", 3) && strncmp(n, "OpLogical", 9))
            return spv_fail(t->err, in->pos, "%s is not supported", n);
        if (strncmp(n, "OpLogical", 9) && !check_int_operands(t, in, 0, 1, true))
            return false;
        int st = scalar_type_of(t, in->args[0].id);
        if (!strncmp(n, "OpS", 3) && st >= 0 && t->ty[st].k == TY_INT && t->ty[st].width < 32)
            return spv_fail(t->err, in->pos, "%s: signed comparisons of 8- and 16-bit values are not supported", n);
        if (!tr_get(t, fr, &in->args[0], &a) || !tr_get(t, fr, &in->args[1], &b))
            return false;
        if (a.k == V_COMP || b.k == V_COMP)
            return spv_fail(t->err, in->pos, "%s on vectors is not supported", n);
        return compare_scalar(t, in, a, b, res);
    }
    if (spv_is(in, "OpLogicalNot") || spv_is(in, "OpLogicalAnd") || spv_is(in, "OpLogicalOr")) {
        b = (struct val){ 0 };   /* OpLogicalNot has no second operand */
        if (!tr_get(t, fr, &in->args[0], &a) || (in->nargs > 1 && !tr_get(t, fr, &in->args[1], &b)))
            return false;
        return logical_scalar(t, in, a, b, res);
    }
    return tr_cl_inst(t, fr, in, res);
}

/* Whether the block at OpLabel i holds a control barrier: translated even where unreached, since a
 * barrier waits for every thread whose code holds it and a workgroup's invocations share a kernel. */
static bool block_has_barrier(const struct spv_module *m, int i)
{
    for (i++; i < m->ninst && !spv_is(&m->inst[i], "OpLabel") && !spv_is(&m->inst[i], "OpFunctionEnd"); i++)
        if (spv_is(&m->inst[i], "OpControlBarrier"))
            return true;
    return false;
}

/* Inlines function fn (its OpFunction's index) with args. */
static bool call(struct trans *t, int fn, struct val *args, int nargs, struct frame *parent,
                 const struct spv_inst *site, struct val *result)
{
    const struct spv_module *m = t->m;
    struct frame fr = { 0 };
    fr.vals = tr_alloc(t, sizeof(struct val) * (size_t)m->nids);
    fr.block_state = tr_alloc(t, (size_t)m->nids);
    fr.ret_label = em_label(t);
    fr.ret_reg = -1;
    fr.depth = parent ? parent->depth + 1 : 0;
    int i = fn + 1, np = 0, block = -1;
    for (; i < m->ninst && spv_is(&m->inst[i], "OpFunctionParameter"); i++) {
        if (np >= nargs)
            return spv_fail(t->err, site ? site->pos : m->inst[fn].pos, "a call with too few arguments");
        fr.vals[m->inst[i].result] = args[np++];
    }
    if (np != nargs)
        return spv_fail(t->err, site ? site->pos : m->inst[fn].pos, "a call with too many arguments");
    bool open = false;            /* inside a block that has not ended */
    bool skip = false;            /* inside a block no path reaches */
    bool first = true;
    for (; i < m->ninst && !spv_is(&m->inst[i], "OpFunctionEnd"); i++) {
        const struct spv_inst *in = &m->inst[i];
        if (spv_is(in, "OpFunction"))
            break;
        bool label = spv_is(in, "OpLabel"), debug = spv_is(in, "OpLine") || spv_is(in, "OpNoLine");
        if (label && open)
            return spv_fail(t->err, in->pos, "block %%%s ends without a branch or return", tr_name(t, block));
        if (!label && !open && !debug)
            return spv_fail(t->err, in->pos, "%s outside a block (after a branch or return, before OpLabel)",
                            in->op->name);
        if (label) {
            open = true;
            char *st = &fr.block_state[in->result];
            skip = !first && *st == BLOCK_UNSEEN && !block_has_barrier(m, i);
            *st = skip ? BLOCK_SKIPPED : BLOCK_DONE;
            first = false;
        }
        if (spv_is(in, "OpBranch") || spv_is(in, "OpBranchConditional") || spv_is(in, "OpSwitch")
            || spv_is(in, "OpReturn") || spv_is(in, "OpReturnValue") || spv_is(in, "OpUnreachable")
            || spv_is(in, "OpKill"))
            open = false;
        if (!skip && !body_inst(t, &fr, &block, in))
            return false;
        if (t->th->ninstrs > 200000)
            return spv_fail(t->err, in->pos, "the translated thread is too large");
    }
    if (i >= m->ninst || !spv_is(&m->inst[i], "OpFunctionEnd"))
        return spv_fail(t->err, i < m->ninst ? m->inst[i].pos : m->end, "function %%%s has no OpFunctionEnd%s",
                        tr_name(t, m->inst[fn].result), i < m->ninst ? "" : ": the module is truncated");
    if (open)
        return spv_fail(t->err, m->inst[i].pos, "block %%%s ends without a branch or return", tr_name(t, block));
    em_place(t, fr.ret_label, site);
    if (result && fr.has_ret)
        *result = fr.ret;
    return true;
}

/* Emits the code of the entry point. */
bool tr_thread_code(struct trans *t, int entry_fn)
{
    int fn = fn_index(t, entry_fn);
    struct val *args = NULL;
    int nargs = 0;
    if (fn < 0)
        return spv_fail(t->err, t->m->inst[0].pos, "the entry point is not a function");
    return tr_cl_entry_args(t, fn, &args, &nargs) && call(t, fn, args, nargs, NULL, NULL, NULL);
}
