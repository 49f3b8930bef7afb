/* Batch runs: a scheduler of worker processes (bmc/driver/worker.h), results put
 * back in job order, and a live progress line. */
#include "bmc/driver/batch.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bmc/driver/output.h"
#include "util/xalloc.h"

/* SIGINT or SIGTERM during a batch: the signal, and a pipe its handler
 * writes to, so that the scheduler's poll wakes up. */
static volatile sig_atomic_t stop_signal;
static int wake_pipe[2] = { -1, -1 };

static void on_stop_signal(int sig)
{
    int e = errno;
    char byte = 0;
    if (!stop_signal)
        stop_signal = sig;
    if (wake_pipe[1] >= 0 && write(wake_pipe[1], &byte, 1) < 0) {
        /* full: poll wakes up anyway */
    }
    errno = e;
}

/* Results are passed on as soon as those before them are: only results
 * that arrive before a predecessor are held back, each in a copy cut after
 * its last progress result, and no job is handed out while the held-back
 * results take more than HOLD_MAX bytes (the oldest job still runs, so
 * they drain when it ends). */
#define HOLD_MAX (32L << 20)

struct collector {
    const struct job_list *jobs;
    struct check_result **held;   /* job i's result, held back until i - 1 is passed on */
    char **logs;             /* each held-back job's child stderr text, or NULL */
    long held_bytes;
    int done, emitted;
    bool progress_line;
    double start, last_draw;
    batch_result_fn on_result;
    batch_flush_fn flush;
    void *ctx;
};

static void erase_progress(const struct collector *c)
{
    if (c->progress_line)
        fputs("\r\033[K", stderr);
}

static void draw_progress(struct collector *c)
{
    double now = worker_clock();
    if (!c->progress_line || (now - c->last_draw < 0.1 && c->done < c->jobs->n))
        return;
    c->last_draw = now;
    double rate = c->done / (now - c->start > 1e-6 ? now - c->start : 1e-6);
    double eta = rate > 0 ? (c->jobs->n - c->done) / rate : 0;
    fprintf(stderr, "\r\033[K%d/%d done, %.1f/s, ETA %.0f s", c->done, c->jobs->n, rate, eta);
    fflush(stderr);
}

/* Writes each line of log to stderr after "FILE: ". */
static void pass_on_log(const char *name, const char *log)
{
    char shown[8192];
    const char *file = output_shown(name, shown, sizeof shown);
    while (*log) {
        size_t len = strcspn(log, "\n");
        fprintf(stderr, "%s: %.*s\n", file, (int)len, log);
        log += len + (log[len] == '\n');
    }
}

/* Passes on result r of job i, the next in order, with the child's stderr
 * text log (freed), and then frees r's JSON. */
static void pass_on(struct collector *c, int i, struct check_result *r, char *log)
{
    const struct job *job = &c->jobs->jobs[i];
    if (log) {
        c->flush(c->ctx);
        pass_on_log(job->file, log);
    }
    free(log);
    fflush(stderr);
    c->on_result(c->ctx, job, r);
    cJSON_Delete(r->witness);
    cJSON_Delete(r->outcomes);
    cJSON_Delete(r->explanation);
    cJSON_Delete(r->details);
    r->witness = r->outcomes = r->explanation = r->details = NULL;
    c->emitted = i + 1;
}

/* Passes on the held-back results that are now next in order. */
static void pass_on_held(struct collector *c)
{
    while (c->emitted < c->jobs->n && c->held[c->emitted]) {
        int i = c->emitted;
        struct check_result r;
        memset(&r, 0, sizeof r);
        memcpy(&r, c->held[i], worker_result_size(c->held[i]));
        c->held_bytes -= (long)worker_result_size(c->held[i]) + (c->logs[i] ? (long)strlen(c->logs[i]) : 0);
        free(c->held[i]);
        c->held[i] = NULL;
        char *log = c->logs[i];
        c->logs[i] = NULL;
        pass_on(c, i, &r, log);
    }
}

/* Takes result i (its JSON too, and the child's stderr text): passes it
 * on when every job before it has been, or holds it back. */
static void collect(struct collector *c, int i, struct check_result *r, char *log)
{
    c->done++;
    erase_progress(c);
    if (i == c->emitted) {
        pass_on(c, i, r, log);
        pass_on_held(c);
        c->last_draw = 0;
    } else {
        size_t size = worker_result_size(r);
        c->held[i] = xcalloc(1, size);
        memcpy(c->held[i], r, size);
        c->logs[i] = log;
        c->held_bytes += (long)size + (log ? (long)strlen(log) : 0);
    }
    draw_progress(c);
}

