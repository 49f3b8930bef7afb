/* CaDiCaL sessions that answer from an earlier session of this process
 * while they make the same calls (encoders/solver_replay.c). */
#ifndef GPUBMC_SOLVER_REPLAY_H
#define GPUBMC_SOLVER_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

/* One solver session: its calls mirror CaDiCaL's C interface. */
struct replay;

/* A new session (no solver is made until one is needed). */
struct replay *replay_new(void);
/* Adds the clauses lits[0..n), each ended by 0. */
void replay_clauses(struct replay *r, const int *lits, size_t n);
/* Assumes lit for the next solve. */
void replay_assume(struct replay *r, int lit);
/* Limits the next solve to the given number of conflicts. */
void replay_limit_conflicts(struct replay *r, int conflicts);
/* Solves: 10 satisfiable, 20 unsatisfiable, 0 limit reached. */
int replay_solve(struct replay *r);
/* The value of lit in the last model (> 0 true, < 0 false). */
int replay_val(struct replay *r, int lit);
/* Whether assumption lit is among the reasons of the last UNSAT answer. */
bool replay_failed(struct replay *r, int lit);
/* Ends the session; a session that solved for itself is kept for later
 * sessions to replay (within a budget for the process). */
void replay_free(struct replay *r);
/* Whether the session has made its solver (its calls departed from every
 * recorded session's, or none is kept). */
bool replay_has_solver(const struct replay *r);

#endif
