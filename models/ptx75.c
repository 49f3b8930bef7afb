/* PTX v7.5 (proxies and aliases), definition by definition as in ptx-v7.5.cat. */
#include "models/ptx_common.h"

const struct axiom_decl model_ptx75_axioms[] = {
    [PTX_COHERENCE] = { "Coherence", AX_EMPTY }, [PTX_COHERENCE2] = { "Coherence2", AX_EMPTY },
    [PTX_FENCE_SC] = { "FenceSC", AX_EMPTY }, [PTX_ATOMICITY] = { "Atomicity", AX_EMPTY },
    [PTX_NO_THIN_AIR] = { "NoThinAir", AX_ACYCLIC }, [PTX75_CAUSALITY] = { "Causality", AX_IRREFLEXIVE },
    [PTX75_CAUSALITY + 1] = { NULL, AX_EMPTY },
};

void model_ptx75_build(struct cat *m)
{
    struct ptx x;
    ptx_auxiliaries(m, &x);   /* sync_barrier, co, fr, strong-*, ms1 */
    /* let same-proxy = GEN * GEN | SUR * SUR | TEX * TEX | CON * CON */
    rel same_proxy = cat_or(m, cat_or(m, cat_prod(m, SET(S_GEN), SET(S_GEN)), cat_prod(m, SET(S_SUR), SET(S_SUR))),
                            cat_or(m, cat_prod(m, SET(S_TEX), SET(S_TEX)), cat_prod(m, SET(S_CON), SET(S_CON))));
    rel po_vloc = cat_and(m, REL(R_PO), REL(R_VLOC));                   /* let po-vloc = po & vloc */
    rel ms2 = same_proxy;                                               /* let ms2 = same-proxy */
    /* let ms3 = ((M * M) & vloc) | ((_ * _) \ (M * M)) */
    rel mm = cat_prod(m, SET(S_M), SET(S_M));
    rel ms3 = cat_or(m, cat_and(m, mm, REL(R_VLOC)), cat_minus(m, cat_prod(m, SET(S_ALL), SET(S_ALL)), mm));
    /* let morally-strong = (ms1 & ms2 & ms3) \ id */
    rel morally_strong = cat_minus(m, cat_and(m, cat_and(m, x.ms1, ms2), ms3), cat_id(m, SET(S_ALL)));
    /* let observation = (morally-strong & rf) | rmw */
    rel observation = cat_or(m, cat_and(m, morally_strong, REL(R_RF)), REL(R_RMW));
    /* let sync = morally-strong & (release-pattern; observation+; acquire-pattern) */
    rel sync = cat_and(m, morally_strong,
                       cat_seq(m, cat_seq(m, ptx_release_pattern(m, &x, po_vloc), cat_plus(m, observation)),
                               ptx_acquire_pattern(m, &x, po_vloc)));
    /* let cause-base = (po?; ((sync | sync_fence | sync_barrier); po?)+) | po */
    rel syncs = cat_or(m, cat_or(m, sync, REL(R_SYNC_FENCE)), x.sync_barrier);
    rel cb = cat_or(m, cat_seq(m, cat_opt(m, REL(R_PO)), cat_plus(m, cat_seq(m, syncs, cat_opt(m, REL(R_PO))))),
                    REL(R_PO));
    /* let proxy-fence-ops = [F]; (same-proxy & scta); [M] */
    rel pfo = cat_filter(m, SET(S_F), cat_and(m, same_proxy, REL(R_SCTA)), SET(S_M));
    rel cb_pfo = cat_and(m, cb, pfo), cb_pfo_inv = cat_and(m, cb, cat_inv(m, pfo));
    rel gen = cat_id(m, SET(S_GEN)), alias = cat_id(m, cat_sand(m, SET(S_F), SET(S_ALIAS)));
    rel via_alias = cat_seq(m, cat_seq(m, cb, alias), cb);                  /* cause-base; [F & ALIAS]; cause-base */
    /* let proxy-preserved-cause-base = ([GEN]; (vloc & cause-base); [GEN]) */
    rel ppcb = cat_filter(m, SET(S_GEN), cat_and(m, REL(R_VLOC), cb), SET(S_GEN));
    /* | ([M]; (same-proxy & scta & vloc & cause-base); [M]) */
    rel same_all = cat_and(m, cat_and(m, cat_and(m, same_proxy, REL(R_SCTA)), REL(R_VLOC)), cb);
    ppcb = cat_or(m, ppcb, cat_filter(m, SET(S_M), same_all, SET(S_M)));
    /* | vloc & (cause-base & (proxy-fence-ops^-1); cause-base; [GEN]) */
    ppcb = cat_or(m, ppcb, cat_and(m, REL(R_VLOC), cat_seq(m, cat_seq(m, cb_pfo_inv, cb), gen)));
    /* | vloc & ([GEN]; cause-base; cause-base & proxy-fence-ops) */
    ppcb = cat_or(m, ppcb, cat_and(m, REL(R_VLOC), cat_seq(m, cat_seq(m, gen, cb), cb_pfo)));
    /* | vloc & (cause-base & (proxy-fence-ops^-1); cause-base; cause-base & proxy-fence-ops) */
    ppcb = cat_or(m, ppcb, cat_and(m, REL(R_VLOC), cat_seq(m, cat_seq(m, cb_pfo_inv, cb), cb_pfo)));
    /* | loc & ([GEN]; cause-base; [F & ALIAS]; cause-base; [GEN]) */
    ppcb = cat_or(m, ppcb, cat_and(m, REL(R_LOC), cat_seq(m, cat_seq(m, gen, via_alias), gen)));
    /* | loc & (cause-base & (proxy-fence-ops^-1); cause-base; [F & ALIAS]; cause-base; [GEN]) */
    ppcb = cat_or(m, ppcb, cat_and(m, REL(R_LOC), cat_seq(m, cat_seq(m, cb_pfo_inv, via_alias), gen)));
    /* | loc & ([GEN]; cause-base; [F & ALIAS]; cause-base; cause-base & proxy-fence-ops) */
    ppcb = cat_or(m, ppcb, cat_and(m, REL(R_LOC), cat_seq(m, cat_seq(m, gen, via_alias), cb_pfo)));
    /* | loc & (cause-base & (proxy-fence-ops^-1); cause-base; [F & ALIAS]; cause-base; cause-base & proxy-fence-ops) */
    ppcb = cat_or(m, ppcb, cat_and(m, REL(R_LOC), cat_seq(m, cat_seq(m, cb_pfo_inv, via_alias), cb_pfo)));
    rel cause = cat_seq(m, cat_opt(m, observation), ppcb);              /* let cause = observation?; ppcb */

    ptx_axioms(m, &x, morally_strong, cause);
    ptx_causality(m, &x, cause);
    ptx_export(m, &x, sync, cause, observation);
}

