/* Cycle search in the solver's model and the clauses that forbid them. */
#include "bmc/check/refine.h"

#include <stdlib.h>

#include "util/xalloc.h"

/* The edges of a relation in the solver's model, as out- and in-lists
 * (compressed rows: the successors of u are out[out_at[u] .. out_at[u+1])). */
struct graph {
    int n;
    int *out_at, *out, *in_at, *in;
};

static struct graph model_graph(struct cnf *c, const struct rel *r)
{
    int n = r->n, m = 0;
    struct graph g = { n, xcalloc((size_t)n + 1, sizeof(int)), NULL, xcalloc((size_t)n + 1, sizeof(int)), NULL };
    const int *cols;
    const lit *lits;
    for (int i = 0; i < n; i++)
        m += rel_row(r, i, &cols, &lits);
    bool *on = xcalloc((size_t)m + 1, sizeof *on);
    for (int i = 0, e = 0; i < n; i++)
        for (int k = 0, len = rel_row(r, i, &cols, &lits); k < len; k++, e++)
            if (cnf_value(c, lits[k])) {
                on[e] = true;
                g.out_at[i + 1]++;
                g.in_at[cols[k] + 1]++;
            }
    for (int i = 0; i < n; i++) {
        g.out_at[i + 1] += g.out_at[i];
        g.in_at[i + 1] += g.in_at[i];
    }
    g.out = xcalloc((size_t)g.out_at[n] + 1, sizeof(int));
    g.in = xcalloc((size_t)g.out_at[n] + 1, sizeof(int));
    int *in_fill = xcalloc((size_t)n + 1, sizeof(int));
    for (int i = 0, e = 0, k = 0; i < n; i++)
        for (int a = 0, len = rel_row(r, i, &cols, &lits); a < len; a++, e++)
            if (on[e]) {
                g.out[k++] = cols[a];
                g.in[g.in_at[cols[a]] + in_fill[cols[a]]++] = i;
            }
    free(in_fill);
    free(on);
    return g;
}

static void graph_free(struct graph *g)
{
    free(g->out_at);
    free(g->out);
    free(g->in_at);
    free(g->in);
}

/* Marks in gone[] every node that lies on no cycle and can be peeled off:
 * repeatedly, nodes with no remaining predecessor or no remaining
 * successor.  Every node of a cycle survives; in an acyclic graph none does. */
static void peel(const struct graph *g, bool *gone)
{
    int n = g->n, top = 0;
    int *indeg = xcalloc((size_t)n + 1, sizeof(int)), *outdeg = xcalloc((size_t)n + 1, sizeof(int));
    int *stack = xcalloc((size_t)n + 1, sizeof(int));
    for (int u = 0; u < n; u++) {
        indeg[u] = g->in_at[u + 1] - g->in_at[u];
        outdeg[u] = g->out_at[u + 1] - g->out_at[u];
        if (indeg[u] == 0 || outdeg[u] == 0) {
            gone[u] = true;
            stack[top++] = u;
        }
    }
    while (top > 0) {
        int u = stack[--top];
        for (int k = g->out_at[u]; k < g->out_at[u + 1]; k++) {
            int w = g->out[k];
            if (!gone[w] && --indeg[w] == 0) {
                gone[w] = true;
                stack[top++] = w;
            }
        }
        for (int k = g->in_at[u]; k < g->in_at[u + 1]; k++) {
            int w = g->in[k];
            if (!gone[w] && --outdeg[w] == 0) {
                gone[w] = true;
                stack[top++] = w;
            }
        }
    }
    free(indeg);
    free(outdeg);
    free(stack);
}

/* Shortest cycle through v among the nodes not gone, as its nodes in path
 * order; returns its length, 0 if none. */
static int shortest_cycle(const struct graph *g, const bool *gone, int v, int *parent, int *queue, int *cycle)
{
    for (int i = 0; i < g->n; i++)
        parent[i] = -1;
    int head = 0, tail = 0;
    queue[tail++] = v;
    while (head < tail) {
        int u = queue[head++];
        for (int k = g->out_at[u]; k < g->out_at[u + 1]; k++) {
            int w = g->out[k];
            if (gone[w])
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
    struct graph g = model_graph(c, r);
    bool *gone = xcalloc((size_t)n + 1, sizeof *gone);
    peel(&g, gone);
    int *parent = xcalloc((size_t)n + 1, sizeof *parent);
    int *queue = xcalloc((size_t)n + 1, sizeof *queue);
    int *cycle = xcalloc((size_t)n + 1, sizeof *cycle);
    lit *clause = xcalloc((size_t)n + 2, sizeof *clause);
    for (int v = 0; v < n; v++) {
        if (gone[v])
            continue;
        int len = shortest_cycle(&g, gone, v, parent, queue, cycle);
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
    graph_free(&g);
    free(gone);
    free(parent);
    free(queue);
    free(cycle);
    free(clause);
    return found;
}
