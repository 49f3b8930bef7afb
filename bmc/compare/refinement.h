/* Refinement of two programs under one model: does the target show
 * behaviour that its source cannot?  program_spec: an outcome, the final
 * values of the observed registers and locations in a consistent
 * execution in which every thread terminates and the filter holds;
 * termination: a thread stuck for ever; cat_spec: a data race.  The
 * source side is computed once (its outcomes by incremental enumeration,
 * or its own verdict) and serves any number of targets, each one query. */
#ifndef GPUBMC_REFINEMENT_H
#define GPUBMC_REFINEMENT_H

#include <stdio.h>

#include "bmc/check/check.h"
#include "bmc/check/outcomes.h"
#include "bmc/compare/match.h"
#include "program/program.h"
#include "models/model.h"

struct refinement_source {
    const struct program *p;
    const struct model_desc *md;
    const struct model_desc *target_md;   /* the targets' model: md unless
                                             set after init (--compare-model) */
    const struct check_opts *o;
    struct outcome_set states;   /* program_spec: the source's outcomes over
                                    its observables (bmc/compare/match.h) */
    enum observed_from from;     /* where those observables come from */
    bool checked;                /* termination, cat_spec: own is known */
    struct check_result own;     /* the source's own verdict, on demand */
};

/* Prepares the source side of p under md and o (o->property says which
 * refinement); for program_spec enumerates p's outcomes over the
 * observables of match_source_observables (o->observe).  False, with r
 * an ERROR, when those are none or not the source's, or when the
 * evaluator rejects an outcome. */
bool refinement_source_init(struct refinement_source *s, const struct program *p,
                            const struct model_desc *md, const struct check_opts *o,
                            struct check_result *r);
/* Frees what the source side holds (not p). */
void refinement_source_free(struct refinement_source *s);

/* Checks target t (matched to the source by match_threads) against the
 * source: PASS when nothing t does is new; FAIL with the first new outcome,
 * hang or race (r->details, and r->witness when o->want_witness: t's
 * execution, re-checked concretely); UNKNOWN when a loop bound cut either
 * side; ERROR when the observables do not match (the reason names the
 * register or location).  r is filled from scratch; r->ms is the time of
 * this target's check alone. */
void refinement_check(struct refinement_source *s, const struct program *t, struct check_result *r);

/* Parses both files and checks the target against the source under o;
 * r->ms counts both sides.  Never exits; input errors are ERROR results
 * whose reason names the file and the thread or register. */
void check_refinement(const char *src_path, const char *tgt_path, const struct check_opts *o,
                      struct check_result *r);

/* Compiles the OpenCL test at path by mapping map (bmc/compare/map.h) and
 * checks the compiled program, under the mapping's model, against the
 * test under o's model (opencl by default): FAIL names an outcome the
 * compiled program has and the test does not.  For program_spec, a test
 * with a race (cat_spec FAIL) passes vacuously: OpenCL leaves its outcomes
 * undefined, so a compiler owes it none.  Never exits. */
void check_mapping(const char *path, const char *map, const struct check_opts *o, struct check_result *r);

/* Prints r->details of a refinement or transformation check as text: the
 * observables, herd-style states (the source's, once, then the new one),
 * the witness's reads, and for a transformation one line per site (with
 * verbose, each site's reads under it). */
void refinement_print(FILE *f, const cJSON *details, bool verbose);

/* Whether p races under md (a flag of cat_spec raised): 1, 0, or -1 when
 * the check decides nothing; why gets its reason. */
int refinement_races(const struct program *p, const struct model_desc *md, const struct check_opts *o,
                     char *why, size_t len);

#endif
