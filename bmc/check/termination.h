/* Termination under a progress model: the conditions under which a
 * bounded execution shows a thread that never terminates. */
#ifndef GPUBMC_TERMINATION_H
#define GPUBMC_TERMINATION_H

#include <stddef.h>

#include "encoders/exec.h"
#include "encoders/progress.h"

struct fair_tree;   /* bmc/concrete/fair.h */

/* Adds the fair repetition of stuck loops (bmc/check/repetition.h); returns the
 * literal "some thread is stuck for ever": it spins, repeats effectful
 * iterations, or waits at a barrier that never opens.  x must have been
 * encoded with SX_MAY_REPEAT. */
lit termination_encode(struct cnf *c, const struct program *p, struct exec_enc *x);

/* Adds model m's scheduling constraints under hierarchy h (NULL: none)
 * under a fresh literal, returned: assumed, they hold.  x must have been
 * encoded with SX_MAY_HALT unless every scheduler is fair. */
lit termination_progress(struct cnf *c, const struct program *p, const struct exec_enc *x,
                         enum progress_model m, const struct progress_hierarchy *h);

/* Whether the solver's current model is fair under model m and hierarchy
 * h: whether its threads' facts (started, halted, terminated, blocked)
 * meet the constraints termination_progress adds for m (progress_admits),
 * whether or not m's literal is true in it.  x must have been encoded
 * with SX_MAY_HALT unless m is fair everywhere. */
bool termination_fair_now(struct cnf *c, const struct program *p, const struct exec_enc *x, enum progress_model m,
                          const struct progress_hierarchy *h);

/* Names the stuck threads of the solver's current model, e.g.
 * "P1 spins for ever at line 9; P0 waits for ever at `bar.cta.sync 0`". */
void termination_describe(struct cnf *c, const struct program *p, const struct exec_enc *x,
                          char *buf, size_t len);
/* Appends to buf, for each thread the scheduler stopped for good in the
 * solver's current model, "; the scheduler never runs P1 again (QF 0
 * (obe) owes WG 1 nothing)": which scope's scheduler under model m lets it
 * starve, in tr (fair_tree_build of the program and the hierarchy). */
void termination_starved(struct cnf *c, const struct program *p, const struct exec_enc *x, enum progress_model m,
                         const struct fair_tree *tr, char *buf, size_t len);
/* Whether the solver's current model, a hang in which no thread repeats a
 * loop that writes, ends in a trap under strong model m and hierarchy h:
 * the scheduler may guarantee progress at its end to a set of threads
 * (bmc/concrete/fair.h, fair_shares, read on which threads started and
 * terminated; one of its ways, when minimal progress leaves it a choice)
 * that is not empty and whose every thread spins or waits for ever, none
 * stopped by the scheduler.  Then only those threads may step, none of
 * them writes, and none ever terminates.  who gets their names ("P0, P1"). */
bool termination_trapped(struct cnf *c, const struct program *p, const struct exec_enc *x, enum progress_model m,
                         const struct progress_hierarchy *h, char *who, size_t len);
/* The same, short: "P1 spins, P0 waits". */
void termination_brief(struct cnf *c, const struct program *p, const struct exec_enc *x,
                       char *buf, size_t len);

#endif
