/* Consuming wrappers around the relation algebra. */
#include "models/cat.h"

struct rel cat_rel(const struct base *b, enum base_rel r) { return rel_copy(&b->rels[r]); }
struct set cat_set(const struct base *b, enum base_set s) { return set_copy(&b->sets[s]); }

struct rel cat_or(struct cnf *c, struct rel r, struct rel s)
{
    struct rel t = rel_union(c, &r, &s);
    rel_free(&r);
    rel_free(&s);
    return t;
}

struct rel cat_and(struct cnf *c, struct rel r, struct rel s)
{
    struct rel t = rel_inter(c, &r, &s);
    rel_free(&r);
    rel_free(&s);
    return t;
}

struct rel cat_minus(struct cnf *c, struct rel r, struct rel s)
{
    struct rel t = rel_diff(c, &r, &s);
    rel_free(&r);
    rel_free(&s);
    return t;
}

struct rel cat_seq(struct cnf *c, struct rel r, struct rel s)
{
    struct rel t = rel_seq(c, &r, &s);
    rel_free(&r);
    rel_free(&s);
    return t;
}

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

struct set cat_sor(struct cnf *c, struct set a, struct set b)
{
    struct set t = set_union(c, &a, &b);
    set_free(&a);
    set_free(&b);
    return t;
}

struct set cat_sand(struct cnf *c, struct set a, struct set b)
{
    struct set t = set_inter(c, &a, &b);
    set_free(&a);
    set_free(&b);
    return t;
}

struct set cat_sminus(struct cnf *c, struct set a, struct set b)
{
    struct set t = set_diff(c, &a, &b);
    set_free(&a);
    set_free(&b);
    return t;
}
