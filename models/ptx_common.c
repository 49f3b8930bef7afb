/* The definitions the PTX cat files share. */
#include "models/ptx_common.h"

void ptx_auxiliaries(struct cat *m, struct ptx *x)
{
    x->sync_barrier = cat_and(m, REL(R_SYNCBAR), REL(R_SCTA));          /* let sync_barrier = syncbar & scta */
    x->co = cat_plus(m, REL(R_CO));                                     /* let co = co+ */
    x->fr = cat_seq(m, cat_inv(m, REL(R_RF)), x->co);                   /* let fr = rf^-1; co */
    x->strong_write = cat_sand(m, SET(S_W), cat_sor(m, SET(S_RLX), SET(S_REL)));  /* W & (RLX | REL) */
    x->strong_read = cat_sand(m, SET(S_R), cat_sor(m, SET(S_RLX), SET(S_ACQ)));   /* R & (RLX | ACQ) */
    set strong_m = cat_sor(m, x->strong_write, x->strong_read);        /* let strong-m = ... */
    x->strong_operation = cat_sor(m, strong_m, SET(S_F));              /* strong-m | F */
    /* let ms1 = (po | po^-1) | ([strong-operation]; sr; [strong-operation]) */
    x->ms1 = cat_or(m, cat_or(m, REL(R_PO), cat_inv(m, REL(R_PO))),
                    cat_filter(m, x->strong_operation, REL(R_SR), x->strong_operation));
}

/* ([W & REL]; po-same?; [strong-write]) | ([F & ACQ_REL]; po; [strong-write]) */
rel ptx_release_pattern(struct cat *m, const struct ptx *x, rel po_same)
{
    return cat_or(m, cat_filter(m, cat_sand(m, SET(S_W), SET(S_REL)), cat_opt(m, po_same), x->strong_write),
                  cat_filter(m, cat_sand(m, SET(S_F), SET(S_ACQ_REL)), REL(R_PO), x->strong_write));
}

/* ([strong-read]; po-same?; [R & ACQ]) | ([strong-read]; po; [F & ACQ_REL]) */
rel ptx_acquire_pattern(struct cat *m, const struct ptx *x, rel po_same)
{
    return cat_or(m, cat_filter(m, x->strong_read, cat_opt(m, po_same), cat_sand(m, SET(S_R), SET(S_ACQ))),
                  cat_filter(m, x->strong_read, REL(R_PO), cat_sand(m, SET(S_F), SET(S_ACQ_REL))));
}

void ptx_axioms(struct cat *m, const struct ptx *x, rel morally_strong, rel cause)
{
    /* empty ((([W]; cause; [W]) & loc) \ co) as axiom-Coherence */
    cat_axiom(m, "Coherence",
              cat_minus(m, cat_and(m, cat_filter(m, SET(S_W), cause, SET(S_W)), REL(R_LOC)), x->co));
    /* empty (([W]; morally-strong; [W]) & loc) \ (co | co^-1) as axiom-Coherence2 */
    cat_axiom(m, "Coherence2",
              cat_minus(m, cat_and(m, cat_filter(m, SET(S_W), morally_strong, SET(S_W)), REL(R_LOC)),
                        cat_or(m, x->co, cat_inv(m, x->co))));
    /* empty (([F & SC]; cause; [F & SC]) \ sync_fence) as axiom-FenceSC */
    set fence_sc = cat_sand(m, SET(S_F), SET(S_SC));
    cat_axiom(m, "FenceSC", cat_minus(m, cat_filter(m, fence_sc, cause, fence_sc), REL(R_SYNC_FENCE)));
    /* empty (((morally-strong & fr); (morally-strong & co)) & rmw) as axiom-Atomicity */
    cat_axiom(m, "Atomicity",
              cat_and(m, cat_seq(m, cat_and(m, morally_strong, x->fr), cat_and(m, morally_strong, x->co)),
                      REL(R_RMW)));
    /* let dep = addr | data | ctrl; acyclic (rf | dep) as axiom-NoThinAir */
    rel dep = cat_or(m, cat_or(m, REL(R_ADDR), REL(R_DATA)), REL(R_CTRL));
    cat_axiom(m, "NoThinAir", cat_or(m, REL(R_RF), dep));
}

void ptx_causality(struct cat *m, const struct ptx *x, rel cause)
{
    /* irreflexive ((rf | fr); cause) as axiom-Causality */
    cat_axiom(m, "Causality", cat_seq(m, cat_or(m, REL(R_RF), x->fr), cause));
}

void ptx_export(struct cat *m, const struct ptx *x, rel sync, rel cause, rel observation)
{
    cat_export(m, "fr", x->fr);
    cat_export(m, "sync", sync);
    cat_export(m, "cause", cause);
    cat_export(m, "observation", observation);
}
