/* The SPIR-V front end: assembly text as spirv-dis writes it, with Dat3M's
 * header comments, translated per thread of the grid into a Vulkan litmus
 * test. */
#ifndef GPUBMC_LITMUS_SPIRV_H
#define GPUBMC_LITMUS_SPIRV_H

#include <stdbool.h>

#include "litmus/ast.h"

/* True when path names a SPIR-V assembly file (".spvasm"). */
bool spirv_path(const char *path);

/* Parses SPIR-V assembly text into a Vulkan litmus test for the grid
 * {threads per subgroup, subgroups per workgroup, workgroups} (NULL: the
 * file's @Config, else 1,1,1); NULL with err filled on a refusal. */
struct litmus *spirv_parse(const char *path, const char *text, const int *grid, struct litmus_error *err);

#endif
