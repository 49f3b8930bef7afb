/* Rows of every kind of relation: enumerated (sorted, one operand read
 * per candidate), kept in row stores as they are read, and materialized
 * (with their transposes) where a whole relation is needed. */
#include "encoders/rel_impl.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Pushes (j, l) on the row stack (room reserved by the caller). */
static void push(struct rels *A, int j, lit l)
{
    A->scol[A->stop] = j;
    A->sval[A->stop++] = l;
}

/* Copies the k pairs (cols, lits) to (to_cols, to_lits): rows are short,
 * and a loop costs less than two calls of memcpy. */
static void copy_pairs(int *to_cols, lit *to_lits, const int *cols, const lit *lits, int k)
{
    for (int x = 0; x < k; x++) {
        to_cols[x] = cols[x];
        to_lits[x] = lits[x];
    }
}

/* Pushes the k pairs (cols[x], lits[x]) of a row; returns k. */
static int push_span(struct rels *A, const int *cols, const lit *lits, int k)
{
    rels_stack_reserve(A, k);   /* an empty row may have no arrays at all: none read */
    copy_pairs(A->scol + A->stop, A->sval + A->stop, cols, lits, k);
    A->stop += k;
    return k;
}

/* Pushes row i of rows t. */
static int push_rows(struct rels *A, const struct rel_rows *t, int i)
{
    int k = t->start[i + 1] - t->start[i];
    return k == 0 ? 0 : push_span(A, t->col + t->start[i], t->val + t->start[i], k);
}

static int enum_fresh(struct rels *A, const struct rel *r, int i, bool flip);

/* Line i of lazy r (its row, or its column when flip), kept in *slot
 * (r->store or r->cstore) once made. */
static int line_kept(struct rels *A, const struct rel *r, struct row_store **slot, int i, bool flip,
                     const int **cols, const lit **lits)
{
    struct row_store *st = *slot;
    if (!st) {   /* every field written: none zeroed (row i's arrays are set when it is made) */
        /* one allocation: the record, the row pointers, then the lengths */
        size_t n = (size_t)r->n;
        _Static_assert(sizeof *st % 8 == 0, "the row pointers follow the record");
        st = rels_alloc_raw(r->home, sizeof *st + n * (sizeof *st->col + sizeof *st->val + sizeof *st->len), 1);
        st->col = (int **)(st + 1);
        st->val = (lit **)(st->col + n);
        st->len = (int *)(st->val + n);
        memset(st->len, 0xff, n * sizeof *st->len);   /* every byte 0xff: every len -1 */
        *slot = st;
    }
    if (st->len[i] < 0) {
        int base = A->stop, k = enum_fresh(A, r, i, flip);
        st->col[i] = NULL;   /* an empty row keeps no arrays (its readers read none) */
        st->val[i] = NULL;
        if (k > 0) {   /* its columns and literals in one allocation */
            _Static_assert(sizeof(lit) == sizeof(int), "a row's literals follow its columns");
            st->col[i] = rels_alloc_raw(r->home, 2 * (size_t)k, sizeof **st->col);
            st->val[i] = (lit *)(st->col[i] + k);
            copy_pairs(st->col[i], st->val[i], A->scol + base, A->sval + base, k);
        }
        st->len[i] = k;
        r->home->pairs += k;
        A->stop = base;
    }
    *cols = st->col[i];
    *lits = st->val[i];
    return st->len[i];
}

/* Column j of lazy r, kept in r->cstore once made. */
static int col_kept(struct rels *A, const struct rel *r, int j, const int **rows, const lit **lits)
{
    return line_kept(A, r, &((struct rel *)r)->cstore, j, true, rows, lits);
}

