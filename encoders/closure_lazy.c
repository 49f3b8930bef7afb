/* The other half of a big closure's definition, given lazily: after each
 * satisfying model, every entry whose negative side is required but which
 * the model leaves false although a path of true pairs of r reaches it
 * gets the clause "the pairs of a shortest such path -> the entry". */
#include "encoders/closure_impl.h"

#include <stdlib.h>

#include "util/xalloc.h"

/* Adds, for each target j[0..k) of row i left false though reachable, the
 * clause "the pairs of a shortest path of true pairs from i to j -> t(i,j)". */
static long add_paths(struct cnf *c, struct closure *cl, const bool *on, int i, const int *targets,
                      const lit *tlit, int k)
{
    int n = cl->n;
    int *parent = xcalloc((size_t)n + 1, sizeof *parent), *via = xcalloc((size_t)n + 1, sizeof *via);
    int *queue = xcalloc((size_t)n + 1, sizeof *queue);
    lit *clause = xcalloc((size_t)n + 2, sizeof *clause);
    for (int u = 0; u < n; u++)
        parent[u] = -1;
    int head = 0, tail = 0;
    queue[tail++] = i;
    while (head < tail) {                   /* breadth first from i over true pairs */
        int u = queue[head++];
        for (int e = cl->rs[u]; e < cl->rs[u + 1]; e++) {
            int w = cl->rc[e];
            if (on[e] && parent[w] < 0 && w != i) {
                parent[w] = u;
                via[w] = e;
                queue[tail++] = w;
            }
        }
    }
    long added = 0;
    for (int a = 0; a < k; a++) {
        int w = targets[a], len = 0;
        clause[len++] = tlit[a];
        if (w == i) {                       /* back to i: through a predecessor reached */
            int p = cl->ps[i];
            while (!on[cl->pe[p]] || (cl->pk[p] != i && parent[cl->pk[p]] < 0))
                p++;
            clause[len++] = -cl->rv[cl->pe[p]];
            w = cl->pk[p];
        }
        for (; w != i; w = parent[w])
            clause[len++] = -cl->rv[via[w]];
        cnf_emit(c, clause, len);           /* a definition clause: t(i,j) is not required */
        for (int l = 1; l < len; l++)
            cnf_require(c, clause[l]);
        added++;
    }
    free(parent);
    free(via);
    free(queue);
    free(clause);
    return added;
}

/* The entries of lazy closure cl left false by the last model (solver values
 * read here, before any clause ends them) though reachable over its true
 * pairs (on), as indices sorted by row; their number. */
static int violations(struct cnf *c, struct closure *cl, int **v, bool **on)
{
    int n = cl->n, size = cl->rs[n], nv = 0;
    *v = xcalloc((size_t)cl->count + 1, sizeof **v);
    *on = xcalloc((size_t)size + 1, sizeof **on);
    for (int e = 0; e < cl->count; e++)
        if (cl->need[e] && cnf_solver_val(c, cl->ev[e]) < 0)
            (*v)[nv++] = e;
    bool any = false;
    for (int e = 0; e < size && nv > 0; e++)
        any |= (*on)[e] = cnf_value(c, cl->rv[e]);
    int kept = 0;
    if (any) {
        struct reach R;
        reach_compute(&R, n, cl->rs, cl->rc, *on);
        for (int a = 0; a < nv; a++)
            if (reach_has(&R, cl->ei[(*v)[a]], cl->ej[(*v)[a]]))
                (*v)[kept++] = (*v)[a];
        reach_free(&R);
    }
    for (int a = 1; a < kept; a++)          /* by row: insertion into the sorted prefix */
        for (int b = a; b > 0 && cl->ei[(*v)[b - 1]] > cl->ei[(*v)[b]]; b--) {
            int t = (*v)[b]; (*v)[b] = (*v)[b - 1]; (*v)[b - 1] = t;
        }
    return kept;
}

long closure_refine(struct cnf *c)
{
    struct closures *cs = c->ext_state[EXT_CLOSURE];
    bool pending = false;   /* a model with no closure pending needs nothing: no scratch is made */
    for (int k = 0; k < cs->count && !pending; k++)
        pending = cs->list[k].pending;
    if (!pending)
        return 0;
    int **v = xcalloc((size_t)cs->count + 1, sizeof *v), *nv = xcalloc((size_t)cs->count + 1, sizeof *nv);
    bool **on = xcalloc((size_t)cs->count + 1, sizeof *on);
    for (int k = 0; k < cs->count; k++)
        if (cs->list[k].pending)
            nv[k] = violations(c, &cs->list[k], &v[k], &on[k]);
    long added = 0;
    for (int k = 0; k < cs->count; k++) {
        struct closure *cl = &cs->list[k];
        if (nv[k] == 0) {   /* no path to add: no scratch */
            free(v[k]);
            free(on[k]);
            continue;
        }
        int *targets = xcalloc((size_t)nv[k] + 1, sizeof *targets);
        lit *tlit = xcalloc((size_t)nv[k] + 1, sizeof *tlit);
        for (int a = 0; a < nv[k];) {
            int b = a, i = cl->ei[v[k][a]];
            for (; b < nv[k] && cl->ei[v[k][b]] == i; b++) {
                targets[b - a] = cl->ej[v[k][b]];
                tlit[b - a] = cl->ev[v[k][b]];
            }
            added += add_paths(c, cl, on[k], i, targets, tlit, b - a);
            a = b;
        }
        free(targets);
        free(tlit);
        free(v[k]);
        free(on[k]);
    }
    free(v);
    free(on);
    free(nv);
    return added;
}
