/* reorder: two adjacent independent accesses swapped. */
#include "bmc/transform/edit.h"
#include "bmc/transform/rewrites.h"

#include <stdio.h>

#include "program/program.h"

static bool is_access(const struct instr *in)
{
    return in->kind == I_LOAD || in->kind == I_STORE || in->kind == I_RMW;
}

/* True when in reads register r. */
static bool reads_reg(const struct instr *in, int r)
{
    return r >= 0 && ((in->a.is_reg && in->a.reg == r) || (in->b.is_reg && in->b.reg == r));
}

/* True when a and b (a first) may swap: different physical locations, and
 * neither reads or writes a register the other writes. */
static bool independent(const struct litmus *l, const struct instr *a, const struct instr *b)
{
    return program_root_location(l, a->loc) != program_root_location(l, b->loc)
        && !reads_reg(b, a->dst) && !reads_reg(a, b->dst) && (a->dst < 0 || a->dst != b->dst);
}

bool rewrite_reorder(const struct litmus *l, int line, struct variants *out, char *err, size_t len)
{
    for (int t = 0; t < l->nthreads; t++) {
        const struct thread *th = &l->threads[t];
        for (int k = 0; k + 1 < th->ninstrs; k++) {
            const struct instr *a = &th->instrs[k], *b = &th->instrs[k + 1];
            if ((line > 0 && a->pos.line != line) || !is_access(a) || !is_access(b) || !independent(l, a, b))
                continue;
            struct litmus *copy = edit_copy(l);
            if (!copy) {
                snprintf(err, len, "out of memory");
                return false;
            }
            struct instr *ca = &copy->threads[t].instrs[k], tmp = *ca;
            *ca = ca[1];
            ca[1] = tmp;
            char qa[160], qb[160], change[400];
            edit_quote(l, th, a, qa, sizeof qa);
            edit_quote(l, th, b, qb, sizeof qb);
            snprintf(change, sizeof change, "%s and %s swapped", qa, qb);
            if (!edit_finish(out, l, copy, T_REORDER, t, k, change, err, len))
                return false;
        }
    }
    return true;
}
