/* What a compound edge of an explanation stands for: the program-order,
 * reads-from and synchronisation steps that make it, and for each
 * synchronisation step the pattern a reader knows (a release/acquire
 * pattern, a fence pair, a barrier) with the instructions that supply it. */
#ifndef GPUBMC_EXPLAIN_STEPS_H
#define GPUBMC_EXPLAIN_STEPS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "bmc/concrete/evaluate.h"
#include "program/program.h"

/* "e5 P1 `ld.weak r0, x`" or "e0 init x": an event as explanations name it. */
void explain_event_name(const struct program *p, int e, char *buf, size_t len);

/* A synchronisation step's object {"kind", "release": a, "acquire": b},
 * its kind named by the events' kinds (a barrier, a fence pair, else a
 * release/acquire pattern) and their names into na and nb (n long). */
cJSON *explain_step_object(const struct program *p, int a, int b, char *na, char *nb, size_t n);

/* True when label names a relation explain_steps expands (one of the
 * model's derived orders: cause, hb, locord, observation, sync, sw, and
 * OpenCL's ghb, lhb and O-Sscoped's edges). */
bool explain_steps_compound(const char *label);

/* One relation a path may step along: a step (x, y) of r is taken only
 * where within (when not NULL) holds (x, y) too. */
struct step_rel {
    const struct rel *r;
    const char *name;
    bool sync;               /* a synchronisation step */
    const struct rel *within;
};

/* The shortest path from u to v over rels (nrels of them), taking a
 * synchronisation step when one can: its nodes into path and the index in
 * rels of each step's relation into via (both 2 * n + 2 long); its number
 * of steps, 0 when there is none. */
int explain_shortest_path(int n, const struct step_rel *rels, int nrels, int u, int v, int *path, int *via);

/* Expands the edge (u, v) of the evaluation ev: the shortest path from u
 * to v over po, rf and the synchronisation steps (sync, sw, syncbar,
 * sync_fence) that takes at least one synchronisation step (OpenCL: over
 * po inside ghb or lhb and gsw or lsw, and an O-Sscoped edge as
 * explain_cl_scp_path splits it).  Returns
 * {"from", "to", "relation", "steps": [{"from", "to", "relation"}],
 * "synchronisation": [{"kind", "release", "acquire", "through"?}],
 * "text"}, the text saying it all on one line ("cause is e2 ... -po-> ...
 * -sync-> ...; the fence pair e3 ... and e6 ... (e5 ... reads from e4
 * ...)"); NULL when no such path exists (the edge then stays as it is). */
cJSON *explain_steps(const struct program *p, const struct evaluation *ev, int u, int v, const char *label);

#endif
