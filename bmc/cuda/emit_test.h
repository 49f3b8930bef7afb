/* The test-specific host side of an emitted CUDA test: its description
 * (names, sizes, what it observes) and its filter and condition. */
#ifndef GPUBMC_CUDA_EMIT_TEST_H
#define GPUBMC_CUDA_EMIT_TEST_H

#include <stdio.h>

#include "bmc/cuda/layout.h"
#include "bmc/check/outcomes.h"
#include "litmus/ast.h"

/* Writes the LT_ constants and tables the harness reads: name, file,
 * herd kind and condition, sizes, the observed values o (herd and gpubmc
 * names, and where each is: a register of the flat array or a location),
 * the locations' initial values, and for each location its root and the
 * mapping of the memory it is read through (LT_MAPS of them). */
void cuda_emit_description(FILE *f, const char *path, const struct litmus *l, const struct cuda_layout *c,
                           const struct outcome_set *o);

/* Writes lt_filter and lt_body: the filter (true without one) and the
 * condition's body (false without one) over an instance's final
 * registers (flat) and locations (by index). */
void cuda_emit_conditions(FILE *f, const struct litmus *l, const struct cuda_layout *c);

#endif
