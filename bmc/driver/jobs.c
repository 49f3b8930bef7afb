/* Building the job list: input files, corpus CSVs, sharding. */
#define _DEFAULT_SOURCE   /* for realpath */
#include "bmc/driver/jobs.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bmc/driver/expect.h"
#include "bmc/driver/inputs.h"
#include "litmus/spirv.h"
#include "util/text_hash.h"
#include "util/xalloc.h"
#include "models/model.h"

struct merge_table;

/* Adds a job for file (of hash file_hash: expect_file_hash) under o, l's
 * copy of its options (job_opts), merged with an earlier one where it can
 * be (keep_or_merge). */
static void add_job(struct merge_table *t, struct job_list *l, const char *file, unsigned file_hash,
                    const struct job_spec *spec, const struct check_opts *o, bool has_expected,
                    enum verdict expected, const char *error);

/* l's copy of options o (made when l has none equal to it). */
static const struct check_opts *job_opts(struct job_list *l, const struct check_opts *o);

/* l's copy of a CSV row's options o (job_opts), the last one's again
 * when o is the last row's: a CSV's rows mostly share its header's. */
static const struct check_opts *row_opts(struct merge_table *t, struct job_list *l, const struct check_opts *o);

/* Makes room in t for the groups, sets and kept jobs of n jobs at once
 * (not in its hash table, which grows with the groups: only termination
 * jobs make any, one per file, model and bound). */
static void merge_table_reserve(struct merge_table *t, int n);

/* Orders row indices by the rows' real paths, then by place. */
static const struct rows *sorting_rows;

static int compare_rows(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    int c = strcmp(sorting_rows->r[x].real, sorting_rows->r[y].real);
    return c ? c : (x > y) - (x < y);
}

