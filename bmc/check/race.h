/* The main query of a program_spec or cat_spec check, solved under
 * symmetry breaking by each symmetry key in turn when both may matter. */
#ifndef GPUBMC_RACE_H
#define GPUBMC_RACE_H

#include "bmc/check/sat_check.h"

/* What a check asks first, built in a session after its setup: the query,
 * and the literals the check reads after the answer. */
struct query {
    lit query;
    lit filter;   /* the filter on the final state */
    lit term;     /* every thread ran to its end */
    lit body;     /* the condition's body, or cat_spec's raised flags */
};

/* Builds q in the set-up session s. */
typedef void (*query_builder)(struct sat_check *s, struct query *q);

/* Sets *s up (with symmetry breaking when symmetric), builds its query
 * into q and solves it into *res, under the key the options pin if any.
 * Else, when the two symmetry keys order
 * different writes and the first key's session takes more than a first
 * budget of conflicts, it sets *alt up with the other key and gives the
 * two sessions turns with a doubling budget until one answers.  Returns
 * the session that answered, with q its query; the other one is freed. */
struct sat_check *race_solve(struct sat_check *s, struct sat_check *alt, bool symmetric,
                             query_builder build, struct query *q, int *res);

#endif
