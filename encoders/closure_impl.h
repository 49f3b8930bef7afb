/* Internals of the closures, shared by closure.c (the closures, their
 * entries, rows and exact gates) and closure_lazy.c (the step clauses a
 * big closure gets when a model lacks them); nothing else includes it. */
#ifndef GPUBMC_CLOSURE_IMPL_H
#define GPUBMC_CLOSURE_IMPL_H

#include "encoders/cnf_impl.h"
#include "encoders/reach.h"

/* A row of t handed out: its columns and literals. */
struct trow { int len; int *col; lit *val; };

struct closure {
    int n;
    int *rs, *rc;            /* r: rows */
    lit *rv;
    int *ps, *pk, *pe;       /* per node j: predecessors k of j in r and the index of (k, j) */
    struct reach may, must;
    int count, cap;          /* entries made: (ei, ej), literal ev; need: negative side required */
    int *ei, *ej;
    lit *ev;
    unsigned char *need;
    uint64_t *keys;          /* open addressing: (i * n + j) + 1 -> slot[], 0 empty */
    int *slot;
    size_t kcap, kused;
    struct trow *rows[2];    /* per row (column), once handed out */
    int *size[2];            /* per row (column): its number of entries, -1 until counted */
    lit *exact;              /* per entry (all made), Warshall's literal, once needed */
    bool eager, pending;     /* step clauses at once; some lazy entry needs checking */
};

struct closures { struct closure *list; int count, cap; };

/* The literal of t(i, j) in closure number index, its gate made on first use. */
lit closure_entry(struct cnf *c, struct closure *cl, int index, int i, int j);
/* The index of (i, j) in the closure's r, or -1. */
int closure_r_find(const struct closure *cl, int i, int j);
/* After a satisfying model: for each entry of a big closure left false
 * though a path of true pairs reaches it, the clause "that path -> the
 * entry"; returns how many were added. */
long closure_refine(struct cnf *c);

#endif
