/* Source-level loops, exits and liveness. */
#include "bmc/transform/loops.h"

#include <stdlib.h>

#include "util/xalloc.h"

bool loops_jump_target(const struct thread *th, const struct instr *in, int *target)
{
    if (in->kind != I_BRANCH && in->kind != I_GOTO)
        return false;
    for (int i = 0; i < th->ninstrs; i++)
        if (th->instrs[i].kind == I_LABEL && th->instrs[i].label == in->label) {
            *target = i;
            return true;
        }
    return false;
}

bool loops_innermost(const struct thread *th, int k, struct src_loop *out)
{
    bool found = false;
    for (int j = 0; j < th->ninstrs; j++) {
        int h;
        if (!loops_jump_target(th, &th->instrs[j], &h) || h > j)
            continue;
        int end = j;          /* the last backward jump to the same label closes the loop */
        for (int x = j + 1; x < th->ninstrs; x++) {
            int hx;
            if (loops_jump_target(th, &th->instrs[x], &hx) && hx == h)
                end = x;
        }
        if (h < k && k <= end && (!found || end - h < out->end - out->head)) {
            *out = (struct src_loop){ h, end };
            found = true;
        }
    }
    return found;
}

bool loops_single_exit(const struct thread *th, const struct src_loop *lp, int *exit_at)
{
    int after = lp->end + 1;
    while (after < th->ninstrs && th->instrs[after].kind == I_LABEL)
        after++;
    for (int x = 0; x < th->ninstrs; x++) {
        int t;
        if (!loops_jump_target(th, &th->instrs[x], &t))
            continue;
        bool inside = x > lp->head && x <= lp->end;
        bool lands_inside = t > lp->head && t <= lp->end, lands_on_exit = t > lp->end && t < after;
        if (inside && !(t >= lp->head && t < after))
            return false;    /* leaves the loop elsewhere */
        if (!inside && (lands_inside || lands_on_exit))
            return false;    /* enters the middle, or shares the exit */
    }
    *exit_at = after;
    return true;
}

/* Registers an instruction reads, -1 for none. */
static void reads(const struct instr *in, int out[4])
{
    out[0] = in->a.is_reg ? in->a.reg : -1;
    out[1] = in->b.is_reg ? in->b.reg : -1;
    out[2] = in->has_bar_id && in->bar_id.is_reg ? in->bar_id.reg : -1;
    out[3] = in->has_bar_quorum && in->bar_quorum.is_reg ? in->bar_quorum.reg : -1;
}

/* live[i * nregs + r]: register r is live before instruction i (backward
 * fixpoint over the thread's control flow); the caller frees it. */
static bool *liveness(const struct thread *th)
{
    int n = th->ninstrs, nr = th->nregs;
    bool *live = xcalloc((size_t)(n + 1) * (size_t)nr + 1, sizeof *live);
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = n - 1; i >= 0; i--) {
            const struct instr *in = &th->instrs[i];
            int t = 0, rd[4];
            bool jumps = loops_jump_target(th, in, &t);
            for (int r = 0; r < nr; r++) {
                bool v = (in->kind != I_GOTO && live[(size_t)(i + 1) * nr + r]) || (jumps && live[(size_t)t * nr + r]);
                if (in->dst == r && in->kind != I_BRANCH)
                    v = false;
                reads(in, rd);
                for (int k = 0; k < 4; k++)
                    v |= rd[k] == r;
                if (v != live[(size_t)i * nr + r]) {
                    live[(size_t)i * nr + r] = v;
                    changed = true;
                }
            }
        }
    }
    return live;
}

bool loops_side_effect_free(const struct thread *th, const struct src_loop *lp)
{
    bool ok = true;
    bool *live = liveness(th);
    for (int i = lp->head + 1; ok && i <= lp->end; i++) {
        const struct instr *in = &th->instrs[i];
        ok = in->kind != I_STORE && in->kind != I_RMW && in->kind != I_BARRIER
          && (in->dst < 0 || in->kind == I_BRANCH || !live[(size_t)lp->head * th->nregs + in->dst]);
    }
    free(live);
    return ok;
}
