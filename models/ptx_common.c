/* Shared PTX definitions and axioms. */
#include "models/ptx_common.h"

#define REL(r) cat_rel(b, r)
#define SET(s) cat_set(b, s)

struct set ptx_strong_write(struct cnf *c, const struct base *b)
{
    return cat_sand(c, SET(S_W), cat_sor(c, SET(S_RLX), SET(S_REL)));
}

struct set ptx_strong_read(struct cnf *c, const struct base *b)
{
    return cat_sand(c, SET(S_R), cat_sor(c, SET(S_RLX), SET(S_ACQ)));
}

struct rel ptx_ms1(struct cnf *c, const struct base *b)
{
    struct set strong_op = cat_sor(c, cat_sor(c, ptx_strong_write(c, b), ptx_strong_read(c, b)), SET(S_F));
    struct rel po_either = cat_or(c, REL(R_PO), cat_inv(REL(R_PO)));
    return cat_or(c, po_either, cat_filter(c, set_copy(&strong_op), REL(R_SR), strong_op));
}

struct rel ptx_overlap(struct cnf *c, const struct base *b, enum base_rel same)
{
    struct rel mm = cat_prod(c, SET(S_M), SET(S_M));
    struct rel mm_same = cat_and(c, rel_copy(&mm), REL(same));
    return cat_or(c, mm_same, cat_minus(c, cat_prod(c, SET(S_ALL), SET(S_ALL)), mm));
}

struct rel ptx_release_pattern(struct cnf *c, const struct base *b, const struct rel *po_same)
{
    return cat_or(c,
        cat_filter(c, cat_sand(c, SET(S_W), SET(S_REL)), cat_opt(c, b, rel_copy(po_same)),
                   ptx_strong_write(c, b)),
        cat_filter(c, cat_sand(c, SET(S_F), SET(S_ACQ_REL)), REL(R_PO), ptx_strong_write(c, b)));
}

struct rel ptx_acquire_pattern(struct cnf *c, const struct base *b, const struct rel *po_same)
{
    return cat_or(c,
        cat_filter(c, ptx_strong_read(c, b), cat_opt(c, b, rel_copy(po_same)),
                   cat_sand(c, SET(S_R), SET(S_ACQ))),
        cat_filter(c, ptx_strong_read(c, b), REL(R_PO), cat_sand(c, SET(S_F), SET(S_ACQ_REL))));
}

void ptx_axioms(struct cnf *c, const struct base *b, struct model_out *out, const struct rel *cause,
                const struct rel *ms, const struct rel *co, const struct rel *fr)
{
    model_axiom(c, out, "Coherence", AX_EMPTY,
                cat_minus(c, cat_and(c, cat_filter(c, SET(S_W), rel_copy(cause), SET(S_W)), REL(R_LOC)),
                          rel_copy(co)));
    model_axiom(c, out, "Coherence2", AX_EMPTY,
                cat_minus(c, cat_and(c, cat_filter(c, SET(S_W), rel_copy(ms), SET(S_W)), REL(R_LOC)),
                          cat_or(c, rel_copy(co), cat_inv(rel_copy(co)))));
    struct set fence_sc = cat_sand(c, SET(S_F), SET(S_SC));
    model_axiom(c, out, "FenceSC", AX_EMPTY,
                cat_minus(c, cat_filter(c, set_copy(&fence_sc), rel_copy(cause), fence_sc),
                          REL(R_SYNC_FENCE)));
    model_axiom(c, out, "Atomicity", AX_EMPTY,
                cat_and(c, cat_seq(c, cat_and(c, rel_copy(ms), rel_copy(fr)),
                                   cat_and(c, rel_copy(ms), rel_copy(co))),
                        REL(R_RMW)));
    model_axiom(c, out, "NoThinAir", AX_ACYCLIC,
                cat_or(c, cat_or(c, REL(R_RF), REL(R_ADDR)), cat_or(c, REL(R_DATA), REL(R_CTRL))));
}

void ptx_causality(struct cnf *c, const struct base *b, struct model_out *out, const struct rel *cause,
                   const struct rel *fr)
{
    model_axiom(c, out, "Causality", AX_IRREFLEXIVE,
                cat_seq(c, cat_or(c, REL(R_RF), rel_copy(fr)), rel_copy(cause)));
}

void ptx_export(struct model_out *out, struct rel fr, struct rel sync, struct rel cause, struct rel obs)
{
    model_export(out, "fr", fr);
    model_export(out, "sync", sync);
    model_export(out, "cause", cause);
    model_export(out, "observation", obs);
}
