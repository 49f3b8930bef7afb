/* Strong fairness on an explored state graph (bmc/concrete/states.h), as the
 * forward-progress study defines it (its CADP property
 * FreeFromStrongDeadlockLasso): an escape that stays possible is
 * eventually taken, so a program hangs only if it can reach a state from
 * which no schedule of the threads the scheduler guarantees leads to
 * termination or to a state where it guarantees no thread. */
#ifndef GPUBMC_STRONG_H
#define GPUBMC_STRONG_H

#include "bmc/concrete/lasso.h"

/* Whether the strong model m hangs on g (1) or not (0): then la gets a
 * lasso into a trap (a stem to a state from which, for some way the
 * scheduler may share progress there, every schedule of the threads it
 * guarantees stays among states with no escape, and a cycle of such
 * steps there), and guaranteed[0..nthreads) the threads of that way at
 * its entry.  0 when from every reachable state every way has a schedule
 * that escapes; -1 when a state has more ways than FAIR_MAX_SHARES. */
int strong_find(const struct state_graph *g, const struct fair_tree *tr, enum progress_model m, struct lasso *la,
                bool *guaranteed);

#endif
