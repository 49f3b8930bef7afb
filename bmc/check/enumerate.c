/* Reachable outcomes: every final state of the observed registers and
 * locations, by incremental solving with blocking clauses. */
#include "bmc/check/enumerate.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bmc/check/outcomes.h"
#include "util/xalloc.h"

const struct bv *enumerate_observed_bv(const struct sat_check *s, const struct avalue *v)
{
    return v->kind == AV_REG ? &s->x.sx.final_regs[v->thread][v->reg] : &s->x.final_mem[v->loc];
}

/* The concrete final value of an observed register or location. */
static int32_t observed_value(const struct concrete *x, const struct avalue *v)
{
    return v->kind == AV_REG ? x->final_regs[v->thread][v->reg] : x->final_mem[v->loc];
}

void enumerate_block(struct sat_check *s, const struct avalue *obs, int nobs, const int32_t *vals)
{
    lit *clause = xcalloc((size_t)nobs * BV_WIDTH + 1, sizeof *clause);
    int n = 0;
    for (int i = 0; i < nobs; i++) {
        const struct bv *b = enumerate_observed_bv(s, &obs[i]);
        for (int k = 0; k < BV_WIDTH; k++)
            clause[n++] = ((uint32_t)vals[i] >> k & 1u) ? -b->b[k] : b->b[k];
    }
    cnf_clause(s->c, clause, n);
    free(clause);
}

/* Re-checks the solver's model as an outcome: a consistent terminating
 * execution satisfying the filter whose final state projects to vals and
 * whose condition body is sat; false (with r->reason set) if not. */
static bool recheck_outcome(struct sat_check *s, const struct outcome_set *o, const int32_t *vals,
                            bool sat, struct check_result *r)
{
    struct choice ch;
    const struct evaluation *ev;
    const char *why = evaluate_model(s, GOAL_ANY, &ch, &ev);
    if (!why && ev->assertion != sat)
        why = "the condition evaluates differently";
    for (int i = 0; !why && i < o->nobs; i++)
        if (observed_value(&ev->x, &o->obs[i]) != vals[i])
            why = "an observed final value differs";
    if (why)
        snprintf(r->reason, sizeof r->reason,
                 "internal error: the concrete evaluator rejects the solver's outcome (%s)", why);
    choice_free(&ch);
    return why == NULL;
}

bool enumerate_states(struct sat_check *s, lit body, lit filter, struct outcome_set *o,
                               bool *capped, struct check_result *r)
{
    lit query = cnf_and(s->c, filter, all_terminated(s));
    int32_t *vals = xcalloc((size_t)o->nobs, sizeof *vals);
    bool ok = true;
    while (ok && solve_with(s, query) == 10) {
        if (o->nstates == OUTCOMES_LIMIT) {
            char why[80];
            snprintf(why, sizeof why, "stopped after %d states", OUTCOMES_LIMIT);
            outcomes_incomplete(o, why);
            *capped = true;
            break;
        }
        for (int i = 0; i < o->nobs; i++)
            vals[i] = bv_model_value(s->c, enumerate_observed_bv(s, &o->obs[i]));
        bool sat = cnf_value(s->c, body);
        ok = recheck_outcome(s, o, vals, sat, r);
        if (ok && !outcomes_add(o, vals, sat)) {
            snprintf(r->reason, sizeof r->reason,
                     "internal error: the solver found a forbidden outcome again");
            ok = false;
        }
        enumerate_block(s, o->obs, o->nobs, vals);
    }
    free(vals);
    return ok;
}

void report_outcomes(struct sat_check *s, lit body, lit filter, struct check_result *r)
{
    const struct litmus *l = s->p->lit;
    struct outcome_set o;
    outcomes_init(&o, l);
    lit bound = some_bound_hit(s);
    if (r->verdict == V_UNKNOWN || (bound != LIT_FALSE && solve_with(s, bound) == 10)) {
        char why[96];
        snprintf(why, sizeof why, "some loop can run past the loop bound %d", s->p->bound);
        outcomes_incomplete(&o, why);
    }
    bool capped = false;
    if (!enumerate_states(s, body, filter, &o, &capped, r)) {
        r->verdict = V_ERROR;
        outcomes_free(&o);
        return;
    }
    int positive = outcomes_positive(&o);
    bool in_set = l->quant == Q_FORALL ? o.nstates > positive : positive > 0;
    bool found = r->verdict == (l->quant == Q_EXISTS ? V_PASS : V_FAIL);
    if (in_set != found && (in_set || !capped)) {
        r->verdict = V_ERROR;
        snprintf(r->reason, sizeof r->reason,
                 "internal error: the outcome set (%d states, %d satisfying the condition) "
                 "contradicts the program_spec check", o.nstates, positive);
    } else {
        r->outcomes = outcomes_json(&o);
    }
    outcomes_free(&o);
}
