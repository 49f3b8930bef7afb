/* Two programs side by side: threads matched by P number, registers by
 * name within a thread, locations by name; what a refinement check
 * observes in both. */
#ifndef GPUBMC_MATCH_H
#define GPUBMC_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "litmus/ast.h"

/* Where the observables of a comparison come from, in this order of
 * precedence: --observe LIST, the source's locations list, the registers
 * and locations its filter and condition name, else everything both
 * programs name. */
enum observed_from { OBSERVED_BY_OPTION, OBSERVED_BY_LOCATIONS, OBSERVED_BY_CONDITION, OBSERVED_SHARED };

/* Short names of observed_from for JSON: "observe", "locations",
 * "condition", "shared". */
const char *observed_from_name(enum observed_from f);

/* The source's observed values, chosen by the precedence of enum
 * observed_from (observe: the --observe list, names "P0:r1" or "x"
 * separated by commas, or NULL; OBSERVED_SHARED: every register of every
 * thread and every location that is not an alias, to be cut down to those
 * each target names), in order, each once; *n of them, in a new array the
 * caller frees, and *from says which.  NULL, with err, when a name of the
 * list is not the source's or the observables would be none. */
struct avalue *match_source_observables(const struct litmus *src, const char *observe, enum observed_from *from,
                                        int *n, char *err, size_t len);

/* False, with err naming the first thread that differs, unless src and tgt
 * have the same dialect and the same threads (P numbers and placements). */
bool match_threads(const struct litmus *src, const struct litmus *tgt, char *err, size_t len);

/* Maps the source's n observed values obs into tgt by name: out[i] is the
 * same register or location in tgt, or kind AV_CONST when tgt lacks it.
 * False, with err naming it, when tgt lacks one of them and from is not
 * OBSERVED_SHARED (the observables were asked for), or when tgt shares
 * none of them. */
bool match_observables(const struct litmus *src, const struct avalue *obs, int n, enum observed_from from,
                       const struct litmus *tgt, struct avalue *out, char *err, size_t len);

#endif
