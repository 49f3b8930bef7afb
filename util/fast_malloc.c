/* malloc, calloc, realloc, free and the rest of glibc's "Replacing malloc"
 * set, for a process that runs on one thread: each block of up to 128 KiB
 * is of a size class (16-byte steps to 1 KiB, then four classes per
 * doubling), freed blocks are kept on their class's list, the last freed
 * first, and new ones are carved from big mappings; larger blocks are
 * mappings of their own.  No coalescing, no bins to sort: a
 * worker allocates the same shapes check after check, and each freed
 * block comes back as it was.  Memory fresh from a mapping is zero, so
 * calloc clears only blocks that were used before.  gpubmc and its
 * workers run one thread each, with no lock taken; once a process has
 * started a thread (Pango's font loading, in a picture's child), every
 * call takes a spin lock.  The sanitizer
 * builds keep the library's allocator, which their checks watch. */
#define _GNU_SOURCE   /* for mremap */
#include <stddef.h>
#include <stdint.h>

#if defined(__SANITIZE_ADDRESS__) || !defined(__GLIBC__)
#define OWN_MALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OWN_MALLOC 0
#endif
#endif
#ifndef OWN_MALLOC
#define OWN_MALLOC 1
#endif

#if OWN_MALLOC
#include <errno.h>
#include <malloc.h>
#include <sched.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <sys/single_threaded.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum {
    HEAD = 16,                  /* each block's header; keeps 16-byte alignment */
    STEP = 16,
    FINE_CLASSES = 64,          /* 16, 32, ... 1024 bytes */
    FINE_LIMIT = FINE_CLASSES * STEP,
    LOG_FINE_LIMIT = 10,
    LOG_KEPT_LIMIT = 17,        /* classes up to 128 KiB */
    CLASSES = FINE_CLASSES + 1 + (LOG_KEPT_LIMIT - LOG_FINE_LIMIT) * 4,
    MAPPED = CLASSES,           /* class words from here: a block with a mapping of its own */
    ARENA_BYTES = 1 << 20       /* more than the largest kept class */
};
#define KEPT_LIMIT ((size_t)1 << LOG_KEPT_LIMIT)

/* Before each block: its class; for a block with a mapping of its own,
 * MAPPED plus its distance from the mapping's start, and the mapping's
 * length. */
struct head {
    size_t cls;
    size_t map_bytes;
};

struct free_block { struct free_block *next; };

static struct free_block *kept[CLASSES];
static atomic_flag busy = ATOMIC_FLAG_INIT;   /* taken only once a thread was started */
static char *arena_next, *arena_end;   /* the unused, zero part of the current mapping */

/* The class of a request of n bytes (1 <= n <= KEPT_LIMIT). */
static size_t class_of(size_t n)
{
    if (n <= FINE_LIMIT)
        return (n + STEP - 1) / STEP - (n != 0);
    unsigned m = 63 - (unsigned)__builtin_clzl(n - 1);   /* 2^m < n <= 2^(m+1) */
    size_t step = (size_t)1 << (m - 2);
    size_t q = (n + step - 1) / step;                    /* 5 to 8 */
    return FINE_CLASSES + (m - LOG_FINE_LIMIT) * 4 + (q - 5);
}

/* The bytes a block of class c holds. */
static size_t class_bytes(size_t c)
{
    if (c < FINE_CLASSES)
        return (c + 1) * STEP;
    size_t i = c - FINE_CLASSES;
    unsigned m = LOG_FINE_LIMIT + (unsigned)(i / 4);
    return ((size_t)1 << (m - 2)) * (5 + i % 4);
}

static struct head *head_of(void *p) { return (struct head *)((char *)p - HEAD); }

/* A fresh zero mapping of n bytes, or NULL. */
static void *map_zero(size_t n)
{
    void *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return m == MAP_FAILED ? NULL : m;
}

static size_t page_round(size_t n)
{
    size_t page = 4096;
    return (n + page - 1) / page * page;
}

/* A block of n bytes whose address is a multiple of align (a power of two
 * of at least 16), in a mapping of its own; zero. */
