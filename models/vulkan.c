/* The Vulkan memory model, axiom by axiom as in vulkan.cat; with
 * availability/visibility chains (vulkan) or without (vulkan-nochains:
 * the two files differ only in `chains`). */
#include "models/cat.h"
#include "models/model.h"

#define REL(r) cat_rel(b, r)
#define SET(s) cat_set(b, s)

/* Everything later definitions reuse. */
struct vk {
    struct cnf *c;
    const struct base *b;
    struct rel inscope, mutordatom, asmo, avvisinc, po_avvis, hb, chains;
    struct rel hb_sg, hb_wg, hb_qf;       /* hb & s<level> & avvisinc */
    bool asmo_classes;                    /* mutordatom forms classes (co is total) */
};

/* SC<k> for every k in mask, united. */
static struct set sc_any(struct cnf *c, const struct base *b, unsigned mask)
{
    struct set s = set_empty(b->n);
    for (int k = 0; k < 4; k++)
        if (mask & (1u << k))
            s = cat_sor(c, s, SET(S_SC0 + k));
    return s;
}

/* SEMSC<k> for every k in mask, intersected. */
static struct set semsc_all(struct cnf *c, const struct base *b, unsigned mask)
{
    struct set s = SET(S_ALL);
    for (int k = 0; k < 4; k++)
        if (mask & (1u << k))
            s = cat_sand(c, s, SET(S_SEMSC0 + k));
    return s;
}

/* The scope tags at or above level: DV, then QF, WG, SG. */
static struct set scope_at_least(struct cnf *c, const struct base *b, int levels)
{
    static const enum base_set tags[] = { S_DV, S_QF, S_WG, S_SG };
    struct set s = set_empty(b->n);
    for (int k = 0; k < levels; k++)
        s = cat_sor(c, s, SET(tags[k]));
    return s;
}

static struct rel square(struct cnf *c, struct set s) { return cat_prod(c, set_copy(&s), s); }

/* inscope = (DV * DV) | (sqf & ((DV | QF) * (DV | QF))) | (swg & ...) | (ssg & ...) */
static struct rel inscope(struct cnf *c, const struct base *b)
{
    struct rel r = square(c, scope_at_least(c, b, 1));
    r = cat_or(c, r, cat_and(c, REL(R_SQF), square(c, scope_at_least(c, b, 2))));
    r = cat_or(c, r, cat_and(c, REL(R_SWG), square(c, scope_at_least(c, b, 3))));
    return cat_or(c, r, cat_and(c, REL(R_SSG), square(c, scope_at_least(c, b, 4))));
}

/* avvisinc = avvisSem | avvisSet | avvisSet^-1 */
static struct rel avvisinc(struct cnf *c, const struct base *b)
{
    struct rel sem = cat_or(c, cat_prod(c, sc_any(c, b, 0xf), SET(S_AVDEVICE)),
                            cat_prod(c, SET(S_VISDEVICE), sc_any(c, b, 0xf)));
    for (int k = 0; k < 4; k++) {
        sem = cat_or(c, sem, cat_prod(c, SET(S_SC0 + k), cat_sand(c, SET(S_SEMSC0 + k), SET(S_SEMAV))));
        sem = cat_or(c, sem, cat_prod(c, cat_sand(c, SET(S_SEMSC0 + k), SET(S_SEMVIS)), SET(S_SC0 + k)));
    }
    struct rel set = cat_seq(c, cat_id(cat_sor(c, SET(S_AV), SET(S_VIS))),
                             cat_and(c, REL(R_VLOC), REL(R_LOC)));
    struct rel set_inv = cat_inv(rel_copy(&set));
    return cat_or(c, cat_or(c, sem, set), set_inv);
}

/* posctosem (to_sem) or posemtosc: po between a storage class and its semantics. */
static struct rel po_class(struct cnf *c, const struct base *b, bool to_sem)
{
    struct rel r = rel_empty(b->n);
    for (int k = 0; k < 4; k++)
        r = to_sem ? cat_or(c, r, cat_prod(c, SET(S_SC0 + k), SET(S_SEMSC0 + k)))
                   : cat_or(c, r, cat_prod(c, SET(S_SEMSC0 + k), SET(S_SC0 + k)));
    return cat_and(c, r, REL(R_PO));
}

