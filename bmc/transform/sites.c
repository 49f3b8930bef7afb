/* The in-place weakenings of every synchronisation site. */
#include "bmc/transform/edit.h"
#include "bmc/transform/rewrites.h"
#include "bmc/transform/weaken.h"

#include <stdio.h>

bool rewrite_weaken(const struct litmus *l, unsigned mask, int line, struct variants *out, char *err,
                    size_t len)
{
    for (int t = 0; t < l->nthreads; t++) {
        const struct thread *th = &l->threads[t];
        for (int k = 0; k < th->ninstrs; k++) {
            const struct instr *in = &th->instrs[k];
            struct weakening w[WEAKEN_MAX];
            int n = line > 0 && in->pos.line != line ? 0 : weaken_instr(l->dialect, in, w);
            for (int i = 0; i < n; i++) {
                if (!(mask & (1u << w[i].kind)))
                    continue;
                struct litmus *copy = edit_copy(l);
                if (!copy) {
                    snprintf(err, len, "out of memory");
                    return false;
                }
                char was[160], now[160], change[400];
                edit_quote(l, th, in, was, sizeof was);
                if (w[i].remove) {
                    edit_remove(copy, &copy->threads[t], k);
                    snprintf(change, sizeof change, "%s dropped", was);
                } else {
                    struct instr *c = &copy->threads[t].instrs[k];
                    w[i].in.text = c->text;
                    *c = w[i].in;
                    edit_quote(l, th, &w[i].in, now, sizeof now);
                    snprintf(change, sizeof change, "%s -> %s", was, now);
                }
                if (!edit_finish(out, l, copy, w[i].kind, t, k, change, err, len))
                    return false;
            }
        }
    }
    return true;
}
