/* Reading relations: single pairs, rows, and the literals axioms need. */
#include "encoders/rel_impl.h"

#include <assert.h>
#include <stdlib.h>

#include "util/xalloc.h"

lit rel_get(const struct rel *r, int i, int j)
{
    assert(i >= 0 && i < r->n && j >= 0 && j < r->n);
    return rel_at(r->home, r, i, j);
}

int rel_row(const struct rel *r, int i, const int **cols, const lit **lits)
{
    assert(i >= 0 && i < r->n);
    const struct rel_rows *t = rel_rows_of(r->home, r);
    *cols = t->col + t->start[i];
    *lits = t->val + t->start[i];
    return t->start[i + 1] - t->start[i];
}

/* True when r has no candidate pair at all (where rel_may_on(r); false
 * elsewhere): its every literal is LIT_FALSE, and no row needs a walk. */
static bool may_empty(const struct rel *r)
{
    if (!rel_may_on(r) || r->rows)
        return false;
    const unsigned long long *b = rel_may(r, false);
    size_t all = (size_t)r->n * (size_t)rel_bits_words(r->n);
    for (size_t k = 0; k < all; k++)
        if (b[k])
            return false;
    return true;
}

int rel_lits(const struct rel *r, const lit **lits)
{
    if (may_empty(r)) {
        *lits = NULL;
        return 0;
    }
    const struct rel_rows *t = rel_rows_of(r->home, r);
    *lits = t->val;
    return t->start[r->n];
}

const struct rel_rows *rel_all_rows(const struct rel *r)
{
    return rel_rows_of(r->home, r);
}

int rel_col(const struct rel *r, int j, const int **rows, const lit **lits)
{
    assert(j >= 0 && j < r->n);
    const struct rel_rows *t = rel_cols_of(r->home, r);
    *rows = t->col + t->start[j];
    *lits = t->val + t->start[j];
    return t->start[j + 1] - t->start[j];
}

lit rel_nonempty(struct rels *A, const struct rel *r)
{
    if (r->empty)
        return LIT_FALSE;
    const struct rel_rows *t = rel_rows_of(A, r);
    return cnf_or_n(A->c, t->val, t->start[r->n]);
}

int rel_diagonal(const struct rel *r, lit *lits)
{
    int k = 0;
    if (r->empty)
        return 0;
    if (!rel_may_on(r) || r->bits) {   /* no candidate bits to read */
        for (int i = 0; i < r->n; i++)
            if ((lits[k] = rel_at(r->home, r, i, i)) != LIT_FALSE)
                k++;
        return k;
    }
    int w = rel_bits_words(r->n);
    const unsigned long long *may = rel_may(r, false);
    for (int i = 0; i < r->n; i++)   /* a pair with no candidate is false: not looked up */
        if (may[(size_t)i * w + (unsigned)i / 64] >> ((unsigned)i % 64) & 1
            && (lits[k] = rel_at(r->home, r, i, i)) != LIT_FALSE)
            k++;
    return k;
}

lit rel_reflexive_some(struct rels *A, const struct rel *r)
{
    lit acc = LIT_FALSE;
    for (int i = 0; i < r->n && acc != LIT_TRUE && !r->empty; i++)
        acc = cnf_or(A->c, acc, rel_at(A, r, i, i));
    return acc;
}

/* True when the pairs of constant rows t over n nodes have a cycle
 * (iterative depth-first search). */
static bool has_cycle(const struct rel_rows *t, int n)
{
    unsigned char *state = xcalloc((size_t)n + 1, 1);   /* 0 new, 1 on the path, 2 done */
    int *stack = xcalloc((size_t)n + 1, sizeof *stack), *next = xcalloc((size_t)n + 1, sizeof *next);
    bool cyclic = false;
    for (int s = 0; s < n && !cyclic; s++) {
        if (state[s])
            continue;
        int top = 0;
        stack[top++] = s;
        state[s] = 1;
        next[s] = t->start[s];
        while (top > 0 && !cyclic) {
            int u = stack[top - 1];
            if (next[u] == t->start[u + 1]) {
                state[u] = 2;
                top--;
                continue;
            }
            int w = t->col[next[u]++];
            if (state[w] == 1)
                cyclic = true;
            else if (state[w] == 0) {
                state[w] = 1;
                next[w] = t->start[w];
                stack[top++] = w;
            }
        }
    }
    free(state);
    free(stack);
    free(next);
    return cyclic;
}

bool rel_bits_cyclic(const unsigned long long *m, int n)
{
    int w = rel_bits_words(n), left = n;
    if (w == 1) {   /* one word a row: the events left in a register, only they visited */
        unsigned long long live = n == 64 ? ~0ull : (1ull << n) - 1;
        for (bool taken = true; taken && live;) {
            taken = false;
            for (unsigned long long todo = live; todo;) {   /* from the last event down, as below */
                int i = 63 - __builtin_clzll(todo);
                todo &= ~(1ull << i);
                if (!(m[i] & live)) {
                    live &= ~(1ull << i);
                    taken = true;
                }
            }
        }
        return live != 0;
    }
    unsigned long long alive[(REL_DENSE_MAX + 63) / 64] = { 0 };
    for (int i = 0; i < n; i++)
        alive[i / 64] |= 1ull << (i % 64);
    for (bool taken = true; taken && left > 0;) {
        taken = false;
        for (int i = n - 1; i >= 0; i--) {   /* most pairs go forward: one pass peels a chain */
            if (!(alive[i / 64] >> (i % 64) & 1))
                continue;
            unsigned long long out = 0;
            for (int v = 0; v < w; v++)
                out |= m[(size_t)i * w + v] & alive[v];
            if (!out) {
                alive[i / 64] &= ~(1ull << (i % 64));
                left--;
                taken = true;
            }
        }
    }
    return left > 0;
}

lit rel_cyclic(struct rels *A, const struct rel *r)
{
    if (r->bits && r->op == REL_ROWS)   /* made as bits (rel_dense.c): a constant */
        return lit_of(rel_bits_cyclic(r->bits, r->n));
    if (!cnf_symbolic(A->c))   /* every entry is LIT_TRUE */
        return lit_of(has_cycle(rel_rows_of(A, r), r->n));
    return rel_reflexive_some(A, rel_plus(A, r));
}

long rel_may_size(const struct rel *r)
{
    return rel_rows_of(r->home, r)->start[r->n];
}
