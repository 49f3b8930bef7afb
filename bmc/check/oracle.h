/* The brute-force oracle: enumerates every candidate execution of a small
 * program and evaluates each concretely.  Independent of the CNF encoding;
 * the test suite compares its verdicts with the SAT path's. */
#ifndef GPUBMC_ORACLE_H
#define GPUBMC_ORACLE_H

#include "bmc/check/check.h"
#include "program/program.h"
#include "models/model.h"

struct oracle_result {
    enum verdict verdict;
    long candidates;         /* complete choices evaluated */
    long consistent;         /* of which consistent */
    long ended;              /* of which every thread terminates */
    long counted;            /* of which the property counts: those that end
                                with the filter true (cat_spec without a
                                filter: those the bound does not cut) */
    bool cut_at_bound;       /* cat_spec's FAIL: only executions cut at the
                                bound raise a flag (bmc/check/cut_flags.h) */
    long value_cycles;       /* rf choices whose values only depend on
                                themselves: the oracle tries the program's
                                constants for them, which may miss values
                                (they count when no NoThinAir axiom forbids
                                them) */
};

/* Decides program_spec or cat_spec (o->property) by enumeration.  Returns
 * false when the program has more than `limit` candidates (no verdict then). */
bool oracle_check(const struct program *p, const struct model_desc *md,
                         const struct check_opts *o, long limit, struct oracle_result *r);

#endif
