/* PTX v6.0, axiom by axiom as in ptx-v6.0.cat. */
#include "models/cat.h"
#include "models/model.h"

#define REL(r) cat_rel(b, r)
#define SET(s) cat_set(b, s)

/* morally-strong = (ms1 & ms2) \ id */
static struct rel morally_strong(struct cnf *c, const struct base *b)
{
    struct set strong_op =
        cat_sor(c, cat_sor(c, cat_sand(c, SET(S_W), cat_sor(c, SET(S_RLX), SET(S_REL))),
                           cat_sand(c, SET(S_R), cat_sor(c, SET(S_RLX), SET(S_ACQ)))),
                SET(S_F));
    struct rel ms1 = cat_or(c, cat_or(c, REL(R_PO), cat_inv(REL(R_PO))),
                            cat_filter(c, set_copy(&strong_op), REL(R_SR), strong_op));
    struct rel mm = cat_prod(c, SET(S_M), SET(S_M));
    struct rel mm_loc = cat_and(c, rel_copy(&mm), REL(R_LOC));
    struct rel ms2 = cat_or(c, mm_loc, cat_minus(c, cat_prod(c, SET(S_ALL), SET(S_ALL)), mm));
    return cat_minus(c, cat_and(c, ms1, ms2), cat_id(SET(S_ALL)));
}

/* observation = b ; (rmw ; b)*, the least solution of
 * observation = b | (observation ; rmw ; observation) with b = ms & rf. */
static struct rel observation(struct cnf *c, const struct base *b, const struct rel *ms)
{
    struct rel base = cat_and(c, rel_copy(ms), REL(R_RF));
    struct rel loop = cat_opt(c, b, cat_plus(c, cat_seq(c, REL(R_RMW), rel_copy(&base))));
    return cat_seq(c, base, loop);
}

static struct set strong_write(struct cnf *c, const struct base *b)
{
    return cat_sand(c, SET(S_W), cat_sor(c, SET(S_RLX), SET(S_REL)));
}

static struct set strong_read(struct cnf *c, const struct base *b)
{
    return cat_sand(c, SET(S_R), cat_sor(c, SET(S_RLX), SET(S_ACQ)));
}

static struct rel po_loc(struct cnf *c, const struct base *b)
{
    return cat_and(c, REL(R_PO), REL(R_LOC));
}

void model_ptx60_build(struct cnf *c, const struct base *b, struct model_out *out)
{
    struct rel sync_barrier = cat_and(c, REL(R_SYNCBAR), REL(R_SCTA));
    struct rel co = cat_plus(c, REL(R_CO));
    struct rel fr = cat_seq(c, cat_inv(REL(R_RF)), rel_copy(&co));
    struct rel ms = morally_strong(c, b);
    struct rel obs = observation(c, b, &ms);

    struct rel release_pattern = cat_or(c,
        cat_filter(c, cat_sand(c, SET(S_W), SET(S_REL)), cat_opt(c, b, po_loc(c, b)), strong_write(c, b)),
        cat_filter(c, cat_sand(c, SET(S_F), SET(S_ACQ_REL)), REL(R_PO), strong_write(c, b)));
    struct rel acquire_pattern = cat_or(c,
        cat_filter(c, strong_read(c, b), cat_opt(c, b, po_loc(c, b)), cat_sand(c, SET(S_R), SET(S_ACQ))),
        cat_filter(c, strong_read(c, b), REL(R_PO), cat_sand(c, SET(S_F), SET(S_ACQ_REL))));
    struct rel sync = cat_and(c, rel_copy(&ms),
                              cat_seq(c, cat_seq(c, release_pattern, rel_copy(&obs)), acquire_pattern));
    struct rel syncs = cat_or(c, cat_or(c, rel_copy(&sync), REL(R_SYNC_FENCE)), sync_barrier);
    struct rel cause_base = cat_seq(c, cat_opt(c, b, REL(R_PO)),
                                    cat_plus(c, cat_seq(c, syncs, cat_opt(c, b, REL(R_PO)))));
    struct rel cause_tail = cat_seq(c, rel_copy(&obs), cat_or(c, rel_copy(&cause_base), po_loc(c, b)));
    struct rel cause = cat_or(c, cause_base, cause_tail);

    model_axiom(c, out, "Coherence", AX_EMPTY,
                cat_minus(c, cat_and(c, cat_filter(c, SET(S_W), rel_copy(&cause), SET(S_W)), REL(R_LOC)),
                          rel_copy(&co)));
    model_axiom(c, out, "Coherence2", AX_EMPTY,
                cat_minus(c, cat_and(c, cat_filter(c, SET(S_W), rel_copy(&ms), SET(S_W)), REL(R_LOC)),
                          cat_or(c, rel_copy(&co), cat_inv(rel_copy(&co)))));
    struct set fence_sc = cat_sand(c, SET(S_F), SET(S_SC));
    model_axiom(c, out, "FenceSC", AX_EMPTY,
                cat_minus(c, cat_filter(c, set_copy(&fence_sc), rel_copy(&cause), fence_sc),
                          REL(R_SYNC_FENCE)));
    model_axiom(c, out, "Atomicity", AX_EMPTY,
                cat_and(c, cat_seq(c, cat_and(c, rel_copy(&ms), rel_copy(&fr)),
                                   cat_and(c, rel_copy(&ms), rel_copy(&co))),
                        REL(R_RMW)));
    model_axiom(c, out, "NoThinAir", AX_ACYCLIC,
                cat_or(c, cat_or(c, REL(R_RF), REL(R_ADDR)), cat_or(c, REL(R_DATA), REL(R_CTRL))));
    model_axiom(c, out, "ScPerLocation", AX_ACYCLIC,
                cat_or(c, cat_and(c, rel_copy(&ms), cat_or(c, cat_or(c, REL(R_RF), rel_copy(&co)),
                                                           rel_copy(&fr))),
                       po_loc(c, b)));
    model_axiom(c, out, "Causality", AX_IRREFLEXIVE,
                cat_seq(c, cat_or(c, REL(R_RF), rel_copy(&fr)), rel_copy(&cause)));

    model_export(out, "fr", fr);
    model_export(out, "sync", sync);
    model_export(out, "cause", cause);
    model_export(out, "observation", obs);
    rel_free(&co);
    rel_free(&ms);
}
