/* Transitive closures as lazily defined variables.  The may-set of t = r+
 * is what r's may-pairs reach, its must-set what r's true pairs reach
 * (both through components and reachability bitsets); entries in between
 * are gate variables whose definitions reach the solver on demand:
 *  - an entry t(i,j) that occurs negatively (a closure inside an axiom
 *    that must be empty, irreflexive or acyclic) gets r(i,j) -> t(i,j) at
 *    once.  For a small closure it also gets t(i,k) & r(k,j) -> t(i,j) for
 *    every k, one clause per triple, which pulls in the row.  A big closure
 *    gets those step clauses only along the paths a satisfying model shows
 *    while leaving t(i,j) false (closure_refine, from cnf_solve), so a
 *    fence.sc order over a thousand fences costs what its models use, not
 *    a cube of clauses;
 *  - an entry that occurs positively gets t(i,j) -> path, through
 *    Warshall's gates over the may-set, built at that moment. */
#include "encoders/cnf_impl.h"

#include <stdlib.h>
#include <string.h>

#include "encoders/reach.h"
#include "encoders/xalloc.h"

/* Closures whose eager step clauses would number more than this are refined lazily. */
#define EAGER_STEPS 65536L

struct closure {
    int n;
    int *rs, *rc;            /* r: rows */
    lit *rv;
    int *ps, *pk, *pe;       /* per node j: predecessors k of j in r and the index of (k, j) */
    int *ts, *tc;            /* t: rows */
    lit *tv;
    lit *exact;              /* per t entry: Warshall's literal, once some entry needed it */
    unsigned char *need;     /* per t entry: its negative side is required (lazy closures) */
    int *stepped;            /* per t entry: 1 + the k of the last step clause given lazily */
    bool eager, pending;     /* step clauses now; some lazy entry needs checking */
};

struct closures { struct closure *list; int count, cap; };

/* The index of (i, j) in rows (start, col), or -1. */
static int find(const int *start, const int *col, int i, int j)
{
    int lo = start[i], hi = start[i + 1];
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (col[mid] < j)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < start[i + 1] && col[lo] == j ? lo : -1;
}

/* The row of entry e of rows start over n nodes. */
static int row_of(const int *start, int n, int e)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (start[mid] <= e)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static size_t push_input(struct cnf *c, size_t top, lit l)
{
    return lit_is_const(l) ? top : cnf_push(c, top, l);
}

/* Warshall's exact gates for the closure over its may-set. */
static void build_exact(struct cnf *c, struct closure *cl)
{
    int n = cl->n, size = cl->ts[n];
    lit *w = xcalloc((size_t)size + 1, sizeof *w);
    for (int i = 0; i < n; i++)
        for (int e = cl->ts[i]; e < cl->ts[i + 1]; e++) {
            int d = find(cl->rs, cl->rc, i, cl->tc[e]);
            w[e] = d < 0 ? LIT_FALSE : cl->rv[d];
        }
    /* column lists of t: for each k, the entries (i, k) */
    int *cs = xcalloc((size_t)n + 1, sizeof *cs), *ce = xcalloc((size_t)size + 1, sizeof *ce);
    int *fill = xcalloc((size_t)n + 1, sizeof *fill);
    for (int e = 0; e < size; e++)
        cs[cl->tc[e] + 1]++;
    for (int k = 0; k < n; k++)
        cs[k + 1] += cs[k];
    for (int i = 0; i < n; i++)
        for (int e = cl->ts[i]; e < cl->ts[i + 1]; e++)
            ce[cs[cl->tc[e]] + fill[cl->tc[e]]++] = e;
    for (int k = 0; k < n; k++)
        for (int a = cs[k]; a < cs[k + 1]; a++) {
            int eik = ce[a], i = row_of(cl->ts, n, eik);
            if (w[eik] == LIT_FALSE)
                continue;
            for (int ekj = cl->ts[k]; ekj < cl->ts[k + 1]; ekj++) {
                if (w[ekj] == LIT_FALSE)
                    continue;
                int eij = find(cl->ts, cl->tc, i, cl->tc[ekj]);
                w[eij] = cnf_or(c, w[eij], cnf_and(c, w[eik], w[ekj]));
            }
        }
    free(cs);
    free(ce);
    free(fill);
    cl->exact = w;
}

