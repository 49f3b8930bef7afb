/* The list of checks a run performs: files (directories searched for
 * .litmus files), properties, and expected verdicts from corpus CSVs. */
#ifndef GPUBMC_JOBS_H
#define GPUBMC_JOBS_H

#include "bmc/driver/expect.h"
#include "bmc/driver/job_check.h"

/* One check: a file, what to do with it under options, and the verdict a
 * CSV expects.  Small: a batch holds thousands, and each page of them is
 * a page fault in the main process. */
struct job {
    char *file;
    unsigned file_hash;      /* expect_file_hash(file), for the merge table */
    const struct job_spec *spec;     /* the run's, the same for every job */
    const struct check_opts *opts;   /* one of the list's (job_list.opts): the jobs
                                        with equal options share one */
    char *error;             /* set: the file cannot be checked, and why */
    int shard_index;         /* under --shard: 1 + the job's place in the whole list; else 0 */
    unsigned expected_models;    /* with several progress models (opts->progress_set):
                                    bit m when a CSV row expects expected_by[m] */
    enum verdict expected;
    unsigned char expected_by[CHECK_PROGRESS_MODELS];   /* an enum verdict each */
    bool has_expected;
};

struct job_list {
    int n, cap;
    struct job *jobs;
    char **blocks;           /* the jobs' file and error texts and options, many to a
                                block: a few frees at the end, not one per job */
    int nblocks, blocks_cap;
    char *text_at;           /* the free end of the last block */
    size_t text_room;        /* and its bytes */
    struct check_opts **opts;    /* the jobs' options, each different, in the blocks */
    int nopts, opts_cap;
    int *opts_slot;          /* open addressing: 1 + an index into opts (0: empty) */
    size_t opts_mask;
};

/* True when job j checks termination under several progress models at
 * once (one result per model). */
static inline bool job_several_models(const struct job *j)
{
    return j->opts->property == P_TERMINATION && j->opts->progress_set != 0;
}

/* What the command line asks for. */
struct job_request {
    const struct job_spec *spec;     /* what every job does */
    const struct check_opts *opts;   /* defaults for every job */
    int nproperties;
    const enum property *properties;
    bool divergence_by_default;      /* a SPIR-V or OpenCL file not in a CSV also
                                        gets a barrier_divergence job */
    int npaths;
    char *const *paths;              /* files and directories */
    int ncsv;
    char *const *csv;                /* --expect files */
};

/* Builds the jobs of req: with paths, every file (directories searched
 * recursively for *.litmus, sorted) under every property, with the
 * expectation of any CSV row naming the same file under the same
 * property; with CSVs alone, every row of every CSV, under the model,
 * property and progress model of its header.  Termination jobs of one file
 * that differ only in the progress model become one job with several
 * (opts->progress_set, expected_by), at the place of the first.  A path that cannot be
 * checked (not a regular file, an unreadable directory) becomes a job
 * with its error.  Returns false with msg filled (FILE[:LINE:COL]: error:
 * lines) when a CSV is unreadable or malformed, has no rows, or when no
 * row of any CSV names a file to check. */
bool jobs_build(const struct job_request *req, struct job_list *out, char *msg, int msglen);
/* Keeps jobs k-1, k-1+n, k-1+2n, ... of the list (--shard k/n), each
 * remembering its place in the whole list (shard_index). */
void jobs_keep_shard(struct job_list *l, int k, int n);
/* Frees a job list. */
void jobs_free(struct job_list *l);

#endif
