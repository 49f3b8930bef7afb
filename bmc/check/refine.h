/* Lazy acyclicity: instead of encoding the transitive closure of an
 * acyclicity axiom's relation, the checker solves without it, looks for a
 * cycle in the solver's model and forbids exactly that cycle, until the
 * model has none (counterexample-guided refinement). */
#ifndef GPUBMC_REFINE_H
#define GPUBMC_REFINE_H

#include "encoders/cnf.h"
#include "encoders/rel.h"

/* The cycles a session forbade from graphs read as bits (rel_value), each
 * with its relation and literal act: its nodes, in order, are
 * nodes[at .. at + len). */
struct refined { const struct rel *r; lit act; int at, len; };
struct refine_log {
    struct refined *v;
    int n, cap;
    int *nodes;
    int nnodes, nodes_cap;
};

/* Finds short cycles of r in the solver's current model and adds, for
 * each, the clause "act implies not all of these edges".  Returns the
 * number of cycles forbidden (0: r is acyclic in the model).  The model's
 * graph is read from r's pairs as bits (rel_value), and only a cycle's
 * edges get literals; those cycles go in log.  A clause holds in every
 * later model in which act is assumed, so a logged cycle of r and act
 * that the bits show again means they disagree with the literals' values
 * (never seen): the graph is then read from every literal of r. */
int refine_acyclic(struct cnf *c, const struct rel *r, lit act, struct refine_log *log);
/* Frees what log holds (a zeroed log holds nothing). */
void refine_log_free(struct refine_log *log);

#endif
