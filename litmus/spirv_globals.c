/* Module-level values of the SPIR-V translation, per invocation:
 * constants and specialization constants (with their @Input values and
 * builtins), and the memory objects of the module's variables. */
#include <string.h>

#include "litmus/spirv_trans.h"

/* The value of a constant or specialization constant instruction. */
bool tr_constant(struct trans *t, const struct spv_inst *in, struct val *out)
{
    const struct ty *y = &t->ty[in->rtype];
    if (spv_is(in, "OpConstantTrue") || spv_is(in, "OpSpecConstantTrue")) {
        *out = v_const(1, in->rtype);
    } else if (spv_is(in, "OpConstantNull")) {
        if (!tr_null_value(t, in->rtype, out, in->pos))
            return false;
    } else if (spv_is(in, "OpConstantFalse") || spv_is(in, "OpSpecConstantFalse")) {
        *out = v_const(0, in->rtype);
    } else if (spv_is(in, "OpConstant") || spv_is(in, "OpSpecConstant")) {
        if (y->k == TY_FLOAT)
            return true;        /* refused where used */
        if (y->k != TY_INT || in->nargs != 1)
            return spv_fail(t->err, in->pos, "%s: only integer constants are supported", in->op->name);
        if (y->width > 32 && (in->args[0].num < INT32_MIN || in->args[0].num > INT32_MAX))
            return true;        /* refused where used */
        *out = v_const(in->args[0].num, in->rtype);
    } else {
        *out = (struct val){ .k = V_COMP, .type = in->rtype, .n = in->nargs,
                             .el = tr_alloc(t, sizeof(struct val) * (size_t)(in->nargs + 1)) };
        for (int i = 0; i < in->nargs; i++)
            if (!tr_get(t, NULL, &in->args[i], &out->el[i]))
                return false;
    }
    bool has = false;
    struct val b;
    if (!tr_builtin(t, in->result, in->rtype, &b, &has))
        return false;
    if (has)
        *out = b;
    for (int i = 0; i < t->m->ninputs; i++) {       /* @Input sets a spec constant */
        const struct spv_input *inp = &t->m->inputs[i];
        if (inp->id != in->result)
            continue;
        if (strncmp(in->op->name, "OpSpecConstant", 14) || spv_is(in, "OpSpecConstantComposite") || inp->value.is_list)
            return spv_fail(t->err, inp->pos, "@Input: %%%s is not a scalar specialization constant",
                            tr_name(t, in->result));
        *out = v_const(y->k == TY_BOOL ? inp->value.value != 0 : inp->value.value, in->rtype);
    }
    if (out->k == V_CONST && y->k == TY_INT && y->width < 32)     /* 8 and 16 bits: kept zero-extended */
        out->c &= ((int64_t)1 << y->width) - 1;
    return true;
}

/* Evaluates the module-level instructions for the current thread. */
bool tr_globals(struct trans *t)
{
    const struct spv_module *m = t->m;
    bool in_fn = false;
    for (int i = 0; i < m->ninst; i++) {
        const struct spv_inst *in = &m->inst[i];
        const char *n = in->op->name;
        if (spv_is(in, "OpFunction") || spv_is(in, "OpFunctionEnd")) {
            in_fn = spv_is(in, "OpFunction");
            continue;
        }
        if (in_fn)
            continue;
        if (!strncmp(n, "OpConstant", 10) || (!strncmp(n, "OpSpecConstant", 14) && strcmp(n, "OpSpecConstantOp"))) {
            if (!tr_constant(t, in, &t->globals[in->result]))
                return false;
        } else if (spv_is(in, "OpSpecConstantOp")) {
            return spv_fail(t->err, in->pos, "OpSpecConstantOp is not supported");
        } else if (spv_is(in, "OpVariable")) {
            int o = tr_object(t, in);
            if (o < 0)
                return false;
            t->globals[in->result] = (struct val){ .k = V_PTR, .type = in->rtype, .obj = o, .reg = -1 };
        }
    }
    return true;
}
