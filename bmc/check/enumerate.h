/* Reachable outcomes of a program_spec check (--outcomes). */
#ifndef GPUBMC_ENUMERATE_H
#define GPUBMC_ENUMERATE_H

#include <stdint.h>

#include "bmc/check/outcomes.h"
#include "bmc/check/sat_check.h"

/* Outcomes enumerated at most (each is re-checked concretely). */
#define OUTCOMES_LIMIT 1000

/* Fills r->outcomes after the program_spec verdict: the set may be
 * incomplete when some execution is cut at the loop bound; a set that
 * contradicts the verdict is an internal error. */
void report_outcomes(struct sat_check *s, lit body, lit filter, struct check_result *r);

/* Adds to o every final state, projected onto o's observed values (values
 * of s's program), of a consistent execution in which every thread
 * terminates and the filter holds, by solving again with each state found
 * forbidden (the blocking clauses stay), each re-checked concretely.
 * False (with r->reason set) on an internal error; *capped when it stopped
 * at OUTCOMES_LIMIT states (o is then marked incomplete). */
bool enumerate_states(struct sat_check *s, lit body, lit filter, struct outcome_set *o,
                      bool *capped, struct check_result *r);

/* Forbids the final state in which the nobs values obs (of s's program)
 * are vals: adds the clause "some of them differs". */
void enumerate_block(struct sat_check *s, const struct avalue *obs, int nobs, const int32_t *vals);

/* The encoded final value of an observed register or location. */
const struct bv *enumerate_observed_bv(const struct sat_check *s, const struct avalue *v);

#endif
