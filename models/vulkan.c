/* The Vulkan memory model, definition by definition as in vulkan.cat; with
 * availability/visibility chains (vulkan) or without (vulkan-nochains:
 * the two files differ only in `chains`), and the weakening of both
 * (locord without its availability/visibility terms) that a check may
 * encode first (models/model.h, weakening). */
#include "models/cat.h"

const struct axiom_decl model_vulkan_axioms[] = {
    [VULKAN_CONSISTENCY_CYCLE] = { "consistency-cycle", AX_ACYCLIC }, [VULKAN_CONSISTENCY_RF] = { "consistency-rf", AX_EMPTY },
    [VULKAN_ATOMIC] = { "atomic", AX_EMPTY }, [VULKAN_RACY] = { "racy", AX_FLAG },
    [VULKAN_UB] = { "undefined-behavior", AX_FLAG }, [VULKAN_UB + 1] = { NULL, AX_EMPTY },
};

/* The definitions later ones use, by their cat names. */
struct vk {
    set avsg_set, vissg_set, avwg_set, viswg_set, avqf_set, visqf_set, avshader, visshader, e;
    set w_np, r_np, rw_np;           /* W \ PRIV, R \ PRIV, (R | W) \ PRIV */
    set sc[16];                      /* sc[mask]: SC<k> for every k in mask, united; NULL until made */
    rel inscope, mutordatom, asmo, avvisinc, sw, hb;
    rel po_opt, po_avvis, w_start;   /* po?, po? & avvisinc, [W \ PRIV]; (po? & avvisinc); NULL until made */
    rel hb_ssg, hb_swg, hb_sqf;      /* hb & ssg, hb & swg, hb & sqf (made with the chains) */
    /* chains as the availability (visibility) chains meet it; NULL where
     * that meeting keeps every pair (build_chains) */
    rel av_chains, vis_chains;
};

/* chains & r, or r where chains is NULL. */
static rel chained(struct cat *m, rel chains, rel r)
{
    return chains ? cat_and(m, chains, r) : r;
}

/* a is a subset of b and of c (read from their bits: no set is made). */
static bool within(set a, set b, set c)
{
    for (int k = 0; k < (a->n + 63) / 64; k++)
        if (a->bits[k] & ~(b->bits[k] & c->bits[k]))
            return false;
    return true;
}

/* SC<k> for every k in mask, united: SC0, SC01, ..., SC0123; each mask's
 * made once per build, from the mask without its highest class. */
static set sc_any(struct cat *m, struct vk *v, unsigned mask)
{
    if (!v->sc[mask]) {
        int high = 31 - __builtin_clz(mask);
        unsigned rest = mask & ~(1u << high);
        v->sc[mask] = rest ? cat_sor(m, sc_any(m, v, rest), SET(S_SC0 + high)) : SET(S_SC0 + high);
    }
    return v->sc[mask];
}

/* The tag sets of the auxiliaries. */
static void tags(struct cat *m, struct vk *v)
{
    /* let PRIV = (R | W) \ NONPRIV, read only as X \ PRIV with X within
     * R | W: X & NONPRIV (the same set, one object per content) */
    v->w_np = cat_sand(m, SET(S_W), SET(S_NONPRIV));
    v->r_np = cat_sand(m, SET(S_R), SET(S_NONPRIV));
    v->rw_np = cat_sand(m, cat_sor(m, SET(S_R), SET(S_W)), SET(S_NONPRIV));
    v->avsg_set = cat_sor(m, SET(S_AV), SET(S_SEMAV));   /* let AVSG = AV | SEMAV */
    v->vissg_set = cat_sor(m, SET(S_VIS), SET(S_SEMVIS)); /* let VISSG = VIS | SEMVIS */
}

