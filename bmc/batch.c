/* Batch runs: a shared job counter, one pipe per worker, results put back
 * in job order, and a live progress line. */
#define _DEFAULT_SOURCE   /* for MAP_ANONYMOUS */
#include "bmc/batch.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "encoders/xalloc.h"

/* What a worker sends per job: the result (pointers cleared) and the
 * lengths of the witness and outcomes JSON texts that follow (0: none). */
struct message {
    int index;
    struct check_result r;
    long witness_len, outcomes_len;
};

/* The JSON text of *j (NULL if none); deletes *j and clears it. */
static char *take_json(cJSON **j, long *len)
{
    char *text = *j ? cJSON_PrintUnformatted(*j) : NULL;
    cJSON_Delete(*j);
    *j = NULL;
    *len = text ? (long)strlen(text) : 0;
    return text;
}

struct collector {
    const struct job_list *jobs;
    struct check_result *results;
    bool *ready;
    int done, emitted;
    bool progress_line;
    double start, last_draw;
    batch_result_fn on_result;
    void *ctx;
};

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void erase_progress(const struct collector *c)
{
    if (c->progress_line)
        fputs("\r\033[K", stderr);
}

static void draw_progress(struct collector *c)
{
    double now = seconds();
    if (!c->progress_line || (now - c->last_draw < 0.1 && c->done < c->jobs->n))
        return;
    c->last_draw = now;
    double rate = c->done / (now - c->start > 1e-6 ? now - c->start : 1e-6);
    double eta = rate > 0 ? (c->jobs->n - c->done) / rate : 0;
    fprintf(stderr, "\r\033[K%d/%d done, %.1f/s, ETA %.0f s", c->done, c->jobs->n, rate, eta);
    fflush(stderr);
}

/* Stores result i and passes on every result now complete in order. */
static void collect(struct collector *c, int i, const struct check_result *r)
{
    c->results[i] = *r;
    c->ready[i] = true;
    c->done++;
    bool any = false;
    while (c->emitted < c->jobs->n && c->ready[c->emitted]) {
        if (!any)
            erase_progress(c);
        any = true;
        struct check_result *out = &c->results[c->emitted];
        fflush(stderr);
        c->on_result(c->ctx, &c->jobs->jobs[c->emitted], out);
        fflush(stdout);
        cJSON_Delete(out->witness);
        cJSON_Delete(out->outcomes);
        out->witness = out->outcomes = NULL;
        c->emitted++;
    }
    if (any)
        c->last_draw = 0;
    draw_progress(c);
}

/* Writes or reads all len bytes of buf, retrying after signals; false on
 * an error or end of file. */
