/* Roles (CTAs) and register slots of the CUDA harness. */
#include "bmc/cuda/layout.h"

#include <stdlib.h>

#include "encoders/xalloc.h"

void cuda_layout_build(const struct litmus *l, struct cuda_layout *c)
{
    int n = l->nthreads;
    int *cta = xcalloc((size_t)n + 1, sizeof *cta);   /* cta id of each role */
    c->nroles = 0;
    c->role_of = xcalloc((size_t)n + 1, sizeof *c->role_of);
    c->reg_offset = xcalloc((size_t)n + 1, sizeof *c->reg_offset);
    c->nregs = 0;
    for (int t = 0; t < n; t++) {
        int r = 0;
        while (r < c->nroles && cta[r] != l->threads[t].scope_id[0])
            r++;
        if (r == c->nroles)
            cta[c->nroles++] = l->threads[t].scope_id[0];
        c->role_of[t] = r;
        c->reg_offset[t] = c->nregs;
        c->nregs += l->threads[t].nregs;
    }
    c->role_start = xcalloc((size_t)c->nroles + 1, sizeof *c->role_start);
    c->role_threads = xcalloc((size_t)n + 1, sizeof *c->role_threads);
    c->max_role_size = 0;
    int k = 0;
    for (int r = 0; r < c->nroles; r++) {
        c->role_start[r] = k;
        for (int t = 0; t < n; t++)
            if (c->role_of[t] == r)
                c->role_threads[k++] = t;
        if (k - c->role_start[r] > c->max_role_size)
            c->max_role_size = k - c->role_start[r];
    }
    c->role_start[c->nroles] = k;
    free(cta);
}

void cuda_layout_free(struct cuda_layout *c)
{
    free(c->role_of);
    free(c->role_start);
    free(c->role_threads);
    free(c->reg_offset);
}
