/* Test threads as CUDA device functions of inline PTX. */
#include "bmc/cuda/emit_threads.h"

#include <stdbool.h>
#include <stdlib.h>

#include "bmc/cuda/ptx_asm.h"
#include "bmc/cuda/support.h"
#include "util/xalloc.h"

/* Per location: whether thread th accesses it. */
static bool *locations_used(const struct litmus *l, const struct thread *th)
{
    bool *used = xcalloc((size_t)l->nlocs + 1, sizeof *used);
    for (int i = 0; i < th->ninstrs; i++)
        if (th->instrs[i].loc >= 0)
            used[th->instrs[i].loc] = true;
    return used;
}

/* Position of the label with index label in th. */
static int label_position(const struct thread *th, int label)
{
    for (int i = 0; i < th->ninstrs; i++)
        if (th->instrs[i].kind == I_LABEL && th->instrs[i].label == label)
            return i;
    return th->ninstrs;
}

/* True when a branch or goto of th jumps to the label with index label (nvcc
 * warns of a label nothing jumps to, and -Werror all-warnings refuses it). */
static bool label_used(const struct thread *th, int label)
{
    for (int i = 0; i < th->ninstrs; i++)
        if ((th->instrs[i].kind == I_BRANCH || th->instrs[i].kind == I_GOTO) && th->instrs[i].label == label)
            return true;
    return false;
}

/* A branch or goto at position i: its jump, counted when it goes back. */
static void emit_jump(FILE *f, const struct thread *th, int i)
{
    const struct instr *in = &th->instrs[i];
    const char *label = th->label_names[in->label];
    bool back = label_position(th, in->label) <= i;
    const char *go = back ? "{ if (++steps > max_steps) return false; goto lab_%s; }" : "goto lab_%s;";
    if (in->kind == I_BRANCH) {
        static const char *const cmps[] = { "==", "!=", ">=", "<=", ">", "<" };
        char a[64], b[64];
        ptx_asm_operand(th, &in->a, a, sizeof a);
        ptx_asm_operand(th, &in->b, b, sizeof b);
        fprintf(f, "    if (%s %s %s) ", a, cmps[in->cmp], b);
    } else {
        fprintf(f, "    ");
    }
    fprintf(f, go, label);
    fprintf(f, "   // %s\n", in->text);
}

/* True when th jumps backwards somewhere. */
static bool jumps_back(const struct thread *th)
{
    for (int i = 0; i < th->ninstrs; i++)
        if ((th->instrs[i].kind == I_BRANCH || th->instrs[i].kind == I_GOTO)
            && label_position(th, th->instrs[i].label) <= i)
            return true;
    return false;
}

/* lt_thread_<t>: the thread's code on its instance's locations; writes its
 * registers to out; false when it ran out of steps. */
static void emit_thread(FILE *f, const struct litmus *l, int t)
{
    const struct thread *th = &l->threads[t];
    fprintf(f, "/* P%d @ cta %d, gpu %d */\n__device__ static bool lt_thread_%d(uint32_t *const *loc, int32_t *out, "
            "long max_steps)\n{\n", th->id, th->scope_id[0], th->scope_id[1], t);
    bool *used = locations_used(l, th);
    for (int x = 0; x < l->nlocs; x++)
        if (used[x])
            fprintf(f, "    uint32_t *const L_%s = loc[%d];\n", l->locs[x].name, x);
    free(used);
    for (int r = 0; r < th->nregs; r++)
        fprintf(f, "    int32_t %s = %lld;\n", th->reg_names[r], (long long)(th->reg_has_init[r] ? th->reg_init[r] : 0));
    if (jumps_back(th))
        fprintf(f, "    long steps = 0;\n");
    else
        fprintf(f, "    (void)max_steps;\n");
    for (int i = 0; i < th->ninstrs; i++) {
        const struct instr *in = &th->instrs[i];
        if (in->kind == I_LABEL) {
            if (label_used(th, in->label))
                fprintf(f, "lab_%s:;\n", th->label_names[in->label]);
        } else if (in->kind == I_BRANCH || in->kind == I_GOTO) {
            emit_jump(f, th, i);
        } else {
            char stmt[512], why[400];
            ptx_asm_statement(l, th, in, stmt, sizeof stmt, why, sizeof why);
            fprintf(f, "    // %s\n    %s\n", in->text, stmt);
        }
    }
    for (int r = 0; r < th->nregs; r++)
        fprintf(f, "    out[%d] = %s;\n", r, th->reg_names[r]);
    fprintf(f, "    return true;\n}\n\n");
}

/* lt_fill: per role, the barriers of its threads (the same for all of them). */
static void emit_fill(FILE *f, const struct litmus *l, const struct cuda_layout *c)
{
    fprintf(f, "__device__ static void lt_fill(int role)\n{\n    switch (role) {\n");
    for (int r = 0; r < c->nroles; r++) {
        const struct thread *th = &l->threads[c->role_threads[c->role_start[r]]];
        if (!cuda_thread_has_barrier(th))
            continue;
        fprintf(f, "    case %d:\n", r);
        for (int i = 0; i < th->ninstrs; i++)
            if (th->instrs[i].kind == I_BARRIER)
                fprintf(f, "        asm volatile(\"bar.cta.sync %lld;\" ::: \"memory\");\n",
                        (long long)th->instrs[i].bar_instance);
        fprintf(f, "        break;\n");
    }
    fprintf(f, "    default:\n        break;\n    }\n}\n\n");
}

void cuda_emit_threads(FILE *f, const struct litmus *l, const struct cuda_layout *c)
{
    fprintf(f, "/* ---- the test's threads ---- */\n\n");
    for (int t = 0; t < l->nthreads; t++)
        emit_thread(f, l, t);
    fprintf(f, "__device__ static bool lt_run_thread(int tid, uint32_t *const *loc, int32_t *regs, long max_steps)\n"
            "{\n    switch (tid) {\n");
    for (int t = 0; t < l->nthreads; t++)
        fprintf(f, "    case %d: return lt_thread_%d(loc, regs + %d, max_steps);\n", t, t, c->reg_offset[t]);
    fprintf(f, "    default: return true;\n    }\n}\n\n");
    fprintf(f, "__device__ static int lt_role_size(int role)\n{\n    switch (role) {\n");
    for (int r = 0; r < c->nroles; r++)
        fprintf(f, "    case %d: return %d;\n", r, c->role_start[r + 1] - c->role_start[r]);
    fprintf(f, "    default: return 1;\n    }\n}\n\n");
    fprintf(f, "__device__ static int lt_role_thread(int role, int k)\n{\n    switch (role) {\n");
    for (int r = 0; r < c->nroles; r++) {
        fprintf(f, "    case %d:\n        switch (k) {\n", r);
        for (int k = c->role_start[r]; k < c->role_start[r + 1]; k++)
            fprintf(f, "        case %d: return %d;   /* P%d */\n", k - c->role_start[r], c->role_threads[k],
                    l->threads[c->role_threads[k]].id);
        fprintf(f, "        }\n        break;\n");
    }
    fprintf(f, "    }\n    return -1;\n}\n\n");
    emit_fill(f, l, c);
}
