/* One job of a run: what it asks of its file (enum job_kind) and the check
 * that answers. */
#ifndef GPUBMC_JOB_CHECK_H
#define GPUBMC_JOB_CHECK_H

#include "bmc/check/check.h"
#include "bmc/transform/transform.h"

/* What a job does with its file: check its property, or compare it with
 * another program, its transformations or another model, or write or
 * judge its CUDA program. */
enum job_kind {
    JOB_PLAIN,               /* the file's own property */
    JOB_SOURCE,              /* --source: the file refines source */
    JOB_MAP,                 /* --map MAPPING: its compilation refines the file */
    JOB_TRANSFORM,           /* --transform NAME[@LINE] */
    JOB_NECESSARY_SYNC,      /* --necessary-sync */
    JOB_MINIMIZE_SYNC,       /* --minimize-sync */
    JOB_COMPARE_MODEL,       /* --compare-model M2 */
    JOB_EMIT_CUDA,           /* --emit-cuda DIR: the test as a CUDA program */
    JOB_OBSERVED             /* --observed LOG: hardware outcomes against the model */
};

/* A job's kind and the arguments of that kind (the others unset). */
struct job_spec {
    enum job_kind kind;
    const char *source;      /* JOB_SOURCE: the source program's file */
    const char *map;         /* JOB_MAP: the mapping (bmc/compare/map.h) */
    enum transform_kind transform;   /* JOB_TRANSFORM: which one */
    int transform_line;      /* JOB_TRANSFORM: only sites on this line; 0: all */
    const char *emit_dir;    /* JOB_TRANSFORM: write the rewritten programs here */
    const char *compare_model;   /* JOB_COMPARE_MODEL: the model to compare with */
    const struct cat_model *compare_cat;   /* JOB_COMPARE_MODEL: that model read from a cat file */
    const char *cuda_dir;    /* JOB_EMIT_CUDA: where the programs go */
    const char *observed_log;    /* JOB_OBSERVED: the log of a hardware run */
};

/* Checks the file at path as spec says, under o: its property
 * (check_file), a refinement of spec->source, a built-in transformation,
 * the necessary or minimal synchronisation, a comparison with
 * spec->compare_model, its CUDA program (spec->cuda_dir) or a hardware log
 * (spec->observed_log).  Never exits; r is filled from scratch. */
void check_job(const char *path, const struct job_spec *spec, const struct check_opts *o,
               struct check_result *r);

#endif
