/* Files read ahead a group at a time through io_uring (read_ahead.h).
 *
 * A group is two submissions and an fstat per file between them: each
 * file's openat (without blocking, as the caller opens it), then, for
 * each descriptor that fstat shows a regular file, a read of its size
 * and one byte more linked to its close (a close alone for the others).
 * The fstat is a system call of its own: io_uring's statx always runs on
 * a kernel worker thread, which costs more.  A file is held whole when
 * the read returned exactly the size fstat gave: a file that grew, shrank
 * or is no regular file is left to the caller, which then reads it (and
 * reports what is wrong with it) as if nothing had been read ahead. */
#define _GNU_SOURCE   /* for MAP_POPULATE and syscall */
#include "util/read_ahead.h"

#include <string.h>

#if defined(__linux__) && defined(__has_include)
#if __has_include(<linux/io_uring.h>)
#define HAVE_IO_URING 1
#endif
#endif

#ifdef HAVE_IO_URING
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/xalloc.h"

/* How long a file read ahead is used, in seconds: a file changed (or
 * replaced by a FIFO) later than this before its check is read again,
 * as a check behind a long one would otherwise see an old version. */
#define FRESH_FOR_S 0.05

/* Files this long or longer are not read ahead: the parser takes a file
 * from a read ahead only into its 8 KB buffer (litmus/parser.c), and a
 * longer one is read again at its check. */
#define LONGEST_READ_AHEAD 8192

/* Submission slots: two operations per file and round. */
#define RING_ENTRIES (2 * READ_AHEAD_FILES)

/* The operations of a file, in the low bits of each one's user_data. */
enum op { OP_OPEN, OP_READ, OP_CLOSE, OP_KINDS };

/* One file of the group: what openat, fstat and the read returned, and
 * where its bytes are in the arena. */
struct held_file {
    const char *path;
    int fd;             /* a descriptor, or -errno */
    bool regular;       /* fstat said a regular file of size bytes */
    size_t size;
    long got;           /* bytes read, or -errno, or -1 when not read */
    size_t at;
};

static struct held_file group[READ_AHEAD_FILES];
static int ngroup;
static double group_read_at;   /* monotonic seconds */

/* The group's bytes, one file after another. */
static char *arena;
static size_t arena_cap;

/* The ring, mapped; fd -1 when it could not be made or failed. */
static struct {
    bool tried;
    int fd;
    unsigned *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
    struct io_uring_sqe *sqes;
    struct io_uring_cqe *cqes;
} ring = { .fd = -1 };

/* Monotonic seconds (a vDSO call on Linux, no system call). */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Maps len bytes of the ring's region at offset; NULL on failure. */
static void *map_ring(size_t len, off_t offset)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring.fd, offset);
    return p == MAP_FAILED ? NULL : p;
}

/* Makes the ring on first use; false when the kernel refuses it. */
static bool ring_ready(void)
{
    if (ring.tried)
        return ring.fd >= 0;
    ring.tried = true;
    struct io_uring_params p;
    memset(&p, 0, sizeof p);
    ring.fd = (int)syscall(__NR_io_uring_setup, RING_ENTRIES, &p);
    if (ring.fd < 0)
        return false;
    size_t sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
    size_t cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
    bool one_map = p.features & IORING_FEAT_SINGLE_MMAP;
    if (one_map && cq_len > sq_len)
        sq_len = cq_len;
    char *sq = map_ring(sq_len, IORING_OFF_SQ_RING);
    char *cq = one_map ? sq : map_ring(cq_len, IORING_OFF_CQ_RING);
    ring.sqes = map_ring(p.sq_entries * sizeof(struct io_uring_sqe), IORING_OFF_SQES);
    if (!sq || !cq || !ring.sqes || p.sq_entries < RING_ENTRIES) {
        close(ring.fd);   /* what was mapped stays, unused */
        ring.fd = -1;
        return false;
    }
    ring.sq_tail = (unsigned *)(sq + p.sq_off.tail);
    ring.sq_mask = (unsigned *)(sq + p.sq_off.ring_mask);
    ring.sq_array = (unsigned *)(sq + p.sq_off.array);
    ring.cq_head = (unsigned *)(cq + p.cq_off.head);
    ring.cq_tail = (unsigned *)(cq + p.cq_off.tail);
    ring.cq_mask = (unsigned *)(cq + p.cq_off.ring_mask);
    ring.cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
    return true;
}

/* A cleared submission entry for operation op of file i, queued at *tail. */
static struct io_uring_sqe *queue(unsigned *tail, int i, enum op op)
{
    unsigned slot = *tail & *ring.sq_mask;
    struct io_uring_sqe *s = &ring.sqes[slot];
    static const unsigned char opcode[OP_KINDS] = {
        [OP_OPEN] = IORING_OP_OPENAT,
        [OP_READ] = IORING_OP_READ, [OP_CLOSE] = IORING_OP_CLOSE,
    };
    memset(s, 0, sizeof *s);
    s->opcode = opcode[op];
    s->user_data = (uint64_t)i * OP_KINDS + op;
    ring.sq_array[slot] = slot;
    ++*tail;
    return s;
}

