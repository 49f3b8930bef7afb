/* Transitive closures as lazily defined variables.  The may-set of t = r+
 * is what r's may-pairs reach, its must-set what r's true pairs reach
 * (both kept as reachability bitsets over components); an entry is
 * LIT_FALSE outside the may-set, LIT_TRUE inside the must-set, and
 * otherwise a gate variable made when the entry is first asked for, so a
 * closure costs the entries its users read, not its may-set.  A gate's
 * definition reaches the solver on demand:
 *  - an entry t(i,j) that occurs negatively (a closure inside an axiom
 *    that must be empty, irreflexive or acyclic) gets r(i,j) -> t(i,j) at
 *    once.  In a small closure it also gets t(i,k) & r(k,j) -> t(i,j) for
 *    every k, one clause per triple, which pulls in the row.  In a big one
 *    it gets, when a satisfying model leaves it false though a path of
 *    true pairs leads from i to j, the clause "that path -> t(i,j)"
 *    (closure_refine, from cnf_solve): a fence.sc order over a thousand
 *    fences costs what its models use, not a cube of clauses;
 *  - an entry that occurs positively gets t(i,j) -> path, through
 *    Warshall's gates over the may-set, built at that moment. */
#include "encoders/closure_impl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Closures whose eager step clauses would number more than this are refined lazily. */
#define EAGER_STEPS 65536L

static size_t key_hash(uint64_t k)
{
    k *= 0x9E3779B97F4A7C15ull;
    return (size_t)(k ^ (k >> 29));
}

/* The entry index of (i, j), -1 when not made yet. */
static int entry_of(const struct closure *cl, int i, int j)
{
    uint64_t k = (uint64_t)i * (uint64_t)cl->n + (uint64_t)j + 1;
    if (cl->kcap == 0)
        return -1;
    for (size_t h = key_hash(k) & (cl->kcap - 1); cl->keys[h]; h = (h + 1) & (cl->kcap - 1))
        if (cl->keys[h] == k)
            return cl->slot[h];
    return -1;
}

/* Makes entry (i, j) of the may-set (not made yet) with literal l. */
static int add_entry(struct closure *cl, int i, int j, lit l)
{
    if (2 * (cl->kused + 1) > cl->kcap) {
        uint64_t *old = cl->keys;
        int *oldslot = cl->slot;
        size_t oldcap = cl->kcap;
        cl->kcap = oldcap ? 2 * oldcap : 64;
        cl->keys = xcalloc(cl->kcap, sizeof *cl->keys);
        cl->slot = xcalloc(cl->kcap, sizeof *cl->slot);
        for (size_t h = 0; h < oldcap; h++)
            if (old[h]) {
                size_t g = key_hash(old[h]) & (cl->kcap - 1);
                while (cl->keys[g])
                    g = (g + 1) & (cl->kcap - 1);
                cl->keys[g] = old[h];
                cl->slot[g] = oldslot[h];
            }
        free(old);
        free(oldslot);
    }
    if (cl->count == cl->cap) {
        cl->cap = xcapacity(cl->cap, cl->count + 1, 256);
        XRESIZE(cl->ei, cl->cap);
        XRESIZE(cl->ej, cl->cap);
        XRESIZE(cl->ev, cl->cap);
        XRESIZE(cl->need, cl->cap);
    }
    int e = cl->count++;
    cl->ei[e] = i;
    cl->ej[e] = j;
    cl->ev[e] = l;
    cl->need[e] = 0;
    uint64_t k = (uint64_t)i * (uint64_t)cl->n + (uint64_t)j + 1;
    size_t h = key_hash(k) & (cl->kcap - 1);
    while (cl->keys[h])
        h = (h + 1) & (cl->kcap - 1);
    cl->keys[h] = k;
    cl->slot[h] = e;
    cl->kused++;
    return e;
}

