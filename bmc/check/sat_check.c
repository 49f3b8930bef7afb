/* One SAT check's solver session: encoding, lazy refinement, reading the
 * model back and re-checking it concretely. */
#include "bmc/check/sat_check.h"

#include <stdio.h>
#include <string.h>

#include "bmc/check/refine.h"
#include "bmc/check/symmetry.h"

/* Adds an activation literal and its guard for every enabled non-flag
 * axiom of m. */
static void guard_axioms(struct sat_check *s, struct model_out *m)
{
    for (int i = 0; i < m->naxioms; i++) {
        const struct axiom *ax = &m->axioms[i];
        if (ax->kind == AX_FLAG || axiom_disabled(ax->name, s->o->disabled, s->o->ndisabled))
            continue;
        lit act = cnf_var(s->c);
        model_guard(s->c, m, i, act);
        s->act_names[s->nacts] = ax->name;
        s->act_axioms[s->nacts] = ax;
        s->acts[s->nacts++] = act;
    }
}

void sat_setup(struct sat_check *s)
{
    s->c = cnf_new(true);
    s->key = -1;
    s->refined = (struct refine_log){ 0 };
    eval_memo_init(&s->memo, s->p, s->md);
    /* --explain switches axioms off in the session, so it assumes no
     * program-order fact: each rests on an axiom it would outlive */
    struct skeleton k = s->o->explain ? model_skeleton_without_facts(s->md)
                                      : model_skeleton(s->md, s->o->disabled, s->o->ndisabled);
    exec_encode(s->c, s->p, &k, s->sx_mode, &s->x);
    /* only cat_spec's query reads a flag (check.c); the other sessions
     * make no flag's terms */
    void (*build)(const struct model_desc *, struct cnf *, const struct base *, struct model_out *) =
        s->o->property == P_CAT_SPEC ? model_build : model_build_unflagged;
    build(s->md, s->c, &s->x.base, &s->m);
    s->weak_only = s->weak_first && s->md->weakening;
    if (s->weak_only) {
        build(s->md->weakening, s->c, &s->x.base, &s->wm);
        guard_axioms(s, &s->wm);
    } else {
        guard_axioms(s, &s->m);
    }
}

void sat_teardown(struct sat_check *s, struct check_result *r)
{
    r->nvars = cnf_num_vars(s->c);
    r->nclauses = cnf_num_clauses(s->c);
    r->npairs = rels_pairs(s->x.base.arena) + rels_pairs(s->m.arena);
    /* a copy, not snprintf (some 500 instructions a session for "%s") */
    const char *key = s->key == KEY_FIRST_WRITE ? "first" : s->key == KEY_LAST_WRITE ? "last" : "";
    _Static_assert(sizeof r->symmetry_key > sizeof "first", "the longest key fits");
    memcpy(r->symmetry_key, key, strlen(key) + 1);
    sat_discard(s);
}

void sat_discard(struct sat_check *s)
{
    eval_memo_free(&s->memo);
    model_out_free(&s->m);
    if (s->wm.arena)
        model_out_free(&s->wm);
    exec_free(&s->x);
    cnf_free(s->c);
    refine_log_free(&s->refined);
}

/* Forbids the cycles the current model has in enabled acyclicity axioms
 * (those not off); false when it has none (the model is a consistent
 * execution). */
static bool refine(struct sat_check *s, const bool *off)
{
    int found = refine_acyclic(s->c, s->x.bar_wait, LIT_TRUE, &s->refined);
    for (int i = 0; i < s->nacts; i++)
        if (s->act_axioms[i]->kind == AX_ACYCLIC && !(off && off[i]))
            found += refine_acyclic(s->c, s->act_axioms[i]->rel, s->acts[i], &s->refined);
    return found > 0;
}

int solve_with(struct sat_check *s, lit extra)
{
    return solve_without(s, extra, NULL);
}

static void extract_choice(struct sat_check *s, struct choice *ch);

/* The solver's model is a valid execution, consistent under the model. */
static bool consistent_under_model(struct sat_check *s)
{
    struct choice ch;
    extract_choice(s, &ch);
    const struct evaluation *ev = eval_memo_evaluate(&s->memo, s->o->disabled, s->o->ndisabled, &ch);
    choice_free(&ch);
    return ev->x.valid && ev->consistent;
}

/* solve_without with at most conflicts conflicts per call of the solver
 * (negative: no limit). */
static int solve_within(struct sat_check *s, lit extra, const bool *off, int conflicts)
{
    for (;;) {
        lit as[2 * MODEL_MAX_AXIOMS + 4];
        int k = 0;
        for (int i = 0; i < s->nacts; i++)
            if (!(off && off[i]))
                as[k++] = s->acts[i];
        as[k++] = extra;
        int res;
        while ((res = cnf_solve_limited(s->c, as, k, conflicts)) == 10 && refine(s, off))
            ;
        if (res != 10 || !s->weak_only || consistent_under_model(s))
            return res;
        s->weak_only = false;   /* a solution of the weakening only: the model's axioms join */
        guard_axioms(s, &s->m);
    }
}

int solve_without(struct sat_check *s, lit extra, const bool *off)
{
    return solve_within(s, extra, off, -1);
}

