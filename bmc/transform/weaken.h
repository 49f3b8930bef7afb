/* Single-step weakenings of one synchronisation site: an order one step
 * weaker, a scope one step narrower, a fence dropped, a barrier without
 * memory semantics, a Vulkan semantics or availability/visibility flag
 * dropped. */
#ifndef GPUBMC_TRANSFORM_WEAKEN_H
#define GPUBMC_TRANSFORM_WEAKEN_H

#include "bmc/transform/transform.h"

#define WEAKEN_MAX 12

/* One alternative for an instruction. */
struct weakening {
    enum transform_kind kind;   /* which built-in transformation it belongs to */
    bool remove;                /* the instruction is dropped */
    struct instr in;            /* else what it becomes (text not updated) */
};

/* Fills out with the single-step weakenings of in (an instruction of a
 * test in dialect d); returns how many (at most WEAKEN_MAX). */
int weaken_instr(enum dialect d, const struct instr *in, struct weakening *out);

#endif
