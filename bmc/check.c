/* The verdict logic: encode, solve, re-check the witness concretely. */
#include "bmc/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bmc/evaluate.h"
#include "bmc/oracle.h"
#include "bmc/outcomes.h"
#include "bmc/refine.h"
#include "bmc/symmetry.h"
#include "bmc/termination.h"
#include "bmc/witness.h"
#include "encoders/assertion.h"
#include "encoders/exec.h"
#include "encoders/xalloc.h"

#define ORACLE_LIMIT 2000000L
#define OUTCOMES_LIMIT 1000      /* states enumerated at most (each is re-checked) */

const char *verdict_name(enum verdict v)
{
    static const char *const names[] = { "PASS", "FAIL", "UNKNOWN", "ERROR" };
    return names[v];
}

const char *property_name(enum property p)
{
    static const char *const names[] = { "program_spec", "cat_spec", "termination" };
    return names[p];
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Everything one SAT check holds. */
struct sat_check {
    const struct program *p;
    const struct model_desc *md;
    const struct check_opts *o;
    int sx_mode;             /* enum sx_mode: how threads may stop short */
    struct cnf *c;
    struct exec_enc x;
    struct model_out m;
    int nacts;
    lit acts[MODEL_MAX_AXIOMS + 4];
    const char *act_names[MODEL_MAX_AXIOMS];
    const struct axiom *act_axioms[MODEL_MAX_AXIOMS];
};

static void sat_setup(struct sat_check *s)
{
    s->c = cnf_new(true);
    exec_encode(s->c, s->p, s->md->co_total, s->sx_mode, &s->x);
    s->md->build(s->c, &s->x.base, &s->m);
    for (int i = 0; i < s->m.naxioms; i++) {
        const struct axiom *ax = &s->m.axioms[i];
        if (ax->kind == AX_FLAG || axiom_disabled(ax->name, s->o->disabled, s->o->ndisabled))
            continue;
        lit act = cnf_var(s->c);
        cnf_imply(s->c, act, -ax->violated);
        s->act_names[s->nacts] = ax->name;
        s->act_axioms[s->nacts] = ax;
        s->acts[s->nacts++] = act;
    }
}

/* Frees the check, recording the size of its CNF in r. */
static void sat_teardown(struct sat_check *s, struct check_result *r)
{
    r->nvars = cnf_num_vars(s->c);
    r->nclauses = cnf_num_clauses(s->c);
    model_out_free(&s->m);
    exec_free(s->p, &s->x);
    cnf_free(s->c);
}

/* Forbids the cycles the current model has in enabled acyclicity axioms;
 * false when it has none (the model is a consistent execution). */
static bool refine(struct sat_check *s)
{
    int found = 0;
    for (int i = 0; i < s->nacts; i++)
        if (s->act_axioms[i]->kind == AX_ACYCLIC)
            found += refine_acyclic(s->c, &s->act_axioms[i]->rel, s->acts[i]);
    return found > 0;
}

/* Solves under the enabled axioms and extra, refining acyclicity lazily. */
static int solve_with(struct sat_check *s, lit extra)
{
    lit as[MODEL_MAX_AXIOMS + 4];
    memcpy(as, s->acts, (size_t)s->nacts * sizeof *as);
    as[s->nacts] = extra;
    int res;
    while ((res = cnf_solve(s->c, as, s->nacts + 1)) == 10 && refine(s))
        ;
    return res;
}

/* Reads the solver's model into a choice. */
static void extract_choice(struct sat_check *s, struct choice *ch)
{
    const struct program *p = s->p;
    int n = p->nevents;
    choice_init(ch, p);
    const struct rel *rf = &s->x.base.rels[R_RF];
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            if (cnf_value(s->c, rel_get(rf, i, j)))
                ch->rf[j] = i;
            ch->co[i * n + j] = cnf_value(s->c, rel_get(&s->x.base.rels[R_CO], i, j));
            ch->sf[i * n + j] = cnf_value(s->c, rel_get(&s->x.base.rels[R_SYNC_FENCE], i, j));
        }
        ch->sync[i] = cnf_value(s->c, s->x.sync[i]);
        if (cnf_value(s->c, s->x.final_pick[i]))
            ch->final_pick[program_root_location(p->lit, p->events[i].loc)] = i;
    }
    for (int t = 0; t < p->nthreads; t++)
        for (int i = 0; i <= p->threads[t].ncode; i++)
            if (cnf_value(s->c, s->x.sx.halt_at[t][i]))
                ch->stop_at[t] = i;
}

