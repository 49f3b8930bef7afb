/* A lasso of the state graph: the shortest stem from the initial state to
 * a fair component (bmc/concrete/fair.h) and a cycle inside it through a step of
 * every thread the progress model obliges to run.  Repeating the cycle for
 * ever is a fair run that never terminates. */
#ifndef GPUBMC_LASSO_H
#define GPUBMC_LASSO_H

#include <stddef.h>

#include "bmc/concrete/fair.h"

/* What a thread does for ever on the lasso's cycle. */
enum lasso_how {
    LASSO_ENDS,              /* it has ended: not stuck */
    LASSO_SPINS,             /* it steps, and writes nothing */
    LASSO_REPEATS,           /* it steps and writes (a livelock) */
    LASSO_HALTED             /* it takes no step: the scheduler never runs it again */
};

struct lasso {
    int nstem, ncycle;
    int *step;               /* nstem + ncycle: the thread of each step */
    int entry;               /* the state the stem ends and the cycle starts at */
    enum lasso_how *how;     /* per thread */
};

/* Builds the lasso into component scc, whose cycle steps each thread t
 * with need[t]. */
void lasso_find(const struct state_graph *g, const struct fair_sccs *f, int scc, const bool *need,
                struct lasso *out);
/* "P1 spins, P0 halted" (short, for a table) or, with full, "P1 spins
 * for ever; the scheduler never runs P0 again". */
void lasso_describe(const struct litmus *l, const struct lasso *la, bool full, char *buf, size_t len);
/* The name of a way of being stuck: "spins", "repeats", "halted". */
const char *lasso_how_name(enum lasso_how h);
/* Frees a lasso. */
void lasso_free(struct lasso *la);

#endif
