/* Worker processes: fork, limits, the job and result protocol, and what a
 * worker that died or ran out of time or memory means. */
#define _GNU_SOURCE   /* for MAP_ANONYMOUS, F_SETPIPE_SZ */
#include "bmc/driver/worker.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "bmc/driver/prefault.h"
#include "bmc/driver/job_check.h"
#include "bmc/driver/result_pack.h"
#include "program/load_memo.h"
#include "util/read_ahead.h"
#include "util/text_hash.h"
#include "util/xalloc.h"

/* AddressSanitizer reserves terabytes of address space at start-up, so an
 * address-space limit would fail its every allocation: the sanitizer build
 * runs without one. */
#if defined(__SANITIZE_ADDRESS__)
#define LIMIT_ADDRESS_SPACE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LIMIT_ADDRESS_SPACE 0
#endif
#endif
#ifndef LIMIT_ADDRESS_SPACE
#define LIMIT_ADDRESS_SPACE 1
#endif

/* What a worker sends per job: the lengths of what it wrote on stderr
 * during the job and of the witness, outcomes, explanation and details
 * JSON texts that follow the result (0: none), whether it exits after
 * this job, how many progress results the result has (worker_result_size:
 * not the unused ones, most of its size) and the bytes of its packed form
 * (result_pack.h: its texts' unused bytes, most of the rest, left out;
 * pointers cleared), which follows this head. */
struct message {
    long log_len, witness_len, outcomes_len, explanation_len, details_len;
    bool retiring;
    int nprogress;
    size_t packed_len;
};

/* The bytes of a message before its result. */
#define MESSAGE_HEAD sizeof(struct message)

/* The progress results of r that are sent and kept. */
static int progress_sent(const struct check_result *r)
{
    return r->nprogress > 0 && r->nprogress <= CHECK_PROGRESS_MODELS ? r->nprogress : 0;
}

size_t worker_result_size(const struct check_result *r)
{
    return offsetof(struct check_result, progress) + (size_t)progress_sent(r) * sizeof r->progress[0];
}

double worker_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The jobs sent to a worker that it has read and not yet taken. */
struct inbox {
    char bytes[(1 + WORKER_AHEAD) * sizeof(struct job_send)];
    size_t start, end;
};

/* Takes the next job sent into *s, reading all that came with it at once
 * (waiting when none has); false on an error or end of file. */
static bool next_sent(int cmd, struct inbox *in, struct job_send *s)
{
    while (in->end - in->start < sizeof *s) {
        memmove(in->bytes, in->bytes + in->start, in->end - in->start);
        in->end -= in->start;
        in->start = 0;
        ssize_t k = read(cmd, in->bytes + in->end, sizeof in->bytes - in->end);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        in->end += (size_t)k;
    }
    memcpy(s, in->bytes + in->start, sizeof *s);
    in->start += sizeof *s;
    return true;
}

/* Writes the n pieces of iov whole, in one system call when the pipe has
 * room, retrying after signals and short writes; false on an error. */