/* What a witness must show: the condition true, the condition false, a
 * raised flag (a data race), a thread stuck for ever (not at the bound), or
 * just a terminating execution satisfying the filter (an outcome). */
enum goal { GOAL_TRUE, GOAL_FALSE, GOAL_FLAG, GOAL_STUCK, GOAL_ANY };

/* Some thread of the concrete execution spins, repeats or is blocked. */
static bool some_thread_stuck(const struct program *p, const struct concrete *x)
{
    for (int t = 0; t < p->nthreads; t++)
        if (x->spins[t] || x->repeats[t] || x->blocked[t])
            return true;
    return false;
}

/* The first raised flag of a concrete evaluation, or NULL. */
static const struct axiom *raised_flag(const struct model_out *m)
{
    for (int i = 0; i < m->naxioms; i++)
        if (m->axioms[i].kind == AX_FLAG && m->axioms[i].violated == LIT_TRUE)
            return &m->axioms[i];
    return NULL;
}

/* "P0 write `st.sc0 x, 1` and P1 read `ld.sc0 r0, x` race (racy3c3)":
 * the first pair of a raised flag. */
static void name_flagged_pair(const struct program *p, const struct axiom *ax, char *buf, size_t len)
{
    for (int i = 0; i < ax->rel.n; i++)
        for (int j = 0; j < ax->rel.n; j++)
            if (rel_get(&ax->rel, i, j) == LIT_TRUE) {
                const struct event *a = &p->events[i], *b = &p->events[j];
                snprintf(buf, len, "P%d %s `%s` and P%d %s `%s` race (%s)",
                         p->lit->threads[a->thread].id, a->kind == EV_READ ? "read" : "write", a->in->text,
                         p->lit->threads[b->thread].id, b->kind == EV_READ ? "read" : "write", b->in->text,
                         ax->name);
                return;
            }
    snprintf(buf, len, "a consistent execution raises %s", ax->name);
}

/* Evaluates the solver's model concretely into ch and ev (the caller frees
 * both); returns why it is not the execution the solver claims for goal,
 * NULL when it is. */
static const char *evaluate_model(struct sat_check *s, enum goal goal, struct choice *ch,
                                  struct evaluation *ev)
{
    extract_choice(s, ch);
    evaluate(s->p, s->md, s->o->disabled, s->o->ndisabled, ch, ev);
    const char *why = NULL;
    if (!ev->x.valid)
        why = ev->x.why;
    else if (!ev->consistent)
        why = ev->violated;
    else if (goal != GOAL_STUCK && !ev->terminated)
        why = "not every thread terminates";
    else if (!ev->filter)
        why = "the filter does not hold";
    else if (goal == GOAL_STUCK && (ev->bound_hit || !some_thread_stuck(s->p, &ev->x)))
        why = "no thread is stuck short of the bound";
    else if (goal == GOAL_FLAG && raised_flag(&ev->m) == NULL)
        why = "no flag is raised";
    else if ((goal == GOAL_TRUE || goal == GOAL_FALSE) && ev->assertion != (goal == GOAL_TRUE))
        why = "the final state does not decide the property as the solver said";
    for (int e = 0; !why && e < s->p->nevents; e++)
        if (ev->x.exec[e] != cnf_value(s->c, s->x.sx.exec[e]) ||
            (ev->x.exec[e] && s->p->events[e].loc >= 0 &&
             ev->x.val[e] != bv_model_value(s->c, &s->x.sx.val[e])))
            why = "the concrete run differs from the solver's execution";
    return why;
}

/* Checks the SAT witness concretely; fills the witness JSON if asked and,
 * for a flag, names the racing pair in r->reason.  Returns false (with
 * r->reason set) when the two back ends disagree. */
static bool recheck(struct sat_check *s, enum goal goal, struct check_result *r)
{
    struct choice ch;
    struct evaluation ev;
    const char *why = evaluate_model(s, goal, &ch, &ev);
    if (why) {
        snprintf(r->reason, sizeof r->reason,
                 "internal error: the concrete evaluator rejects the solver's witness (%s)", why);
    } else {
        if (goal == GOAL_FLAG)
            name_flagged_pair(s->p, raised_flag(&ev.m), r->reason, sizeof r->reason);
        if (s->o->want_witness)
            r->witness = wit_build(s->p, &ev.x, &ev.b, &ev.m);
    }
    evaluation_free(s->p, &ev);
    choice_free(&ch);
    return why == NULL;
}

