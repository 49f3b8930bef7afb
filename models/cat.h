/* The build environment of a model, so that model code reads like its cat
 * file: every relation and set made during one build lives in the build's
 * arena (freed with the model's output), operators borrow their operands,
 * and the same term built twice is one relation.  REL(r) and SET(s) name
 * the base relations and sets of the build `m` in scope. */
#ifndef GPUBMC_CAT_H
#define GPUBMC_CAT_H

#include "models/model.h"

typedef const struct rel *rel;
typedef const struct set *set;

struct cat {
    struct cnf *c;
    const struct base *b;
    struct rels *arena;              /* owns what the build makes */
    const struct model_desc *md;     /* its axiom table */
    struct model_out *out;
    bool flags;                      /* the flags' relations are read (else a flag's
                                        relation may be left empty: model_build_unflagged) */
    bool dense;                      /* the arena makes its operations as bits (rels_dense:
                                        a concrete execution) */
};

#define REL(r) ((m)->b->rels[r])
#define SET(s) ((m)->b->sets[s])

/* r | s, r & s, r \ s, r ; s, r^-1, r+, r*, r?, imm(r) = r \ (r; r+);
 * inline: each is one call into the arena, made some two hundred times
 * a build: on a concrete execution straight to its operation on bits
 * (encoders/rel_dense.c), else to the lazy terms (encoders/rel_ops.c). */
static inline rel cat_or(struct cat *m, rel r, rel s)
{
    return m->dense ? rel_dense_or(m->arena, r, s) : rel_union(m->arena, r, s);
}
static inline rel cat_and(struct cat *m, rel r, rel s)
{
    return m->dense ? rel_dense_and(m->arena, r, s) : rel_inter(m->arena, r, s);
}
static inline rel cat_minus(struct cat *m, rel r, rel s)
{
    return m->dense ? rel_dense_minus(m->arena, r, s) : rel_diff(m->arena, r, s);
}
static inline rel cat_seq(struct cat *m, rel r, rel s)
{
    return m->dense ? rel_dense_seq(m->arena, r, s) : rel_seq(m->arena, r, s);
}
static inline rel cat_inv(struct cat *m, rel r) { return m->dense ? rel_dense_inv(m->arena, r) : rel_inv(m->arena, r); }
static inline rel cat_plus(struct cat *m, rel r) { return m->dense ? rel_dense_plus(m->arena, r) : rel_plus(m->arena, r); }
static inline rel cat_opt(struct cat *m, rel r) { return m->dense ? rel_dense_opt(m->arena, r) : rel_opt(m->arena, r); }
static inline rel cat_star(struct cat *m, rel r) { return cat_opt(m, cat_plus(m, r)); }
static inline rel cat_imm(struct cat *m, rel r) { return m->dense ? cat_minus(m, r, cat_seq(m, r, cat_plus(m, r))) : rel_imm(m->arena, r); }
/* [a]; r; [b] (NULL: no restriction on that side), a * b, [a], and 0. */
static inline rel cat_filter(struct cat *m, set a, rel r, set b)
{
    return m->dense ? rel_dense_restrict(m->arena, a, r, b) : rel_filter(m->arena, a, r, b);
}
static inline rel cat_prod(struct cat *m, set a, set b) { return rel_product(m->arena, a, b); }
static inline rel cat_id(struct cat *m, set a) { return rel_id(m->arena, a); }
static inline rel cat_empty(struct cat *m) { return rel_empty(m->arena); }

/* a's members are all in b (a loop over a's members: no set is made;
 * none where a has more members). */
static inline bool cat_subset(set a, set b)
{
    if (a->size > b->size)
        return false;
    for (int x = 0; x < a->size; x++)
        if (!set_has(b, a->members[x]))
            return false;
    return true;
}

/* a and b have no member in common. */
static inline bool cat_disjoint(set a, set b)
{
    for (int x = 0; x < a->size; x++)
        if (set_has(b, a->members[x]))
            return false;
    return true;
}

/* a | b, a & b, a \ b.  Sets are one object per content
 * (encoders/rel_arena.c), so where the result has an operand's members it
 * is that operand's object, returned without the operation's pass over
 * the events, its hash and its lookups. */
static inline set cat_sor(struct cat *m, set a, set b)
{
    return cat_subset(a, b) ? b : cat_subset(b, a) ? a : set_union(m->arena, a, b);
}
static inline set cat_sand(struct cat *m, set a, set b)
{
    return cat_subset(a, b) ? a : cat_subset(b, a) ? b : set_inter(m->arena, a, b);
}
static inline set cat_sminus(struct cat *m, set a, set b)
{
    return cat_disjoint(a, b) ? a : set_diff(m->arena, a, b);
}

/* The axiom `name` of the model's table over r (its kind from the table). */
void cat_axiom(struct cat *m, const char *name, rel r);
/* stdlib.cat's flag ~empty [UB] as undefined-behavior, which every model
 * of Dat3M's includes. */
void cat_undefined_behavior(struct cat *m);
/* Shows r in witnesses as `name`. */
void cat_export(struct cat *m, const char *name, rel r);

#endif
