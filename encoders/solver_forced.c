/* A solve answered without a solver when unit propagation decides it:
 * when it fixes every variable the clauses and assumptions have that one
 * model, so CaDiCaL's answer would be 10 and its values those; when it
 * meets a conflict they have none, and CaDiCaL's answer would be 20.
 * Either way the session saves making a solver, handing it every literal
 * and freeing it.  Over the corpus batch's worker, of the sessions that
 * make no record's calls, 87 are decided with a model (gate outputs and
 * reads all forced by the program's units) and 164 by a conflict (the
 * assumptions of an outcome clash with what the program forces). */
#include "encoders/solver_forced.h"

#include <string.h>

#include "util/xalloc.h"

/* Scratch kept between calls (one session solves at a time): by literal
 * (2 v for v, 2 v + 1 for -v) the last call of its occurrences, -1 none;
 * by call, the literal's previous occurrence and the start of its clause;
 * the assigned literals in order; by variable, why it was assigned (the
 * start of the clause that made it true, UNIT, or ASSUMED); the
 * assumptions of the coming solve. */
static int *head, *prev, *clause_of, *trail, *reason, *assumed;
static size_t head_cap, prev_cap, clause_cap, trail_cap, reason_cap, assumed_cap;

enum { UNIT = -1, ASSUMED = -2, DECIDED = -3, FLIPPED = -4 };

static int lit_index(int l) { return l > 0 ? 2 * l : -2 * l + 1; }

static int var_of(int l) { return l > 0 ? l : -l; }

/* The value of l under vals: 1 true, -1 false, 0 unassigned. */
static int value(const signed char *vals, int l) { return l > 0 ? vals[l] : -vals[-l]; }

/* Makes l true for reason why unless it is false already (false: a
 * conflict). */
static bool assign(signed char *vals, int l, int why, int *assigned)
{
    int v = value(vals, l);
    if (v == 0) {
        vals[var_of(l)] = (signed char)(l > 0 ? 1 : -1);
        reason[var_of(l)] = why;
        trail[(*assigned)++] = l;
    }
    return v >= 0;
}

/* Propagates the assigned literals from trail[from] on over the clauses
 * of calls (by literal, head and prev): the start of a clause all false,
 * or -1.  A clause with a true literal is skipped, one with a single
 * unassigned literal (told apart from repeats of it or not) makes it
 * true; a clause all false is met when its last literal is made false. */
static int propagate(const int *calls, int from, signed char *vals, int *assigned)
{
    for (int at = from; at < *assigned; at++)
        for (int k = head[lit_index(-trail[at])]; k >= 0; k = prev[k]) {
            int unassigned = 0, last = 0, v = 0;
            for (const int *p = calls + clause_of[k]; *p && v <= 0; p++) {
                v = value(vals, *p);
                if (v == 0) {
                    unassigned++;
                    last = *p;
                }
            }
            if (v > 0 || unassigned > 1)
                continue;
            if (unassigned == 0)
                return clause_of[k];
            assign(vals, last, clause_of[k], assigned);
        }
    return -1;
}

/* Pushes the variables of the 0-ended literals at lits not yet seen on
 * stack (its depth *depth). */
static void push_unseen(const int *lits, bool *seen, int *stack, int *depth)
{
    for (const int *p = lits; *p; p++)
        if (!seen[var_of(*p)]) {
            seen[var_of(*p)] = true;
            stack[(*depth)++] = var_of(*p);
        }
}

/* Turns vals[1..top], the assignment that met a conflict over the 0-ended
 * literals at conflict (all false), into the assumptions the conflict
 * rests on: following each literal's reason through the clauses of
 * calls, bit 1 of vals[v] set when assumption v is among them, bit 2 when
 * -v is; clash, when nonzero, is an assumption found false before any
 * propagation, one of them. */
static void keep_failed(const int *calls, const int *conflict, int clash, signed char *vals, int top)
{
    static bool *seen;
    static int *stack;
    static size_t seen_cap, stack_cap;
    XGROW_FROM(seen, seen_cap, (size_t)top + 1, 128);
    XGROW_FROM(stack, stack_cap, (size_t)top + 1, 128);
    memset(seen, 0, ((size_t)top + 1) * sizeof *seen);
    int depth = 0;
    push_unseen(conflict, seen, stack, &depth);
    for (int at = 0; at < depth; at++) {   /* the stack is kept whole: the cone */
        int v = stack[at];
        if (reason[v] >= 0)
            push_unseen(calls + reason[v], seen, stack, &depth);
    }
    for (int at = 0; at < depth; at++) {
        int v = stack[at];
        stack[at] = reason[v] == ASSUMED ? (vals[v] > 0 ? v : -v) : 0;
    }
    memset(vals + 1, 0, (size_t)top);
    for (int at = 0; at < depth; at++)
        if (stack[at])
            vals[var_of(stack[at])] |= (signed char)(stack[at] > 0 ? 1 : 2);
    if (clash)
        vals[var_of(clash)] |= (signed char)(clash > 0 ? 1 : 2);
}

