/* The OpenCL memory model, definition by definition as in opencl.cat (with
 * stdlib.cat's fr, fre and coe); the cat file's line is beside each `let`.
 * cat's precedence: postfix operators bind tighter than ~, ~ than &, & than
 * \, \ than ;, and ; than |.  A & ~B is written A \ B (the same pairs,
 * without building the complement of B over every pair of events).
 * stdlib.cat's own two checks are left out: every read of gpubmc's
 * executions reads from a write (an initial one at least), so its unnamed
 * "empty ([R] \ [range(rf)]); loc; [IW]" always holds; its
 * undefined-behavior flag is built (a reached SPIR-V OpUnreachable). */
#include "models/cat.h"

const struct axiom_decl model_opencl_axioms[] = {
    { "O-HbG", AX_IRREFLEXIVE }, { "O-HbL", AX_IRREFLEXIVE }, { "O-CohG", AX_IRREFLEXIVE },
    { "O-CohL", AX_IRREFLEXIVE }, { "O-Rf", AX_IRREFLEXIVE }, { "O-NaRfG", AX_EMPTY },
    { "O-NaRfL", AX_EMPTY }, { "atomic", AX_EMPTY }, { "O-Sscoped", AX_ACYCLIC },
    { "data_race", AX_FLAG }, { "unsequenced_race", AX_FLAG }, { "undefined-behavior", AX_FLAG },
    { NULL, AX_EMPTY },
};

/* The definitions later ones use, by their cat names. */
struct cl {
    rel mo, sb, rb, unv, wi, incl, fsb, sbf, rs, ghb, lhb, gsw, lsw;
    set acq, rel_;
};

/* [range(r)] = (r^-1; r) & id */
static rel range_id(struct cat *m, rel r)
{
    return cat_and(m, cat_seq(m, cat_inv(m, r), r), cat_id(m, SET(S_ALL)));
}

/* ~X for a set: _ \ X */
static set complement(struct cat *m, set x)
{
    return cat_sminus(m, SET(S_ALL), x);
}

/* let dynamic_tag(X) = [range([IW & X]; loc)] | [X & F]                        (26) */
static rel dynamic_tag(struct cat *m, set x)
{
    rel iw_loc = cat_seq(m, cat_id(m, cat_sand(m, SET(S_INIT), x)), REL(R_LOC));
    return cat_or(m, range_id(m, iw_loc), cat_id(m, cat_sand(m, x, SET(S_F))));
}

/* let ra_sw(r) = ((r & [Rel]); Fsb?; [W \ WI]; rs?; r; rf; [R \ WI]; sbF?; ([Acq] & r))
 *                & incl & ~wi                                                  (53) */
static rel ra_sw(struct cat *m, const struct cl *c, rel r)
{
    rel path = cat_and(m, r, cat_id(m, c->rel_));
    path = cat_seq(m, path, cat_opt(m, c->fsb));
    path = cat_seq(m, path, cat_id(m, cat_sminus(m, SET(S_W), SET(S_WI))));
    path = cat_seq(m, path, cat_opt(m, c->rs));
    path = cat_seq(m, path, r);
    path = cat_seq(m, path, REL(R_RF));
    path = cat_seq(m, path, cat_id(m, cat_sminus(m, SET(S_R), SET(S_WI))));
    path = cat_seq(m, path, cat_opt(m, c->sbf));
    path = cat_seq(m, path, cat_and(m, cat_id(m, c->acq), r));
    return cat_minus(m, cat_and(m, path, c->incl), c->wi);
}

/* let bar_sw(r) = r; syncbar & ~wi & swg; r                                     (59) */
static rel bar_sw(struct cat *m, const struct cl *c, rel r)
{
    rel bars = cat_minus(m, cat_and(m, REL(R_SYNCBAR), REL(R_SWG)), c->wi);
    return cat_seq(m, cat_seq(m, r, bars), r);
}

/* let ghb = ((dynamic_tag(GLOBAL); sb; dynamic_tag(GLOBAL)) |
 *            (dynamic_tag(GLOBAL); IW * ~IW; dynamic_tag(GLOBAL)) | gsw)+ \ id  (74)
 * and lhb with LOCAL and lsw                                                    (75) */
