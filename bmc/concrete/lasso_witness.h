/* A lasso (bmc/concrete/lasso.h) as a witness execution: the stem and one pass
 * round the cycle as an execution of the unrolled program, re-checked by
 * the concrete evaluator, in the JSON format of bmc/concrete/witness.h with a
 * "lasso" object added and "stuck" saying what each thread does for ever. */
#ifndef GPUBMC_LASSO_WITNESS_H
#define GPUBMC_LASSO_WITNESS_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "bmc/concrete/eval_memo.h"
#include "bmc/concrete/lasso.h"
#include "models/model.h"

/* The re-check of one termination check's lassos: the unrolled program
 * each loop bound needs and the concrete evaluations of its executions,
 * shared by the check's lassos (one per progress model), which often are
 * one execution. */
struct lasso_recheck {
    const struct litmus *l;
    const struct model_desc *md;
    const char *const *disabled;
    int ndisabled;
    const struct program *lent;   /* lasso_recheck_lend's program, NULL: none */
    int nunrolled, cap;
    struct unrolled {
        int bound;
        const struct program *p;
        struct program *built;   /* p when rc built it (freed with rc); NULL when
                                    lent (lasso_recheck_lend) */
        struct eval_memo memo;
    } *unrolled;
};

/* An empty re-check for lassos of graphs explored from l, under model md
 * with the axioms disabled[0..ndisabled) off. */
void lasso_recheck_init(struct lasso_recheck *rc, const struct litmus *l, const struct model_desc *md,
                        const char *const *disabled, int ndisabled);
/* Lassos whose run needs p's bound are re-checked as executions of p
 * (l unrolled, as program_build does, when p->lit is rc's l) instead of
 * a program built again; p must outlive rc, which does not free it.  One
 * program at a time: a later call replaces it. */
void lasso_recheck_lend(struct lasso_recheck *rc, const struct program *p);
/* Frees the unrolled programs (not a lent one) and evaluations. */
void lasso_recheck_free(struct lasso_recheck *rc);

/* Re-checks lasso la of graph g as an execution: steps of a thread that
 * bring it back to where it was without writing are left out (they change
 * nothing any other thread sees), so that the unrolled program holds the
 * run; every thread that never ends is stopped where the cycle leaves it;
 * the concrete evaluator must find it consistent and its run must be the
 * lasso's.  True when it does; with witness, *witness gets the JSON.
 * False, with why filled, when the evaluator rejects it (a bug). */
bool lasso_witness(struct lasso_recheck *rc, const struct state_graph *g, const struct lasso *la, cJSON **witness,
                   char *why, size_t len);

#endif
