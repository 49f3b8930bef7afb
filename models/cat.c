/* The cat set operators over the build's arena (the relation ones are inline in models/cat.h). */
#include "models/cat.h"

/* a's members are all in b (a loop over a's members: no set is made;
 * none where a has more members). */
static bool subset(set a, set b)
{
    if (a->size > b->size)
        return false;
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
