/* Hardware logs in herd's format: what the CUDA harness prints (bmc/cuda),
 * what litmus7 prints, and herd7's own state lists. */
#ifndef GPUBMC_OBSERVED_LOG_H
#define GPUBMC_OBSERVED_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One test's outcomes in a log. */
struct observed_test {
    int nnames;
    char **names;            /* as the log writes them: "1:r0", "x", "[x]" */
    int nstates;
    int32_t *values;         /* nstates rows of nnames values, in names' order */
    long *counts;            /* per state: how often it was seen (1 without a count) */
    bool counted;            /* the log gives counts (litmus7 or the harness; herd7 does not) */
    int line;                /* the line of the first "Test NAME" block read */
};

/* Reads the states of every "Test NAME" block of the log at path whose
 * name is name (blocks of several runs add up): the lines after "States N"
 * or "Histogram (N states)", each "[COUNT] [*>|:>] LOC=VALUE; ...", up to
 * the first line that is not one.  Returns 1 with t filled, 0 when no
 * block has that name, -1 with err ("LOG:LINE: ...") when the log
 * cannot be read, a state line is malformed, or states name different
 * registers and locations.  t is always safe to pass to
 * observed_test_free. */
int observed_log_read(const char *path, const char *name, struct observed_test *t, char *err, size_t len);

/* Frees what observed_log_read filled. */
void observed_test_free(struct observed_test *t);

#endif
