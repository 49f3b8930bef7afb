/* The prologue and epilogue of every check of a file: the result started
 * from scratch and timed, the file parsed, its model chosen and checked
 * against its dialect, the program unrolled; errors as results that name
 * the file. */
#ifndef GPUBMC_LOAD_H
#define GPUBMC_LOAD_H

#include "bmc/check/check.h"
#include "program/program.h"
#include "models/model.h"

/* A file under check: parsed, its model, unrolled; and when the check began. */
struct loaded {
    struct litmus *lit;
    bool lit_kept;           /* lit is load_memo's, kept for a later check */
    const struct model_desc *md;
    struct program *p;
    bool p_kept;             /* p is load_memo's, kept with lit */
    double t0;               /* check_clock_ms() at check_begin */
};

/* Begins a check of the file at path: r from scratch (an ERROR until
 * something decides), the clock started, then load_program; out always
 * goes to check_end. */
bool check_begin(const char *path, const struct check_opts *o, struct loaded *out, struct check_result *r);

/* Ends the check that check_begin began: frees out and sets r->ms. */
void check_end(struct loaded *ld, struct check_result *r);

/* Parses the file at path, picks its model (o->model, else the dialect's
 * default), refuses a model of another dialect and unrolls the program to
 * o->bound; false with r->reason as check_name_error makes it (r->model
 * set when known). */
bool load_program(const char *path, const struct check_opts *o, struct loaded *out, struct check_result *r);

/* Frees what load_program made; out stays safe to free again. */
void loaded_free(struct loaded *l);

/* Makes r->reason one line "PATH:LINE:COL: error: REASON" (line 0:
 * "PATH: error: REASON"), ending in "..." when it had to be cut. */
void check_name_error(const char *path, int line, int col, struct check_result *r);

#endif
