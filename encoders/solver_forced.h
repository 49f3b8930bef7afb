/* Solves that unit propagation alone decides (encoders/solver_forced.c). */
#ifndef GPUBMC_SOLVER_FORCED_H
#define GPUBMC_SOLVER_FORCED_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* The calls of a solver session as solver_replay.c keeps them: one int for
 * a literal added (0 ends a clause), two for the others: the operation,
 * below every literal, and its argument. */
enum solver_op { OP_ASSUME = INT_MIN, OP_LIMIT, OP_SOLVE, OP_VAL, OP_FAILED };

/* How a solve was decided without a solver (forced_answer). */
enum forced {
    NOT_DECIDED,
    ONLY_MODEL,      /* satisfiable: propagation fixed every variable */
    CONFLICT_CORE,   /* unsatisfiable: propagation met a conflict */
    SEARCHED_MODEL,  /* satisfiable: the search found a model, one of perhaps many */
    SEARCHED_NONE    /* unsatisfiable: the search ruled out every assignment */
};

/* Decides a solve after the calls calls[0..n), over their clauses and the
 * assumptions made since their last solve, when no conflict limit was
 * ever set, by unit propagation and then, when it decides nothing and
 * budget > 0, by a search of at most budget conflicts; *model (grown as
 * needed, its capacity *cap) holds by variable:
 *  - ONLY_MODEL, propagation fixed every variable up to the largest they
 *    name: that assignment, the only model, which any solver answers:
 *    (*model)[v] is 1 for a true variable v, -1 for a false one;
 *  - CONFLICT_CORE, propagation met a conflict (the empty clause,
 *    clashing units, an assumption against what is assigned, a clause
 *    all false): the failed assumptions, those the conflict rests on
 *    (following each assignment's reason): bit 1 of (*model)[v] is set
 *    when assumption v is one, bit 2 when -v is; the clauses with those
 *    assumptions have no model;
 *  - SEARCHED_MODEL: the model the search found, one of perhaps many:
 *    (*model)[v] is 1 or -1 for a variable that propagation fixed before
 *    the search (true or false in every model, so any solver's value),
 *    2 or -2 for one the search set (which a solver may set otherwise);
 *  - SEARCHED_NONE: nothing to read (which core, is the solver's own). */
enum forced forced_answer(const int *calls, size_t n, int budget, signed char **model, size_t *cap);

#endif