static bool write_all(int fd, struct iovec *iov, int n)
{
    while (n > 0) {
        ssize_t k = writev(fd, iov, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return false;
        for (; n > 0 && (size_t)k >= iov->iov_len; iov++, n--)
            k -= (ssize_t)iov->iov_len;
        if (n > 0) {
            iov->iov_base = (char *)iov->iov_base + k;
            iov->iov_len -= (size_t)k;
        }
    }
    return true;
}

/* Set by SIGIO when something is written on the worker's stderr pipe
 * (watch_own_log), and at first; cleared when the pipe is read. */
static volatile sig_atomic_t own_log_written = 1;

/* Whether SIGIO says when the stderr pipe is written; if not, the pipe is
 * read after every check. */
static bool own_log_watched;

static void note_own_log(int sig)
{
    (void)sig;
    own_log_written = 1;
}

/* Asks the kernel for SIGIO whenever the stderr pipe whose read end is
 * err_in is written, so that a check that wrote nothing (nearly all do)
 * costs no read of it.  The writer is this process (or a child it waits
 * for), so the signal has come before the check returns. */
static void watch_own_log(int err_in)
{
    struct sigaction sa = { .sa_handler = note_own_log, .sa_flags = SA_RESTART };
    sigemptyset(&sa.sa_mask);
    int flags = fcntl(err_in, F_GETFL);
    own_log_watched = sigaction(SIGIO, &sa, NULL) == 0 && fcntl(err_in, F_SETOWN, getpid()) == 0
                      && flags >= 0 && fcntl(err_in, F_SETFL, flags | O_ASYNC) == 0;
}

/* What this worker wrote on its stderr (a pipe whose non-blocking read
 * end it holds too) since the last call: the first WORKER_LOG_MAX - 1
 * bytes go to log, the rest is dropped; returns how many went to log. */
static long take_own_log(int err_in, char *log)
{
    static char chunk[65536];
    size_t len = 0;
    ssize_t got;
    fflush(stderr);
    if (own_log_watched && !own_log_written)
        return 0;
    own_log_written = 0;   /* before the read: a write after it signals again */
    while ((got = read(err_in, chunk, sizeof chunk)) > 0 || (got < 0 && errno == EINTR)) {
        if (got < 0)
            continue;
        size_t room = WORKER_LOG_MAX - 1 - len, take = (size_t)got < room ? (size_t)got : room;
        memcpy(log + len, chunk, take);
        len += take;
        if ((size_t)got < sizeof chunk)   /* less than asked: the pipe is empty now */
            break;
    }
    clearerr(stderr);   /* a write the full pipe refused */
    return (long)len;
}

/* The JSON text of *j (NULL if none); deletes *j and clears it. */
static char *take_json(cJSON **j, long *len)
{
    char *text = *j ? cJSON_PrintUnformatted(*j) : NULL;
    cJSON_Delete(*j);
    *j = NULL;
    *len = text ? (long)strlen(text) : 0;
    return text;
}

/* The address space and resident memory of this process now, in KiB (0
 * when unknown). */
static void memory_now(unsigned long long *size_kib, long *resident_kib)
{
    /* read(2) into a buffer here, not stdio: no FILE and its buffer to
     * allocate, in the parent at its start and in each worker */
    char text[128];
    unsigned long long pages = 0, resident = 0;
    int fd = open("/proc/self/statm", O_RDONLY);
    ssize_t got = fd >= 0 ? read(fd, text, sizeof text - 1) : -1;
    if (fd >= 0)
        close(fd);
    text[got > 0 ? got : 0] = '\0';
    if (sscanf(text, "%llu %llu", &pages, &resident) != 2)
        pages = resident = 0;
    long page = sysconf(_SC_PAGESIZE);
    unsigned long long kib = (unsigned long long)(page > 0 ? page : 4096) / 1024;
    *size_kib = pages * kib;
    *resident_kib = (long)(resident * kib);
}

/* The address space of the program at its start (the libraries, the
 * first heap), in KiB: what a worker has beyond it is what the parent
 * built (the job list), which the budget does not count. */
static unsigned long long program_size_kib;

__attribute__((constructor)) static void note_program_size(void)
{
    long resident;
    memory_now(&program_size_kib, &resident);
}

/* Peak resident KiB of this process so far. */
static long peak_rss_kib(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
}

/* The fastest a process makes memory resident, in KiB per second: each
 * fresh page is zeroed by the kernel as it is first touched, well below
 * 64 GiB/s on any machine (one thread, a page or a huge page at a time). */
#define RESIDENT_KIB_PER_S (64.0 * (1L << 20))

/* What a worker knows of its peak resident memory: what it started with
 * (the pages it shares with the parent), the peak when last read, and
 * when that was (worker_clock). */
struct rss_watch {
    long start_kib, peak_kib;
    double read_at;
};

/* A worker retires after a check that raised its peak resident memory
 * by more than a quarter of the budget (1 GiB without one) over what it
 * started with, so that the next check starts in a fresh process rather
 * than in the heap the big one left.  The peak is read (a system call)
 * only when the time since the last reading would let it have grown
 * that far: not after each of a batch's many short checks. */
static bool should_retire(const struct budget *b, struct rss_watch *w)
{
    long quarter_kib = b->max_memory_mb > 0 ? b->max_memory_mb * 256 : 1L << 20;
    double now = worker_clock();
    if (w->peak_kib + (now - w->read_at) * RESIDENT_KIB_PER_S <= (double)(w->start_kib + quarter_kib))
        return false;
    w->peak_kib = peak_rss_kib();
    w->read_at = now;
    return w->peak_kib - w->start_kib > quarter_kib;
}

long worker_limit_memory(const struct budget *b)
{
    /* The budget is the program and what its checks allocate, not what
     * the process inherits from the parent beyond the program (the job
     * list, results waiting to be printed). */
    unsigned long long size_kib;
    long start_kib;
    memory_now(&size_kib, &start_kib);
    if (start_kib < peak_rss_kib())
        start_kib = peak_rss_kib();
    if (LIMIT_ADDRESS_SPACE && b->max_memory_mb > 0) {
        unsigned long long inherited = size_kib > program_size_kib ? size_kib - program_size_kib : 0;
        rlim_t bytes = ((rlim_t)b->max_memory_mb << 20) + ((rlim_t)inherited << 10);
        struct rlimit lim = { bytes, bytes };
        setrlimit(RLIMIT_AS, &lim);
    }
    return start_kib;
}

/* A check that caught its own allocation failure ("FILE: error: out of
 * memory") says which budget it ran out of, as a worker that died of it
 * does. */
static void name_the_budget(struct check_result *r, const char *file, const struct budget *b)
{
    const char *tail = ": error: out of memory";
    size_t len = strlen(r->reason), tl = strlen(tail);
    if (r->verdict == V_ERROR && b->max_memory_mb > 0 && len >= tl && strcmp(r->reason + len - tl, tail) == 0)
        snprintf(r->reason, sizeof r->reason, "%s: error: out of memory: the check needs more than the "
                 "--max-memory of %ld MB", file, b->max_memory_mb);
}

void worker_board_open(struct ticket_board *bd, int njobs)
{
    size_t size = ((size_t)njobs + 1) * sizeof *bd->ticket;
    void *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    *bd = (struct ticket_board){ .ticket = map == MAP_FAILED ? NULL : map, .njobs = njobs };
}

void worker_board_close(struct ticket_board *bd)
{
    if (bd->ticket)
        munmap(bd->ticket, ((size_t)bd->njobs + 1) * sizeof *bd->ticket);
    bd->ticket = NULL;
}

/* True when the job sent s is still this worker's to check (its ticket
 * unchanged), now marked started. */
static bool claim(const struct ticket_board *bd, struct job_send s)
{
    int want = s.ticket;
    return !bd->ticket || atomic_compare_exchange_strong(&bd->ticket[s.job], &want, 0);
}

/* Reads ahead, unless it is held already, the file of the job about to
 * be checked with those of the jobs queued behind it in in (each file
 * once): a group's files cost a few system calls in all, not four each.
 * A job alone reads its file itself. */
static void read_ahead_queued(const struct job_list *jobs, const struct inbox *in, int job)
{
    const char *paths[READ_AHEAD_FILES];
    size_t lens[READ_AHEAD_FILES];   /* paths[k]'s length: most paths differ in it */
    int n = 0;
    if (!jobs->jobs[job].file || read_ahead_holds(jobs->jobs[job].file))
        return;
    lens[n] = strlen(jobs->jobs[job].file);
    paths[n++] = jobs->jobs[job].file;
    for (size_t at = in->start; n < READ_AHEAD_FILES && in->end - at >= sizeof(struct job_send);
         at += sizeof(struct job_send)) {
        struct job_send s;
        memcpy(&s, in->bytes + at, sizeof s);
        const char *path = s.job >= 0 && s.job < jobs->n ? jobs->jobs[s.job].file : NULL;
        bool listed = !path;
        size_t len = path ? strlen(path) : 0;
        for (int k = 0; k < n && !listed; k++)
            listed = lens[k] == len && memcmp(paths[k], path, len) == 0;
        if (!listed) {
            lens[n] = len;
            paths[n++] = path;
        }
    }
    if (n > 1)
        read_ahead(paths, n);
}

/* For each job, whether a later job of the list checks the same file
 * (NULL when out of memory): that job's parse is kept for it. */
static bool *files_checked_again(const struct job_list *jobs)
{
    size_t mask = 15;
    while (mask < 2 * (size_t)jobs->n)
        mask = 2 * mask + 1;
    bool *again = calloc((size_t)jobs->n + 1, sizeof *again);
    const char **seen = calloc(mask + 1, sizeof *seen);   /* the files of the later jobs */
    for (int i = jobs->n - 1; again && seen && i >= 0; i--) {
        const char *file = jobs->jobs[i].file;
        if (!file)
            continue;
        size_t at = text_hash(0, file) & mask;
        while (seen[at] && strcmp(seen[at], file) != 0)
            at = (at + 1) & mask;
        again[i] = seen[at] != NULL;
        seen[at] = file;
    }
    free(seen);
    return again;
}

/* The worker: dies with its parent, limits its memory, then checks each
 * job it reads and can claim on bd and sends the result, with what it
 * wrote on stderr (err_in: that pipe's read end) during the job, until
 * end of file. */
static void worker_main(const struct job_list *jobs, const struct budget *b, const struct ticket_board *bd,
                        int cmd, int out, int err_in, pid_t parent)
{
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (getppid() != parent)   /* the parent died before prctl */
        _exit(1);
    /* A SIGINT from the terminal reaches the whole process group: the
     * parent decides what is done and kills the workers. */
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_DFL);
    watch_own_log(err_in);
    long start_kib = worker_limit_memory(b);
    prefault_worker_start();
    struct rss_watch rss = { start_kib, start_kib, worker_clock() };
    static char log[WORKER_LOG_MAX];
    static struct inbox inbox;
    static struct check_result r;
    static unsigned char packed[RESULT_PACK_MAX];
    struct job_send sent;
    bool ok = true, *again = files_checked_again(jobs);
    while (ok && next_sent(cmd, &inbox, &sent) && sent.job >= 0 && sent.job < jobs->n) {
        if (!claim(bd, sent))   /* taken back */
            continue;
        int i = sent.job;
        struct message m = { 0 };
        /* All of r but its 14 KB of progress results: those past
         * r.nprogress are neither read nor sent, and a check that
         * reports some starts from a result check_begin zeroed. */
        memset(&r, 0, offsetof(struct check_result, progress));
        read_ahead_queued(jobs, &inbox, i);
        load_memo_keep(again && again[i] ? jobs->jobs[i].file : NULL);
        check_job(jobs->jobs[i].file, jobs->jobs[i].spec, jobs->jobs[i].opts, &r);
        name_the_budget(&r, jobs->jobs[i].file, b);
        m.retiring = should_retire(b, &rss);
        m.log_len = take_own_log(err_in, log);
        char *witness = take_json(&r.witness, &m.witness_len);
        char *outcomes = take_json(&r.outcomes, &m.outcomes_len);
        char *explanation = take_json(&r.explanation, &m.explanation_len);
        char *details = take_json(&r.details, &m.details_len);
        m.nprogress = progress_sent(&r);
        m.packed_len = result_pack(&r, m.nprogress, packed);
        struct iovec iov[7] = {
            { &m, MESSAGE_HEAD }, { packed, m.packed_len }, { log, (size_t)m.log_len },
            { witness, (size_t)m.witness_len }, { outcomes, (size_t)m.outcomes_len },
            { explanation, (size_t)m.explanation_len }, { details, (size_t)m.details_len },
        };
        ok = write_all(out, iov, 7) && !m.retiring;
        free(witness);
        free(outcomes);
        free(explanation);
        free(details);
    }
    _exit(0);
}

