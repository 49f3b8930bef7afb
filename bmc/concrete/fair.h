/* Fair cycles of an explored state graph (bmc/concrete/states.h) under the GPU
 * progress models.  An infinite run ends up in one strongly connected
 * component of the graph; which threads have ended and which have taken a
 * step is the same in every state of a component, so whether some run
 * that stays in it is fair depends only on the component: it is when the
 * threads the progress model obliges to run (given what has ended and what
 * has started) can all take steps inside it.  The obligations are Dat3M's
 * (ProgramEncoder's forward-progress encoding), applied at every level of
 * the scope hierarchy; docs/interleaving-fragment.md, "Termination on the
 * fragment", spells them out. */
#ifndef GPUBMC_FAIR_H
#define GPUBMC_FAIR_H

#include <stdint.h>

#include "bmc/concrete/states.h"
#include "encoders/progress.h"

/* The components of a graph and what each says about the threads. */
struct fair_sccs {
    int nthreads, nscc;
    int *scc_of;             /* per state: its component */
    int *first;              /* per component: its lowest state index (the
                                one a breadth-first stem reaches soonest) */
    bool *cyclic;            /* per component: it has an edge inside */
    int ncycles, *cycles;    /* the cyclic components, by increasing first state */
    bool *runs;              /* nscc * nthreads: thread t takes a step inside */
    int nwords;              /* 64-bit words of a set of threads */
    uint64_t *ended, *started;   /* nscc * nwords, set for the cyclic components:
                                    the threads at their end, and those that
                                    have taken a step, a bit each */
};

/* Splits the graph into strongly connected components (Tarjan's
 * algorithm, iteratively). */
void fair_sccs(const struct state_graph *g, struct fair_sccs *f);
/* Frees the components. */
void fair_free(struct fair_sccs *f);

/* The thread placement that the progress models read. */
struct fair_tree;
/* Builds the scope hierarchy of l's threads (PTX: system, gpu, cta;
 * Vulkan: device, queue family, workgroup, subgroup), each scope's
 * instances scheduling their children as hierarchy h (NULL: none) says. */
struct fair_tree *fair_tree_build(const struct litmus *l, const struct progress_hierarchy *h);
/* Frees a hierarchy (NULL: nothing). */
void fair_tree_free(struct fair_tree *tr);

/* The most ways fair_shares gives. */
#define FAIR_MAX_SHARES 64

/* The ways model m's scheduler may guarantee progress at a point where
 * ended[t] and started[t] hold: each a set of the threads the whole
 * device's progress reaches through the groups that owe it to their
 * children and have not ended, a group with progress and no schedulable
 * child it owes passing minimal progress to one schedulable child, each
 * choice of one a way (one way when no group has a choice).  Into
 * sets[k * nthreads + t] for way k (room for FAIR_MAX_SHARES ways);
 * returns how many, -1 when there are more. */
int fair_shares(const struct fair_tree *tr, enum progress_model m, const bool *ended, const bool *started,
                bool *sets);

/* Which scope's scheduler starves thread t at a point where ended[] and
 * started[] hold under model m: the first group on the way down to t that
 * does not owe progress to the child holding t while another child is
 * schedulable (a lone schedulable child gets minimal progress), as "QF 0
 * (obe) owes WG 1 nothing"; "" when there is none. */
void fair_starver(const struct fair_tree *tr, enum progress_model m, const bool *ended, const bool *started, int t,
                  char *buf, size_t len);

/* The cyclic component, fair under model m, whose first state has the
 * lowest index, or -1 when there is none (every fair run terminates).
 * For it, need[t] (nthreads entries) says which threads a fair cycle must
 * step: those the model obliges to run, and have not ended (without one,
 * need holds nothing of use). */
int fair_find(const struct fair_sccs *f, const struct fair_tree *tr, enum progress_model m, bool *need);

#endif