/* Notes a completed operation's result in its file. */
static void note(const struct io_uring_cqe *c)
{
    struct held_file *h = &group[c->user_data / OP_KINDS];
    switch ((enum op)(c->user_data % OP_KINDS)) {
    case OP_OPEN: h->fd = c->res; break;
    case OP_READ: h->got = c->res; break;
    case OP_CLOSE: break;
    case OP_KINDS: break;
    }
}

/* Submits the n operations queued up to tail and waits for them all.
 * False when the ring failed: it is then given up for good, and so is
 * the arena, which an operation still in flight may write to. */
static bool run(unsigned tail, unsigned n)
{
    __atomic_store_n(ring.sq_tail, tail, __ATOMIC_RELEASE);
    unsigned submitted = 0, done = 0;
    while (done < n) {
        int k = (int)syscall(__NR_io_uring_enter, ring.fd, n - submitted, n - done, IORING_ENTER_GETEVENTS,
                             NULL, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 || (k == 0 && submitted < n && done == submitted)) {
            ring.fd = -1;   /* the ring and its descriptor are kept, never used again */
            arena = NULL;
            arena_cap = 0;
            ngroup = 0;
            return false;
        }
        submitted += (unsigned)k;
        unsigned head = *ring.cq_head, end = __atomic_load_n(ring.cq_tail, __ATOMIC_ACQUIRE);
        for (; head != end; head++, done++)
            note(&ring.cqes[head & *ring.cq_mask]);
        __atomic_store_n(ring.cq_head, head, __ATOMIC_RELEASE);
    }
    return true;
}

/* Notes whether the file opened at h is a regular file short enough to
 * read ahead, and its size. */
static void note_kind(struct held_file *h)
{
    struct stat st;
    h->regular = h->fd >= 0 && fstat(h->fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < LONGEST_READ_AHEAD;
    h->size = h->regular ? (size_t)st.st_size : 0;
}

void read_ahead(const char *const *paths, int n)
{
    ngroup = 0;
    if (n <= 0 || !ring_ready())
        return;
    n = n < READ_AHEAD_FILES ? n : READ_AHEAD_FILES;
    unsigned tail = *ring.sq_tail;
    for (int i = 0; i < n; i++) {
        group[i] = (struct held_file){ .path = paths[i], .fd = -1, .got = -1 };
        struct io_uring_sqe *s = queue(&tail, i, OP_OPEN);
        s->fd = AT_FDCWD;
        s->addr = (uintptr_t)paths[i];
        s->open_flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC;
    }
    if (!run(tail, (unsigned)n))
        return;
    size_t need = 0;
    for (int i = 0; i < n; i++) {
        note_kind(&group[i]);
        if (group[i].regular) {
            group[i].at = need;
            need += group[i].size + 1;
        }
    }
    if (need > arena_cap) {
        arena_cap = 2 * need;
        arena = xrealloc(arena, arena_cap);
    }
    unsigned ops = 0;
    for (int i = 0; i < n; i++) {
        if (group[i].fd < 0)
            continue;
        if (group[i].regular) {   /* one byte more than its size: a file that grew reads more */
            struct io_uring_sqe *s = queue(&tail, i, OP_READ);
            s->fd = group[i].fd;
            s->addr = (uintptr_t)(arena + group[i].at);
            s->len = (unsigned)group[i].size + 1;
            s->flags = IOSQE_IO_HARDLINK;   /* the close follows even a short read */
            ops++;
        }
        queue(&tail, i, OP_CLOSE)->fd = group[i].fd;
        ops++;
    }
    if (run(tail, ops)) {
        ngroup = n;
        group_read_at = now_s();
    }
}

/* The held file at path, or NULL: first by the pointer alone (a check
 * mostly asks with the string its group was read with), then by the text
 * (a path listed twice in a group was read twice alike). */
static const struct held_file *held(const char *path)
{
    for (int i = 0; i < ngroup; i++)
        if (group[i].path == path)
            return &group[i];
    for (int i = 0; i < ngroup; i++)
        if (strcmp(group[i].path, path) == 0)
            return &group[i];
    return NULL;
}

bool read_ahead_holds(const char *path)
{
    return held(path) != NULL;
}

bool read_ahead_take(const char *path, char *buf, size_t cap, size_t *len)
{
    const struct held_file *h = held(path);
    if (!h || !h->regular || h->got < 0 || (size_t)h->got != h->size || h->size + 1 >= cap
        || now_s() - group_read_at > FRESH_FOR_S)
        return false;
    memcpy(buf, arena + h->at, (size_t)h->got);
    buf[h->got] = '\0';
    *len = (size_t)h->got;
    return true;
}

#else   /* no io_uring: nothing is read ahead */

void read_ahead(const char *const *paths, int n)
{
    (void)paths;
    (void)n;
}

bool read_ahead_holds(const char *path)
{
    (void)path;
    return false;
}

bool read_ahead_take(const char *path, char *buf, size_t cap, size_t *len)
{
    (void)path;
    (void)buf;
    (void)cap;
    (void)len;
    return false;
}

#endif
