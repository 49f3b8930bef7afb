/* Refinement checks: the source's outcomes once, then one query per target
 * with every source outcome forbidden. */
#include "bmc/compare/refinement.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bmc/check/enumerate.h"
#include "bmc/check/explain.h"
#include "bmc/check/load.h"
#include "bmc/compare/map.h"
#include "bmc/compare/match.h"
#include "bmc/check/sat_check.h"
#include "bmc/concrete/witness.h"
#include "encoders/assertion.h"
#include "util/xalloc.h"

/* Sets r->reason, cut to its size. */
__attribute__((format(printf, 2, 3)))
static void say(struct check_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->reason, sizeof r->reason, fmt, ap);
    va_end(ap);
}

/* The final-state view of a SAT check, for assertions. */
static struct final_state final_state_of(const struct sat_check *s)
{
    return (struct final_state){ s->x.sx.final_regs, s->x.final_mem };
}

bool refinement_source_init(struct refinement_source *s, const struct program *p,
                            const struct model_desc *md, const struct check_opts *o,
                            struct check_result *r)
{
    memset(s, 0, sizeof *s);
    s->p = p;
    s->md = s->target_md = md;
    s->o = o;
    int nobs;
    char err[240];
    struct avalue *obs = match_source_observables(p->lit, o->observe, &s->from, &nobs, err, sizeof err);
    outcomes_init_observing(&s->states, p->lit, obs, obs ? nobs : 0);
    free(obs);
    if (!obs) {
        r->verdict = V_ERROR;
        say(r, "%s: error: %s", p->lit->path ? p->lit->path : "the source", err);
        return false;
    }
    if (o->property != P_PROGRAM_SPEC)
        return true;
    struct sat_check c = { .p = p, .md = md, .o = o };
    sat_setup(&c);
    struct final_state fs = final_state_of(&c);
    lit filter = assertion_encode(c.c, p->lit->filter, &fs);
    lit body = assertion_encode(c.c, p->lit->assertion, &fs);
    lit bound = some_bound_hit(&c);
    if (bound != LIT_FALSE && solve_with(&c, bound) == 10) {
        char why[96];
        snprintf(why, sizeof why, "some loop of the source can run past the loop bound %d", p->bound);
        outcomes_incomplete(&s->states, why);
    }
    bool capped = false;
    bool ok = enumerate_states(&c, body, filter, &s->states, &capped, r);
    struct check_result sizes;
    sat_teardown(&c, &sizes);
    if (!ok)
        r->verdict = V_ERROR;
    return ok;
}

void refinement_source_free(struct refinement_source *s)
{
    outcomes_free(&s->states);
    cJSON_Delete(s->own.witness);
    cJSON_Delete(s->own.outcomes);
    cJSON_Delete(s->own.details);
}

/* "P0 `st.weak x, 1`", or "the initial value" for an initial write. */
static void name_write(const struct program *p, int w, char *buf, size_t len)
{
    const struct event *e = &p->events[w];
    if (e->kind == EV_INIT)
        snprintf(buf, len, "the initial value");
    else
        snprintf(buf, len, "P%d `%s`", p->lit->threads[e->thread].id, e->in->text);
}

/* What each executed read of the execution reads, one string per read:
 * "P1 `ld.weak r1, x` reads 0 from the initial value". */
static cJSON *reads_json(const struct program *p, const struct choice *ch, const struct concrete *x)
{
    cJSON *a = cJSON_CreateArray();
    for (int e = 0; e < p->nevents; e++) {
        const struct event *ev = &p->events[e];
        if (ev->kind != EV_READ || !x->exec[e] || ch->rf[e] < 0)
            continue;
        char from[160], line[400];
        name_write(p, ch->rf[e], from, sizeof from);
        snprintf(line, sizeof line, "P%d `%s` reads %d from %s", p->lit->threads[ev->thread].id,
                 ev->in->text, (int)x->val[e], from);
        cJSON_AddItemToArray(a, cJSON_CreateString(line));
    }
    return a;
}

/* The source's outcomes projected onto the observables the target shares
 * (tobs[i].kind != AV_CONST), each marked as satisfying the source's
 * condition or not: into proj, with the shared source and target values
 * in sobs and tmap (n of them). */
