/* PTX v7.5 (proxies and aliases), axiom by axiom as in ptx-v7.5.cat. */
#include "models/ptx_common.h"

#define REL(r) cat_rel(b, r)
#define SET(s) cat_set(b, s)

/* same-proxy = GEN * GEN | SUR * SUR | TEX * TEX | CON * CON */
static struct rel same_proxy(struct cnf *c, const struct base *b)
{
    return cat_or(c, cat_or(c, cat_prod(c, SET(S_GEN), SET(S_GEN)), cat_prod(c, SET(S_SUR), SET(S_SUR))),
                  cat_or(c, cat_prod(c, SET(S_TEX), SET(S_TEX)), cat_prod(c, SET(S_CON), SET(S_CON))));
}

/* The operands of proxy-preserved-cause-base. */
struct ppcb_parts {
    const struct rel *cb;        /* cause-base */
    struct rel cb_pfo;           /* cause-base & proxy-fence-ops */
    struct rel cb_pfo_inv;       /* cause-base & proxy-fence-ops^-1 */
    struct rel through_alias;    /* cause-base; [F & ALIAS]; cause-base */
};

/* vloc & (head; cause-base; tail) | loc & (head; cause-base; [F & ALIAS]; cause-base; tail)
 * for one choice of head ([GEN] or cb & pfo^-1) and tail ([GEN] or cb & pfo). */
static struct rel fenced_paths(struct cnf *c, const struct base *b, const struct ppcb_parts *pp,
                               const struct rel *head, const struct rel *tail, bool direct)
{
    struct rel via_alias = cat_seq(c, cat_seq(c, rel_copy(head), rel_copy(&pp->through_alias)),
                                   rel_copy(tail));
    struct rel paths = cat_and(c, REL(R_LOC), via_alias);
    if (direct) {
        struct rel straight = cat_seq(c, cat_seq(c, rel_copy(head), rel_copy(pp->cb)), rel_copy(tail));
        paths = cat_or(c, paths, cat_and(c, REL(R_VLOC), straight));
    }
    return paths;
}

static struct rel proxy_preserved_cause_base(struct cnf *c, const struct base *b, const struct rel *cb,
                                             const struct rel *sp)
{
    struct rel pfo = cat_filter(c, SET(S_F), cat_and(c, rel_copy(sp), REL(R_SCTA)), SET(S_M));
    struct ppcb_parts pp = { .cb = cb };
    pp.cb_pfo = cat_and(c, rel_copy(cb), rel_copy(&pfo));
    pp.cb_pfo_inv = cat_and(c, rel_copy(cb), cat_inv(pfo));
    pp.through_alias = cat_seq(c, cat_filter(c, SET(S_ALL), rel_copy(cb), cat_sand(c, SET(S_F), SET(S_ALIAS))),
                               rel_copy(cb));
    struct rel gen = cat_id(SET(S_GEN));
    struct rel result = cat_filter(c, SET(S_GEN), cat_and(c, REL(R_VLOC), rel_copy(cb)), SET(S_GEN));
    struct rel same_all = cat_and(c, cat_and(c, rel_copy(sp), REL(R_SCTA)), cat_and(c, REL(R_VLOC), rel_copy(cb)));
    result = cat_or(c, result, cat_filter(c, SET(S_M), same_all, SET(S_M)));
    /* the [GEN]..[GEN] alias path has no direct vloc counterpart beyond the first line */
    result = cat_or(c, result, fenced_paths(c, b, &pp, &gen, &gen, false));
    result = cat_or(c, result, fenced_paths(c, b, &pp, &pp.cb_pfo_inv, &gen, true));
    result = cat_or(c, result, fenced_paths(c, b, &pp, &gen, &pp.cb_pfo, true));
    result = cat_or(c, result, fenced_paths(c, b, &pp, &pp.cb_pfo_inv, &pp.cb_pfo, true));
    rel_free(&gen);
    rel_free(&pp.cb_pfo);
    rel_free(&pp.cb_pfo_inv);
    rel_free(&pp.through_alias);
    return result;
}

void model_ptx75_build(struct cnf *c, const struct base *b, struct model_out *out)
{
    struct rel sync_barrier = cat_and(c, REL(R_SYNCBAR), REL(R_SCTA));
    struct rel co = REL(R_CO);   /* co+ = co: the skeleton makes co a strict order */
    struct rel fr = cat_seq(c, cat_inv(REL(R_RF)), rel_copy(&co));
    struct rel sp = same_proxy(c, b);
    struct rel po_vloc = cat_and(c, REL(R_PO), REL(R_VLOC));
    /* morally-strong = (ms1 & ms2 & ms3) \ id */
    struct rel ms = cat_minus(c, cat_and(c, cat_and(c, ptx_ms1(c, b), rel_copy(&sp)), ptx_overlap(c, b, R_VLOC)),
                              cat_id(SET(S_ALL)));
    struct rel obs = cat_or(c, cat_and(c, rel_copy(&ms), REL(R_RF)), REL(R_RMW));
    struct rel patterns = cat_seq(c, cat_seq(c, ptx_release_pattern(c, b, &po_vloc), cat_plus(c, rel_copy(&obs))),
                                  ptx_acquire_pattern(c, b, &po_vloc));
    struct rel sync = cat_and(c, rel_copy(&ms), patterns);
    struct rel syncs = cat_or(c, cat_or(c, rel_copy(&sync), REL(R_SYNC_FENCE)), sync_barrier);
    struct rel cause_base = cat_or(c, cat_seq(c, cat_opt(c, b, REL(R_PO)),
                                              cat_plus(c, cat_seq(c, syncs, cat_opt(c, b, REL(R_PO))))),
                                   REL(R_PO));
    struct rel ppcb = proxy_preserved_cause_base(c, b, &cause_base, &sp);
    struct rel cause = cat_seq(c, cat_opt(c, b, rel_copy(&obs)), ppcb);

    ptx_axioms(c, b, out, &cause, &ms, &co, &fr);
    ptx_causality(c, b, out, &cause, &fr);

    ptx_export(out, fr, sync, cause, obs);
    rel_free(&co);
    rel_free(&ms);
    rel_free(&sp);
    rel_free(&po_vloc);
    rel_free(&cause_base);
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
 * decide in each execution: the skeleton assumes nothing for them. */
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