bool worker_start(struct worker *w, const struct job_list *jobs, const struct budget *b,
                  const struct ticket_board *bd, const struct worker *others, int n)
{
    int fds[6];
    int made = 0;
    /* the job channel is a socket pair, whose writes can refuse SIGPIPE
     * (MSG_NOSIGNAL); results and stderr come through pipes */
    while (made < 6 && (made == 0 ? socketpair(AF_UNIX, SOCK_STREAM, 0, fds) : pipe(fds + made)) == 0)
        made += 2;
    int e = errno;
    pid_t parent = getpid();
    fflush(stdout);   /* or a worker that calls exit() writes them again */
    fflush(stderr);
    /* the stderr pipe's read end, shared: the worker takes each job's
     * text from it, the parent what a worker that died left there */
    if (made == 6)
        fcntl(fds[4], F_SETFL, fcntl(fds[4], F_GETFL) | O_NONBLOCK);
    pid_t pid = made == 6 ? fork() : -1;
    if (pid == 0) {
        for (int k = 0; k < n; k++)
            if (others[k].pid) {
                close(others[k].cmd);
                close(others[k].out);
                close(others[k].err);
            }
        close(fds[1]);
        close(fds[2]);
        dup2(fds[5], STDERR_FILENO);
        close(fds[5]);
        /* past 64 KB of one job's stderr, writes are dropped (only the
         * first WORKER_LOG_MAX bytes are kept) rather than wait for a
         * reader */
        fcntl(STDERR_FILENO, F_SETFL, fcntl(STDERR_FILENO, F_GETFL) | O_NONBLOCK);
        worker_main(jobs, b, bd, fds[0], fds[3], fds[4], parent);
    }
    if (made == 6 && pid < 0)
        e = errno;
    for (int k = 0; k < made; k++)   /* the worker's ends, or all of them */
        if (pid < 0 || k == 0 || k == 3 || k == 5)
            close(fds[k]);
    if (pid < 0) {
        errno = e;
        return false;
    }
#ifdef F_SETPIPE_SZ
    fcntl(fds[2], F_SETPIPE_SZ, RESULT_PIPE_BYTES);
#endif
    *w = (struct worker){ .pid = pid, .cmd = fds[1], .out = fds[2], .err = fds[4], .job = -1 };
    return true;
}

