/* The execution skeleton: reads-from, coherence, the fence order, barrier
 * passing and the final state, on top of the symbolic program. */
#ifndef GPUBMC_EXEC_H
#define GPUBMC_EXEC_H

#include "encoders/base.h"
#include "encoders/symexec.h"

struct exec_enc {
    struct symexec sx;
    struct base base;        /* rf, co, deps, syncbar, sync_fence, static parts */
    lit *sync;               /* per barrier event: takes part in syncbar (one
                                allocation with final_pick and co_last) */
    lit *final_pick;         /* per write event: its value is the location's final one */
    lit *co_last;            /* per write event: executed with no co-successor
                                (made for termination checks, SX_MAY_REPEAT) */
    bool co_total;           /* co orders every two executed writes of a
                                location one way (the skeleton's co_total) */
    struct bv *final_mem;    /* per location (aliases share their root's value) */
    struct bv *bar_occ;      /* per barrier event: its occurrence number */
    const struct rel *bar_wait; /* must be acyclic: barrier passage is well-founded */
};

/* Encodes every candidate execution of p under skeleton k (co total or
 * partial per location, the model's program-order facts); sx_mode says how
 * threads may stop short of their end (enum sx_mode, see symexec_run). */
void exec_encode(struct cnf *c, const struct program *p, const struct skeleton *k, int sx_mode,
                 struct exec_enc *x);
/* Frees the encoding. */
void exec_free(struct exec_enc *x);

/* True when barriers b1 and b2 can meet: same kind (named or not), same
 * instance number, threads in the same instance of the barrier's scope. */
bool exec_barriers_meet(const struct program *p, const struct event *b1, const struct event *b2);

#endif
