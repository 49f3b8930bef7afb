/* Internals of the CNF layer, shared by cnf.c (gates, clauses, solving) and
 * its extensions: closures (closure.c and closure_lazy.c, through
 * closure_impl.h) and strict orders (order.c); nothing else includes it. */
#ifndef GPUBMC_CNF_IMPL_H
#define GPUBMC_CNF_IMPL_H

#include <stdio.h>

#include "encoders/cnf.h"
#include "encoders/solver_replay.h"

enum gate_op { GATE_AND = 1, GATE_XOR = 2, GATE_CLOSURE = 3, GATE_OR = 4 };

/* Which halves of a gate's definition the solver has: out -> body (the
 * output occurs positively somewhere) and body -> out (it occurs negatively). */
enum { SIDE_POS = 1, SIDE_NEG = 2 };

/* The definition of a gate variable, kept so clauses are emitted on demand;
 * for GATE_CLOSURE, a and b are the extension's own (closure and entry);
 * for GATE_OR (cnf_define_or), the inputs are or_lits[a .. a + b). */
struct gate_def { unsigned char op, sides; lit a, b; };

struct gate_slot { int op; lit a, b, out; };

/* An extension of the cnf, reached only through these pointers (so cnf.c
 * names nothing of the files that provide them): gates defined on demand
 * (closures, EXT_CLOSURE, whose gates are GATE_CLOSURE) and constraints
 * checked after each satisfying model (strict orders, EXT_ORDER). */
struct cnf_ext {
    /* Emits the given side of gate o's definition and pushes what it needs
     * on the work stack at depth top; returns the new depth. */
    size_t (*require)(struct cnf *c, lit o, int side, size_t top);
    /* Pushes the pending inputs of gate o at depth top and returns the new
     * depth; when none is pending, evaluates o (and what shares its work). */
    size_t (*evaluate)(struct cnf *c, lit o, size_t top);
    /* After a satisfying model (solver values still readable): adds the
     * clauses its constraints lack for that model; returns how many. */
    long (*refine)(struct cnf *c);
    /* Frees the extension's state. */
    void (*release)(struct cnf *c);
};

enum { EXT_ORDER, EXT_CLOSURE, EXT_COUNT };   /* refined in this order: orders first */

struct cnf {
    struct replay *solver;     /* CaDiCaL's session; NULL in a constant-only cnf */
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
    const struct cnf_ext *ext[EXT_COUNT];
    void *ext_state[EXT_COUNT];
    FILE *dimacs;              /* the clauses are also written here (cnf_dimacs_first) */
    lit *pending;              /* clauses not handed to the solver yet, each ended by 0 */
    size_t npending, pending_cap;
    int *solver_var;           /* by variable: its index in the solver, 0 while no clause
                                  or assumption has named it (gates no clause needs) */
    int solver_vars;           /* the variables the solver has */
    lit *or_lits;              /* the inputs of the GATE_OR gates, one run each */
    size_t nor_lits, or_lits_cap;
    unsigned char *named;      /* by variable: named by pending[0 .. named_upto) (cnf_define_or) */
    signed char *fixed;        /* by solver index: 1 or -1 once a unit clause the solver has fixes it */
    size_t fixed_cap;
    int solver_top;            /* the solver has made every variable up to this index (a step
                                  of introduce_at_once named it): a clause over them it would
                                  drop may go unsaid */
    size_t named_upto;
};

/* The solver's value of literal l in its last model (> 0 true, < 0 false),
 * readable until the next solve. */
int cnf_solver_val(struct cnf *c, lit l);
/* A fresh variable whose definition is def. */
lit cnf_gate_var(struct cnf *c, struct gate_def def);
/* Pushes l on the work stack at depth top; returns the new depth. */
size_t cnf_push(struct cnf *c, size_t top, lit l);
/* Hands the clause l[0..n-1] to the solver with constants folded, and no
 * requirement on its literals (the caller pushes those it needs). */
void cnf_emit(struct cnf *c, const lit *l, int n);
/* Gives the solver what literal l occurring in a clause (or assumed) needs:
 * for a gate output, the half of its definition that l's sign uses, and so
 * on down through the gates that half mentions (Plaisted-Greenbaum).  A
 * gate that no clause mentions costs nothing. */
void cnf_require(struct cnf *c, lit l);
/* Value in the last model of a constant, a plain variable or a gate
 * already evaluated in this generation. */
bool cnf_known_value(struct cnf *c, lit l);
/* True when l's variable is a gate not yet evaluated in this generation. */
bool cnf_pending(const struct cnf *c, lit l);

#endif
