/* When a flag (a data race) raised in a consistent execution that the
 * loop bound cuts is a flag of the unbounded program: the cut execution
 * is then a prefix of a consistent execution that raises it too
 * (docs/semantics.md, "Flags in executions cut at the bound"). */
#ifndef GPUBMC_CUT_FLAGS_H
#define GPUBMC_CUT_FLAGS_H

#include <stdbool.h>
#include <stddef.h>

#include "bmc/check/check.h"
#include "models/model.h"
#include "program/program.h"

/* Whether cat_spec may report a flag raised in a consistent execution cut
 * at the bound of p under md and o: a model whose flags survive the cut
 * (md->flags_survive_cut), no filter, every axiom that is not a flag on,
 * barriers that wait for every thread with a member of their constant
 * id (no quorum, no register id, no arrive), and the model's conditions
 * on the program (Vulkan: no ssw; OpenCL: no RMW on a non-atomic
 * location, no location both global and local).
 * When not, why (len bytes) says what rules it out. */
bool cut_flags_count(const struct program *p, const struct model_desc *md, const struct check_opts *o,
                     char *why, size_t len);

#endif
