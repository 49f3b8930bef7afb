/* Concrete evaluation of one candidate execution: interpretation, base
 * relations, the model's axioms and the final-state conditions, all
 * without a solver.  Re-checks SAT witnesses and drives the oracle. */
#ifndef GPUBMC_EVALUATE_H
#define GPUBMC_EVALUATE_H

#include "bmc/concrete/interp.h"
#include "models/model.h"

struct evaluation {
    struct concrete x;
    struct cnf *c;           /* constant-only */
    struct base b;
    struct model_out m;
    bool consistent;         /* valid and no enabled axiom violated */
    const char *violated;    /* the first violated axiom, if any */
    bool terminated;         /* every thread reached its end */
    bool bound_hit;          /* some thread was cut at the bound */
    bool filter, assertion;  /* final-state conditions (true when absent) */
};

/* Evaluates the choice under model md with the axioms named in disabled[]
 * switched off, as an execution of skeleton k (model_skeleton, or
 * model_skeleton_without_facts). */
void evaluate(const struct program *p, const struct model_desc *md, const struct skeleton *k,
              const char *const *disabled, int ndisabled, const struct choice *ch, struct evaluation *ev);
/* Frees an evaluation. */
void evaluation_free(const struct program *p, struct evaluation *ev);

/* True when axiom name is in disabled[0..n-1]. */
bool axiom_disabled(const char *name, const char *const *disabled, int n);

#endif
