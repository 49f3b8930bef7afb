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

/* Whether unit propagation over the clauses of calls[0..n) and the
 * assumptions made since their last solve fixes every variable up to the
 * largest they name, with no conflict and no conflict limit ever set:
 * then that assignment is the only model, which any solver answers, and
 * (*model)[v] is 1 for a true variable v, -1 for a false one (*model
 * grown as needed, its capacity *cap). */
bool forced_model(const int *calls, size_t n, signed char **model, size_t *cap);

#endif