lit closure_entry(struct cnf *c, struct closure *cl, int index, int i, int j)
{
    if (!reach_has(&cl->may, i, j))
        return LIT_FALSE;
    if (reach_has(&cl->must, i, j))
        return LIT_TRUE;
    int e = entry_of(cl, i, j);
    if (e < 0) {
        e = add_entry(cl, i, j, LIT_FALSE);
        cl->ev[e] = cnf_gate_var(c, (struct gate_def){ GATE_CLOSURE, 0, index, e });
    }
    return cl->ev[e];
}

int closure_r_find(const struct closure *cl, int i, int j)
{
    int lo = cl->rs[i], hi = cl->rs[i + 1];
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (cl->rc[mid] < j)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < cl->rs[i + 1] && cl->rc[lo] == j ? lo : -1;
}

static size_t push_input(struct cnf *c, size_t top, lit l)
{
    return lit_is_const(l) ? top : cnf_push(c, top, l);
}

/* Calls f(i, j) for every pair of the may-set in row i. */
#define FOR_MAY_ROW(cl, i, j, body)                                                   \
    do {                                                                              \
        long off_ = (cl)->may.offset[(cl)->may.scc[i]];                               \
        for (int w_ = 0; off_ >= 0 && w_ < (cl)->may.words; w_++)                     \
            for (uint64_t x_ = (cl)->may.bits[off_ + w_]; x_; x_ &= x_ - 1) {         \
                int j = w_ * 64 + __builtin_ctzll(x_);                                \
                body;                                                                 \
            }                                                                         \
    } while (0)

/* Warshall's exact gates for the closure over its may-set (every entry made). */
static void build_exact(struct cnf *c, struct closure *cl, int index)
{
    int n = cl->n;
    for (int i = 0; i < n; i++)             /* must-pairs too: paths run through them */
        FOR_MAY_ROW(cl, i, j, {
            if (!reach_has(&cl->must, i, j))
                closure_entry(c, cl, index, i, j);
            else if (entry_of(cl, i, j) < 0)
                add_entry(cl, i, j, LIT_TRUE);
        });
    lit *w = xcalloc((size_t)cl->count + 1, sizeof *w);
    for (int e = 0; e < cl->count; e++) {
        int d = closure_r_find(cl, cl->ei[e], cl->ej[e]);
        w[e] = reach_has(&cl->must, cl->ei[e], cl->ej[e]) ? LIT_TRUE : d < 0 ? LIT_FALSE : cl->rv[d];
    }
    int *cs = xcalloc((size_t)n + 1, sizeof *cs), *ce = xcalloc((size_t)cl->count + 1, sizeof *ce);
    int *rs = xcalloc((size_t)n + 1, sizeof *rs), *re = xcalloc((size_t)cl->count + 1, sizeof *re);
    int *cfill = xcalloc((size_t)n + 1, sizeof *cfill), *rfill = xcalloc((size_t)n + 1, sizeof *rfill);
    for (int e = 0; e < cl->count; e++) {
        cs[cl->ej[e] + 1]++;
        rs[cl->ei[e] + 1]++;
    }
    for (int k = 0; k < n; k++) {
        cs[k + 1] += cs[k];
        rs[k + 1] += rs[k];
    }
    for (int e = 0; e < cl->count; e++) {
        ce[cs[cl->ej[e]] + cfill[cl->ej[e]]++] = e;
        re[rs[cl->ei[e]] + rfill[cl->ei[e]]++] = e;
    }
    for (int k = 0; k < n; k++)             /* entries (i, k), then (k, j): i -> k -> j */
        for (int a = cs[k]; a < cs[k + 1]; a++) {
            int eik = ce[a], i = cl->ei[eik];
            if (w[eik] == LIT_FALSE)
                continue;
            for (int b = rs[k]; b < rs[k + 1]; b++) {
                int ekj = re[b];
                if (w[ekj] == LIT_FALSE)
                    continue;
                int eij = entry_of(cl, i, cl->ej[ekj]);
                w[eij] = cnf_or(c, w[eij], cnf_and(c, w[eik], w[ekj]));
            }
        }
    free(cs); free(ce); free(rs); free(re); free(cfill); free(rfill);
    cl->exact = w;
}

