/* Pairs, rows and row-size estimates of every kind of relation, and the
 * materialized rows they fall back on. */
#include "encoders/rel_impl.h"

#include <stdlib.h>
#include <string.h>

#include "encoders/xalloc.h"

lit rels_both(struct rels *A, int i, int j)
{
    return i == j ? A->exec[i] : cnf_and(A->c, A->exec[i], A->exec[j]);
}

bool rel_has(const struct rel *r, int i, int j)
{
    if (r->rows)
        return rows_find(r->rows, i, j) >= 0;
    switch (r->op) {
    case REL_CLASS: return r->key[i] >= 0 && r->key[i] == r->key[j] && (!r->ordered || i < j);
    case REL_PRODUCT: return set_has(r->s, i) && set_has(r->t, j);
    case REL_ID: return i == j && set_has(r->s, i);
    case REL_UNION: return rel_has(r->a, i, j) || rel_has(r->b, i, j);
    case REL_INTER: return rel_has(r->a, i, j) && rel_has(r->b, i, j);
    case REL_DIFF: return rel_has(r->a, i, j) && !rel_has(r->b, i, j);
    case REL_INV: return rel_has(r->a, j, i);
    case REL_ROWS: case REL_SEQ: case REL_PLUS: break;
    }
    return false;
}

/* The cnf's closure of r->a (r a REL_PLUS), built on first use. */
static int closure_of(struct rels *A, const struct rel *r)
{
    if (!r->closure) {
        const struct rel_rows *in = rel_rows_of(A, r->a);
        ((struct rel *)r)->closure = 1 + cnf_closure(A->c, r->n, in->start, in->col, in->val);
    }
    return r->closure - 1;
}

/* Pushes (j, l) on the row stack (room reserved by the caller). */
static void push(struct rels *A, int j, lit l)
{
    A->scol[A->stop] = j;
    A->sval[A->stop++] = l;
}

/* Pushes row i of rows t. */
static int push_rows(struct rels *A, const struct rel_rows *t, int i)
{
    int k = t->start[i + 1] - t->start[i];
    rels_stack_reserve(A, k);
    memcpy(A->scol + A->stop, t->col + t->start[i], (size_t)k * sizeof *t->col);
    memcpy(A->sval + A->stop, t->val + t->start[i], (size_t)k * sizeof *t->val);
    A->stop += k;
    return k;
}

/* Pushes row i of r, from its one-row cache when i was the last row read. */
static int push_row_cached(struct rels *A, const struct rel *r, int i)
{
    if (r->rows || r->op == REL_CLASS || r->op == REL_PRODUCT || r->op == REL_ID)
        return rel_enum(A, r, i, false);
    struct row_cache *rc = r->cache;
    if (!rc) {
        rc = rels_alloc(r->home, 1, sizeof *rc);
        rc->i = -1;
        ((struct rel *)r)->cache = rc;
    }
    if (rc->i == i) {
        rels_stack_reserve(A, rc->count);
        memcpy(A->scol + A->stop, rc->col, (size_t)rc->count * sizeof *rc->col);
        memcpy(A->sval + A->stop, rc->val, (size_t)rc->count * sizeof *rc->val);
        A->stop += rc->count;
        return rc->count;
    }
    int base = A->stop, k = rel_enum(A, r, i, false);
    if (k > rc->cap) {
        rc->cap = k;
        rc->col = xrealloc(rc->col, (size_t)k * sizeof *rc->col);
        rc->val = xrealloc(rc->val, (size_t)k * sizeof *rc->val);
    }
    memcpy(rc->col, A->scol + base, (size_t)k * sizeof *rc->col);
    memcpy(rc->val, A->sval + base, (size_t)k * sizeof *rc->val);
    rc->count = k;
    rc->i = i;
    return k;
}

/* (a ; b)(i, j): the OR over row i of a of a(i, k) & b(k, j). */
static lit seq_at(struct rels *A, const struct rel *r, int i, int j)
{
    int base = A->stop, k = push_row_cached(A, r->a, i);
    lit acc = LIT_FALSE;
    for (int e = 0; e < k && acc != LIT_TRUE; e++) {
        lit lb = rel_at(A, r->b, A->scol[base + e], j);
        if (lb != LIT_FALSE)
            acc = cnf_or(A->c, acc, cnf_and(A->c, A->sval[base + e], lb));
    }
    A->stop = base;
    return acc;
}