/* The scoped sets of the auxiliaries, which only the chains read. */
static void scoped_tags(struct cat *m, struct vk *v)
{
    set av = v->avsg_set, vis = v->vissg_set;
    set dv_qf = cat_sor(m, SET(S_DV), SET(S_QF)), dv_qf_wg = cat_sor(m, dv_qf, SET(S_WG));
    v->avshader = cat_sand(m, av, SET(S_DV));            /* let AVSHADER = (AV | SEMAV) & DV */
    v->visshader = cat_sand(m, vis, SET(S_DV));          /* let VISSHADER = (VIS | SEMVIS) & DV */
    v->avqf_set = cat_sand(m, av, dv_qf);                /* let AVQF = (AV | SEMAV) & (DV | QF) */
    v->visqf_set = cat_sand(m, vis, dv_qf);              /* let VISQF = (VIS | SEMVIS) & (DV | QF) */
    v->avwg_set = cat_sand(m, av, dv_qf_wg);             /* let AVWG = (AV | SEMAV) & (DV | QF | WG) */
    v->viswg_set = cat_sand(m, vis, dv_qf_wg);           /* let VISWG = (VIS | SEMVIS) & (DV | QF | WG) */
}

/* let inscope = (DV * DV) | (sqf & ((DV | QF) * (DV | QF))) |
 *               (swg & ((DV | QF | WG) * (DV | QF | WG))) | (ssg & ((DV | QF | WG | SG) * (DV | QF | WG | SG))) */
static rel inscope(struct cat *m)
{
    /* Sets are one object per content, so a level whose scope tags no
     * event has its predecessor's set; its term is then within the
     * predecessor's (ssg within swg within sqf; the first within DV * DV)
     * and is left out of the union. */
    static const enum base_rel same[] = { R_SQF, R_SWG, R_SSG };
    static const enum base_set scope[] = { S_QF, S_WG, S_SG };
    set wider = SET(S_DV);
    rel r = cat_prod(m, wider, wider);
    for (int k = 0; k < 3; k++) {
        set s = cat_sor(m, wider, SET(scope[k]));
        if (s != wider)
            r = cat_or(m, r, cat_and(m, REL(same[k]), cat_prod(m, s, s)));
        wider = s;
    }
    return r;
}

/* let avvisinc = avvisSem | avvisSet | avvisSet^-1 */
static rel avvisinc(struct cat *m, struct vk *v)
{
    /* let avvisSem = (SC0123 * AVDEVICE) | (VISDEVICE * SC0123) |
     *   (SC0 * (SEMSC0 & SEMAV)) | ... | ((SEMSC0 & SEMVIS) * SC0) | ... */
    rel sem = cat_or(m, cat_prod(m, sc_any(m, v, 0xf), SET(S_AVDEVICE)), cat_prod(m, SET(S_VISDEVICE), sc_any(m, v, 0xf)));
    for (int k = 0; k < 4; k++) {
        sem = cat_or(m, sem, cat_prod(m, SET(S_SC0 + k), cat_sand(m, SET(S_SEMSC0 + k), SET(S_SEMAV))));
        sem = cat_or(m, sem, cat_prod(m, cat_sand(m, SET(S_SEMSC0 + k), SET(S_SEMVIS)), SET(S_SC0 + k)));
    }
    /* let avvisSet = [AV | VIS]; (vloc & loc) */
    rel avvis_set = cat_seq(m, cat_id(m, cat_sor(m, SET(S_AV), SET(S_VIS))), cat_and(m, REL(R_VLOC), REL(R_LOC)));
    return cat_or(m, cat_or(m, sem, avvis_set), cat_inv(m, avvis_set));
}

/* let posctosem = ((SC0 * SEMSC0) | ... | (SC3 * SEMSC3)) & po (to_sem), or
 * let posemtosc = ((SEMSC0 * SC0) | ... | (SEMSC3 * SC3)) & po */
static rel po_class(struct cat *m, bool to_sem)
{
    rel r = cat_empty(m);
    for (int k = 0; k < 4; k++)
        r = cat_or(m, r, to_sem ? cat_prod(m, SET(S_SC0 + k), SET(S_SEMSC0 + k))
                                : cat_prod(m, SET(S_SEMSC0 + k), SET(S_SC0 + k)));
    return cat_and(m, r, REL(R_PO));
}

/* let sw = inscope & (...): the four atomic/fence shapes and fence-cbar-cbar-fence */
/* po?, made once per build. */
static rel po_opt(struct cat *m, struct vk *v)
{
    if (!v->po_opt)
        v->po_opt = cat_opt(m, REL(R_PO));
    return v->po_opt;
}

/* let sw = inscope & (...): the four atomic/fence shapes and fence-cbar-cbar-fence.
 * A term that starts or ends in an empty set of events is empty, and is
 * not built: the fence shapes without a release (acquire) fence, the
 * barrier shape without a control barrier or either fence, the four
 * shapes where rf & mutordatom is empty (known at once on a concrete
 * execution), and imm(asmo); [RMW] without an RMW, whose star is then the
 * identity. */
