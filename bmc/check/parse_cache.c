/* Parsed tests kept for a later check of the same file, each until that
 * check, checked against the file's identity before reuse. */
#include "bmc/check/parse_cache.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/xalloc.h"

/* The most tests kept at once (a PTX or Vulkan test takes about 2 KB):
 * more would save a little more parsing, but grow a worker's heap, whose
 * new pages cost more than the parsing they save. */
enum { PARSE_CACHE_MAX = 64 };

/* What tells a file apart from the one parsed earlier: a rewrite changes
 * its modification time or size, a replacement its inode. */
struct file_identity {
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
};

/* One kept test: the file and how it was parsed, and the check it waits for. */
struct kept_test {
    char *path;
    struct litmus *lit;
    struct file_identity id;
    int grid[3];
    bool has_grid, drop_filter;
    int next_job;            /* the later check of path that will use it; -1: none */
};

static struct {
    struct kept_test *kept;
    int n, cap;
    int job, next;           /* the check under way and its file's next check */
    const char *file;        /* its file; NULL: no plan */
    bool waiting;            /* a kept test waits for this check */
} cache;

/* Frees kept test k, moving the last one into its place. */
static void drop(int k)
{
    litmus_free(cache.kept[k].lit);
    free(cache.kept[k].path);
    cache.kept[k] = cache.kept[--cache.n];
}

void parse_cache_plan(int job, const char *file, int next)
{
    cache.waiting = false;
    for (int k = cache.n - 1; k >= 0; k--)
        if (cache.kept[k].next_job < job)
            drop(k);
        else
            cache.waiting |= cache.kept[k].next_job == job;
    cache.job = job;
    cache.file = file;
    cache.next = next;
}

void parse_cache_clear(void)
{
    while (cache.n > 0)
        drop(cache.n - 1);
    free(cache.kept);
    memset(&cache, 0, sizeof cache);
}

/* The identity stat gave. */
static struct file_identity identity_of(const struct stat *st)
{
    return (struct file_identity){ st->st_dev, st->st_ino, st->st_size, st->st_mtim };
}

/* True when a and b name the same unchanged file. */
static bool same_identity(const struct file_identity *a, const struct file_identity *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mtime.tv_sec == b->mtime.tv_sec
           && a->mtime.tv_nsec == b->mtime.tv_nsec;
}

/* The kept test of path parsed as asked that this check may use, or -1. */
static int find(const char *path, const int *grid, bool drop_filter)
{
    for (int k = 0; k < cache.n; k++) {
        const struct kept_test *t = &cache.kept[k];
        if ((t->next_job == cache.job || (cache.next >= 0 && t->next_job == cache.next))
            && t->drop_filter == drop_filter && t->has_grid == (grid != NULL)
            && (!grid || memcmp(t->grid, grid, sizeof t->grid) == 0) && strcmp(t->path, path) == 0)
            return k;
    }
    return -1;
}

/* The kept test needed last, or -1 when none is kept. */
static int needed_last(void)
{
    int last = cache.n > 0 ? 0 : -1;
    for (int k = 1; k < cache.n; k++)
        if (cache.kept[k].next_job > cache.kept[last].next_job)
            last = k;
    return last;
}

/* True when this check's test may be kept for check cache.next: fewer
 * than PARSE_CACHE_MAX are kept, or one is needed later than it (and not
 * by this check, then: every test it holds is needed at cache.next or
 * never again). */
static bool room_for_next(void)
{
    return cache.next >= 0 && (cache.n < PARSE_CACHE_MAX || cache.kept[needed_last()].next_job > cache.next);
}

/* Reads and parses path as litmus_parse_file_grid does, the filter dropped when asked. */
static struct litmus *parse(const char *path, const int *grid, bool drop_filter, struct litmus_error *err)
{
    struct litmus *l = litmus_parse_file_grid(path, grid, err);
    if (l && drop_filter)
        litmus_drop_filter(l);
    return l;
}

const struct litmus *parse_cache_load(const char *path, const int *grid, bool drop_filter,
                                      struct litmus_error *err, struct litmus **own)
{
    struct stat st;
    *own = NULL;
    if (!cache.file || (!cache.waiting && !room_for_next()) || !path || strcmp(path, cache.file) != 0
        || stat(path, &st) != 0)
        return *own = parse(path, grid, drop_filter, err);
    struct file_identity id = identity_of(&st);   /* taken before reading: a later change shows */
    int k = find(path, grid, drop_filter);
    if (k >= 0 && same_identity(&cache.kept[k].id, &id)) {
        cache.kept[k].next_job = cache.next;
        return cache.kept[k].lit;
    }
    if (k >= 0)   /* stale: dropped at the next plan, as this check may still hold it */
        cache.kept[k].next_job = -1;
    struct litmus *l = parse(path, grid, drop_filter, err);
    if (!l || !room_for_next())
        return *own = l;
    if (cache.n >= PARSE_CACHE_MAX)
        drop(needed_last());
    XGROW(cache.kept, cache.cap, cache.n + 1);
    struct kept_test *t = &cache.kept[cache.n++];
    *t = (struct kept_test){ xstrdup(path), l, id, { 0 }, grid != NULL, drop_filter, cache.next };
    if (grid)
        memcpy(t->grid, grid, sizeof t->grid);
    return l;
}