static void project_states(const struct refinement_source *s, const struct avalue *tobs,
                           struct outcome_set *proj, struct avalue *tmap, int *n)
{
    const struct outcome_set *all = &s->states;
    struct avalue *sobs = xcalloc((size_t)all->nobs + 1, sizeof *sobs);
    int *cols = xcalloc((size_t)all->nobs + 1, sizeof *cols);
    *n = 0;
    for (int i = 0; i < all->nobs; i++)
        if (tobs[i].kind != AV_CONST) {
            sobs[*n] = all->obs[i];
            tmap[*n] = tobs[i];
            cols[(*n)++] = i;
        }
    outcomes_init_observing(proj, s->p->lit, sobs, *n);
    int32_t *row = xcalloc((size_t)*n + 1, sizeof *row);
    bool marked = s->p->lit->quant != Q_NONE;     /* without a condition no state satisfies one */
    for (int st = 0; st < all->nstates; st++) {
        for (int k = 0; k < *n; k++)
            row[k] = all->values[(size_t)st * all->nobs + cols[k]];
        outcomes_add(proj, row, marked && all->satisfies[st]);   /* a merged state keeps its first mark */
    }
    if (!all->complete)
        outcomes_incomplete(proj, all->why_incomplete);
    free(row);
    free(cols);
    free(sobs);
}

/* Re-checks the target's model as a new outcome whose shared values are
 * vals; fills r->witness (when asked), and in details the reads and whether
 * the state satisfies the target's condition.  NULL when the evaluator
 * agrees, else why not. */
static const char *recheck_new_outcome(struct sat_check *c, const struct avalue *tmap, int n,
                                       const int32_t *vals, cJSON *details, struct check_result *r)
{
    struct choice ch;
    const struct evaluation *ev;
    const char *why = evaluate_model(c, GOAL_ANY, &ch, &ev);
    for (int i = 0; !why && i < n; i++) {
        const struct avalue *v = &tmap[i];
        int32_t got = v->kind == AV_REG ? ev->x.final_regs[v->thread][v->reg] : ev->x.final_mem[v->loc];
        if (got != vals[i])
            why = "an observed final value differs";
    }
    if (!why) {
        cJSON_AddBoolToObject(details, "new_outcome_satisfies", ev->assertion && c->p->lit->quant != Q_NONE);
        cJSON_AddItemToObject(details, "reads", reads_json(c->p, &ch, &ev->x));
        if (c->o->want_witness)
            r->witness = wit_build(c->p, &ev->x, &ev->b, &ev->m);
    }
    choice_free(&ch);
    return why;
}

/* "P1:r0=0; P1:r1=0;" for the n values vals named by o. */
static void state_text(const struct outcome_set *o, const int32_t *vals, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < o->nobs && used + 1 < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s=%d;", i ? " " : "", o->names[i], (int)vals[i]);
}

/* The JSON object {name: value} of a state. */
static cJSON *state_json(const struct outcome_set *o, const int32_t *vals)
{
    cJSON *j = cJSON_CreateObject();
    for (int i = 0; i < o->nobs; i++)
        cJSON_AddNumberToObject(j, o->names[i], vals[i]);
    return j;
}

/* The final states that tell the test's condition what it asks about: those
 * that satisfy its proposition for exists and ~exists, those that violate it
 * for forall (TRUE without a condition).  A new outcome among them is the
 * one a reader wants to see first. */
static lit telling_outcome(struct sat_check *c, const struct litmus *l, const struct final_state *fs)
{
    if (l->quant == Q_NONE)
        return LIT_TRUE;
    lit body = assertion_encode(c->c, l->assertion, fs);
    return l->quant == Q_FORALL ? -body : body;
}

/* Why the source forbids the state vals over proj's observables (its
 * values in the source): explain_forbidden's object, with its one-line
 * summary in text; NULL when the source reaches the state after all (its
 * outcome set was cut). */
static cJSON *why_source_forbids(const struct refinement_source *s, const struct outcome_set *proj,
                                 const int32_t *vals, char *text, size_t len)
{
    struct check_opts o = *s->o;
    o.want_witness = false;               /* the witness shown is the target's */
    struct sat_check c = { .p = s->p, .md = s->md, .o = &o };
    sat_setup(&c);
    struct final_state fs = final_state_of(&c);
    lit query = cnf_and(c.c, assertion_encode(c.c, s->p->lit->filter, &fs), all_terminated(&c));
    for (int i = 0; i < proj->nobs; i++)
        query = cnf_and(c.c, query, bv_eq(c.c, *enumerate_observed_bv(&c, &proj->obs[i]), bv_const(vals[i])));
    cJSON *why = solve_with(&c, query) == 20 ? explain_forbidden(&c, query, GOAL_ANY, text, len) : NULL;
    struct check_result sizes;
    sat_teardown(&c, &sizes);
    return why;
}

