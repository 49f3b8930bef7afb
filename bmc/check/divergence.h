/* Barrier divergence: a control barrier that some threads of its scope
 * (a PTX CTA, a Vulkan workgroup) reach and others do not, or reach a
 * different number of times.  SPIR-V and OpenCL make it undefined
 * behaviour, and PTX bar.sync in divergent code is undefined. */
#ifndef GPUBMC_DIVERGENCE_H
#define GPUBMC_DIVERGENCE_H

#include "bmc/check/sat_check.h"

/* --property barrier_divergence by SAT: FAIL when some consistent
 * execution, not cut at the bound, has a waiting barrier occurrence (no
 * quorum) that a thread of its scope never reaches at the same barrier
 * statement (in a litmus test the k-th with its id in the thread's code;
 * in SPIR-V the same OpControlBarrier), naming the barrier, the threads
 * that reach it and those that do not (and where those at another
 * barrier with its id are); PASS when none does, UNKNOWN when only the
 * bound stands in the way. */
void divergence_check(struct sat_check *s, struct check_result *r);

#endif
