/* Transitive closures as lazily defined variables.  An entry t(i,j) that
 * occurs negatively (the usual case: a closure inside an axiom that must be
 * empty, irreflexive or acyclic) gets "r(i,j) -> t(i,j)" and
 * "t(i,k) & r(k,j) -> t(i,j)" for every k: one clause per triple and no
 * auxiliary variable, where Warshall's gates cost two variables and three
 * clauses.  An entry that occurs positively gets "t(i,j) -> path" through
 * Warshall gates built at that moment.  Entries no path can reach are
 * LIT_FALSE and entries a path of true edges reaches are LIT_TRUE. */
#include "encoders/cnf_impl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "encoders/xalloc.h"

/* Reachability over the edges in edge (n * n) as rows of bits:
 * j is reachable from i iff bit j of row i (words 64-bit words per row). */
static uint64_t *bit_closure(const bool *edge, int n, int words)
{
    uint64_t *reach = xcalloc((size_t)n * words + 1, sizeof *reach);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (edge[i * n + j])
                reach[i * words + j / 64] |= 1ull << (j % 64);
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            if ((reach[i * words + k / 64] >> (k % 64)) & 1u)
                for (int w = 0; w < words; w++)
                    reach[i * words + w] |= reach[k * words + w];
    return reach;
}

static bool reaches(const uint64_t *reach, int words, int i, int j)
{
    return (reach[i * words + j / 64] >> (j % 64)) & 1u;
}

void cnf_closure(struct cnf *c, const lit *r, int n, lit *t)
{
    int words = (n + 63) / 64;
    bool *may = xcalloc((size_t)n * n + 1, sizeof *may), *must = xcalloc((size_t)n * n + 1, sizeof *must);
    for (int e = 0; e < n * n; e++) {
        may[e] = r[e] != LIT_FALSE;
        must[e] = r[e] == LIT_TRUE;
    }
    uint64_t *may_reach = bit_closure(may, n, words), *must_reach = bit_closure(must, n, words);
    bool symbolic = false;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            bool m = reaches(must_reach, words, i, j);
            t[i * n + j] = m ? LIT_TRUE : LIT_FALSE;
            symbolic |= !m && reaches(may_reach, words, i, j);
        }
    if (symbolic) {   /* concrete cnfs never get here: their entries are constants */
        if (c->nclosures == c->closures_cap) {
            c->closures_cap = c->closures_cap ? 2 * c->closures_cap : 8;
            c->closures = xrealloc(c->closures, (size_t)c->closures_cap * sizeof *c->closures);
        }
        int index = c->nclosures++;
        struct closure *cl = &c->closures[index];
        *cl = (struct closure){ n, xcalloc((size_t)n * n, sizeof(lit)), xcalloc((size_t)n * n, sizeof(lit)),
                                NULL, 0 };
        memcpy(cl->r, r, (size_t)n * n * sizeof *r);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (t[i * n + j] == LIT_FALSE && reaches(may_reach, words, i, j))
                    t[i * n + j] = cnf_gate_var(c, (struct gate_def){ GATE_CLOSURE, 0, index, i * n + j });
        memcpy(cl->t, t, (size_t)n * n * sizeof *t);
    }
    free(may);
    free(must);
    free(may_reach);
    free(must_reach);
}

/* Warshall's exact gates for the closure of cl->r. */
static void build_exact(struct cnf *c, struct closure *cl)
{
    int n = cl->n;
    lit *w = xcalloc((size_t)n * n, sizeof *w);
    memcpy(w, cl->r, (size_t)n * n * sizeof *w);
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++) {
            lit ik = w[i * n + k];
            if (ik == LIT_FALSE)
                continue;
            for (int j = 0; j < n; j++)
                if (w[k * n + j] != LIT_FALSE)
                    w[i * n + j] = cnf_or(c, w[i * n + j], cnf_and(c, ik, w[k * n + j]));
        }
    cl->exact = w;
}

/* Pushes l unless it is a constant. */
static size_t push_input(struct cnf *c, size_t top, lit l)
{
    return lit_is_const(l) ? top : cnf_push(c, top, l);
}

size_t closure_require(struct cnf *c, lit o, int side, size_t top)
{
    int index = c->defs[o].a, entry = c->defs[o].b;
    struct closure *cl = &c->closures[index];
    int n = cl->n, i = entry / n, j = entry % n;
    if (side == SIDE_NEG) {                 /* a path -> o, one step at a time */
        if (cl->r[entry] != LIT_FALSE) {
            lit direct[2] = { o, -cl->r[entry] };
            cnf_emit(c, direct, 2);
            top = push_input(c, top, -cl->r[entry]);
        }
        for (int k = 0; k < n; k++) {
            lit ik = cl->t[i * n + k], kj = cl->r[k * n + j];
            if (k == i || k == j || ik == LIT_FALSE || kj == LIT_FALSE)
                continue;
            lit step[3] = { o, -ik, -kj };
            cnf_emit(c, step, 3);
            top = push_input(c, push_input(c, top, -ik), -kj);
        }
        return top;
    }
    if (!cl->exact)                         /* o -> a path, through Warshall's gates */
        build_exact(c, cl);
    lit exact = cl->exact[entry];
    lit back[2] = { -o, exact };
    cnf_emit(c, back, 2);
    return push_input(c, top, exact);
}

size_t closure_evaluate(struct cnf *c, lit o, size_t top)
{
    const struct closure *cl = &c->closures[c->defs[o].a];
    int n = cl->n, words = (n + 63) / 64;
    size_t before = top;
    for (int e = 0; e < n * n; e++)
        if (cnf_pending(c, cl->r[e]))
            top = cnf_push(c, top, cl->r[e] > 0 ? cl->r[e] : -cl->r[e]);
    if (top > before)
        return top;
    bool *edge = xcalloc((size_t)n * n + 1, sizeof *edge);
    for (int e = 0; e < n * n; e++)
        edge[e] = cl->r[e] != LIT_FALSE && cnf_known_value(c, cl->r[e]);
    uint64_t *reach = bit_closure(edge, n, words);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            lit v = cl->t[i * n + j];
            if (!lit_is_const(v)) {
                c->eval_val[v] = reaches(reach, words, i, j);
                c->eval_at[v] = c->generation;
            }
        }
    free(edge);
    free(reach);
    return top;
}

void closures_free(struct cnf *c)
{
    for (int k = 0; k < c->nclosures; k++) {
        free(c->closures[k].r);
        free(c->closures[k].t);
        free(c->closures[k].exact);
    }
    free(c->closures);
}
