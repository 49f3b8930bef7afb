/* Consuming wrappers around the relation algebra. */
#include "models/cat.h"

struct rel cat_rel(const struct base *b, enum base_rel r) { return rel_copy(&b->rels[r]); }
struct set cat_set(const struct base *b, enum base_set s) { return set_copy(&b->sets[s]); }

/* A consuming binary operation: applies op, then frees both arguments. */
#define CONSUMING_BINARY(type, name, op, release)                     \
    struct type name(struct cnf *c, struct type r, struct type s)     \
    {                                                                 \
        struct type t = op(c, &r, &s);                                \
        release(&r);                                                  \
        release(&s);                                                  \
        return t;                                                     \
    }

CONSUMING_BINARY(rel, cat_or, rel_union, rel_free)
CONSUMING_BINARY(rel, cat_and, rel_inter, rel_free)
CONSUMING_BINARY(rel, cat_minus, rel_diff, rel_free)
CONSUMING_BINARY(rel, cat_seq, rel_seq, rel_free)
CONSUMING_BINARY(set, cat_sor, set_union, set_free)
CONSUMING_BINARY(set, cat_sand, set_inter, set_free)
CONSUMING_BINARY(set, cat_sminus, set_diff, set_free)

struct rel cat_inv(struct rel r)
{
    struct rel t = rel_inv(&r);
    rel_free(&r);
    return t;
}

struct rel cat_plus(struct cnf *c, struct rel r)
{
    struct rel t = rel_plus(c, &r);
    rel_free(&r);
    return t;
}

struct rel cat_opt(struct cnf *c, const struct base *b, struct rel r)
{
    struct rel t = rel_opt(c, &r, &b->sets[S_ALL]);
    rel_free(&r);
    return t;
}

struct rel cat_filter(struct cnf *c, struct set a, struct rel r, struct set b)
{
    struct rel t = rel_restrict(c, &r, &a, &b);
    rel_free(&r);
    set_free(&a);
    set_free(&b);
    return t;
}

struct rel cat_prod(struct cnf *c, struct set a, struct set b)
{
    struct rel t = rel_product(c, &a, &b);
    set_free(&a);
    set_free(&b);
    return t;
}

struct rel cat_id(struct set a)
{
    struct rel t = rel_id(&a);
    set_free(&a);
    return t;
}