/* True when the pairs m can relate (entries not LIT_FALSE), off the
 * diagonal, are symmetric and transitive: m splits the events into
 * classes.  Every base set and relation is "statically so, and executed",
 * so an entry of m means exactly "both executed" wherever it can hold. */
static bool forms_classes(const struct rel *m)
{
    int n = m->n;
    for (int a = 0; a < n; a++)
        for (int c = 0; c < n; c++) {
            if (a == c || rel_get(m, a, c) == LIT_FALSE)
                continue;
            if (rel_get(m, c, a) == LIT_FALSE)
                return false;
            for (int b = 0; b < n; b++)
                if (b != a && rel_get(m, c, b) != LIT_FALSE && rel_get(m, a, b) == LIT_FALSE)
                    return false;
        }
    return true;
}

/* (imm(asmo); [RMW])+ when mutordatom forms classes: asmo, coherence
 * within a class, is then a strict total order on the class's executed
 * writes, so a chain of immediate successors from a to b passes through
 * every write between them: a reaches b iff b is an RMW and no write
 * between them is not one. */
static struct rel rmw_chain_in_classes(struct vk *v)
{
    struct cnf *c = v->c;
    const struct base *b = v->b;
    const struct set *rmw = &b->sets[S_RMW];
    int n = b->n;
    struct rel out = rel_empty(n);
    for (int x = 0; x < n; x++)
        for (int y = 0; y < n; y++) {
            lit xy = rel_get(&v->asmo, x, y);
            if (xy == LIT_FALSE || rmw->m[y] == LIT_FALSE)
                continue;
            lit broken = LIT_FALSE;
            for (int z = 0; z < n; z++)
                if (rmw->m[z] == LIT_FALSE && rel_get(&v->asmo, x, z) != LIT_FALSE)
                    broken = cnf_or(c, broken, cnf_and(c, rel_get(&v->asmo, x, z),
                                                       rel_get(&v->asmo, z, y)));
            rel_set(&out, x, y, cnf_and(c, xy, -broken));
        }
    return out;
}

/* [from]; (imm(asmo); [RMW])*  with imm(r) = r \ (r; r+): rs and hypors. */
static struct rel release_sequence(struct vk *v, struct set from)
{
    struct cnf *c = v->c;
    const struct base *b = v->b;
    struct rel chain;
    if (v->asmo_classes) {
        chain = rmw_chain_in_classes(v);
    } else {
        struct rel twice = cat_seq(c, rel_copy(&v->asmo), cat_plus(c, rel_copy(&v->asmo)));
        struct rel imm = cat_minus(c, rel_copy(&v->asmo), twice);
        chain = cat_plus(c, cat_seq(c, imm, cat_id(SET(S_RMW))));
    }
    return cat_seq(c, cat_id(from), cat_opt(c, b, chain));
}

/* sw: the four atomic/fence shapes and fence-cbar-cbar-fence, in scope. */
static struct rel synchronizes_with(struct vk *v)
{
    struct cnf *c = v->c;
    const struct base *b = v->b;
    struct rel rf_mo = cat_and(c, REL(R_RF), rel_copy(&v->mutordatom));
    struct set rel_atom = cat_sand(c, SET(S_REL), SET(S_ATOM));
    struct set rel_fence = cat_sand(c, SET(S_REL), SET(S_F));
    struct set acq_fence = cat_sand(c, SET(S_ACQ), SET(S_F));
    /* [REL & ATOM]; rs  |  [REL & F]; posemtosc; [ATOM & W]; hypors */
    struct rel from_atomic = release_sequence(v, rel_atom);
    struct rel from_fence = cat_seq(c, cat_filter(c, set_copy(&rel_fence), po_class(c, b, false),
                                                  cat_sand(c, SET(S_ATOM), SET(S_W))),
                                    release_sequence(v, cat_sand(c, SET(S_W), SET(S_ATOM))));
    struct rel head = cat_seq(c, from_atomic, rel_copy(&rf_mo));
    head = cat_or(c, head, cat_seq(c, from_fence, rf_mo));
    /* [ACQ & ATOM]  |  [ATOM & R]; posctosem; [ACQ & F] */
    struct rel tail = cat_or(c, cat_id(cat_sand(c, SET(S_ACQ), SET(S_ATOM))),
                             cat_filter(c, cat_sand(c, SET(S_ATOM), SET(S_R)), po_class(c, b, true),
                                        set_copy(&acq_fence)));
    struct rel sw = cat_seq(c, head, tail);
    /* [REL & F]; po?; [CBAR]; ((syncbar & inscope) \ id); [CBAR]; po?; [ACQ & F] */
    struct rel bar = cat_minus(c, cat_and(c, REL(R_SYNCBAR), rel_copy(&v->inscope)), cat_id(SET(S_ALL)));
    bar = cat_filter(c, SET(S_CBAR), bar, SET(S_CBAR));
    bar = cat_seq(c, cat_seq(c, cat_filter(c, rel_fence, cat_opt(c, b, REL(R_PO)), SET(S_ALL)), bar),
                  cat_filter(c, SET(S_ALL), cat_opt(c, b, REL(R_PO)), acq_fence));
    return cat_and(c, rel_copy(&v->inscope), cat_or(c, sw, bar));
}

