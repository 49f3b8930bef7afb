/* Strongly connected components and reachability bitsets. */
#include "encoders/reach.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Tarjan's algorithm without recursion: R->scc[u] for every node, the
 * components numbered in the order they complete (sinks first). */
static void components(struct reach *R, const int *start, const int *col, const bool *on)
{
    int n = R->n, counter = 0, top = 0, calls = 0;
    int *index = xcalloc((size_t)n + 1, sizeof *index), *low = xcalloc((size_t)n + 1, sizeof *low);
    int *stack = xcalloc((size_t)n + 1, sizeof *stack), *call = xcalloc((size_t)n + 1, sizeof *call);
    int *next = xcalloc((size_t)n + 1, sizeof *next);
    bool *onstack = xcalloc((size_t)n + 1, sizeof *onstack);
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
    free(index);
    free(low);
    free(stack);
    free(call);
    free(next);
    free(onstack);
}

void reach_compute(struct reach *R, int n, const int *start, const int *col, const bool *on)
{
    *R = (struct reach){ .n = n, .words = (n + 63) / 64 };
    R->scc = xcalloc((size_t)n + 1, sizeof *R->scc);
    components(R, start, col, on);
    /* members by component, and which components have an outgoing edge */
    int *first = xcalloc((size_t)R->nscc + 1, sizeof *first), *member = xcalloc((size_t)n + 1, sizeof *member);
    int *fill = xcalloc((size_t)R->nscc + 1, sizeof *fill);
    for (int u = 0; u < n; u++)
        first[R->scc[u] + 1]++;
    for (int c = 0; c < R->nscc; c++)
        first[c + 1] += first[c];
    for (int u = 0; u < n; u++)
        member[first[R->scc[u]] + fill[R->scc[u]]++] = u;
    R->offset = xcalloc((size_t)R->nscc + 1, sizeof *R->offset);
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
    free(first);
    free(member);
    free(fill);
}

void reach_free(struct reach *R)
{
    free(R->scc);
    free(R->offset);
    free(R->bits);
}
