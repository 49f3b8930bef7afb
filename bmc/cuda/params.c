/* The harness parameters: names, defaults and ranges, following the GPU
 * litmus literature (Alglave et al., ASPLOS'15; Kirkham et al., MC Mutants,
 * ASPLOS'23): idle blocks that stress memory, random placement of threads
 * and locations, a spin barrier before each instance, many iterations. */
#include "bmc/cuda/params.h"

/* One parameter: its name in params.txt, default, range and meaning. */
struct cuda_param {
    const char *name;
    long def, min, max;
    const char *help;
};

static const struct cuda_param params[] = {
    { "iterations", 100, 1, 1000000000L,
      "kernel launches; each runs every instance of the test once" },
    { "block_size", 256, 32, 1024,
      "threads per block (a multiple of 32); a block holds as many instances\n"
      "of one CTA of the test as fit" },
    { "testing_blocks", 0, 0, 1000000L,
      "blocks that run instances (rounded down to a multiple of the test's CTA\n"
      "count); 0: every block that fits on the GPU at once beside the stress blocks" },
    { "stress_blocks_per_sm", 1, 0, 64,
      "idle blocks per SM that only stress memory while the instances run" },
    { "mem_stress_iterations", 1024, 0, 100000000L,
      "accesses each thread of a stress block makes to the scratch region" },
    { "mem_stress_pattern", 0, 0, 3,
      "stress accesses: 0 store-store, 1 store-load, 2 load-store, 3 load-load" },
    { "pre_stress_iterations", 64, 0, 100000000L,
      "accesses each test thread makes to the scratch region before its instance (0: none)" },
    { "stress_line_size", 64, 1, 4096, "words per stressed line" },
    { "stress_target_lines", 2, 1, 1024,
      "lines of the scratch region the stress hits, chosen at random per iteration" },
    { "scratch_words", 1048576L, 4096, 268435456L, "size of the scratch region in 32-bit words" },
    { "thread_shuffle", 1, 0, 1,
      "1: random block order, lanes within a block and instance of each slot, per iteration" },
    { "location_shuffle", 1, 0, 1,
      "1: the locations of all instances at random places of one array, per iteration" },
    { "mem_stride", 1, 1, 4096, "words between two location slots of that array" },
    { "pre_sync", 1, 0, 1,
      "1: the threads of an instance meet at a spin barrier before the test" },
    { "spin_limit", 100000L, 1, 1000000000L, "spins of that barrier at most (then the thread goes on)" },
    { "max_loop_steps", 100000L, 1, 1000000000L,
      "backward jumps a test thread may take; past it the instance is cut (not counted)" },
    { "seed", 1, 0, 4611686018427387903L, "random seed (0: from the clock)" },
};

void cuda_params_write_file(FILE *f)
{
    fputs("# Parameters of the gpubmc CUDA litmus harness: NAME = VALUE, '#' starts a comment.\n"
          "# Every program of this directory reads them with -p params.txt; a parameter left\n"
          "# out keeps the default written here.\n", f);
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
        fputs("\n# ", f);
        for (const char *h = params[i].help; *h; h++)
            fputs(*h == '\n' ? "\n# " : (char[]){ *h, '\0' }, f);
        fprintf(f, " (%ld to %ld)\n%s = %ld\n", params[i].min, params[i].max, params[i].name, params[i].def);
    }
}

void cuda_params_write_table(FILE *f)
{
    int n = (int)(sizeof params / sizeof params[0]);
    fputs("struct gb_param {\n    const char *name;\n    long def, min, max;\n};\nenum gb_param_id {", f);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s GP_%s", i ? "," : "", params[i].name);
    fprintf(f, " };\n#define GB_NPARAMS %d\nstatic const struct gb_param gb_param_table[GB_NPARAMS] = {\n", n);
    for (int i = 0; i < n; i++)
        fprintf(f, "    { \"%s\", %ldL, %ldL, %ldL },\n", params[i].name, params[i].def, params[i].min,
                params[i].max);
    fputs("};\n", f);
}