/* ithbsemsc(SC, SEMSC) = (ssw | [SEMSC]; sw; [SEMSC] | [SC | SEMSC]; po; [REL & SEMSC]
 *                         | [ACQ & SEMSC]; po; [SC | SEMSC])+ for the classes in mask. */
static struct rel ithbsemsc(struct vk *v, const struct rel *sw, unsigned mask)
{
    struct cnf *c = v->c;
    const struct base *b = v->b;
    struct set semsc = semsc_all(c, b, mask);
    struct set either = cat_sor(c, sc_any(c, b, mask), set_copy(&semsc));
    struct rel r = cat_or(c, REL(R_SSW), cat_filter(c, set_copy(&semsc), rel_copy(sw), set_copy(&semsc)));
    r = cat_or(c, r, cat_filter(c, set_copy(&either), REL(R_PO), cat_sand(c, SET(S_REL), set_copy(&semsc))));
    r = cat_or(c, r, cat_filter(c, cat_sand(c, SET(S_ACQ), semsc), REL(R_PO), either));
    return cat_plus(c, r);
}

/* hb = po | ithbsemsc over every non-empty set of storage classes. */
static struct rel happens_before(struct vk *v, const struct rel *sw)
{
    struct rel hb = cat_rel(v->b, R_PO);
    for (unsigned mask = 1; mask < 16; mask++)
        hb = cat_or(v->c, hb, ithbsemsc(v, sw, mask));
    return hb;
}

/* (av<below>; (hb & s<below> & avvisinc))? : one optional hop of an availability chain. */
static struct rel av_hop(struct vk *v, const struct rel *av, const struct rel *hb_level)
{
    return cat_opt(v->c, v->b, cat_seq(v->c, rel_copy(av), rel_copy(hb_level)));
}

/* ((hb & s<below> & avvisinc); vis<below>)? : one optional hop of a visibility chain. */
static struct rel vis_hop(struct vk *v, const struct rel *hb_level, const struct rel *vis)
{
    return cat_opt(v->c, v->b, cat_seq(v->c, rel_copy(hb_level), rel_copy(vis)));
}

/* The availability and visibility operations at each instance domain. */
struct chains { struct rel avsg, avwg, avqf, avsh, vissg, viswg, visqf, vissh; };