/* Collects an ERROR result "FILE: error: what[: detail]" for job i. */
static void collect_error(struct collector *c, int i, const char *what, const char *detail)
{
    struct check_result r = { .verdict = V_ERROR };
    snprintf(r.reason, sizeof r.reason, "%s: error: %s%s%s", c->jobs->jobs[i].file, what,
             detail ? ": " : "", detail ? detail : "");
    collect(c, i, &r, NULL);
}

/* Milliseconds until the nearest deadline of the n workers (-1: none). */
static int poll_timeout(const struct worker *w, int n)
{
    double nearest = 0, now = worker_clock();
    for (int k = 0; k < n; k++)
        if (w[k].job >= 0 && w[k].deadline > 0 && !w[k].killed && (nearest == 0 || w[k].deadline < nearest))
            nearest = w[k].deadline;
    if (nearest == 0)
        return -1;
    double ms = ceil((nearest - now) * 1000);
    return ms < 0 ? 0 : ms > 1e6 ? 1000000 : (int)ms;
}

/* While every busy worker has a job queued (so none can go idle), the
 * main process naps this long before it waits for results: it then wakes
 * once per several short checks rather than once per check, a wake-up
 * costing more CPU than a short check's share of the batch (a sleep and a
 * wake-up cost about 50 us of CPU on a virtual machine, nearly as much as
 * a median check: docs/benchmarks.md).  A result that came during the nap
 * waits at most this long (and a queued job's deadline, counted from the
 * arrival of the result before it, starts at most this late), far below
 * the progress line's tenth of a second; the nap ends at the nearest
 * deadline. */
#define RESULT_NAP_US 5000

/* Naps RESULT_NAP_US (or until the nearest deadline) when each of the n
 * workers that is checking has a job queued behind. */
static void nap_while_fed(const struct worker *w, int n)
{
    for (int k = 0; k < n; k++)
        if (w[k].pid && w[k].job >= 0 && w[k].nqueued == 0)
            return;
    long until_deadline_ms = poll_timeout(w, n), us = RESULT_NAP_US;
    if (until_deadline_ms >= 0 && until_deadline_ms * 1000 < us)
        us = until_deadline_ms * 1000;
    struct timespec nap = { 0, us * 1000 };
    if (us > 0)
        nanosleep(&nap, NULL);   /* a stop signal ends it */
}

/* Waits for results from the n workers (or a stop signal) and reads
 * them; kills those past their deadline.  False, after an error message,
 * when poll fails. */
