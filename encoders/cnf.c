/* CNF construction: constant folding, structural hashing, Tseitin clauses. */
#include "encoders/cnf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encoders/cnf_impl.h"
#include "util/xalloc.h"

static void grow_vars(struct cnf *c);
static void hand_over(struct cnf *c, lit l);
static void room_for(struct cnf *c, size_t n);

/* The first capacities of the per-variable arrays and of the gate table: a
 * typical session has a few dozen variables and gates (a median of 42 and
 * 11 over the corpus), and a larger first table is zeroed for nothing;
 * the arrays double as they fill, the gate table grows fourfold (each
 * growth zeroes and rehashes the whole table: over the corpus batch's
 * worker, fourfold takes 0.46 M fewer instructions than twofold, eightfold
 * 0.24 M more than twofold).  Over that worker, 128 variables first take 0.06 M fewer
 * instructions than 64 (fewer regrowths), 256 take 1.8 M more; a gate
 * table of 32 first takes 0.14 M more, 256 1.9 M more (growing twofold;
 * fourfold, 32 first takes 0.46 M more than 64). */
#define VARS_FIRST 128
#define GATE_TABLE_FIRST 64
#define GATE_TABLE_GROWTH 4

/* Where the next symbolic cnf writes its clauses (NULL: nowhere). */
static const char *dimacs_path;

/* The DIMACS header, rewritten in place when the cnf is freed: fixed width. */
#define DIMACS_HEADER "p cnf %10d %12ld\n"

void cnf_dimacs_first(const char *path) { dimacs_path = path; }

struct cnf *cnf_new(bool with_solver)
{
    struct cnf *c = xcalloc(1, sizeof *c);
    c->nvars = 1;                       /* variable 1 is the constant true */
    if (with_solver) {   /* a constant-only cnf has no variable and no gate: no tables */
        grow_vars(c);
        c->solver_var[0] = 1;   /* no variable: the 0 ending a pending clause is not new to the solver */
        c->cap = GATE_TABLE_FIRST;
        c->table = xcalloc(c->cap, sizeof *c->table);
        c->solver = replay_new();
        if (dimacs_path) {
            c->dimacs = fopen(dimacs_path, "w");
            dimacs_path = NULL;
            if (c->dimacs)
                fprintf(c->dimacs, DIMACS_HEADER, 0, 0L);
        }
        room_for(c, 2);
        hand_over(c, LIT_TRUE);
        hand_over(c, 0);
    }
    return c;
}

void cnf_free(struct cnf *c)
{
    if (!c)
        return;
    replay_free(c->solver);
    if (c->dimacs) {
        rewind(c->dimacs);
        fprintf(c->dimacs, DIMACS_HEADER, c->nvars, c->nclauses + 1);
        fclose(c->dimacs);
    }
    free(c->table);
    free(c->defs);
    free(c->work);
    free(c->eval_at);
    free(c->eval_val);
    free(c->pending);
    free(c->solver_var);
    free(c->named);
    free(c->fixed);
    free(c->or_lits);
    for (int k = 0; k < EXT_COUNT; k++)
        if (c->ext[k])
            c->ext[k]->release(c);
    free(c);
}

bool cnf_symbolic(const struct cnf *c) { return c->solver != NULL; }

/* Makes the per-variable arrays large enough for variable c->nvars (the
 * caller found them too small: c->nvars >= c->defs_cap). */
static void grow_vars(struct cnf *c)
{
    size_t old = c->defs_cap, cap = xcapacity(old, (size_t)c->nvars + 1, VARS_FIRST);
    XRESIZE(c->defs, cap);
    XRESIZE(c->eval_at, cap);
    XRESIZE(c->eval_val, cap);
    XRESIZE(c->solver_var, cap);
    XRESIZE(c->named, cap);
    memset(c->defs + old, 0, (cap - old) * sizeof *c->defs);
    memset(c->named + old, 0, (cap - old) * sizeof *c->named);
    memset(c->solver_var + old, 0, (cap - old) * sizeof *c->solver_var);
    memset(c->eval_at + old, 0, (cap - old) * sizeof *c->eval_at);
    c->defs_cap = cap;
}

