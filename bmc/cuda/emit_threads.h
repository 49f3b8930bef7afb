/* The device side of an emitted CUDA test: one function per test thread,
 * and the tables the harness kernel asks for. */
#ifndef GPUBMC_CUDA_EMIT_THREADS_H
#define GPUBMC_CUDA_EMIT_THREADS_H

#include <stdio.h>

#include "bmc/cuda/layout.h"
#include "litmus/ast.h"

/* Writes lt_thread_N for each thread (its instructions in order, each
 * inline PTX after a comment with its litmus text; branches as C gotos,
 * every backward jump counted against max_steps), lt_run_thread,
 * lt_role_size, lt_role_thread and lt_fill (the barriers of a role, for
 * the lanes of its blocks that run no test thread).  l must be supported
 * (bmc/cuda/support.h). */
void cuda_emit_threads(FILE *f, const struct litmus *l, const struct cuda_layout *c);

#endif
