/* Internals of the CNF layer, shared by cnf.c (gates, clauses, solving) and
 * closure.c (transitive closures); nothing outside those two includes it. */
#ifndef GPUBMC_CNF_IMPL_H
#define GPUBMC_CNF_IMPL_H

#include <ccadical.h>

#include "encoders/cnf.h"

enum gate_op { GATE_AND = 1, GATE_XOR = 2, GATE_CLOSURE = 3 };

/* Which halves of a gate's definition the solver has: out -> body (the
 * output occurs positively somewhere) and body -> out (it occurs negatively). */
enum { SIDE_POS = 1, SIDE_NEG = 2 };

/* The definition of a gate variable, kept so clauses are emitted on demand;
 * for GATE_CLOSURE, a is the closure's index and b the entry i * n + j. */
struct gate_def { unsigned char op, sides; lit a, b; };

struct gate_slot { int op; lit a, b, out; };

/* The transitive closure t of a relation r over n nodes (both n * n). */
struct closure {
    int n;
    lit *r, *t;
    lit *exact;                /* Warshall gates for t, built when a t entry occurs positively */
    unsigned evaluated_at;     /* generation of the last evaluation */
};

struct cnf {
    CCaDiCaL *solver;
    int nvars;
    long nclauses;
    struct gate_slot *table;   /* open addressing; op == 0 means empty */
    size_t cap, used;
    struct gate_def *defs;     /* by variable; op == 0: not a gate */
    size_t defs_cap;
    lit *work;                 /* stack for require() and gate evaluation */
    size_t work_cap;
    unsigned generation;       /* bumped by every solve: invalidates eval_at */
    int model_vars;            /* variables 1..model_vars have a value in the last model (0: none) */
    bool core_valid;           /* the last solve was UNSAT and no clause came since */
    unsigned *eval_at;         /* by variable: generation of eval_val */
    bool *eval_val;            /* by variable: a gate's evaluated value, a plain variable's model value */
    struct closure *closures;
    int nclosures, closures_cap;
};

/* A fresh variable whose definition is def. */
lit cnf_gate_var(struct cnf *c, struct gate_def def);
/* Pushes l on the work stack at depth top; returns the new depth. */
size_t cnf_push(struct cnf *c, size_t top, lit l);
/* Hands the clause l[0..n-1] to the solver with constants folded, and no
 * requirement on its literals (the caller pushes those it needs). */
void cnf_emit(struct cnf *c, const lit *l, int n);
/* Value in the last model of a constant, a plain variable or a gate
 * already evaluated in this generation. */
bool cnf_known_value(struct cnf *c, lit l);
/* True when l's variable is a gate not yet evaluated in this generation. */
bool cnf_pending(const struct cnf *c, lit l);

/* Emits the given side of closure entry o's definition and pushes what it
 * needs on the work stack at depth top; returns the new depth. */
size_t closure_require(struct cnf *c, lit o, int side, size_t top);
/* Pushes the pending inputs of closure entry o at depth top and returns the
 * new depth; when none is pending, evaluates every entry of its closure. */
size_t closure_evaluate(struct cnf *c, lit o, size_t top);
/* Releases every closure. */
void closures_free(struct cnf *c);

#endif