static rel happens_before(struct cat *m, const struct cl *c, rel tag, rel sw)
{
    rel init_first = cat_prod(m, SET(S_INIT), complement(m, SET(S_INIT)));
    rel r = cat_seq(m, cat_seq(m, tag, c->sb), tag);
    r = cat_or(m, r, cat_seq(m, cat_seq(m, tag, init_first), tag));
    return cat_minus(m, cat_plus(m, cat_or(m, r, sw)), cat_id(m, SET(S_ALL)));
}

/* let coh(hb) = (rf^-1)?; mo; rf?; hb                                            (84) */
static rel coh(struct cat *m, const struct cl *c, rel hb)
{
    rel r = cat_seq(m, cat_opt(m, cat_inv(m, REL(R_RF))), c->mo);
    return cat_seq(m, cat_seq(m, r, cat_opt(m, REL(R_RF))), hb);
}

/* let vis(hb) = (W * R) & hb & loc & ~((hb & loc); [W]; hb)                     (96) */
static rel vis(struct cat *m, rel hb)
{
    rel hb_loc = cat_and(m, hb, REL(R_LOC));
    rel r = cat_and(m, cat_prod(m, SET(S_W), SET(S_R)), hb_loc);
    return cat_minus(m, r, cat_seq(m, cat_seq(m, hb_loc, cat_id(m, SET(S_W))), hb));
}

/* Synchronisation: Acq, Rel, Fsb, sbF, the release sequence, sw (lines 41-66). */
static void synchronisation(struct cat *m, struct cl *c)
{
    set acq_tags = cat_sor(m, cat_sor(m, SET(S_ACQ), SET(S_SC)), SET(S_ACQ_REL));
    set rel_tags = cat_sor(m, cat_sor(m, SET(S_REL), SET(S_SC)), SET(S_ACQ_REL));
    c->acq = cat_sand(m, acq_tags, cat_sor(m, SET(S_R), SET(S_F)));    /* let Acq = (ACQ | SC | ACQ_REL) & (R | F)   (41) */
    c->rel_ = cat_sand(m, rel_tags, cat_sor(m, SET(S_W), SET(S_F)));   /* let Rel = (REL | SC | ACQ_REL) & (W | F)   (42) */
    c->fsb = cat_seq(m, cat_id(m, SET(S_F)), c->sb);                   /* let Fsb = [F]; sb                          (45) */
    c->sbf = cat_seq(m, c->sb, cat_id(m, SET(S_F)));                   /* let sbF = sb; [F]                          (46) */
    rel rs_prime = cat_or(m, cat_prod(m, SET(S_ALL), SET(S_RMW)), c->wi);   /* let rs_prime = (_ * RMW) | wi      (49) */
    /* let rs = mo & rs_prime & ~((mo & ~rs_prime) ; mo)                                                         (50) */
    c->rs = cat_minus(m, cat_and(m, c->mo, rs_prime), cat_seq(m, cat_minus(m, c->mo, rs_prime), c->mo));

    rel global = dynamic_tag(m, SET(S_GLOBAL)), local = dynamic_tag(m, SET(S_LOCAL));
    /* let scf = (SC * SC) | ((dynamic_tag(GLOBAL) & dynamic_tag(LOCAL)); unv; (dynamic_tag(GLOBAL) & dynamic_tag(LOCAL)))  (62) */
    rel both = cat_and(m, global, local);
    rel scf = cat_or(m, cat_prod(m, SET(S_SC), SET(S_SC)), cat_seq(m, cat_seq(m, both, c->unv), both));
    /* let gsw = ra_sw(dynamic_tag(GLOBAL)) | bar_sw(dynamic_tag(GLOBAL)) | (scf & ra_sw(dynamic_tag(LOCAL)))    (65) */
    c->gsw = cat_or(m, cat_or(m, ra_sw(m, c, global), bar_sw(m, c, global)), cat_and(m, scf, ra_sw(m, c, local)));
    /* let lsw = ra_sw(dynamic_tag(LOCAL)) | bar_sw(dynamic_tag(LOCAL)) | (scf & ra_sw(dynamic_tag(GLOBAL)))     (66) */
    c->lsw = cat_or(m, cat_or(m, ra_sw(m, c, local), bar_sw(m, c, local)), cat_and(m, scf, ra_sw(m, c, global)));
    c->ghb = happens_before(m, c, global, c->gsw);                     /* let ghb                                    (74) */
    c->lhb = happens_before(m, c, local, c->lsw);                      /* let lhb                                    (75) */
}