static __attribute__((noinline)) void *take_mapped(size_t n, size_t align)
{
    size_t before = align < HEAD ? HEAD : align;
    if (n > SIZE_MAX - before - 4096 - align) {
        errno = ENOMEM;
        return NULL;
    }
    size_t len = page_round(before + n + (align > 4096 ? align : 0));
    char *m = map_zero(len);
    if (!m) {
        errno = ENOMEM;
        return NULL;
    }
    uintptr_t at = ((uintptr_t)m + before + align - 1) / align * align;
    char *p = (char *)at;
    head_of(p)->cls = MAPPED + (size_t)(p - m);
    head_of(p)->map_bytes = len;
    return p;
}

/* A new block of class c, carved from the current mapping (or a new one):
 * zero. */
static void *carve(size_t c)
{
    size_t need = HEAD + class_bytes(c);
    if ((size_t)(arena_end - arena_next) < need) {   /* the rest stays unused */
        char *m = map_zero(ARENA_BYTES);
        if (!m) {
            errno = ENOMEM;
            return NULL;
        }
        arena_next = m;
        arena_end = m + ARENA_BYTES;
    }
    char *b = arena_next;
    arena_next += need;
    ((struct head *)b)->cls = c;
    return b + HEAD;
}

/* A block of n bytes; *zero set when it is known to be zero.  Inline in
 * each of the malloc family: no call within the call. */
static inline __attribute__((always_inline)) void *take(size_t n, int *zero)
{
    if (__builtin_expect(n > KEPT_LIMIT, 0)) {
        *zero = 1;
        return take_mapped(n, STEP);
    }
    size_t c = class_of(n);
    struct free_block *b = kept[c];
    if (__builtin_expect(b != NULL, 1)) {
        kept[c] = b->next;
        *zero = 0;
        return b;
    }
    *zero = 1;
    return carve(c);
}

/* The bytes the block at p holds. */
static size_t usable(void *p)
{
    struct head *h = head_of(p);
    if (h->cls >= MAPPED)
        return h->map_bytes - (h->cls - MAPPED);
    return class_bytes(h->cls);
}

/* Whether the process has started a thread: each call then takes the
 * lock (the *_locked paths, out of line, so that the others need no
 * stack frame). */
#define THREADED __builtin_expect(!__libc_single_threaded, 0)

/* Takes the lock. */
static void lock(void)
{
    while (atomic_flag_test_and_set_explicit(&busy, memory_order_acquire))
        sched_yield();
}

/* Gives the lock back. */
static void unlock(void)
{
    atomic_flag_clear_explicit(&busy, memory_order_release);
}

static inline __attribute__((always_inline)) void *malloc_unlocked(size_t n)
{
    int zero;
    return take(n, &zero);
}

/* Unmaps the block at p, which has a mapping of its own. */
static __attribute__((noinline)) void free_mapped(void *p)
{
    struct head *h = head_of(p);
    munmap((char *)p - (h->cls - MAPPED), h->map_bytes);
}

static inline __attribute__((always_inline)) void free_unlocked(void *p)
{
    if (!p)
        return;
    struct head *h = head_of(p);
    if (__builtin_expect(h->cls >= MAPPED, 0)) {
        free_mapped(p);
        return;
    }
    struct free_block *b = p;
    b->next = kept[h->cls];
    kept[h->cls] = b;
}

/* Clears the first n bytes of p, a reused block of a kept class: up to
 * 128 bytes (most calloc calls) in 16-byte stores, rounding n up to 16,
 * at least 16 (the block holds that much), without a call to memset. */
static inline __attribute__((always_inline)) void clear_reused(char *p, size_t n)
{
    size_t r = n <= STEP ? STEP : (n + STEP - 1) & ~(size_t)(STEP - 1);
    if (r <= 32) {
        memset(p, 0, 16);
        memset(p + r - 16, 0, 16);   /* the same 16 bytes when r is 16 */
    } else if (r <= 64) {
        memset(p, 0, 32);
        memset(p + r - 32, 0, 32);
    } else if (r <= 128) {
        memset(p, 0, 64);
        memset(p + r - 64, 0, 64);
    } else {
        memset(p, 0, n);
    }
}

