/* The verdict logic: encode, solve, re-check the witness concretely. */
#include "bmc/check/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bmc/check/enumerate.h"
#include "bmc/check/explain.h"
#include "bmc/check/load.h"
#include "bmc/concrete/fair.h"
#include "bmc/concrete/fragment.h"
#include "bmc/check/oracle.h"
#include "bmc/check/cut_flags.h"
#include "bmc/check/race.h"
#include "bmc/check/sat_check.h"
#include "bmc/check/states_check.h"
#include "bmc/check/divergence.h"
#include "bmc/check/termination.h"
#include "bmc/concrete/text.h"
#include "bmc/concrete/witness.h"
#include "encoders/assertion.h"
#include "encoders/exec.h"
#include "models/cat_model.h"

#define ORACLE_LIMIT 2000000L

const char *verdict_name(enum verdict v)
{
    static const char *const names[] = { "PASS", "FAIL", "UNKNOWN", "ERROR" };
    return names[v];
}

const char *property_name(enum property p)
{
    static const char *const names[] = { "program_spec", "cat_spec", "termination", "barrier_divergence" };
    return names[p];
}

double check_clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* "P0 write `st.sc0 x, 1` and P1 read `ld.sc0 r0, x` race (racy)":
 * the first pair of a raised flag; "P2 reaches `OpUnreachable`
 * (undefined-behavior)" for a flag over single events ([UB]). */
static void name_flagged_pair(const struct program *p, const struct axiom *ax, char *buf, size_t len)
{
    for (int i = 0; i < ax->rel->n; i++) {
        const int *cols;
        const lit *lits;
        if (rel_row(ax->rel, i, &cols, &lits) > 0) {   /* concrete: every entry holds */
            const struct event *a = &p->events[i], *b = &p->events[cols[0]];
            if (a == b) {
                snprintf(buf, len, "P%d reaches `%s` (%s)", p->lit->threads[a->thread].id, a->in->text, ax->name);
                return;
            }
            snprintf(buf, len, "P%d %s `%s` and P%d %s `%s` race (%s)",
                     p->lit->threads[a->thread].id, a->kind == EV_READ ? "read" : "write", a->in->text,
                     p->lit->threads[b->thread].id, b->kind == EV_READ ? "read" : "write", b->in->text,
                     ax->name);
            return;
        }
    }
    snprintf(buf, len, "a consistent execution raises %s", ax->name);
}

/* Says in r that its flag is raised in an execution x cut at the bound,
 * naming the threads cut. */
static void note_cut(const struct program *p, const struct concrete *x, struct check_result *r)
{
    r->cut_at_bound = true;
    size_t used = strlen(r->reason);
    used += (size_t)snprintf(r->reason + used, sizeof r->reason - used,
                             " in an execution cut at the loop bound %d (cut:", p->bound);
    for (int t = 0; t < p->nthreads && used < sizeof r->reason; t++)
        if (x->bound_hit[t])
            used += (size_t)snprintf(r->reason + used, sizeof r->reason - used, " P%d", p->lit->threads[t].id);
    if (used < sizeof r->reason)
        snprintf(r->reason + used, sizeof r->reason - used,
                 "), a prefix of an execution of the unbounded program that raises it too");
}