static size_t closure_require(struct cnf *c, lit o, int side, size_t top)
{
    struct closures *cs = c->ext_state[EXT_CLOSURE];
    struct closure *cl = &cs->list[c->defs[o].a];
    int e = c->defs[o].b, n = cl->n, i = row_of(cl->ts, n, e), j = cl->tc[e];
    if (side == SIDE_POS) {                 /* o -> a path, through Warshall's gates */
        if (!cl->exact)
            build_exact(c, cl);
        lit back[2] = { -o, cl->exact[e] };
        cnf_emit(c, back, 2);
        return push_input(c, top, cl->exact[e]);
    }
    int d = find(cl->rs, cl->rc, i, j);     /* a path -> o: the direct step now */
    if (d >= 0) {
        lit direct[2] = { o, -cl->rv[d] };
        cnf_emit(c, direct, 2);
        top = push_input(c, top, -cl->rv[d]);
    }
    if (!cl->eager) {                       /* the other steps when a model lacks them */
        cl->need[e] = 1;
        cl->pending = true;
        return top;
    }
    for (int p = cl->ps[j]; p < cl->ps[j + 1]; p++) {
        int k = cl->pk[p], eik = find(cl->ts, cl->tc, i, k);
        if (k == i || k == j || eik < 0)
            continue;
        lit step[3] = { o, -cl->tv[eik], -cl->rv[cl->pe[p]] };
        cnf_emit(c, step, 3);
        top = push_input(c, push_input(c, top, -cl->tv[eik]), -cl->rv[cl->pe[p]]);
    }
    return top;
}

static size_t closure_evaluate(struct cnf *c, lit o, size_t top)
{
    struct closures *cs = c->ext_state[EXT_CLOSURE];
    const struct closure *cl = &cs->list[c->defs[o].a];
    int n = cl->n, size = cl->rs[n];
    size_t before = top;
    for (int e = 0; e < size; e++)
        if (cnf_pending(c, cl->rv[e]))
            top = cnf_push(c, top, cl->rv[e] > 0 ? cl->rv[e] : -cl->rv[e]);
    if (top > before)
        return top;
    bool *on = xcalloc((size_t)size + 1, sizeof *on);
    for (int e = 0; e < size; e++)
        on[e] = cnf_known_value(c, cl->rv[e]);
    struct reach R;
    reach_compute(&R, n, cl->rs, cl->rc, on);
    for (int i = 0; i < n; i++)
        for (int e = cl->ts[i]; e < cl->ts[i + 1]; e++) {
            lit v = cl->tv[e];
            if (!lit_is_const(v)) {
                c->eval_val[v] = reach_has(&R, i, cl->tc[e]);
                c->eval_at[v] = c->generation;
            }
        }
    reach_free(&R);
    free(on);
    return top;
}

/* A violated entry of a lazy closure: t(i, j) false in the model, reachable. */
struct violation { int cl, i, j; };

/* Adds, for each violation of closure cl in v[0..k) (all of row i), the
 * step clauses along a shortest path of true edges from i to j. */
static long add_paths(struct cnf *c, struct closure *cl, const bool *on, int i, const struct violation *v, int k)
{
    int n = cl->n;
    int *parent = xcalloc((size_t)n + 1, sizeof *parent), *via = xcalloc((size_t)n + 1, sizeof *via);
    int *queue = xcalloc((size_t)n + 1, sizeof *queue);
    for (int u = 0; u < n; u++)
        parent[u] = -1;
    int head = 0, tail = 0;
    queue[tail++] = i;
    while (head < tail) {                   /* breadth first from i over true edges */
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
        int w = v[a].j, u = -1, e = -1;
        if (w == i)                         /* back to i: through a predecessor reached */
            for (int p = cl->ps[i]; p < cl->ps[i + 1] && u < 0; p++)
                if (on[cl->pe[p]] && (cl->pk[p] == i || parent[cl->pk[p]] >= 0)) {
                    u = cl->pk[p];
                    e = cl->pe[p];
                }
        if (w != i && parent[w] >= 0) {
            u = parent[w];
            e = via[w];
        }
        while (u >= 0) {
            int at = find(cl->ts, cl->tc, i, w);
            if (cl->stepped[at] == u + 1)
                break;                      /* this step, and the path before it, is there */
            cl->stepped[at] = u + 1;
            lit l[3] = { cl->tv[at], -cl->rv[e], u == i ? LIT_FALSE : -cl->tv[find(cl->ts, cl->tc, i, u)] };
            cnf_emit(c, l, 3);           /* a definition clause: its inputs are required, not t(i,w) */
            cnf_require(c, l[1]);
            cnf_require(c, l[2]);
            added++;
            w = u;
            u = w == i ? -1 : parent[w];
            e = w == i ? -1 : via[w];
        }
    }
    free(parent);
    free(via);
    free(queue);
    return added;
}

