/* PTX v6.0, definition by definition as in ptx-v6.0.cat. */
#include "models/ptx_common.h"

const struct axiom_decl model_ptx60_axioms[] = {
    [PTX_COHERENCE] = { "Coherence", AX_EMPTY }, [PTX_COHERENCE2] = { "Coherence2", AX_EMPTY },
    [PTX_FENCE_SC] = { "FenceSC", AX_EMPTY }, [PTX_ATOMICITY] = { "Atomicity", AX_EMPTY },
    [PTX_NO_THIN_AIR] = { "NoThinAir", AX_ACYCLIC }, [PTX60_SC_PER_LOCATION] = { "ScPerLocation", AX_ACYCLIC },
    [PTX60_CAUSALITY] = { "Causality", AX_IRREFLEXIVE }, [PTX60_CAUSALITY + 1] = { NULL, AX_EMPTY },
};

void model_ptx60_build(struct cat *m)
{
    struct ptx x;
    ptx_auxiliaries(m, &x);   /* sync_barrier, co, fr, strong-*, ms1 */
    /* let ms2 = ((M * M) & loc) | ((_ * _) \ (M * M)) */
    rel mm = cat_prod(m, SET(S_M), SET(S_M));
    rel ms2 = cat_or(m, cat_and(m, mm, REL(R_LOC)), cat_minus(m, cat_prod(m, SET(S_ALL), SET(S_ALL)), mm));
    /* let morally-strong = (ms1 & ms2) \ id */
    rel morally_strong = cat_minus(m, cat_and(m, x.ms1, ms2), cat_id(m, SET(S_ALL)));
    /* let rec observation = (morally-strong & rf) | (observation; rmw; observation),
     * whose least solution is (morally-strong & rf); (rmw; (morally-strong & rf))* */
    rel observed = cat_and(m, morally_strong, REL(R_RF));
    rel observation = cat_seq(m, observed, cat_star(m, cat_seq(m, REL(R_RMW), observed)));
    rel po_loc = cat_and(m, REL(R_PO), REL(R_LOC));
    /* let sync = morally-strong & (release-pattern; observation; acquire-pattern) */
    rel sync = cat_and(m, morally_strong,
                       cat_seq(m, cat_seq(m, ptx_release_pattern(m, &x, po_loc), observation),
                               ptx_acquire_pattern(m, &x, po_loc)));
    /* let cause-base = po?; ((sync | sync_fence | sync_barrier); po?)+ */
    rel syncs = cat_or(m, cat_or(m, sync, REL(R_SYNC_FENCE)), x.sync_barrier);
    rel cause_base = cat_seq(m, cat_opt(m, REL(R_PO)), cat_plus(m, cat_seq(m, syncs, cat_opt(m, REL(R_PO)))));
    /* let cause = cause-base | (observation; (cause-base | po-loc)) */
    rel cause = cat_or(m, cause_base, cat_seq(m, observation, cat_or(m, cause_base, po_loc)));

    ptx_axioms(m, &x, morally_strong, cause);
    /* acyclic ((morally-strong & (rf | co | fr)) | po-loc) as axiom-ScPerLocation */
    cat_axiom(m, "ScPerLocation",
              cat_or(m, cat_and(m, morally_strong, cat_or(m, cat_or(m, REL(R_RF), x.co), x.fr)), po_loc));
    ptx_causality(m, &x, cause);
    ptx_export(m, &x, sync, cause, observation);
}

/* Program order per location in ptx-v6.0.cat.  For accesses a before b of
 * one thread to one physical location, po-loc(a, b), and a and b are
 * morally strong in both directions (ms1 has po and po^-1, ms2 has loc).
 * ScPerLocation, acyclic ((morally-strong & (rf | co | fr)) | po-loc), then
 * rules out rf(b, a) (a read never reads from a later write) and co(b, a);
 * Coherence2 puts the writes in co one way or the other, so co(a, b).
 * The coherence shapes hold as well, but the skeleton does not assume them
 * (PO_RF_COHERENT): with them lock-acqrel of tests/bench/families.py took
 * 6-10% fewer instructions at 5 and 6 threads and 11% more at 7 (co is co+
 * in the cat file and a strict partial order in every execution):
 *  - CoWR, a write a, a read b: b never reads from a write w with co(w, a),
 *    whatever w is (an initial one too): fr(b, a) = rf^-1; co, and
 *    morally-strong(b, a) (po^-1, one location), so ScPerLocation has the
 *    cycle fr(b, a), po-loc(a, b);
 *  - CoRW, a read a, a write b: a never reads from a write w with co(b, w)
 *    when morally-strong(w, a): rf(w, a) is then observation, and
 *    observation; po-loc is in cause, so cause(w, b); both are writes of
 *    one location, so Coherence puts co(w, b), against co(b, w).  Without
 *    it (a weak read, or w out of a's scope, of another thread) no axiom
 *    sees the shape: ScPerLocation wants morally-strong & rf, Causality a
 *    cause from a back to w (tests/litmus/ptx/CoRW-weakread-relaxed). */
unsigned model_ptx60_po_facts(const struct program *p, int a, int b)
{
    (void)p;
    (void)a;
    (void)b;
    return PO_BIT(PO_NO_FUTURE_READ) | PO_BIT(PO_CO_NOT_BACK) | PO_BIT(PO_CO_ALONG);
}
