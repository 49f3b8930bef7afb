/* Stems from the breadth-first tree, cycles by breadth-first searches
 * that stay inside one component. */
#include "bmc/concrete/lasso.h"

#include <stdlib.h>
#include <string.h>

#include "bmc/concrete/text.h"
#include "util/xalloc.h"

/* Scratch for searches inside a component. */
struct search {
    const struct state_graph *g;
    const struct fair_sccs *f;
    int scc;
    int *prev, *prevt;       /* per state: predecessor on the search tree (the
                                start: itself), its thread; -1: unseen */
    int *queue;
    void *block;             /* the allocation of the arrays above */
};

/* Places s's arrays in block (NULL: measures); returns its size. */
static size_t search_layout(struct search *s, char *block)
{
    struct xblock b = { block, 0 };
    size_t nstates = (size_t)s->g->nstates;
    s->prev = xblock_take(&b, nstates, sizeof *s->prev);
    s->prevt = xblock_take(&b, nstates, sizeof *s->prevt);
    s->queue = xblock_take(&b, nstates, sizeof *s->queue);
    return b.size;
}

static void push_step(struct lasso *la, int *cap, int t)
{
    XGROW(la->step, *cap, la->nstem + la->ncycle + 1);
    la->step[la->nstem + la->ncycle++] = t;
}

/* Whether v is where the search goes: a state where thread t (t >= 0)
 * has a step that stays inside the component, or (t < 0) state to. */
static bool goal(const struct search *s, int v, int t, int to)
{
    if (t < 0)
        return v == to;
    int w = s->g->succ[(size_t)v * s->g->nthreads + t];
    return w >= 0 && s->f->scc_of[w] == s->scc;
}

/* Appends the shortest path inside the component from `from` to the
 * nearest goal state (`from` itself counts), then, for
 * t >= 0, t's step.  Returns the state reached. */
static int walk(struct search *s, struct lasso *la, int *cap, int from, int t, int to)
{
    const struct state_graph *g = s->g;
    int nt = g->nthreads, head = 0, tail = 0, found = -1;
    s->queue[tail++] = from;
    s->prev[from] = from;
    while (head < tail && found < 0) {
        int v = s->queue[head++];
        if (goal(s, v, t, to)) {
            found = v;
            break;
        }
        for (int u = 0; u < nt; u++) {
            int w = g->succ[(size_t)v * nt + u];
            if (w >= 0 && s->f->scc_of[w] == s->scc && s->prev[w] == -1) {
                s->prev[w] = v;
                s->prevt[w] = u;
                s->queue[tail++] = w;
            }
        }
    }
    int n0 = la->ncycle;   /* the path, written backwards, then reversed */
    for (int v = found; v != from; v = s->prev[v])
        push_step(la, cap, s->prevt[v]);
    for (int i = n0, j = la->ncycle - 1; i < j; i++, j--) {
        int x = la->step[la->nstem + i];
        la->step[la->nstem + i] = la->step[la->nstem + j];
        la->step[la->nstem + j] = x;
    }
    for (int k = 0; k < tail; k++)
        s->prev[s->queue[k]] = -1;
    if (t < 0)
        return found;
    push_step(la, cap, t);
    return g->succ[(size_t)found * nt + t];
}

/* Sets la->how from one pass round the cycle, along the graph's edges. */
static void classify(const struct search *s, struct lasso *la)
{
    const struct state_graph *g = s->g;
    int nt = g->nthreads, v = la->entry;
    la->how = xcalloc((size_t)nt + 1, sizeof *la->how);
    for (int t = 0; t < nt; t++)
        la->how[t] = states_pc(g, la->entry, t) >= g->code[t].n ? LASSO_ENDS : LASSO_HALTED;
    for (int k = 0; k < la->ncycle; k++) {
        int t = la->step[la->nstem + k];
        if (states_writes(g, states_at(g, v), t))
            la->how[t] = LASSO_REPEATS;
        else if (la->how[t] == LASSO_HALTED)
            la->how[t] = LASSO_SPINS;
        v = g->succ[(size_t)v * nt + t];
    }
}

void lasso_find(const struct state_graph *g, const struct fair_sccs *f, int scc, const bool *need,
                struct lasso *out)
{
    memset(out, 0, sizeof *out);
    int cap = 0, entry = f->first[scc];
    out->entry = entry;
    for (int v = entry; g->parent[v] >= 0; v = g->parent[v])
        out->nstem++;
    out->step = xcalloc((size_t)out->nstem + 1, sizeof *out->step);
    cap = out->nstem + 1;
    int k = out->nstem;
    for (int v = entry; g->parent[v] >= 0; v = g->parent[v])
        out->step[--k] = g->via[v];
    struct search s = { .g = g, .f = f, .scc = scc };
    s.block = xrealloc(NULL, search_layout(&s, NULL));   /* prev set just below, the rest written before read */
    search_layout(&s, s.block);
    memset(s.prev, -1, (size_t)g->nstates * sizeof *s.prev);
    int cur = entry;
    for (int t = 0; t < g->nthreads; t++)
        if (need[t] && f->runs[scc * g->nthreads + t])
            cur = walk(&s, out, &cap, cur, t, -1);
    for (int t = 0; out->ncycle == 0 && t < g->nthreads; t++)   /* a cycle takes a step */
        if (f->runs[scc * g->nthreads + t])
            cur = walk(&s, out, &cap, cur, t, -1);
    if (cur != entry)
        walk(&s, out, &cap, cur, -1, entry);
    classify(&s, out);
    free(s.block);
}

const char *lasso_how_name(enum lasso_how h)
{
    static const char *const names[] = { "ends", "spins", "repeats", "halted" };
    return names[h];
}

void lasso_describe(const struct litmus *l, const struct lasso *la, bool full, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int pass = 0; pass < 2; pass++)   /* the threads that run, then the halted ones */
        for (int t = 0; t < l->nthreads && used + 64 < len; t++) {
            enum lasso_how h = la->how[t];
            if (h == LASSO_ENDS || (h == LASSO_HALTED) != (pass == 1))
                continue;
            const char *sep = used ? (full ? "; " : ", ") : "";
            char digits[12];
            const char *id = text_int(l->threads[t].id, digits);
            if (!full)
                text_append(buf, len, &used, (const char *const[]){ sep, "P", id, " ", lasso_how_name(h) }, 5);
            else if (h == LASSO_HALTED)
                text_append(buf, len, &used, (const char *const[]){ sep, "the scheduler never runs P", id, " again" }, 4);
            else   /* the constant parts joined: fewer to append */
                text_append(buf, len, &used, (const char *const[]){ sep, "P", id, h == LASSO_SPINS
                                                                     ? " spins for ever"
                                                                     : " repeats its loop for ever (livelock)" }, 4);
        }
}

void lasso_free(struct lasso *la)
{
    free(la->step);
    free(la->how);
    memset(la, 0, sizeof *la);
}
