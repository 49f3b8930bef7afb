/* Lazy acyclicity: instead of encoding the transitive closure of an
 * acyclicity axiom's relation, the checker solves without it, looks for a
 * cycle in the solver's model and forbids exactly that cycle, until the
 * model has none (counterexample-guided refinement). */
#ifndef GPUBMC_REFINE_H
#define GPUBMC_REFINE_H

#include "encoders/cnf.h"
#include "encoders/rel.h"

/* Finds short cycles of r in the solver's current model and adds, for
 * each, the clause "act implies not all of these edges".  Returns the
 * number of cycles forbidden (0: r is acyclic in the model).  The model's
 * graph is read from r's pairs as bits (rel_value), and only a cycle's
 * edges get literals; each edge's literal is checked true in the model,
 * else (never seen) the graph is read again from every literal of r. */
int refine_acyclic(struct cnf *c, const struct rel *r, lit act);

#endif
