/* The explicit-state termination check. */
#include "bmc/check/states_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmc/concrete/fair.h"
#include "bmc/concrete/lasso.h"
#include "bmc/concrete/lasso_witness.h"
#include "bmc/concrete/strong.h"
#include "bmc/concrete/text.h"
#include "util/xalloc.h"

/* "P0, P1": the threads t with which[t]. */
static void threads_named(const struct litmus *l, const bool *which, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int t = 0; t < l->nthreads && used + 16 < len; t++)
        if (which[t])
            used += (size_t)snprintf(buf + used, len - used, "%sP%d", used ? ", " : "", l->threads[t].id);
}

/* "; starved: P1 by QF 0 (obe) owes WG 1 nothing": for each thread the
 * lasso never runs again, which scope's scheduler lets it starve (at the
 * lasso's entry); "" when none.  ended and started are scratch of
 * nthreads entries.  Returns the length written. */
static size_t starved(const struct litmus *l, const struct state_graph *g, const struct fair_tree *tr,
                    enum progress_model m, const struct lasso *la, bool *ended, bool *started, char *buf, size_t len)
{
    int nt = g->nthreads;
    for (int t = 0; t < nt; t++) {
        ended[t] = states_pc(g, la->entry, t) >= g->code[t].n;
        started[t] = states_started(g, la->entry, t);
    }
    size_t used = 0;
    buf[0] = '\0';
    for (int t = 0; t < nt && used + 80 < len; t++) {
        char why[96];
        if (la->how[t] != LASSO_HALTED)
            continue;
        fair_starver(tr, m, ended, started, t, why, sizeof why);
        char digits[12];
        if (why[0])
            text_append(buf, len, &used, (const char *const[]){ used ? ", " : "; starved: ", "P",
                                                                 text_int(l->threads[t].id, digits), ": ", why }, 5);
    }
    return used;
}

/* A lasso of the check and its re-check: lasso_find is a function of the
 * component and the threads the cycle must step, and lasso_witness of the
 * graph and the lasso, so a progress model whose component and threads
 * are another's gets its lasso, and one whose lasso is the same (every
 * step, and what each thread does for ever) its outcome and witness,
 * without replaying it. */
struct rechecked {
    struct lasso la;
    int scc;                 /* the fair component lasso_find built la in; -1: strong_find's */
    bool *need;              /* the threads its cycle steps (for lasso_find) */
    bool checked, ok;        /* re-checked, and its outcome */
    bool described;          /* full, brief and engine are filled */
    char full[512], brief[96];   /* lasso_describe's texts */
    char engine[96];         /* a weak model's reason's end: the engine's part */
    char why[256];
    cJSON *witness;          /* NULL when none was asked for */
};

/* The lassos of a check. */
struct recheck_log {
    struct rechecked *done;
    int n, cap;
};

/* Lassos a and b of one graph with nthreads threads are one lasso. */
static bool same_lasso(const struct lasso *a, const struct lasso *b, int nthreads)
{
    return a->nstem == b->nstem && a->ncycle == b->ncycle && a->entry == b->entry
           && memcmp(a->step, b->step, (size_t)(a->nstem + a->ncycle) * sizeof *a->step) == 0
           && memcmp(a->how, b->how, (size_t)nthreads * sizeof *a->how) == 0;
}

/* The logged lasso la (taken over: freed when the log has it already),
 * built in component scc (-1: by strong_find) stepping need. */
static struct rechecked *log_lasso(struct recheck_log *log, struct lasso *la, int scc, const bool *need, int nthreads)
{
    for (int i = 0; i < log->n; i++)
        if (same_lasso(&log->done[i].la, la, nthreads)) {
            lasso_free(la);
            return &log->done[i];
        }
    XGROW(log->done, log->cap, log->n + 1);
    struct rechecked *d = &log->done[log->n++];
    d->la = *la;   /* field by field: the texts' buffers (1 KB) are written before they are read */
    d->scc = scc;
    d->checked = d->ok = d->described = false;
    d->why[0] = '\0';
    d->witness = NULL;
    d->need = xcalloc((size_t)nthreads + 1, sizeof *d->need);
    memcpy(d->need, need, (size_t)nthreads * sizeof *need);
    return d;
}

/* The lasso lasso_find builds in component scc through a step of every
 * thread with need, from the log when an earlier model's was built so. */
static struct rechecked *fair_lasso(struct recheck_log *log, const struct state_graph *g, const struct fair_sccs *f,
                                    int scc, const bool *need)
{
    for (int i = 0; i < log->n; i++)
        if (log->done[i].scc == scc && memcmp(log->done[i].need, need, (size_t)g->nthreads * sizeof *need) == 0)
            return &log->done[i];
    struct lasso la;
    lasso_find(g, f, scc, need, &la);
    return log_lasso(log, &la, scc, need, g->nthreads);
}

/* The concrete re-check of d's lasso (bmc/concrete/lasso_witness.h), once
 * per lasso of the check: true when it holds; with witness, *witness gets
 * the lasso's JSON (a copy of the first's when it was re-checked before);
 * false, with why filled, when the evaluator rejects it. */
static bool recheck_once(struct rechecked *d, struct lasso_recheck *rc, const struct state_graph *g,
                         cJSON **witness, char *why, size_t len)
{
    if (!d->checked || (witness && d->ok && !d->witness)) {
        cJSON_Delete(d->witness);
        d->witness = NULL;
        d->ok = lasso_witness(rc, g, &d->la, witness ? &d->witness : NULL, d->why, sizeof d->why);
        d->checked = true;
    }
    if (!d->ok)
        snprintf(why, len, "%s", d->why);
    if (witness && d->witness)
        *witness = cJSON_Duplicate(d->witness, true);
    return d->ok;
}