static rel synchronizes_with(struct cat *m, struct vk *v)
{
    set rel_f = cat_sand(m, SET(S_REL), SET(S_F)), acq_f = cat_sand(m, SET(S_ACQ), SET(S_F));
    rel rf_mo = cat_and(m, REL(R_RF), v->mutordatom);
    rel shapes = cat_empty(m);   /* each shape passes through rf & mutordatom */
    if (!rf_mo->empty) {
        /* let imm(r) = r \ (r; r+); (imm(asmo); [RMW])* */
        rel step = SET(S_RMW)->size ? cat_seq(m, cat_imm(m, v->asmo), cat_id(m, SET(S_RMW))) : cat_empty(m);
        rel chain = cat_star(m, step);
        rel rs = cat_seq(m, cat_id(m, cat_sand(m, SET(S_REL), SET(S_ATOM))), chain);   /* let rs = [REL & ATOM]; ... */
        rel hypors = rel_f->size ? cat_seq(m, cat_id(m, cat_sand(m, SET(S_W), SET(S_ATOM))), chain)
                                 : cat_empty(m);                                      /* let hypors = [W & ATOM]; ... */
        set rel_atom = cat_sand(m, SET(S_REL), SET(S_ATOM)), acq_atom = cat_sand(m, SET(S_ACQ), SET(S_ATOM));
        /* [REL & ATOM]; rs; (rf & mutordatom)  |  [REL & F]; posemtosc; [ATOM & W]; hypors; (rf & mutordatom) */
        rel from_atomic = cat_seq(m, cat_filter(m, rel_atom, rs, NULL), rf_mo);
        rel from_fence = rel_f->size ? cat_seq(m, cat_seq(m, cat_filter(m, rel_f, po_class(m, false),
                                                                        cat_sand(m, SET(S_ATOM), SET(S_W))),
                                                          hypors), rf_mo)
                                     : cat_empty(m);
        /* ...; [ACQ & ATOM]  |  ...; [ATOM & R]; posctosem; [ACQ & F] */
        rel to_atomic = cat_id(m, acq_atom);
        rel to_fence = acq_f->size ? cat_filter(m, cat_sand(m, SET(S_ATOM), SET(S_R)), po_class(m, true), acq_f)
                                   : cat_empty(m);
        shapes = cat_seq(m, cat_or(m, from_atomic, from_fence), cat_or(m, to_atomic, to_fence));
    }
    /* [REL & F]; po?; [CBAR]; ((syncbar & inscope) \ id); [CBAR]; po?; [ACQ & F] */
    if (!SET(S_CBAR)->size || !rel_f->size || !acq_f->size)
        return cat_and(m, v->inscope, shapes);
    rel bar = cat_filter(m, SET(S_CBAR), cat_minus(m, cat_and(m, REL(R_SYNCBAR), v->inscope), cat_id(m, SET(S_ALL))),
                         SET(S_CBAR));
    bar = cat_seq(m, cat_seq(m, cat_filter(m, rel_f, po_opt(m, v), NULL), bar), cat_filter(m, NULL, po_opt(m, v), acq_f));
    return cat_and(m, v->inscope, cat_or(m, shapes, bar));
}

/* let ithbsemsc(SC, SEMSC) = (ssw | ([SEMSC]; sw; [SEMSC]) | ([SC | SEMSC]; po; [REL & SEMSC]) |
 *                             ([ACQ & SEMSC]; po; [SC | SEMSC]))+ */
static rel ithbsemsc(struct cat *m, const struct vk *v, set sc, set semsc)
{
    set either = cat_sor(m, sc, semsc);
    rel r = cat_or(m, REL(R_SSW), cat_filter(m, semsc, v->sw, semsc));
    r = cat_or(m, r, cat_filter(m, either, REL(R_PO), cat_sand(m, SET(S_REL), semsc)));
    r = cat_or(m, r, cat_filter(m, cat_sand(m, SET(S_ACQ), semsc), REL(R_PO), either));
    return cat_plus(m, r);
}