/* Makes job i the worker's current job, its deadline counted from now. */
static void begin(struct worker *w, int i, const struct budget *b)
{
    w->job = i;
    w->log_len = 0;
    w->log[0] = '\0';
    w->started = worker_clock();
    w->deadline = b->timeout_s > 0 ? w->started + b->timeout_s : 0;
}

void worker_assign(struct worker *w, struct ticket_board *bd, const int *jobs, int count,
                   const struct budget *b)
{
    struct job_send sent[1 + WORKER_AHEAD];
    int room = (w->job < 0) + WORKER_AHEAD - w->nqueued;   /* none is sent that would not be kept */
    count = count < room ? count : room;
    for (int k = 0; k < count; k++) {
        sent[k] = (struct job_send){ jobs[k], ++bd->issued };
        if (bd->ticket)
            atomic_store(&bd->ticket[jobs[k]], sent[k].ticket);
        if (k == 0 && w->job < 0)
            begin(w, jobs[k], b);
        else
            w->queued[w->nqueued++] = sent[k];
    }
    /* A worker that died while idle must not take the parent with it by
     * SIGPIPE: its result pipe reports the death instead. */
    while (send(w->cmd, sent, (size_t)count * sizeof *sent, MSG_NOSIGNAL) < 0 && errno == EINTR)
        continue;
}

