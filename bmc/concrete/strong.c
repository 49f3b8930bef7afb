/* Escapes by a backward search over the guaranteed threads' steps; a trap's
 * lasso from the components of the steps that stay without escape. */
#include "bmc/concrete/strong.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Per state, which threads the scheduler of m guarantees there. */
static bool *guarantees(const struct state_graph *g, const struct fair_tree *tr, enum progress_model m)
{
    int nt = g->nthreads;
    bool *guar = xcalloc((size_t)g->nstates * nt + 1, sizeof *guar);
    bool *ended = xcalloc((size_t)nt + 1, sizeof *ended), *started = xcalloc((size_t)nt + 1, sizeof *started);
    for (int v = 0; v < g->nstates; v++) {
        for (int t = 0; t < nt; t++) {
            ended[t] = states_pc(g, v, t) >= g->code[t].n;
            started[t] = states_started(g, v, t);
        }
        fair_guaranteed(tr, m, ended, started, &guar[(size_t)v * nt]);
    }
    free(ended);
    free(started);
    return guar;
}

/* Whether state v is an escape: every thread has ended, or none is guaranteed. */
static bool escape(const struct state_graph *g, const bool *guar, int v)
{
    int nt = g->nthreads;
    bool all_ended = true, some_guaranteed = false;
    for (int t = 0; t < nt; t++) {
        all_ended &= states_pc(g, v, t) >= g->code[t].n;
        some_guaranteed |= guar[(size_t)v * nt + t];
    }
    return all_ended || !some_guaranteed;
}

/* Per state, whether some schedule of guaranteed threads leads from it to
 * an escape: a breadth-first search backwards from the escapes along the
 * guaranteed steps (predecessors in compressed rows). */
static bool *can_escape(const struct state_graph *g, const bool *guar)
{
    int n = g->nstates, nt = g->nthreads;
    int *start = xcalloc((size_t)n + 2, sizeof *start);
    for (size_t e = 0; e < (size_t)n * nt; e++)
        if (guar[e] && g->succ[e] >= 0)
            start[g->succ[e] + 1]++;
    for (int v = 0; v < n; v++)
        start[v + 1] += start[v];
    int *pred = xcalloc((size_t)start[n] + 1, sizeof *pred), *fill = xcalloc((size_t)n + 1, sizeof *fill);
    memcpy(fill, start, (size_t)n * sizeof *fill);
    for (size_t e = 0; e < (size_t)n * nt; e++)
        if (guar[e] && g->succ[e] >= 0)
            pred[fill[g->succ[e]]++] = (int)(e / (size_t)nt);
    bool *good = xcalloc((size_t)n + 1, sizeof *good);
    int *queue = xcalloc((size_t)n + 1, sizeof *queue), head = 0, tail = 0;
    for (int v = 0; v < n; v++)
        if (escape(g, guar, v)) {
            good[v] = true;
            queue[tail++] = v;
        }
    while (head < tail) {
        int w = queue[head++];
        for (int k = start[w]; k < start[w + 1]; k++)
            if (!good[pred[k]]) {
                good[pred[k]] = true;
                queue[tail++] = pred[k];
            }
    }
    free(start);
    free(pred);
    free(fill);
    free(queue);
    return good;
}

/* The component of the guaranteed steps without escape that no such step
 * leaves (so its cycle can step every thread guaranteed in it: the run is
 * weakly fair too) whose first state has the lowest index. */
static int bottom_component(const struct state_graph *inside, const struct fair_sccs *f)
{
    int nt = inside->nthreads, best = -1;
    bool *leaves = xcalloc((size_t)f->nscc + 1, sizeof *leaves);
    for (size_t e = 0; e < (size_t)inside->nstates * nt; e++) {
        int w = inside->succ[e], c = f->scc_of[e / (size_t)nt];
        if (w >= 0 && f->scc_of[w] != c)
            leaves[c] = true;
    }
    for (int c = 0; c < f->nscc; c++)
        if (f->cyclic[c] && !leaves[c] && (best < 0 || f->first[c] < f->first[best]))
            best = c;
    free(leaves);
    return best;
}

bool strong_find(const struct state_graph *g, const struct fair_tree *tr, enum progress_model m, struct lasso *la,
                 bool *guaranteed)
{
    int n = g->nstates, nt = g->nthreads;
    bool *guar = guarantees(g, tr, m), *good = can_escape(g, guar), trapped = false;
    for (int v = 0; v < n && !trapped; v++)
        trapped = !good[v];
    if (trapped) {
        /* The guaranteed steps out of states with no escape lead to such
         * states again, and every such state has one (it is no escape), so
         * these steps alone have a cyclic component that none leaves. */
        struct state_graph inside = *g;
        inside.succ = xcalloc((size_t)n * nt + 1, sizeof *inside.succ);
        for (size_t e = 0; e < (size_t)n * nt; e++)
            inside.succ[e] = !good[e / (size_t)nt] && guar[e] ? g->succ[e] : -1;
        struct fair_sccs f;
        fair_sccs(&inside, &f);
        int best = bottom_component(&inside, &f);
        bool *need = &f.runs[(size_t)best * nt];
        lasso_find(&inside, &f, best, need, la);
        memcpy(guaranteed, &guar[(size_t)la->entry * nt], (size_t)nt * sizeof *guaranteed);
        fair_free(&f);
        free(inside.succ);
    }
    free(guar);
    free(good);
    return trapped;
}
