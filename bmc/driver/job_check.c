/* Dispatching a job to its check. */
#include "bmc/driver/job_check.h"

#include "bmc/compare/compare.h"
#include "bmc/cuda/emit.h"
#include "bmc/observed/judge.h"
#include "bmc/compare/refinement.h"
#include "bmc/transform/checks.h"

void check_job(const char *path, const struct job_spec *spec, const struct check_opts *o,
               struct check_result *r)
{
    switch (spec->kind) {
    case JOB_PLAIN: check_file(path, o, r); return;
    case JOB_SOURCE: check_refinement(spec->source, path, o, r); return;
    case JOB_MAP: check_mapping(path, spec->map, o, r); return;
    case JOB_TRANSFORM:
        check_transform(path, spec->transform, spec->transform_line, spec->emit_dir, o, r);
        return;
    case JOB_NECESSARY_SYNC: check_necessary_sync(path, o, r); return;
    case JOB_MINIMIZE_SYNC: check_minimize_sync(path, o, r); return;
    case JOB_COMPARE_MODEL: check_compare_model(path, spec->compare_model, spec->compare_cat, o, r); return;
    case JOB_EMIT_CUDA: check_emit_cuda(path, spec->cuda_dir, o, r); return;
    case JOB_OBSERVED: check_observed(path, spec->observed_log, o, r); return;
    }
}