lit cnf_var(struct cnf *c)
{
    if (!c->solver) {
        fprintf(stderr, "gpubmc: internal error: fresh variable in concrete mode\n");
        abort();
    }
    c->nvars++;
    if ((size_t)c->nvars >= c->defs_cap)
        grow_vars(c);
    return c->nvars;
}

lit cnf_gate_var(struct cnf *c, struct gate_def def)
{
    lit o = cnf_var(c);
    c->defs[o] = def;
    return o;
}

size_t cnf_push(struct cnf *c, size_t top, lit l)
{
    XGROW_FROM(c->work, c->work_cap, top + 1, 256);
    c->work[top] = l;
    return top + 1;
}

/* Gives the solver (and the DIMACS copy) literal l of the clause being
 * added; 0 ends it.  The caller has made room (room_for). */
static void hand_over(struct cnf *c, lit l)
{
    c->pending[c->npending++] = l;
    if (c->dimacs)
        fprintf(c->dimacs, l ? "%d " : "%d\n", l);
}

/* Makes room for n more literals in the pending clauses. */
static void room_for(struct cnf *c, size_t n)
{
    XGROW_FROM(c->pending, c->pending_cap, c->npending + n, 1024);
}

/* Literal l in the solver's numbering (numbering its variable now if no
 * clause or assumption has named it yet). */
static int solver_lit(struct cnf *c, lit l)
{
    int v = l > 0 ? l : -l;
    if (!c->solver_var[v])
        c->solver_var[v] = ++c->solver_vars;
    return l > 0 ? c->solver_var[v] : -c->solver_var[v];
}