int worker_take_back(struct worker *w, struct ticket_board *bd)
{
    if (!bd->ticket || w->nqueued == 0)
        return -1;
    struct job_send first = w->queued[0];
    int want = first.ticket;
    if (!atomic_compare_exchange_strong(&bd->ticket[first.job], &want, -1))
        return -1;   /* started: its result comes after the one before it */
    memmove(w->queued, w->queued + 1, (size_t)--w->nqueued * sizeof *w->queued);
    return first.job;
}

/* The free bytes kept at the end of a worker's result buffer before each
 * read: the results of a nap's several checks come in one read, into the
 * same pages each time. */
#define RESULT_ROOM 32768

/* Reads once from the result pipe (which 0) or the stderr pipe (which 1),
 * straight into the buffer (or log) that keeps it; the bytes read, 0 at
 * end of file (the pipe is then closed), -1 when nothing is ready. */
static ssize_t read_some(struct worker *w, int which)
{
    char dropped[4096];      /* stderr past WORKER_LOG_MAX - 1 bytes */
    int *fd = which == 0 ? &w->out : &w->err;
    if (which == 0 && w->taken > 0) {   /* the decoded messages dropped once per read, not once each */
        memmove(w->buf, w->buf + w->taken, w->len - w->taken);
        w->len -= w->taken;
        w->taken = 0;
    }
    if (which == 0 && w->cap - w->len < RESULT_ROOM) {
        w->cap = w->cap ? 2 * w->cap : 2 * RESULT_ROOM;
        w->buf = xrealloc(w->buf, w->cap);
    }
    size_t log_room = WORKER_LOG_MAX - 1 - w->log_len;
    char *into = which == 0 ? w->buf + w->len : log_room > 0 ? w->log + w->log_len : dropped;
    size_t room = which == 0 ? w->cap - w->len : log_room > 0 ? log_room : sizeof dropped;
    ssize_t got;
    while ((got = read(*fd, into, room)) < 0 && errno == EINTR)
        continue;
    if (got < 0 && errno == EAGAIN)
        return -1;
    if (got <= 0) {
        close(*fd);
        *fd = -1;
        return 0;
    }
    if (which == 0) {
        w->len += (size_t)got;
    } else if (log_room > 0) {
        w->log_len += (size_t)got;
        w->log[w->log_len] = '\0';
    }
    return got;
}

