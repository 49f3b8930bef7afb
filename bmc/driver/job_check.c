/* Dispatching a job to its check. */
#include "bmc/driver/job_check.h"

#include "bmc/compare/compare.h"
#include "bmc/cuda/emit.h"
#include "bmc/observed/judge.h"
#include "bmc/compare/refinement.h"
#include "bmc/transform/checks.h"

void check_job(const char *path, const struct check_opts *o, struct check_result *r)
{
    switch (o->kind) {
    case CK_PLAIN: check_file(path, o, r); return;
    case CK_SOURCE: check_refinement(o->source, path, o, r); return;
    case CK_TRANSFORM:
        check_transform(path, (enum transform_kind)o->transform, o->transform_line, o->emit_dir, o, r);
        return;
    case CK_NECESSARY_SYNC: check_necessary_sync(path, o, r); return;
    case CK_MINIMIZE_SYNC: check_minimize_sync(path, o, r); return;
    case CK_COMPARE_MODEL: check_compare_model(path, o, r); return;
    case CK_EMIT_CUDA: check_emit_cuda(path, o->cuda_dir, o, r); return;
    case CK_OBSERVED: check_observed(path, o->observed_log, o, r); return;
    }
}
