/* The constructs the CUDA harness refuses, each with its reason. */
#include "bmc/cuda/support.h"

#include <stdio.h>

#include "bmc/cuda/ptx_asm.h"

bool cuda_thread_has_barrier(const struct thread *th)
{
    for (int i = 0; i < th->ninstrs; i++)
        if (th->instrs[i].kind == I_BARRIER)
            return true;
    return false;
}

/* True when th has a branch or goto. */
static bool has_jumps(const struct thread *th)
{
    for (int i = 0; i < th->ninstrs; i++)
        if (th->instrs[i].kind == I_BRANCH || th->instrs[i].kind == I_GOTO)
            return true;
    return false;
}

/* True when a and b pass the same barriers in the same order. */
static bool same_barriers(const struct thread *a, const struct thread *b)
{
    int i = 0, j = 0;
    for (;;) {
        while (i < a->ninstrs && a->instrs[i].kind != I_BARRIER)
            i++;
        while (j < b->ninstrs && b->instrs[j].kind != I_BARRIER)
            j++;
        if (i == a->ninstrs || j == b->ninstrs)
            return i == a->ninstrs && j == b->ninstrs;
        if (a->instrs[i++].bar_instance != b->instrs[j++].bar_instance)
            return false;
    }
}

/* Barriers: in a CTA where some thread has one, every thread passes the
 * same ones, in straight-line code. */
static bool barriers_match(const struct litmus *l, const struct cuda_layout *c, char *why, size_t len)
{
    for (int r = 0; r < c->nroles; r++) {
        const struct thread *first = NULL;
        for (int k = c->role_start[r]; k < c->role_start[r + 1]; k++) {
            const struct thread *th = &l->threads[c->role_threads[k]];
            if (cuda_thread_has_barrier(th))
                first = th;
        }
        for (int k = c->role_start[r]; first && k < c->role_start[r + 1]; k++) {
            const struct thread *th = &l->threads[c->role_threads[k]];
            if (cuda_thread_has_barrier(th) && has_jumps(th)) {
                snprintf(why, len, "P%d has a barrier and branches: a hardware bar.cta.sync must be reached "
                         "the same number of times by every thread of the block", th->id);
                return false;
            }
            if (!same_barriers(first, th)) {
                snprintf(why, len, "P%d and P%d of cta %d pass different barriers: a hardware bar.cta.sync "
                         "waits for every thread of the block", first->id, th->id, th->scope_id[0]);
                return false;
            }
        }
    }
    return true;
}

bool cuda_supported(const struct litmus *l, const struct cuda_layout *c, char *why, size_t len)
{
    if (l->dialect != DIALECT_PTX) {
        snprintf(why, len, "a %s test: the CUDA harness runs PTX tests", dialect_name(l->dialect));
        return false;
    }
    for (int t = 1; t < l->nthreads; t++)
        if (l->threads[t].scope_id[1] != l->threads[0].scope_id[1]) {
            snprintf(why, len, "P%d is on gpu %d and P%d on gpu %d: one CUDA program runs on one GPU",
                     l->threads[0].id, l->threads[0].scope_id[1], l->threads[t].id, l->threads[t].scope_id[1]);
            return false;
        }
    for (int i = 0; i < l->nlocs; i++) {
        const struct location *x = &l->locs[i];
        if (x->alias_of < 0 || x->alias_proxy == PROXY_GENERIC)
            continue;
        snprintf(why, len, "%s is a %s-proxy alias of %s: that needs a bound %s, which the harness does not make",
                 x->name, proxy_name(x->alias_proxy), l->locs[x->alias_of].name,
                 ptx_asm_proxy_resource(x->alias_proxy));
        return false;
    }
    for (int t = 0; t < l->nthreads; t++) {
        const struct thread *th = &l->threads[t];
        for (int i = 0; i < th->ninstrs; i++) {
            const struct instr *in = &th->instrs[i];
            char stmt[512], reason[400];
            if (in->kind != I_BRANCH && in->kind != I_GOTO && in->kind != I_LABEL
                && !ptx_asm_statement(l, th, in, stmt, sizeof stmt, reason, sizeof reason)) {
                snprintf(why, len, "line %d, P%d: %s", in->pos.line, th->id, reason);
                return false;
            }
        }
    }
    return barriers_match(l, c, why, len);
}