void worker_read(struct worker *w)
{
    read_some(w, 0);
}

void worker_enforce(struct worker *w, double now)
{
    if (w->job >= 0 && w->deadline > 0 && now >= w->deadline && !w->killed) {
        kill(w->pid, SIGKILL);
        w->killed = true;
    }
}

/* The bytes of the first message received when it is whole, else 0. */
static size_t whole_message(const struct worker *w)
{
    struct message m;
    if (w->len - w->taken < MESSAGE_HEAD)
        return 0;
    memcpy(&m, w->buf + w->taken, MESSAGE_HEAD);
    if (m.log_len < 0 || m.log_len >= WORKER_LOG_MAX || m.witness_len < 0 || m.outcomes_len < 0
        || m.explanation_len < 0 || m.details_len < 0 || m.nprogress < 0 || m.nprogress > CHECK_PROGRESS_MODELS
        || m.packed_len > RESULT_PACK_MAX)
        return 0;
    size_t size = MESSAGE_HEAD + m.packed_len + (size_t)m.log_len + (size_t)m.witness_len
                + (size_t)m.outcomes_len + (size_t)m.explanation_len + (size_t)m.details_len;
    return w->len - w->taken >= size ? size : 0;
}

/* True when the bytes received start with one whole message. */
static bool complete(const struct worker *w)
{
    return whole_message(w) > 0;
}

bool worker_has_result(const struct worker *w)
{
    return w->job >= 0 && complete(w);
}

bool worker_job_ended(const struct worker *w)
{
    return w->job >= 0 && (w->out < 0 || complete(w));
}

/* A JSON text of len bytes at *at (none if 0), advancing *at. */
static cJSON *json_at(const char **at, long len)
{
    if (len <= 0)
        return NULL;
    char *text = xcalloc((size_t)len + 1, 1);
    memcpy(text, *at, (size_t)len);
    *at += len;
    cJSON *j = cJSON_Parse(text);
    free(text);
    return j;
}

/* Decodes the first message received into r (and the stderr text it
 * carries into w->log), and marks its bytes taken. */
static void decode(struct worker *w, struct check_result *r)
{
    struct message m;
    size_t size = whole_message(w);
    const char *head = w->buf + w->taken;
    memcpy(&m, head, MESSAGE_HEAD);
    /* the progress results past nprogress stay unset */
    if (!result_unpack((const unsigned char *)head + MESSAGE_HEAD, m.packed_len, m.nprogress, r)) {
        memset(r, 0, offsetof(struct check_result, progress));
        r->verdict = V_ERROR;
        snprintf(r->reason, sizeof r->reason, "internal error: a malformed result from the worker");
    }
    const char *at = head + MESSAGE_HEAD + m.packed_len;
    memcpy(w->log, at, (size_t)m.log_len);
    w->log_len = (size_t)m.log_len;
    w->log[w->log_len] = '\0';
    at += m.log_len;
    r->witness = json_at(&at, m.witness_len);
    r->outcomes = json_at(&at, m.outcomes_len);
    r->explanation = json_at(&at, m.explanation_len);
    r->details = json_at(&at, m.details_len);
    w->retiring = m.retiring;
    w->taken += size;
    if (w->taken == w->len)
        w->taken = w->len = 0;
}

