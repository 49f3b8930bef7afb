/* Parses and programs kept for a later check of the same file, found by
 * path in a chained hash table; an entry holds the bytes it parsed, to
 * compare. */
#include "program/load_memo.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/text_hash.h"

/* The most parses kept at once: past it, a parse is not kept (a worker's
 * later check of the file may have gone to another worker). */
#define MEMO_MOST 4096

/* A kept parse: the litmus of text (len bytes) read from path for grid,
 * and its program unrolled to bound once a check has asked for it. */
struct entry {
    struct entry *next;      /* in its bucket */
    char *path, *text;       /* one allocation: the path, its NUL, the text */
    size_t len;
    bool has_grid;
    int grid[3];
    struct litmus *lit;
    struct program *p;       /* NULL until made */
    int bound;
    int users;               /* checks using lit now */
};

static struct {
    struct entry **buckets;
    size_t mask;             /* buckets - 1, a power of two minus one */
    int n;
    const char *keep;        /* load_memo_keep's path */
    /* the program of an entry whose litmus the last load_memo_litmus
     * handed to its caller, for load_memo_program (freed by the next
     * load_memo_litmus when not asked for) */
    const struct litmus *handed_lit;
    struct program *handed;
    int handed_bound;
} memo;

void load_memo_keep(const char *path)
{
    memo.keep = path;
}

/* The bucket of path. */
static struct entry **bucket_of(const char *path)
{
    return &memo.buckets[text_hash(0, path) & memo.mask];
}

/* The entry for path and grid, or NULL. */
static struct entry *find(const char *path, const int *grid)
{
    if (!memo.buckets)
        return NULL;
    for (struct entry *e = *bucket_of(path); e; e = e->next)
        if (strcmp(e->path, path) == 0 && e->has_grid == (grid != NULL)
            && (!grid || memcmp(e->grid, grid, sizeof e->grid) == 0))
            return e;
    return NULL;
}

/* Takes e out of the table and frees it: its program and litmus when
 * free_lit, else the litmus goes to the caller and the program is
 * handed over with it. */
static void drop(struct entry *e, bool free_lit)
{
    struct entry **at = bucket_of(e->path);
    while (*at != e)
        at = &(*at)->next;
    *at = e->next;
    if (free_lit) {
        program_free(e->p);
        litmus_free(e->lit);
    } else {
        memo.handed_lit = e->lit;
        memo.handed = e->p;
        memo.handed_bound = e->bound;
    }
    free(e->path);
    free(e);
    memo.n--;
}

/* Doubles the buckets when the entries outnumber them (at first, makes
 * them); false when out of memory. */
static bool make_room(void)
{
    if (memo.buckets && (size_t)memo.n <= memo.mask)
        return true;
    size_t count = memo.buckets ? 2 * (memo.mask + 1) : 64;
    struct entry **buckets = calloc(count, sizeof *buckets);
    if (!buckets)
        return false;
    for (size_t b = 0; memo.buckets && b <= memo.mask; b++)
        for (struct entry *e = memo.buckets[b], *next; e; e = next) {
            next = e->next;
            struct entry **to = &buckets[text_hash(0, e->path) & (count - 1)];
            e->next = *to;
            *to = e;
        }
    free(memo.buckets);
    memo.buckets = buckets;
    memo.mask = count - 1;
    return true;
}

/* Moves the block at *block into one of bytes, its used part (nothing when
 * bytes is 0 or no block is to be had): the room a growing array took is
 * given back to serve the next parse instead of fresh pages. */
static void fit_block(void **block, size_t bytes)
{
    void *fitted = bytes > 0 ? malloc(bytes) : NULL;
    if (fitted) {
        memcpy(fitted, *block, bytes);
        free(*block);
        *block = fitted;
    }
}

/* Fits each thread's instructions of lit: the parser doubles the array as
 * it reads, and about 40% of it is room a kept parse would hold until its
 * later check. */