int rel_row_of(struct rels *A, const struct rel *r, int i, const int **cols, const lit **lits)
{
    rel_settle(r);
    if (r->rows) {
        *cols = r->rows->col + r->rows->start[i];
        *lits = r->rows->val + r->rows->start[i];
        return r->rows->start[i + 1] - r->rows->start[i];
    }
    if (rel_may_none(r, i, false)) {
        *cols = NULL;   /* no candidate: nothing kept (nor a closure built) for it */
        *lits = NULL;
        return 0;
    }
    if (r->op == REL_PLUS)
        return cnf_closure_row(A->c, rel_closure_of(A, r), i, false, cols, lits);
    return line_kept(A, r, &((struct rel *)r)->store, i, false, cols, lits);
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

/* Row i of a | b: the merge of both rows; a pair of both is the static
 * operand's literal where the other is guarded (its literal implies it). */
static int enum_union(struct rels *A, const struct rel *r, int i, bool flip)
{
    bool keep_a = r->a->is_static && rel_guarded(r->b), keep_b = !keep_a && r->b->is_static && rel_guarded(r->a);
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
            push(A, A->scol[p], keep_a ? A->sval[p] : keep_b ? A->sval[q] : cnf_or(A->c, A->sval[p], A->sval[q]));
            p++;
            q++;
        }
    }
    int k = A->stop - out;
    if (k > 0) {
        memmove(A->scol + base, A->scol + out, (size_t)k * sizeof *A->scol);
        memmove(A->sval + base, A->sval + out, (size_t)k * sizeof *A->sval);
    }
    A->stop = base + k;
    return k;
}

/* Row i of static x & guarded y (column when flip): y's literal for each
 * pair of both x's bits and y's candidates (both(i, j) & y(i, j) is
 * y(i, j)), x's pairs and their literals never made. */
static int filter_static_guarded(struct rels *A, const struct rel *x, const struct rel *y, int i, bool flip)
{
    int w = rel_bits_words(x->n), base = A->stop;
    const unsigned long long *xs = rel_bits(x, flip) + (size_t)i * w, *ys = rel_may(y, flip) + (size_t)i * w;
    for (int k = 0; k < w; k++)
        for (unsigned long long m = xs[k] & ys[k]; m; m &= m - 1) {
            int j = k * 64 + __builtin_ctzll(m);
            lit l = flip ? rel_at(A, y, j, i) : rel_at(A, y, i, j);
            if (l != LIT_FALSE) {
                rels_stack_reserve(A, 1);
                push(A, j, l);
            }
        }
    return A->stop - base;
}

/* Row i of a & b (keep: true) or a \ b: the operand with the fewest
 * candidates (a for a difference) enumerated, the other one looked up.
 * An intersection with an operand whose row is estimated at 0 is empty
 * (rel_est is 0 only for an empty row), and the other operand's estimate,
 * a walk of its whole term, is not made. */