/* let hb = po | ithbsemsc(SC0, SEMSC0) | ... | ithbsemsc(SC0123, SEMSC0123):
 * every non-empty set of storage classes.  ithbsemsc(SC, SEMSC) grows with
 * SC, and one more class in a mask never widens its SEMSC (an
 * intersection): where a mask with one more class has the same SEMSC set
 * (sets are one object per content), that mask's term contains this
 * one's, which is left out.  Of the masks with one SEMSC set, the union
 * of them all is kept (its SEMSC is the same); a program that uses one
 * storage class keeps one closure. */
static rel happens_before(struct cat *m, struct vk *v)
{
    set semsc[16];   /* semsc[mask]: SEMSC<k> for every k in mask, intersected */
    semsc[0] = SET(S_ALL);
    for (unsigned mask = 1; mask < 16; mask++) {
        int low = __builtin_ctz(mask);
        semsc[mask] = cat_sand(m, semsc[mask & (mask - 1)], SET(S_SEMSC0 + low));
    }
    rel hb = REL(R_PO);
    for (unsigned mask = 1; mask < 16; mask++) {
        bool widest = true;
        for (int k = 0; k < 4 && widest; k++)
            widest = (mask & (1u << k)) || semsc[mask | (1u << k)] != semsc[mask];
        if (widest)
            hb = cat_or(m, hb, ithbsemsc(m, v, sc_any(m, v, mask), semsc[mask]));
    }
    return hb;
}

/* The availability and visibility operations at each instance domain. */
struct chains { rel avsg, avwg, avqf, avsh, vissg, viswg, visqf, vissh; };

/* hb & s<level> & avvisinc, keeping hb & s<level> in *hb_same. */
static rel hb_in(struct cat *m, const struct vk *v, enum base_rel same, rel *hb_same)
{
    *hb_same = cat_and(m, v->hb, REL(same));
    return cat_and(m, *hb_same, v->avvisinc);
}

/* The chains (with chains = E * E where product, else [E]) of a program
 * with an availability operation (AVSG not empty).  av<k> = ...; [AV<k>] is empty where AV<k> is, and vis<k> =
 * [VIS<k>]; ... where VIS<k> is: such an operation is not built (its
 * terms in locord are left out, location_order), nor, where VISSG is
 * empty, any visibility operation. */
static void build_chains(struct cat *m, struct vk *v, bool product, struct chains *ch)
{
    scoped_tags(m, v);
    /* let E = (M | F | CBAR | AVDEVICE | VISDEVICE) \ IW; let chains = E * E (or [E]) */
    set e = cat_sor(m, cat_sor(m, cat_sor(m, SET(S_M), SET(S_F)), SET(S_CBAR)),
                    cat_sor(m, SET(S_AVDEVICE), SET(S_VISDEVICE)));
    v->e = cat_sminus(m, e, SET(S_INIT));
    /* With chains = E * E, an availability chain (chains & path); [AV<k>]
     * keeps every pair of path; [AV<k>] where AVSG lies within E: each of
     * its pairs starts at an AVSG event (every step that is not the
     * identity begins with [AVSG] or with an earlier av<k>, whose pairs
     * start there) or is (x, x) with x in AV<k>, within AVSG, and ends in
     * AV<k>.  Likewise a visibility chain [VIS<k>]; (chains & path) with
     * VISSG within E (every pair ends in VISSG or is the identity).  chains
     * is made only where a meeting keeps it (on a concrete execution each
     * relation is made at once, as bits). */
    bool av_all = product && within(v->avsg_set, v->e, v->e), vis_all = product && within(v->vissg_set, v->e, v->e);
    rel chains = av_all && vis_all ? NULL : product ? cat_prod(m, v->e, v->e) : cat_id(m, v->e);
    v->av_chains = av_all ? NULL : chains;
    v->vis_chains = vis_all ? NULL : chains;
    rel h_sg = hb_in(m, v, R_SSG, &v->hb_ssg), h_wg = hb_in(m, v, R_SWG, &v->hb_swg);
    rel h_qf = hb_in(m, v, R_SQF, &v->hb_sqf);
    rel none = cat_empty(m);
    ch->avsg = cat_id(m, v->avsg_set);                                  /* let avsg = [AVSG] */
    rel sg = cat_opt(m, cat_seq(m, ch->avsg, h_sg));                    /* (avsg; (hb & ssg & avvisinc))? */
    ch->avwg = v->avwg_set->size ? cat_seq(m, chained(m, v->av_chains, sg), cat_id(m, v->avwg_set))
                                 : none;                                /* let avwg = (chains & sg); [AVWG] */
    rel wg = cat_opt(m, cat_seq(m, ch->avwg, h_wg));                    /* (avwg; (hb & swg & avvisinc))? */
    ch->avqf = v->avqf_set->size ? cat_seq(m, chained(m, v->av_chains, cat_seq(m, sg, wg)), cat_id(m, v->avqf_set))
                                 : none;                                /* let avqf */
    rel qf = cat_opt(m, cat_seq(m, ch->avqf, h_qf));                    /* (avqf; (hb & sqf & avvisinc))? */
    ch->avsh = v->avshader->size ? cat_seq(m, chained(m, v->av_chains, cat_seq(m, cat_seq(m, sg, wg), qf)),
                                           cat_id(m, v->avshader))
                                 : none;                                /* let avsh */
    ch->vissg = ch->viswg = ch->visqf = ch->vissh = none;
    if (!v->vissg_set->size)
        return;
    ch->vissg = cat_id(m, v->vissg_set);                                /* let vissg = [VISSG] */
    rel vsg = cat_opt(m, cat_seq(m, h_sg, ch->vissg));                  /* ((hb & ssg & avvisinc); vissg)? */
    if (v->viswg_set->size)
        ch->viswg = cat_seq(m, cat_id(m, v->viswg_set), chained(m, v->vis_chains, vsg));  /* let viswg */
    rel vwg = cat_opt(m, cat_seq(m, h_wg, ch->viswg));                  /* ((hb & swg & avvisinc); viswg)? */
    if (v->visqf_set->size)
        ch->visqf = cat_seq(m, cat_id(m, v->visqf_set), chained(m, v->vis_chains, cat_seq(m, vwg, vsg)));   /* let visqf */
    rel vqf = cat_opt(m, cat_seq(m, h_qf, ch->visqf));                  /* ((hb & sqf & avvisinc); visqf)? */
    if (v->visshader->size)
        ch->vissh = cat_seq(m, cat_id(m, v->visshader),
                            chained(m, v->vis_chains, cat_seq(m, cat_seq(m, vqf, vwg), vsg)));       /* let vissh */
}

