/* Loops of a thread as written in the litmus source: a label and the
 * backward jumps to it, with their exits and register liveness. */
#ifndef GPUBMC_TRANSFORM_LOOPS_H
#define GPUBMC_TRANSFORM_LOOPS_H

#include <stdbool.h>

#include "litmus/ast.h"

/* A loop: the label instruction at head and its last backward jump at end. */
struct src_loop {
    int head, end;
};

/* The innermost loop of th that contains instruction k (head < k <= end);
 * false when k is in no loop. */
bool loops_innermost(const struct thread *th, int k, struct src_loop *out);

/* True when the loop is left only at its end: no jump from outside lands
 * inside it or on the labels right after it, and its jumps out land only
 * on those labels.  *exit_at is then the first instruction after them
 * (ninstrs when none), where the loop's every exit continues. */
bool loops_single_exit(const struct thread *th, const struct src_loop *lp, int *exit_at);

/* True when an iteration has no effect: no store, RMW or barrier, and no
 * register it writes is live at the loop's head. */
bool loops_side_effect_free(const struct thread *th, const struct src_loop *lp);

/* True when in jumps (a branch or goto); *target is then the index of the
 * instruction defining its label. */
bool loops_jump_target(const struct thread *th, const struct instr *in, int *target);

#endif
