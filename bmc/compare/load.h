/* Loading a program for the comparing checks (refinement, transformations,
 * model comparison): parsed, its model chosen, unrolled. */
#ifndef GPUBMC_LOAD_H
#define GPUBMC_LOAD_H

#include "bmc/check/check.h"
#include "program/program.h"
#include "models/model.h"

struct loaded {
    struct litmus *lit;
    const struct model_desc *md;
    struct program *p;
};

/* Parses the file at path, picks its model (o->model, else the dialect's
 * default) and unrolls it to o->bound; false with r->reason "PATH:LINE:COL:
 * error: ..." or "PATH: error: ..." (r->model set when known).  out is
 * always safe to pass to loaded_free. */
bool load_program(const char *path, const struct check_opts *o, struct loaded *out, struct check_result *r);

/* Frees what load_program made. */
void loaded_free(struct loaded *l);

#endif