/* The races (lines 121-129). */
static void races(struct cat *m, const struct cl *c)
{
    set w = SET(S_W), r = SET(S_R), iw = SET(S_INIT), all = SET(S_ALL);
    /* let cnf = ((W * W) | (W * R) | (R * W)) & loc                                                             (121) */
    rel cnf = cat_and(m, cat_or(m, cat_or(m, cat_prod(m, w, w), cat_prod(m, w, r)), cat_prod(m, r, w)), REL(R_LOC));
    /* let dr = cnf & ~(ghb | lhb) & ~(ghb | lhb)^-1 & ~wi & ~incl \ ((_ * IW) | (IW * _))                         (123) */
    rel hb = cat_or(m, c->ghb, c->lhb);
    rel dr = cat_minus(m, cat_minus(m, cnf, hb), cat_inv(m, hb));
    dr = cat_minus(m, cat_minus(m, dr, c->wi), c->incl);
    dr = cat_minus(m, dr, cat_or(m, cat_prod(m, all, iw), cat_prod(m, iw, all)));
    cat_axiom(m, "data_race", dr);                                      /* flag ~empty dr as data_race          (124) */
    /* let symm(r) = r | r^-1                                                                                    (127)
     * let ur = (wi & cnf & ~symm(sb)) \ id                                                                      (128) */
    rel symm_sb = cat_or(m, c->sb, cat_inv(m, c->sb));
    rel ur = cat_minus(m, cat_minus(m, cat_and(m, c->wi, cnf), symm_sb), cat_id(m, all));
    cat_axiom(m, "unsequenced_race", ur);                               /* flag ~empty ur as unsequenced_race   (129) */
    cat_undefined_behavior(m);                                          /* stdlib.cat: flag ~empty [UB]         */
}

void model_opencl_build(struct cat *m)
{
    struct cl c;
    rel not_nal = dynamic_tag(m, complement(m, SET(S_NAL)));
    c.mo = cat_seq(m, cat_seq(m, not_nal, REL(R_CO)), not_nal);       /* let mo = dynamic_tag(~NAL); co; dynamic_tag(~NAL)  (28) */
    c.sb = REL(R_PO);                                                  /* let sb = po                                (29) */
    /* let rb = rf^-1;mo | ([R] \ [range(rf)]);loc;[W]                                                           (30) */
    rel unread = cat_seq(m, cat_seq(m, cat_minus(m, cat_id(m, SET(S_R)), range_id(m, REL(R_RF))), REL(R_LOC)),
                         cat_id(m, SET(S_W)));
    c.rb = cat_or(m, cat_seq(m, cat_inv(m, REL(R_RF)), c.mo), unread);
    c.unv = cat_prod(m, SET(S_ALL), SET(S_ALL));                       /* let unv = _ * _                            (31) */
    c.wi = REL(R_INT);                                                 /* let wi = int                               (32) */
    /* let incl = (swg & (WG * WG)) | (sdv & (DV * DV)) | (ALL * ALL)                                            (35) */
    c.incl = cat_or(m, cat_or(m, cat_and(m, REL(R_SWG), cat_prod(m, SET(S_WG), SET(S_WG))),
                              cat_and(m, REL(R_SDV), cat_prod(m, SET(S_DV), SET(S_DV)))),
                    cat_prod(m, SET(S_ALL_SCOPE), SET(S_ALL_SCOPE)));
    synchronisation(m, &c);

    cat_axiom(m, "O-HbG", c.ghb);                                       /* irreflexive ghb as O-HbG             (77) */
    cat_axiom(m, "O-HbL", c.lhb);                                       /* irreflexive lhb as O-HbL             (78) */
    cat_axiom(m, "O-CohG", coh(m, &c, c.ghb));                          /* irreflexive coh(ghb) as O-CohG       (85) */
    cat_axiom(m, "O-CohL", coh(m, &c, c.lhb));                          /* irreflexive coh(lhb) as O-CohL       (86) */
    rel hb = cat_or(m, c.ghb, c.lhb);
    cat_axiom(m, "O-Rf", cat_seq(m, REL(R_RF), hb));                    /* irreflexive rf; (ghb | lhb) as O-Rf  (93) */
    /* empty (rf; (dynamic_tag(NAL) & dynamic_tag(GLOBAL))) \ vis(ghb) as O-NaRfG                                (99)
     * empty (rf; (dynamic_tag(NAL) & dynamic_tag(LOCAL))) \ vis(lhb) as O-NaRfL                                 (100) */
    rel nal = dynamic_tag(m, SET(S_NAL));
    rel na_global = cat_seq(m, REL(R_RF), cat_and(m, nal, dynamic_tag(m, SET(S_GLOBAL))));
    rel na_local = cat_seq(m, REL(R_RF), cat_and(m, nal, dynamic_tag(m, SET(S_LOCAL))));
    cat_axiom(m, "O-NaRfG", cat_minus(m, na_global, vis(m, c.ghb)));
    cat_axiom(m, "O-NaRfL", cat_minus(m, na_local, vis(m, c.lhb)));
    /* stdlib.cat: let fr = rf^-1;co | ([R] \ [range(rf)]);loc;[W], let fre = fr & ext, let coe = co & ext
     * empty rmw & (fre; coe) as atomic                                                                          (106) */
    rel fr = cat_or(m, cat_seq(m, cat_inv(m, REL(R_RF)), REL(R_CO)), unread);
    rel fre = cat_and(m, fr, REL(R_EXT)), coe = cat_and(m, REL(R_CO), REL(R_EXT));
    cat_axiom(m, "atomic", cat_and(m, REL(R_RMW), cat_seq(m, fre, coe)));
    /* let scp = Fsb?; (rb | mo | (ghb | lhb)); sbF?                                                             (113)
     * acyclic (SC*SC) & scp & incl as O-Sscoped                                                                 (114) */
    rel scp = cat_seq(m, cat_seq(m, cat_opt(m, c.fsb), cat_or(m, cat_or(m, c.rb, c.mo), hb)), cat_opt(m, c.sbf));
    cat_axiom(m, "O-Sscoped", cat_and(m, cat_and(m, cat_prod(m, SET(S_SC), SET(S_SC)), scp), c.incl));
    races(m, &c);

    cat_export(m, "ghb", c.ghb);
    cat_export(m, "lhb", c.lhb);
    cat_export(m, "gsw", c.gsw);
    cat_export(m, "lsw", c.lsw);
    cat_export(m, "mo", c.mo);
    cat_export(m, "rb", c.rb);
}