/* The violations of lazy closure cl in the last model (solver values read
 * here, before any clause ends them) and its true edges (on). */
static int violations(struct cnf *c, struct closure *cl, int index, struct violation **v, bool **on)
{
    int n = cl->n, size = cl->rs[n], nv = 0, cap = 16;
    *v = xcalloc((size_t)cap, sizeof **v);
    *on = xcalloc((size_t)size + 1, sizeof **on);
    for (int i = 0; i < n; i++)
        for (int e = cl->ts[i]; e < cl->ts[i + 1]; e++)
            if (cl->need[e] && ccadical_val(c->solver, cl->tv[e]) < 0) {
                if (nv == cap)
                    *v = xrealloc(*v, (size_t)(cap *= 2) * sizeof **v);
                (*v)[nv++] = (struct violation){ index, i, cl->tc[e] };
            }
    bool any = false;
    for (int e = 0; e < size && nv > 0; e++)
        any |= (*on)[e] = cnf_value(c, cl->rv[e]);
    int kept = 0;
    if (any) {
        struct reach R;
        reach_compute(&R, n, cl->rs, cl->rc, *on);
        for (int a = 0; a < nv; a++)
            if (reach_has(&R, (*v)[a].i, (*v)[a].j))
                (*v)[kept++] = (*v)[a];
        reach_free(&R);
    }
    return kept;
}

static long closure_refine(struct cnf *c)
{
    struct closures *cs = c->ext_state[EXT_CLOSURE];
    struct violation **v = xcalloc((size_t)cs->count + 1, sizeof *v);
    bool **on = xcalloc((size_t)cs->count + 1, sizeof *on);
    int *nv = xcalloc((size_t)cs->count + 1, sizeof *nv);
    for (int k = 0; k < cs->count; k++)
        if (cs->list[k].pending)
            nv[k] = violations(c, &cs->list[k], k, &v[k], &on[k]);
    long added = 0;
    for (int k = 0; k < cs->count; k++) {
        for (int a = 0; a < nv[k];) {
            int b = a;
            while (b < nv[k] && v[k][b].i == v[k][a].i)
                b++;
            added += add_paths(c, &cs->list[k], on[k], v[k][a].i, v[k] + a, b - a);
            a = b;
        }
        free(v[k]);
        free(on[k]);
    }
    free(v);
    free(on);
    free(nv);
    return added;
}

static void closure_release(struct cnf *c)
{
    struct closures *cs = c->ext_state[EXT_CLOSURE];
    for (int k = 0; k < cs->count; k++) {
        struct closure *cl = &cs->list[k];
        void *arrays[] = { cl->rs, cl->rc, cl->rv, cl->ps, cl->pk, cl->pe, cl->ts, cl->tc, cl->tv,
                           cl->exact, cl->need, cl->stepped };
        for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++)
            free(arrays[a]);
    }
    free(cs->list);
    free(cs);
}

static const struct cnf_ext closure_ext = { closure_require, closure_evaluate, closure_refine, closure_release };