static bool transfer_all(int fd, void *buf, size_t len, bool writing)
{
    char *p = buf;
    while (len > 0) {
        ssize_t k = writing ? write(fd, p, len) : read(fd, p, len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        p += k;
        len -= (size_t)k;
    }
    return true;
}

static bool write_all(int fd, const void *buf, size_t len)
{
    return transfer_all(fd, (void *)buf, len, true);
}

static bool read_all(int fd, void *buf, size_t len)
{
    return transfer_all(fd, buf, len, false);
}

/* A worker: takes job indices from the shared counter until none is left. */
static void worker(const struct job_list *jobs, int *next, int fd)
{
    for (;;) {
        int i = __atomic_fetch_add(next, 1, __ATOMIC_SEQ_CST);
        if (i >= jobs->n)
            break;
        struct message m = { .index = i };
        check_file(jobs->jobs[i].file, &jobs->jobs[i].opts, &m.r);
        char *witness = take_json(&m.r.witness, &m.witness_len);
        char *outcomes = take_json(&m.r.outcomes, &m.outcomes_len);
        bool ok = write_all(fd, &m, sizeof m)
               && (!witness || write_all(fd, witness, (size_t)m.witness_len))
               && (!outcomes || write_all(fd, outcomes, (size_t)m.outcomes_len));
        free(witness);
        free(outcomes);
        if (!ok)
            break;
    }
}

/* Reads a JSON text of len bytes (none if 0) into *out; false on EOF. */
static bool receive_json(int fd, long len, cJSON **out)
{
    *out = NULL;
    if (len <= 0)
        return len == 0;
    char *text = xcalloc((size_t)len + 1, 1);
    bool ok = read_all(fd, text, (size_t)len);
    if (ok)
        *out = cJSON_Parse(text);
    free(text);
    return ok;
}

/* Reads one message from a worker's pipe into the collector; false at EOF. */
static bool receive(struct collector *c, int fd)
{
    struct message m;
    if (!read_all(fd, &m, sizeof m) || m.index < 0 || m.index >= c->jobs->n)
        return false;
    if (!receive_json(fd, m.witness_len, &m.r.witness)
        || !receive_json(fd, m.outcomes_len, &m.r.outcomes)) {
        cJSON_Delete(m.r.witness);
        return false;
    }
    collect(c, m.index, &m.r);
    return true;
}

static void run_in_process(struct collector *c)
{
    for (int i = 0; i < c->jobs->n; i++) {
        struct check_result r;
        check_file(c->jobs->jobs[i].file, &c->jobs->jobs[i].opts, &r);
        collect(c, i, &r);
    }
}

/* Forks the workers and collects their messages; false if none could start. */
static bool run_workers(struct collector *c, int nworkers)
{
    int *next = mmap(NULL, sizeof *next, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (next == MAP_FAILED)
        return false;
    *next = 0;
    struct pollfd *fds = xcalloc((size_t)nworkers, sizeof *fds);
    pid_t *pids = xcalloc((size_t)nworkers, sizeof *pids);
    int started = 0;
    fflush(stdout);
    fflush(stderr);
    for (int w = 0; w < nworkers; w++) {
        int pipefd[2];
        if (pipe(pipefd) != 0)
            break;
        pid_t pid = fork();
        if (pid < 0) {
            close(pipefd[0]);
            close(pipefd[1]);
            break;
        }
        if (pid == 0) {
            close(pipefd[0]);
            for (int k = 0; k < started; k++)
                close(fds[k].fd);
            worker(c->jobs, next, pipefd[1]);
            close(pipefd[1]);
            _exit(0);
        }
        close(pipefd[1]);
        fds[started] = (struct pollfd){ .fd = pipefd[0], .events = POLLIN };
        pids[started++] = pid;
    }
    int open = started;
    while (open > 0) {
        if (poll(fds, (nfds_t)started, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int w = 0; w < started; w++)
            if (fds[w].fd >= 0 && (fds[w].revents & (POLLIN | POLLHUP | POLLERR))) {
                if (!receive(c, fds[w].fd)) {
                    close(fds[w].fd);
                    fds[w].fd = -1;
                    open--;
                }
            }
    }
    for (int w = 0; w < started; w++) {
        if (fds[w].fd >= 0)
            close(fds[w].fd);
        waitpid(pids[w], NULL, 0);
    }
    free(fds);
    free(pids);
    munmap(next, sizeof *next);
    return started > 0;
}

void batch_run(const struct job_list *jobs, int nworkers, bool progress_line,
               batch_result_fn on_result, void *ctx)
{
    struct collector c = { .jobs = jobs, .progress_line = progress_line && jobs->n > 0,
                           .start = seconds(), .on_result = on_result, .ctx = ctx };
    c.results = xcalloc((size_t)(jobs->n ? jobs->n : 1), sizeof *c.results);
    c.ready = xcalloc((size_t)(jobs->n ? jobs->n : 1), sizeof *c.ready);
    if (nworkers > jobs->n)
        nworkers = jobs->n;
    if (nworkers <= 1 || !run_workers(&c, nworkers))
        run_in_process(&c);
    for (int i = 0; i < jobs->n; i++)   /* jobs a dead worker had taken */
        if (!c.ready[i]) {
            struct check_result r = { .verdict = V_ERROR };
            snprintf(r.reason, sizeof r.reason,
                     "%s: internal error: the worker checking this file died", jobs->jobs[i].file);
            collect(&c, i, &r);
        }
    erase_progress(&c);
    free(c.results);
    free(c.ready);
}
