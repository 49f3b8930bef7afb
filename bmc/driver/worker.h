/* Worker processes that check jobs under a time and memory budget.  A
 * worker limits its own address space and dies with its parent; the
 * parent hands it job indices over a socket, up to WORKER_AHEAD beyond
 * the one it checks so that it starts the next job as soon as it sends a
 * result (each with a ticket, so that one still queued can be taken back
 * for another worker), keeps the deadline of the job it checks, reads results (each
 * with what the worker wrote on stderr during that job) from one pipe,
 * and turns a worker that ended without a result into a verdict that
 * names the cause (timeout, memory, crash). */
#ifndef GPUBMC_WORKER_H
#define GPUBMC_WORKER_H

#include <stdatomic.h>
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

/* Jobs a busy worker is sent beyond the one it checks: enough short
 * checks to keep it busy while the main process naps (batch.c), from
 * when its queue is topped up, at half, to the next nap's end: a worker
 * with none left waits, a sleep and a wake-up more. */
#define WORKER_AHEAD 128

/* The size asked for a worker's result pipe: the results of a nap's
 * checks fit without the worker waiting for the main process to read. */
#define RESULT_PIPE_BYTES (256 << 10)

/* Per job, the ticket its latest sending carried, shared with the
 * workers: 0 once a worker started it, -1 once taken back.  A worker
 * checks a job it was sent only when the ticket that came with it is
 * still the job's, so that the parent can take back a job waiting in a
 * queue and send it to another worker. */
struct ticket_board {
    atomic_int *ticket;      /* NULL: none could be made, and no job is queued */
    int njobs, issued;
};

/* A job as sent to a worker: its index and ticket. */
struct job_send {
    int job, ticket;
};

/* A worker process and what it has sent about its current job. */
struct worker {
    pid_t pid;               /* 0: no process */
    int cmd, out, err;       /* jobs to it (a socket), results and stderr from it (pipes) */
    int job;                 /* the job it is checking, -1: idle */
    struct job_send queued[WORKER_AHEAD];   /* jobs sent to it after that one, in order */
    int nqueued;
    char *buf;               /* result bytes received: buf[taken, len) not decoded yet */
    size_t taken, len, cap;
    char log[WORKER_LOG_MAX];    /* its stderr during the job, NUL-terminated */
    size_t log_len;
    double started, deadline;    /* worker_clock() seconds; deadline 0: none */
    bool killed;             /* killed at its deadline */
    bool retiring;           /* it exits after its current job */
};

/* Makes the ticket board of njobs jobs, shared with workers started
 * after it (bd->ticket NULL when it cannot be made). */
void worker_board_open(struct ticket_board *bd, int njobs);

/* Unmaps the board. */
void worker_board_close(struct ticket_board *bd);

/* The bytes of r worth keeping and sending: all but its unused progress
 * results. */
size_t worker_result_size(const struct check_result *r);

/* Limits the address space of a process forked from the main one to
 * the budget b beyond what it inherited past the program's start (the
 * job list); returns its resident KiB now. */
long worker_limit_memory(const struct budget *b);

/* Monotonic seconds. */
double worker_clock(void);

/* Forks an idle worker for jobs under budget b, which checks the jobs
 * sent to it that the board bd lets it; the n workers in others run
 * beside it (it closes its copies of their pipes).  False, with errno
 * set, when none could be started. */
bool worker_start(struct worker *w, const struct job_list *jobs, const struct budget *b,
                  const struct ticket_board *bd, const struct worker *others, int n);

/* Sends the count jobs to the worker in one message, each with a new
 * ticket on bd: an idle worker starts the first, its deadline counted
 * from now; the rest wait behind its current job, each to start,
 * deadline and all, when the result before it arrives (jobs past its
 * WORKER_AHEAD places are not sent). */
void worker_assign(struct worker *w, struct ticket_board *bd, const int *jobs, int count,
                   const struct budget *b);

/* Takes back the first job queued behind the worker's current one (the
 * oldest, whose result the ones after it wait for in the output) if the
 * worker has not started it: returns it, or -1. */
int worker_take_back(struct worker *w, struct ticket_board *bd);

/* Reads what the result pipe has ready. */
void worker_read(struct worker *w);

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
 * out of memory, which r says); the caller frees it.  The worker then
 * checks its next queued job, or is idle, or stopped (pid 0) when it is
 * gone, retiring or was killed: the jobs queued behind are then left for
 * worker_unstarted. */
void worker_take(struct worker *w, const struct job *job, const struct budget *b,
                 struct check_result *r, char **log);

/* For a stopped worker, moves the jobs it was sent but never started to
 * jobs (room for WORKER_AHEAD) and returns how many; 0 for a running one. */
int worker_unstarted(struct worker *w, int *jobs);

/* Stops an idle worker and waits for it. */
void worker_stop(struct worker *w);

#endif
