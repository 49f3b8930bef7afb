/* Definitions the PTX v6.0 and v7.5 cat files share, under their names
 * there (ptx-v6.0.cat, ptx-v7.5.cat). */
#ifndef GPUBMC_PTX_COMMON_H
#define GPUBMC_PTX_COMMON_H

#include "models/cat.h"

/* The definitions both models build first. */
struct ptx {
    rel sync_barrier, co, fr;
    set strong_write, strong_read, strong_operation;
    rel ms1;
};

/* sync_barrier, co, fr, the strong sets and ms1. */
void ptx_auxiliaries(struct cat *m, struct ptx *x);
/* release-pattern and acquire-pattern over po-same (po-loc or po-vloc). */
rel ptx_release_pattern(struct cat *m, const struct ptx *x, rel po_same);
rel ptx_acquire_pattern(struct cat *m, const struct ptx *x, rel po_same);
/* The axioms Coherence, Coherence2, FenceSC, Atomicity and NoThinAir. */
void ptx_axioms(struct cat *m, const struct ptx *x, rel morally_strong, rel cause);
/* The axiom Causality. */
void ptx_causality(struct cat *m, const struct ptx *x, rel cause);
/* The relations a PTX witness shows. */
void ptx_export(struct cat *m, const struct ptx *x, rel sync, rel cause, rel observation);

#endif
