/* PTX v6.0, axiom by axiom as in ptx-v6.0.cat. */
#include "models/ptx_common.h"

#define REL(r) cat_rel(b, r)
#define SET(s) cat_set(b, s)

/* observation = b ; (rmw ; b)*, the least solution of
 * observation = b | (observation ; rmw ; observation) with b = ms & rf. */
static struct rel observation(struct cnf *c, const struct base *b, const struct rel *ms)
{
    struct rel base = cat_and(c, rel_copy(ms), REL(R_RF));
    struct rel loop = cat_opt(c, b, cat_plus(c, cat_seq(c, REL(R_RMW), rel_copy(&base))));
    return cat_seq(c, base, loop);
}

void model_ptx60_build(struct cnf *c, const struct base *b, struct model_out *out)
{
    struct rel sync_barrier = cat_and(c, REL(R_SYNCBAR), REL(R_SCTA));
    struct rel co = REL(R_CO);   /* co+ = co: the skeleton makes co a strict order */
    struct rel fr = cat_seq(c, cat_inv(REL(R_RF)), rel_copy(&co));
    /* morally-strong = (ms1 & ms2) \ id */
    struct rel ms = cat_minus(c, cat_and(c, ptx_ms1(c, b), ptx_overlap(c, b, R_LOC)), cat_id(SET(S_ALL)));
    struct rel obs = observation(c, b, &ms);
    struct rel po_loc = cat_and(c, REL(R_PO), REL(R_LOC));

    struct rel patterns = cat_seq(c, cat_seq(c, ptx_release_pattern(c, b, &po_loc), rel_copy(&obs)),
                                  ptx_acquire_pattern(c, b, &po_loc));
    struct rel sync = cat_and(c, rel_copy(&ms), patterns);
    struct rel syncs = cat_or(c, cat_or(c, rel_copy(&sync), REL(R_SYNC_FENCE)), sync_barrier);
    struct rel cause_base = cat_seq(c, cat_opt(c, b, REL(R_PO)),
                                    cat_plus(c, cat_seq(c, syncs, cat_opt(c, b, REL(R_PO)))));
    struct rel cause_tail = cat_seq(c, rel_copy(&obs), cat_or(c, rel_copy(&cause_base), rel_copy(&po_loc)));
    struct rel cause = cat_or(c, cause_base, cause_tail);

    ptx_axioms(c, b, out, &cause, &ms, &co, &fr);
    model_axiom(c, out, "ScPerLocation", AX_ACYCLIC,
                cat_or(c, cat_and(c, rel_copy(&ms), cat_or(c, cat_or(c, REL(R_RF), rel_copy(&co)),
                                                           rel_copy(&fr))),
                       po_loc));
    ptx_causality(c, b, out, &cause, &fr);

    ptx_export(out, fr, sync, cause, obs);
    rel_free(&co);
    rel_free(&ms);
}

/* Program order per location in ptx-v6.0.cat.  For accesses a before b of
 * one thread to one physical location, po-loc(a, b), and a and b are
 * morally strong in both directions (ms1 has po and po^-1, ms2 has loc).
 * ScPerLocation, acyclic ((morally-strong & (rf | co | fr)) | po-loc), then
 * rules out rf(b, a) (a read never reads from a later write) and co(b, a);
 * Coherence2 puts the writes in co one way or the other, so co(a, b). */
unsigned model_ptx60_po_facts(const struct program *p, int a, int b)
{
    (void)p;
    (void)a;
    (void)b;
    return PO_BIT(PO_NO_FUTURE_READ) | PO_BIT(PO_CO_NOT_BACK) | PO_BIT(PO_CO_ALONG);
}
