/* SPIR-V values the litmus dialects cannot write as one instruction: the
 * minimum and maximum of an atomic on the invocation's own memory. */
#include "litmus/spirv_trans.h"

void em_extremum(struct trans *t, int r, enum binop op, struct val x, struct val y, const struct spv_inst *in)
{
    bool max = op == OP_SMAX || op == OP_UMAX;
    struct cnd keeps_x = { .k = C_CMP, .cmp = CMP_LT, .is_unsigned = op == OP_UMIN || op == OP_UMAX,
                           .a = max ? y : x, .b = max ? x : y };
    int to_x = em_label(t), to_y = em_label(t), end = em_label(t);
    em_jump(t, &keeps_x, to_x, to_y, in);
    em_place(t, to_x, in);
    em_move(t, r, x, in);
    em_goto(t, end, in);
    em_place(t, to_y, in);
    em_move(t, r, y, in);
    em_place(t, end, in);
}
