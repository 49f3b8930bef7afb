/* Literals, clauses and structurally hashed gates over CaDiCaL.
 *
 * A cnf works in one of two modes.  With a solver, gates create variables
 * and Tseitin clauses.  Without one ("concrete" mode) every input is a
 * constant, every gate folds to LIT_TRUE or LIT_FALSE, and asking for a
 * fresh variable is a programming error.  Models written against this layer
 * therefore evaluate one given execution for free. */
#ifndef GPUBMC_CNF_H
#define GPUBMC_CNF_H

#include <stdbool.h>
#include <stddef.h>

typedef int lit;

#define LIT_TRUE 1
#define LIT_FALSE (-1)

struct cnf;

/* Creates a cnf backed by a fresh CaDiCaL solver (with_solver) or a
 * constant-only cnf for concrete evaluation. */
struct cnf *cnf_new(bool with_solver);
/* The next cnf made with a solver also writes its clauses to path, in
 * DIMACS (the header when it is freed); for benchmarks. */
void cnf_dimacs_first(const char *path);
/* Releases the cnf and its solver. */
void cnf_free(struct cnf *c);
/* True when the cnf has a solver (symbolic mode). */
bool cnf_symbolic(const struct cnf *c);

/* A fresh unconstrained variable (symbolic mode only). */
lit cnf_var(struct cnf *c);
/* Constant literal for a boolean. */
static inline lit lit_of(bool b) { return b ? LIT_TRUE : LIT_FALSE; }
/* True when l is LIT_TRUE or LIT_FALSE. */
static inline bool lit_is_const(lit l) { return l == LIT_TRUE || l == LIT_FALSE; }

/* Adds the clause l[0] | ... | l[n-1], folding constants; in concrete mode
 * a clause that folds to false is a programming error and aborts. */
void cnf_clause(struct cnf *c, const lit *l, int n);
/* Adds a one-, two- or three-literal clause. */
void cnf_unit(struct cnf *c, lit a);
void cnf_clause2(struct cnf *c, lit a, lit b);
void cnf_clause3(struct cnf *c, lit a, lit b, lit d);
/* Adds a -> b. */
static inline void cnf_imply(struct cnf *c, lit a, lit b) { cnf_clause2(c, -a, b); }
/* Adds a -> -e; when e is an AND gate, as the clause of -a and its negated
 * inputs (flattened through nested ANDs, up to a few literals), so the
 * gate itself costs no clause. */
void cnf_forbid(struct cnf *c, lit a, lit e);

/* Gates: constant-folded and structurally hashed.  A gate's defining
 * clauses reach the solver on demand: when a clause or an assumption
 * mentions its output, the half of the definition that sign needs
 * (Plaisted-Greenbaum), transitively; a gate nothing mentions costs
 * nothing.  An AND gate's half is over its conjuncts flattened through
 * the AND gates whose half the solver lacks (an n-ary AND's clauses).
 * Every satisfiable query stays satisfiable and every model read through
 * cnf_value is exact, since gates are evaluated from their inputs. */
/* The AND gate of two literals that fold to no constant or operand
 * (cnf_and's out-of-line part). */
lit cnf_and_gate(struct cnf *c, lit a, lit b);
/* a & b: a constant, an operand, or the hashed gate; the folds in place. */
static inline lit cnf_and(struct cnf *c, lit a, lit b)
{
    if (a == LIT_FALSE || b == LIT_FALSE || a == -b)
        return LIT_FALSE;
    if (a == LIT_TRUE || a == b)
        return b;
    if (b == LIT_TRUE)
        return a;
    return cnf_and_gate(c, a, b);
}
/* a | b, as -(-a & -b). */
static inline lit cnf_or(struct cnf *c, lit a, lit b) { return -cnf_and(c, -a, -b); }
lit cnf_xor(struct cnf *c, lit a, lit b);
lit cnf_iff(struct cnf *c, lit a, lit b);
lit cnf_ite(struct cnf *c, lit s, lit t, lit e);
lit cnf_and_n(struct cnf *c, const lit *l, int n);
lit cnf_or_n(struct cnf *c, const lit *l, int n);
/* Makes v, a variable of cnf_var with no definition yet, the OR of
 * l[0..n): a gate from now on, its halves handed over on demand (both now
 * when a clause already names v).  For a variable made before its inputs
 * (a read's value bits, defined by its reads-from choices).  One clause per
 * half and input at most (the positive half: one clause of n + 1). */
void cnf_define_or(struct cnf *c, lit v, const lit *l, int n);
/* The transitive closure t of the relation r over n nodes, given as sorted
 * rows (row i is col/val[start[i] .. start[i+1]), no LIT_FALSE entry):
 * t(i, j) is true iff a path of r leads from i to j.  Returns its number
 * for cnf_closure_at and cnf_closure_row.  Its entries are lazily defined
 * like gates, made when first asked for; the half "a path implies t" of
 * a big closure is added only for the paths a model shows (see closure.c). */
int cnf_closure(struct cnf *c, int n, const int *start, const int *col, const lit *val);
/* The literal of t(i, j) in closure id. */
lit cnf_closure_at(struct cnf *c, int id, int i, int j);
/* The number of entries of row i (column i when col) of closure id, none made. */
int cnf_closure_row_size(struct cnf *c, int id, int i, bool col);
/* Row i (column i when col) of closure id (sorted, no LIT_FALSE entry),
 * valid until cnf_free; returns its length. */
int cnf_closure_row(struct cnf *c, int id, int i, bool col, const int **cols, const lit **lits);
/* Constrains the pairs of rows (start, col, val) over n nodes, literal
 * l(i, j) meaning "i before j", to be transitive; antisymmetry and
 * totality are the caller's.  Small orders get every transitivity clause
 * now, big ones those that a model shows missing (see order.c). */
void cnf_order(struct cnf *c, int n, const int *start, const int *col, const lit *val);
/* Constrains at most one of l[0..n-1] to be true. */
void cnf_at_most_one(struct cnf *c, const lit *l, int n);

/* Solving (symbolic mode only). Returns 10 (SAT) or 20 (UNSAT); a model
 * satisfies every closure and order definition (see above). */
int cnf_solve(struct cnf *c, const lit *assumptions, int n);
/* The same, giving up with 0 after the given number of conflicts in one
 * call of the solver (a negative number: no limit). */
int cnf_solve_limited(struct cnf *c, const lit *assumptions, int n, int conflicts);
/* Value of a variable's literal in the last model (gates evaluated from
 * their inputs); cnf_value's out-of-line part. */
bool cnf_value_of(struct cnf *c, lit l);
/* Value of a literal in the last model: a constant's in place, any other's
 * by cnf_value_of. */
static inline bool cnf_value(struct cnf *c, lit l)
{
    return l == LIT_TRUE || (l != LIT_FALSE && cnf_value_of(c, l));
}
/* The number of the solver's last model: each solve makes a new one. */
unsigned cnf_model_number(const struct cnf *c);
/* True when assumption l was part of the last UNSAT core. */
bool cnf_failed(struct cnf *c, lit l);

/* Counts for statistics. */
int cnf_num_vars(const struct cnf *c);
long cnf_num_clauses(const struct cnf *c);

#endif
