/* Fair infinite repetition: when a thread stops in a spinning iteration
 * or after an iteration that claims to repeat earlier ones, the bounded
 * execution must extend to an infinite, fair and consistent one.  This is
 * the prefix/infix/suffix decomposition of Dat3M's NonTerminationEncoder. */
#ifndef GPUBMC_REPETITION_H
#define GPUBMC_REPETITION_H

#include "encoders/exec.h"

/* Adds the decomposition constraints for every loop iteration of x: the
 * suffix (the iterations that repeat for ever) mirrors the infix before
 * it in values, local state, rf and co; prefix writes are coherence-before
 * suffix writes; only the suffix reads suffix writes; the suffix reads no
 * prefix write but a coherence-last one; barriers in the suffix meet only
 * barriers in the suffix. */
void repetition_encode(struct cnf *c, const struct program *p, const struct exec_enc *x);

#endif
