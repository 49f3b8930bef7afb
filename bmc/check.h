/* One check: a file, a model and a property in; a verdict and witness out. */
#ifndef GPUBMC_CHECK_H
#define GPUBMC_CHECK_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "encoders/progress.h"

enum verdict { V_PASS, V_FAIL, V_UNKNOWN, V_ERROR };
enum property { P_PROGRAM_SPEC, P_CAT_SPEC, P_TERMINATION };

#define CHECK_MAX_DISABLED 16

struct check_opts {
    const char *model;       /* NULL: from the file's dialect */
    enum property property;
    enum progress_model progress;   /* for termination */
    int bound;
    int ndisabled;
    const char *disabled[CHECK_MAX_DISABLED];   /* --no-axiom names */
    bool want_witness;
    bool oracle;             /* --engine oracle: brute-force enumeration */
    bool outcomes;           /* also report the reachable final states
                                (program_spec with the SAT engine only) */
    bool no_symmetry;        /* search every thread permutation (bmc/symmetry.h) */
    bool explain;            /* say why a forbidden outcome is forbidden (bmc/explain.h) */
};

struct check_result {
    enum verdict verdict;
    char model[32];
    char reason[1024];       /* short explanation; for ERROR the message */
    double ms;
    cJSON *witness;          /* when want_witness and an execution decides */
    cJSON *outcomes;         /* when opts.outcomes and the check ran: the
                                outcome set (outcomes_json; print it with
                                outcomes_print); the caller deletes it */
    long nvars, nclauses;    /* size of the CNF the solver got (SAT checks) */
    bool vacuous;            /* a PASS only because no execution ends with the
                                filter true (the reason says which) */
    cJSON *explanation;      /* with opts.explain, for a forbidden outcome:
                                explain_forbidden's object; the caller deletes it */
};

/* Checks one file; never exits, never crashes on bad input. */
void check_file(const char *path, const struct check_opts *o, struct check_result *r);

/* Names for output. */
const char *verdict_name(enum verdict v);
const char *property_name(enum property p);

#endif
