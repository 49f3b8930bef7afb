/* --observed LOG: the outcomes a hardware run saw, held against the
 * outcomes the model allows. */
#ifndef GPUBMC_OBSERVED_JUDGE_H
#define GPUBMC_OBSERVED_JUDGE_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "bmc/check/check.h"

/* Judges the states that the log at log_path records for the test at path
 * (its blocks "Test NAME", NAME the test's name; bmc/observed/log.h),
 * projected onto the registers and locations the log names.  A state is
 * allowed when some consistent execution in which every thread terminates
 * and the filter holds ends in it; outside the filter when only
 * executions that fail the filter do; forbidden when none does (explained
 * as --explain does); unknown when none does within the loop bound and a
 * loop can run past it.  FAIL when some state is forbidden (the reason
 * names them; r->explanation explains the first), else UNKNOWN when some
 * is unknown, else PASS.  r->details: {"kind": "observed", "log", "test",
 * "observed", "runs", "states": [{"values", "count", "verdict",
 * "explanation"}], "unobserved" (the allowed states the log lacks: the
 * coverage), "allowed", "complete"}.  ERROR when the test does not parse,
 * the log lacks it or names what the test does not have. */
void check_observed(const char *path, const char *log_path, const struct check_opts *o, struct check_result *r);

/* Prints the details of check_observed as text: each observed state with
 * its count and verdict (and why, for a forbidden one), then the allowed
 * states never observed. */
void observed_print(FILE *f, const cJSON *details);

#endif
