/* Symbolic execution of the unrolled program: guards, values and
 * dependencies of every event as literals and bit-vectors. */
#ifndef GPUBMC_SYMEXEC_H
#define GPUBMC_SYMEXEC_H

#include "program/program.h"
#include "encoders/bv.h"
#include "encoders/rel.h"

struct symexec {
    lit *cf;                 /* per event: reached by control flow */
    lit *exec;               /* per event: executed (a barrier: passed) */
    struct bv *val;          /* per event: value read or written */
    struct bv *operand;      /* per barrier event: its id and quorum values */
    struct bv *quorum;
    struct bv *any;          /* per arbitrary value (I_ANY): free variables */
    struct rel_builder data, ctrl;   /* read -> dependent event (both executed) */
    lit *terminated;         /* per thread: reached its end */
    lit *bound_hit;          /* per thread: cut at the unrolling bound */
    lit *spins;              /* per thread: stuck in a side-effect-free iteration */
    lit *in_spin;            /* per event: in the iteration a thread is stuck in */
    lit *halted;             /* per thread: stopped by the scheduler (may_halt) */
    lit *started;            /* per thread: ran at all (may_halt) */
    lit **halt_at;           /* per thread, per micro-op i (ncode: the end):
                                halted just before i (may_halt), or, at a
                                backjump, stopped there repeating (may_repeat) */
    lit **went_back;         /* per thread, per backjump micro-op: taken, on to
                                the next iteration or repeating (not spinning) */
    lit *repeats;            /* per thread: stopped after an iteration that
                                repeats earlier ones (may_repeat) */
    struct bv **final_regs;  /* per thread, per register: value at the end */
    int niters;              /* every unrolled loop iteration, in order */
    struct sx_iteration *iters;
    void *block;             /* the one allocation of the arrays above but iters */
};

/* One unrolled loop iteration: micro-ops head..backjump of a thread, where
 * backjump is its last backward jump (a loop may have several). */
struct sx_iteration {
    int thread, head, backjump;
    lit repeat;              /* the thread stops at one of its backjumps,
                                continuing for ever by repeating earlier
                                iterations (may_repeat; halt_at says which) */
    struct bv *end_regs;     /* the loop's live written registers as the
                                iteration passes on to the next one */
};

/* What symexec_run may add to the program's own behaviour. */
enum sx_mode {
    SX_PLAIN = 0,
    SX_MAY_HALT = 1,         /* a thread may stop for good at any point */
    SX_MAY_REPEAT = 2        /* a thread may stop after a loop iteration that
                                has a predecessor, claiming it repeats */
};

/* Runs every thread symbolically.  Read values and barrier exec literals are
 * fresh variables, to be constrained by the execution encoding.  mode is a
 * set of sx_mode flags: with SX_MAY_HALT a thread may also stop before any of
 * its events or its end (an unfair scheduler never runs it again), halted
 * and started say so; with SX_MAY_REPEAT it may stop after an effectful
 * iteration, and the repetition encoding must justify that (repeats). */
void symexec_run(struct cnf *c, const struct program *p, int mode, struct symexec *s);
/* Frees what symexec_run allocated. */
void symexec_free(struct symexec *s);

/* Evaluates a binary operation on bit-vectors (shared with RMW stores). */
struct bv symexec_binop(struct cnf *c, enum binop op, struct bv x, struct bv y);
/* Evaluates a comparison on bit-vectors. */
lit symexec_cmp(struct cnf *c, enum cmpop op, struct bv x, struct bv y);

#endif
