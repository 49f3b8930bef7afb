/* Witness executions as JSON graphs. */
#ifndef GPUBMC_WITNESS_H
#define GPUBMC_WITNESS_H

#include <cjson/cJSON.h>

#include "bmc/concrete/interp.h"
#include "models/model.h"

/* Builds the JSON graph of a concretely checked execution: its executed
 * events, the edges of the base and exported relations, the raised flags
 * with their pairs (the races), the final state (none when the bound
 * cuts the execution: then cut_at_bound lists the threads cut), and the
 * threads that never terminate (how, where, and what their last reads
 * read). */
cJSON *wit_build(const struct program *p, const struct concrete *x, const struct base *b,
                 const struct model_out *m);

#endif