static int by_var(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

/* Makes CaDiCaL create its variables up to top in one step, not one per
 * literal that names a new largest one (each step grows its per-variable
 * tables: about 2,000 instructions).  The clause top | -top does it: the
 * solver numbers every variable up to the largest it is given, and drops a
 * tautology, adding no clause; the clauses or assumptions that follow name
 * top, so it knows no variable it would not have known. */
static void introduce_at_once(struct replay *solver, int top)
{
    int clause[3] = { top, -top, 0 };
    replay_clauses(solver, clause, 3);
}

/* Folds clause l[0..n) (in the solver's numbering) as CaDiCaL does on
 * adding it: one a unit clause it has satisfies is dropped (returns -1)
 * unless it names an index above c->solver_top, where handing it over
 * makes the solver create that variable (it stays whole, as one falsified
 * whole does); any other loses the literals those units falsify, and a
 * unit clause left fixes its variable.  Returns the length kept at l. */
static int fold_clause(struct cnf *c, lit *l, int n)
{
    int top = 0, unfixed = 0;
    bool satisfied = false;
    for (int i = 0; i < n; i++) {
        int s = l[i] > 0 ? l[i] : -l[i], value = l[i] > 0 ? c->fixed[s] : -c->fixed[s];
        top = s > top ? s : top;
        satisfied = satisfied || value > 0;
        unfixed += value == 0;
    }
    if (satisfied && top <= c->solver_top)
        return -1;
    if (satisfied || unfixed == 0)
        return n;
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (c->fixed[l[i] > 0 ? l[i] : -l[i]] == 0)
            l[kept++] = l[i];
    if (kept == 1)
        c->fixed[l[0] > 0 ? l[0] : -l[0]] = (signed char)(l[0] > 0 ? 1 : -1);
    return kept;
}

/* Puts the pending clauses in the solver's numbering, in place, less what
 * CaDiCaL drops as it adds them (fold_clause): a clause a unit clause it
 * has satisfies, a literal one falsifies.  The clauses it stores, in
 * their order and with their literals in theirs, are the same, and so is
 * its search; what goes is the cost of handing it a literal (about 180
 * instructions: over the corpus batch's worker, 2.8 M fewer in CaDiCaL
 * for 1.6 M here).  Returns the length of what is kept. */
static size_t fold_pending(struct cnf *c)
{
    const int *solver_var = c->solver_var;
    const signed char *fixed = c->fixed;   /* grows only in flush, before */
    lit *w = c->pending, *start = w, *end = c->pending + c->npending;
    int any = 0;   /* some literal of the clause has a fixed variable */
    for (const lit *p = c->pending; p < end; p++) {
        lit l = *p;
        if (l) {
            int s = solver_var[l > 0 ? l : -l];
            any |= fixed[s];
            *w++ = l > 0 ? s : -s;
            continue;
        }
        if (any) {
            int kept = fold_clause(c, start, (int)(w - start));
            w = start + (kept < 0 ? 0 : kept);
            if (kept < 0) {
                any = 0;
                continue;
            }
        } else if (w == start + 1) {   /* a unit clause: its variable is fixed from now on */
            c->fixed[*start > 0 ? *start : -*start] = (signed char)(*start > 0 ? 1 : -1);
        }
        *w++ = 0;
        start = w;
        any = 0;
    }
    return (size_t)(w - c->pending);
}

/* Hands the pending clauses to the solver, then assumes assumptions[0..n).
 * Only the variables they name are numbered there (a gate no clause needs
 * is not): those of the clauses in increasing order of ours among those
 * new to it, so that its order of variables is ours (CaDiCaL pays for
 * every index up to its largest), then those first named by an assumption. */
static void flush(struct cnf *c, const lit *assumptions, int n)
{
    int lo = c->nvars + 1, hi = 0, known = c->solver_vars;
    size_t nfresh = 0;   /* the variables new to the solver, on the work stack (free here) */
    lit *pending = c->pending, *end = pending + c->npending;
    int *solver_var = c->solver_var;
    for (const lit *p = pending; p < end; p++) {
        int v = *p > 0 ? *p : -*p;
        if (!solver_var[v]) {
            solver_var[v] = -1;   /* seen, numbered below */
            nfresh = cnf_push(c, nfresh, v);
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
    }
    if (nfresh > 0 && (size_t)(hi - lo) <= 4 * nfresh) {   /* mostly the newest: a short range */
        for (int v = lo; v <= hi; v++)
            if (c->solver_var[v] < 0)
                c->solver_var[v] = ++c->solver_vars;
    } else {
        qsort(c->work, nfresh, sizeof *c->work, by_var);
        for (size_t k = 0; k < nfresh; k++)
            c->solver_var[c->work[k]] = ++c->solver_vars;
    }
    for (int i = 0; i < n; i++)
        solver_lit(c, assumptions[i]);
    if (c->solver_vars > known + 1) {
        introduce_at_once(c->solver, c->solver_vars);
        c->solver_top = c->solver_vars;
    }
    size_t fixed_before = c->fixed_cap;
    XGROW_FROM(c->fixed, c->fixed_cap, (size_t)c->solver_vars + 1, 128);
    memset(c->fixed + fixed_before, 0, c->fixed_cap - fixed_before);
    replay_clauses(c->solver, c->pending, fold_pending(c));
    c->npending = c->named_upto = 0;   /* what they named has a solver index now */
    for (int i = 0; i < n; i++)
        replay_assume(c->solver, solver_lit(c, assumptions[i]));
}

int cnf_solver_val(struct cnf *c, lit l)
{
    int v = l > 0 ? l : -l, s = c->solver_var[v];
    /* a variable no clause or assumption names is unconstrained: false;
     * one a unit clause fixed has that value in every model */
    int val = !s ? -1 : c->fixed[s] ? c->fixed[s] : replay_val(c->solver, s) > 0 ? 1 : -1;
    return l > 0 ? val : -val;
}

/* Hands the clause first | l[0] | ... | l[n-1] (first == 0: none) to the
 * solver with constants folded. */
static void emit_prefixed(struct cnf *c, lit first, const lit *l, int n)
{
    int kept = 0;
    if (first == LIT_TRUE)
        return;
    for (int i = 0; i < n; i++)
        if (l[i] == LIT_TRUE)
            return;
    room_for(c, (size_t)n + 2);
    if (first && first != LIT_FALSE) {
        hand_over(c, first);
        kept++;
    }
    for (int i = 0; i < n; i++)
        if (l[i] != LIT_FALSE) {
            hand_over(c, l[i]);
            kept++;
        }
    if (kept == 0)
        hand_over(c, LIT_FALSE);   /* the empty clause */
    hand_over(c, 0);
    c->nclauses++;
    c->core_valid = false;
}

void cnf_emit(struct cnf *c, const lit *l, int n) { emit_prefixed(c, 0, l, n); }

/* Hands the clause a | b | d (d == 0: a | b) to the solver. */
static void emit(struct cnf *c, lit a, lit b, lit d)
{
    lit l[3] = { a, b, d };
    cnf_emit(c, l, d ? 3 : 2);
}

/* Widest conjunction require_and flattens a gate into. */
#define FLAT_WIDTH 16

/* Emits the given side of AND gate o's definition, over its conjuncts
 * flattened: an input that is itself an AND gate whose side no clause has
 * yet gives its own inputs instead, up to FLAT_WIDTH conjuncts (an n-ary
 * AND: o -> x for each conjunct x, or one clause of o and the conjuncts
 * negated, not a chain of gates each with its clauses and variable; the
 * gate flattened through stays undefined to the solver until a clause
 * needs it).  Pushes the conjuncts at depth top and returns the new depth. */
static size_t require_and(struct cnf *c, lit o, int side, size_t top)
{
    const struct gate_def *d = &c->defs[o];
    lit x[FLAT_WIDTH + 1];
    int n = 0;
    x[n++] = side == SIDE_POS ? -o : o;
    x[n++] = d->a;
    x[n++] = d->b;
    for (int i = 1; i < n; i++) {
        const struct gate_def *g = x[i] > LIT_TRUE ? &c->defs[x[i]] : NULL;
        if (!g || g->op != GATE_AND || (g->sides & side) || n >= FLAT_WIDTH + 1)
            continue;
        x[i--] = g->a;
        bool seen = false;
        for (int j = 1; j < n && !seen; j++)
            seen = x[j] == g->b;
        if (!seen)
            x[n++] = g->b;
    }
    if (side == SIDE_POS) {
        for (int i = 1; i < n; i++) {
            emit(c, x[0], x[i], 0);
            top = cnf_push(c, top, x[i]);
        }
        return top;
    }
    for (int i = 1; i < n; i++) {
        x[i] = -x[i];
        top = cnf_push(c, top, x[i]);
    }
    cnf_emit(c, x, n);
    return top;
}

void cnf_require(struct cnf *c, lit l)
{
    const struct gate_def *first = &c->defs[l > 0 ? l : -l];
    if (!first->op || (first->sides & (l > 0 ? SIDE_POS : SIDE_NEG)))
        return;   /* a plain variable, or a half the solver has: nothing to push */
    size_t top = cnf_push(c, 0, l);
    while (top > 0) {
        lit x = c->work[--top];
        lit o = x > 0 ? x : -x;
        struct gate_def *d = &c->defs[o];
        int side = x > 0 ? SIDE_POS : SIDE_NEG;
        if (!d->op || (d->sides & side))
            continue;
        d->sides |= side;
        lit a = d->a, b = d->b;
        if (d->op == GATE_CLOSURE) {
            top = c->ext[EXT_CLOSURE]->require(c, o, side, top);
        } else if (d->op == GATE_AND) {
            top = require_and(c, o, side, top);
        } else if (d->op == GATE_OR && side == SIDE_POS) {    /* o -> in[0] | ... */
            emit_prefixed(c, -o, c->or_lits + a, b);
            for (int k = 0; k < b; k++)
                top = cnf_push(c, top, c->or_lits[a + k]);
        } else if (d->op == GATE_OR) {                        /* in[k] -> o, each */
            for (int k = 0; k < b; k++) {
                emit(c, o, -c->or_lits[a + k], 0);
                top = cnf_push(c, top, -c->or_lits[a + k]);
            }
        } else {                                              /* xor: both signs of both inputs */
            if (side == SIDE_POS) {
                emit(c, -o, a, b);
                emit(c, -o, -a, -b);
            } else {
                emit(c, o, -a, b);
                emit(c, o, a, -b);
            }
            top = cnf_push(c, cnf_push(c, cnf_push(c, cnf_push(c, top, a), -a), b), -b);
        }
    }
}

void cnf_clause(struct cnf *c, const lit *l, int n)
{
    for (int i = 0; i < n; i++)
        if (l[i] == LIT_TRUE)
            return;
    if (!c->solver) {   /* concrete mode: every literal is a constant */
        fprintf(stderr, "gpubmc: internal error: empty clause in concrete mode\n");
        abort();
    }
    cnf_emit(c, l, n);
    for (int i = 0; i < n; i++)
        if (!lit_is_const(l[i]))
            cnf_require(c, l[i]);
}

void cnf_unit(struct cnf *c, lit a) { cnf_clause(c, &a, 1); }

/* Widest clause cnf_forbid builds by flattening. */
#define FORBID_WIDTH 8

void cnf_forbid(struct cnf *c, lit a, lit e)
{
    lit l[FORBID_WIDTH];
    int k = 0;
    l[k++] = -a;
    l[k++] = -e;
    for (int i = 1; i < k; i++) {          /* replace -g (g an AND gate) by -x, -y */
        lit g = -l[i];
        const struct gate_def *d = g > 1 ? &c->defs[g] : NULL;
        if (!d || d->op != GATE_AND || k + 1 > FORBID_WIDTH)
            continue;
        l[i] = -d->a;
        l[k++] = -d->b;
        i--;
    }
    cnf_clause(c, l, k);
}

void cnf_clause2(struct cnf *c, lit a, lit b)
{
    lit l[2] = { a, b };
    cnf_clause(c, l, 2);
}

void cnf_clause3(struct cnf *c, lit a, lit b, lit d)
{
    lit l[3] = { a, b, d };
    cnf_clause(c, l, 3);
}

static size_t gate_hash(int op, lit a, lit b)
{
    uint64_t h = (uint64_t)(uint32_t)a * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)(uint32_t)b * 0xC2B2AE3D27D4EB4Full + (uint64_t)op;
    h ^= h >> 29;
    return (size_t)h;
}

static void table_grow(struct cnf *c)
{
    struct gate_slot *old = c->table;
    size_t oldcap = c->cap;
    c->cap = c->cap ? GATE_TABLE_GROWTH * c->cap : GATE_TABLE_FIRST;
    c->table = xcalloc(c->cap, sizeof *c->table);
    for (size_t i = 0; i < oldcap; i++) {
        if (!old[i].op)
            continue;
        size_t j = gate_hash(old[i].op, old[i].a, old[i].b) & (c->cap - 1);
        while (c->table[j].op)
            j = (j + 1) & (c->cap - 1);
        c->table[j] = old[i];
    }
    free(old);
}

/* Finds the gate (op, a, b) or creates it; its clauses come on demand. */
static lit gate_lookup(struct cnf *c, int op, lit a, lit b)
{
    if (2 * (c->used + 1) > c->cap)
        table_grow(c);
    size_t j = gate_hash(op, a, b) & (c->cap - 1);
    while (c->table[j].op) {
        struct gate_slot *s = &c->table[j];
        if (s->op == op && s->a == a && s->b == b)
            return s->out;
        j = (j + 1) & (c->cap - 1);
    }
    lit o = cnf_gate_var(c, (struct gate_def){ (unsigned char)op, 0, a, b });
    c->table[j] = (struct gate_slot){ op, a, b, o };
    c->used++;
    return o;
}

lit cnf_and_gate(struct cnf *c, lit a, lit b)
{
    if (a > b) {
        lit t = a; a = b; b = t;
    }
    return gate_lookup(c, GATE_AND, a, b);
}


lit cnf_xor(struct cnf *c, lit a, lit b)
{
    if (a == LIT_FALSE)
        return b;
    if (b == LIT_FALSE)
        return a;
    if (a == LIT_TRUE)
        return -b;
    if (b == LIT_TRUE)
        return -a;
    if (a == b)
        return LIT_FALSE;
    if (a == -b)
        return LIT_TRUE;
    /* normalise signs: xor(-a, b) = -xor(a, b) */
    bool neg = false;
    if (a < 0) { a = -a; neg = !neg; }
    if (b < 0) { b = -b; neg = !neg; }
    if (a > b) {
        lit t = a; a = b; b = t;
    }
    lit o = gate_lookup(c, GATE_XOR, a, b);
    return neg ? -o : o;
}

lit cnf_iff(struct cnf *c, lit a, lit b) { return -cnf_xor(c, a, b); }

lit cnf_ite(struct cnf *c, lit s, lit t, lit e)
{
    if (s == LIT_TRUE || t == e)
        return t;
    if (s == LIT_FALSE)
        return e;
    return cnf_or(c, cnf_and(c, s, t), cnf_and(c, -s, e));
}

lit cnf_and_n(struct cnf *c, const lit *l, int n)
{
    lit acc = LIT_TRUE;
    for (int i = 0; i < n && acc != LIT_FALSE; i++)
        acc = cnf_and(c, acc, l[i]);
    return acc;
}

lit cnf_or_n(struct cnf *c, const lit *l, int n)
{
    lit acc = LIT_FALSE;
    for (int i = 0; i < n && acc != LIT_TRUE; i++)
        acc = cnf_or(c, acc, l[i]);
    return acc;
}

void cnf_define_or(struct cnf *c, lit v, const lit *l, int n)
{
    if (v <= LIT_TRUE || v > c->nvars || c->defs[v].op) {
        fprintf(stderr, "gpubmc: internal error: cnf_define_or on %d, not a plain variable\n", v);
        abort();
    }
    for (; c->named_upto < c->npending; c->named_upto++) {
        lit x = c->pending[c->named_upto];
        c->named[x > 0 ? x : -x] = 1;
    }
    if (n > 0) {   /* the OR of nothing (false) has no inputs to keep */
        XGROW_FROM(c->or_lits, c->or_lits_cap, c->nor_lits + (size_t)n, 64);
        memcpy(c->or_lits + c->nor_lits, l, (size_t)n * sizeof *l);
    }
    c->defs[v] = (struct gate_def){ GATE_OR, 0, (lit)c->nor_lits, n };
    c->nor_lits += (size_t)n;
    if (c->named[v] || c->solver_var[v]) {   /* already in a clause as a plain variable */
        cnf_require(c, v);
        cnf_require(c, -v);
    }
}

void cnf_at_most_one(struct cnf *c, const lit *l, int n)
{
    if (n <= 6) {
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                cnf_clause2(c, -l[i], -l[j]);
        return;
    }
    /* sequential counter: s_i = "some of l[0..i] is true" */
    lit prev = l[0];
    for (int i = 1; i < n; i++) {
        cnf_clause2(c, -prev, -l[i]);
        prev = cnf_or(c, prev, l[i]);
    }
}

/* Records what the last answer makes readable: the values of variables
 * 1..nvars after SAT (a plain variable's read from the solver when first
 * asked, cnf_known_value: CaDiCaL answers values until its next clause,
 * and clauses reach it only at the next solve), the failed assumptions
 * after UNSAT. */
static void note_answer(struct cnf *c, int res)
{
    c->model_vars = res == 10 ? c->nvars : 0;
    c->core_valid = res == 20;
}

int cnf_solve(struct cnf *c, const lit *assumptions, int n)
{
    return cnf_solve_limited(c, assumptions, n, -1);
}

int cnf_solve_limited(struct cnf *c, const lit *assumptions, int n, int conflicts)
{
    for (;;) {
        for (int i = 0; i < n; i++)
            cnf_require(c, assumptions[i]);
        flush(c, assumptions, n);
        if (conflicts >= 0)
            replay_limit_conflicts(c->solver, conflicts);
        c->generation++;
        int res = replay_solve(c->solver);
        note_answer(c, res);
        long added = 0;   /* one extension at a time: its clauses end the model's values */
        for (int k = 0; k < EXT_COUNT && res == 10 && added == 0; k++)
            if (c->ext[k] && c->ext[k]->refine)
                added = c->ext[k]->refine(c);
        if (added == 0)
            return res;
    }
}

bool cnf_known_value(struct cnf *c, lit l)
{
    if (lit_is_const(l))
        return l == LIT_TRUE;
    int v = l > 0 ? l : -l;
    if (!c->defs[v].op && v > c->model_vars) {
        fprintf(stderr, "gpubmc: internal error: value of variable %d read with no model for it\n", v);
        abort();
    }
    if (!c->defs[v].op && c->eval_at[v] != c->generation) {   /* first read in this model */
        c->eval_val[v] = cnf_solver_val(c, v) > 0;
        c->eval_at[v] = c->generation;
    }
    bool val = c->eval_val[v];
    return l > 0 ? val : !val;
}

bool cnf_pending(const struct cnf *c, lit l)
{
    int v = l > 0 ? l : -l;
    return !lit_is_const(l) && c->defs[v].op && c->eval_at[v] != c->generation;
}

/* Value of variable v in the last model.  A gate is evaluated from its
 * inputs: the solver holds only the halves of definitions that clauses
 * need, so its own value for a gate variable may be arbitrary. */
static bool var_value(struct cnf *c, int v)
{
    size_t top = cnf_push(c, 0, v);
    while (top > 0) {
        lit u = c->work[top - 1];
        const struct gate_def *d = &c->defs[u];
        if (!cnf_pending(c, u)) {
            top--;
            continue;
        }
        if (d->op == GATE_CLOSURE) {
            top = c->ext[EXT_CLOSURE]->evaluate(c, u, top);
            continue;
        }
        if (d->op == GATE_OR) {
            size_t before = top;
            bool any = false;
            for (int k = 0; k < d->b; k++) {
                lit in = c->or_lits[d->a + k];
                if (cnf_pending(c, in))
                    top = cnf_push(c, top, in > 0 ? in : -in);
                else
                    any = any || cnf_known_value(c, in);
            }
            if (top > before)
                continue;
            c->eval_val[u] = any;
            c->eval_at[u] = c->generation;
            top--;
            continue;
        }
        size_t before = top;
        if (cnf_pending(c, d->a))
            top = cnf_push(c, top, d->a > 0 ? d->a : -d->a);
        if (cnf_pending(c, d->b))
            top = cnf_push(c, top, d->b > 0 ? d->b : -d->b);
        if (top > before)
            continue;
        bool a = cnf_known_value(c, d->a), b = cnf_known_value(c, d->b);
        c->eval_val[u] = d->op == GATE_AND ? (a && b) : (a != b);
        c->eval_at[u] = c->generation;
        top--;
    }
    return cnf_known_value(c, v);
}

bool cnf_value_of(struct cnf *c, lit l)
{
    if (!cnf_pending(c, l))   /* a plain variable, or a gate already evaluated */
        return cnf_known_value(c, l);
    bool val = var_value(c, l > 0 ? l : -l);
    return l > 0 ? val : !val;
}

bool cnf_failed(struct cnf *c, lit l)
{
    if (lit_is_const(l))
        return false;
    if (!c->core_valid) {
        fprintf(stderr, "gpubmc: internal error: failed assumption asked with no UNSAT answer\n");
        abort();
    }
    int v = l > 0 ? l : -l;
    return c->solver_var[v] && replay_failed(c->solver, solver_lit(c, l));
}

unsigned cnf_model_number(const struct cnf *c) { return c->generation; }

int cnf_num_vars(const struct cnf *c) { return c->nvars; }
long cnf_num_clauses(const struct cnf *c) { return c->nclauses; }
