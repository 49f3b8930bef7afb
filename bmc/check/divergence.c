/* Barrier divergence as a SAT query over the termination encoding (threads
 * may wait at a barrier for ever, or spin). */
#include "bmc/check/divergence.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmc/check/termination.h"
#include "litmus/spirv.h"
#include "util/xalloc.h"

/* Whether barrier event b must be met by every thread of its scope: a
 * waiting barrier (not an arrive) without a quorum. */
static bool all_must_meet(const struct event *eb)
{
    return eb->kind == EV_BARRIER && !eb->in->arrive && !eb->in->has_bar_quorum;
}

/* The static barrier each event is, in site[e]: for a litmus test, how
 * many barriers that meet it come before its instruction in its thread's
 * code (the k-th `B1` statement of one thread is the k-th of another, so
 * the two arms of an if are two barriers); for SPIR-V, where every
 * OpControlBarrier is its own barrier already (bar_instance), 0. */
static void find_sites(const struct program *p, int *site)
{
    bool spirv = spirv_path(p->lit->path);
    for (int e = 0; e < p->nevents; e++) {
        const struct event *ev = &p->events[e];
        site[e] = 0;
        if (ev->kind != EV_BARRIER || spirv)
            continue;
        const struct thread *th = &p->lit->threads[ev->thread];
        for (const struct instr *o = th->instrs; o < th->instrs + th->ninstrs && o != ev->in; o++)
            site[e] += o->kind == I_BARRIER && o->has_bar_id == ev->in->has_bar_id
                       && o->bar_instance == ev->in->bar_instance;
    }
}

/* Whether barrier m is reached as the same occurrence of b's id as b
 * (with named barriers, the same id value): the same dynamic barrier when
 * the sites agree, another occurrence of it when they do not. */
static lit same_occurrence(struct cnf *c, const struct program *p, const struct exec_enc *x, int b, int m)
{
    lit same = cnf_and(c, x->sx.cf[m], bv_eq(c, x->bar_occ[b], x->bar_occ[m]));
    if (p->events[b].in->has_bar_id)
        same = cnf_and(c, same, bv_eq(c, x->sx.operand[b], x->sx.operand[m]));
    return same;
}

/* Whether thread u reaches the dynamic barrier that event b is: the same
 * site, id and occurrence, with any of u's barriers that meet b's. */
static lit reaches(struct cnf *c, const struct program *p, const struct exec_enc *x, const int *site, int b, int u)
{
    const struct pthread *pu = &p->threads[u];
    lit some = LIT_FALSE;
    for (int m = pu->first_event; m < pu->first_event + pu->nevents; m++)
        if (exec_barriers_meet(p, &p->events[b], &p->events[m]) && site[m] == site[b])
            some = cnf_or(c, some, same_occurrence(c, p, x, b, m));
    return some;
}

/* Whether barrier m is another barrier standing where b should be met: in
 * a litmus test, one with b's id at another site; in SPIR-V, another
 * OpControlBarrier of b's workgroup (or subgroup, when named by it). */
static bool another_barrier(const struct program *p, const int *site, int b, int m)
{
    const struct event *eb = &p->events[b], *em = &p->events[m];
    if (!spirv_path(p->lit->path))
        return exec_barriers_meet(p, eb, em) && site[m] != site[b];
    return em->kind == EV_BARRIER && em->in->bar_instance != eb->in->bar_instance
        && em->in->has_bar_id == eb->in->has_bar_id && program_same_scope(p, eb->thread, em->thread, SCOPE_WG);
}

/* The line of the barrier of thread u that the solver's model has reach
 * the occurrence number of b at another barrier, or 0. */
static int line_elsewhere(struct sat_check *s, const int *site, int b, int u)
{
    const struct program *p = s->p;
    const struct pthread *pu = &p->threads[u];
    for (int m = pu->first_event; m < pu->first_event + pu->nevents; m++)
        if (another_barrier(p, site, b, m) && cnf_value(s->c, same_occurrence(s->c, p, &s->x, b, m)))
            return p->events[m].in->pos.line;
    return 0;
}

/* The threads sharing barrier b's scope, b's own first. */
static int scope_threads(const struct program *p, int b, int *out)
{
    int t = p->events[b].thread, n = 0;
    enum scope sc = p->lit->dialect == DIALECT_PTX ? SCOPE_CTA : SCOPE_WG;
    out[n++] = t;
    for (int u = 0; u < p->nthreads; u++)
        if (u != t && program_same_scope(p, t, u, sc))
            out[n++] = u;
    return n;
}

/* Names the first divergent barrier of the solver's model in r->reason
 * and, with a witness, in its "divergence" object. */