/* program_spec refinement of target t with shared observables tobs. */
static void check_outcomes(struct refinement_source *s, const struct program *t, const struct avalue *tobs,
                           struct check_result *r)
{
    struct outcome_set proj;
    struct avalue *tmap = xcalloc((size_t)s->states.nobs + 1, sizeof *tmap);
    int n;
    project_states(s, tobs, &proj, tmap, &n);
    cJSON *details = cJSON_CreateObject();
    cJSON_AddStringToObject(details, "kind", "refinement");
    cJSON_AddStringToObject(details, "observed_from", observed_from_name(s->from));
    cJSON_AddItemToObject(details, "source", outcomes_json(&proj));
    struct sat_check c = { .p = t, .md = s->target_md, .o = s->o };
    sat_setup(&c);
    struct final_state fs = final_state_of(&c);
    lit filter = assertion_encode(c.c, t->lit->filter, &fs);
    lit telling = telling_outcome(&c, t->lit, &fs);
    lit bound = some_bound_hit(&c);
    bool cut = bound != LIT_FALSE && solve_with(&c, bound) == 10;
    for (int st = 0; st < proj.nstates; st++)
        enumerate_block(&c, tmap, n, proj.values + (size_t)st * n);
    lit ends = cnf_and(c.c, filter, all_terminated(&c));
    if (solve_with(&c, cnf_and(c.c, ends, telling)) == 10 || solve_with(&c, ends) == 10) {
        int32_t *vals = xcalloc((size_t)n + 1, sizeof *vals);
        for (int i = 0; i < n; i++)
            vals[i] = bv_model_value(c.c, enumerate_observed_bv(&c, &tmap[i]));
        char text[200];
        state_text(&proj, vals, text, sizeof text);
        cJSON_AddItemToObject(details, "new_outcome", state_json(&proj, vals));
        const char *why = recheck_new_outcome(&c, tmap, n, vals, details, r);
        if (why) {
            r->verdict = V_ERROR;
            snprintf(r->reason, sizeof r->reason,
                     "internal error: the concrete evaluator rejects the target's new outcome (%s)", why);
        } else if (proj.complete) {
            r->verdict = V_FAIL;
            say(r, "the target has a new outcome: %s", text);
            char why_text[1024];
            cJSON *why_not = s->o->explain ? why_source_forbids(s, &proj, vals, why_text, sizeof why_text) : NULL;
            if (why_not) {
                cJSON_AddStringToObject(details, "source_forbids", why_text);
                cJSON_AddItemToObject(details, "explanation", why_not);
            }
        } else {
            r->verdict = V_UNKNOWN;
            say(r, "the target has an outcome the source does not reach within the bound (%s): %s",
                proj.why_incomplete, text);
        }
        free(vals);
    } else {
        cJSON_AddNullToObject(details, "new_outcome");
        if (cut) {
            r->verdict = V_UNKNOWN;
            say(r, "no new outcome within the loop bound %d, and some loop "
                     "of the target can run past it", t->bound);
        } else {
            r->verdict = V_PASS;
            say(r, "no new outcome: the target's outcomes are among the source's %d", proj.nstates);
        }
    }
    sat_teardown(&c, r);
    r->details = details;
    outcomes_free(&proj);
    free(tmap);
}

/* termination or cat_spec: the target fails where the source passes. */
static void check_new_failure(struct refinement_source *s, const struct program *t, struct check_result *r)
{
    const char *what = s->o->property == P_TERMINATION ? "hang" : "race";
    check_program(t, s->target_md, s->o, r);
    cJSON *details = cJSON_CreateObject();
    cJSON_AddStringToObject(details, "kind", "refinement");
    cJSON_AddStringToObject(details, "target_result", verdict_name(r->verdict));
    r->details = details;
    if (r->verdict == V_PASS) {
        char reason[sizeof r->reason];
        snprintf(reason, sizeof reason, "%s", r->reason);
        say(r, "the target cannot %s (%s)", what, reason);
    }
    if (r->verdict != V_FAIL)
        return;
    if (!s->checked) {
        check_program(s->p, s->md, s->o, &s->own);
        s->checked = true;
    }
    cJSON_AddStringToObject(details, "source_result", verdict_name(s->own.verdict));
    char reason[sizeof r->reason];
    snprintf(reason, sizeof reason, "%s", r->reason);
    switch (s->own.verdict) {
    case V_PASS:
        say(r, "the target can %s where the source cannot: %s", what, reason);
        return;
    case V_FAIL:
        r->verdict = V_PASS;
        say(r, "the source can %s too (target: %s)", what, reason);
        break;
    case V_UNKNOWN:
        r->verdict = V_UNKNOWN;
        say(r, "the target can %s (%s), and the source is undecided: %s",
                 what, reason, s->own.reason);
        break;
    case V_ERROR:
        r->verdict = V_ERROR;
        say(r, "source: %s", s->own.reason);
        break;
    }
    cJSON_Delete(r->witness);
    r->witness = NULL;
}

