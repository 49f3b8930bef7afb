/* Running a job list, in this process or in worker processes. */
#ifndef GPUBMC_BATCH_H
#define GPUBMC_BATCH_H

#include "bmc/jobs.h"

/* Receives each result, in job order; owns nothing of r after returning
 * (it may take r->witness or r->outcomes and set it to NULL). */
typedef void (*batch_result_fn)(void *ctx, const struct job *job, struct check_result *r);

/* Checks every job with nworkers processes (1: in this process), calling
 * on_result in job order.  With progress_line, keeps a "done/total, rate,
 * ETA" line on stderr, erased before each result is passed on.  A worker
 * that dies leaves ERROR results for the jobs it had taken. */
void batch_run(const struct job_list *jobs, int nworkers, bool progress_line,
               batch_result_fn on_result, void *ctx);

#endif
