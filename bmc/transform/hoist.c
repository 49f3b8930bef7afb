/* hoist-acquire: the acquire of a loop moved to a fence after its exit. */
#include "bmc/transform/edit.h"
#include "bmc/transform/loops.h"
#include "bmc/transform/rewrites.h"

#include <stdio.h>
#include <string.h>

/* A fence of dialect d with order mo and scope s, no operands. */
static struct instr fence(enum mo mo, enum scope s)
{
    struct instr f;
    memset(&f, 0, sizeof f);
    f.kind = I_FENCE;
    f.mo = mo;
    f.scope = s;
    f.proxy = PROXY_GENERIC;
    f.dst = f.loc = f.label = f.storage_class = -1;
    f.text = "";
    return f;
}

/* True when in acquires: an acquire (or acq_rel) read or RMW, or a fence
 * that orders later reads (PTX fence.acq_rel and fence.sc, Vulkan
 * membar.acq and membar.acq_rel, OpenCL acquire, acq_rel and seq_cst
 * fences). */
static bool acquires(enum dialect d, const struct instr *in)
{
    switch (in->kind) {
    case I_LOAD: case I_RMW:
        return in->mo == MO_ACQUIRE || in->mo == MO_ACQ_REL;
    case I_FENCE:
        return d == DIALECT_PTX || in->mo == MO_ACQUIRE || in->mo == MO_ACQ_REL
            || (d == DIALECT_OPENCL && in->mo == MO_SC);
    default:
        return false;
    }
}

/* Splits an acquire read in (of test l) into the read without its
 * acquire (*read) and the fence that carries it (*f): an OpenCL fence's
 * flags are the location's address spaces (both when it has none). */
static void split_acquire(const struct litmus *l, const struct instr *in, struct instr *read, struct instr *f)
{
    enum dialect d = l->dialect;
    *read = *in;
    read->mo = in->mo == MO_ACQ_REL ? MO_RELEASE : MO_RELAXED;
    if (d == DIALECT_PTX) {
        *f = fence(MO_ACQ_REL, in->scope);
        return;
    }
    if (d == DIALECT_OPENCL) {
        *f = fence(MO_ACQUIRE, in->scope);
        f->cl_flags = l->locs[in->loc].cl_tags & (CL_GLOBAL | CL_LOCAL);
        f->cl_flags = f->cl_flags ? f->cl_flags : CL_GLOBAL | CL_LOCAL;
        return;
    }
    *f = fence(MO_ACQUIRE, in->scope);
    f->semsc = in->semsc;
    f->vk_flags = in->vk_flags & VK_SEMVIS;
    read->vk_flags &= ~(unsigned)VK_SEMVIS;
    if (read->mo == MO_RELAXED)
        read->semsc = 0;
}

/* Hoists the acquire at instruction k of thread t out of loop lp (exit at
 * exit_at). */
static bool hoist(const struct litmus *l, int t, int k, int exit_at, struct variants *out, char *err, size_t len)
{
    const struct thread *th = &l->threads[t];
    const struct instr *in = &th->instrs[k];
    struct litmus *copy = edit_copy(l);
    if (!copy) {
        snprintf(err, len, "out of memory");
        return false;
    }
    struct thread *ct = &copy->threads[t];
    char was[160], now[160], moved[160], change[540];
    edit_quote(l, th, in, was, sizeof was);
    if (in->kind == I_FENCE) {
        edit_insert(ct, exit_at, in);
        edit_remove(copy, ct, k);
        snprintf(change, sizeof change, "%s moved after the loop", was);
    } else {
        struct instr read, f;
        split_acquire(l, in, &read, &f);
        edit_insert(ct, exit_at, &f);
        read.text = ct->instrs[k].text;
        ct->instrs[k] = read;
        edit_quote(l, th, &read, now, sizeof now);
        edit_quote(l, th, &f, moved, sizeof moved);
        snprintf(change, sizeof change, "%s -> %s, and %s after the loop", was, now, moved);
    }
    return edit_finish(out, l, copy, T_HOIST_ACQUIRE, t, k, change, err, len);
}

bool rewrite_hoist_acquire(const struct litmus *l, int line, struct variants *out, char *err, size_t len)
{
    for (int t = 0; t < l->nthreads; t++) {
        const struct thread *th = &l->threads[t];
        for (int k = 0; k < th->ninstrs; k++) {
            struct src_loop lp = { 0, 0 };
            int exit_at;
            const struct instr *in = &th->instrs[k];
            if ((line > 0 && in->pos.line != line) || !acquires(l->dialect, in)
                || !loops_innermost(th, k, &lp) || !loops_single_exit(th, &lp, &exit_at))
                continue;
            if (!hoist(l, t, k, exit_at, out, err, len))
                return false;
        }
    }
    return true;
}