void refinement_check(struct refinement_source *s, const struct program *t, struct check_result *r)
{
    double t0 = check_clock_ms();
    memset(r, 0, sizeof *r);
    snprintf(r->model, sizeof r->model, "%s", s->target_md->name);
    char err[240];
    struct avalue *tobs = xcalloc((size_t)s->states.nobs + 1, sizeof *tobs);
    if (!match_threads(s->p->lit, t->lit, err, sizeof err)
        || !match_observables(s->p->lit, s->states.obs, s->states.nobs, s->from, t->lit, tobs, err,
                              sizeof err)) {
        r->verdict = V_ERROR;
        say(r, "error: %s", err);
    } else if (s->o->property == P_PROGRAM_SPEC) {
        check_outcomes(s, t, tobs, r);
        snprintf(r->engine, sizeof r->engine, "sat");
    } else {
        check_new_failure(s, t, r);
    }
    free(tobs);
    r->ms = check_clock_ms() - t0;
}

void check_refinement(const char *src_path, const char *tgt_path, const struct check_opts *o,
                      struct check_result *r)
{
    struct loaded src, tgt = { 0 };
    char err[240];
    if (check_begin(src_path, o, &src, r) && load_program(tgt_path, o, &tgt, r)) {
        struct refinement_source s = { 0 };
        if (!match_threads(src.lit, tgt.lit, err, sizeof err))
            say(r, "%s: error: %s (source %s)", tgt_path, err, src_path);
        else if (refinement_source_init(&s, src.p, src.md, o, r)) {
            if (tgt.lit->dialect != src.lit->dialect)   /* a compiled program: under its own model */
                s.target_md = tgt.md;
            refinement_check(&s, tgt.p, r);
        }
        if (r->verdict == V_ERROR && strncmp(r->reason, "error: ", 7) == 0) {
            char why[sizeof r->reason];
            snprintf(why, sizeof why, "%s", r->reason + 7);
            say(r, "%s: error: %s (source %s)", tgt_path, why, src_path);
        }
        if (s.p)
            refinement_source_free(&s);
    }
    loaded_free(&tgt);
    check_end(&src, r);
}

int refinement_races(const struct program *p, const struct model_desc *md, const struct check_opts *o,
                     char *why, size_t len)
{
    struct check_opts race = *o;
    struct check_result own;
    memset(&own, 0, sizeof own);
    race.property = P_CAT_SPEC;
    race.want_witness = false;
    check_program(p, md, &race, &own);
    snprintf(why, len, "%s", own.reason);
    cJSON_Delete(own.witness);
    cJSON_Delete(own.details);
    cJSON_Delete(own.explanation);
    cJSON_Delete(own.outcomes);
    return own.verdict == V_FAIL ? 1 : own.verdict == V_PASS ? 0 : -1;
}

/* Whether p has a race under md (a flag of cat_spec raised); false with
 * r an ERROR when that check errs. */
static bool source_races(const struct program *p, const struct model_desc *md, const struct check_opts *o,
                         struct check_result *r, bool *racy)
{
    char why[sizeof r->reason];
    int races = refinement_races(p, md, o, why, sizeof why);
    *racy = races == 1;
    if (races < 0)
        say(r, "the source's race check: %s", why);
    else if (*racy)
        say(r, "vacuously: the source has a race (%s), whose outcomes OpenCL leaves undefined", why);
    return races >= 0;
}

void check_mapping(const char *path, const char *map, const struct check_opts *o, struct check_result *r)
{
    struct loaded src;
    char err[240], msg[256] = "";
    struct litmus *tl = NULL;
    struct program *tp = NULL;
    bool racy = false;
    if (check_begin(path, o, &src, r)) {
        struct refinement_source s = { 0 };
        if (o->property == P_PROGRAM_SPEC && !source_races(src.p, src.md, o, r, &racy)) {
            r->verdict = V_UNKNOWN;
        } else if (racy) {
            r->verdict = V_PASS;
            r->vacuous = true;
        } else if (!(tl = map_compile(src.lit, map, err, sizeof err)))
            say(r, "%s: error: %s", path, err);
        else if (!(tp = program_build(tl, o->bound, msg, sizeof msg)))
            say(r, "%s: error: the compiled program: %s", path, msg);
        else if (refinement_source_init(&s, src.p, src.md, o, r)) {
            s.target_md = model_find(map_target_model(map));
            refinement_check(&s, tp, r);
        }
        if (s.p)
            refinement_source_free(&s);
    }
    program_free(tp);
    litmus_free(tl);
    check_end(&src, r);
}
