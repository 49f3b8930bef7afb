/* Worker processes that check jobs under a time and memory budget.  A
 * worker limits its own address space and dies with its parent; the
 * parent hands it one job at a time, keeps the deadline, reads results
 * from one pipe and the worker's stderr from another, and turns a worker
 * that ended without a result into a verdict that names the cause
 * (timeout, memory, crash). */
#ifndef GPUBMC_WORKER_H
#define GPUBMC_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "bmc/driver/jobs.h"

#define WORKER_LOG_MAX 16384

/* What one check may spend; 0 means no limit. */
struct budget {
    double timeout_s;        /* wall-clock seconds */
    long max_memory_mb;      /* address space, in MiB */
};

/* A worker process and what it has sent about its current job. */
struct worker {
    pid_t pid;               /* 0: no process */
    int cmd, out, err;       /* job indices to it (a socket), results and stderr from it (pipes) */
    int job;                 /* the job it is checking, -1: idle */
    char *buf;               /* result bytes received */
    size_t len, cap;
    char log[WORKER_LOG_MAX];    /* its stderr during the job, NUL-terminated */
    size_t log_len;
    double started, deadline;    /* worker_clock() seconds; deadline 0: none */
    bool killed;             /* killed at its deadline */
    bool retiring;           /* it exits after its current job */
};

/* The bytes of r worth keeping and sending: all but its unused progress
 * results. */
size_t worker_result_size(const struct check_result *r);

/* Limits the address space of a process forked from the main one to
 * the budget b beyond what it inherited past the program's start (the
 * job list); returns its resident KiB now. */
long worker_limit_memory(const struct budget *b);

/* Monotonic seconds. */
double worker_clock(void);

/* Forks an idle worker for jobs under budget b; the n workers in others
 * run beside it (it closes its copies of their pipes).  False, with errno
 * set, when none could be started. */
bool worker_start(struct worker *w, const struct job_list *jobs, const struct budget *b,
                  const struct worker *others, int n);

/* Gives job i to an idle worker and starts its deadline. */
void worker_assign(struct worker *w, int i, const struct budget *b);

/* Reads what the result pipe (which 0) or the stderr pipe (which 1) has
 * ready. */
void worker_read(struct worker *w, int which);

/* Kills a worker whose job has run past its deadline at time now. */
void worker_enforce(struct worker *w, double now);

/* True when the worker's job has ended: its result is complete, or the
 * worker is gone. */
bool worker_job_ended(const struct worker *w);

/* True when the worker has sent its job's whole result. */
bool worker_has_result(const struct worker *w);

/* For a job that ended, fills r with its result, or when none came with
 * UNKNOWN (past the deadline) or ERROR (out of memory, or the worker died:
 * a "FILE: error: ..." reason).  *log gets what the worker wrote on
 * stderr during the job, to pass on (NULL when nothing, or when it ran
 * out of memory, which r says); the caller frees it.  The worker is then
 * idle, or stopped (pid 0) when it is gone or retiring. */
void worker_take(struct worker *w, const struct job *job, const struct budget *b,
                 struct check_result *r, char **log);

/* Stops an idle worker and waits for it. */
void worker_stop(struct worker *w);

#endif