/* Program order per location in ptx-v7.5.cat.  po is in cause-base, but
 * proxy-preserved-cause-base keeps a po pair of memory accesses a, b
 * without a fence only through [GEN]; (vloc & cause-base); [GEN] or
 * [M]; (same-proxy & scta & vloc & cause-base); [M] (one thread is in one
 * CTA): the same proxy and the same virtual address.  Then cause(a, b)
 * (cause = observation?; proxy-preserved-cause-base), and
 *  - Causality, irreflexive ((rf | fr); cause), rules out rf(b, a) (so
 *    does Coherence: b, a are morally strong, rf(b, a) is observation and
 *    cause(b, b) no co edge);
 *  - Coherence, ([W]; cause; [W]) & loc in co, gives co(a, b), so never
 *    co(b, a) (co is a strict order).
 * Accesses through different proxies, or different virtual addresses of
 * one physical location, are ordered only through proxy and alias fences
 * (the fenced cases of proxy-preserved-cause-base), which the axioms
 * decide in each execution: the skeleton assumes nothing for them.
 * The coherence shapes hold for such a pair, with cause(a, b), but the
 * skeleton does not assume them (PO_RF_COHERENT): Causality and Coherence
 * are clauses already, and with them lock-acqrel of tests/bench/families.py
 * took 16-17% fewer instructions at 4 and 5 threads and 7-12% more at 6
 * and 7:
 *  - CoWR, a write a, a read b: b never reads from a write w with co(w, a),
 *    whatever w is (an initial one too): fr(b, a) = rf^-1; co, and
 *    fr(b, a); cause(a, b) is reflexive, against Causality;
 *  - CoRW, a read a, a write b: a never reads from a write w with co(b, w)
 *    when morally-strong(w, a) (same proxy and virtual address, one thread
 *    or both strong in each other's scope): rf(w, a) is then observation,
 *    so cause(w, b) (observation?; proxy-preserved-cause-base); Coherence
 *    puts co(w, b), against co(b, w).  Otherwise (a weak read, w through
 *    another proxy or address, or out of scope) rf(w, a) is no observation
 *    and neither axiom sees the shape (tests/litmus/ptx75/CoRW-*). */
unsigned model_ptx75_po_facts(const struct program *p, int a, int b)
{
    static const enum base_set proxies[] = { S_GEN, S_SUR, S_TEX, S_CON };
    bool same_proxy = false;
    for (size_t k = 0; k < sizeof proxies / sizeof proxies[0]; k++)
        same_proxy |= base_event_in(p, a, proxies[k]) && base_event_in(p, b, proxies[k]);
    if (!same_proxy || !base_same_vloc(p, a, b))
        return 0;
    return PO_BIT(PO_NO_FUTURE_READ) | PO_BIT(PO_CO_NOT_BACK) | PO_BIT(PO_CO_ALONG);
}
