/* The base sets and relations of one execution, as models see them.
 * Both back ends fill the same struct: the SAT path with literals of the
 * encoding, the concrete path with constants of one execution.
 * Tags follow Dat3M's: PTX sets come from the order, scope and proxy;
 * Vulkan sets also from the instruction's flags, with an RMW's flags split
 * between its read (visibility side) and its write (availability side);
 * OpenCL sets from order and scope as Dat3M's C11 compilation tags them,
 * and an initial write carries its location's spaces and NAL. */
#ifndef GPUBMC_BASE_H
#define GPUBMC_BASE_H

#include "program/program.h"
#include "encoders/rel.h"

enum base_set {
    S_ALL, S_M, S_R, S_W, S_F, S_INIT, S_BAR,
    S_WEAK, S_RLX, S_ACQ, S_REL, S_ACQ_REL, S_SC,
    S_GEN, S_SUR, S_TEX, S_CON, S_ALIAS,
    /* Vulkan */
    S_ATOM, S_NONPRIV, S_AV, S_VIS, S_SEMAV, S_SEMVIS, S_CBAR, S_AVDEVICE, S_VISDEVICE, S_RMW,
    S_SC0, S_SC1, S_SC2, S_SC3, S_SEMSC0, S_SEMSC1, S_SEMSC2, S_SEMSC3,
    S_SG, S_WG, S_QF, S_DV,
    /* OpenCL: scopes WI and ALL (WG, DV above), address spaces and
     * non-atomic locations (on initial writes and on fences) */
    S_WI, S_ALL_SCOPE, S_GLOBAL, S_LOCAL, S_NAL,
    /* stdlib.cat: undefined behaviour (SPIR-V OpUnreachable reached) */
    S_UB,
    S_COUNT
};

enum base_rel {
    R_PO, R_LOC, R_INT, R_EXT, R_RF, R_CO, R_RMW,
    R_ADDR, R_DATA, R_CTRL,
    R_SR, R_SCTA, R_SYNCBAR, R_SYNC_FENCE, R_VLOC,
    R_SSG, R_SWG, R_SQF, R_SSW,
    R_SDV,                   /* OpenCL: same device */
    R_COUNT
};

struct base {
    int n;
    struct rels *arena;      /* owns the sets and relations below */
    const struct set *sets[S_COUNT];
    const struct rel *rels[R_COUNT];
};

/* Names of sets and relations (as in the cat files). */
extern const char *const base_set_names[S_COUNT];
extern const char *const base_rel_names[R_COUNT];

/* Starts a base over p's events whose execution literals are exec (copied):
 * the tag sets, and po, loc, int, ext, rmw, sr, scta, vloc, ssg, swg, sqf
 * and ssw as static relations (each pair's literal exec_i & exec_j, decided
 * by types, threads, locations and scopes); rf, co, addr, data, ctrl,
 * syncbar and sync_fence empty, for the caller to set. */
void base_init(struct base *b, struct cnf *c, const struct program *p, const lit *exec);
/* Frees every set and relation. */
void base_free(struct base *b);

/* True when the scopes of e1 and e2 each include the other's thread. */
bool base_scopes_overlap(const struct program *p, const struct event *e1, const struct event *e2);

/* Program-order facts per physical location.  For accesses a and b of one
 * thread to one physical location, a first in program order, a fact says
 * what every consistent execution of a model has; the model says for which
 * pairs each holds (models/model.h), the skeleton assumes exactly those. */
enum po_fact {
    PO_NO_FUTURE_READ,       /* read a never reads from write b */
    PO_CO_NOT_BACK,          /* writes a and b: never co(b, a) */
    PO_CO_ALONG,             /* writes a and b: co(a, b) when both execute */
    PO_RF_COHERENT,          /* a write and a read, either order: the read never
                                reads from a write w where co goes against their
                                order and the model's coherence sees it
                                (skeleton co_seen):
                                write a, read b: not rf(w, b) with co(w, a);
                                read a, write b: not rf(w, a) with co(b, w) */
    PO_NFACTS
};
#define PO_BIT(f) (1u << (f))

/* What the execution skeleton assumes of one model's executions. */
struct skeleton {
    bool co_total;           /* co is total per physical location */
    /* the facts (PO_BIT mask) for a before b in one thread, same physical
     * location */
    unsigned (*po_facts)(const struct program *p, int a, int b);
    /* for a PO_RF_COHERENT pair of write wr and read rd (wr < rd: the write
     * first) and a write w of their location: the model's axioms rule out
     * rd reading from w where co goes against the pair's order (co(w, wr)
     * when the write is first, co(wr, w) when the read is); NULL: never */
    bool (*co_seen)(const struct program *p, int wr, int rd, int w);
    unsigned on;             /* the facts whose axioms are switched on */
};

/* True when the skeleton assumes fact f for a before b in one thread. */
bool base_po_fact(const struct skeleton *k, const struct program *p, int a, int b, enum po_fact f);

/* For writes i and j of one thread to one physical location, i first in
 * program order: co never goes from j to i (base_co_backward_impossible),
 * or always goes from i to j (base_co_forced), as far as k assumes it. */
bool base_co_backward_impossible(const struct skeleton *k, const struct program *p, int i, int j);
bool base_co_forced(const struct skeleton *k, const struct program *p, int i, int j);

/* True when read r is a candidate to read from write w: same physical
 * location, and w is not r's own RMW half (one instruction that reads,
 * then writes). */
bool base_rf_candidate(const struct program *p, int w, int r);
/* A candidate that k also allows: not a write r's thread makes later when
 * the model rules out reading from it (PO_NO_FUTURE_READ). */
bool base_rf_possible(const struct skeleton *k, const struct program *p, int w, int r);

/* True when static event e is in tag set s (as base_fill_static tags it
 * when e executes). */
bool base_event_in(const struct program *p, int e, enum base_set s);
/* Every tag set static event e is in, bit s for set s: base_event_in's
 * answers at once, for a caller that asks of several sets. */
unsigned long long base_event_tags(const struct program *p, int e);
/* True when thread `from` is declared to system-synchronise with `to`
 * (an `ssw` pair of the litmus test). */
static inline bool base_ssw_declared(const struct litmus *l, int from, int to)
{
    for (int i = 0; i < l->nssw; i++)
        if (l->ssw[i].from == from && l->ssw[i].to == to)
            return true;
    return false;
}
/* True when memory events a and b have one virtual address (vloc). */
bool base_same_vloc(const struct program *p, int a, int b);

/* True when two memory events may touch the same physical location. */
bool base_same_location(const struct program *p, const struct event *e1, const struct event *e2);

#endif
