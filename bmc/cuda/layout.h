/* Where the threads of a PTX test run in the CUDA harness: the threads of
 * one CTA of the test share a block (a role), each thread's registers sit
 * in one flat array per instance. */
#ifndef GPUBMC_CUDA_LAYOUT_H
#define GPUBMC_CUDA_LAYOUT_H

#include "litmus/ast.h"

struct cuda_layout {
    int nroles;              /* CTAs of the test, in order of first thread */
    int *role_of;            /* per thread: its role */
    int *role_start;         /* nroles + 1 offsets into role_threads */
    int *role_threads;       /* thread indices, role by role, in thread order */
    int max_role_size;
    int *reg_offset;         /* per thread: its first register in the flat array */
    int nregs;               /* registers of all threads */
};

/* The layout of l (one GPU assumed: CTAs are told apart by their cta id). */
void cuda_layout_build(const struct litmus *l, struct cuda_layout *c);

/* Frees what cuda_layout_build made. */
void cuda_layout_free(struct cuda_layout *c);

#endif