/* r | vloc & ([W \ PRIV]; (po? & avvisinc); av; order; [W \ PRIV])  (WaW, where
 * waw) | vloc & (...; av; order; vis; (po? & avvisinc); [R \ PRIV])  (RaW, where
 * raw), through one instance domain: the two share their path up to order,
 * and every domain its start [W \ PRIV]; (po? & avvisinc). */
static rel through_domain(struct cat *m, struct vk *v, rel r, rel av, rel order, rel vis, bool waw, bool raw)
{
    if (!v->po_avvis) {
        v->po_avvis = cat_and(m, po_opt(m, v), v->avvisinc);
        v->w_start = cat_filter(m, v->w_np, v->po_avvis, NULL);
    }
    rel path = cat_seq(m, cat_seq(m, v->w_start, av), order);
    if (waw)
        r = cat_or(m, r, cat_and(m, REL(R_VLOC), cat_filter(m, NULL, path, v->w_np)));
    if (raw)
        r = cat_or(m, r, cat_and(m, REL(R_VLOC), cat_filter(m, NULL, cat_seq(m, cat_seq(m, path, vis), v->po_avvis),
                                                             v->r_np)));
    return r;
}

/* let locord = loc & (...): the location order of memory accesses; with
 * full false only its first three terms, which neither flavour's chains
 * change.  The other terms each pass through an availability operation
 * (av<k> or [AVDEVICE]), and the RaW ones through a visibility operation:
 * with ch NULL (no AVSG event: every av<k> is empty) the domains' terms
 * are empty and left out, as are the device terms without an AVDEVICE
 * event, and a RaW term whose visibility operation is empty. */
