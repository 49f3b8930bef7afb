/* Model comparison: the outcomes (hangs, races) of one test that one model
 * allows and another forbids, in both directions (--compare-model). */
#ifndef GPUBMC_COMPARE_H
#define GPUBMC_COMPARE_H

#include "bmc/check/check.h"

/* Compares the file's behaviour under its model (o->model or the
 * dialect's default) with the model named m2_name, each direction a refinement
 * of the program under one model by the same program under the other:
 * PASS when they agree, FAIL when one allows something the other forbids
 * (r->details holds both directions with their new outcomes), UNKNOWN
 * when a loop bound leaves it open. */
void check_compare_model(const char *path, const char *m2_name, const struct cat_model *m2_cat,
                         const struct check_opts *o, struct check_result *r);

#endif
