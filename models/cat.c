/* The cat operators over the build's arena. */
#include "models/cat.h"

rel cat_or(struct cat *m, rel r, rel s) { return rel_union(m->arena, r, s); }
rel cat_and(struct cat *m, rel r, rel s) { return rel_inter(m->arena, r, s); }
rel cat_minus(struct cat *m, rel r, rel s) { return rel_diff(m->arena, r, s); }
rel cat_seq(struct cat *m, rel r, rel s) { return rel_seq(m->arena, r, s); }
rel cat_inv(struct cat *m, rel r) { return rel_inv(m->arena, r); }
rel cat_plus(struct cat *m, rel r) { return rel_plus(m->arena, r); }
rel cat_star(struct cat *m, rel r) { return rel_opt(m->arena, rel_plus(m->arena, r)); }
rel cat_opt(struct cat *m, rel r) { return rel_opt(m->arena, r); }
rel cat_imm(struct cat *m, rel r) { return rel_imm(m->arena, r); }
rel cat_filter(struct cat *m, set a, rel r, set b) { return rel_filter(m->arena, a, r, b); }
rel cat_prod(struct cat *m, set a, set b) { return rel_product(m->arena, a, b); }
rel cat_id(struct cat *m, set a) { return rel_id(m->arena, a); }
rel cat_empty(struct cat *m) { return rel_empty(m->arena); }

/* a's members are all in b (a loop over a's members: no set is made). */
static bool subset(set a, set b)
{
    for (int x = 0; x < a->size; x++)
        if (!set_has(b, a->members[x]))
            return false;
    return true;
}

/* a and b have no member in common. */
static bool disjoint(set a, set b)
{
    for (int x = 0; x < a->size; x++)
        if (set_has(b, a->members[x]))
            return false;
    return true;
}

/* Sets are one object per content (encoders/rel_arena.c), so where the
 * result has an operand's members it is that operand's object, returned
 * without the operation's pass over the events, its hash and its lookups. */
set cat_sor(struct cat *m, set a, set b) { return subset(a, b) ? b : subset(b, a) ? a : set_union(m->arena, a, b); }
set cat_sand(struct cat *m, set a, set b) { return subset(a, b) ? a : subset(b, a) ? b : set_inter(m->arena, a, b); }
set cat_sminus(struct cat *m, set a, set b) { return disjoint(a, b) ? a : set_diff(m->arena, a, b); }
