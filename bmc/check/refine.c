/* Cycle search in the solver's model and the clauses that forbid them. */
#include "bmc/check/refine.h"

#include <stdlib.h>

#include "util/xalloc.h"

/* The edges of a relation in the solver's model, as out- and in-lists
 * (compressed rows: the successors of u are out[out_at[u] .. out_at[u+1])),
 * and the scratch of the cycle search: every array in one allocation. */
struct graph {
    int n;
    int *out_at, *out, *in_at, *in;
    int *indeg, *outdeg, *stack, *parent, *queue, *cycle;
    bool *gone;
    lit *clause;
    void *block;
};

/* A graph of n nodes and m edges whose lists model_graph and value_graph
 * fill, with room for the search, in one allocation; on[] (m + 1 flags)
 * follows the rest. */
static struct graph graph_new(int n, int m, bool **on)
{
    /* ints: out_at, in_at, indeg, outdeg, stack, parent, queue, cycle (n + 1
     * each), out, in (m + 1 each); then the clause (n + 2 literals), then
     * gone (n + 1) and on (m + 1) */
    size_t ints = 8 * ((size_t)n + 1) + 2 * ((size_t)m + 1);
    size_t bytes = ints * sizeof(int) + ((size_t)n + 2) * sizeof(lit) + ((size_t)n + 1) + ((size_t)m + 1);
    struct graph g = { .n = n, .block = xcalloc(bytes, 1) };
    int *at = g.block;
    int **ints_of[] = { &g.out_at, &g.in_at, &g.indeg, &g.outdeg, &g.stack, &g.parent, &g.queue, &g.cycle };
    for (size_t k = 0; k < sizeof ints_of / sizeof *ints_of; k++, at += n + 1)
        *ints_of[k] = at;
    g.out = at;
    g.in = at + m + 1;
    g.clause = (lit *)(g.in + m + 1);
    g.gone = (bool *)(g.clause + n + 2);
    *on = g.gone + n + 1;
    return g;
}

/* Fills g's lists from the candidate edges (i, col[e]) of rows start/col
 * that hold (on[e]), the out-lists in column order. */
static void fill_lists(struct graph *g, const int *start, const int *col, const bool *on)
{
    int n = g->n;
    for (int i = 0; i < n; i++)
        for (int e = start[i]; e < start[i + 1]; e++)
            if (on[e]) {
                g->out_at[i + 1]++;
                g->in_at[col[e] + 1]++;
            }
    for (int i = 0; i < n; i++) {
        g->out_at[i + 1] += g->out_at[i];
        g->in_at[i + 1] += g->in_at[i];
    }
    int *in_fill = g->indeg;   /* zero until peel counts the degrees */
    for (int i = 0, k = 0; i < n; i++)
        for (int e = start[i]; e < start[i + 1]; e++)
            if (on[e]) {
                int j = col[e];
                g->out[k++] = j;
                g->in[g->in_at[j] + in_fill[j]++] = i;
            }
}

/* The edges of r that hold in the solver's model, from r's rows of
 * literals, with room for the search. */
static struct graph model_graph(struct cnf *c, const struct rel *r)
{
    const struct rel_rows *t = rel_all_rows(r);
    bool *on;
    struct graph g = graph_new(r->n, t->start[r->n], &on);
    for (int e = 0; e < t->start[r->n]; e++)
        on[e] = cnf_value(c, t->val[e]);
    fill_lists(&g, t->start, t->col, on);
    return g;
}

/* The same from the rows of bits of r's pairs in the model (rel_value):
 * no literal read or made. */
static struct graph value_graph(const struct rel *r, const unsigned long long *value)
{
    int n = r->n, w = (n + 63) / 64, m = 0;
    for (size_t k = 0; k < (size_t)n * (size_t)w; k++)
        for (unsigned long long x = value[k]; x; x &= x - 1)
            m++;
    bool *on;
    struct graph g = graph_new(n, m, &on);
    int *start = xcalloc((size_t)n + 1 + (size_t)m + 1, sizeof *start), *col = start + n + 1;
    for (int i = 0, e = 0; i < n; i++) {
        for (int k = 0; k < w; k++)
            for (unsigned long long x = value[(size_t)i * w + k]; x; x &= x - 1)
                col[e++] = k * 64 + __builtin_ctzll(x);
        start[i + 1] = e;
    }
    for (int e = 0; e < m; e++)
        on[e] = true;
    fill_lists(&g, start, col, on);
    free(start);
    return g;
}

