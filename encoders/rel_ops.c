/* The relation operations: static leaves and lazy terms, consed so that
 * the same operation on the same operands is one relation (over a cnf
 * with a solver: a constant-only one's are made as bits, not consed), and
 * simplified where an operand is empty, an identity or the other operand. */
#include "encoders/rel_impl.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>


const struct rel *rel_empty(struct rels *A) { return A->empty; }

const struct rel *rel_class(struct rels *A, const int *key, bool ordered)
{
    if (rel_dense(A))
        return rel_dense_class(A, key, ordered);
    int n = A->n, nkeys = 0;
    struct rel *r = rel_node(A, REL_CLASS);
    int *k = rels_alloc_raw(A, (size_t)n, sizeof *k);   /* written whole below */
    for (int i = 0; i < n; i++) {
        k[i] = A->exec[i] == LIT_FALSE ? -1 : key[i];
        if (k[i] >= nkeys)
            nkeys = k[i] + 1;
    }
    int *start = rels_alloc(A, (size_t)nkeys + 1, sizeof *start);
    int *group = rels_alloc_raw(A, (size_t)n, sizeof *group);   /* the members, written below; read by
                                                                     group_start's ranges only */
    for (int i = 0; i < n; i++)   /* start[g]: the size of class g */
        if (k[i] >= 0)
            start[k[i]]++;
    bool some = false;
    long pairs = 0;
    int before = 0;
    for (int g = 0; g < nkeys; g++) {   /* start[g]: where class g ends */
        long size = start[g];
        some |= size > (ordered ? 1 : 0);
        pairs += ordered ? size * (size - 1) / 2 : size * size;
        before = start[g] += before;
    }
    start[nkeys] = before;
    r->bound = pairs + 1;
    for (int i = n - 1; i >= 0; i--)   /* filled from the end: start[g] ends where class g begins */
        if (k[i] >= 0)
            group[--start[k[i]]] = i;
    r->key = k;
    r->group_start = start;
    r->group = group;
    r->nkeys = nkeys;
    r->ordered = ordered;
    r->is_static = r->transitive = true;
    r->empty = !some;
    return r;
}

/* The static node op (a product, or the identity with t NULL) over sets
 * s and t, consed: the one made before, or a new one entered. */
static const struct rel *set_node(struct rels *A, enum rel_op op, const struct set *s, const struct set *t)
{
    struct cons_slot *slot = rels_cons_slot(A, op, s, t);
    if (slot->op)
        return slot->node;
    struct rel *r = rel_node(A, op);
    r->s = s;
    r->t = t;
    r->is_static = true;
    r->transitive = op == REL_ID;
    rels_cons_fill(A, slot, op, s, t, r);
    return r;
}

const struct rel *rel_product(struct rels *A, const struct set *s, const struct set *t)
{
    assert(s->n == A->n && t->n == A->n);
    if (s->size == 0 || t->size == 0)
        return A->empty;
    return set_node(A, REL_PRODUCT, s, t);
}

const struct rel *rel_id(struct rels *A, const struct set *s)
{
    if (s->size == 0)
        return A->empty;
    return set_node(A, REL_ID, s, NULL);
}

/* True when op(x, y)'s pair literals imply both events' execution, as
 * its operands' do: a union needs both operands guarded, an intersection
 * one, a difference, inverse and closure their first, a composition both
 * (a(i, k) & b(k, j) implies exec_i and exec_j). */
static bool guarded_op(enum rel_op op, const struct rel *x, const struct rel *y)
{
    switch (op) {
    case REL_UNION: case REL_SEQ: return rel_guarded(x) && rel_guarded(y);
    case REL_INTER: return rel_guarded(x) || rel_guarded(y);
    default: return rel_guarded(x);
    }
}

/* The node op(x, y): where rel_dense says so, made at once as rows of
 * bits (not consed: a pair holds or not, so no formula grows by a node
 * made twice, and making it again costs less than a table of them); else
 * consed, made with the given properties when new. */
static const struct rel *binary(struct rels *A, enum rel_op op, const struct rel *x, const struct rel *y,
                                bool is_static, bool transitive)
{
    assert(x->n == A->n && (!y || y->n == A->n));
    if (rel_dense(A)) {   /* no literal to guard: guarded is the solver's */
        struct rel *r = rel_dense_op(A, op, x, y);
        r->transitive |= transitive;
        return r;
    }
    struct cons_slot *slot = rels_cons_slot(A, op, x, y);
    if (slot->op)
        return slot->node;
    struct rel *r = rel_node(A, op);
    r->a = x;
    r->b = y;
    r->is_static = is_static;
    r->transitive = transitive;
    r->guarded = guarded_op(op, x, y);
    rels_cons_fill(A, slot, op, x, y, r);
    return r;
}

const struct rel *rel_union(struct rels *A, const struct rel *r, const struct rel *s)
{
    const struct rel *done = union_without_op(&r, &s);
    if (done)
        return done;
    return binary(A, REL_UNION, r, s, r->is_static && s->is_static, false);
}

const struct rel *rel_inter(struct rels *A, const struct rel *r, const struct rel *s)
{
    const struct rel *done = inter_without_op(A, &r, &s);
    if (done)
        return done;
    return binary(A, REL_INTER, r, s, r->is_static && s->is_static, r->transitive && s->transitive);
}

const struct rel *rel_diff(struct rels *A, const struct rel *r, const struct rel *s)
{
    const struct rel *done = diff_without_op(A, r, s);
    if (done)
        return done;
    return binary(A, REL_DIFF, r, s, r->is_static && s->is_static, false);
}

const struct rel *rel_inv(struct rels *A, const struct rel *r)
{
    const struct rel *done = inv_without_op(r);
    if (done)
        return done;
    return binary(A, REL_INV, r, NULL, r->is_static, r->transitive);
}

const struct rel *rel_seq(struct rels *A, const struct rel *r, const struct rel *s)
{
    if (r->empty || s->empty)
        return A->empty;
    if (r->op == REL_ID)
        return rel_filter(A, r->s, s, NULL);
    if (s->op == REL_ID)
        return rel_filter(A, NULL, r, s->s);
    return binary(A, REL_SEQ, r, s, false, false);
}

const struct rel *rel_filter(struct rels *A, const struct set *a, const struct rel *r, const struct set *b)
{
    if (filter_keeps_all(A, a, b))
        return r;
    if (rel_dense(A))
        return rel_dense_filter(A, a ? a : A->all, r, b ? b : A->all);
    return rel_inter(A, r, rel_product(A, a ? a : A->all, b ? b : A->all));
}

const struct rel *rel_opt(struct rels *A, const struct rel *r)
{
    return rel_union(A, r, rel_id(A, A->all));
}

const struct rel *rel_plus(struct rels *A, const struct rel *r)
{
    if (r->empty || r->transitive)
        return r;
    return binary(A, REL_PLUS, r, NULL, false, true);
}

const struct rel *rel_imm(struct rels *A, const struct rel *r)
{
    return rel_diff(A, r, rel_seq(A, r, rel_plus(A, r)));
}
