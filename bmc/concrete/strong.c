/* Escapes by a backward search over the guaranteed threads' steps; a trap's
 * lasso from the components of the steps that stay without escape. */
#include "bmc/concrete/strong.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Per state, the ways the scheduler of m may guarantee progress there
 * (fair_shares): state v's are ways first[v] .. first[v + 1], way k's
 * threads at set[k * nthreads]. */
struct ways { int *first; bool *set; };

/* The ways of every state of g; false when a state has more than
 * FAIR_MAX_SHARES. */
static bool ways_of(const struct state_graph *g, const struct fair_tree *tr, enum progress_model m, struct ways *w)
{
    int nt = g->nthreads, cap = g->nstates + 1, used = 0;
    w->first = xcalloc((size_t)g->nstates + 2, sizeof *w->first);
    w->set = xcalloc((size_t)cap * nt + 1, sizeof *w->set);
    bool *ended = xcalloc((size_t)nt + 1, sizeof *ended), *started = xcalloc((size_t)nt + 1, sizeof *started);
    bool *scratch = xcalloc((size_t)FAIR_MAX_SHARES * nt + 1, sizeof *scratch), ok = true;
    for (int v = 0; v < g->nstates && ok; v++) {
        for (int t = 0; t < nt; t++) {
            ended[t] = states_pc(g, v, t) >= g->code[t].n;
            started[t] = states_started(g, v, t);
        }
        int k = fair_shares(tr, m, ended, started, scratch);
        ok = k >= 0;
        if (ok && used + k > cap) {
            cap = 2 * (used + k);
            w->set = xrealloc(w->set, (size_t)cap * nt + 1);
        }
        if (ok)
            memcpy(&w->set[(size_t)used * nt], scratch, (size_t)k * nt * sizeof *scratch);
        used += ok ? k : 0;
        w->first[v + 1] = used;
    }
    free(ended);
    free(started);
    free(scratch);
    return ok;
}

static void ways_free(struct ways *w)
{
    free(w->first);
    free(w->set);
}

/* Whether state v is an escape: every thread has ended, or no way
 * guarantees a thread. */
static bool escape(const struct state_graph *g, const struct ways *w, int v)
{
    int nt = g->nthreads;
    bool all_ended = true, some_guaranteed = false;
    for (int t = 0; t < nt; t++)
        all_ended &= states_pc(g, v, t) >= g->code[t].n;
    for (size_t e = (size_t)w->first[v] * nt; e < (size_t)w->first[v + 1] * nt; e++)
        some_guaranteed |= w->set[e];
    return all_ended || !some_guaranteed;
}

/* Whether thread t is guaranteed in some way of state v. */
static bool in_some_way(const struct ways *w, int nt, int v, int t)
{
    for (int k = w->first[v]; k < w->first[v + 1]; k++)
        if (w->set[(size_t)k * nt + t])
            return true;
    return false;
}

/* Per state, whether a schedule of guaranteed threads leads from it to an
 * escape however the scheduler shares minimal progress: a breadth-first
 * search backwards from the escapes along the guaranteed steps
 * (predecessors in compressed rows), a state reached once each of its
 * ways has a thread that steps to a state reached.  *open gets, per way,
 * whether it has none (of a state not reached: its threads step only to
 * states not reached). */
static bool *can_escape(const struct state_graph *g, const struct ways *w, bool **open)
{
    int n = g->nstates, nt = g->nthreads;
    int *start = xcalloc((size_t)n + 2, sizeof *start);
    for (size_t e = 0; e < (size_t)n * nt; e++)
        if (g->succ[e] >= 0 && in_some_way(w, nt, (int)(e / (size_t)nt), (int)(e % (size_t)nt)))
            start[g->succ[e] + 1]++;
    for (int v = 0; v < n; v++)
        start[v + 1] += start[v];
    int *pred = xcalloc((size_t)start[n] + 1, sizeof *pred), *fill = xcalloc((size_t)n + 1, sizeof *fill);
    memcpy(fill, start, (size_t)n * sizeof *fill);
    for (size_t e = 0; e < (size_t)n * nt; e++)
        if (g->succ[e] >= 0 && in_some_way(w, nt, (int)(e / (size_t)nt), (int)(e % (size_t)nt)))
            pred[fill[g->succ[e]]++] = (int)e;   /* the step: its state and thread */
    bool *good = xcalloc((size_t)n + 1, sizeof *good), *unmet = xcalloc((size_t)w->first[n] + 1, sizeof *unmet);
    int *pending = xcalloc((size_t)n + 1, sizeof *pending);
    int *queue = xcalloc((size_t)n + 1, sizeof *queue), head = 0, tail = 0;
    for (int v = 0; v < n; v++) {
        pending[v] = w->first[v + 1] - w->first[v];
        for (int k = w->first[v]; k < w->first[v + 1]; k++)
            unmet[k] = true;
        if (escape(g, w, v)) {
            good[v] = true;
            queue[tail++] = v;
        }
    }
    while (head < tail) {
        int to = queue[head++];
        for (int i = start[to]; i < start[to + 1]; i++) {
            int v = pred[i] / nt, t = pred[i] % nt;
            for (int k = w->first[v]; k < w->first[v + 1] && !good[v]; k++)
                if (unmet[k] && w->set[(size_t)k * nt + t]) {
                    unmet[k] = false;
                    if (--pending[v] == 0) {
                        good[v] = true;
                        queue[tail++] = v;
                    }
                }
        }
    }
    free(start);
    free(pred);
    free(fill);
    free(queue);
    free(pending);
    *open = unmet;
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

int strong_find(const struct state_graph *g, const struct fair_tree *tr, enum progress_model m, struct lasso *la,
                bool *guaranteed)
{
    int n = g->nstates, nt = g->nthreads;
    struct ways w;
    if (!ways_of(g, tr, m, &w)) {
        ways_free(&w);
        return -1;
    }
    bool *open, *good = can_escape(g, &w, &open), trapped = false;
    for (int v = 0; v < n && !trapped; v++)
        trapped = !good[v];
    if (trapped) {
        /* In a state with no escape some way has no thread stepping to a
         * state with one: the scheduler may share progress so (the first
         * such way, its pick).  Its steps lead to such states again, and
         * every such state has one (it is no escape), so these steps alone
         * have a cyclic component that none leaves. */
        int *pick = xcalloc((size_t)n + 1, sizeof *pick);
        for (int v = 0; v < n; v++) {
            pick[v] = w.first[v];
            while (!good[v] && !open[pick[v]])
                pick[v]++;
        }
        struct state_graph inside = *g;
        inside.succ = xcalloc((size_t)n * nt + 1, sizeof *inside.succ);
        for (size_t e = 0; e < (size_t)n * nt; e++) {
            int v = (int)(e / (size_t)nt);
            inside.succ[e] = !good[v] && w.set[(size_t)pick[v] * nt + e % (size_t)nt] ? g->succ[e] : -1;
        }
        struct fair_sccs f;
        fair_sccs(&inside, &f);
        int best = bottom_component(&inside, &f);
        bool *need = &f.runs[(size_t)best * nt];
        lasso_find(&inside, &f, best, need, la);
        memcpy(guaranteed, &w.set[(size_t)pick[la->entry] * nt], (size_t)nt * sizeof *guaranteed);
        fair_free(&f);
        free(inside.succ);
        free(pick);
    }
    ways_free(&w);
    free(good);
    free(open);
    return trapped;
}
