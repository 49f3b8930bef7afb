/* Reachable outcomes of a program_spec check (--outcomes). */
#ifndef GPUBMC_ENUMERATE_H
#define GPUBMC_ENUMERATE_H

#include "bmc/sat_check.h"

/* Fills r->outcomes after the program_spec verdict: the set may be
 * incomplete when some execution is cut at the loop bound; a set that
 * contradicts the verdict is an internal error. */
void report_outcomes(struct sat_check *s, lit body, lit filter, struct check_result *r);

#endif
