/* Why an outcome is forbidden: the smallest set of axioms whose removal
 * makes it reachable, the execution that reaches it without them, and each
 * axiom's concrete evidence (a cycle, a reflexive pair, a pair). */
#ifndef GPUBMC_EXPLAIN_H
#define GPUBMC_EXPLAIN_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>

#include "bmc/check/sat_check.h"

/* Explains why no execution satisfies query (it must be UNSAT under the
 * enabled axioms; goal says what a witness of query shows).  Returns the
 * "explanation" object: "axioms" (a minimal set: with all of them off the
 * outcome is reachable, with any one kept on it is not), "evidence" per
 * axiom, and "witness" (the execution without them, when want_witness);
 * or, when no axiom set can be removed to reach it, "axioms": [] and a
 * "reason".  A one-line summary goes to text. */
cJSON *explain_forbidden(struct sat_check *s, lit query, enum goal goal, char *text, size_t len);

/* Prints, one a line after indent, what each compound edge of an
 * explanation's evidence stands for (its "expansions" texts). */
void explain_print_steps(FILE *f, const char *indent, const cJSON *explanation);

#endif
