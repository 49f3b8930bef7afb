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
    int *loc_root;           /* per location: the location it aliases in the end, or itself */
    int *loc_map;            /* per location: which mapping of the memory it is read through
                                (0 for a root; its own for each alias of a root) */
    int nmaps;               /* mappings of the memory the aliases need */
};

/* The layout of l (one GPU assumed: CTAs are told apart by their cta id;
 * every alias gets its own virtual address: one more mapping of the same
 * memory per alias of a root). */
void cuda_layout_build(const struct litmus *l, struct cuda_layout *c);

/* Frees what cuda_layout_build made. */
void cuda_layout_free(struct cuda_layout *c);

#endif