/* Program order per location in opencl.cat.  For accesses a before b of
 * one thread to one location, sb(a, b); when the location is global (or
 * local), both are in dynamic_tag(GLOBAL) (LOCAL), so ghb(a, b) (lhb).
 * O-Rf, irreflexive rf; (ghb | lhb), then rules out rf(b, a).  When the
 * location is also not NAL, co(b, a) is mo(b, a), and coh(ghb) = mo; hb
 * is reflexive at b: O-CohG (O-CohL) rules it out; co is total, so
 * co(a, b).  A location in no address space (a pointer without global or
 * local) has no happens-before at all: nothing is assumed.
 * The coherence shapes (PO_RF_COHERENT) on such a non-NAL location, with
 * ghb(a, b) (lhb) and mo = co there (the initial write included):
 *  - CoWR, a write a, a read b: b never reads from a write w with co(w, a):
 *    rf^-1(b, w); mo(w, a); ghb(a, b) is coh(ghb) at b, against O-CohG;
 *  - CoRW, a read a, a write b: a never reads from w with co(b, w):
 *    mo(b, w); rf(w, a); ghb(a, b) is coh(ghb) at b, against O-CohG.
 * Neither needs anything of w (model_opencl_co_seen).  On a NAL location
 * mo is empty and only O-NaRf reads rf, through happens-before, which a
 * co from another thread does not give: nothing is assumed there. */
unsigned model_opencl_po_facts(const struct program *p, int a, int b)
{
    (void)b;   /* one location, one thread: a's location is b's */
    unsigned tags = p->lit->locs[program_root_location(p->lit, p->events[a].loc)].cl_tags;
    if (!(tags & (CL_GLOBAL | CL_LOCAL)))
        return 0;
    unsigned facts = PO_BIT(PO_NO_FUTURE_READ);
    if (!(tags & CL_NAL))
        facts |= PO_BIT(PO_CO_NOT_BACK) | PO_BIT(PO_CO_ALONG) | PO_BIT(PO_RF_COHERENT);
    return facts;
}

/* Every w (above). */
bool model_opencl_co_seen(const struct program *p, int wr, int rd, int w)
{
    (void)p;
    (void)wr;
    (void)rd;
    (void)w;
    return true;
}
