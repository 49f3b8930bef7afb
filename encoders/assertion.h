/* Final-state conditions (exists / forall / filter bodies) as literals. */
#ifndef GPUBMC_ASSERTION_H
#define GPUBMC_ASSERTION_H

#include "encoders/bv.h"
#include "litmus/ast.h"

/* The final state an assertion reads: registers per thread, memory per location. */
struct final_state {
    struct bv **regs;        /* regs[thread][reg] */
    const struct bv *mem;    /* mem[loc] */
};

/* Literal true iff the final state satisfies a (NULL means true). */
lit assertion_encode(struct cnf *c, const struct assertion *a, const struct final_state *fs);

#endif