static int enum_filter(struct rels *A, const struct rel *r, int i, bool flip, bool keep)
{
    const struct rel *x = r->a, *y = r->b;
    if (keep) {
        long ex = rel_est(A, x, i, flip), ey = ex == 0 ? 0 : rel_est(A, y, i, flip);
        if (ey == 0)
            return 0;
        if (ey < ex) {
            x = r->b;
            y = r->a;
        }
    }
    if (keep && x->is_static && y->guarded && rel_may_on(y))
        return filter_static_guarded(A, x, y, i, flip);
    int base = A->stop, nx = rel_enum(A, x, i, flip), kept = 0;
    bool static_test = r->is_static || (y->is_static && x->guarded),   /* l implies both(p, q) */
         y_alone = !static_test && keep && x->is_static && y->guarded, /* both(p, q) & y(p, q) */
         may = !static_test && rel_may_on(y);
    const unsigned long long *ymay = may ? rel_may(y, flip) + (size_t)i * rel_bits_words(r->n) : NULL;
    for (int e = 0; e < nx; e++) {
        int j = A->scol[base + e], p = flip ? j : i, q = flip ? i : j;
        lit l = A->sval[base + e];
        if (may && !(ymay[(unsigned)j / 64] >> ((unsigned)j % 64) & 1)) {   /* y(p, q) is false */
            if (keep)
                continue;
        } else if (static_test) {
            if (rel_has(y, p, q) != keep)
                continue;
        } else if (y_alone) {
            l = rel_at(A, y, p, q);
            if (l == LIT_FALSE)
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

/* Sorts the k distinct events v ascending: by insertion when few (a
 * composition's row touches a few columns, and qsort's calls per
 * comparison cost more), else by qsort. */
static void sort_events(int *v, int k)
{
    if (k > 24) {
        qsort(v, (size_t)k, sizeof *v, by_int);
        return;
    }
    for (int x = 1; x < k; x++) {
        int e = v[x], y = x;
        for (; y > 0 && v[y - 1] > e; y--)
            v[y] = v[y - 1];
        v[y] = e;
    }
}

/* The accumulator of the next nesting depth (an operand's row may be a
 * composition's, enumerated while this one accumulates). */
static struct accumulator *accumulator_enter(struct rels *A)
{
    if (A->depth == A->naccs) {   /* one per depth, never moved: an outer one stays valid */
        A->accs = xrealloc(A->accs, (size_t)(A->naccs + 1) * sizeof *A->accs);
        size_t len = (size_t)A->n + 1;   /* one block: the record, then its two arrays */
        struct accumulator *ac = xcalloc(1, sizeof *ac + len * (sizeof *ac->acc + sizeof *ac->touched));
        ac->acc = (lit *)(ac + 1);
        ac->touched = (int *)(ac->acc + len);
        for (int j = 0; j < A->n; j++)
            ac->acc[j] = LIT_FALSE;
        A->accs[A->naccs++] = ac;
    }
    return A->accs[A->depth++];
}

/* Row i of a ; b (column i when flip), accumulated per column; the
 * operands' rows (columns) are read one by one, rows from their row
 * stores, columns enumerated.  When one operand is static and the other
 * guarded, a static literal both(x, y) meets a literal that implies the
 * execution of its shared event already: the terms' OR is the other
 * operand's literals ORed, ANDed once with the outer event's execution
 * (exec_i & OR_k b(k, j), or exec_j & OR_k a(i, k)), no gate per term. */
static int enum_seq(struct rels *A, const struct rel *r, int i, bool flip)
{
    const struct rel *first = flip ? r->b : r->a, *second = flip ? r->a : r->b;
    int base = A->stop, k1 = rel_enum(A, first, i, flip), nt = 0;
    bool outer_i = first->is_static && rel_guarded(second), outer_j = !outer_i && second->is_static &&
                   rel_guarded(first);
    struct accumulator *ac = accumulator_enter(A);
    for (int e = 0; e < k1; e++) {
        int k = A->scol[base + e], top = A->stop, k2;
        const int *c2;
        const lit *l2;
        if (flip) {
            k2 = rel_enum(A, second, k, true);
            c2 = A->scol + top;
            l2 = A->sval + top;
        } else {
            k2 = rel_row_of(A, second, k, &c2, &l2);
        }
        lit l1 = A->sval[base + e];
        for (int f = 0; f < k2; f++) {
            int j = c2[f];
            lit l = outer_i ? l2[f] : outer_j ? l1 : cnf_and(A->c, l1, l2[f]);
            if (l == LIT_FALSE)
                continue;
            if (ac->acc[j] == LIT_FALSE)    /* never false again once not */
                ac->touched[nt++] = j;
            ac->acc[j] = cnf_or(A->c, ac->acc[j], l);
        }
        A->stop = top;
    }
    A->stop = base;
    sort_events(ac->touched, nt);
    rels_stack_reserve(A, nt);
    for (int k = 0; k < nt; k++) {
        int j = ac->touched[k];
        lit l = outer_i ? cnf_and(A->c, A->exec[i], ac->acc[j]) :
                outer_j ? cnf_and(A->c, A->exec[j], ac->acc[j]) : ac->acc[j];
        if (l != LIT_FALSE)
            push(A, j, l);
        ac->acc[j] = LIT_FALSE;
    }
    A->depth--;
    return A->stop - base;
}

/* rel_enum, where tested says whether the caller has found the row has
 * candidates (rel_may_none) already (inline: rel_enum's body, and
 * enumerate_all's without the test). */
static inline __attribute__((always_inline)) int enum_row(struct rels *A, const struct rel *r, int i, bool flip, bool tested)
{
    rel_settle(r);
    if (!flip && r->rows && r->op != REL_PLUS)
        return push_rows(A, r->rows, i);
    if (rel_bits_on(r))
        return rel_bits_enum(A, r, i, flip);
    if (!tested && rel_may_none(r, i, flip))   /* no candidate: nothing to walk or keep */
        return 0;
    if (!flip && r->store && r->store->len[i] >= 0)   /* kept (a closure keeps none, rows returned above) */
        return push_span(A, r->store->col[i], r->store->val[i], r->store->len[i]);
    if (flip && r->op != REL_PLUS && (r->rows || r->cols))
        return push_rows(A, rel_cols_of(A, r), i);
    if (!r->is_static && r->op >= REL_UNION && r->op <= REL_SEQ && r->op != REL_INV) {
        /* a lazy row (column) asked for again (a composition's operand, a
         * filter's candidates, a lookup's meeting column: terms shared by
         * several axioms and operations) is kept rather than made again */
        bool **seen = &((struct rel *)r)->enumerated[flip];
        if (!*seen)
            *seen = rels_alloc(r->home, (size_t)r->n, sizeof **seen);
        if ((*seen)[i]) {   /* no rows (the row's above), candidates, no closure: rel_row_of's store */
            const int *cols;
            const lit *lits;
            int k = flip ? col_kept(A, r, i, &cols, &lits)
                         : line_kept(A, r, &((struct rel *)r)->store, i, false, &cols, &lits);
            return push_span(A, cols, lits, k);
        }
        (*seen)[i] = true;
    }
    return enum_fresh(A, r, i, flip);
}

int rel_enum(struct rels *A, const struct rel *r, int i, bool flip)
{
    return enum_row(A, r, i, flip, false);
}

/* rel_enum without the materialized rows, stores and memo: the row made
 * from r's operands.  Its callers (rel_enum, and line_kept through
 * rel_row_of and rel_enum) have found the row has candidates
 * (rel_may_none): the row is walked. */
static int enum_fresh(struct rels *A, const struct rel *r, int i, bool flip)
{
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
    case REL_PLUS: {
        const int *cols;
        const lit *lits;
        int k = cnf_closure_row(A->c, rel_closure_of(A, r), i, flip, &cols, &lits);
        return push_span(A, cols, lits, k);
    }
    case REL_ROWS: break;
    }
    return 0;
}

/* Rows built from enumerating every row of r (of r^-1 when flip), owned by
 * r's arena. */
static struct rel_rows *enumerate_all(struct rels *A, const struct rel *r, bool flip)
{
    struct rels *home = r->home;
    int n = r->n, base = A->stop;   /* every row stays on the row stack, then is copied once */
    /* the record and start in one allocation, col and val in another, each
     * written whole */
    _Static_assert(sizeof(struct rel_rows) % 8 == 0 && sizeof(lit) == sizeof(int), "the arrays follow the record");
    struct rel_rows *t = rels_alloc_raw(home, sizeof *t + ((size_t)n + 1) * sizeof *t->start, 1);
    t->start = (int *)(t + 1);
    t->start[0] = 0;
    for (int i = 0; i < n; i++)   /* a row without candidates is not asked for */
        t->start[i + 1] = t->start[i] + (rel_may_none(r, i, flip) ? 0 : enum_row(A, r, i, flip, true));
    int size = t->start[n];
    t->col = rels_alloc_raw(home, 2 * (size_t)size, sizeof *t->col);
    t->val = (lit *)(t->col + size);
    if (size > 0) {
        memcpy(t->col, A->scol + base, (size_t)size * sizeof *t->col);
        memcpy(t->val, A->sval + base, (size_t)size * sizeof *t->val);
    }
    A->stop = base;
    home->pairs += size;
    return t;
}

/* The transpose of rows t over n nodes, owned by arena home. */
static struct rel_rows *transpose(struct rels *home, const struct rel_rows *t, int n)
{
    int size = t->start[n];
    struct rel_rows *u = rows_new(home, n, size);   /* col and val written whole below */
    for (int e = 0; e < size; e++)   /* u->start[j + 1]: column j's size */
        u->start[t->col[e] + 1]++;
    for (int j = 0; j < n; j++)   /* u->start[j]: where column j begins */
        u->start[j + 1] += u->start[j];
    for (int i = 0; i < n; i++)   /* u->start[j] moves to where column j ends */
        for (int e = t->start[i]; e < t->start[i + 1]; e++) {
            int at = u->start[t->col[e]]++;
            u->col[at] = i;
            u->val[at] = t->val[e];
        }
    for (int j = n; j > 0; j--)   /* back: column j begins where column j - 1 ended */
        u->start[j] = u->start[j - 1];
    u->start[0] = 0;
    home->pairs += size;
    return u;
}

const struct rel_rows *rel_rows_of(struct rels *A, const struct rel *r)
{
    if (!r->rows && r->bits && r->op == REL_ROWS)
        rel_settle(r);
    if (!r->rows)
        ((struct rel *)r)->rows = enumerate_all(A, r, false);
    return r->rows;
}

const struct rel_rows *rel_cols_of(struct rels *A, const struct rel *r)
{
    if (!r->rows && r->bits && r->op == REL_ROWS)
        rel_settle(r);
    if (!r->cols)
        ((struct rel *)r)->cols = r->rows ? transpose(r->home, r->rows, r->n) : enumerate_all(A, r, true);
    return r->cols;
}
