/* OpenCL's side of explanations (models/opencl.c, opencl.cat): which
 * synchronisation a gsw or lsw step is (ra_sw with its release sequence,
 * or bar_sw), with its memory region and inclusive scope (incl); the
 * program-order, rb, mo and happens-before steps an O-Sscoped edge
 * (Fsb?; (rb | mo | ghb | lhb); sbF?) stands for; and the evidence shapes
 * of the axioms whose relation is a composition (O-Rf, O-CohG, O-CohL) or
 * a difference (O-NaRfG, O-NaRfL: the write that hides the one read). */
#ifndef GPUBMC_EXPLAIN_OPENCL_H
#define GPUBMC_EXPLAIN_OPENCL_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "bmc/concrete/evaluate.h"
#include "program/program.h"

/* The model's export called name, or NULL. */
const struct rel *explain_export(const struct evaluation *ev, const char *name);

/* True when ev evaluates the OpenCL model (it exports ghb, lhb, gsw, lsw, mo and rb). */
bool explain_cl(const struct evaluation *ev);

/* Names the gsw or lsw step (a, b) (relation says which): a barrier
 * (bar_sw) or, by the kinds of a and b, a fence pair or a release/acquire
 * pattern (ra_sw) with the read and the write through which a reaches b
 * (and the write whose release sequence that write continues), the memory
 * region, the inclusive scope, and scf when the step crosses regions;
 * appends its text at *used. */
cJSON *explain_cl_synchronisation(const struct program *p, const struct evaluation *ev, const char *relation, int a,
                                  int b, char *text, size_t len, size_t *used);

/* Names the seq_cst pair (a, b) of an O-Sscoped edge: a fence pair when
 * both are fences, else a seq_cst pair, with its inclusive scope. */
cJSON *explain_cl_seq_cst(const struct program *p, const struct evaluation *ev, int a, int b, char *text,
                          size_t len, size_t *used);

/* The steps of the O-Sscoped edge (a, b): a -po-> c (a fence) when c is
 * not a, one rb or mo step or a happens-before path of po and gsw (lsw)
 * from c to d, d -po-> b (a fence) when d is not b; the fewest steps.  Its
 * nodes into path, each step's relation into names; its number of steps,
 * 0 when there is none.  path and names hold 2 * p->nevents + 4. */
int explain_cl_scp_path(const struct program *p, const struct evaluation *ev, int a, int b, int *path,
                        const char **names);

/* The shortest path from u to v of happens-before hb ("ghb" or "lhb"):
 * program-order steps inside hb and synchronisation steps of gsw (lsw),
 * into path and names as explain_cl_scp_path does; its number of steps. */
int explain_cl_hb_path(const struct program *p, const struct evaluation *ev, const char *hb, int u, int v, int *path,
                       const char **names);

/* The cycle through i that makes the irreflexive axiom named axiom
 * reflexive at i, in the axiom's own shape (O-Rf: i -rf-> m -hb-> i;
 * O-CohG, O-CohL: i -rb|mo-> j [-rf-> m] -hb-> i): its events into path
 * and the label of each edge into labels; its length, 0 when the axiom has
 * no shape or none is found. */
int explain_cl_reflexive(const struct evaluation *ev, const char *axiom, int i, int *path, const char **labels);

/* For the pair (w, r) of O-NaRfG (O-NaRfL), a read r of a write w that is
 * not visible to it: "hidden_by" (the write h with w -hb-> h -hb-> r, its
 * events and edges) or "unordered" (w is not hb-before r) into o, the
 * hb edges' expansions into expansions, and the text. */
void explain_cl_hidden(const struct program *p, const struct evaluation *ev, const char *axiom, int w, int r,
                       cJSON *o, cJSON *expansions, char *text, size_t len, size_t *used);

#endif
