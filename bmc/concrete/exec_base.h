/* The base sets and relations of one concrete execution, whose executed
 * events are constants: base_init's definitions (encoders/base.c) made
 * directly as rows of bits where the arena makes its operations as bits
 * (at most REL_DENSE_MAX events), without the general relation terms
 * (classes, products, unions) base_init builds them from, which cost
 * most of an evaluation's base; beyond that, base_init itself.
 * tests/unit/test_exec_base.c checks that both give the same sets and
 * the same pairs. */
#ifndef GPUBMC_EXEC_BASE_H
#define GPUBMC_EXEC_BASE_H

#include "encoders/base.h"

/* base_init over constant-only cnf c for p's execution whose executed
 * events are those with exec[e]: the tag sets, po, loc, vloc, int, ext,
 * rmw, sr, scta, ssg, swg, sqf, ssw and sdv; rf, co, addr, data, ctrl,
 * syncbar and sync_fence empty, for the caller to set. */
void exec_base_init(struct base *b, struct cnf *c, const struct program *p, const bool *exec);

#endif