static void recheck_log_free(struct recheck_log *log)
{
    for (int i = 0; i < log->n; i++) {
        lasso_free(&log->done[i].la);
        free(log->done[i].need);
        cJSON_Delete(log->done[i].witness);
    }
    free(log->done);
}

/* One model's verdict from the components; a FAIL's lasso is re-checked
 * by the concrete evaluator, as every SAT witness is.  scratch: three
 * times nthreads entries. */
static void decide(const struct program *p, struct lasso_recheck *rc, struct recheck_log *log,
                   const struct check_opts *o, const struct state_graph *g, const struct fair_sccs *f,
                   const struct fair_tree *tr, struct progress_result *out, cJSON **witness, bool *scratch)
{
    bool *need = scratch;
    memset(need, 0, (size_t)g->nthreads * sizeof *need);
    bool strong = progress_is_strong(out->model);
    struct lasso found;
    int fair = strong ? -1 : fair_find(f, tr, out->model, need);   /* the fair component, -1: none */
    int hangs = strong ? strong_find(g, tr, out->model, &found, need) : fair >= 0;
    memcpy(out->engine, "states", sizeof "states");
    if (hangs < 0) {
        out->verdict = V_UNKNOWN;
        snprintf(out->reason, sizeof out->reason, "a state where the scheduler may share minimal progress in over "
                 "%d ways (states engine, strong fairness)", FAIR_MAX_SHARES);
    } else if (!hangs) {
        out->verdict = V_PASS;
        char states[12];
        size_t used = 0;
        text_append(out->reason, sizeof out->reason, &used, strong
                    ? (const char *const[]){ "every strongly fair run terminates (states engine: ",
                                             text_int(g->nstates, states), " states, each with a schedule of its "
                                             "guaranteed threads that terminates)" }
                    : (const char *const[]){ "every fair run terminates (states engine: ", text_int(g->nstates, states),
                                             " states, no fair cycle)" }, 3);
    } else {
        struct rechecked *d = strong ? log_lasso(log, &found, -1, need, g->nthreads) : fair_lasso(log, g, f, fair, need);
        const struct lasso *la = &d->la;
        if (!d->described) {
            lasso_describe(p->lit, la, true, d->full, sizeof d->full);
            lasso_describe(p->lit, la, false, d->brief, sizeof d->brief);
            char cycle[12], stem[12], states[12];
            size_t at = 0;
            text_append(d->engine, sizeof d->engine, &at,
                        (const char *const[]){ " (states engine: a fair cycle of ", text_int(la->ncycle, cycle),
                                               " steps after ", text_int(la->nstem, stem), ", ",
                                               text_int(g->nstates, states), " states)" }, 7);
            d->described = true;
        }
        /* the lasso and who starves, as far as sizeof d->full bytes, then the engine's part */
        size_t used = strlen(d->full);
        memcpy(out->reason, d->full, used + 1);
        used += starved(p->lit, g, tr, out->model, la, scratch + g->nthreads, scratch + 2 * g->nthreads,
                        out->reason + used, sizeof d->full - used);
        memcpy(out->brief, d->brief, sizeof out->brief);
        out->verdict = V_FAIL;
        if (strong) {
            char who[128];
            threads_named(p->lit, need, who, sizeof who);
            snprintf(out->reason + used, sizeof out->reason - used, " (states engine, strong fairness: from the state "
                     "after %d steps no schedule of the guaranteed threads (%s) terminates; a cycle of %d steps, %d "
                     "states)", la->nstem, who, la->ncycle, g->nstates);
        } else {
            text_append(out->reason, sizeof out->reason, &used, (const char *const[]){ d->engine }, 1);
        }
        char why[256];   /* the concrete evaluator checks every lasso, as every SAT witness */
        if (!recheck_once(d, rc, g, o->want_witness ? witness : NULL, why, sizeof why)) {
            out->verdict = V_ERROR;
            snprintf(out->reason, sizeof out->reason, "internal error: %s", why);
        }
    }
}

bool states_termination(const struct program *p, const struct model_desc *md, const struct check_opts *o,
                        const enum progress_model *ms, int n, struct progress_result *out,
                        cJSON **witnesses, long *nstates)
{
    struct state_graph g;
    bool ok = states_explore(p->lit, o->max_states > 0 ? o->max_states : CHECK_DEFAULT_MAX_STATES, &g);
    *nstates = g.nstates;
    if (ok) {
        struct fair_sccs f;
        fair_sccs(&g, &f);
        struct fair_tree *tr = fair_tree_build(p->lit, &o->hierarchy);
        struct lasso_recheck rc;   /* the progress models' lassos often are one execution */
        lasso_recheck_init(&rc, p->lit, md, o->disabled, o->ndisabled);
        lasso_recheck_lend(&rc, p);   /* a lasso that needs the check's bound is an execution of p */
        struct recheck_log log = { NULL, 0, 0 };
        bool *scratch = xcalloc(3 * ((size_t)g.nthreads + 1), sizeof *scratch);   /* decide's, every model's */
        for (int i = 0; i < n; i++) {
            out[i].model = ms[i];   /* the rest set by decide: no need to zero the texts' buffers */
            out[i].vacuous = false;
            out[i].brief[0] = '\0';
            witnesses[i] = NULL;
            decide(p, &rc, &log, o, &g, &f, tr, &out[i], &witnesses[i], scratch);
        }
        free(scratch);
        recheck_log_free(&log);
        lasso_recheck_free(&rc);
        fair_tree_free(tr);
        fair_free(&f);
    }
    states_free(&g);
    return ok;
}
