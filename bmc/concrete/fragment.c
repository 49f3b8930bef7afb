/* The fragment test: sound by construction, so anything it does not
 * recognise (another instruction kind, a tag it does not know) is out. */
#include "bmc/concrete/fragment.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "encoders/base.h"
#include "util/xalloc.h"

/* Says why (printf-style) and returns false. */
static bool out(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return false;
}

/* An instruction kind the interleaving semantics covers: every other kind
 * (fences, barriers, proxy and device operations) adds order or blocking
 * the argument does not cover. */
static bool covered_kind(enum instr_kind k)
{
    switch (k) {
    case I_LOAD: case I_STORE: case I_RMW: case I_LOCAL: case I_BRANCH: case I_GOTO: case I_LABEL:
        return true;
    default:
        return false;
    }
}

/* Vulkan: ATOM with a scope.  PTX: strong (a read RLX or ACQ, a write RLX
 * or REL, as ptx-v*.cat define strong-read and strong-write) with a scope,
 * through the generic proxy. */
static bool strong_access(const struct program *p, int e)
{
    const struct event *ev = &p->events[e];
    if (ev->scope == SCOPE_NONE)
        return false;
    if (p->lit->dialect == DIALECT_VULKAN)
        return base_event_in(p, e, S_ATOM);
    bool strong = base_event_in(p, e, S_RLX) || base_event_in(p, e, ev->kind == EV_READ ? S_ACQ : S_REL);
    return strong && base_event_in(p, e, S_GEN);
}

/* The one location every access names, or why there is none. */
static bool one_location(const struct program *p, char *why, size_t len)
{
    const struct litmus *l = p->lit;
    int loc = -1;
    for (int e = 0; e < p->nevents; e++) {
        const struct event *ev = &p->events[e];
        if (ev->kind != EV_READ && ev->kind != EV_WRITE)
            continue;
        if (l->locs[ev->loc].alias_of >= 0)
            return out(why, len, "an access through the alias %s of %s", l->locs[ev->loc].name,
                       l->locs[l->locs[ev->loc].alias_of].name);
        if (loc >= 0 && ev->loc != loc)
            return out(why, len, "two locations, %s and %s", l->locs[loc].name, l->locs[ev->loc].name);
        loc = ev->loc;
    }
    return true;
}

#define NSCOPES (SCOPE_DV + 1)

/* Every access strong; seen[t * NSCOPES + s] gets an access of thread t
 * with scope s. */
static bool strong_accesses(const struct program *p, const struct instr **seen, char *why, size_t len)
{
    for (int e = 0; e < p->nevents; e++) {
        const struct event *a = &p->events[e];
        if (a->kind != EV_READ && a->kind != EV_WRITE)
            continue;
        if (!strong_access(p, e))
            return out(why, len, "the %s access `%s`", p->lit->dialect == DIALECT_VULKAN ? "non-atomic"
                       : "weak, unscoped or non-generic", a->in->text);
        seen[a->thread * NSCOPES + a->scope] = a->in;
    }
    return true;
}

/* Every two accesses of different threads in each other's scope: the
 * instance of each access's scope holds every other thread that accesses
 * memory (base_scopes_overlap, i.e. PTX sr, Vulkan inscope). */
static bool mutually_in_scope(const struct program *p, const struct instr **seen, char *why, size_t len)
{
    int n = p->nthreads;
    for (int t = 0; t < n; t++)
        for (int s = 0; s < NSCOPES; s++)
            for (int u = 0; seen[t * NSCOPES + s] && u < n; u++)
                for (int s2 = 0; u != t && s2 < NSCOPES; s2++)
                    if (seen[u * NSCOPES + s2] && !program_same_scope(p, t, u, (enum scope)s))
                        return out(why, len, "`%s` and `%s` out of each other's scope",
                                   seen[t * NSCOPES + s]->text, seen[u * NSCOPES + s2]->text);
    return true;
}

bool fragment_check(const struct program *p, const struct model_desc *md, const char *const *disabled,
                    int ndisabled, char *why, size_t len)
{
    const struct litmus *l = p->lit;
    for (int i = 0; i < ndisabled; i++)
        if (model_has_axiom(md, disabled[i]))
            return out(why, len, "the axiom %s is switched off", disabled[i]);
    if (l->filter)
        return out(why, len, "a filter");
    if (l->nssw > 0)   /* ssw orders (hb) any events of two threads */
        return out(why, len, "an ssw declaration");
    for (int t = 0; t < l->nthreads; t++)
        for (int i = 0; i < l->threads[t].ninstrs; i++)
            if (!covered_kind(l->threads[t].instrs[i].kind))
                return out(why, len, "the instruction `%s`", l->threads[t].instrs[i].text);
            else if (l->threads[t].instrs[i].cas_if_equal)   /* a step that may write or not:
                                                                 the witnesses map steps to events */
                return out(why, len, "the compare-exchange `%s`, which writes only when it succeeds",
                           l->threads[t].instrs[i].text);
    if (!one_location(p, why, len))
        return false;
    const struct instr **seen = xcalloc((size_t)l->nthreads * NSCOPES + 1, sizeof *seen);
    bool ok = strong_accesses(p, seen, why, len) && mutually_in_scope(p, seen, why, len);
    free(seen);
    return ok;
}
