/* Relations and sets over the n events of one program, as matrices of
 * literals.  An entry that is LIT_FALSE is outside the static may-set and
 * costs nothing; every operation skips it, so sparse relations stay cheap.
 * The same code evaluates one concrete execution when the cnf is constant-only. */
#ifndef GPUBMC_REL_H
#define GPUBMC_REL_H

#include "encoders/cnf.h"

struct set { int n; lit *m; };
struct rel { int n; lit *m; };   /* m[i * n + j]: the pair (i, j) */

/* Access helpers. */
static inline lit rel_get(const struct rel *r, int i, int j) { return r->m[i * r->n + j]; }
static inline void rel_set(struct rel *r, int i, int j, lit l) { r->m[i * r->n + j] = l; }
/* True when no pair of r can hold (every entry LIT_FALSE). */
static inline bool rel_is_empty(const struct rel *r)
{
    for (int i = 0; i < r->n * r->n; i++)
        if (r->m[i] != LIT_FALSE)
            return false;
    return true;
}

/* The empty set / relation over n events (callers own and free them). */
struct set set_empty(int n);
struct rel rel_empty(int n);
void set_free(struct set *s);
void rel_free(struct rel *r);
struct set set_copy(const struct set *s);
struct rel rel_copy(const struct rel *r);

/* Set algebra. */
struct set set_union(struct cnf *c, const struct set *a, const struct set *b);
struct set set_inter(struct cnf *c, const struct set *a, const struct set *b);
struct set set_diff(struct cnf *c, const struct set *a, const struct set *b);

/* Relation algebra: r | s, r & s, r \ s, r ; s, r^-1. */
struct rel rel_union(struct cnf *c, const struct rel *r, const struct rel *s);
struct rel rel_inter(struct cnf *c, const struct rel *r, const struct rel *s);
struct rel rel_diff(struct cnf *c, const struct rel *r, const struct rel *s);
struct rel rel_seq(struct cnf *c, const struct rel *r, const struct rel *s);
struct rel rel_inv(const struct rel *r);
/* r+ (exact: entry (i,j) is true iff a path exists). */
struct rel rel_plus(struct cnf *c, const struct rel *r);
/* r? = r | [dom], where dom is the set of events of the identity. */
struct rel rel_opt(struct cnf *c, const struct rel *r, const struct set *dom);
/* [a] ; r ; [b] (either set may be NULL for "any"). */
struct rel rel_restrict(struct cnf *c, const struct rel *r, const struct set *a, const struct set *b);
/* a * b. */
struct rel rel_product(struct cnf *c, const struct set *a, const struct set *b);
/* [a]. */
struct rel rel_id(const struct set *a);

/* Literal that is true iff r has some pair (the OR of its entries). */
lit rel_nonempty(struct cnf *c, const struct rel *r);
/* Literal that is true iff some (i,i) is in r. */
lit rel_reflexive_some(struct cnf *c, const struct rel *r);
/* Literal that is true iff r has a cycle. */
lit rel_cyclic(struct cnf *c, const struct rel *r);
/* Number of entries that are not LIT_FALSE (the may-set size). */
long rel_may_size(const struct rel *r);

#endif