lit rel_at(struct rels *A, const struct rel *r, int i, int j)
{
    if (r->rows) {
        int k = rows_find(r->rows, i, j);
        return k < 0 ? LIT_FALSE : r->rows->val[k];
    }
    if (r->is_static)
        return rel_has(r, i, j) ? rels_both(A, i, j) : LIT_FALSE;
    const struct rel *x = r->a, *y = r->b;
    lit l;
    switch (r->op) {
    case REL_UNION:
        return cnf_or(A->c, rel_at(A, x, i, j), rel_at(A, y, i, j));
    case REL_INTER:
        if (y->is_static && !x->is_static) {
            const struct rel *t = x; x = y; y = t;
        }
        l = rel_at(A, x, i, j);
        return l == LIT_FALSE ? l : cnf_and(A->c, l, rel_at(A, y, i, j));
    case REL_DIFF:
        l = rel_at(A, x, i, j);
        return l == LIT_FALSE ? l : cnf_and(A->c, l, -rel_at(A, y, i, j));
    case REL_INV:
        return rel_at(A, x, j, i);
    case REL_SEQ:
        return seq_at(A, r, i, j);
    case REL_PLUS:
        return cnf_closure_at(A->c, closure_of(A, r), i, j);
    default:
        return LIT_FALSE;
    }
}

/* Row i of a class relation (its inverse when flip). */
static int enum_class(struct rels *A, const struct rel *r, int i, bool flip)
{
    int k = r->key[i];
    if (k < 0)
        return 0;
    int from = r->group_start[k], to = r->group_start[k + 1], base = A->stop;
    rels_stack_reserve(A, to - from);
    for (int g = from; g < to; g++) {
        int m = r->group[g];
        if (!r->ordered || (flip ? m < i : m > i))
            push(A, m, rels_both(A, i, m));
    }
    return A->stop - base;
}

/* Row i of s * t (of t * s when flip). */
static int enum_product(struct rels *A, const struct rel *r, int i, bool flip)
{
    const struct set *x = flip ? r->t : r->s, *y = flip ? r->s : r->t;
    if (!set_has(x, i))
        return 0;
    rels_stack_reserve(A, y->size);
    for (int k = 0; k < y->size; k++)
        push(A, y->members[k], rels_both(A, i, y->members[k]));
    return y->size;
}

/* Row i of a | b: the merge of both rows. */
static int enum_union(struct rels *A, const struct rel *r, int i, bool flip)
{
    int base = A->stop, na = rel_enum(A, r->a, i, flip), nb = rel_enum(A, r->b, i, flip);
    rels_stack_reserve(A, na + nb);
    int p = base, pe = base + na, q = pe, qe = pe + nb, out = A->stop;
    while (p < pe || q < qe) {
        if (q >= qe || (p < pe && A->scol[p] < A->scol[q])) {
            push(A, A->scol[p], A->sval[p]);
            p++;
        } else if (p >= pe || A->scol[q] < A->scol[p]) {
            push(A, A->scol[q], A->sval[q]);
            q++;
        } else {
            push(A, A->scol[p], r->is_static ? A->sval[p] : cnf_or(A->c, A->sval[p], A->sval[q]));
            p++;
            q++;
        }
    }
    int k = A->stop - out;
    memmove(A->scol + base, A->scol + out, (size_t)k * sizeof *A->scol);
    memmove(A->sval + base, A->sval + out, (size_t)k * sizeof *A->sval);
    A->stop = base + k;
    return k;
}

/* Row i of a & b (keep: true) or a \ b: the operand with the fewest
 * candidates (a for a difference) enumerated, the other one looked up. */
