/* Roles (CTAs) and register slots of the CUDA harness. */
#include "bmc/cuda/layout.h"

#include <stdlib.h>

#include "util/xalloc.h"

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
    c->loc_root = xcalloc((size_t)l->nlocs + 1, sizeof *c->loc_root);
    c->loc_map = xcalloc((size_t)l->nlocs + 1, sizeof *c->loc_map);
    c->nmaps = 1;
    for (int x = 0; x < l->nlocs; x++) {
        int root = x;
        while (l->locs[root].alias_of >= 0)
            root = l->locs[root].alias_of;
        c->loc_root[x] = root;
        if (root != x) {         /* 1 + the aliases of the same root before it */
            c->loc_map[x] = 1;
            for (int y = 0; y < x; y++)
                c->loc_map[x] += c->loc_root[y] == root && y != root;
        }
        if (c->loc_map[x] + 1 > c->nmaps)
            c->nmaps = c->loc_map[x] + 1;
    }
}

void cuda_layout_free(struct cuda_layout *c)
{
    free(c->role_of);
    free(c->role_start);
    free(c->role_threads);
    free(c->reg_offset);
    free(c->loc_root);
    free(c->loc_map);
}
