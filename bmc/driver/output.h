/* Output files and standard output: never an input, every write checked. */
#ifndef GPUBMC_OUTPUT_H
#define GPUBMC_OUTPUT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>

#include "bmc/driver/cli.h"
#include "bmc/driver/json_text.h"

/* Makes the output directory dir of option (one level, as --emit-cuda
 * does) unless it is one already; false after printing why it cannot. */
bool output_dir_ready(const char *option, const char *dir);

/* True when path can be written (made empty when missing, left as it is
 * otherwise); false after printing why it cannot. */
bool output_writable(const char *option, const char *path);

/* True, after printing a usage error, when the output path given to option
 * names an input (a file or directory on the command line, an --expect
 * CSV, a file to check, the --source program, the --observed log) or a
 * .litmus file, when it is "-" (standard output carries the verdicts),
 * or when the file of --witness or --graph is a symbolic link. */
bool output_refused(const char *option, const char *path, const struct cli *cli,
                    const struct job_list *jobs);

/* s for human output, into buf: control characters (a tab, an escape
 * sequence in a file name) as \t, \n, \r or \xHH.  Returns buf. */
const char *output_shown(const char *s, char *buf, size_t len);

/* A JSON file written item by item (--witness): an array, or with one
 * item that item alone, in a temporary file renamed over path at the end
 * (a special file such as /dev/full is written in place). */
struct json_stream {
    const char *path;
    char tmp[4200];
    FILE *f;
    bool array;
    int n, err;              /* items written; the first errno (0: none) */
};

/* Starts the file (array: false when exactly one item will come); false
 * after printing "PATH: error: ..." when it cannot be made. */
bool output_stream_open(struct json_stream *s, const char *path, bool array);
/* Writes item, formatted. */
void output_stream_add(struct json_stream *s, const cJSON *item);
/* Ends the file and gives it its name; false after printing "PATH:
 * error: cannot write: ...". */
bool output_stream_close(struct json_stream *s);

/* Flushes standard output; false when some write to it failed, with the
 * errno of the first failure kept in *first_errno (if 0 before). */
bool output_flush(int *first_errno);

/* Flushes standard output at the end; false after printing an error when
 * some write to it failed (a full disk), naming first_errno if not 0. */
bool output_stdout_ok(int first_errno);

/* Adds "progress" (model m under hierarchy h, "fair;QF=obe") to o and,
 * when h names a scope, "progress_scopes": the scheduler of every scope of
 * the dialect of the memory model called model ("SYS"/"GPU"/"CTA" for a
 * PTX model, "DV"/"QF"/"WG"/"SG" otherwise). */
void output_progress(cJSON *o, enum progress_model m, const struct progress_hierarchy *h, const char *model);
/* The same two members added to the JSON text t. */
void output_progress_text(struct json_text *t, enum progress_model m, const struct progress_hierarchy *h,
                          const char *model);

#endif