/* True when the worker's stderr says an allocation failed. */
static bool out_of_memory(const char *log)
{
    return strstr(log, "out of memory") || strstr(log, "bad_alloc")
        || strstr(log, "Cannot allocate memory");
}

/* Fills r for a job whose worker ended (with wait status) and sent no
 * result; true when it ran out of memory (which r says, so its stderr
 * need not be passed on). */
static bool explain(const struct worker *w, const struct job *job, const struct budget *b,
                    int status, struct check_result *r)
{
    const char *file = job->file;
    memset(r, 0, sizeof *r);
    snprintf(r->model, sizeof r->model, "%s", job->opts->model ? job->opts->model : "");
    r->ms = (worker_clock() - w->started) * 1000;
    r->verdict = V_ERROR;
    if (w->killed) {
        r->verdict = V_UNKNOWN;
        snprintf(r->reason, sizeof r->reason, "timeout: no verdict within the --timeout of %g s",
                 b->timeout_s);
        return false;
    }
    if (out_of_memory(w->log)) {
        if (b->max_memory_mb > 0)
            snprintf(r->reason, sizeof r->reason, "%s: error: out of memory: the check needs more "
                     "than the --max-memory of %ld MB", file, b->max_memory_mb);
        else
            snprintf(r->reason, sizeof r->reason, "%s: error: out of memory", file);
        return true;
    }
    if (WIFSIGNALED(status))
        snprintf(r->reason, sizeof r->reason, "%s: error: internal error: the check died of signal %d (%s)",
                 file, WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(r->reason, sizeof r->reason, "%s: error: internal error: the check ended with "
                 "status %d and no result", file, WEXITSTATUS(status));
    return false;
}

/* Closes the worker's pipes and waits for it, with read_log adding what
 * it left on its stderr pipe to w->log; its wait status. */
static int reap(struct worker *w, bool read_log)
{
    int status = 0;
    if (w->cmd >= 0)
        close(w->cmd);
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
        continue;
    while (read_log && w->err >= 0 && read_some(w, 1) > 0)   /* all it wrote is in the pipe now */
        continue;
    if (w->err >= 0)
        close(w->err);
    if (w->out >= 0)
        close(w->out);
    w->cmd = w->out = w->err = -1;
    w->pid = 0;
    free(w->buf);
    w->buf = NULL;
    w->taken = w->len = w->cap = 0;
    return status;
}

void worker_take(struct worker *w, const struct job *job, const struct budget *b,
                 struct check_result *r, char **log)
{
    bool memory = false;
    if (complete(w)) {
        decode(w, r);
        if (w->retiring || w->killed)   /* what is left on its stderr is a later job's */
            reap(w, false);
    } else {
        memory = explain(w, job, b, reap(w, true), r);
    }
    *log = w->log_len > 0 && !memory ? xstrdup(w->log) : NULL;
    w->log_len = 0;
    w->log[0] = '\0';
    w->job = -1;
    if (w->pid && w->nqueued > 0) {   /* it started the next job as it sent this result */
        begin(w, w->queued[0].job, b);
        memmove(w->queued, w->queued + 1, (size_t)--w->nqueued * sizeof *w->queued);
    }
}

int worker_unstarted(struct worker *w, int *jobs)
{
    int count = w->pid ? 0 : w->nqueued;
    for (int k = 0; k < count; k++)
        jobs[k] = w->queued[k].job;
    if (!w->pid)
        w->nqueued = 0;
    return count;
}

void worker_stop(struct worker *w)
{
    reap(w, true);
}