static size_t closure_require(struct cnf *c, lit o, int side, size_t top)
{
    struct closures *cs = c->ext_state[EXT_CLOSURE];
    int index = c->defs[o].a, e = c->defs[o].b;
    struct closure *cl = &cs->list[index];
    int i = cl->ei[e], j = cl->ej[e];
    if (side == SIDE_POS) {                 /* o -> a path, through Warshall's gates */
        if (!cl->exact)
            build_exact(c, cl, index);
        lit back[2] = { -o, cl->exact[e] };
        cnf_emit(c, back, 2);
        return push_input(c, top, cl->exact[e]);
    }
    int d = closure_r_find(cl, i, j);               /* a path -> o: the direct step now */
    if (d >= 0) {
        lit direct[2] = { o, -cl->rv[d] };
        cnf_emit(c, direct, 2);
        top = push_input(c, top, -cl->rv[d]);
    }
    if (!cl->eager) {                       /* longer paths when a model lacks them */
        cl->need[e] = 1;
        cl->pending = true;
        return top;
    }
    for (int p = cl->ps[j]; p < cl->ps[j + 1]; p++) {
        int k = cl->pk[p];
        lit ik = k == i || k == j ? LIT_FALSE : closure_entry(c, cl, index, i, k);
        if (ik == LIT_FALSE)
            continue;
        lit step[3] = { o, -ik, -cl->rv[cl->pe[p]] };
        cnf_emit(c, step, 3);
        top = push_input(c, push_input(c, top, -ik), -cl->rv[cl->pe[p]]);
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
    for (int e = 0; e < cl->count; e++) {
        lit v = cl->ev[e];
        if (!lit_is_const(v)) {
            c->eval_val[v] = reach_has(&R, cl->ei[e], cl->ej[e]);
            c->eval_at[v] = c->generation;
        }
    }
    reach_free(&R);
    free(on);
    return top;
}

static void closure_release(struct cnf *c)
{
    struct closures *cs = c->ext_state[EXT_CLOSURE];
    for (int k = 0; k < cs->count; k++) {
        struct closure *cl = &cs->list[k];
        void *arrays[] = { cl->rs /* and the rest of the input: copy_input */, cl->ei, cl->ej, cl->ev,
                           cl->need, cl->keys, cl->slot, cl->exact };
        for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++)
            free(arrays[a]);
        for (int d = 0; d < 2; d++) {
            for (int i = 0; cl->rows[d] && i < cl->n; i++)
                free(cl->rows[d][i].col);   /* and its literals, in the same allocation */
            free(cl->rows[d]);
            free(cl->size[d]);
        }
        reach_free(&cl->may);
        reach_free(&cl->must);
    }
    free(cs->list);
    free(cs);
}

static const struct cnf_ext closure_ext = { closure_require, closure_evaluate, closure_refine, closure_release };

/* Places the closure's copy of r (rs, rc, rv) and its predecessor lists
 * (ps, pk, pe) for n nodes and size pairs in block (NULL: measures);
 * returns its size. */
static size_t input_layout(struct closure *cl, int n, int size, char *block)
{
    struct xblock b = { block, 0 };
    cl->rs = xblock_take(&b, (size_t)n + 1, sizeof *cl->rs);
    cl->ps = xblock_take(&b, (size_t)n + 1, sizeof *cl->ps);
    cl->rc = xblock_take(&b, (size_t)size + 1, sizeof *cl->rc);
    cl->pk = xblock_take(&b, (size_t)size + 1, sizeof *cl->pk);
    cl->pe = xblock_take(&b, (size_t)size + 1, sizeof *cl->pe);
    cl->rv = xblock_take(&b, (size_t)size + 1, sizeof *cl->rv);
    return b.size;
}

/* Copies of r's rows and its predecessor lists into cl, in one block
 * (cl->rs is its start); fill is scratch of n + 1 zeroed ints. */
static void copy_input(struct closure *cl, int n, const int *start, const int *col, const lit *val, int *fill)
{
    int size = start[n];
    input_layout(cl, n, size, xcalloc(1, input_layout(cl, n, size, NULL)));
    memcpy(cl->rs, start, ((size_t)n + 1) * sizeof *start);
    memcpy(cl->rc, col, (size_t)size * sizeof *col);
    memcpy(cl->rv, val, (size_t)size * sizeof *val);
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
}

