/* Transformation checks on litmus files: a built-in transformation at each
 * of its sites (--transform), every single-step weakening of every
 * synchronisation site (--necessary-sync), and greedy weakening down to the
 * weakest program with the same outcomes (--minimize-sync).  Each compares
 * the rewritten program with the original by refinement (bmc/compare/refinement.h),
 * the original's outcomes enumerated once. */
#ifndef GPUBMC_TRANSFORM_CHECKS_H
#define GPUBMC_TRANSFORM_CHECKS_H

#include "bmc/check/check.h"
#include "bmc/transform/transform.h"

/* Checks transformation k (at the sites on line `line`, or at every site
 * when line is 0) on the file at path, one site at a time: FAIL when some
 * site adds behaviour (the first one's witness in r->witness), PASS when
 * none does, a vacuous PASS when the transformation applies nowhere (an
 * ERROR when line names a line where it does not apply).  r->details lists
 * every site.  With emit_dir, each rewritten program is also written there
 * as DIR/STEM.NAME.L<line>.P<thread>[.<n>].litmus (never over path). */
void check_transform(const char *path, enum transform_kind k, int line, const char *emit_dir,
                     const struct check_opts *o, struct check_result *r);

/* Tries every single-step weakening of every synchronisation site: FAIL
 * when some weakening adds no outcome (that synchronisation is stronger
 * than needed), PASS when every one adds an outcome; r->details says per
 * weakening "needed" (with the new outcome and its witness's reads) or
 * "can be weakened". */
void check_necessary_sync(const char *path, const struct check_opts *o, struct check_result *r);

/* Applies safe single-step weakenings greedily until none is left, then
 * re-checks the result from scratch (a refinement of the original, and the
 * original's own verdict): PASS with the weakest program's text in
 * r->details, or ERROR when the re-check disagrees. */
void check_minimize_sync(const char *path, const struct check_opts *o, struct check_result *r);

#endif