/* Names the axioms in the last UNSAT core. */
static void core_reason(struct sat_check *s, char *buf, size_t len)
{
    size_t used = strlen(buf);
    bool first = true;
    for (int i = 0; i < s->nacts && used + 40 < len; i++)
        if (cnf_failed(s->c, s->acts[i])) {
            used += (size_t)snprintf(buf + used, len - used, "%s%s", first ? " (forbidden by " : ", ",
                                     s->act_names[i]);
            first = false;
        }
    if (!first && used + 2 < len)
        snprintf(buf + used, len - used, ")");
}

/* Every thread ran to its end. */
static lit all_terminated(struct sat_check *s)
{
    lit term = LIT_TRUE;
    for (int t = 0; t < s->p->nthreads; t++)
        term = cnf_and(s->c, term, s->x.sx.terminated[t]);
    return term;
}

/* Some thread was cut at the loop bound. */
static lit some_bound_hit(struct sat_check *s)
{
    lit bound = LIT_FALSE;
    for (int t = 0; t < s->p->nthreads; t++)
        bound = cnf_or(s->c, bound, s->x.sx.bound_hit[t]);
    return bound;
}

/* Sets UNKNOWN when no witness was found but an execution satisfying the
 * filter is cut at the bound (a longer run might decide). */
static void unknown_if_bounded(struct sat_check *s, lit filter, struct check_result *r)
{
    lit bound = some_bound_hit(s);
    if (bound != LIT_FALSE && solve_with(s, cnf_and(s->c, filter, bound)) == 10) {
        r->verdict = V_UNKNOWN;
        snprintf(r->reason, sizeof r->reason,
                 "no witness within the loop bound %d, and some loop can run past it", s->p->bound);
    }
}

/* The encoded final value of an observed register or location. */
static const struct bv *observed_bv(const struct sat_check *s, const struct avalue *v)
{
    return v->kind == AV_REG ? &s->x.sx.final_regs[v->thread][v->reg] : &s->x.final_mem[v->loc];
}

/* The concrete final value of an observed register or location. */
static int32_t observed_value(const struct concrete *x, const struct avalue *v)
{
    return v->kind == AV_REG ? x->final_regs[v->thread][v->reg] : x->final_mem[v->loc];
}

/* Forbids the projected final state vals: some observed value differs. */
static void block_state(struct sat_check *s, const struct outcome_set *o, const int32_t *vals)
{
    lit *clause = xcalloc((size_t)o->nobs * BV_WIDTH, sizeof *clause);
    int n = 0;
    for (int i = 0; i < o->nobs; i++) {
        const struct bv *b = observed_bv(s, &o->obs[i]);
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
    struct evaluation ev;
    const char *why = evaluate_model(s, GOAL_ANY, &ch, &ev);
    if (!why && ev.assertion != sat)
        why = "the condition evaluates differently";
    for (int i = 0; !why && i < o->nobs; i++)
        if (observed_value(&ev.x, &o->obs[i]) != vals[i])
            why = "an observed final value differs";
    if (why)
        snprintf(r->reason, sizeof r->reason,
                 "internal error: the concrete evaluator rejects the solver's outcome (%s)", why);
    evaluation_free(s->p, &ev);
    choice_free(&ch);
    return why == NULL;
}

/* Adds every final state of a consistent execution in which every thread
 * terminates and the filter holds, projected onto o's observed values, by
 * solving again with each state found forbidden.  The blocking clauses
 * stay: this is the check's last use of the solver.  False (with r->reason
 * set) on an internal error; *capped when it stopped at OUTCOMES_LIMIT. */
static bool enumerate_outcomes(struct sat_check *s, lit body, lit filter, struct outcome_set *o,
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
            vals[i] = bv_model_value(s->c, observed_bv(s, &o->obs[i]));
        bool sat = cnf_value(s->c, body);
        ok = recheck_outcome(s, o, vals, sat, r);
        if (ok && !outcomes_add(o, vals, sat)) {
            snprintf(r->reason, sizeof r->reason,
                     "internal error: the solver found a forbidden outcome again");
            ok = false;
        }
        block_state(s, o, vals);
    }
    free(vals);
    return ok;
}

