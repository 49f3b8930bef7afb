/* remove-spin: a side-effect-free loop runs once. */
#include "bmc/transform/edit.h"
#include "bmc/transform/loops.h"
#include "bmc/transform/rewrites.h"

#include <stdio.h>

/* True when instruction j of th is the last backward jump to its label
 * (the end of a loop); *head is then the label's instruction. */
static bool loop_end(const struct thread *th, int j, int *head)
{
    if (!loops_jump_target(th, &th->instrs[j], head) || *head > j)
        return false;
    for (int x = j + 1; x < th->ninstrs; x++) {
        int h;
        if (loops_jump_target(th, &th->instrs[x], &h) && h == *head)
            return false;
    }
    return true;
}

bool rewrite_remove_spin(const struct litmus *l, int line, struct variants *out, char *err, size_t len)
{
    for (int t = 0; t < l->nthreads; t++) {
        const struct thread *th = &l->threads[t];
        for (int j = 0; j < th->ninstrs; j++) {
            struct src_loop lp = { 0, j };
            if ((line > 0 && th->instrs[j].pos.line != line) || !loop_end(th, j, &lp.head)
                || !loops_side_effect_free(th, &lp))
                continue;
            struct litmus *copy = edit_copy(l);
            if (!copy) {
                snprintf(err, len, "out of memory");
                return false;
            }
            int removed = 0;
            for (int x = j; x > lp.head; x--) {
                int h;
                if (loops_jump_target(th, &th->instrs[x], &h) && h == lp.head) {
                    edit_remove(copy, &copy->threads[t], x);
                    removed++;
                }
            }
            char jump[160], change[300];
            edit_quote(l, th, &th->instrs[j], jump, sizeof jump);
            snprintf(change, sizeof change, "the loop from line %d runs once: %s removed%s",
                     th->instrs[lp.head].pos.line, jump, removed > 1 ? " with the other jumps back" : "");
            if (!edit_finish(out, l, copy, T_REMOVE_SPIN, t, j, change, err, len))
                return false;
        }
    }
    return true;
}
