/* Compilation mappings: an OpenCL test compiled to PTX (NVIDIA's Atomics
 * ABI) or to Vulkan (clspv's SPIR-V under the Vulkan memory model) as a
 * compiler would, for checking that the compiled program under ptx-v7.5
 * or vulkan adds no outcome to the source under opencl. */
#ifndef GPUBMC_MAP_H
#define GPUBMC_MAP_H

#include <stdbool.h>
#include <stddef.h>

#include "litmus/ast.h"

/* The mappings by name, space-separated (for messages and --help). */
extern const char map_names[];

/* True when name is a mapping. */
bool map_known(const char *name);

/* The model the compiled tests of mapping name are checked under. */
const char *map_target_model(const char *name);

/* src (an OpenCL test) compiled by mapping name: the same threads,
 * placements (PTX: work-group as CTA, device as GPU; Vulkan: each
 * work-item its own subgroup, work-group as workgroup, device as queue
 * family), registers (by name),
 * locations and initial values, each instruction replaced by its mapped
 * sequence; no condition.  NULL with err filled when src is no OpenCL test
 * or has a filter. */
struct litmus *map_compile(const struct litmus *src, const char *name, char *err, size_t len);

#endif