static void describe(struct sat_check *s, const lit *missing, const int *site, struct check_result *r)
{
    const struct program *p = s->p;
    int *members = xcalloc((size_t)p->nthreads + 1, sizeof *members);
    for (int b = 0; b < p->nevents; b++) {
        if (!missing[b] || !cnf_value(s->c, missing[b]))
            continue;
        const struct event *eb = &p->events[b];
        int n = scope_threads(p, b, members);
        char in[256] = "", out[512] = "";
        size_t ui = 0, uo = 0;
        cJSON *reached = cJSON_CreateArray(), *not_reached = cJSON_CreateArray();
        cJSON *elsewhere = cJSON_CreateArray();
        for (int i = 0; i < n; i++) {
            int u = members[i], id = p->lit->threads[u].id;
            bool at = u == eb->thread || cnf_value(s->c, reaches(s->c, p, &s->x, site, b, u));
            int other = at ? 0 : line_elsewhere(s, site, b, u);
            cJSON_AddItemToArray(at ? reached : not_reached, cJSON_CreateNumber(id));
            if (other) {
                cJSON *o = cJSON_CreateObject();
                cJSON_AddNumberToObject(o, "thread", id);
                cJSON_AddNumberToObject(o, "line", other);
                cJSON_AddItemToArray(elsewhere, o);
            }
            if (at && ui + 16 < sizeof in)
                ui += (size_t)snprintf(in + ui, sizeof in - ui, "%sP%d", ui ? ", " : "", id);
            else if (!at && uo + 64 < sizeof out && other)
                uo += (size_t)snprintf(out + uo, sizeof out - uo, "%sP%d (at the barrier of line %d instead)",
                                       uo ? ", " : "", id, other);
            else if (!at && uo + 16 < sizeof out)
                uo += (size_t)snprintf(out + uo, sizeof out - uo, "%sP%d", uo ? ", " : "", id);
        }
        long occ = (long)bv_model_value(s->c, &s->x.bar_occ[b]);
        snprintf(r->reason, sizeof r->reason, "barrier `%s` (line %d, occurrence %ld) is reached by %s but not "
                 "by %s of its %s", eb->in->text, eb->in->pos.line, occ + 1, in, out,
                 p->lit->dialect == DIALECT_PTX ? "CTA" : "workgroup");
        if (r->witness) {
            cJSON *d = cJSON_AddObjectToObject(r->witness, "divergence");
            cJSON_AddStringToObject(d, "barrier", eb->in->text);
            cJSON_AddNumberToObject(d, "line", eb->in->pos.line);
            cJSON_AddNumberToObject(d, "occurrence", (double)(occ + 1));
            cJSON_AddItemToObject(d, "reached_by", reached);
            cJSON_AddItemToObject(d, "not_reached_by", not_reached);
            cJSON_AddItemToObject(d, "elsewhere", elsewhere);
        } else {
            cJSON_Delete(reached);
            cJSON_Delete(not_reached);
            cJSON_Delete(elsewhere);
        }
        break;
    }
    free(members);
}

void divergence_check(struct sat_check *s, struct check_result *r)
{
    const struct program *p = s->p;
    s->sx_mode = SX_MAY_REPEAT;   /* a thread may wait at a barrier, or spin, for ever */
    sat_setup(s);
    termination_encode(s->c, p, &s->x);
    lit *missing = xcalloc((size_t)p->nevents + 1, sizeof *missing);
    int *site = xcalloc((size_t)p->nevents + 1, sizeof *site);
    int *members = xcalloc((size_t)p->nthreads + 1, sizeof *members);
    find_sites(p, site);
    lit some = LIT_FALSE;
    for (int b = 0; b < p->nevents; b++) {
        if (!all_must_meet(&p->events[b]) || s->x.sx.cf[b] == LIT_FALSE)
            continue;
        int n = scope_threads(p, b, members);
        lit absent = LIT_FALSE;
        for (int i = 1; i < n; i++)
            absent = cnf_or(s->c, absent, -reaches(s->c, p, &s->x, site, b, members[i]));
        missing[b] = cnf_and(s->c, s->x.sx.cf[b], absent);
        some = cnf_or(s->c, some, missing[b]);
    }
    lit query = some == LIT_FALSE ? LIT_FALSE : cnf_and(s->c, some, -some_bound_hit(s));
    if (query != LIT_FALSE && solve_with(s, query) == 10) {
        r->verdict = V_FAIL;
        bool ends = cnf_value(s->c, all_terminated(s));
        if (sat_recheck(s, ends ? GOAL_ANY : GOAL_STUCK, r))
            describe(s, missing, site, r);
        else
            r->verdict = V_ERROR;
    } else if (sat_cut_at_bound(s)) {
        r->verdict = V_UNKNOWN;
        snprintf(r->reason, sizeof r->reason,
                 "no divergent barrier within the loop bound %d, and some loop can run past it", p->bound);
    } else {
        r->verdict = V_PASS;
        snprintf(r->reason, sizeof r->reason, "every barrier is reached by all threads of its scope or by none");
    }
    free(missing);
    free(site);
    free(members);
    sat_teardown(s, r);
}