static int enum_filter(struct rels *A, const struct rel *r, int i, bool flip, bool keep)
{
    const struct rel *x = r->a, *y = r->b;
    if (keep && rel_est(A, y, i, flip) < rel_est(A, x, i, flip)) {
        x = r->b;
        y = r->a;
    }
    int base = A->stop, nx = rel_enum(A, x, i, flip), kept = 0;
    for (int e = 0; e < nx; e++) {
        int j = A->scol[base + e], p = flip ? j : i, q = flip ? i : j;
        lit l = A->sval[base + e];
        if (r->is_static) {
            if (rel_has(y, p, q) != keep)
                continue;
        } else {
            lit m = rel_at(A, y, p, q);
            l = keep ? cnf_and(A->c, l, m) : cnf_and(A->c, l, -m);
            if (l == LIT_FALSE)
                continue;
        }
        A->scol[base + kept] = j;
        A->sval[base + kept++] = l;
    }
    A->stop = base + kept;
    return kept;
}

static int by_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

/* Row i of a ; b (column i when flip), accumulated per column. */
static int enum_seq(struct rels *A, const struct rel *r, int i, bool flip)
{
    const struct rel_rows *first = flip ? rel_cols_of(A, r->b) : rel_rows_of(A, r->a);
    const struct rel_rows *second = flip ? rel_cols_of(A, r->a) : rel_rows_of(A, r->b);
    int nt = 0;
    for (int e = first->start[i]; e < first->start[i + 1]; e++) {
        int k = first->col[e];
        for (int f = second->start[k]; f < second->start[k + 1]; f++) {
            int j = second->col[f];
            lit l = cnf_and(A->c, first->val[e], second->val[f]);
            if (!A->mark[j]) {
                A->mark[j] = true;
                A->touched[nt++] = j;
            }
            A->acc[j] = cnf_or(A->c, A->acc[j], l);
        }
    }
    qsort(A->touched, (size_t)nt, sizeof *A->touched, by_int);
    rels_stack_reserve(A, nt);
    int base = A->stop;
    for (int k = 0; k < nt; k++) {
        int j = A->touched[k];
        if (A->acc[j] != LIT_FALSE)
            push(A, j, A->acc[j]);
        A->acc[j] = LIT_FALSE;
        A->mark[j] = false;
    }
    return A->stop - base;
}

int rel_enum(struct rels *A, const struct rel *r, int i, bool flip)
{
    if (!flip && r->rows)
        return push_rows(A, r->rows, i);
    if (flip && (r->rows || r->cols))
        return push_rows(A, rel_cols_of(A, r), i);
    switch (r->op) {
    case REL_CLASS: return enum_class(A, r, i, flip);
    case REL_PRODUCT: return enum_product(A, r, i, flip);
    case REL_ID:
        if (!set_has(r->s, i))
            return 0;
        rels_stack_reserve(A, 1);
        push(A, i, r->s->m[i]);
        return 1;
    case REL_UNION: return enum_union(A, r, i, flip);
    case REL_INTER: return enum_filter(A, r, i, flip, true);
    case REL_DIFF: return enum_filter(A, r, i, flip, false);
    case REL_INV: return rel_enum(A, r->a, i, !flip);
    case REL_SEQ: return enum_seq(A, r, i, flip);
    case REL_PLUS:
        if (flip)
            return push_rows(A, rel_cols_of(A, r), i);
        else {
            const int *cols;
            const lit *lits;
            int k = cnf_closure_row(A->c, closure_of(A, r), i, &cols, &lits);
            rels_stack_reserve(A, k);
            memcpy(A->scol + A->stop, cols, (size_t)k * sizeof *cols);
            memcpy(A->sval + A->stop, lits, (size_t)k * sizeof *lits);
            A->stop += k;
            return k;
        }
    case REL_ROWS: break;
    }
    return 0;
}