int solve_limited(struct sat_check *s, lit extra, int conflicts)
{
    return solve_within(s, extra, NULL, conflicts);
}

/* Reads the solver's model into a choice. */
static void extract_choice(struct sat_check *s, struct choice *ch)
{
    const struct program *p = s->p;
    int n = p->nevents;
    choice_init(ch, p);
    ch->has_hint = true;
    const struct rel *const *rels = s->x.base.rels;
    for (int i = 0; i < n; i++) {
        const int *cols;
        const lit *lits;
        for (int k = rel_row(rels[R_RF], i, &cols, &lits) - 1; k >= 0; k--)
            if (cnf_value(s->c, lits[k]))
                ch->rf[cols[k]] = i;
        for (int k = rel_row(rels[R_CO], i, &cols, &lits) - 1; k >= 0; k--)
            ch->co[(size_t)i * n + cols[k]] = cnf_value(s->c, lits[k]);
        for (int k = rel_row(rels[R_SYNC_FENCE], i, &cols, &lits) - 1; k >= 0; k--)
            ch->sf[(size_t)i * n + cols[k]] = cnf_value(s->c, lits[k]);
        ch->sync[i] = cnf_value(s->c, s->x.sync[i]);
        if (p->events[i].kind == EV_READ)
            ch->val_hint[i] = bv_model_value(s->c, &s->x.sx.val[i]);
        if (cnf_value(s->c, s->x.final_pick[i]))
            ch->final_pick[program_root_location(p->lit, p->events[i].loc)] = i;
    }
    for (int t = 0; t < p->nthreads; t++)
        for (int i = 0; i <= p->threads[t].ncode; i++)
            if (cnf_value(s->c, s->x.sx.halt_at[t][i]))
                ch->stop_at[t] = i;
    for (int k = 0; k < p->lit->nanys; k++)
        ch->any_val[k] = bv_model_value(s->c, &s->x.sx.any[k]);
}

/* Some thread of the concrete execution spins, repeats or is blocked. */
static bool some_thread_stuck(const struct program *p, const struct concrete *x)
{
    for (int t = 0; t < p->nthreads; t++)
        if (x->spins[t] || x->repeats[t] || x->blocked[t])
            return true;
    return false;
}

const struct axiom *raised_flag(const struct model_out *m, const struct check_opts *o)
{
    for (int i = 0; i < m->naxioms; i++)
        if (m->axioms[i].kind == AX_FLAG && m->axioms[i].violated == LIT_TRUE
            && !axiom_disabled(m->axioms[i].name, o->disabled, o->ndisabled))
            return &m->axioms[i];
    return NULL;
}

const char *evaluate_model(struct sat_check *s, enum goal goal, struct choice *ch,
                           const struct evaluation **evp)
{
    extract_choice(s, ch);
    const struct evaluation *ev = *evp = eval_memo_evaluate(&s->memo, s->o->disabled, s->o->ndisabled, ch);
    const char *why = NULL;
    bool flag = goal == GOAL_FLAG || goal == GOAL_FLAG_CUT;
    if (!ev->x.valid)
        why = ev->x.why;
    else if (!ev->consistent)
        why = ev->violated;
    else if (goal == GOAL_FLAG && ev->bound_hit)
        why = "a thread is cut at the bound";
    else if (goal == GOAL_FLAG_CUT && !ev->bound_hit)
        why = "no thread is cut at the bound";
    else if (goal != GOAL_STUCK && !ev->terminated && (!flag || s->p->lit->filter))
        why = "not every thread terminates";
    else if (!ev->filter && goal != GOAL_STUCK)
        why = "the filter does not hold";
    else if (goal == GOAL_STUCK && (ev->bound_hit || !some_thread_stuck(s->p, &ev->x)))
        why = "no thread is stuck short of the bound";
    else if (flag && raised_flag(&ev->m, s->o) == NULL)
        why = "no flag is raised";
    else if ((goal == GOAL_TRUE || goal == GOAL_FALSE) && ev->assertion != (goal == GOAL_TRUE))
        why = "the final state does not decide the property as the solver said";
    for (int e = 0; !why && e < s->p->nevents; e++)   /* a read's value is extract_choice's, read in this model */
        if (ev->x.exec[e] != cnf_value(s->c, s->x.sx.exec[e]) ||
            (ev->x.exec[e] && s->p->events[e].loc >= 0 &&
             ev->x.val[e] != (s->p->events[e].kind == EV_READ ? ch->val_hint[e]
                                                               : bv_model_value(s->c, &s->x.sx.val[e]))))
            why = "the concrete run differs from the solver's execution";
    return why;
}

lit all_terminated(struct sat_check *s)
{
    lit term = LIT_TRUE;
    for (int t = 0; t < s->p->nthreads; t++)
        term = cnf_and(s->c, term, s->x.sx.terminated[t]);
    return term;
}

lit some_bound_hit(struct sat_check *s)
{
    lit bound = LIT_FALSE;
    for (int t = 0; t < s->p->nthreads; t++)
        bound = cnf_or(s->c, bound, s->x.sx.bound_hit[t]);
    return bound;
}
