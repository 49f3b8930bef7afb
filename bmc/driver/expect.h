/* Corpus CSVs for --expect: a header of settings and rows of expected
 * verdicts, each row with its own bound, progress model and options. */
#ifndef GPUBMC_EXPECT_H
#define GPUBMC_EXPECT_H

#include "bmc/check/check.h"

/* A CSV row: a file and what its suite expects under its options. */
struct row {
    char *file;
    char *real;              /* realpath (with rows.want_real), or NULL when the file is absent */
    const struct check_opts *opts;   /* its CSV's, or its own (both in rows.opts) */
    enum verdict expected;
    bool exists;             /* the file was there when read */
    bool regular;            /* found a regular file (no link) when read: no need to look again */
    bool listed_again;       /* file and real are those of an earlier row of the same file */
    unsigned file_hash;      /* expect_file_hash(file) */
};

/* The hash of a file name that rows keep (file_hash) and look files up by. */
unsigned expect_file_hash(const char *file);

/* A slot of rows.first: 1 + the index of a file's first row (0: empty)
 * and the hash of its name, kept so that the table grows without hashing
 * again and a probe compares names only when their hashes agree. */
struct file_slot {
    int row;
    unsigned hash;
};

struct rows {
    bool want_real;          /* set before reading: make each row's realpath (to match
                                files named on the command line) */
    int n, cap;
    struct row *r;
    int nopts, opts_cap;
    struct check_opts **opts;   /* each CSV's options, and each row's that has its own */
    struct file_slot *first;    /* open addressing by file name */
    int first_cap;
    int nfirst;                 /* its slots in use: the files listed */
};

/* Reads one corpus CSV into out: "# model=M property=P progress=G bound=N"
 * (each optional, defaults from defaults), then rows "path,expected,...";
 * when line 2 names the columns ("# path,expected,source,bound,progress,
 * options"), a row's bound, progress and options fields (empty or '-':
 * the header's) override the header's for that row; other '#' lines are
 * comments.  False with msg (FILE[:LINE:COL]: error: ...) when the file
 * is unreadable or malformed or has no rows. */
bool expect_read(const char *path, const struct check_opts *defaults, struct rows *out, char *msg, int msglen);
/* Frees the rows and their options. */
void expect_free(struct rows *rows);

/* Parses "PASS", "FAIL", "UNKNOWN" or "ERROR". */
bool verdict_parse(const char *s, enum verdict *v);
/* Parses "program_spec", "cat_spec", "termination" or "barrier_divergence". */
bool property_parse(const char *s, enum property *p);

#endif