long rel_est(struct rels *A, const struct rel *r, int i, bool flip)
{
    if (!flip && r->rows)
        return r->rows->start[i + 1] - r->rows->start[i];
    if (flip && r->cols)
        return r->cols->start[i + 1] - r->cols->start[i];
    long x, y;
    switch (r->op) {
    case REL_ROWS: return r->rows->start[r->n] / (r->n ? r->n : 1) + 1;
    case REL_CLASS: return r->key[i] < 0 ? 0 : r->group_start[r->key[i] + 1] - r->group_start[r->key[i]];
    case REL_PRODUCT: return set_has(flip ? r->t : r->s, i) ? (flip ? r->s : r->t)->size : 0;
    case REL_ID: return set_has(r->s, i);
    case REL_UNION: return rel_est(A, r->a, i, flip) + rel_est(A, r->b, i, flip);
    case REL_INTER:
        x = rel_est(A, r->a, i, flip);
        y = rel_est(A, r->b, i, flip);
        return x < y ? x : y;
    case REL_DIFF: return rel_est(A, r->a, i, flip);
    case REL_INV: return rel_est(A, r->a, i, !flip);
    case REL_SEQ:
        x = rel_est(A, flip ? r->b : r->a, i, flip);
        return x * 4;
    case REL_PLUS:
        return rel_est(A, r->a, i, flip) * 4;   /* a guess: the closure's rows are not made to count them */
    }
    return 0;
}

/* Rows built from enumerating every row of r (of r^-1 when flip), owned by
 * r's arena. */
static struct rel_rows *enumerate_all(struct rels *A, const struct rel *r, bool flip)
{
    struct rels *home = r->home;
    int n = r->n, cap = 64, size = 0;
    int *col = xcalloc((size_t)cap, sizeof *col);
    lit *val = xcalloc((size_t)cap, sizeof *val);
    struct rel_rows *t = rels_alloc(home, 1, sizeof *t);
    t->start = rels_alloc(home, (size_t)n + 1, sizeof *t->start);
    for (int i = 0; i < n; i++) {
        int base = A->stop, k = rel_enum(A, r, i, flip);
        if (size + k > cap) {
            while (size + k > cap)
                cap *= 2;
            col = xrealloc(col, (size_t)cap * sizeof *col);
            val = xrealloc(val, (size_t)cap * sizeof *val);
        }
        memcpy(col + size, A->scol + base, (size_t)k * sizeof *col);
        memcpy(val + size, A->sval + base, (size_t)k * sizeof *val);
        size += k;
        t->start[i + 1] = size;
        A->stop = base;
    }
    t->col = rels_alloc(home, (size_t)size, sizeof *t->col);
    t->val = rels_alloc(home, (size_t)size, sizeof *t->val);
    memcpy(t->col, col, (size_t)size * sizeof *col);
    memcpy(t->val, val, (size_t)size * sizeof *val);
    free(col);
    free(val);
    home->pairs += size;
    return t;
}

/* The transpose of rows t over n nodes, owned by arena home. */
static struct rel_rows *transpose(struct rels *home, const struct rel_rows *t, int n)
{
    int size = t->start[n];
    struct rel_rows *u = rels_alloc(home, 1, sizeof *u);
    u->start = rels_alloc(home, (size_t)n + 1, sizeof *u->start);
    u->col = rels_alloc(home, (size_t)size, sizeof *u->col);
    u->val = rels_alloc(home, (size_t)size, sizeof *u->val);
    int *fill = xcalloc((size_t)n + 1, sizeof *fill);
    for (int e = 0; e < size; e++)
        u->start[t->col[e] + 1]++;
    for (int j = 0; j < n; j++)
        u->start[j + 1] += u->start[j];
    for (int i = 0; i < n; i++)
        for (int e = t->start[i]; e < t->start[i + 1]; e++) {
            int j = t->col[e], at = u->start[j] + fill[j]++;
            u->col[at] = i;
            u->val[at] = t->val[e];
        }
    free(fill);
    home->pairs += size;
    return u;
}

const struct rel_rows *rel_rows_of(struct rels *A, const struct rel *r)
{
    if (!r->rows)
        ((struct rel *)r)->rows = enumerate_all(A, r, false);
    return r->rows;
}

const struct rel_rows *rel_cols_of(struct rels *A, const struct rel *r)
{
    if (!r->cols && r->op == REL_PLUS)
        rel_rows_of(A, r);     /* its rows come from the cnf's closure row by row */
    if (!r->cols)
        ((struct rel *)r)->cols = r->rows ? transpose(r->home, r->rows, r->n) : enumerate_all(A, r, true);
    return r->cols;
}