int cnf_closure(struct cnf *c, int n, const int *start, const int *col, const lit *val)
{
    if (!c->ext[EXT_CLOSURE]) {
        c->ext[EXT_CLOSURE] = &closure_ext;
        c->ext_state[EXT_CLOSURE] = xcalloc(1, sizeof(struct closures));
    }
    struct closures *cs = c->ext_state[EXT_CLOSURE];
    XGROW(cs->list, cs->cap, cs->count + 1);
    int index = cs->count++;
    struct closure *cl = &cs->list[index];
    *cl = (struct closure){ .n = n };
    /* scratch: the predecessor lists' fill (n + 1 ints), then which pairs are true */
    size_t fill_bytes = ((size_t)n + 1) * sizeof(int);
    char *scratch = xcalloc(1, fill_bytes + (size_t)start[n] + 1);
    bool *must_on = (bool *)(scratch + fill_bytes);
    copy_input(cl, n, start, col, val, (int *)scratch);
    for (int e = 0; e < start[n]; e++)
        must_on[e] = val[e] == LIT_TRUE;
    reach_compute(&cl->may, n, start, col, NULL);
    reach_compute(&cl->must, n, start, col, must_on);
    free(scratch);
    long steps = 0;                          /* every entry's step clauses: sum over the may-set of |pred(j)| */
    for (int i = 0; i < n && steps <= EAGER_STEPS; i++)
        FOR_MAY_ROW(cl, i, j, steps += cl->ps[j + 1] - cl->ps[j]);
    cl->eager = steps <= EAGER_STEPS;
    return index;
}

lit cnf_closure_at(struct cnf *c, int id, int i, int j)
{
    struct closures *cs = c->ext_state[EXT_CLOSURE];
    return closure_entry(c, &cs->list[id], id, i, j);
}

int cnf_closure_row_size(struct cnf *c, int id, int i, bool col)
{
    struct closures *cs = c->ext_state[EXT_CLOSURE];
    struct closure *cl = &cs->list[id];
    if (!cl->size[col]) {
        cl->size[col] = xcalloc((size_t)cl->n + 1, sizeof *cl->size[col]);
        for (int u = 0; u < cl->n; u++)
            cl->size[col][u] = -1;
    }
    int *len = &cl->size[col][i];
    if (*len >= 0)
        return *len;
    *len = 0;
    for (int u = 0; col && u < cl->n; u++)
        *len += reach_has(&cl->may, u, i);
    long off = col ? -1 : cl->may.offset[cl->may.scc[i]];
    for (int w = 0; off >= 0 && w < cl->may.words; w++)
        *len += __builtin_popcountll(cl->may.bits[off + w]);
    return *len;
}

int cnf_closure_row(struct cnf *c, int id, int i, bool col, const int **cols, const lit **lits)
{
    struct closures *cs = c->ext_state[EXT_CLOSURE];
    struct closure *cl = &cs->list[id];
    if (!cl->rows[col])
        cl->rows[col] = xcalloc((size_t)cl->n + 1, sizeof *cl->rows[col]);
    struct trow *t = &cl->rows[col][i];
    if (!t->col) {
        int len = cnf_closure_row_size(c, id, i, col);
        t->col = xrealloc(NULL, ((size_t)len + 1) * (sizeof *t->col + sizeof *t->val));   /* written before read */
        t->val = (lit *)(t->col + len + 1);
        if (col) {
            for (int u = 0; u < cl->n; u++)
                if (reach_has(&cl->may, u, i)) {
                    t->col[t->len] = u;
                    t->val[t->len++] = closure_entry(c, cl, id, u, i);
                }
        } else {
            FOR_MAY_ROW(cl, i, j, {
                t->col[t->len] = j;
                t->val[t->len++] = closure_entry(c, cl, id, i, j);
            });
        }
    }
    *cols = t->col;
    *lits = t->val;
    return t->len;
}
