/* Symmetry breaking for interchangeable threads.
 *
 * Threads with the same code, the same initial registers and symmetric
 * places in the scope tree, that the condition, the filter, `locations`
 * and ssw pairs do not name, can be permuted in any execution without
 * changing its consistency or its final memory.  Of every set of
 * executions that differ only by such a permutation, it is enough to
 * search one: the one whose first writes are coherence-ordered by thread
 * index (a linear extension of co on them always exists, and sorting the
 * threads along it is such a permutation).  The checks whose answer
 * depends on thread identity (termination under a progress model,
 * enumeration of outcomes over registers) must not use it. */
#ifndef GPUBMC_SYMMETRY_H
#define GPUBMC_SYMMETRY_H

#include "program/program.h"
#include "encoders/cnf.h"
#include "encoders/rel.h"

/* Adds, for every two consecutive threads of a set of interchangeable
 * ones, "the later thread's first write is not co-before the earlier
 * one's"; returns the number of clauses added. */
int symmetry_break(struct cnf *c, const struct program *p, const struct rel *co);

#endif
