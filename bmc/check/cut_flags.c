/* When a flag raised in an execution cut at the bound counts. */
#include "bmc/check/cut_flags.h"

#include <stdio.h>

#include "bmc/concrete/evaluate.h"

/* OpenCL's condition on p: no RMW on a location that is non-atomic (or
 * unknown), no location both global and local.  An RMW on a non-atomic
 * location must read the write that happens before it last (O-NaRf) and
 * write right after it in co (atomic), which a prefix can rule out. */
static bool opencl_extends(const struct program *p, char *why, size_t len)
{
    const struct litmus *l = p->lit;
    for (int e = 0; e < p->nevents; e++) {
        const struct event *ev = &p->events[e];
        if (ev->thread < 0 || (ev->loc < 0 && !ev->rmw))
            continue;
        unsigned tags = ev->loc >= 0 ? l->locs[program_root_location(l, ev->loc)].cl_tags : CL_NAL;
        if (ev->rmw && (tags & CL_NAL)) {
            snprintf(why, len, "an RMW on a non-atomic location");
            return false;
        }
        if ((tags & CL_GLOBAL) && (tags & CL_LOCAL)) {
            snprintf(why, len, "a location both global and local");
            return false;
        }
    }
    return true;
}

/* The condition on p's barriers: each has a constant id or none, no
 * quorum, and waits (no arrive).  Then a barrier of the prefix passed only
 * with every thread that has a member of its id, so a later arrival of a
 * cut thread meets a later occurrence, one with new events only; a quorum
 * barrier, or one a thread's unknown id does not hold up, can pass
 * without a thread that joins it later. */
static bool barriers_extend(const struct program *p, char *why, size_t len)
{
    for (int e = 0; e < p->nevents; e++) {
        const struct instr *in = p->events[e].in;
        if (p->events[e].kind == EV_BARRIER
            && (in->arrive || in->has_bar_quorum || (in->has_bar_id && in->bar_id.is_reg))) {
            snprintf(why, len, "a barrier with a quorum, a register id or no wait");
            return false;
        }
    }
    return true;
}

bool cut_flags_count(const struct program *p, const struct model_desc *md, const struct check_opts *o,
                     char *why, size_t len)
{
    if (!md->flags_survive_cut) {
        snprintf(why, len, "model %s is not argued to extend its cut executions", md->name);
        return false;
    }
    if (p->lit->filter) {
        snprintf(why, len, "the filter needs a final state");
        return false;
    }
    for (int i = 0; md->axioms[i].name; i++)
        if (md->axioms[i].kind != AX_FLAG && axiom_disabled(md->axioms[i].name, o->disabled, o->ndisabled)) {
            snprintf(why, len, "axiom %s is switched off", md->axioms[i].name);
            return false;
        }
    if (md->dialect == DIALECT_VULKAN && p->lit->nssw > 0) {
        snprintf(why, len, "an ssw declaration");
        return false;
    }
    if (!barriers_extend(p, why, len))
        return false;
    return md->dialect != DIALECT_OPENCL || opencl_extends(p, why, len);
}