/* Copies of r's rows and its predecessor lists into cl. */
static void copy_input(struct closure *cl, int n, const int *start, const int *col, const lit *val)
{
    int size = start[n];
    cl->rs = xcalloc((size_t)n + 1, sizeof *cl->rs);
    cl->rc = xcalloc((size_t)size + 1, sizeof *cl->rc);
    cl->rv = xcalloc((size_t)size + 1, sizeof *cl->rv);
    memcpy(cl->rs, start, ((size_t)n + 1) * sizeof *start);
    memcpy(cl->rc, col, (size_t)size * sizeof *col);
    memcpy(cl->rv, val, (size_t)size * sizeof *val);
    cl->ps = xcalloc((size_t)n + 1, sizeof *cl->ps);
    cl->pk = xcalloc((size_t)size + 1, sizeof *cl->pk);
    cl->pe = xcalloc((size_t)size + 1, sizeof *cl->pe);
    int *fill = xcalloc((size_t)n + 1, sizeof *fill);
    for (int e = 0; e < size; e++)
        cl->ps[col[e] + 1]++;
    for (int j = 0; j < n; j++)
        cl->ps[j + 1] += cl->ps[j];
    for (int k = 0; k < n; k++)
        for (int e = start[k]; e < start[k + 1]; e++) {
            int at = cl->ps[col[e]] + fill[col[e]]++;
            cl->pk[at] = k;
            cl->pe[at] = e;
        }
    free(fill);
}

/* Counts (count) or fills the entries of row i of t: what component scc
 * of may reaches; must-reachable ones are LIT_TRUE, the others gates. */
static int fill_row(struct cnf *c, struct closure *cl, int index, const struct reach *may,
                    const struct reach *must, int i, int at, bool count)
{
    long off = may->offset[may->scc[i]];
    if (off < 0)
        return at;
    for (int w = 0; w < may->words; w++)
        for (uint64_t x = may->bits[off + w]; x; x &= x - 1) {
            int j = w * 64 + __builtin_ctzll(x);
            if (!count) {
                cl->tc[at] = j;
                cl->tv[at] = reach_has(must, i, j) ? LIT_TRUE
                             : cnf_gate_var(c, (struct gate_def){ GATE_CLOSURE, 0, index, at });
            }
            at++;
        }
    return at;
}

void cnf_closure(struct cnf *c, int n, const int *start, const int *col, const lit *val,
                 const int **tstart, const int **tcol, const lit **tval)
{
    if (!c->ext[EXT_CLOSURE]) {
        c->ext[EXT_CLOSURE] = &closure_ext;
        c->ext_state[EXT_CLOSURE] = xcalloc(1, sizeof(struct closures));
    }
    struct closures *cs = c->ext_state[EXT_CLOSURE];
    if (cs->count == cs->cap) {
        cs->cap = cs->cap ? 2 * cs->cap : 8;
        cs->list = xrealloc(cs->list, (size_t)cs->cap * sizeof *cs->list);
    }
    int index = cs->count++;
    struct closure *cl = &cs->list[index];
    *cl = (struct closure){ .n = n };
    copy_input(cl, n, start, col, val);
    bool *must_on = xcalloc((size_t)start[n] + 1, sizeof *must_on);
    for (int e = 0; e < start[n]; e++)
        must_on[e] = val[e] == LIT_TRUE;
    struct reach may, must;
    reach_compute(&may, n, start, col, NULL);
    reach_compute(&must, n, start, col, must_on);
    cl->ts = xcalloc((size_t)n + 1, sizeof *cl->ts);
    for (int i = 0; i < n; i++)
        cl->ts[i + 1] = fill_row(c, cl, index, &may, &must, i, cl->ts[i], true);
    int size = cl->ts[n];
    cl->tc = xcalloc((size_t)size + 1, sizeof *cl->tc);
    cl->tv = xcalloc((size_t)size + 1, sizeof *cl->tv);
    cl->need = xcalloc((size_t)size + 1, sizeof *cl->need);
    cl->stepped = xcalloc((size_t)size + 1, sizeof *cl->stepped);
    long steps = 0;
    for (int i = 0; i < n; i++) {
        fill_row(c, cl, index, &may, &must, i, cl->ts[i], false);
        for (int e = cl->ts[i]; e < cl->ts[i + 1] && steps <= EAGER_STEPS; e++)
            steps += cl->ps[cl->tc[e] + 1] - cl->ps[cl->tc[e]];
    }
    cl->eager = steps <= EAGER_STEPS;
    reach_free(&may);
    reach_free(&must);
    free(must_on);
    *tstart = cl->ts;
    *tcol = cl->tc;
    *tval = cl->tv;
}
