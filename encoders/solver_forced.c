/* A solve answered without a solver when unit propagation fixes every
 * variable: the clauses and assumptions then have that one model, so
 * CaDiCaL's answer would be 10 and its values those, and the session
 * saves making a solver, handing it every literal and freeing it.  Over
 * the corpus batch one session in seven that makes no record's calls is
 * decided so (gate outputs and reads all forced by the program's units). */
#include "encoders/solver_forced.h"

#include <string.h>

#include "util/xalloc.h"

/* Scratch kept between calls (one session solves at a time): by literal
 * (2 v for v, 2 v + 1 for -v) the last call of its occurrences, -1 none;
 * by call, the literal's previous occurrence and the start of its clause;
 * the assigned literals in order; the assumptions of the coming solve. */
static int *head, *prev, *clause_of, *trail, *assumed;
static size_t head_cap, prev_cap, clause_cap, trail_cap, assumed_cap;

static int lit_index(int l) { return l > 0 ? 2 * l : -2 * l + 1; }

/* The value of l under vals: 1 true, -1 false, 0 unassigned. */
static int value(const signed char *vals, int l) { return l > 0 ? vals[l] : -vals[-l]; }

/* Makes l true unless it is false already (false: a conflict). */
static bool assign(signed char *vals, int l, int *assigned)
{
    int v = value(vals, l);
    if (v == 0) {
        vals[l > 0 ? l : -l] = (signed char)(l > 0 ? 1 : -1);
        trail[(*assigned)++] = l;
    }
    return v >= 0;
}

/* Propagates the assigned literals over the clauses of calls (by literal,
 * head and prev): false on a conflict.  A clause with a true literal is
 * skipped, one with a single unassigned literal (told apart from repeats
 * of it or not) makes it true. */
static bool propagate(const int *calls, signed char *vals, int *assigned)
{
    for (int at = 0; at < *assigned; at++)
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
            if (unassigned == 0 || !assign(vals, last, assigned))
                return false;
        }
    return true;
}

/* Makes the scratch and the model hold variables up to v, the new ones
 * unassigned and in no clause; returns the new largest variable. */
static int reach_var(signed char **model, size_t *cap, int top, int v)
{
    XGROW_FROM(head, head_cap, 2 * (size_t)v + 2, 256);
    XGROW_FROM(trail, trail_cap, (size_t)v + 1, 128);
    XGROW_FROM(*model, *cap, (size_t)v + 1, 128);
    for (int u = top + 1; u <= v; u++) {
        head[2 * u] = head[2 * u + 1] = -1;
        (*model)[u] = 0;
    }
    return v;
}

bool forced_model(const int *calls, size_t n, signed char **model, size_t *cap)
{
    int top = 0, nassumed = 0, assigned = 0;
    XGROW_FROM(prev, prev_cap, n + 1, 1024);
    XGROW_FROM(clause_of, clause_cap, n + 1, 1024);
    for (size_t i = 0, start = 0; i < n; i++) {   /* occurrences by literal, units, assumptions */
        int x = calls[i];
        if (x > OP_FAILED && x != 0) {   /* a literal, the most frequent */
            int v = x > 0 ? x : -x, at = lit_index(x);
            top = v > top ? reach_var(model, cap, top, v) : top;
            prev[i] = head[at];
            head[at] = (int)i;
            clause_of[i] = (int)start;
        } else if (x == 0) {   /* the empty clause: no model; a unit clause: assigned */
            if (i == start || (i == start + 1 && !assign(*model, calls[start], &assigned)))
                return false;
            start = i + 1;
        } else {
            if (x == OP_LIMIT)
                return false;
            nassumed = x == OP_SOLVE ? 0 : nassumed;
            if (x == OP_ASSUME) {
                int v = calls[i + 1] > 0 ? calls[i + 1] : -calls[i + 1];
                XGROW_FROM(assumed, assumed_cap, (size_t)nassumed + 1, 64);
                assumed[nassumed++] = calls[i + 1];
                top = v > top ? reach_var(model, cap, top, v) : top;
            }
            start = ++i + 1;
        }
    }
    for (int k = 0; k < nassumed; k++)
        if (!assign(*model, assumed[k], &assigned))
            return false;
    return propagate(calls, *model, &assigned) && assigned == top;
}