static rel location_order(struct cat *m, struct vk *v, bool full, const struct chains *ch)
{
    rel r = cat_and(m, cat_and(m, v->hb, REL(R_INT)), REL(R_VLOC));          /* (hb & int & vloc) */
    r = cat_or(m, r, cat_filter(m, v->r_np, v->hb, v->rw_np));                  /* | ([R \ PRIV]; hb; [(R | W) \ PRIV]) */
    r = cat_or(m, r, cat_filter(m, SET(S_R), cat_plus(m, REL(R_SSW)), cat_sor(m, SET(S_R), SET(S_W))));
                                                                             /* | ([R]; ssw+; [R | W]) */
    if (!full)
        return cat_and(m, REL(R_LOC), r);
    /* WaW and RaW via subgroup, workgroup, queue family and shader */
    const struct domain {
        rel av, order, vis;
        set av_set, vis_set;
    } dom[] = {
        { ch ? ch->avsg : NULL, v->hb_ssg, ch ? ch->vissg : NULL, v->avsg_set, v->vissg_set },
        { ch ? ch->avwg : NULL, v->hb_swg, ch ? ch->viswg : NULL, v->avwg_set, v->viswg_set },
        { ch ? ch->avqf : NULL, v->hb_sqf, ch ? ch->visqf : NULL, v->avqf_set, v->visqf_set },
        { ch ? ch->avsh : NULL, v->hb, ch ? ch->vissh : NULL, v->avshader, v->visshader },
    };
    /* A domain's term is left out where the next one's contains it, which
     * leaves the union as it is.  The next domain's order contains this
     * one's (ssg within swg within sqf: one subgroup lies in one workgroup,
     * one workgroup in one queue family; hb & sqf within hb).  Its
     * availability operation contains this one's where this domain's AV set
     * lies within the next one's and within E: avsg = [AVSG], and every
     * later av<k> = (chains & path); [AV<k>] has path containing the
     * previous one's (each added step is optional) and the identity, and
     * chains contains [E] in both flavours, so av<k> contains [AV<k> & E];
     * likewise for visibility (vis<k> = [VIS<k>]; (chains & path)).  The
     * sets only ever shrink from one domain to the next (AVSG contains
     * AVWG, ...), so this holds where no availability (visibility) operation
     * has a scope between the two: a test whose operations are all at
     * device scope keeps the shader terms alone.  WaW has no visibility
     * operation, so the availability side alone decides its omission. */
    for (int k = 0; ch && k < 4; k++) {
        const struct domain *d = &dom[k], *next = k < 3 ? &dom[k + 1] : NULL;
        if (!d->av_set->size)
            continue;
        bool av_in_next = next && within(d->av_set, next->av_set, v->e);
        bool vis_in_next = next && within(d->vis_set, next->vis_set, v->e);
        bool raw = (!av_in_next || !vis_in_next) && d->vis_set->size;
        if (!av_in_next || raw)
            r = through_domain(m, v, r, d->av, d->order, d->vis, !av_in_next, raw);
    }
    /* | ([W]; (hb & avvisinc); avdv; (hb); [W])  |  ([W]; (hb & avvisinc); avdv; (hb); visdv; (hb & avvisinc); [R]) */
    if (SET(S_AVDEVICE)->size) {
        rel hb_avvis = cat_and(m, v->hb, v->avvisinc);
        rel avdv = cat_id(m, SET(S_AVDEVICE)), visdv = cat_id(m, SET(S_VISDEVICE));   /* let avdv, visdv */
        rel dev = cat_seq(m, cat_seq(m, cat_filter(m, SET(S_W), hb_avvis, NULL), avdv), v->hb);
        r = cat_or(m, r, cat_filter(m, NULL, dev, SET(S_W)));
        r = cat_or(m, r, cat_filter(m, NULL, cat_seq(m, cat_seq(m, dev, visdv), hb_avvis), SET(S_R)));
    }
    return cat_and(m, REL(R_LOC), r);
}

/* let fr = ((rf & locord)^-1 ; (W * W) & locord) | (rf^-1; asmo) | (([IW]; rf)^-1; ((loc;[W]) \ id)) */
static rel from_read(struct cat *m, const struct vk *v, rel locord)
{
    rel fr = cat_seq(m, cat_inv(m, cat_and(m, REL(R_RF), locord)), cat_and(m, cat_prod(m, SET(S_W), SET(S_W)), locord));
    if (!v->asmo->empty)   /* else rf^-1; asmo is empty */
        fr = cat_or(m, fr, cat_seq(m, cat_inv(m, REL(R_RF)), v->asmo));
    rel later = cat_minus(m, cat_seq(m, REL(R_LOC), cat_id(m, SET(S_W))), cat_id(m, SET(S_ALL)));
    return cat_or(m, fr, cat_seq(m, cat_inv(m, cat_seq(m, cat_id(m, SET(S_INIT)), REL(R_RF))), later));
}