/* The first of the n sorted row indices whose real path is real, or n. */
static int first_row_of(const struct rows *rows, const int *sorted, int n, const char *real)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (strcmp(rows->r[sorted[mid]].real, real) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Whether the file's language makes barrier divergence undefined
 * behaviour: SPIR-V, and OpenCL litmus tests. */
static bool divergence_undefined(const char *path)
{
    enum dialect d;
    return spirv_path(path) || (litmus_file_dialect(path, &d) && d == DIALECT_OPENCL);
}

/* Jobs for the given inputs: each file's CSV rows (in their order), or
 * the CLI's properties. */
static void jobs_for_files(const struct job_request *req, const struct inputs *files,
                           const struct rows *rows, struct merge_table *t, struct job_list *out)
{
    int *sorted = xcalloc((size_t)rows->n + 1, sizeof *sorted), nsorted = 0;
    for (int k = 0; k < rows->n; k++)
        if (rows->r[k].real)
            sorted[nsorted++] = k;
    sorting_rows = rows;
    qsort(sorted, (size_t)nsorted, sizeof *sorted, compare_rows);
    for (int i = 0; i < files->n; i++) {
        const struct input *in = &files->v[i];
        char resolved[PATH_MAX];
        const char *real = in->error || nsorted == 0 ? NULL : realpath(in->path, resolved);   /* no rows: no need */
        unsigned h = expect_file_hash(in->path);
        bool matched = false;
        for (int at = real ? first_row_of(rows, sorted, nsorted, real) : nsorted;
             at < nsorted && strcmp(rows->r[sorted[at]].real, real) == 0; at++) {
            const struct row *r = &rows->r[sorted[at]];
            add_job(t, out, in->path, h, req->spec, row_opts(t, out, r->opts), true, r->expected, NULL);
            matched = true;
        }
        for (int p = 0; !matched && p < req->nproperties; p++) {
            struct check_opts o = *req->opts;
            o.property = req->properties[p];
            add_job(t, out, in->path, h, req->spec, job_opts(out, &o), false, V_ERROR, in->error);
        }
        if (!matched && !in->error && req->divergence_by_default && divergence_undefined(in->path)) {
            struct check_opts o = *req->opts;
            o.property = P_BARRIER_DIVERGENCE;
            add_job(t, out, in->path, h, req->spec, job_opts(out, &o), false, V_ERROR, NULL);
        }
    }
    free(sorted);
}

/* Jobs for every row of every CSV; a row whose file cannot be read keeps
 * its error. */
static void jobs_for_rows(const struct job_request *req, const struct rows *rows, struct merge_table *t,
                          struct job_list *out)
{
    char why[128];
    const char *problem = NULL;
    XGROW(out->jobs, out->cap, rows->n);   /* at most one each: a list that is never moved */
    merge_table_reserve(t, rows->n);
    for (int k = 0; k < rows->n; k++) {
        if (k == 0 || strcmp(rows->r[k].file, rows->r[k - 1].file) != 0)   /* looked at once per run of rows */
            problem = rows->r[k].regular ? NULL : input_problem(rows->r[k].file, why, sizeof why);
        add_job(t, out, rows->r[k].file, rows->r[k].file_hash, req->spec, row_opts(t, out, rows->r[k].opts), true,
                rows->r[k].expected, problem);
    }
}

/* False, with one message line per CSV in msg, when no row compares:
 * no row names a checked file (with paths) or an existing file (without). */
static bool some_row_compares(const struct job_request *req, const struct rows *rows,
                              const struct job_list *jobs, char *msg, int msglen)
{
    for (int i = 0; i < jobs->n && req->npaths > 0; i++)
        if (jobs->jobs[i].has_expected)
            return true;
    for (int k = 0; k < rows->n && req->npaths == 0; k++)
        if (rows->r[k].exists)
            return true;
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        snprintf(cwd, sizeof cwd, ".");
    int used = 0;
    for (int c = 0; c < req->ncsv && used < msglen; c++)
        used += snprintf(msg + used, (size_t)(msglen - used), "%s%s: error: no row names %s "
                         "(row paths are taken relative to the current directory, %s)",
                         c ? "\n" : "", req->csv[c],
                         req->npaths > 0 ? "a file given on the command line" : "an existing file", cwd);
    return false;
}

/* The progress models job j checks, as a bit set. */
static unsigned models_of(const struct job *j)
{
    return j->opts->progress_set ? j->opts->progress_set : 1u << j->opts->progress;
}

/* Records the expectations of job j per progress model in into. */
static void expect_by_model(struct job *into, const struct job *j)
{
    if (j->opts->progress_set) {
        into->expected_models |= j->expected_models;
        for (int m = 0; m < CHECK_PROGRESS_MODELS; m++)
            if (j->expected_models & (1u << m))
                into->expected_by[m] = j->expected_by[m];
    } else if (j->has_expected) {
        into->expected_models |= 1u << j->opts->progress;
        into->expected_by[j->opts->progress] = (unsigned char)j->expected;
    }
}

/* The merge groups (termination jobs of one file, model and bound
 * without an error) and, per group, its kept jobs by progress model set:
 * a stack per set, whose entries may be stale (a job whose set has grown
 * since).  All in three arrays, linked by index (-1: none), not an
 * allocation per group and set. */
struct merge_push {
    int job, below;          /* a kept job, and the entry pushed before it */
};

struct merge_set {
    unsigned set;
    int top;                 /* the last entry pushed (merge_table.pushes) */
    int next;                /* the group's next set (merge_table.sets) */
};

struct merge_group {
    int first;               /* a kept job of the group, for its key */
    int sets;                /* its first set */
    unsigned long hash;      /* its key's (key_hash): the table grows without hashing
                                again, and a probe compares keys only when hashes agree */
};

/* The options of a merged job: l's copy of base's with progress_set set
 * (base one of l's copies, so that its address stands for its value). */
struct merged_opts {
    const struct check_opts *base, *merged;
    unsigned set;
};

/* The merged options remembered (merged_opts), a power of two. */
#define MERGED_OPTS 16

/* Merge groups by key, in a hash table of group indices (-1: empty). */
struct merge_table {
    int *slot;
    size_t mask;
    int n, cap;
    struct merge_group *g;
    int nsets, sets_cap;
    struct merge_set *sets;
    int npushes, pushes_cap;
    struct merge_push *pushes;
    const struct check_opts *row, *row_kept;   /* row_opts' last question and answer */
    struct merged_opts merged[MERGED_OPTS];    /* merged_opts' answers, by base and set */
};

static unsigned long key_hash(const struct job *j)
{
    uint64_t h = text_hash(1469598103934665603UL ^ j->file_hash, j->opts->model ? j->opts->model : "\x01");
    h = (h ^ (uint64_t)j->opts->bound) * 1099511628211UL;
    return (unsigned long)(h ^ h >> 29);
}

/* True when jobs a and b are in one merge group: one file, model, bound,
 * filter setting and hierarchy. */
static bool same_key(const struct job *a, const struct job *b)
{
    const struct check_opts *x = a->opts, *y = b->opts;
    bool same_model = x->model == y->model || (x->model && y->model && strcmp(x->model, y->model) == 0);
    return same_model && x->bound == y->bound && x->ignore_filter == y->ignore_filter
        && strcmp(a->file, b->file) == 0 && memcmp(&x->hierarchy, &y->hierarchy, sizeof x->hierarchy) == 0;
}

/* Jobs a and b are termination checks of one file that differ at most in
 * their progress models, and those do not overlap. */
static bool mergeable(const struct job *a, const struct job *b)
{
    return a->opts->property == P_TERMINATION && b->opts->property == P_TERMINATION && !a->error && !b->error
        && same_key(a, b) && !(models_of(a) & models_of(b));
}

/* The index of job j's merge group among the kept jobs of l, made if new. */
static int group_of(struct merge_table *t, const struct job_list *l, const struct job *j, int kept_index)
{
    unsigned long h = key_hash(j);
    size_t at = h & t->mask;
    while (t->slot[at] >= 0
           && (t->g[t->slot[at]].hash != h || !same_key(&l->jobs[t->g[t->slot[at]].first], j)))
        at = (at + 1) & t->mask;
    if (t->slot[at] < 0) {
        XGROW(t->g, t->cap, t->n + 1);
        t->g[t->n] = (struct merge_group){ .first = kept_index, .sets = -1, .hash = h };
        t->slot[at] = t->n++;
    }
    return t->slot[at];
}

/* Records that kept job k of group g now checks the progress models set. */
static void push_kept(struct merge_table *t, int g, unsigned set, int k)
{
    int s = t->g[g].sets;
    while (s >= 0 && t->sets[s].set != set)
        s = t->sets[s].next;
    if (s < 0) {
        XGROW(t->sets, t->sets_cap, t->nsets + 1);
        t->sets[t->nsets] = (struct merge_set){ .set = set, .top = -1, .next = t->g[g].sets };
        s = t->g[g].sets = t->nsets++;
    }
    XGROW(t->pushes, t->pushes_cap, t->npushes + 1);
    t->pushes[t->npushes] = (struct merge_push){ .job = k, .below = t->sets[s].top };
    t->sets[s].top = t->npushes++;
}

/* The last kept job of group g whose progress models are disjoint from
 * set, or -1. */
static int last_disjoint(struct merge_table *t, int g, const struct job_list *l, unsigned set)
{
    int best = -1;
    for (int s = t->g[g].sets; s >= 0; s = t->sets[s].next) {
        struct merge_set *st = &t->sets[s];
        if (st->set & set)
            continue;
        while (st->top >= 0 && models_of(&l->jobs[t->pushes[st->top].job]) != st->set)
            st->top = t->pushes[st->top].below;   /* stale: it has merged since */
        if (st->top >= 0 && t->pushes[st->top].job > best)
            best = t->pushes[st->top].job;
    }
    return best;
}

/* Makes t's table at most half full with groups more than it has: made
 * larger and filled again from the groups' hashes when it would not be. */
static void table_room(struct merge_table *t, int more)
{
    if (2 * ((size_t)t->n + (size_t)more) <= t->mask + 1 && t->slot)
        return;
    size_t size = t->slot ? 2 * (t->mask + 1) : 64;
    while (size < 2 * ((size_t)t->n + (size_t)more))
        size *= 2;
    free(t->slot);
    t->slot = xcalloc(size, sizeof *t->slot);
    memset(t->slot, 0xff, size * sizeof *t->slot);
    t->mask = size - 1;
    for (int k = 0; k < t->n; k++) {
        size_t at = t->g[k].hash & t->mask;
        while (t->slot[at] >= 0)
            at = (at + 1) & t->mask;
        t->slot[at] = k;
    }
}

/* The bytes of a block of job texts (a longer text gets a block of its own). */
#define TEXT_BLOCK 65536

/* A copy of the len bytes at p in l's blocks, at a multiple of align. */
static void *keep_bytes(struct job_list *l, const void *p, size_t len, size_t align)
{
    size_t skip = (align - (size_t)(uintptr_t)l->text_at % align) % align;
    if (!l->text_at || skip + len > l->text_room) {
        size_t size = len > TEXT_BLOCK ? len : TEXT_BLOCK;
        XGROW(l->blocks, l->blocks_cap, l->nblocks + 1);
        l->text_at = l->blocks[l->nblocks++] = xrealloc(NULL, size);   /* malloc's alignment; not zeroed */
        l->text_room = size;
        skip = 0;
    }
    char *copy = memcpy(l->text_at + skip, p, len);
    l->text_at += skip + len;
    l->text_room -= skip + len;
    return copy;
}

/* A copy of s in l's blocks of texts (NULL for NULL). */
static char *keep_text(struct job_list *l, const char *s)
{
    return s ? keep_bytes(l, s, strlen(s) + 1, 1) : NULL;
}

/* Where options o are, or go, in l's table of options. */
static int *opts_slot(const struct job_list *l, const struct check_opts *o)
{
    unsigned long h = (unsigned long)(uintptr_t)o->model * 31 + (unsigned long)(uintptr_t)o->cat;
    h = h * 31 + ((unsigned long)o->property << 8 | (unsigned long)o->progress);
    h = (h * 31 + o->progress_set) * 31 + (unsigned long)o->bound;
    h ^= h >> 29;
    size_t at = (h * 0x9e3779b97f4a7c15UL >> 20) & l->opts_mask;
    while (l->opts_slot[at] && memcmp(l->opts[l->opts_slot[at] - 1], o, sizeof *o) != 0)
        at = (at + 1) & l->opts_mask;
    return &l->opts_slot[at];
}

/* l's copy of options o (made when l has none equal to it): jobs share
 * their options, a few for a whole batch. */
static const struct check_opts *job_opts(struct job_list *l, const struct check_opts *o)
{
    if (2 * ((size_t)l->nopts + 1) > l->opts_mask + 1 || !l->opts_slot) {
        size_t size = l->opts_slot ? 2 * (l->opts_mask + 1) : 16;
        free(l->opts_slot);
        l->opts_slot = xcalloc(size, sizeof *l->opts_slot);
        l->opts_mask = size - 1;
        for (int k = 0; k < l->nopts; k++)
            *opts_slot(l, l->opts[k]) = k + 1;
    }
    int *slot = opts_slot(l, o);
    if (!*slot) {
        XGROW(l->opts, l->opts_cap, l->nopts + 1);
        l->opts[l->nopts++] = keep_bytes(l, o, sizeof *o, _Alignof(struct check_opts));
        *slot = l->nopts;
    }
    return l->opts[*slot - 1];
}

static const struct check_opts *row_opts(struct merge_table *t, struct job_list *l, const struct check_opts *o)
{
    if (o != t->row) {
        t->row = o;
        t->row_kept = job_opts(l, o);
    }
    return t->row_kept;
}

/* l's copy of base (one of l's copies) with progress_set set (job_opts),
 * remembered by base and set: the merges of a batch make a few. */
static const struct check_opts *merged_opts(struct merge_table *t, struct job_list *l,
                                            const struct check_opts *base, unsigned set)
{
    struct merged_opts *m = &t->merged[((uintptr_t)base / _Alignof(struct check_opts) ^ set) & (MERGED_OPTS - 1)];
    if (m->base != base || m->set != set) {
        struct check_opts o = *base;
        o.progress_set = set;
        *m = (struct merged_opts){ base, job_opts(l, &o), set };
    }
    return m->merged;
}

/* Adds job j to l, or merges it there: termination jobs of one file that
 * differ only in the progress model go into the first of them, one check,
 * one encoding, all the models.  Each job goes into the last kept job it
 * is mergeable with, found through its group's kept jobs by progress
 * model set (a set only grows, so each job is recorded at most once per
 * model: linear time).  j's file and error are copied when it is kept. */
static void keep_or_merge(struct merge_table *t, struct job_list *l, const struct job *j)
{
    XGROW(l->jobs, l->cap, l->n + 1);
    struct job *kept = &l->jobs[l->n];
    *kept = *j;
    if (j->opts->property != P_TERMINATION || j->error) {
        kept->file = keep_text(l, j->file);
        kept->error = keep_text(l, j->error);
        l->n++;
        return;
    }
    table_room(t, 1);
    int g = group_of(t, l, kept, l->n);
    int k = last_disjoint(t, g, l, models_of(kept));
    if (k < 0) {
        kept->file = keep_text(l, j->file);
        push_kept(t, g, models_of(kept), l->n++);
        return;
    }
    struct job *into = &l->jobs[k];
    assert(mergeable(into, kept));
    struct job merged = *into;
    merged.expected_models = 0;
    expect_by_model(&merged, into);
    expect_by_model(&merged, kept);
    merged.opts = merged_opts(t, l, into->opts, models_of(into) | models_of(kept));
    merged.has_expected = merged.expected_models != 0;
    *into = merged;
    push_kept(t, g, models_of(into), k);
}

static void merge_table_reserve(struct merge_table *t, int n)
{
    XGROW(t->g, t->cap, n);   /* a group, a set and an entry at most per job */
    XGROW(t->sets, t->sets_cap, n);
    XGROW(t->pushes, t->pushes_cap, n);
}

/* Frees the merge groups of t. */
static void merge_table_free(struct merge_table *t)
{
    free(t->g);
    free(t->sets);
    free(t->pushes);
    free(t->slot);
}

/* Adds a job for file under o (merged with an earlier one where it can
 * be: keep_or_merge). */
static void add_job(struct merge_table *t, struct job_list *l, const char *file, unsigned file_hash,
                    const struct job_spec *spec, const struct check_opts *o, bool has_expected,
                    enum verdict expected, const char *error)
{
    struct job j = { .file = (char *)file, .file_hash = file_hash, .spec = spec, .opts = o,
                     .has_expected = has_expected, .expected = expected, .error = (char *)error };
    keep_or_merge(t, l, &j);
}

void jobs_keep_shard(struct job_list *l, int k, int n)
{
    int kept = 0;
    for (int i = 0; i < l->n; i++) {
        if (i % n == k - 1) {
            l->jobs[i].shard_index = i + 1;
            l->jobs[kept++] = l->jobs[i];
        }
    }
    l->n = kept;
}

bool jobs_build(const struct job_request *req, struct job_list *out, char *msg, int msglen)
{
    memset(out, 0, sizeof *out);
    struct rows rows = { .want_real = req->npaths > 0 };   /* rows matched to the files given */
    bool ok = true;
    struct check_opts defaults = *req->opts;   /* a CSV without property= takes the first */
    if (req->nproperties > 0)
        defaults.property = req->properties[0];
    for (int i = 0; ok && i < req->ncsv; i++)
        ok = expect_read(req->csv[i], &defaults, &rows, msg, msglen);
    struct inputs files = { 0 };
    struct merge_table merging = { 0 };
    for (int i = 0; ok && i < req->npaths; i++)
        inputs_add(&files, req->paths[i]);
    if (ok && req->npaths > 0)
        jobs_for_files(req, &files, &rows, &merging, out);
    else if (ok)
        jobs_for_rows(req, &rows, &merging, out);
    if (ok && req->ncsv > 0)
        ok = some_row_compares(req, &rows, out, msg, msglen);
    merge_table_free(&merging);
    expect_free(&rows);
    inputs_free(&files);
    if (!ok)
        jobs_free(out);
    return ok;
}

void jobs_free(struct job_list *l)
{
    for (int b = 0; b < l->nblocks; b++)
        free(l->blocks[b]);
    free(l->blocks);
    free(l->jobs);
    free(l->opts);
    free(l->opts_slot);
    memset(l, 0, sizeof *l);
}
