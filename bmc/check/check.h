/* One check: a file, a model and a property in; a verdict and witness out. */
#ifndef GPUBMC_CHECK_H
#define GPUBMC_CHECK_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "encoders/progress.h"

enum verdict { V_PASS, V_FAIL, V_UNKNOWN, V_ERROR };
enum property { P_PROGRAM_SPEC, P_CAT_SPEC, P_TERMINATION, P_BARRIER_DIVERGENCE };

#define CHECK_MAX_DISABLED 16
#define CHECK_PROGRESS_MODELS PROGRESS_MODELS
#define CHECK_DEFAULT_MAX_STATES_INT 1000000
#define CHECK_DEFAULT_MAX_STATES ((long)CHECK_DEFAULT_MAX_STATES_INT)

/* Which engine decides termination: the explicit-state engine for
 * programs in the interleaving fragment and SAT otherwise (auto), or one
 * of them whatever the program (states answers UNKNOWN outside the
 * fragment). */
enum term_engine { TERM_AUTO, TERM_SAT, TERM_STATES };

struct check_opts {
    const char *model;       /* NULL: from the file's dialect */
    const struct cat_model *cat;         /* --cat FILE: stands in for every model name */
    enum property property;
    enum progress_model progress;   /* for termination */
    unsigned progress_set;   /* termination under several progress models at
                                once: bit m for model m; 0: progress alone */
    struct progress_hierarchy hierarchy;   /* per-scope schedulers, for every model */
    enum term_engine term_engine;
    long max_states;         /* the explicit-state engine's limit (0: default) */
    int bound;
    bool has_grid;           /* --grid given: the SPIR-V grid below */
    int grid[3];             /* threads per subgroup, subgroups per workgroup, workgroups */
    bool ignore_filter;      /* --ignore-filter: drop the test's filter */
    int ndisabled;
    const char *disabled[CHECK_MAX_DISABLED];   /* --no-axiom names */
    bool want_witness;
    bool oracle;             /* --engine oracle: brute-force enumeration */
    bool outcomes;           /* also report the reachable final states
                                (program_spec with the SAT engine only) */
    bool no_symmetry;        /* search every thread permutation (bmc/check/symmetry.h) */
    int symmetry_key;        /* enum symmetry_key + 1 to use that key alone; 0: race both
                                (bmc/check/race.h) */
    bool explain;            /* say why a forbidden outcome is forbidden (bmc/check/explain.h) */
    const char *observe;     /* --observe: what comparisons observe, "P0:r1,x" (NULL: their
                                default, bmc/compare/match.h) */
};

/* One progress model's termination verdict in a check of several. */
struct progress_result {
    enum progress_model model;
    enum verdict verdict;
    char engine[8];          /* "states" or "sat" */
    char brief[96];          /* the stuck threads, short ("P1 spins"), for a FAIL */
    char reason[1024];
    bool vacuous;            /* a PASS because no execution is fair under the model */
};

struct check_result {
    enum verdict verdict;
    char engine[8];          /* what decided: "sat", "oracle" or "states" */
    char model[32];
    char reason[1024];       /* short explanation; for ERROR the message */
    double ms;
    cJSON *witness;          /* when want_witness and an execution decides */
    cJSON *outcomes;         /* when opts.outcomes and the check ran: the
                                outcome set (outcomes_json; print it with
                                outcomes_print); the caller deletes it */
    long nvars, nclauses;    /* size of the CNF the solver got (SAT checks) */
    long npairs;             /* pairs its relations stored in rows (SAT checks) */
    char symmetry_key[8];    /* the symmetry key of the session that answered
                                ("first" or "last"), "" when it had none */
    bool vacuous;            /* a PASS only because the executions the property
                                quantifies over are none (the reason starts
                                "vacuously:" and says which), or a
                                transformation that applies nowhere */
    bool has_reachable;      /* program_spec on SAT, decided: reachable below is known */
    bool reachable;          /* some execution reaches what the check looks for: a state
                                satisfying an exists or ~exists proposition, or one
                                violating a forall */
    bool cut_at_bound;       /* cat_spec's FAIL: the flag is raised in an execution
                                cut at the loop bound (a prefix of one of the
                                unbounded program: bmc/check/cut_flags.h) */
    bool no_execution;       /* the program has no consistent execution at all
                                (not one that ends, hangs or is cut at the
                                bound), whatever the verdict */
    cJSON *explanation;      /* with opts.explain, for a forbidden outcome:
                                explain_forbidden's object; the caller deletes it */
    cJSON *details;          /* refinement and transformation checks: what
                                was compared and found (bmc/compare/refinement.h);
                                the caller deletes it */
    int nprogress;           /* with opts.progress_set: one result per model, by
                                increasing model; then witness, when asked for,
                                is an array of their witnesses (null: none) */
    struct progress_result progress[CHECK_PROGRESS_MODELS];   /* last: check_begin clears what is before it */
};

struct program;
struct model_desc;
struct cat_model;

/* Milliseconds on a monotonic clock, for timing checks. */
double check_clock_ms(void);

/* The model o checks a test of dialect d under: --cat's, else the one
 * called name (NULL: none). */
const struct model_desc *check_model(const struct check_opts *o, const char *name, int d);

/* Checks an unrolled program under model md (what check_file does once
 * the file is parsed and the model known); r is zeroed by the caller. */
void check_program(const struct program *p, const struct model_desc *md, const struct check_opts *o,
                   struct check_result *r);

/* Checks one file; never exits, never crashes on bad input. */
void check_file(const char *path, const struct check_opts *o, struct check_result *r);

/* The progress models a termination check of o covers, in increasing
 * order, into m; returns how many. */
int check_progress_models(const struct check_opts *o, enum progress_model *m);

/* Names for output. */
const char *verdict_name(enum verdict v);
const char *property_name(enum property p);

#endif