static void build_chains(struct vk *v, struct chains *ch)
{
    struct cnf *c = v->c;
    const struct base *b = v->b;
    ch->avsg = cat_id(cat_sor(c, SET(S_AV), SET(S_SEMAV)));
    ch->vissg = cat_id(cat_sor(c, SET(S_VIS), SET(S_SEMVIS)));
    struct set av_wg = cat_sand(c, cat_sor(c, SET(S_AV), SET(S_SEMAV)), scope_at_least(c, b, 3));
    struct set av_qf = cat_sand(c, cat_sor(c, SET(S_AV), SET(S_SEMAV)), scope_at_least(c, b, 2));
    struct set av_sh = cat_sand(c, cat_sor(c, SET(S_AV), SET(S_SEMAV)), scope_at_least(c, b, 1));
    struct set vis_wg = cat_sand(c, cat_sor(c, SET(S_VIS), SET(S_SEMVIS)), scope_at_least(c, b, 3));
    struct set vis_qf = cat_sand(c, cat_sor(c, SET(S_VIS), SET(S_SEMVIS)), scope_at_least(c, b, 2));
    struct set vis_sh = cat_sand(c, cat_sor(c, SET(S_VIS), SET(S_SEMVIS)), scope_at_least(c, b, 1));
    /* avwg = (chains & (avsg; H_sg)?); [AVWG], and so on up */
    struct rel sg = av_hop(v, &ch->avsg, &v->hb_sg);
    ch->avwg = cat_seq(c, cat_and(c, rel_copy(&v->chains), rel_copy(&sg)), cat_id(av_wg));
    struct rel wg = av_hop(v, &ch->avwg, &v->hb_wg);
    struct rel sg_wg = cat_seq(c, sg, wg);
    ch->avqf = cat_seq(c, cat_and(c, rel_copy(&v->chains), rel_copy(&sg_wg)), cat_id(av_qf));
    struct rel sg_wg_qf = cat_seq(c, sg_wg, av_hop(v, &ch->avqf, &v->hb_qf));
    ch->avsh = cat_seq(c, cat_and(c, rel_copy(&v->chains), sg_wg_qf), cat_id(av_sh));
    /* viswg = [VISWG]; (chains & (H_sg; vissg)?), and so on up */
    struct rel vsg = vis_hop(v, &v->hb_sg, &ch->vissg);
    ch->viswg = cat_seq(c, cat_id(vis_wg), cat_and(c, rel_copy(&v->chains), rel_copy(&vsg)));
    struct rel vwg_sg = cat_seq(c, vis_hop(v, &v->hb_wg, &ch->viswg), vsg);
    ch->visqf = cat_seq(c, cat_id(vis_qf), cat_and(c, rel_copy(&v->chains), rel_copy(&vwg_sg)));
    struct rel vqf_wg_sg = cat_seq(c, vis_hop(v, &v->hb_qf, &ch->visqf), vwg_sg);
    ch->vissh = cat_seq(c, cat_id(vis_sh), cat_and(c, rel_copy(&v->chains), vqf_wg_sg));
}

static void free_chains(struct chains *ch)
{
    struct rel *all[] = { &ch->avsg, &ch->avwg, &ch->avqf, &ch->avsh,
                          &ch->vissg, &ch->viswg, &ch->visqf, &ch->vissh };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        rel_free(all[i]);
}

/* [W \ PRIV]; (po? & avvisinc); av; order; ([W \ PRIV] | vis; (po? & avvisinc); [R \ PRIV]):
 * write-after-write and read-after-write through one instance domain. */
static struct rel through_domain(struct vk *v, const struct rel *av, struct rel order, const struct rel *vis)
{
    struct cnf *c = v->c;
    const struct base *b = v->b;
    struct rel pre = cat_seq(c, cat_filter(c, cat_sand(c, SET(S_W), SET(S_NONPRIV)), rel_copy(&v->po_avvis),
                                           SET(S_ALL)),
                             cat_seq(c, rel_copy(av), order));
    struct rel raw = cat_seq(c, rel_copy(vis), cat_filter(c, SET(S_ALL), rel_copy(&v->po_avvis),
                                                           cat_sand(c, SET(S_R), SET(S_NONPRIV))));
    struct rel after = cat_or(c, cat_id(cat_sand(c, SET(S_W), SET(S_NONPRIV))), raw);
    return cat_and(c, REL(R_VLOC), cat_seq(c, pre, after));
}

/* locord: the location order of memory accesses. */
static struct rel location_order(struct vk *v, const struct chains *ch)
{
    struct cnf *c = v->c;
    const struct base *b = v->b;
    struct set nonpriv_r = cat_sand(c, SET(S_R), SET(S_NONPRIV));
    struct set nonpriv_m = cat_sand(c, cat_sor(c, SET(S_R), SET(S_W)), SET(S_NONPRIV));
    /* (hb & int & vloc) | ([R \ PRIV]; hb; [(R | W) \ PRIV]) | ([R]; ssw+; [R | W]) */
    struct rel r = cat_and(c, cat_and(c, rel_copy(&v->hb), REL(R_INT)), REL(R_VLOC));
    r = cat_or(c, r, cat_filter(c, nonpriv_r, rel_copy(&v->hb), nonpriv_m));
    r = cat_or(c, r, cat_filter(c, SET(S_R), cat_plus(c, REL(R_SSW)), cat_sor(c, SET(S_R), SET(S_W))));
    r = cat_or(c, r, through_domain(v, &ch->avsg, cat_and(c, rel_copy(&v->hb), REL(R_SSG)), &ch->vissg));
    r = cat_or(c, r, through_domain(v, &ch->avwg, cat_and(c, rel_copy(&v->hb), REL(R_SWG)), &ch->viswg));
    r = cat_or(c, r, through_domain(v, &ch->avqf, cat_and(c, rel_copy(&v->hb), REL(R_SQF)), &ch->visqf));
    r = cat_or(c, r, through_domain(v, &ch->avsh, rel_copy(&v->hb), &ch->vissh));
    /* [W]; (hb & avvisinc); avdv; hb; ([W] | visdv; (hb & avvisinc); [R]) */
    struct rel hb_avvis = cat_and(c, rel_copy(&v->hb), rel_copy(&v->avvisinc));
    struct rel dev = cat_seq(c, cat_filter(c, SET(S_W), rel_copy(&hb_avvis), SET(S_AVDEVICE)),
                             rel_copy(&v->hb));
    struct rel dev_raw = cat_filter(c, SET(S_VISDEVICE), hb_avvis, SET(S_R));
    r = cat_or(c, r, cat_seq(c, dev, cat_or(c, cat_id(SET(S_W)), dev_raw)));
    return cat_and(c, REL(R_LOC), r);
}