/* let dr = loc & (pair_with_write \ mutordatom \ id \ (locord | locord^-1)) */
static rel data_race(struct cat *m, const struct vk *v, rel locord)
{
    /* let pair_with_write = ((W * W) | (W * R) | (R * W)) \ ((IW * _) | (_ * IW)),
     * the same pairs as (W' * M') | (M' * W') with W' = W \ IW and
     * M' = (R | W) \ IW: a pair of accesses, neither initial, one a write */
    set w = cat_sminus(m, SET(S_W), SET(S_INIT)), rw = cat_sminus(m, cat_sor(m, SET(S_R), SET(S_W)), SET(S_INIT));
    rel pairs = cat_or(m, cat_prod(m, w, rw), cat_prod(m, rw, w));
    pairs = cat_minus(m, cat_minus(m, pairs, v->mutordatom), cat_id(m, SET(S_ALL)));
    return cat_and(m, REL(R_LOC), cat_minus(m, pairs, cat_or(m, locord, cat_inv(m, locord))));
}

enum vk_flavour { VK_CHAINS, VK_NOCHAINS, VK_WEAK };

static void vulkan_build(struct cat *m, enum vk_flavour f)
{
    struct vk v = { 0 };
    tags(m, &v);
    v.inscope = inscope(m);
    /* let mutordatom = (loc & vloc & inscope & (ATOM * ATOM)) \ id: empty without an atomic */
    v.mutordatom = cat_empty(m);
    if (SET(S_ATOM)->size)
        v.mutordatom = cat_minus(m, cat_and(m, cat_and(m, cat_and(m, REL(R_LOC), REL(R_VLOC)), v.inscope),
                                            cat_prod(m, SET(S_ATOM), SET(S_ATOM))),
                                 cat_id(m, SET(S_ALL)));
    v.asmo = cat_and(m, REL(R_CO), v.mutordatom);                       /* let asmo = co & mutordatom */
    /* avvisinc, E and the chains are read only by locord's availability
     * terms, which are built only with an availability operation (an AVSG
     * or AVDEVICE event; location_order) */
    bool full = f != VK_WEAK, has_av = full && v.avsg_set->size;
    v.avvisinc = full && (has_av || SET(S_AVDEVICE)->size) ? avvisinc(m, &v) : NULL;
    v.sw = synchronizes_with(m, &v);
    v.hb = happens_before(m, &v);
    struct chains ch;
    if (has_av)
        build_chains(m, &v, f == VK_CHAINS, &ch);
    /* [W] * _ made before locord: an intersection lists its older operand
     * first (encoders/rel_ops.c), and the guard's row estimates of
     * [W]; locord (consistency-rf) cost less with the static one first
     * (on a solver only: a concrete execution's relations are bits, made
     * at once, in no order) */
    if (cnf_symbolic(m->c))
        cat_prod(m, SET(S_W), SET(S_ALL));
    rel locord = location_order(m, &v, full, has_av ? &ch : NULL);
    rel fr = from_read(m, &v, locord);

    /* acyclic (locord | rf | fr | asmo) as consistency-cycle */
    cat_axiom(m, "consistency-cycle", cat_or(m, cat_or(m, cat_or(m, locord, REL(R_RF)), fr), v.asmo));
    /* empty (rf; ([R \ ATOM])) & (([W]; locord); ([W]; locord)+) as consistency-rf */
    /* (empty where every read is atomic: its closure is not built) */
    set plain_r = cat_sminus(m, SET(S_R), SET(S_ATOM));
    rel shadowed = cat_empty(m);
    if (plain_r->size) {
        rel w_locord = cat_filter(m, SET(S_W), locord, NULL);
        shadowed = cat_and(m, cat_filter(m, NULL, REL(R_RF), plain_r), cat_seq(m, w_locord, cat_plus(m, w_locord)));
    }
    cat_axiom(m, "consistency-rf", shadowed);
    /* empty rmw & (fre; (asmo & ext)) as atomic, with let fre = fr & ext;
     * empty without an rmw pair (fre is read only here) */
    rel rmw_cut = cat_empty(m);
    if (!REL(R_RMW)->empty)
        rmw_cut = cat_and(m, REL(R_RMW), cat_seq(m, cat_and(m, fr, REL(R_EXT)), cat_and(m, v.asmo, REL(R_EXT))));
    cat_axiom(m, "atomic", rmw_cut);
    /* flag ~empty dr as racy (where flags are read) */
    cat_axiom(m, "racy", m->flags ? data_race(m, &v, locord) : cat_empty(m));
    cat_undefined_behavior(m);

    cat_export(m, "sw", v.sw);
    cat_export(m, "hb", v.hb);
    cat_export(m, "locord", locord);
    cat_export(m, "fr", fr);
    cat_export(m, "asmo", v.asmo);
}

