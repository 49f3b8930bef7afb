/* Cycle search in the solver's model and the clauses that forbid them. */
#include "bmc/refine.h"

#include <stdlib.h>

#include "encoders/xalloc.h"


/* Shortest cycle through v in adj (n*n), as its nodes in path order;
 * returns its length, 0 if none. */
static int shortest_cycle(const bool *adj, int n, int v, int *parent, int *queue, int *cycle)
{
    for (int i = 0; i < n; i++)
        parent[i] = -1;
    int head = 0, tail = 0;
    queue[tail++] = v;
    while (head < tail) {
        int u = queue[head++];
        for (int w = 0; w < n; w++) {
            if (!adj[u * n + w])
                continue;
            if (w == v) {    /* back at v: unwind the path v -> ... -> u */
                int len = 0;
                for (int x = u; x != v; x = parent[x])
                    cycle[len++] = x;
                cycle[len++] = v;
                for (int i = 0; i < len / 2; i++) {
                    int t = cycle[i];
                    cycle[i] = cycle[len - 1 - i];
                    cycle[len - 1 - i] = t;
                }
                return len;
            }
            if (parent[w] < 0) {
                parent[w] = u;
                queue[tail++] = w;
            }
        }
    }
    return 0;
}

int refine_acyclic(struct cnf *c, const struct rel *r, lit act)
{
    int n = r->n, found = 0;
    bool *adj = xcalloc((size_t)n * n + 1, sizeof *adj);
    for (int i = 0; i < n * n; i++)
        adj[i] = r->m[i] != LIT_FALSE && cnf_value(c, r->m[i]);
    int *parent = xcalloc((size_t)n + 1, sizeof *parent);
    int *queue = xcalloc((size_t)n + 1, sizeof *queue);
    int *cycle = xcalloc((size_t)n + 1, sizeof *cycle);
    lit *clause = xcalloc((size_t)n + 2, sizeof *clause);
    for (int v = 0; v < n; v++) {
        int len = shortest_cycle(adj, n, v, parent, queue, cycle);
        bool lowest = len > 0;   /* each cycle once: from its lowest node */
        for (int i = 0; i < len; i++)
            lowest &= cycle[i] >= v;
        if (!lowest)
            continue;
        int k = 0;
        clause[k++] = -act;
        for (int i = 0; i < len; i++) {
            int from = cycle[i], to = cycle[(i + 1) % len];
            clause[k++] = -rel_get(r, from, to);
        }
        cnf_clause(c, clause, k);
        found++;
    }
    free(adj);
    free(parent);
    free(queue);
    free(cycle);
    free(clause);
    return found;
}
