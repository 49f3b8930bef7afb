/* Cat-style combinators for writing models: each takes ownership of its
 * relation arguments (and frees them), so a model reads like its cat file. */
#ifndef GPUBMC_CAT_H
#define GPUBMC_CAT_H

#include "encoders/base.h"

/* A copy of a base relation or set. */
struct rel cat_rel(const struct base *b, enum base_rel r);
struct set cat_set(const struct base *b, enum base_set s);

/* r | s, r & s, r \ s, r ; s, r^-1, r+, r*, r? (consuming their arguments). */
struct rel cat_or(struct cnf *c, struct rel r, struct rel s);
struct rel cat_and(struct cnf *c, struct rel r, struct rel s);
struct rel cat_minus(struct cnf *c, struct rel r, struct rel s);
struct rel cat_seq(struct cnf *c, struct rel r, struct rel s);
struct rel cat_inv(struct rel r);
struct rel cat_plus(struct cnf *c, struct rel r);
struct rel cat_opt(struct cnf *c, const struct base *b, struct rel r);
/* [a]; r; [b] with sets taken by value and freed. */
struct rel cat_filter(struct cnf *c, struct set a, struct rel r, struct set b);
/* a * b and [a]. */
struct rel cat_prod(struct cnf *c, struct set a, struct set b);
struct rel cat_id(struct set a);

/* Set algebra (consuming). */
struct set cat_sor(struct cnf *c, struct set a, struct set b);
struct set cat_sand(struct cnf *c, struct set a, struct set b);
struct set cat_sminus(struct cnf *c, struct set a, struct set b);

#endif