static inline __attribute__((always_inline)) void *calloc_unlocked(size_t n, size_t size)
{
    size_t bytes;
    if (__builtin_expect(__builtin_mul_overflow(n, size, &bytes), 0)) {
        errno = ENOMEM;
        return NULL;
    }
    int zero;
    void *p = take(bytes, &zero);
    if (p && !zero)
        clear_reused(p, bytes);
    return p;
}

/* realloc of a block of its own mapping, or to a block of another class. */
static __attribute__((noinline)) void *realloc_moving(void *p, size_t n, size_t have)
{
    struct head *h = head_of(p);
    if (h->cls == MAPPED + HEAD && n > KEPT_LIMIT) {   /* a mapping grows or shrinks in place */
        size_t len = page_round(HEAD + n);
        struct head *moved = mremap(h, h->map_bytes, len, MREMAP_MAYMOVE);
        if (moved == MAP_FAILED) {
            errno = ENOMEM;
            return NULL;
        }
        moved->map_bytes = len;
        return (char *)moved + HEAD;
    }
    void *q = malloc_unlocked(n);
    if (!q)
        return NULL;
    memcpy(q, p, n < have ? n : have);
    free_unlocked(p);
    return q;
}

static inline __attribute__((always_inline)) void *realloc_unlocked(void *p, size_t n)
{
    if (!p)
        return malloc_unlocked(n);
    if (n == 0) {
        free_unlocked(p);
        return NULL;
    }
    size_t have = usable(p);
    struct head *h = head_of(p);
    if (h->cls < MAPPED && n <= have && (n > have / 2 || have <= FINE_LIMIT))
        return p;   /* fits, and not a big block mostly left empty */
    return realloc_moving(p, n, have);
}

static __attribute__((noinline, cold)) void *malloc_locked(size_t n)
{
    lock();
    void *p = malloc_unlocked(n);
    unlock();
    return p;
}

static __attribute__((noinline, cold)) void free_locked(void *p)
{
    lock();
    free_unlocked(p);
    unlock();
}

static __attribute__((noinline, cold)) void *calloc_locked(size_t n, size_t size)
{
    lock();
    void *p = calloc_unlocked(n, size);
    unlock();
    return p;
}

static __attribute__((noinline, cold)) void *realloc_locked(void *p, size_t n)
{
    lock();
    void *q = realloc_unlocked(p, n);
    unlock();
    return q;
}

void *malloc(size_t n)
{
    if (THREADED)
        return malloc_locked(n);
    return malloc_unlocked(n);
}

void free(void *p)
{
    if (THREADED)
        free_locked(p);
    else
        free_unlocked(p);
}

void *calloc(size_t n, size_t size)
{
    if (THREADED)
        return calloc_locked(n, size);
    return calloc_unlocked(n, size);
}

void *realloc(void *p, size_t n)
{
    if (THREADED)
        return realloc_locked(p, n);
    return realloc_unlocked(p, n);
}

size_t malloc_usable_size(void *p)
{
    return p ? usable(p) : 0;
}

/* Aligned requests: plain blocks are 16-byte aligned; wider alignments
 * get a mapping of their own. */
static void *take_aligned(size_t align, size_t n)
{
    bool locked = THREADED;
    if (locked)
        lock();
    void *p = align <= STEP ? malloc_unlocked(n) : take_mapped(n, align);
    if (locked)
        unlock();
    return p;
}

void *aligned_alloc(size_t align, size_t n)
{
    if (align == 0 || (align & (align - 1))) {
        errno = EINVAL;
        return NULL;
    }
    return take_aligned(align, n);
}

void *memalign(size_t align, size_t n)
{
    return aligned_alloc(align, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
    if (align < sizeof(void *) || (align & (align - 1)))
        return EINVAL;
    void *p = take_aligned(align, n);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

void *valloc(size_t n)
{
    return take_aligned(4096, n);
}

void *pvalloc(size_t n)
{
    return take_aligned(4096, page_round(n ? n : 1));
}

#endif
