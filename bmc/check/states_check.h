/* Termination by the explicit-state engine, for programs in the
 * interleaving fragment (bmc/concrete/fragment.h): one exploration, then one
 * search for fair cycles per progress model. */
#ifndef GPUBMC_STATES_CHECK_H
#define GPUBMC_STATES_CHECK_H

#include "bmc/check/check.h"
#include "program/program.h"
#include "models/model.h"

/* Decides termination of p under each model ms[0..n): out[i] gets PASS
 * (every fair run terminates) with the number of states, or FAIL with the
 * stuck threads, and witnesses[i] (when o->want_witness) the lasso as a
 * checked witness.  Returns false, filling nothing, when the program has
 * more states than o->max_states; *nstates then says how many it found. */
bool states_termination(const struct program *p, const struct model_desc *md, const struct check_opts *o,
                        const enum progress_model *ms, int n, struct progress_result *out,
                        cJSON **witnesses, long *nstates);

#endif
