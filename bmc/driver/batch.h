/* Running a job list in worker processes, results passed on in job order. */
#ifndef GPUBMC_BATCH_H
#define GPUBMC_BATCH_H

#include "bmc/driver/worker.h"

/* Receives each result, in job order; owns nothing of r after returning
 * (it may take r->witness or r->outcomes and set it to NULL). */
typedef void (*batch_result_fn)(void *ctx, const struct job *job, struct check_result *r);

/* Prints what the receiver of the results holds back: called before the
 * main process waits for the workers, before it writes on stderr, and at
 * the end. */
typedef void (*batch_flush_fn)(void *ctx);

/* Checks every job in nworkers worker processes (1 too: the checks never
 * run in this process), each job under budget b, calling on_result in job
 * order, and flush before every wait and every write on stderr.  A job with an error is reported as ERROR without a check.  A
 * busy worker is sent its next jobs before it asks (worker.h).  A worker
 * past its job's deadline is killed (UNKNOWN); one that runs out of
 * memory or dies gives an ERROR that names the file; either way a fresh
 * worker takes the jobs queued behind it.  What a worker writes on stderr during a job
 * is passed on, each line prefixed with the job's file name.  With
 * progress_line, keeps a "done/total, rate, ETA" line on stderr, erased
 * before each result is passed on.  Each result is passed on as soon as
 * those before it are; one that comes early is held back until then.
 * SIGINT or SIGTERM stops the batch: the running checks are killed, the
 * results that came are passed on (in job order, past the gaps), and a
 * line "gpubmc: interrupted by SIGINT: K of N checked" goes to stderr.
 * Returns 0 when every job was answered, else the signal that stopped
 * it, or -1 when waiting for the workers failed (an error printed, and
 * "gpubmc: stopped: K of N checked"). */
int batch_run(const struct job_list *jobs, int nworkers, const struct budget *b, bool progress_line,
              batch_result_fn on_result, batch_flush_fn flush, void *ctx);

#endif
