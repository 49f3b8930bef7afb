/* The original program of a transformation check: parsed, its model
 * chosen, unrolled, and its refinement source side prepared. */
#ifndef GPUBMC_TRANSFORM_ORIGIN_H
#define GPUBMC_TRANSFORM_ORIGIN_H

#include "bmc/check/load.h"
#include "bmc/compare/refinement.h"
#include "bmc/transform/transform.h"

struct origin {
    const char *path;
    const struct check_opts *o;
    struct loaded prog;          /* the original, parsed and unrolled */
    const struct litmus *lit;    /* prog.lit */
    struct refinement_source src;
    bool src_ready;
    char engine[8];              /* what decided the first variant's check */
    bool race_free;              /* OpenCL, outcomes: the original cannot race, so
                                    a rewrite that can adds behaviour */
};

/* Begins a check of the file at path under o (check_begin) and prepares
 * its source side; false with r an ERROR naming the file. */
bool origin_begin(struct origin *g, const char *path, const struct check_opts *o, struct check_result *r);
/* Ends the check origin_begin began: frees what it made, sets r->ms and,
 * unless r is an ERROR, r->engine (the SAT engine, or what decided the
 * variants). */
void origin_end(struct origin *g, struct check_result *r);

/* Checks one rewritten program against the original into r (from
 * scratch); for a race-free OpenCL original, a rewrite that can race
 * adds behaviour (OpenCL leaves its outcomes undefined). */
void origin_check(struct origin *g, const struct litmus *target, struct check_result *r);

/* The JSON entry of a variant's result: line, thread (P number),
 * transformation, change, result (the refinement's verdict), need (what
 * --necessary-sync makes of it, when not NULL), reason and the refinement
 * details (taken from r). */
cJSON *origin_site_json(const struct origin *g, const struct variant *v, const char *need,
                        struct check_result *r);

#endif
