/* What the mapping files share (internal to bmc/compare/): the thread
 * being written, and the Vulkan sequences of map_vulkan.c. */
#ifndef GPUBMC_MAP_IMPL_H
#define GPUBMC_MAP_IMPL_H

#include "litmus/ast.h"

/* The target thread being written. */
struct map_out {
    struct thread *th;
    int cap;
};

/* Appends in to the target thread (its text set later). */
void map_put(struct map_out *o, const struct instr *in);

/* The Vulkan mappings: the sound one, and two wrong on purpose. */
enum vk_mapping { VKMAP_SOUND, VKMAP_RELAXED_RELEASE, VKMAP_PRIVATE };

/* Appends the Vulkan sequence of instruction src of OpenCL test l. */
void map_vulkan_instr(struct map_out *o, const struct litmus *l, enum vk_mapping v, const struct instr *src);

#endif
