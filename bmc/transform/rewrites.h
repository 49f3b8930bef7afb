/* The rewrites behind transform_apply, one file each: each appends one
 * variant per site (on line `line` of l when line > 0) and returns false
 * with err only when a rewritten program does not parse back. */
#ifndef GPUBMC_TRANSFORM_REWRITES_H
#define GPUBMC_TRANSFORM_REWRITES_H

#include "bmc/transform/transform.h"

/* hoist-acquire: an acquire read (its order weakened, the acquire becoming
 * a fence) or an acquire fence in a loop, moved after the loop's exit. */
bool rewrite_hoist_acquire(const struct litmus *l, int line, struct variants *out, char *err, size_t len);

/* remove-spin: a side-effect-free loop's backward jumps removed, so its
 * body runs once. */
bool rewrite_remove_spin(const struct litmus *l, int line, struct variants *out, char *err, size_t len);

/* reorder: two adjacent accesses to different physical locations with no
 * register dependency between them swapped. */
bool rewrite_reorder(const struct litmus *l, int line, struct variants *out, char *err, size_t len);

/* The single-step weakenings (bmc/transform/weaken.h) whose kind is in mask. */
bool rewrite_weaken(const struct litmus *l, unsigned mask, int line, struct variants *out, char *err,
                    size_t len);

#endif
