/* Pieces shared by the PTX v6.0 and v7.5 models (same names as in the cat files). */
#ifndef GPUBMC_PTX_COMMON_H
#define GPUBMC_PTX_COMMON_H

#include "models/cat.h"
#include "models/model.h"

/* strong-write = W & (RLX | REL); strong-read = R & (RLX | ACQ). */
struct set ptx_strong_write(struct cnf *c, const struct base *b);
struct set ptx_strong_read(struct cnf *c, const struct base *b);
/* ms1 = (po | po^-1) | ([strong-operation]; sr; [strong-operation]) */
struct rel ptx_ms1(struct cnf *c, const struct base *b);
/* ((M * M) & same) | ((_ * _) \ (M * M)), with same = loc (v6.0) or vloc (v7.5). */
struct rel ptx_overlap(struct cnf *c, const struct base *b, enum base_rel same);
/* release-pattern and acquire-pattern over po-same = po & same (consumes nothing). */
struct rel ptx_release_pattern(struct cnf *c, const struct base *b, const struct rel *po_same);
struct rel ptx_acquire_pattern(struct cnf *c, const struct base *b, const struct rel *po_same);
/* Coherence, Coherence2, FenceSC, Atomicity and NoThinAir. */
void ptx_axioms(struct cnf *c, const struct base *b, struct model_out *out, const struct rel *cause,
                const struct rel *ms, const struct rel *co, const struct rel *fr);
/* Causality: irreflexive ((rf | fr); cause). */
void ptx_causality(struct cnf *c, const struct base *b, struct model_out *out, const struct rel *cause,
                   const struct rel *fr);

/* Exports the derived relations a PTX witness shows (takes ownership). */
void ptx_export(struct model_out *out, struct rel fr, struct rel sync, struct rel cause, struct rel obs);

#endif
