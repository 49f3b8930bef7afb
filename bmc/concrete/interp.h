/* The concrete back end: runs the unrolled program on one choice of
 * reads-from and barrier participation, independently of the CNF path,
 * and builds that execution's base relations as constants. */
#ifndef GPUBMC_INTERP_H
#define GPUBMC_INTERP_H

#include <stdint.h>

#include "program/program.h"
#include "encoders/base.h"

/* The free choices that pin down one candidate execution. */
struct choice {
    int *rf;                 /* per event: write read by a read, -1 if none */
    bool *sync;              /* per barrier event: takes part in syncbar */
    bool *co;                /* n*n: coherence */
    bool *sf;                /* n*n: order of fence.sc */
    int *final_pick;         /* per location root: write giving the final value */
    int *stop_at;            /* per thread: micro-op it stops before for good
                                (a halt, or a backjump it claims repeats), -1: none */
    int32_t *val_hint;       /* per event: the value a read takes when only a
                                value cycle decides it (a SAT witness's value,
                                or the oracle's guess) */
    bool has_hint;           /* val_hint is filled; without it such a choice
                                is invalid and value_cycle says so */
    int32_t *any_val;        /* per arbitrary value (I_ANY): the one chosen
                                (a SAT witness's; the oracle refuses them) */
    void *storage;           /* holds every array above, allocated at once */
};

/* One concrete execution. */
struct concrete {
    int n;
    bool valid;
    char why[160];           /* why the choice is not an execution */
    bool *exec, *cf;
    int32_t *val;
    bool value_cycle;        /* invalid only because values depend on themselves
                                and the choice has no hint for them */
    int32_t *bar_id, *bar_quorum;
    int32_t *bar_occ;        /* per barrier event: how many barriers of its kind
                                and id its thread reached before it */
    bool *data, *ctrl;       /* n*n */
    bool *terminated, *bound_hit, *spins;   /* per thread */
    bool *repeats, *blocked, *halted;       /* per thread: how it stopped short */
    int *stuck_at;           /* per thread: micro-op it stopped at, -1 if it ended */
    int32_t **final_regs;
    int32_t *final_mem;      /* per location */
    void *storage;           /* holds every array above, allocated at once */
};

/* Allocates a choice for p with nothing chosen. */
void choice_init(struct choice *ch, const struct program *p);
/* A copy of ch, a choice that choice_init made for p, into out (free it
 * with choice_free). */
void choice_copy(const struct choice *ch, const struct program *p, struct choice *out);
/* Frees what choice_init made. */
void choice_free(struct choice *ch);

/* Only the first half of interp_run: runs the threads and checks that each
 * read reads a candidate write (base_rf_candidate), not the skeleton's
 * program-order facts, the orders, barrier participation or final values. */
void interp_execute(const struct program *p, const struct choice *ch, struct concrete *out);
/* Runs p on the choice; out->valid says whether it is a well-formed
 * execution under skeleton k (rf and co with k's program-order facts, co
 * total when k says so, sync_fence, barriers, final values consistent). */
void interp_run(const struct program *p, const struct choice *ch, const struct skeleton *k,
                struct concrete *out);
/* Frees what interp_execute (or interp_run) made of a run of p. */
void concrete_free(const struct program *p, struct concrete *x);
/* Marks the execution invalid for reason why (the first reason given stays);
 * returns false. */
bool concrete_fail(struct concrete *out, const char *why);

/* Fills b (over a constant-only cnf) with the execution's base relations. */
void interp_base(struct cnf *c, const struct program *p, const struct choice *ch,
                 const struct concrete *x, struct base *b);

/* The value of a local or RMW operation (32 bits, wrapping; division as
 * the encoders define it), shared with the explicit-state explorer. */
int32_t interp_binop(enum binop op, int32_t a, int32_t b);
/* A signed comparison, as branches and conditions evaluate it. */
bool interp_cmp(enum cmpop op, int32_t a, int32_t b);

#endif