void model_vulkan_build(struct cat *m)
{
    vulkan_build(m, VK_CHAINS);
}

void model_vulkan_nochains_build(struct cat *m)
{
    vulkan_build(m, VK_NOCHAINS);
}

/* Its locord is contained in either flavour's, and every axiom but the
 * flags is monotone in locord (fr and fre grow with it, and it occurs
 * only positively), so its consistent executions include theirs. */
void model_vulkan_weak_build(struct cat *m)
{
    vulkan_build(m, VK_WEAK);
}

/* Program order per location in vulkan.cat.  For accesses a before b of
 * one thread to one physical location, locord(a, b) holds when they have
 * one virtual address (loc & (hb & int & vloc), hb contains po), or when a
 * is a non-private read and b a non-private access
 * (loc & ([R \ PRIV]; hb; [(R | W) \ PRIV])).  consistency-cycle, acyclic
 * (locord | rf | fr | asmo), then rules out rf(b, a).  co enters the axioms
 * only as asmo = co & mutordatom: when a and b are mutually ordered atomics
 * (both ATOM with a scope, vloc; one thread is in one subgroup, so in
 * scope), co(b, a) is asmo against locord(a, b), a cycle; co is total, so
 * co(a, b).  Writes through different virtual addresses, or non-atomic
 * ones, are not ordered by co in the model: the skeleton assumes nothing.
 * With one virtual address, a read b after a write a never reads from a
 * write w with co(w, a) where asmo relates w and a (or w is initial):
 * fr(b, a) then holds, by rf^-1; asmo or, for an initial w, by
 * ([IW]; rf)^-1; (loc; [W]) \ id, against locord(a, b); a read a before a
 * write b never reads from w with co(b, w) where asmo relates b and w:
 * locord(a, b), asmo(b, w) and rf(w, a) are a cycle (PO_RF_COHERENT;
 * model_vulkan_co_seen says where asmo relates them). */
unsigned model_vulkan_po_facts(const struct program *p, int a, int b)
{
    bool vloc = base_same_vloc(p, a, b);
    unsigned long long ta = base_event_tags(p, a), tb = base_event_tags(p, b);   /* each set a bit */
    bool nonpriv = (ta & tb) >> S_NONPRIV & 1;
    unsigned facts = vloc || nonpriv ? PO_BIT(PO_NO_FUTURE_READ) : 0;
    unsigned long long scopes = 1ull << S_SG | 1ull << S_WG | 1ull << S_QF | 1ull << S_DV;
    bool scoped_a = (ta & scopes) != 0, scoped_b = (tb & scopes) != 0;
    if (vloc && (ta & tb) >> S_ATOM & 1 && scoped_a && scoped_b)
        facts |= PO_BIT(PO_CO_NOT_BACK) | PO_BIT(PO_CO_ALONG);
    return vloc ? facts | PO_BIT(PO_RF_COHERENT) : facts;
}

/* asmo = co & mutordatom, mutordatom = (loc & vloc & inscope & (ATOM *
 * ATOM)) \ id, between w and the pair's write wr (the read rd plays no
 * part); an initial write is co-before every write of its location and
 * read by fr's last term (above). */
bool model_vulkan_co_seen(const struct program *p, int wr, int rd, int w_read)
{
    int w = wr < rd ? w_read : wr, x = wr < rd ? wr : w_read;   /* co(w, x) against the pair's order */
    const struct event *ew = &p->events[w], *ex = &p->events[x];
    if (ew->kind == EV_INIT)
        return true;
    return w != x && ex->kind != EV_INIT && base_same_vloc(p, w, x) && base_event_in(p, w, S_ATOM) &&
           base_event_in(p, x, S_ATOM) && base_scopes_overlap(p, ew, ex);
}
