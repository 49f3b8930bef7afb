/* The base sets and relations of one execution, as models see them.
 * Both back ends fill the same struct: the SAT path with literals of the
 * encoding, the concrete path with constants of one execution.
 * Tags follow Dat3M's: PTX sets come from the order, scope and proxy;
 * Vulkan sets also from the instruction's flags, with an RMW's flags split
 * between its read (visibility side) and its write (availability side). */
#ifndef GPUBMC_BASE_H
#define GPUBMC_BASE_H

#include "bmc/program.h"
#include "encoders/rel.h"

enum base_set {
    S_ALL, S_M, S_R, S_W, S_F, S_INIT, S_BAR,
    S_WEAK, S_RLX, S_ACQ, S_REL, S_ACQ_REL, S_SC,
    S_GEN, S_SUR, S_TEX, S_CON, S_ALIAS,
    /* Vulkan */
    S_ATOM, S_NONPRIV, S_AV, S_VIS, S_SEMAV, S_SEMVIS, S_CBAR, S_AVDEVICE, S_VISDEVICE, S_RMW,
    S_SC0, S_SC1, S_SC2, S_SC3, S_SEMSC0, S_SEMSC1, S_SEMSC2, S_SEMSC3,
    S_SG, S_WG, S_QF, S_DV,
    S_COUNT
};

enum base_rel {
    R_PO, R_LOC, R_INT, R_EXT, R_RF, R_CO, R_RMW,
    R_ADDR, R_DATA, R_CTRL,
    R_SR, R_SCTA, R_SYNCBAR, R_SYNC_FENCE, R_VLOC,
    R_SSG, R_SWG, R_SQF, R_SSW,
    R_COUNT
};

struct base {
    int n;
    struct set sets[S_COUNT];
    struct rel rels[R_COUNT];
};

/* Names of sets and relations (as in the cat files). */
extern const char *const base_set_names[S_COUNT];
extern const char *const base_rel_names[R_COUNT];

/* Starts a base: all sets and relations empty. */
void base_init(struct base *b, int n);
/* Frees every set and relation. */
void base_free(struct base *b);

/* Fills the sets and the relations that follow from the static event table
 * and the execution literals exec[e]: po, loc, int, ext, rmw, sr, scta, vloc,
 * ssg, swg, sqf, ssw and the tag sets.  rf, co, deps, syncbar and sync_fence are the caller's. */
void base_fill_static(struct cnf *c, const struct program *p, const lit *exec, struct base *b);

/* True when the scopes of e1 and e2 each include the other's thread. */
bool base_scopes_overlap(const struct program *p, const struct event *e1, const struct event *e2);

/* Dat3M's local consistency, assumed for every model: for writes i and j of
 * one thread to the same physical location, i first in program order, co
 * never goes from j to i (base_co_backward_impossible), and when both
 * name the same location it goes from i to j (base_co_forced). */
bool base_co_backward_impossible(const struct program *p, int i, int j);
bool base_co_forced(const struct program *p, int i, int j);

/* True when read r may read from write w: same physical location, not r's
 * own RMW half, not a write its thread makes later (Dat3M's local
 * consistency rules out reading from the future). */
bool base_rf_possible(const struct program *p, int w, int r);

/* True when two memory events may touch the same physical location. */
bool base_same_location(const struct program *p, const struct event *e1, const struct event *e2);

#endif