/* Marks in g->gone[] every node that lies on no cycle and can be peeled
 * off: repeatedly, nodes with no remaining predecessor or no remaining
 * successor.  Every node of a cycle survives; in an acyclic graph none does. */
static void peel(struct graph *g)
{
    int n = g->n, top = 0, *indeg = g->indeg, *outdeg = g->outdeg, *stack = g->stack;
    bool *gone = g->gone;
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

/* Appends the cycle of len nodes to log, as r's and act's. */
static void log_cycle(struct refine_log *log, const struct rel *r, lit act, const int *cycle, int len)
{
    XGROW_FROM(log->v, log->cap, log->n + 1, 8);
    XGROW_FROM(log->nodes, log->nodes_cap, log->nnodes + len, 64);
    log->v[log->n++] = (struct refined){ r, act, log->nnodes, len };
    for (int i = 0; i < len; i++)
        log->nodes[log->nnodes++] = cycle[i];
}

/* Whether rows of bits value (r's pairs in the model) hold every edge of
 * a cycle logged for r and act. */
static bool shows_logged_cycle(const struct refine_log *log, const struct rel *r, lit act,
                               const unsigned long long *value)
{
    int w = (r->n + 63) / 64;
    for (int k = 0; k < log->n; k++) {
        const struct refined *e = &log->v[k];
        if (e->r != r || e->act != act)
            continue;
        bool all = true;
        for (int i = 0; i < e->len && all; i++) {
            int from = log->nodes[e->at + i], to = log->nodes[e->at + (i + 1) % e->len];
            all = value[(size_t)from * w + (unsigned)to / 64] >> ((unsigned)to % 64) & 1;
        }
        if (all)
            return true;
    }
    return false;
}

void refine_log_free(struct refine_log *log)
{
    free(log->v);
    free(log->nodes);
    *log = (struct refine_log){ 0 };
}

/* Forbids the shortest cycle through each node of g that is the lowest
 * of its cycle, logging each in log (NULL: none); returns their number. */
static int forbid_cycles(struct cnf *c, const struct rel *r, lit act, struct graph *g, struct refine_log *log)
{
    int n = r->n, found = 0;
    peel(g);
    for (int v = 0; v < n; v++) {
        if (g->gone[v])
            continue;
        int len = shortest_cycle(g, g->gone, v, g->parent, g->queue, g->cycle);
        bool lowest = len > 0;   /* each cycle once: from its lowest node */
        for (int i = 0; i < len; i++)
            lowest &= g->cycle[i] >= v;
        if (!lowest)
            continue;
        int k = 0;
        g->clause[k++] = -act;
        for (int i = 0; i < len; i++) {
            int from = g->cycle[i], to = g->cycle[(i + 1) % len];
            g->clause[k++] = -rel_get(r, from, to);
        }
        cnf_clause(c, g->clause, k);
        if (log)
            log_cycle(log, r, act, g->cycle, len);
        found++;
    }
    return found;
}

int refine_acyclic(struct cnf *c, const struct rel *r, lit act, struct refine_log *log)
{
    if (r->empty || rel_candidates_acyclic(r))
        return 0;
    const unsigned long long *value = rel_value(r);
    if (value && !rel_bits_cyclic(value, r->n))   /* the usual answer, with no graph */
        return 0;
    /* a logged cycle shown again: not expected, the literals' values decide */
    bool bits = value && !shows_logged_cycle(log, r, act, value);
    struct graph g = bits ? value_graph(r, value) : model_graph(c, r);
    int found = forbid_cycles(c, r, act, &g, bits ? log : NULL);
    free(g.block);
    return found;
}
