/* Pairs and row-size estimates of every kind of relation. */
#include "encoders/rel_impl.h"

lit rels_both(struct rels *A, int i, int j)
{
    return i == j ? A->exec[i] : cnf_and(A->c, A->exec[i], A->exec[j]);
}

/* Static terms whose may-set is at most this many pairs (and per event)
 * are materialized on first use: cheaper than walking the term per pair. */
#define SMALL_STATIC 4096L
#define SMALL_STATIC_PER_EVENT 8L

/* An upper bound of static r's may-set size (cached). */
static long static_bound(const struct rel *r)
{
    if (r->bound)
        return r->bound - 1;
    long b = 0, x, y, n = r->n;
    if (r->rows) {
        b = r->rows->start[r->n];
    } else {
        switch (r->op) {               /* a class's bound is set when it is made */
        case REL_PRODUCT: b = (long)r->s->size * r->t->size; break;
        case REL_ID: b = r->s->size; break;
        case REL_UNION: b = static_bound(r->a) + static_bound(r->b); break;
        case REL_INTER:
            x = static_bound(r->a);
            y = static_bound(r->b);
            b = x < y ? x : y;
            break;
        case REL_DIFF: b = static_bound(r->a); break;
        case REL_INV: b = static_bound(r->a); break;
        default: b = n * n; break;
        }
    }
    ((struct rel *)r)->bound = b + 1;
    return b;
}

void rel_settle_slow(const struct rel *r)
{
    if (r->bits && r->op == REL_ROWS) {   /* made as bits: its rows now */
        rel_dense_rows(r);
        return;
    }
    if (r->settling)
        return;
    if (!r->is_static || r->home->static_bits || r->op < REL_UNION || r->op > REL_INV ||
        static_bound(r) > SMALL_STATIC + SMALL_STATIC_PER_EVENT * r->n) {
        ((struct rel *)r)->unsettled = true;   /* never: its bound is fixed */
        return;
    }
    ((struct rel *)r)->settling = true;
    rel_rows_of(r->home, r);
    ((struct rel *)r)->settling = false;
}

bool rel_has(const struct rel *r, int i, int j)
{
    if (r->home->static_bits)
        return rel_bits(r, false)[(size_t)i * rel_bits_words(r->n) + (unsigned)j / 64] >> ((unsigned)j % 64) & 1;
    for (;;) {
        switch (r->op) {   /* leaves answer at once, rows or not (the same answer) */
        case REL_CLASS: return r->key[i] >= 0 && r->key[i] == r->key[j] && (!r->ordered || i < j);
        case REL_PRODUCT: return set_has(r->s, i) && set_has(r->t, j);
        case REL_ID: return i == j && set_has(r->s, i);
        case REL_ROWS: rel_settle(r); return rows_find(r->rows, i, j) >= 0;
        default: break;
        }
        rel_settle(r);
        if (r->rows)
            return rows_find(r->rows, i, j) >= 0;
        switch (r->op) {
        case REL_UNION:
            if (rel_has(r->a, i, j))
                return true;
            r = r->b;
            break;
        case REL_INTER:
            if (!rel_has(r->a, i, j))
                return false;
            r = r->b;
            break;
        case REL_DIFF:
            if (!rel_has(r->a, i, j))
                return false;
            return !rel_has(r->b, i, j);
        case REL_INV: {
            int t = i;
            i = j;
            j = t;
            r = r->a;
            break;
        }
        default: return false;
        }
    }
}

int rel_closure_of(struct rels *A, const struct rel *r)
{
    if (!r->closure) {
        const struct rel_rows *in = rel_rows_of(A, r->a);
        ((struct rel *)r)->closure = 1 + cnf_closure(A->c, r->n, in->start, in->col, in->val);
    }
    return r->closure - 1;
}

/* (a ; b)(i, j): the OR over row i of a of a(i, k) & b(k, j). */
/* True when the columns of r come without reading a composition's or a
 * closure's rows: materialized, static, or an intersection with such. */
static bool cheap_columns(const struct rel *r)
{
    if (r->rows || r->cols || r->is_static)
        return true;
    switch (r->op) {
    case REL_INTER: return cheap_columns(r->a) || cheap_columns(r->b);
    case REL_UNION: return cheap_columns(r->a) && cheap_columns(r->b);
    case REL_DIFF: return cheap_columns(r->a);
    default: return false;
    }
}

/* A term a(i, k) & b(k, j) of a composition's pair (neither false);
 * where one operand is static and the other guarded, the static literal
 * adds only the outer event's execution, which seq_at ANDs in once (see
 * enum_seq): the term is the other operand's literal. */
