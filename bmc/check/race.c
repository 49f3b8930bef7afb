/* Symmetry keys raced: a session per key, turns with a doubling budget. */
#include "bmc/check/race.h"

#include <limits.h>

#include "bmc/check/symmetry.h"

/* Conflicts the first key's session gets before the second key's session
 * is made; most checks answer within them, with one session.  (The CAS
 * lock families of tests/bench need 2,000 to 110,000.) */
#define FIRST_BUDGET 10000

/* Sets s up with symmetry breaking by key (none when key < 0) and builds q. */
static void open_session(struct sat_check *s, int key, query_builder build, struct query *q)
{
    sat_setup(s);
    s->key = key;
    if (key >= 0)
        symmetry_break(s->c, s->p, s->x.base.rels[R_CO], (enum symmetry_key)key);
    build(s, q);
}

struct sat_check *race_solve(struct sat_check *s, struct sat_check *alt, bool symmetric,
                             query_builder build, struct query *q, int *res)
{
    int keys = symmetric ? symmetry_keys(s->p) : 0, pinned = s->o->symmetry_key - 1;
    open_session(s, keys == 0 ? -1 : pinned >= 0 ? pinned : KEY_FIRST_WRITE, build, q);
    if (keys < 2 || pinned >= 0) {
        *res = solve_with(s, q->query);
        return s;
    }
    if ((*res = solve_limited(s, q->query, FIRST_BUDGET)) != 0)
        return s;
    struct query alt_q;
    *alt = (struct sat_check){ .p = s->p, .md = s->md, .o = s->o, .sx_mode = s->sx_mode,
                           .weak_first = s->weak_first };
    open_session(alt, KEY_LAST_WRITE, build, &alt_q);
    for (int budget = FIRST_BUDGET;; budget = budget > INT_MAX / 2 ? -1 : 2 * budget) {
        if ((*res = solve_limited(alt, alt_q.query, budget)) != 0) {
            sat_discard(s);
            *q = alt_q;
            return alt;
        }
        if ((*res = solve_limited(s, q->query, budget)) != 0) {
            sat_discard(alt);
            return s;
        }
    }
}
