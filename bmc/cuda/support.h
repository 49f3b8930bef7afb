/* What the CUDA harness can run: a PTX test on one GPU whose every
 * instruction has inline PTX, with barriers it can match in hardware. */
#ifndef GPUBMC_CUDA_SUPPORT_H
#define GPUBMC_CUDA_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "bmc/cuda/layout.h"
#include "litmus/ast.h"

/* True when l can be emitted with layout c; otherwise false with why, one
 * sentence naming the construct: a Vulkan test, threads on several GPUs,
 * a texture, surface or constant proxy of a location (generic aliases
 * run: bmc/cuda/layout.h), an instruction without PTX counterpart
 * (bmc/cuda/ptx_asm.h), or a CTA whose threads do not all pass the same
 * barriers in straight-line code (a hardware bar.cta.sync waits for every
 * thread of the block). */
bool cuda_supported(const struct litmus *l, const struct cuda_layout *c, char *why, size_t len);

/* True when thread th has a bar.cta.sync. */
bool cuda_thread_has_barrier(const struct thread *th);

#endif
