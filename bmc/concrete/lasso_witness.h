/* A lasso (bmc/concrete/lasso.h) as a witness execution: the stem and one pass
 * round the cycle as an execution of the unrolled program, re-checked by
 * the concrete evaluator, in the JSON format of bmc/concrete/witness.h with a
 * "lasso" object added and "stuck" saying what each thread does for ever. */
#ifndef GPUBMC_LASSO_WITNESS_H
#define GPUBMC_LASSO_WITNESS_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "bmc/concrete/lasso.h"
#include "models/model.h"

/* The witness of lasso la of graph g (explored from l) under model md with
 * the axioms disabled[0..ndisabled) off.  Steps of a thread that bring it
 * back to where it was without writing are left out (they change nothing
 * any other thread sees), so that the unrolled program holds the run; every
 * thread that never ends is stopped where the cycle leaves it.  NULL, with
 * why filled, when the concrete evaluator rejects the execution (a bug). */
cJSON *lasso_witness(const struct litmus *l, const struct model_desc *md, const char *const *disabled,
                     int ndisabled, const struct state_graph *g, const struct lasso *la, char *why,
                     size_t len);

#endif