static void fit_instrs(struct litmus *lit)
{
    for (int i = 0; i < lit->nthreads; i++) {
        struct thread *t = &lit->threads[i];
        void *instrs = t->instrs;
        fit_block(&instrs, (size_t)t->ninstrs * sizeof *t->instrs);
        t->instrs = instrs;
    }
}

/* Fits p's events: program_build takes room for two a micro-op, a few
 * times what most programs make. */
static void fit_events(struct program *p)
{
    void *events = p->events;
    fit_block(&events, (size_t)p->nevents * sizeof *p->events);
    p->events = events;
}

/* Keeps lit, parsed from the len bytes at text read from path for grid
 * (in use by one check); false when out of memory or room. */
static bool add(const char *path, const int *grid, const char *text, size_t len, struct litmus *lit)
{
    size_t path_len = strlen(path);
    struct entry *e = memo.n < MEMO_MOST && make_room() ? malloc(sizeof *e) : NULL;
    char *bytes = e ? malloc(path_len + 1 + len) : NULL;
    if (!bytes) {
        free(e);
        return false;
    }
    *e = (struct entry){ .path = bytes, .text = bytes + path_len + 1, .len = len, .has_grid = grid != NULL,
                         .lit = lit, .users = 1 };
    memcpy(e->path, path, path_len + 1);
    memcpy(e->text, text, len);
    if (grid)
        memcpy(e->grid, grid, sizeof e->grid);
    struct entry **at = bucket_of(path);
    e->next = *at;
    *at = e;
    memo.n++;
    fit_instrs(lit);
    return true;
}

struct litmus *load_memo_litmus(const char *path, const int *grid, struct litmus_error *err, bool *kept)
{
    *kept = false;
    program_free(memo.handed);   /* handed over and not asked for */
    memo.handed = NULL;
    memo.handed_lit = NULL;
    if (!path)
        return litmus_parse_file_grid(path, grid, err);
    memset(err, 0, sizeof *err);
    char small[LITMUS_SMALL_FILE_BYTES];
    size_t len;
    char *text = litmus_read_file(path, &len, err, small);
    if (!text)
        return NULL;
    bool keep = memo.keep && strcmp(memo.keep, path) == 0;
    struct entry *e = find(path, grid);
    struct litmus *lit = NULL;
    if (e && e->users == 0 && e->len == len && memcmp(e->text, text, len) == 0) {   /* the same bytes */
        lit = e->lit;
        if (keep)
            e->users++;
        else
            drop(e, false);   /* its last check: the caller's now */
        *kept = keep;
    } else {
        if (e && e->users == 0) {   /* the file changed */
            drop(e, true);
            e = NULL;
        }
        lit = litmus_parse_read(path, text, len, grid, err);
        *kept = lit && keep && !e && add(path, grid, text, len, lit);
    }
    if (text != small)
        free(text);
    return lit;
}

/* The entry that keeps l, or NULL. */
static struct entry *entry_of(const struct litmus *l)
{
    for (struct entry *e = memo.buckets && l->path ? *bucket_of(l->path) : NULL; e; e = e->next)
        if (e->lit == l)
            return e;
    return NULL;
}

struct program *load_memo_program(const struct litmus *l, int bound, char *msg, int msglen, bool *kept)
{
    *kept = false;
    if (memo.handed && memo.handed_lit == l && memo.handed_bound == bound) {   /* the caller's now */
        struct program *p = memo.handed;
        memo.handed = NULL;
        return p;
    }
    struct entry *e = entry_of(l);
    if (e && e->p && e->bound == bound) {
        *kept = true;
        return e->p;
    }
    struct program *p = program_build(l, bound, msg, msglen);
    if (e && p && !e->p) {
        fit_events(p);
        e->p = p;
        e->bound = bound;
        *kept = true;
    }
    return p;
}

void load_memo_give_back(const struct litmus *l)
{
    struct entry *e = entry_of(l);
    if (e)
        e->users--;
}