static lit seq_term(struct rels *A, bool outer_i, bool outer_j, lit la, lit lb)
{
    return outer_i ? lb : outer_j ? la : cnf_and(A->c, la, lb);
}

static lit seq_at(struct rels *A, const struct rel *r, int i, int j)
{
    bool outer_i = r->a->is_static && rel_guarded(r->b), outer_j = !outer_i && r->b->is_static &&
                   rel_guarded(r->a);
    lit outer = outer_i ? A->exec[i] : outer_j ? A->exec[j] : LIT_TRUE, acc = LIT_FALSE;
    long ea = 0, eb = 0;   /* row i of a and column j of b, estimated where the columns are cheap */
    if (cheap_columns(r->b)) {
        ea = rel_est(A, r->a, i, false);
        eb = ea == 0 ? 0 : rel_est(A, r->b, j, true);
        if (eb == 0)
            return LIT_FALSE;   /* the row or the column is empty: no term */
    }
    if (eb < ea) {
        /* meet through column j of b */
        int base = A->stop, k = rel_enum(A, r->b, j, true);
        for (int e = 0; e < k && acc != LIT_TRUE; e++) {
            lit la = rel_at(A, r->a, i, A->scol[base + e]);
            if (la != LIT_FALSE)
                acc = cnf_or(A->c, acc, seq_term(A, outer_i, outer_j, la, A->sval[base + e]));
        }
        A->stop = base;
        return cnf_and(A->c, outer, acc);
    }
    const int *cols;
    const lit *lits;
    int k = rel_row_of(A, r->a, i, &cols, &lits);
    for (int e = 0; e < k && acc != LIT_TRUE; e++) {
        lit lb = rel_at(A, r->b, cols[e], j);
        if (lb != LIT_FALSE)
            acc = cnf_or(A->c, acc, seq_term(A, outer_i, outer_j, lits[e], lb));
    }
    return cnf_and(A->c, outer, acc);
}

/* A pair of a union or a composition is read from its row, made whole
 * and kept on the first lookup in that row: the filters and compositions
 * that look pairs up look up most of a row (every candidate of a filter
 * over a wide static relation, such as loc & (a | b | ...), every column
 * a composition meets), and one enumeration (each operand by its cheapest
 * way) then a binary search per pair costs less than a walk down the
 * operands per pair (in the corpus batch, 1.5% fewer instructions than
 * keeping a union's row after its third lookup and looking a
 * composition's pairs up one by one).  A composition's diagonal pair,
 * which irreflexivity asks for alone, is still computed by itself. */
static bool row_kept_on_lookup(const struct rel *r, int i, int j)
{
    return r->op == REL_UNION || (r->op == REL_SEQ && i != j);
}

lit rel_at(struct rels *A, const struct rel *r, int i, int j)
{
    if (r->bits && r->op == REL_ROWS)   /* made as bits: a constant */
        return r->bits[(size_t)i * (size_t)rel_bits_words(r->n) + (unsigned)j / 64] >> ((unsigned)j % 64) & 1 ? LIT_TRUE : LIT_FALSE;
    if (rel_may_on(r) && !rel_may_has(r, i, j))   /* not a candidate: no lookup */
        return LIT_FALSE;
    if (r->rows) {
        int k = rows_find(r->rows, i, j);
        return k < 0 ? LIT_FALSE : r->rows->val[k];
    }
    if (r->is_static)
        return rel_has(r, i, j) ? rels_both(A, i, j) : LIT_FALSE;
    if (r->store && r->store->len[i] >= 0) {   /* row i was read: look it up */
        const int *cols = r->store->col[i];
        int lo = 0, hi = r->store->len[i];
        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;
            if (cols[mid] < j)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo < r->store->len[i] && cols[lo] == j ? r->store->val[i][lo] : LIT_FALSE;
    }
    if (row_kept_on_lookup(r, i, j)) {
        const int *cols;
        const lit *lits;
        rel_row_of(A, r, i, &cols, &lits);   /* now in r->store: answered from there */
        return rel_at(A, r, i, j);
    }
    const struct rel *x = r->a, *y = r->b;
    lit l;
    switch (r->op) {
    case REL_INTER:
        if (y->is_static && !x->is_static) {
            const struct rel *t = x; x = y; y = t;
        }
        if (x->is_static && y->guarded)   /* both(i, j) & y(i, j) is y(i, j) */
            return rel_has(x, i, j) ? rel_at(A, y, i, j) : LIT_FALSE;
        l = rel_at(A, x, i, j);
        return l == LIT_FALSE ? l : cnf_and(A->c, l, rel_at(A, y, i, j));
    case REL_DIFF:
        if (y->is_static && x->guarded)   /* x(i, j) & -both(i, j) is x(i, j) or false */
            return rel_has(y, i, j) ? LIT_FALSE : rel_at(A, x, i, j);
        l = rel_at(A, x, i, j);
        return l == LIT_FALSE ? l : cnf_and(A->c, l, -rel_at(A, y, i, j));
    case REL_INV:
        return rel_at(A, x, j, i);
    case REL_SEQ:   /* a diagonal pair (row_kept_on_lookup) */
        return seq_at(A, r, i, j);
    case REL_PLUS:
        return cnf_closure_at(A->c, rel_closure_of(A, r), i, j);
    default:
        return LIT_FALSE;
    }
}