/* Fills r->outcomes after the program_spec verdict: the set may be
 * incomplete when some execution is cut at the loop bound; a set that
 * contradicts the verdict is an internal error. */
static void report_outcomes(struct sat_check *s, lit body, lit filter, struct check_result *r)
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
    if (!enumerate_outcomes(s, body, filter, &o, &capped, r)) {
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

static void check_program_spec(struct sat_check *s, struct check_result *r)
{
    const struct litmus *l = s->p->lit;
    if (l->quant == Q_NONE) {
        r->verdict = V_ERROR;
        snprintf(r->reason, sizeof r->reason, "program_spec needs an exists, ~exists or forall condition");
        return;
    }
    sat_setup(s);
    if (!s->o->outcomes)   /* outcomes tell threads apart by their registers */
        symmetry_break(s->c, s->p, &s->x.base.rels[R_CO]);
    struct final_state fs = { s->x.sx.final_regs, s->x.final_mem };
    lit filter = assertion_encode(s->c, l->filter, &fs);
    lit body = assertion_encode(s->c, l->assertion, &fs);
    lit goal = l->quant == Q_FORALL ? -body : body;
    lit term = all_terminated(s);
    lit query = cnf_and(s->c, cnf_and(s->c, goal, filter), term);
    bool exists = l->quant == Q_EXISTS;
    if (solve_with(s, query) == 10) {
        if (!recheck(s, l->quant != Q_FORALL ? GOAL_TRUE : GOAL_FALSE, r)) {
            r->verdict = V_ERROR;
        } else {
            r->verdict = exists ? V_PASS : V_FAIL;
            snprintf(r->reason, sizeof r->reason, "%s",
                     exists ? "the outcome is reachable"
                            : l->quant == Q_FORALL ? "an execution violates the condition"
                                                   : "the outcome is reachable");
        }
    } else {
        snprintf(r->reason, sizeof r->reason, "%s",
                 exists ? "the outcome is unreachable" : l->quant == Q_FORALL
                     ? "every execution satisfies the condition" : "the outcome is unreachable");
        core_reason(s, r->reason, sizeof r->reason);
        r->verdict = exists ? V_FAIL : V_PASS;
        unknown_if_bounded(s, filter, r);
    }
    if (s->o->outcomes && r->verdict != V_ERROR)
        report_outcomes(s, body, filter, r);
    sat_teardown(s, r);
}

/* cat_spec: some consistent execution that terminates and satisfies the
 * filter raises a flagged axiom (a data race). */
static void check_cat_spec(struct sat_check *s, struct check_result *r)
{
    sat_setup(s);
    symmetry_break(s->c, s->p, &s->x.base.rels[R_CO]);
    lit raised = LIT_FALSE;
    for (int i = 0; i < s->m.naxioms; i++)
        if (s->m.axioms[i].kind == AX_FLAG)
            raised = cnf_or(s->c, raised, s->m.axioms[i].violated);
    struct final_state fs = { s->x.sx.final_regs, s->x.final_mem };
    lit filter = assertion_encode(s->c, s->p->lit->filter, &fs);
    lit query = cnf_and(s->c, cnf_and(s->c, raised, filter), all_terminated(s));
    if (raised != LIT_FALSE && solve_with(s, query) == 10) {
        r->verdict = recheck(s, GOAL_FLAG, r) ? V_FAIL : V_ERROR;
    } else {
        r->verdict = V_PASS;
        snprintf(r->reason, sizeof r->reason, raised == LIT_FALSE
                 ? "the model flags nothing" : "no consistent execution raises a flag");
        unknown_if_bounded(s, filter, r);
    }
    sat_teardown(s, r);
}

/* termination: some consistent execution, fair under the progress model
 * and not cut at the bound, has a thread stuck for ever. */
static void check_termination(struct sat_check *s, struct check_result *r)
{
    s->sx_mode = SX_MAY_REPEAT | (s->o->progress != PROG_FAIR ? SX_MAY_HALT : 0);
    sat_setup(s);
    lit stuck = termination_encode(s->c, s->p, &s->x, s->o->progress);
    struct final_state fs = { s->x.sx.final_regs, s->x.final_mem };
    lit filter = assertion_encode(s->c, s->p->lit->filter, &fs);
    lit query = cnf_and(s->c, cnf_and(s->c, stuck, filter), -some_bound_hit(s));
    if (stuck != LIT_FALSE && solve_with(s, query) == 10) {
        r->verdict = V_FAIL;
        if (recheck(s, GOAL_STUCK, r))
            termination_describe(s->c, s->p, &s->x, r->reason, sizeof r->reason);
        else
            r->verdict = V_ERROR;
    } else {
        r->verdict = V_PASS;
        snprintf(r->reason, sizeof r->reason, "every thread terminates");
        unknown_if_bounded(s, filter, r);
    }
    sat_teardown(s, r);
}

/* program_spec or cat_spec by enumeration, for testing the SAT path. */
static void check_by_oracle(const struct program *p, const struct model_desc *md,
                            const struct check_opts *o, struct check_result *r)
{
    struct oracle_result orr;
    if (o->property == P_PROGRAM_SPEC && p->lit->quant == Q_NONE) {
        snprintf(r->reason, sizeof r->reason, "program_spec needs an exists, ~exists or forall condition");
        return;
    }
    if (!oracle_check(p, md, o, ORACLE_LIMIT, &orr)) {
        r->verdict = V_UNKNOWN;
        snprintf(r->reason, sizeof r->reason, "more than %ld candidate executions for the oracle",
                 (long)ORACLE_LIMIT);
        return;
    }
    r->verdict = orr.verdict;
    snprintf(r->reason, sizeof r->reason, "oracle: %ld candidates, %ld consistent", orr.candidates,
             orr.consistent);
}

/* Checks every --no-axiom name against the model; sets the error if not. */
static bool axioms_known(const struct model_desc *md, const struct check_opts *o,
                         struct check_result *r)
{
    for (int i = 0; i < o->ndisabled; i++)
        if (!model_has_axiom(md, o->disabled[i])) {
            snprintf(r->reason, sizeof r->reason, "error: model %s has no axiom '%s' (it has: %s)",
                     md->name, o->disabled[i], md->axioms);
            return false;
        }
    return true;
}

static const char *default_model(const struct litmus *l)
{
    return l->dialect == DIALECT_PTX ? "ptx-v7.5" : "vulkan";
}

void check_file(const char *path, const struct check_opts *o, struct check_result *r)
{
    double t0 = now_ms();
    memset(r, 0, sizeof *r);
    r->verdict = V_ERROR;
    struct litmus_error err;
    struct litmus *l = litmus_parse_file(path, &err);
    if (!l) {
        snprintf(r->reason, sizeof r->reason, "%s:%d:%d: error: %s", path, err.pos.line,
                 err.pos.col, err.msg);
        r->ms = now_ms() - t0;
        return;
    }
    const char *mname = o->model ? o->model : default_model(l);
    snprintf(r->model, sizeof r->model, "%s", mname);
    const struct model_desc *md = model_find(mname);
    char msg[256] = "";
    struct program *p = md ? program_build(l, o->bound, msg, sizeof msg) : NULL;
    if (!md) {
        snprintf(r->reason, sizeof r->reason, "%s: error: model %s is not available (have: %s)",
                 path, mname, model_names());
    } else if (md->dialect != l->dialect) {
        snprintf(r->reason, sizeof r->reason, "%s: error: model %s is for %s tests, this is a %s test",
                 path, mname, dialect_name(md->dialect), dialect_name(l->dialect));
    } else if (!axioms_known(md, o, r)) {
        snprintf(r->model, sizeof r->model, "%s", mname);
    } else if (!p) {
        snprintf(r->reason, sizeof r->reason, "%s:1:1: error: %s", path, msg);
    } else {
        struct sat_check s = { .p = p, .md = md, .o = o };
        switch (o->property) {
        case P_PROGRAM_SPEC: case P_CAT_SPEC:
            if (o->oracle)
                check_by_oracle(p, md, o, r);
            else if (o->property == P_PROGRAM_SPEC)
                check_program_spec(&s, r);
            else
                check_cat_spec(&s, r);
            break;
        case P_TERMINATION:
            if (o->oracle)
                snprintf(r->reason, sizeof r->reason,
                         "error: the oracle decides program_spec and cat_spec, not termination");
            else
                check_termination(&s, r);
            break;
        }
    }
    program_free(p);
    litmus_free(l);
    r->ms = now_ms() - t0;
}
