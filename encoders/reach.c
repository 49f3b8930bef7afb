/* Strongly connected components and reachability bitsets. */
#include "encoders/reach.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* The scratch of reach_compute, per node (n + 1 each; a component count
 * is at most n), in one allocation. */
struct reach_work {
    int *index, *low, *stack, *call, *next;   /* Tarjan's */
    bool *onstack;
    int *first, *member, *fill;                /* members by component */
};

/* Places w's arrays for n nodes in block (NULL: measures); returns its size. */
static size_t work_layout(struct reach_work *w, int n, char *block)
{
    struct xblock b = { block, 0 };
    size_t len = (size_t)n + 1;
    w->index = xblock_take(&b, len, sizeof *w->index);
    w->low = xblock_take(&b, len, sizeof *w->low);
    w->stack = xblock_take(&b, len, sizeof *w->stack);
    w->call = xblock_take(&b, len, sizeof *w->call);
    w->next = xblock_take(&b, len, sizeof *w->next);
    w->onstack = xblock_take(&b, len, sizeof *w->onstack);
    w->first = xblock_take(&b, len, sizeof *w->first);
    w->member = xblock_take(&b, len, sizeof *w->member);
    w->fill = xblock_take(&b, len, sizeof *w->fill);
    return b.size;
}

/* Tarjan's algorithm without recursion: R->scc[u] for every node, the
 * components numbered in the order they complete (sinks first). */
static void components(struct reach *R, const int *start, const int *col, const bool *on,
                       const struct reach_work *wk)
{
    int n = R->n, counter = 0, top = 0, calls = 0;
    int *index = wk->index, *low = wk->low, *stack = wk->stack, *call = wk->call, *next = wk->next;
    bool *onstack = wk->onstack;
    for (int u = 0; u < n; u++)
        index[u] = -1;
    for (int s = 0; s < n; s++) {
        if (index[s] >= 0)
            continue;
        call[calls++] = s;
        index[s] = low[s] = counter++;
        next[s] = start[s];
        stack[top++] = s;
        onstack[s] = true;
        while (calls > 0) {
            int u = call[calls - 1];
            if (next[u] < start[u + 1]) {
                int e = next[u]++, w = col[e];
                if (on && !on[e])
                    continue;
                if (index[w] < 0) {
                    index[w] = low[w] = counter++;
                    next[w] = start[w];
                    stack[top++] = w;
                    onstack[w] = true;
                    call[calls++] = w;
                } else if (onstack[w] && index[w] < low[u]) {
                    low[u] = index[w];
                }
                continue;
            }
            calls--;
            if (calls > 0 && low[u] < low[call[calls - 1]])
                low[call[calls - 1]] = low[u];
            if (low[u] == index[u]) {
                int w;
                do {
                    w = stack[--top];
                    onstack[w] = false;
                    R->scc[w] = R->nscc;
                } while (w != u);
                R->nscc++;
            }
        }
    }
}

/* Places R's per-node arrays, scc then offset, in block (NULL: measures);
 * returns its size. */
static size_t reach_layout(struct reach *R, char *block)
{
    struct xblock b = { block, 0 };
    R->scc = xblock_take(&b, (size_t)R->n + 1, sizeof *R->scc);
    R->offset = xblock_take(&b, (size_t)R->n + 1, sizeof *R->offset);
    return b.size;
}

/* True when on marks some of the size edges (every one when on is NULL). */
static bool some_on(const bool *on, int size)
{
    if (!on)
        return size > 0;
    for (int e = 0; e < size; e++)
        if (on[e])
            return true;
    return false;
}

void reach_compute(struct reach *R, int n, const int *start, const int *col, const bool *on)
{
    *R = (struct reach){ .n = n, .words = (n + 63) / 64 };
    reach_layout(R, xcalloc(1, reach_layout(R, NULL)));
    if (!some_on(on, start[n])) {   /* no edge: each node alone, reaching nothing */
        for (int u = 0; u < n; u++) {
            R->scc[u] = u;
            R->offset[u] = -1;
        }
        R->nscc = n;
        R->bits = xcalloc(1, sizeof *R->bits);
        return;
    }
    struct reach_work wk;
    void *work = xcalloc(1, work_layout(&wk, n, NULL));
    work_layout(&wk, n, work);
    components(R, start, col, on, &wk);
    /* members by component, and which components have an outgoing edge */
    int *first = wk.first, *member = wk.member, *fill = wk.fill;
    for (int u = 0; u < n; u++)
        first[R->scc[u] + 1]++;
    for (int c = 0; c < R->nscc; c++)
        first[c + 1] += first[c];
    for (int u = 0; u < n; u++)
        member[first[R->scc[u]] + fill[R->scc[u]]++] = u;
    long used = 0;
    for (int c = 0; c < R->nscc; c++) {
        bool out = false;
        for (int m = first[c]; m < first[c + 1] && !out; m++)
            for (int e = start[member[m]]; e < start[member[m] + 1] && !out; e++)
                out = !on || on[e];
        R->offset[c] = out ? used : -1;
        used += out ? R->words : 0;
    }
    R->bits = xcalloc((size_t)used + 1, sizeof *R->bits);
    int *merged = fill;                    /* per component: the last component that took its bits, + 1 */
    memset(merged, 0, ((size_t)R->nscc + 1) * sizeof *merged);
    for (int c = 0; c < R->nscc; c++) {   /* sinks first: successors' bits are final */
        if (R->offset[c] < 0)
            continue;
        uint64_t *b = R->bits + R->offset[c];
        for (int m = first[c]; m < first[c + 1]; m++)
            for (int e = start[member[m]]; e < start[member[m] + 1]; e++) {
                if (on && !on[e])
                    continue;
                int w = col[e], d = R->scc[w];
                b[w / 64] |= 1ull << (w % 64);
                if (d != c && R->offset[d] >= 0 && merged[d] != c + 1) {
                    merged[d] = c + 1;
                    const uint64_t *bw = R->bits + R->offset[d];
                    for (int k = 0; k < R->words; k++)
                        b[k] |= bw[k];
                }
            }
    }
    free(work);
}

void reach_free(struct reach *R)
{
    free(R->scc);   /* and offset, in the same allocation */
    free(R->bits);
}
