/* Two programs side by side: threads matched by P number, registers by
 * name within a thread, locations by name; what a refinement check
 * observes in both. */
#ifndef GPUBMC_MATCH_H
#define GPUBMC_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "litmus/ast.h"

/* The source's observed values: its locations list when it has one, else
 * every register of every thread and every location that is not an alias
 * (an alias has its target's value), in order; *n of them, in a new array
 * the caller frees. */
struct avalue *match_source_observables(const struct litmus *src, int *n);

/* False, with err naming the first thread that differs, unless src and tgt
 * have the same dialect and the same threads (P numbers and placements). */
bool match_threads(const struct litmus *src, const struct litmus *tgt, char *err, size_t len);

/* Maps the source's n observed values obs into tgt by name: out[i] is the
 * same register or location in tgt, or kind AV_CONST when tgt lacks it.
 * False, with err naming it, when the source has a locations list and tgt
 * lacks one of its entries, or when tgt shares none of them. */
bool match_observables(const struct litmus *src, const struct avalue *obs, int n,
                       const struct litmus *tgt, struct avalue *out, char *err, size_t len);

#endif
