/* Reachability in a directed graph over n nodes given as sorted rows
 * (row u is col[start[u] .. start[u+1])), over the edges marked on (all
 * when on is NULL): strongly connected components (Tarjan) and one bitset
 * of reachable nodes per component, computed sinks first; memory is one
 * bitset per component with an outgoing edge. */
#ifndef GPUBMC_REACH_H
#define GPUBMC_REACH_H

#include <stdbool.h>
#include <stdint.h>

struct reach {
    int n, words, nscc;
    int *scc;                /* per node: its component, numbered sinks first */
    long *offset;            /* per component: its bitset in bits, -1 when it reaches nothing
                                (in scc's allocation) */
    uint64_t *bits;
};

/* Computes the components and what each reaches (a path of one or more edges). */
void reach_compute(struct reach *R, int n, const int *start, const int *col, const bool *on);
/* Frees R's arrays. */
void reach_free(struct reach *R);

/* True when a path of one or more edges leads from i to j. */
static inline bool reach_has(const struct reach *R, int i, int j)
{
    long off = R->offset[R->scc[i]];
    return off >= 0 && ((R->bits[off + (unsigned)j / 64] >> ((unsigned)j % 64)) & 1u);
}

#endif
