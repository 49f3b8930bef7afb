/* Explicit-state exploration of a program in the interleaving fragment
 * (bmc/concrete/fragment.h).  A state is every thread's program counter and
 * registers (registers dead at the counter zeroed, so that states which
 * behave alike are one), whether it has taken a step yet, and the value of
 * the one location.  A step runs one source instruction of one thread
 * (labels are not steps; an RMW is one step), so each thread's next step
 * is determined by the state: a state has at most one successor per
 * thread, none for a thread at its end. */
#ifndef GPUBMC_STATES_H
#define GPUBMC_STATES_H

#include <stdbool.h>
#include <stdint.h>

#include "litmus/ast.h"

/* One thread's code as the explorer runs it. */
struct st_code {
    int n;                   /* instructions; pc == n: the thread has ended */
    const struct instr *in;
    int *target;             /* per instruction: jump target (its label), -1 */
    int *after, *jump;       /* per instruction: where control goes next when it
                                falls through (jumps), labels skipped */
    int nregs;
    int *dead_from, *dead;   /* the registers dead before pc (n: at the end;
                                none listed at a label, where no step starts
                                or ends): dead[dead_from[pc] .. dead_from[pc + 1]) */
};

/* The explored graph. */
struct state_graph {
    int nthreads, width;     /* int32 words per state (the explorer's: even) */
    int nstates, cap;
    int32_t *words;          /* nstates * width: the states */
    int *succ;               /* nstates * nthreads: successor by a step of
                                thread t, -1 when t has ended */
    int *parent, *via;       /* breadth-first tree: predecessor and its thread */
    int nslots;
    struct state_slot {      /* hash table: a state's index (-1: empty) and hash */
        int index;
        uint32_t hash;
    } *slot;
    int loc;                 /* the one location, -1 when nothing accesses memory */
    int *offset;             /* per thread: its first word (pc * 2 + started,
                                then its registers); word 0 holds the value
                                of the location */
    struct st_code *code;    /* per thread (the allocation of offset and of
                                every thread's arrays too) */
};

/* Explores every state reachable from the initial one, breadth first;
 * false when there are more than limit (g then holds the first limit). */
bool states_explore(const struct litmus *l, long limit, struct state_graph *g);
/* Frees the graph. */
void states_free(struct state_graph *g);

/* The words of state s. */
static inline const int32_t *states_at(const struct state_graph *g, int s)
{
    return &g->words[(size_t)s * g->width];
}

/* Thread t's pc in state s (code[t].n when it has ended). */
static inline int states_pc(const struct state_graph *g, int s, int t)
{
    return states_at(g, s)[g->offset[t]] >> 1;
}

/* Whether thread t has taken a step in state s. */
static inline bool states_started(const struct state_graph *g, int s, int t)
{
    return states_at(g, s)[g->offset[t]] & 1;
}
/* Runs thread t's step from state words in into out (g->width words);
 * false when t has ended.  *wrote: the step writes memory. */
bool states_step(const struct state_graph *g, const int32_t *in, int t, int32_t *out, bool *wrote);
/* Whether thread t's step from state words s writes memory (as
 * states_step's *wrote; false when t has ended). */
bool states_writes(const struct state_graph *g, const int32_t *s, int t);

#endif