static long guess(struct rels *A, const struct rel *r, int i, bool flip);

/* The size of row i of a ; b (column when flip): summed over the first
 * operand's row when that row is short and at hand (reading it must not
 * cost more than the estimate saves), else a guess. */
static long seq_est(struct rels *A, const struct rel *r, int i, bool flip)
{
    const struct rel *first = flip ? r->b : r->a, *second = flip ? r->a : r->b;
    long x = rel_est(A, first, i, flip);
    bool at_hand = flip ? first->cols != NULL || first->is_static
                        : first->rows || (first->store && first->store->len[i] >= 0) || first->op == REL_CLASS ||
                          first->op == REL_PRODUCT || first->op == REL_ID;
    if (x > 32 || !at_hand)
        return x * 8;
    if (flip) {
        long sum = 0;
        int base = A->stop, k = rel_enum(A, first, i, true);
        for (int e = 0; e < k; e++)
            sum += rel_est(A, second, A->scol[base + e], true);
        A->stop = base;
        return sum;
    }
    const int *cols;
    const lit *lits;
    long sum = 0;
    for (int e = 0, k = rel_row_of(A, first, i, &cols, &lits); e < k; e++)
        sum += rel_est(A, second, cols[e], false);
    return sum;
}

long rel_est(struct rels *A, const struct rel *r, int i, bool flip)
{
    rel_settle(r);
    if (!flip && r->store && r->store->len[i] >= 0)
        return r->store->len[i];
    if (!flip && r->rows)
        return r->rows->start[i + 1] - r->rows->start[i];
    if (flip && r->cols)
        return r->cols->start[i + 1] - r->cols->start[i];
    if (rel_may_on(r))   /* its candidates: no walk of the term */
        return rel_may_count(r, i, flip);
    if (r->op < REL_UNION || r->op > REL_SEQ)   /* a leaf or a closure: at hand */
        return guess(A, r, i, flip);
    long **memo = &((struct rel *)r)->est[flip];   /* nested filters and compositions ask often */
    if (!*memo)
        *memo = rels_alloc(r->home, (size_t)r->n, sizeof **memo);
    if ((*memo)[i] == 0)
        (*memo)[i] = 1 + guess(A, r, i, flip);
    return (*memo)[i] - 1;
}

/* rel_est's guess for a relation with no rows at hand. */
static long guess(struct rels *A, const struct rel *r, int i, bool flip)
{
    long x, y;
    switch (r->op) {
    case REL_ROWS: return r->rows->start[r->n] / (r->n ? r->n : 1) + 1;
    case REL_CLASS: return r->key[i] < 0 ? 0 : r->group_start[r->key[i] + 1] - r->group_start[r->key[i]];
    case REL_PRODUCT: return set_has(flip ? r->t : r->s, i) ? (flip ? r->s : r->t)->size : 0;
    case REL_ID: return set_has(r->s, i);
    case REL_UNION: return rel_est(A, r->a, i, flip) + rel_est(A, r->b, i, flip);
    case REL_INTER:   /* an operand's 0 (an empty row) spares the other's walk */
        x = rel_est(A, r->a, i, flip);
        y = x == 0 ? 0 : rel_est(A, r->b, i, flip);
        return x < y ? x : y;
    case REL_DIFF: return rel_est(A, r->a, i, flip);
    case REL_INV: return rel_est(A, r->a, i, !flip);
    case REL_SEQ:
        return seq_est(A, r, i, flip);
    case REL_PLUS:
        return cnf_closure_row_size(A->c, rel_closure_of(A, r), i, flip);
    }
    return 0;
}