/* fr = ((rf & locord)^-1; (W * W) & locord) | (rf^-1; asmo) | (([IW]; rf)^-1; ((loc; [W]) \ id)) */
static struct rel from_read(struct vk *v, const struct rel *locord)
{
    struct cnf *c = v->c;
    const struct base *b = v->b;
    struct rel ww = cat_and(c, cat_prod(c, SET(S_W), SET(S_W)), rel_copy(locord));
    struct rel fr = cat_seq(c, cat_inv(cat_and(c, REL(R_RF), rel_copy(locord))), ww);
    fr = cat_or(c, fr, cat_seq(c, cat_inv(REL(R_RF)), rel_copy(&v->asmo)));
    struct rel from_init = cat_inv(cat_filter(c, SET(S_INIT), REL(R_RF), SET(S_ALL)));
    struct rel later = cat_minus(c, cat_filter(c, SET(S_ALL), REL(R_LOC), SET(S_W)), cat_id(SET(S_ALL)));
    return cat_or(c, fr, cat_seq(c, from_init, later));
}

/* dr = loc & (pair_with_write \ mutordatom \ id \ (locord | locord^-1)) */
static struct rel data_race(struct vk *v, const struct rel *locord)
{
    struct cnf *c = v->c;
    const struct base *b = v->b;
    struct set w = cat_sminus(c, SET(S_W), SET(S_INIT));
    struct set rw = cat_sminus(c, cat_sor(c, SET(S_R), SET(S_W)), SET(S_INIT));
    struct rel w_any = cat_prod(c, set_copy(&w), set_copy(&rw));
    struct rel pairs = cat_or(c, w_any, cat_prod(c, rw, w));
    pairs = cat_minus(c, pairs, rel_copy(&v->mutordatom));
    pairs = cat_minus(c, pairs, cat_id(SET(S_ALL)));
    pairs = cat_minus(c, pairs, cat_or(c, rel_copy(locord), cat_inv(rel_copy(locord))));
    return cat_and(c, REL(R_LOC), pairs);
}