bool sat_recheck(struct sat_check *s, enum goal goal, struct check_result *r)
{
    struct choice ch;
    const struct evaluation *ev;
    const char *why = evaluate_model(s, goal, &ch, &ev);
    if (why) {
        snprintf(r->reason, sizeof r->reason,
                 "internal error: the concrete evaluator rejects the solver's witness (%s)", why);
    } else {
        if (goal == GOAL_FLAG || goal == GOAL_FLAG_CUT)
            name_flagged_pair(s->p, raised_flag(&ev->m, s->o), r->reason, sizeof r->reason);
        if (goal == GOAL_FLAG_CUT)
            note_cut(s->p, &ev->x, r);
        if (s->o->want_witness)
            r->witness = wit_build(s->p, &ev->x, &ev->b, &ev->m);
    }
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

bool sat_cut_at_bound(struct sat_check *s)
{
    if (!s->cut) {
        lit bound = some_bound_hit(s);
        s->cut = bound != LIT_FALSE && solve_with(s, bound) == 10 ? 1 : 2;
    }
    return s->cut == 1;
}

/* Why a check whose search found no witness but cut some execution at
 * the bound is UNKNOWN. */
static void cut_reason(const struct sat_check *s, char *buf, size_t len)
{
    snprintf(buf, len, "no witness within the loop bound %d, and some loop can run past it", s->p->bound);
}

/* Sets UNKNOWN when cut: no witness was found, but one might lie past the bound. */
static void unknown_when_cut(struct sat_check *s, bool cut, struct check_result *r)
{
    if (cut) {
        r->verdict = V_UNKNOWN;
        cut_reason(s, r->reason, sizeof r->reason);
    }
}

#define NO_EXECUTION "no consistent execution at all"

/* Whether the session admits no execution under the assumption also:
 * with LIT_TRUE in a program_spec or cat_spec session, no consistent
 * execution at all (none that ends, hangs or is cut at the bound). */
static bool no_execution(struct sat_check *s, lit also)
{
    return solve_with(s, also) == 20;
}

/* Says that the program has no consistent execution: a PASS becomes
 * vacuous with the reason "vacuously: no consistent execution at all", any
 * other verdict's reason gets it appended. */
static void note_no_execution(struct check_result *r)
{
    r->no_execution = true;
    if (r->verdict == V_PASS) {
        r->vacuous = true;
        text_copy(r->reason, sizeof r->reason, "vacuously: " NO_EXECUTION);
    } else {
        size_t used = strlen(r->reason);
        text_copy(r->reason + used, sizeof r->reason - used, "; " NO_EXECUTION);
    }
}

/* Says, after a FAIL's reason, that no execution terminates: none at all,
 * or only ones that hang. */
static void note_none_terminates(struct sat_check *s, struct check_result *r)
{
    if (no_execution(s, LIT_TRUE)) {
        note_no_execution(r);
    } else {
        size_t used = strlen(r->reason);
        text_copy(r->reason + used, sizeof r->reason - used, "; no execution terminates");
    }
}

/* A PASS is vacuous when no execution the property counts ends with the
 * filter true (program_spec's ~exists and forall; cat_spec with a filter):
 * says so in the reason and r->vacuous, the strongest of "no consistent
 * execution at all", "no execution terminates" and "no execution that
 * terminates satisfies the filter". */
static void note_vacuous(struct sat_check *s, lit filter, lit term, struct check_result *r)
{
    if (solve_with(s, cnf_and(s->c, filter, term)) == 10)
        return;
    if (solve_with(s, term) == 10) {
        r->vacuous = true;
        text_copy(r->reason, sizeof r->reason, "vacuously: no execution that terminates satisfies the filter");
    } else if (!no_execution(s, LIT_TRUE)) {
        r->vacuous = true;
        text_copy(r->reason, sizeof r->reason, "vacuously: no execution terminates");
    } else {
        note_no_execution(r);
    }
}

/* Adds why the outcome is forbidden to r (explanation, and a summary in
 * the reason). */
static void explain(struct sat_check *s, lit query, enum goal goal, struct check_result *r)
{
    char text[768];
    r->explanation = explain_forbidden(s, query, goal, text, sizeof text);
    size_t used = strlen(r->reason);
    snprintf(r->reason + used, sizeof r->reason - used, "; %s", text);
}

/* program_spec's query: a terminating execution whose final state
 * satisfies the filter, and the condition (exists) or not (forall). */
static void program_spec_query(struct sat_check *s, struct query *q)
{
    const struct litmus *l = s->p->lit;
    struct final_state fs = { s->x.sx.final_regs, s->x.final_mem };
    q->filter = assertion_encode(s->c, l->filter, &fs);
    q->body = assertion_encode(s->c, l->assertion, &fs);
    lit goal = l->quant == Q_FORALL ? -q->body : q->body;
    q->term = all_terminated(s);
    q->query = cnf_and(s->c, cnf_and(s->c, goal, q->filter), q->term);
}

static void check_program_spec(struct sat_check *first, struct check_result *r)
{
    const struct litmus *l = first->p->lit;
    if (l->quant == Q_NONE) {
        r->verdict = V_ERROR;
        text_copy(r->reason, sizeof r->reason, "program_spec needs an exists, ~exists or forall condition");
        return;
    }
    struct sat_check alt;
    struct query q;
    int res;
    bool symmetric = !first->o->outcomes && !first->o->no_symmetry;   /* outcomes tell threads apart */
    struct sat_check *s = race_solve(first, &alt, symmetric, program_spec_query, &q, &res);
    lit filter = q.filter, body = q.body, term = q.term, query = q.query;
    bool exists = l->quant == Q_EXISTS;
    if (res == 10) {
        if (!sat_recheck(s, l->quant != Q_FORALL ? GOAL_TRUE : GOAL_FALSE, r)) {
            r->verdict = V_ERROR;
        } else {
            r->verdict = exists ? V_PASS : V_FAIL;
            r->has_reachable = r->reachable = true;
            text_copy(r->reason, sizeof r->reason,
                      exists ? "the outcome is reachable"
                             : l->quant == Q_FORALL ? "an execution violates the condition"
                                                    : "the outcome is reachable");
        }
    } else {
        text_copy(r->reason, sizeof r->reason,
                  exists ? "the outcome is unreachable" : l->quant == Q_FORALL
                      ? "every execution satisfies the condition" : "the outcome is unreachable");
        core_reason(s, r->reason, sizeof r->reason);
        r->verdict = exists ? V_FAIL : V_PASS;
        bool cut = sat_cut_at_bound(s);
        unknown_when_cut(s, cut, r);
        r->has_reachable = r->verdict != V_UNKNOWN;
        if (r->verdict == V_PASS)
            note_vacuous(s, filter, term, r);
        else if (!cut && solve_with(s, term) == 20)
            note_none_terminates(s, r);
        if (s->o->explain && r->verdict != V_UNKNOWN)
            explain(s, query, l->quant != Q_FORALL ? GOAL_TRUE : GOAL_FALSE, r);
    }
    if (s->o->outcomes && r->verdict != V_ERROR)
        report_outcomes(s, body, filter, r);
    sat_teardown(s, r);
}

/* cat_spec's query: a raised flag in an execution the filter and the
 * bound let count (see check_cat_spec). */
static void cat_spec_query(struct sat_check *s, struct query *q)
{
    q->body = LIT_FALSE;
    for (int i = 0; i < s->m.naxioms; i++)
        if (s->m.axioms[i].kind == AX_FLAG && !axiom_disabled(s->m.axioms[i].name, s->o->disabled, s->o->ndisabled))
            q->body = cnf_or(s->c, q->body, model_violated(&s->m, i));
    struct final_state fs = { s->x.sx.final_regs, s->x.final_mem };
    q->filter = assertion_encode(s->c, s->p->lit->filter, &fs);
    q->term = LIT_TRUE;   /* not read: see ends */
    lit ends = s->p->lit->filter ? all_terminated(s) : -some_bound_hit(s);
    q->query = cnf_and(s->c, cnf_and(s->c, q->body, q->filter), ends);
    if (s->weak_first)   /* asked first: proving that no execution is cut
                            shortens the flag's proof (docs/benchmarks.md) */
        sat_cut_at_bound(s);
}

/* cat_spec: some consistent execution raises a flagged axiom (a data
 * race).  Without a filter every execution counts that the bound does not
 * cut, those in which a thread spins or waits at a barrier for ever
 * included: what raced before the hang has raced.  A filter is a condition
 * on the final state, which only an execution in which every thread
 * terminates has, so with one only those count.  When none raises a flag,
 * one cut at the bound that does counts where cut_flags_count says its
 * flag is one of the unbounded program's. */
static void check_cat_spec(struct sat_check *first, struct check_result *r)
{
    struct sat_check alt;
    struct query q;
    int res;
    /* with loops, the proofs that no flag is raised and that no execution
     * is cut are the costly ones, and the weakening's axioms answer them
     * sooner (docs/benchmarks.md); without, it costs more than it saves */
    first->weak_first = program_has_bound_cut(first->p);
    struct sat_check *s = race_solve(first, &alt, !first->o->no_symmetry, cat_spec_query, &q, &res);
    lit raised = q.body;
    char why[96];
    if (raised != LIT_FALSE && res == 10) {
        r->verdict = sat_recheck(s, GOAL_FLAG, r) ? V_FAIL : V_ERROR;
    } else if (raised != LIT_FALSE && cut_flags_count(s->p, s->md, s->o, why, sizeof why)
               && sat_cut_at_bound(s) && solve_with(s, cnf_and(s->c, raised, some_bound_hit(s))) == 10) {
        r->verdict = sat_recheck(s, GOAL_FLAG_CUT, r) ? V_FAIL : V_ERROR;
    } else {
        r->verdict = V_PASS;
        bool has_flag = false, flag_on = false;   /* flags of the model; one not switched off by --no-axiom */
        for (int i = 0; i < s->m.naxioms; i++) {
            has_flag |= s->m.axioms[i].kind == AX_FLAG;
            flag_on |= s->m.axioms[i].kind == AX_FLAG
                       && !axiom_disabled(s->m.axioms[i].name, s->o->disabled, s->o->ndisabled);
        }
        text_copy(r->reason, sizeof r->reason, raised != LIT_FALSE || flag_on
                 ? "no consistent execution raises a flag"
                 : has_flag ? "every flag of the model is switched off by --no-axiom" : "the model flags nothing");
        bool cut = sat_cut_at_bound(s);
        unknown_when_cut(s, cut, r);
        /* no execution is cut: the counted ones are those that end with the
         * filter true (with a filter) or every one (without) */
        if (!cut && s->p->lit->filter)
            note_vacuous(s, q.filter, all_terminated(s), r);
        else if (!cut && no_execution(s, LIT_TRUE))
            note_no_execution(r);
    }
    sat_teardown(s, r);
}

/* termination under one progress model (its literal act assumed): some
 * consistent execution, fair under the model and not cut at the bound,
 * has a thread stuck for ever. */
static void termination_under(struct sat_check *s, lit query, lit act, struct check_result *r, char *brief,
                              size_t blen)
{
    if (query != LIT_FALSE && solve_with(s, cnf_and(s->c, query, act)) == 10) {
        r->verdict = V_FAIL;
        termination_brief(s->c, s->p, &s->x, brief, blen);
        if (sat_recheck(s, GOAL_STUCK, r))
            termination_describe(s->c, s->p, &s->x, r->reason, sizeof r->reason);
        else
            r->verdict = V_ERROR;
    } else {
        r->verdict = V_PASS;
        text_copy(r->reason, sizeof r->reason, "every thread terminates");
        unknown_when_cut(s, sat_cut_at_bound(s), r);
    }
}

/* A strong model's answer from its scheduler's weakly fair one (pr, with
 * its witness), when no trap was found: a weak PASS is a strong PASS (a
 * state from which no schedule of the guaranteed threads terminates
 * starts a weakly fair run that never does), but a weakly fair hang may
 * have an escape that strong fairness takes: that is UNKNOWN. */
static void strong_from_weak(struct progress_result *pr, cJSON **witness)
{
    if (pr->verdict == V_PASS) {
        size_t used = strlen(pr->reason);
        text_copy(pr->reason + used, sizeof pr->reason - used, " (weak fairness's PASS, which strong fairness implies)");
    } else if (pr->verdict == V_FAIL) {
        char weak[sizeof pr->reason];
        text_copy(weak, sizeof weak, pr->reason);
        pr->verdict = V_UNKNOWN;
        snprintf(pr->reason, sizeof pr->reason, "a weakly fair run hangs (%.700s), but SAT finds no trap (a hang "
                 "whose guaranteed threads only spin or wait): strong fairness may escape it (the states engine "
                 "decides it on the interleaving fragment)", weak);
        pr->brief[0] = '\0';
        cJSON_Delete(*witness);
        *witness = NULL;
    }
}

/* Under strong model m, after a weakly fair hang: looks for one that is a
 * trap (bmc/check/termination.h, termination_trapped: no thread repeats a
 * loop that writes, and every thread guaranteed at its end spins or waits
 * for ever, so nothing any of them can do changes memory again) and, when
 * there is one, puts it in pr and *witness (a FAIL) in place of the hang
 * and returns true. */
static bool strong_trap(struct sat_check *s, lit query, lit act, enum progress_model m,
                        struct progress_result *pr, cJSON **witness)
{
    lit none_repeats = LIT_TRUE;
    for (int t = 0; t < s->p->nthreads; t++)
        none_repeats = cnf_and(s->c, none_repeats, -s->x.sx.repeats[t]);
    struct check_result trap = { .verdict = V_ERROR };
    char tbrief[96], who[128];
    termination_under(s, cnf_and(s->c, query, none_repeats), act, &trap, tbrief, sizeof tbrief);
    if (trap.verdict != V_FAIL || !termination_trapped(s->c, s->p, &s->x, m, &s->o->hierarchy, who, sizeof who)) {
        cJSON_Delete(trap.witness);
        return false;
    }
    struct fair_tree *tr = fair_tree_build(s->p->lit, &s->o->hierarchy);
    termination_starved(s->c, s->p, &s->x, m, tr, trap.reason, sizeof trap.reason);
    fair_tree_free(tr);
    size_t used = strlen(trap.reason);
    snprintf(trap.reason + used, sizeof trap.reason - used, " (strong fairness: the guaranteed threads (%s) "
             "only spin or wait for ever, writing nothing, so no schedule of them terminates)", who);
    cJSON_Delete(*witness);
    *witness = trap.witness;
    text_copy(pr->reason, sizeof pr->reason, trap.reason);
    text_copy(pr->brief, sizeof pr->brief, tbrief);
    return true;
}

/* The progress models of one termination check by SAT: each model's
 * literal (0 until its constraints are encoded), and the answer of the
 * question asked of every model, a stuck run or any run fair under it
 * (0 not known yet, then the solver's 10 yes or 20 no).
 *
 * One answer may decide other models' (progress_stronger): the models'
 * constraints are over the same execution, each under its own literal,
 * and where model a guarantees at least what model b does, b's group
 * literals given the values of a's in a solution under a satisfy b's
 * constraints too (each of b's clauses "a group with progress owes this
 * child progress" follows from a's, and its other clauses are a's, over
 * b's own literals).  So an execution fair under a is fair under b: a
 * solution of the question under a answers it yes for b, and a no under b
 * answers it no for a.  A solution in which some other model's literal is
 * true, or whose threads' facts meet that model's constraints, is fair
 * under that model (fair_now): a yes for it as well.  Every
 * yes is the solution read, re-checked as any witness is; every no is
 * the solver's proof for a model that guarantees no more. */
struct term_models {
    struct sat_check *s;
    const enum progress_model *ms;
    int n;
    lit act[CHECK_PROGRESS_MODELS];
    int known[CHECK_PROGRESS_MODELS];
    bool stronger[CHECK_PROGRESS_MODELS][CHECK_PROGRESS_MODELS];   /* progress_stronger of ms[i], ms[j] */
    struct progress_result *out;   /* the results and their witnesses */
    cJSON **witnesses;
};

/* Model i's literal: its scheduler's constraints, encoded once for every
 * model with that scheduler (a strong model and its weak twin). */
static lit model_act(struct term_models *t, int i)
{
    for (int j = 0; !t->act[i] && j < t->n; j++)
        if (t->act[j] && progress_scheduler(t->ms[j]) == progress_scheduler(t->ms[i]))
            t->act[i] = t->act[j];
    if (!t->act[i])
        t->act[i] = termination_progress(t->s->c, t->s->p, &t->s->x, t->ms[i], &t->s->o->hierarchy);
    return t->act[i];
}

/* The unknown model to ask next, -1 when none is: with strongest_first
 * the one whose yes decides the most unknown models (it guarantees the
 * most), else the one whose no does (it guarantees the least), then the
 * one comparable with the most.  (Stuck runs, weakest first: in the
 * corpus's CADP tests this costs the least, less than the strongest
 * first or the model whose either answer decides the most.) */
static int next_model(const struct term_models *t, bool strongest_first)
{
    int pick = -1, best = -1, best_sum = -1;
    for (int i = 0; i < t->n; i++) {
        if (t->known[i])
            continue;
        int by_no = 0, by_yes = 0;
        for (int j = 0; j < t->n; j++)
            if (!t->known[j]) {
                by_no += t->stronger[j][i];
                by_yes += t->stronger[i][j];
            }
        int score = strongest_first ? by_yes : by_no;
        if (score > best || (score == best && by_no + by_yes > best_sum)) {
            pick = i;
            best = score;
            best_sum = by_no + by_yes;
        }
    }
    return pick;
}

/* The models marked in now get the solver's current solution, a stuck run
 * fair under each, as their FAIL: re-checked once, and each model gets its
 * copy of the witness. */
static void stuck_results(struct term_models *t, const bool *now)
{
    struct sat_check *s = t->s;
    struct check_result one;   /* sat_recheck writes its reason and witness */
    one.reason[0] = '\0';
    one.witness = NULL;
    char brief[96];
    termination_brief(s->c, s->p, &s->x, brief, sizeof brief);
    bool ok = sat_recheck(s, GOAL_STUCK, &one);
    if (ok)
        termination_describe(s->c, s->p, &s->x, one.reason, sizeof one.reason);
    struct fair_tree *tr = ok ? fair_tree_build(s->p->lit, &s->o->hierarchy) : NULL;   /* for every model's starved */
    bool first = true;
    for (int i = 0; i < t->n; i++) {
        if (!now[i])
            continue;
        struct progress_result *pr = &t->out[i];
        pr->verdict = ok ? V_FAIL : V_ERROR;
        text_copy(pr->brief, sizeof pr->brief, brief);
        text_copy(pr->reason, sizeof pr->reason, one.reason);
        if (ok)
            termination_starved(s->c, s->p, &s->x, t->ms[i], tr, pr->reason, sizeof pr->reason);
        t->witnesses[i] = first ? one.witness : cJSON_Duplicate(one.witness, true);
        first = false;
    }
    if (tr)
        fair_tree_free(tr);
}

/* Whether the solver's current solution is fair under model j: its
 * literal is true in it, or its threads' facts meet j's constraints
 * (termination_fair_now: then j's own literals, encoded or not yet, can
 * be given values that meet them, the rest of the solution unchanged). */
static bool fair_now(struct term_models *t, int j)
{
    struct sat_check *s = t->s;
    return (t->act[j] && cnf_value(s->c, t->act[j]))
           || termination_fair_now(s->c, s->p, &s->x, t->ms[j], &s->o->hierarchy);
}

/* Asks question q of every unknown model, each under its literal, one
 * solve at a time (in next_model's order), until every answer is known;
 * each answer decides the models it can (struct term_models).  With
 * stuck, each yes's models get the solution as their FAIL. */
static void decide_models(struct term_models *t, lit q, bool strongest_first, bool stuck)
{
    for (int i; (i = next_model(t, strongest_first)) >= 0;) {
        int res = solve_with(t->s, cnf_and(t->s->c, q, model_act(t, i)));
        bool now[CHECK_PROGRESS_MODELS] = { false };
        for (int j = 0; j < t->n; j++)
            if (!t->known[j] && (res == 10 ? t->stronger[i][j] || fair_now(t, j) : t->stronger[j][i])) {
                t->known[j] = res;
                now[j] = true;
            }
        if (res == 10 && stuck)
            stuck_results(t, now);
    }
}

/* Answers yes, where a run in which every thread ends exists, for every
 * unknown model under which that run is fair (fair_now; an ended thread
 * is owed nothing, so every model).  In the corpus such a run costs the
 * solver less to find than one fair under a given model, so it is asked
 * first. */
static void decide_by_ending_run(struct term_models *t)
{
    bool some_unknown = false;
    for (int i = 0; i < t->n; i++)
        some_unknown |= !t->known[i];
    if (!some_unknown || solve_with(t->s, all_terminated(t->s)) != 10)
        return;
    for (int j = 0; j < t->n; j++)
        if (!t->known[j] && fair_now(t, j))
            t->known[j] = 10;
}

/* termination by SAT under each model ms[0..n): one encoding and one
 * solver session, each model's constraints under its own literal; a
 * model's answer is asked only when no other model's decides it. */
static void termination_by_sat(struct sat_check *s, const enum progress_model *ms, int n,
                               struct progress_result *out, cJSON **witnesses, struct check_result *r)
{
    bool halts = false;
    for (int i = 0; i < n; i++)
        halts |= progress_scheduler(ms[i]) != PROG_FAIR || progress_scoped(&s->o->hierarchy);
    s->sx_mode = SX_MAY_REPEAT | (halts ? SX_MAY_HALT : 0);
    sat_setup(s);
    lit stuck = termination_encode(s->c, s->p, &s->x);
    /* no filter: it constrains final states, and a hang has none */
    lit query = stuck == LIT_FALSE ? LIT_FALSE : cnf_and(s->c, stuck, -some_bound_hit(s));
    struct term_models t = { .s = s, .ms = ms, .n = n, .out = out, .witnesses = witnesses };
    for (int i = 0; i < n; i++) {
        out[i] = (struct progress_result){ .model = ms[i], .engine = "sat" };
        t.known[i] = query == LIT_FALSE ? 20 : 0;
        for (int j = 0; j < n; j++)
            t.stronger[i][j] = progress_stronger(&s->o->hierarchy, ms[i], ms[j]);
    }
    decide_models(&t, query, false, true);
    for (int i = 0; i < n; i++) {
        if (t.known[i] == 20) {
            out[i].verdict = V_PASS;
            text_copy(out[i].reason, sizeof out[i].reason, "every thread terminates");
            if (sat_cut_at_bound(s)) {   /* the same for every progress model: asked once */
                out[i].verdict = V_UNKNOWN;
                cut_reason(s, out[i].reason, sizeof out[i].reason);
            }
        }
        if (progress_is_strong(ms[i]) && !(out[i].verdict == V_FAIL
                                           && strong_trap(s, query, model_act(&t, i), ms[i], &out[i], &witnesses[i])))
            strong_from_weak(&out[i], &witnesses[i]);
    }
    /* Every fair execution terminates, but is there one?  An execution that
     * terminates is fair under every model; a PASS under a model that no
     * execution satisfies is vacuous, and says whether the program has no
     * consistent execution at all (a session without the termination
     * encoding's conditions on runs that repeat for ever decides that) or
     * only none that the model deems fair (a thread spins for ever before
     * an ssw successor may start, say).  Asked of the PASS models only,
     * the strongest first: a run fair under it is fair under those that
     * guarantee less. */
    for (int i = 0; i < n; i++)
        t.known[i] = out[i].verdict == V_PASS ? 0 : 10;
    decide_by_ending_run(&t);
    decide_models(&t, LIT_TRUE, true, false);
    bool some_vacuous = false;
    for (int i = 0; i < n; i++)
        if (out[i].verdict == V_PASS && t.known[i] == 20)
            some_vacuous = out[i].vacuous = true;
    if (some_vacuous) {
        struct sat_check plain = { .p = s->p, .md = s->md, .o = s->o };
        sat_setup(&plain);
        bool none = no_execution(&plain, LIT_TRUE);
        sat_discard(&plain);
        r->no_execution = none;
        for (int i = 0; i < n; i++) {
            if (!out[i].vacuous)
                continue;
            if (none)
                text_copy(out[i].reason, sizeof out[i].reason, "vacuously: " NO_EXECUTION);
            else
                snprintf(out[i].reason, sizeof out[i].reason,
                         "vacuously: no execution is fair under progress model %s",
                         progress_name(ms[i]));
        }
    }
    sat_teardown(s, r);
}

/* termination: the explicit-state engine on the interleaving fragment,
 * SAT elsewhere (and past the state limit), unless o says which; one
 * result per progress model, in r itself when there is one. */
static void check_termination(struct sat_check *s, struct check_result *r)
{
    const struct check_opts *o = s->o;
    enum progress_model ms[CHECK_PROGRESS_MODELS];
    int n = check_progress_models(o, ms);
    struct progress_result *out = r->progress;
    cJSON *witnesses[CHECK_PROGRESS_MODELS] = { NULL };
    char why[256] = "", note[320] = "";
    long nstates = 0;
    /* the fragment's argument is per built-in model: a cat file's model is
     * assumed to admit exactly the interleavings only when --engine states asks */
    bool cat_unproven = s->md->data && o->term_engine != TERM_STATES;
    if (cat_unproven)
        snprintf(why, sizeof why, "a model read from a cat file (--engine states assumes its executions "
                 "are the interleavings)");
    bool in = o->term_engine != TERM_SAT && !cat_unproven
              && fragment_check(s->p, s->md, o->disabled, o->ndisabled, why, sizeof why);
    if (in && states_termination(s->p, s->md, o, ms, n, out, witnesses, &nstates)) {
        /* decided */
    } else if (o->term_engine == TERM_STATES) {
        for (int i = 0; i < n; i++) {
            out[i] = (struct progress_result){ .model = ms[i], .verdict = V_UNKNOWN, .engine = "states" };
            if (in)
                snprintf(out[i].reason, sizeof out[i].reason, "more than %ld states", nstates);
            else
                snprintf(out[i].reason, sizeof out[i].reason, "not in the interleaving fragment: %s", why);
        }
    } else {
        if (in)
            snprintf(note, sizeof note, "; the states engine stopped at %ld states", nstates);
        termination_by_sat(s, ms, n, out, witnesses, r);
        for (int i = 0; note[0] && i < n; i++)
            if (out[i].verdict != V_FAIL) {
                size_t used = strlen(out[i].reason);
                text_copy(out[i].reason + used, sizeof out[i].reason - used, note);
            }
    }
    r->nprogress = n > 1 ? n : 0;
    r->verdict = out[0].verdict;
    r->vacuous = out[0].vacuous;
    text_copy(r->engine, sizeof r->engine, out[0].engine);
    text_copy(r->reason, sizeof r->reason, out[0].reason);
    if (n == 1) {
        r->witness = witnesses[0];
    } else if (o->want_witness) {
        r->witness = cJSON_CreateArray();
        for (int i = 0; i < n; i++)
            cJSON_AddItemToArray(r->witness, witnesses[i] ? witnesses[i] : cJSON_CreateNull());
    }
}

int check_progress_models(const struct check_opts *o, enum progress_model *m)
{
    unsigned set = o->progress_set ? o->progress_set : 1u << o->progress;
    int n = 0;
    for (int k = 0; k < CHECK_PROGRESS_MODELS; k++)
        if (set & (1u << k))
            m[n++] = (enum progress_model)k;
    return n;
}

/* program_spec or cat_spec by enumeration, for testing the SAT path. */
static void check_by_oracle(const struct program *p, const struct model_desc *md,
                            const struct check_opts *o, struct check_result *r)
{
    struct oracle_result orr;
    if (o->property == P_PROGRAM_SPEC && p->lit->quant == Q_NONE) {
        text_copy(r->reason, sizeof r->reason, "program_spec needs an exists, ~exists or forall condition");
        return;
    }
    if (p->lit->nanys > 0) {
        r->verdict = V_UNKNOWN;
        snprintf(r->reason, sizeof r->reason, "the oracle cannot enumerate arbitrary values (%d: OpUndef, push "
                 "constants and kernel arguments without a value)", p->lit->nanys);
        return;
    }
    if (!oracle_check(p, md, o, ORACLE_LIMIT, &orr)) {
        r->verdict = V_UNKNOWN;
        snprintf(r->reason, sizeof r->reason, "more than %ld candidate executions for the oracle",
                 (long)ORACLE_LIMIT);
        return;
    }
    r->verdict = orr.verdict;
    r->cut_at_bound = orr.cut_at_bound;
    snprintf(r->reason, sizeof r->reason, "oracle: %ld candidates, %ld consistent%s", orr.candidates,
             orr.consistent, orr.value_cycles && orr.verdict == V_UNKNOWN
             ? ", and value cycles the oracle cannot enumerate"
             : orr.cut_at_bound ? "; a flag is raised in an execution cut at the loop bound" : "");
    if (orr.consistent == 0 && orr.verdict != V_UNKNOWN) {
        note_no_execution(r);
        if (r->verdict == V_PASS)   /* the counts after the reason */
            snprintf(r->reason, sizeof r->reason, "vacuously: " NO_EXECUTION " (oracle: %ld candidates, "
                     "0 consistent)", orr.candidates);
    } else if (orr.counted == 0 && r->verdict == V_PASS) {   /* as note_vacuous */
        r->vacuous = true;
        snprintf(r->reason, sizeof r->reason, "vacuously: %s (oracle: %ld candidates, %ld consistent)",
                 orr.ended ? "no execution that terminates satisfies the filter" : "no execution terminates",
                 orr.candidates, orr.consistent);
    }
}

void check_program(const struct program *p, const struct model_desc *md, const struct check_opts *o,
                   struct check_result *r)
{
    struct sat_check s = { .p = p, .md = md, .o = o };
    text_copy(r->engine, sizeof r->engine, o->oracle ? "oracle" : "sat");
    switch (o->property) {
    case P_PROGRAM_SPEC: case P_CAT_SPEC:
        if (o->oracle)
            check_by_oracle(p, md, o, r);
        else if (o->property == P_PROGRAM_SPEC)
            check_program_spec(&s, r);
        else
            check_cat_spec(&s, r);
        break;
    case P_BARRIER_DIVERGENCE:
        if (o->oracle)
            snprintf(r->reason, sizeof r->reason,
                     "the oracle decides program_spec and cat_spec, not barrier_divergence");
        else
            divergence_check(&s, r);
        break;
    case P_TERMINATION:
        if (o->oracle)
            snprintf(r->reason, sizeof r->reason,
                     "the oracle decides program_spec and cat_spec, not termination");
        else
            check_termination(&s, r);
        break;
    }
}

void check_file(const char *path, const struct check_opts *o, struct check_result *r)
{
    struct loaded ld;
    if (check_begin(path, o, &ld, r)) {
        check_program(ld.p, ld.md, o, r);
        if (r->verdict == V_ERROR)
            check_name_error(path, 0, 0, r);
    }
    check_end(&ld, r);
}