static bool wait_for_output(struct worker *w, int n, struct pollfd *fds)
{
    for (int k = 0; k < n; k++)
        fds[k] = (struct pollfd){ .fd = w[k].pid ? w[k].out : -1, .events = POLLIN };
    fds[n] = (struct pollfd){ .fd = wake_pipe[0], .events = POLLIN };
    int ready = poll(fds, (nfds_t)n + 1, poll_timeout(w, n));
    if (ready < 0 && errno != EINTR) {
        fprintf(stderr, "gpubmc: error: cannot wait for the workers: %s\n", strerror(errno));
        return false;
    }
    for (int k = 0; ready > 0 && k < n; k++)
        if (fds[k].fd >= 0 && (fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
            worker_read(&w[k]);
    double now = worker_clock();
    for (int k = 0; k < n; k++)
        worker_enforce(&w[k], now);
    return true;
}

/* After a stop signal: passes on the held-back results that are complete,
 * in job order, past the gaps of jobs that did not end. */
static void pass_on_done(struct collector *c)
{
    for (int i = c->emitted; i < c->jobs->n; i++)
        if (c->held[i]) {
            c->emitted = i;
            pass_on_held(c);
        }
}

/* File descriptors the main process keeps besides its workers' three
 * each: standard streams, the wake pipe, a new worker's pipes while it
 * starts, files opened for output. */
#define SPARE_FDS 24

/* How many of the nworkers workers the open-files limit allows (raising
 * the soft limit toward the hard one first), with a note when fewer. */
static int workers_within_fd_limit(int nworkers)
{
    struct rlimit lim;
    if (getrlimit(RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY)
        return nworkers;
    rlim_t want = 3 * (rlim_t)nworkers + SPARE_FDS;
    if (lim.rlim_cur < want && lim.rlim_cur < lim.rlim_max) {
        lim.rlim_cur = lim.rlim_max == RLIM_INFINITY || lim.rlim_max > want ? want : lim.rlim_max;
        setrlimit(RLIMIT_NOFILE, &lim);
        getrlimit(RLIMIT_NOFILE, &lim);
    }
    if (lim.rlim_cur >= want)
        return nworkers;
    long fit = lim.rlim_cur > SPARE_FDS + 3 ? (long)(lim.rlim_cur - SPARE_FDS) / 3 : 1;
    fprintf(stderr, "gpubmc: note: -j %d: the open-files limit (ulimit -n %lu) allows %ld worker%s\n",
            nworkers, (unsigned long)lim.rlim_cur, fit, fit == 1 ? "" : "s");
    return (int)fit;
}

/* Catches SIGINT and SIGTERM (old: the actions to restore), or with
 * restore puts old back. */
static void catch_stop_signals(struct sigaction *old, bool restore)
{
    static const int sigs[2] = { SIGINT, SIGTERM };
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    for (int k = 0; k < 2; k++)
        sigaction(sigs[k], restore ? &old[k] : &sa, restore ? NULL : &old[k]);
}

/* The jobs still to hand out: those a stopped worker gave back, then the
 * list from next on. */
struct dispatch {
    int next;
    int *again;              /* given back, the oldest last */
    int nagain, cap;
};

/* How many jobs are still to hand out. */
static int pending(const struct dispatch *d, const struct job_list *jobs)
{
    return d->nagain + jobs->n - d->next;
}

/* Puts back the count jobs, in job order, to be handed out again, the
 * first of them first. */
static void give_back(struct dispatch *d, const int *jobs, int count)
{
    XGROW(d->again, d->cap, d->nagain + count);
    for (int k = count - 1; k >= 0; k--)
        d->again[d->nagain++] = jobs[k];
}

/* The next job to hand out, -1 when none is now: one given back (even past
 * HOLD_MAX: it is older than every job handed out, and the held-back
 * results may wait for it), else the next in the list, reporting those
 * with an error on the way, unless a worker is busy (busy) and the
 * held-back results take more than HOLD_MAX bytes. */
static int take_job(struct collector *c, struct dispatch *d, bool busy)
{
    if (d->nagain > 0)
        return d->again[--d->nagain];
    while (d->next < c->jobs->n && !(busy && c->held_bytes > HOLD_MAX)) {
        int i = d->next++;
        if (!c->jobs->jobs[i].error)
            return i;
        collect_error(c, i, c->jobs->jobs[i].error, NULL);
    }
    return -1;
}

/* A job queued behind another worker's check, taken back for an idle
 * worker when no other is left: from the worker whose check started
 * first (the likeliest to run long).  -1 when none. */
static int take_back_queued(struct worker *w, int n, struct ticket_board *bd)
{
    int from = -1;
    for (int k = 0; k < n; k++)
        if (w[k].pid && w[k].job >= 0 && w[k].nqueued > 0 && (from < 0 || w[k].started < w[from].started))
            from = k;
    return from < 0 ? -1 : worker_take_back(&w[from], bd);
}

/* Gives the next jobs to the workers, starting workers where none runs: a
 * job to each idle worker, and to each busy one whose queue is down to
 * half up to WORKER_AHEAD more while more jobs are left than there are
 * workers.  An idle worker with no job left to take takes one queued
 * behind another's check.  Jobs with an error are reported without a
 * worker. */
static void hand_out(struct collector *c, struct dispatch *d, struct worker *w, int n, struct ticket_board *bd,
                     const struct budget *b)
{
    bool busy = false;
    for (int o = 0; o < n; o++)
        busy |= w[o].pid && w[o].job >= 0;
    for (int k = 0; k < n; k++) {
        bool checking = w[k].pid && w[k].job >= 0;
        int give[1 + WORKER_AHEAD], count = 0, room = bd->ticket ? 1 + WORKER_AHEAD : 1, j;
        if (checking) {   /* topped up once its queue is down to half: a send per several jobs */
            room = w[k].nqueued > WORKER_AHEAD / 2 ? 0 : room - 1 - w[k].nqueued;
        } else {
            if ((j = take_job(c, d, busy)) < 0 && (pending(d, c->jobs) > 0 || (j = take_back_queued(w, n, bd)) < 0))
                continue;
            give[count++] = j;
            if (w[k].pid && w[k].out < 0)   /* it died while idle */
                worker_stop(&w[k]);
            if (!w[k].pid && !worker_start(&w[k], c->jobs, b, bd, w, n)) {
                if (busy)   /* another worker may take it */
                    give_back(d, &j, 1);
                else        /* no worker will free up: no use waiting */
                    collect_error(c, j, "cannot start a check", strerror(errno));
                continue;
            }
        }
        while (count < room && pending(d, c->jobs) > n && (j = take_job(c, d, busy || count > 0)) >= 0)
            give[count++] = j;
        if (count > 0) {
            worker_assign(&w[k], bd, give, count, b);
            busy = true;
        }
    }
}

int batch_run(const struct job_list *jobs, int nworkers, const struct budget *b, bool progress_line,
              batch_result_fn on_result, batch_flush_fn flush, void *ctx)
{
    struct collector c = { .jobs = jobs, .progress_line = progress_line && jobs->n > 0,
                           .start = worker_clock(), .on_result = on_result, .flush = flush, .ctx = ctx };
    c.held = xcalloc((size_t)jobs->n + 1, sizeof *c.held);
    c.logs = xcalloc((size_t)jobs->n + 1, sizeof *c.logs);
    int n = nworkers < jobs->n ? nworkers : jobs->n;
    n = n > 0 ? workers_within_fd_limit(n) : 0;
    struct worker *w = xcalloc((size_t)n, sizeof *w);
    struct pollfd *fds = xcalloc((size_t)n + 1, sizeof *fds);
    stop_signal = 0;
    if (pipe(wake_pipe) == 0) {
        fcntl(wake_pipe[0], F_SETFL, fcntl(wake_pipe[0], F_GETFL) | O_NONBLOCK);
        fcntl(wake_pipe[1], F_SETFL, fcntl(wake_pipe[1], F_GETFL) | O_NONBLOCK);
    } else {
        wake_pipe[0] = wake_pipe[1] = -1;
    }
    struct sigaction old[2];
    catch_stop_signals(old, false);
    struct dispatch d = { .next = 0 };
    struct ticket_board bd;
    worker_board_open(&bd, jobs->n);
    int stopped = 0;
    while (!stopped) {
        hand_out(&c, &d, w, n, &bd, b);
        bool busy = false;
        for (int k = 0; k < n; k++)
            busy |= w[k].pid && w[k].job >= 0;
        if (stop_signal || (!busy && pending(&d, jobs) == 0))
            break;
        if (!busy)
            continue;
        c.flush(c.ctx);
        nap_while_fed(w, n);
        if (!wait_for_output(w, n, fds))
            stopped = -1;
        for (int k = 0; k < n; k++)   /* after a stop signal, the results complete before it */
            while (worker_job_ended(&w[k]) && (!stop_signal || worker_has_result(&w[k]))) {
                int i = w[k].job;
                struct check_result r;
                char *log;
                worker_take(&w[k], &jobs->jobs[i], b, &r, &log);
                collect(&c, i, &r, log);
                int unstarted[WORKER_AHEAD];
                give_back(&d, unstarted, worker_unstarted(&w[k], unstarted));
            }
    }
    if (stop_signal && !stopped)
        stopped = stop_signal;
    for (int k = 0; k < n; k++) {
        if (w[k].pid && w[k].job >= 0)   /* only when stopped: its check is dropped */
            kill(w[k].pid, SIGKILL);
        if (w[k].pid)
            worker_stop(&w[k]);
    }
    erase_progress(&c);
    if (stopped) {
        pass_on_done(&c);
        c.flush(c.ctx);
        fprintf(stderr, "gpubmc: %s%s: %d of %d checked\n", stopped < 0 ? "stopped" : "interrupted by ",
                stopped == SIGINT ? "SIGINT" : stopped == SIGTERM ? "SIGTERM" : "", c.done, jobs->n);
    }
    c.flush(c.ctx);
    catch_stop_signals(old, true);
    close(wake_pipe[0]);
    close(wake_pipe[1]);
    wake_pipe[0] = wake_pipe[1] = -1;
    for (int i = 0; i < jobs->n; i++) {
        free(c.held[i]);
        free(c.logs[i]);
    }
    worker_board_close(&bd);
    free(d.again);
    free(w);
    free(fds);
    free(c.held);
    free(c.logs);
    return stopped;
}
