/* Stuck threads, fair spinning and the progress model as CNF. */
#include "bmc/check/termination.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmc/check/repetition.h"
#include "bmc/concrete/fair.h"
#include "util/xalloc.h"

/* Thread t waits at one of its barriers and that barrier never opens. */
static lit thread_blocked(struct cnf *c, const struct program *p, const struct exec_enc *x, int t)
{
    const struct pthread *pt = &p->threads[t];
    lit blocked = LIT_FALSE;
    for (int e = pt->first_event; e < pt->first_event + pt->nevents; e++)
        if (p->events[e].kind == EV_BARRIER)
            blocked = cnf_or(c, blocked, cnf_and(c, x->sx.cf[e], -x->sx.exec[e]));
    return blocked;
}

lit termination_encode(struct cnf *c, const struct program *p, struct exec_enc *x)
{
    lit stuck = LIT_FALSE;
    for (int t = 0; t < p->nthreads; t++) {
        lit loops = cnf_or(c, x->sx.spins[t], x->sx.repeats[t]);
        stuck = cnf_or(c, stuck, cnf_or(c, thread_blocked(c, p, x, t), loops));
    }
    repetition_encode(c, p, x);
    return stuck;
}

lit termination_progress(struct cnf *c, const struct program *p, const struct exec_enc *x,
                         enum progress_model m, const struct progress_hierarchy *h)
{
    /* when no thread can halt, every model's constraints hold of every
     * execution: all progress literals true, each group schedulable and
     * started exactly when some child is */
    bool halts = false;
    for (int t = 0; t < p->nthreads; t++)
        halts |= x->sx.halted[t] != LIT_FALSE;
    if (!halts)
        return LIT_TRUE;
    struct thread_status *ts = xcalloc((size_t)p->nthreads + 1, sizeof *ts);
    for (int t = 0; t < p->nthreads; t++)
        ts[t] = (struct thread_status){ .started = x->sx.started[t], .halted = x->sx.halted[t],
                                        .terminated = x->sx.terminated[t],
                                        .blocked = thread_blocked(c, p, x, t) };
    lit active = cnf_var(c);
    progress_encode(c, p, m, h, ts, active);
    free(ts);
    return active;
}

bool termination_fair_now(struct cnf *c, const struct program *p, const struct exec_enc *x, enum progress_model m,
                          const struct progress_hierarchy *h)
{
    struct thread_facts *f = xcalloc((size_t)p->nthreads + 1, sizeof *f);
    for (int t = 0; t < p->nthreads; t++)
        f[t] = (struct thread_facts){ cnf_value(c, x->sx.started[t]), cnf_value(c, x->sx.halted[t]),
                                      cnf_value(c, x->sx.terminated[t]), cnf_value(c, thread_blocked(c, p, x, t)) };
    bool fair = progress_admits(p, m, h, f);
    free(f);
    return fair;
}

void termination_describe(struct cnf *c, const struct program *p, const struct exec_enc *x,
                          char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int t = 0; t < p->nthreads && used + 80 < len; t++) {
        int id = p->lit->threads[t].id;
        const char *sep = used ? "; " : "";
        if (cnf_value(c, x->sx.spins[t])) {
            used += (size_t)snprintf(buf + used, len - used, "%sP%d spins for ever", sep, id);
            continue;
        }
        if (cnf_value(c, x->sx.repeats[t])) {
            used += (size_t)snprintf(buf + used, len - used,
                                     "%sP%d repeats its loop for ever (livelock)", sep, id);
            continue;
        }
        const struct pthread *pt = &p->threads[t];
        for (int e = pt->first_event; e < pt->first_event + pt->nevents; e++)
            if (p->events[e].kind == EV_BARRIER && cnf_value(c, x->sx.cf[e]) &&
                !cnf_value(c, x->sx.exec[e])) {
                used += (size_t)snprintf(buf + used, len - used, "%sP%d waits for ever at `%s`", sep, id,
                                         p->events[e].in->text);
                break;
            }
    }
}

void termination_starved(struct cnf *c, const struct program *p, const struct exec_enc *x, enum progress_model m,
                         const struct fair_tree *tr, char *buf, size_t len)
{
    int nt = p->nthreads;
    bool *ended = xcalloc((size_t)nt + 1, sizeof *ended), *started = xcalloc((size_t)nt + 1, sizeof *started);
    for (int t = 0; t < nt; t++) {
        ended[t] = cnf_value(c, x->sx.terminated[t]);
        started[t] = cnf_value(c, x->sx.started[t]);
    }
    size_t used = strlen(buf);
    for (int t = 0; t < nt && used + 120 < len; t++) {
        if (ended[t] || !cnf_value(c, x->sx.halted[t]))
            continue;
        char why[96];
        fair_starver(tr, m, ended, started, t, why, sizeof why);
        used += (size_t)snprintf(buf + used, len - used, "; the scheduler never runs P%d again%s%s%s",
                                 p->lit->threads[t].id, why[0] ? " (" : "", why, why[0] ? ")" : "");
    }
    free(ended);
    free(started);
}

bool termination_trapped(struct cnf *c, const struct program *p, const struct exec_enc *x, enum progress_model m,
                         const struct progress_hierarchy *h, char *who, size_t len)
{
    int nt = p->nthreads;
    bool *ended = xcalloc((size_t)nt + 1, sizeof *ended), *started = xcalloc((size_t)nt + 1, sizeof *started);
    bool *ways = xcalloc((size_t)FAIR_MAX_SHARES * nt + 1, sizeof *ways), *stuck = xcalloc((size_t)nt + 1, sizeof *stuck);
    for (int t = 0; t < nt; t++) {
        ended[t] = cnf_value(c, x->sx.terminated[t]);
        started[t] = cnf_value(c, x->sx.started[t]);
        stuck[t] = !cnf_value(c, x->sx.halted[t]) && !cnf_value(c, x->sx.repeats[t])
                   && (cnf_value(c, x->sx.spins[t]) || cnf_value(c, thread_blocked(c, p, x, t)));
    }
    struct fair_tree *tr = fair_tree_build(p->lit, h);
    int nways = fair_shares(tr, m, ended, started, ways);
    fair_tree_free(tr);
    /* trapped when the scheduler may share progress among stuck threads alone */
    const bool *trap = NULL;
    for (int k = 0; k < nways && !trap; k++) {
        const bool *way = &ways[(size_t)k * nt];
        bool some = false, all_stuck = true;
        for (int t = 0; t < nt; t++)
            if (way[t]) {
                some = true;
                all_stuck &= stuck[t];
            }
        if (some && all_stuck)
            trap = way;
    }
    size_t used = 0;
    who[0] = '\0';
    for (int t = 0; trap && t < nt; t++)
        if (trap[t] && used + 16 < len)
            used += (size_t)snprintf(who + used, len - used, "%sP%d", used ? ", " : "", p->lit->threads[t].id);
    free(ended);
    free(started);
    free(ways);
    free(stuck);
    return trap != NULL;
}

void termination_brief(struct cnf *c, const struct program *p, const struct exec_enc *x,
                       char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int t = 0; t < p->nthreads && used + 24 < len; t++) {
        const char *how = cnf_value(c, x->sx.spins[t]) ? "spins" : cnf_value(c, x->sx.repeats[t]) ? "repeats"
                        : cnf_value(c, thread_blocked(c, p, x, t)) ? "waits" : NULL;
        if (how)
            used += (size_t)snprintf(buf + used, len - used, "%sP%d %s", used ? ", " : "",
                                     p->lit->threads[t].id, how);
    }
}
