/* Running a job list in worker processes, results passed on in job order. */
#ifndef GPUBMC_BATCH_H
#define GPUBMC_BATCH_H

#include "bmc/driver/worker.h"

/* Receives each result, in job order; owns nothing of r after returning
 * (it may take r->witness or r->outcomes and set it to NULL). */
typedef void (*batch_result_fn)(void *ctx, const struct job *job, struct check_result *r);

/* Checks every job in nworkers worker processes (1 too: the checks never
 * run in this process), each job under budget b, calling on_result in job
 * order.  A job with an error is reported as ERROR without a check.  A
 * worker past its job's deadline is killed (UNKNOWN); one that runs out of
 * memory or dies gives an ERROR that names the file; either way a fresh
 * worker takes the next job.  What a worker writes on stderr during a job
 * is passed on, each line prefixed with the job's file name.  With
 * progress_line, keeps a "done/total, rate, ETA" line on stderr, erased
 * before each result is passed on. */
void batch_run(const struct job_list *jobs, int nworkers, const struct budget *b, bool progress_line,
               batch_result_fn on_result, void *ctx);

#endif
