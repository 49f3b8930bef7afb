/* The list of checks a run performs: files (directories searched for
 * .litmus files), properties, and expected verdicts from corpus CSVs. */
#ifndef GPUBMC_JOBS_H
#define GPUBMC_JOBS_H

#include "bmc/check.h"

/* One check: a file under options, and the verdict a CSV expects. */
struct job {
    char *file;
    struct check_opts opts;
    bool has_expected;
    enum verdict expected;
};

struct job_list {
    int n, cap;
    struct job *jobs;
};

/* What the command line asks for. */
struct job_request {
    const struct check_opts *opts;   /* defaults for every job */
    int nproperties;
    const enum property *properties;
    int npaths;
    char *const *paths;              /* files and directories */
    int ncsv;
    char *const *csv;                /* --expect files */
    int shard_k, shard_n;            /* keep jobs k-1, k-1+n, ... (n = 0: all) */
};

/* Builds the jobs of req: with paths, every file (directories searched
 * recursively for *.litmus, sorted) under every property, with the
 * expectation of any CSV row naming the same file under the same
 * property; with CSVs alone, every row of every CSV, under the model,
 * property and progress model of its header.  Returns false with msg
 * filled (a file:line:col error) when a CSV or directory is unreadable. */
bool jobs_build(const struct job_request *req, struct job_list *out, char *msg, int msglen);
/* Frees a job list. */
void jobs_free(struct job_list *l);

/* Parses "PASS", "FAIL", "UNKNOWN" or "ERROR". */
bool verdict_parse(const char *s, enum verdict *v);
/* Parses "program_spec", "cat_spec" or "termination". */
bool property_parse(const char *s, enum property *p);

#endif