static void vulkan_build(struct cnf *c, const struct base *b, struct model_out *out, bool chains)
{
    struct vk v = { .c = c, .b = b };
    v.inscope = inscope(c, b);
    v.mutordatom = cat_minus(c, cat_and(c, cat_and(c, cat_and(c, REL(R_LOC), REL(R_VLOC)), rel_copy(&v.inscope)),
                                        cat_prod(c, SET(S_ATOM), SET(S_ATOM))),
                             cat_id(SET(S_ALL)));
    v.asmo = cat_and(c, REL(R_CO), rel_copy(&v.mutordatom));
    v.asmo_classes = forms_classes(&v.mutordatom);   /* Vulkan's co is total per location */
    v.avvisinc = avvisinc(c, b);
    v.po_avvis = cat_and(c, cat_opt(c, b, REL(R_PO)), rel_copy(&v.avvisinc));
    struct rel sw = synchronizes_with(&v);
    v.hb = happens_before(&v, &sw);
    /* E = (M | F | CBAR | AVDEVICE | VISDEVICE) \ IW; chains = E * E or [E] */
    struct set e = cat_sor(c, cat_sor(c, SET(S_M), SET(S_F)), SET(S_CBAR));
    e = cat_sminus(c, cat_sor(c, cat_sor(c, e, SET(S_AVDEVICE)), SET(S_VISDEVICE)), SET(S_INIT));
    v.chains = chains ? cat_prod(c, set_copy(&e), e) : cat_id(e);
    v.hb_sg = cat_and(c, cat_and(c, rel_copy(&v.hb), REL(R_SSG)), rel_copy(&v.avvisinc));
    v.hb_wg = cat_and(c, cat_and(c, rel_copy(&v.hb), REL(R_SWG)), rel_copy(&v.avvisinc));
    v.hb_qf = cat_and(c, cat_and(c, rel_copy(&v.hb), REL(R_SQF)), rel_copy(&v.avvisinc));
    struct chains ch;
    build_chains(&v, &ch);
    struct rel locord = location_order(&v, &ch);
    free_chains(&ch);
    struct rel fr = from_read(&v, &locord);

    model_axiom(c, out, "consistency-cycle", AX_ACYCLIC,
                cat_or(c, cat_or(c, cat_or(c, rel_copy(&locord), REL(R_RF)), rel_copy(&fr)),
                       rel_copy(&v.asmo)));
    /* empty (rf; [R \ ATOM]) & (([W]; locord); ([W]; locord)+); the
       closure only when some non-atomic read can read at all */
    struct rel rf_plain = cat_filter(c, SET(S_ALL), REL(R_RF), cat_sminus(c, SET(S_R), SET(S_ATOM)));
    if (!rel_is_empty(&rf_plain)) {
        struct rel w_locord = cat_filter(c, SET(S_W), rel_copy(&locord), SET(S_ALL));
        struct rel w_locord_plus = cat_plus(c, rel_copy(&w_locord));
        rf_plain = cat_and(c, rf_plain, cat_seq(c, w_locord, w_locord_plus));
    }
    model_axiom(c, out, "consistency-rf", AX_EMPTY, rf_plain);
    /* empty rmw & (fre; (asmo & ext)) */
    struct rel fre = cat_and(c, rel_copy(&fr), REL(R_EXT));
    model_axiom(c, out, "atomic", AX_EMPTY,
                cat_and(c, REL(R_RMW), cat_seq(c, fre, cat_and(c, rel_copy(&v.asmo), REL(R_EXT)))));
    model_axiom(c, out, "racy3c3", AX_FLAG, data_race(&v, &locord));

    model_export(out, "sw", sw);
    model_export(out, "hb", rel_copy(&v.hb));
    model_export(out, "locord", locord);
    model_export(out, "fr", fr);
    model_export(out, "asmo", rel_copy(&v.asmo));
    struct rel *own[] = { &v.inscope, &v.mutordatom, &v.asmo, &v.avvisinc, &v.po_avvis, &v.hb,
                          &v.chains, &v.hb_sg, &v.hb_wg, &v.hb_qf };
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        rel_free(own[i]);
}

void model_vulkan_build(struct cnf *c, const struct base *b, struct model_out *out)
{
    vulkan_build(c, b, out, true);
}

void model_vulkan_nochains_build(struct cnf *c, const struct base *b, struct model_out *out)
{
    vulkan_build(c, b, out, false);
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
 * ones, are not ordered by co in the model: the skeleton assumes nothing. */
unsigned model_vulkan_po_facts(const struct program *p, int a, int b)
{
    bool vloc = base_same_vloc(p, a, b);
    bool nonpriv = base_event_in(p, a, S_NONPRIV) && base_event_in(p, b, S_NONPRIV);
    unsigned facts = vloc || nonpriv ? PO_BIT(PO_NO_FUTURE_READ) : 0;
    static const enum base_set scopes[] = { S_SG, S_WG, S_QF, S_DV };
    bool scoped_a = false, scoped_b = false;
    for (size_t k = 0; k < sizeof scopes / sizeof scopes[0]; k++) {
        scoped_a |= base_event_in(p, a, scopes[k]);
        scoped_b |= base_event_in(p, b, scopes[k]);
    }
    if (vloc && base_event_in(p, a, S_ATOM) && base_event_in(p, b, S_ATOM) && scoped_a && scoped_b)
        facts |= PO_BIT(PO_CO_NOT_BACK) | PO_BIT(PO_CO_ALONG);
    return facts;
}