/* Unassigns trail[start..*assigned). */
static void undo(signed char *vals, int start, int *assigned)
{
    for (int at = start; at < *assigned; at++)
        vals[var_of(trail[at])] = 0;
    *assigned = start;
}

/* Decides by a search of at most budget conflicts whether the assignment
 * vals (trail[0..*assigned), propagated with no conflict) extends to a
 * model of the clauses of calls over variables 1..top: 10 when it finds
 * one (left in vals), 20 when none exists, 0 when the budget ran out.  A
 * plain backtracking search: it decides the lowest unassigned variable,
 * false first, propagates, and at a conflict flips the latest decision
 * not yet flipped, dropping those above it; no clause is learnt.  Each
 * level's decision is its first literal on the trail, and every variable
 * below it was assigned before it, so the next decision is looked for
 * from the last one's variable on. */
static int search(const int *calls, signed char *vals, int *assigned, int top, int budget)
{
    static int *level_start;
    static size_t level_cap;
    XGROW_FROM(level_start, level_cap, (size_t)top + 1, 128);
    int levels = 0, next = 1;
    for (;;) {
        while (next <= top && vals[next])
            next++;
        if (next > top)
            return 10;
        level_start[levels++] = *assigned;
        assign(vals, -next, DECIDED, assigned);
        while (propagate(calls, level_start[levels - 1], vals, assigned) >= 0) {
            if (budget-- == 0)
                return 0;
            for (;; levels--) {
                if (levels == 0)
                    return 20;
                int decision = trail[level_start[levels - 1]];
                bool flipped = reason[var_of(decision)] == FLIPPED;
                undo(vals, level_start[levels - 1], assigned);
                if (!flipped) {
                    assign(vals, -decision, FLIPPED, assigned);
                    next = var_of(decision);
                    break;
                }
            }
        }
    }
}

/* Makes the scratch and the model hold variables up to v, the new ones
 * unassigned and in no clause; returns the new largest variable. */
static int reach_var(signed char **model, size_t *cap, int top, int v)
{
    XGROW_FROM(head, head_cap, 2 * (size_t)v + 2, 256);
    XGROW_FROM(trail, trail_cap, (size_t)v + 1, 128);
    XGROW_FROM(reason, reason_cap, (size_t)v + 1, 128);
    XGROW_FROM(*model, *cap, (size_t)v + 1, 128);
    for (int u = top + 1; u <= v; u++) {
        head[2 * u] = head[2 * u + 1] = -1;
        (*model)[u] = 0;
    }
    return v;
}

enum forced forced_answer(const int *calls, size_t n, int budget, signed char **model, size_t *cap)
{
    int top = 0, nassumed = 0, assigned = 0;
    bool clash = false;   /* the empty clause, or a unit clause against an earlier one */
    XGROW_FROM(prev, prev_cap, n + 1, 1024);
    XGROW_FROM(clause_of, clause_cap, n + 1, 1024);
    for (size_t i = 0, start = 0; i < n; i++) {   /* occurrences by literal, units, assumptions */
        int x = calls[i];
        if (x > OP_FAILED && x != 0) {   /* a literal, the most frequent */
            int at = lit_index(x);
            top = var_of(x) > top ? reach_var(model, cap, top, var_of(x)) : top;
            prev[i] = head[at];
            head[at] = (int)i;
            clause_of[i] = (int)start;
        } else if (x == 0) {   /* the empty clause: no model; a unit clause: assigned */
            if (i == start || (i == start + 1 && !assign(*model, calls[start], UNIT, &assigned)))
                clash = true;
            start = i + 1;
        } else {
            if (x == OP_LIMIT)
                return NOT_DECIDED;
            nassumed = x == OP_SOLVE ? 0 : nassumed;
            if (x == OP_ASSUME) {
                XGROW_FROM(assumed, assumed_cap, (size_t)nassumed + 1, 64);
                assumed[nassumed++] = calls[i + 1];
                top = var_of(calls[i + 1]) > top ? reach_var(model, cap, top, var_of(calls[i + 1])) : top;
            }
            start = ++i + 1;
        }
    }
    static const int nothing[] = { 0 };
    if (clash) {   /* the clauses alone: no assumption fails */
        keep_failed(calls, nothing, 0, *model, top);
        return CONFLICT_CORE;
    }
    for (int k = 0; k < nassumed; k++)
        if (!assign(*model, assumed[k], ASSUMED, &assigned)) {
            const int against[] = { assumed[k], 0 };
            keep_failed(calls, against, assumed[k], *model, top);
            return CONFLICT_CORE;
        }
    int conflict = propagate(calls, 0, *model, &assigned);
    if (conflict >= 0) {
        keep_failed(calls, calls + conflict, 0, *model, top);
        return CONFLICT_CORE;
    }
    if (assigned == top)
        return ONLY_MODEL;
    int fixed = assigned;
    int found = budget > 0 ? search(calls, *model, &assigned, top, budget) : 0;
    if (found != 10)
        return found == 20 ? SEARCHED_NONE : NOT_DECIDED;
    for (int at = fixed; at < assigned; at++)   /* the search's own choices */
        (*model)[var_of(trail[at])] *= 2;
    return SEARCHED_MODEL;
}
