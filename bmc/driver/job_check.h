/* One job of a run: the check its options ask for (enum check_kind). */
#ifndef GPUBMC_JOB_CHECK_H
#define GPUBMC_JOB_CHECK_H

#include "bmc/check/check.h"

/* Checks the file at path as o->kind says: its property (check_file), a
 * refinement of o->source, a built-in transformation, the necessary or
 * minimal synchronisation, a comparison with o->compare_model, its CUDA
 * program (o->cuda_dir) or a hardware log (o->observed_log).  Never
 * exits; r is filled from scratch. */
void check_job(const char *path, const struct check_opts *o, struct check_result *r);

#endif
