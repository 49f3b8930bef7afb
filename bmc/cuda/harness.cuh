/* ---- gpubmc CUDA litmus harness (bmc/cuda/harness.cuh): the part every
 * emitted test shares.  The test's constants and tables come before this
 * text, its threads after it.
 *
 * An instance is one copy of the test: its own locations and one GPU
 * thread per test thread.  The threads of one CTA of the test share a
 * block (a "role"); different CTAs are in different blocks.  A block of a
 * role holds `slots` instances of that CTA at lanes permuted at random;
 * `groups` blocks per role, so groups * slots instances run per launch.
 * Blocks past the testing ones only stress memory.  The locations of all
 * instances share one array; an alias of a location is the same word read
 * through another mapping of that array (its own virtual address). */
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include <cuda_runtime.h>
#if LT_MAPS > 1
#include <cudaTypedefs.h>
#endif

/* The test's side, defined after this text. */
__device__ static int lt_role_size(int role);
__device__ static int lt_role_thread(int role, int k);
__device__ static bool lt_run_thread(int tid, uint32_t *const *loc, int32_t *regs, long max_steps);
__device__ static void lt_fill(int role);
static bool lt_filter(const int32_t *regs, const int32_t *mem);
static bool lt_body(const int32_t *regs, const int32_t *mem);

/* What one launch needs on the device. */
struct gb_args {
    uint32_t *loc_base[LT_LOCS + 1];   /* per location: the mapping of the array it is read through */
    const int *loc_index;       /* instances x LT_LOCS: word of the array */
    int32_t *regs;              /* instances x LT_REGS: final registers */
    int *cut;                   /* per instance: a thread ran out of steps */
    unsigned *arrived;          /* per instance: threads at the pre-sync barrier */
    uint32_t *scratch;          /* the stressed region */
    const int *stress_lines;    /* stress_target_lines line numbers */
    const int *block_logical;   /* per testing block: role + LT_ROLES * group */
    const int *lane_pos;        /* per testing block and lane: its position */
    const int *instance_of;     /* per role, group and slot: the instance */
    int testing_blocks, groups, slots;
    long max_loop_steps, spin_limit;
    int pre_sync, stress_iterations, pre_stress_iterations, pattern, line_size, target_lines;
};

/* Accesses lines of the scratch region in the chosen pattern. */
__device__ static void gb_stress(const gb_args &a, int iterations)
{
    uint32_t sink = 0;
    for (int i = 0; i < iterations; i++) {
        int line = a.stress_lines[(i + blockIdx.x) % a.target_lines];
        volatile uint32_t *w = a.scratch + (size_t)line * a.line_size + threadIdx.x % a.line_size;
        switch (a.pattern) {
        case 0: *w = i; *w = i + 1; break;
        case 1: *w = i; sink += *w; break;
        case 2: sink += *w; *w = i; break;
        default: sink += *w; sink += *w; break;
        }
    }
    if (sink == 0xFFFFFFFFu)     /* keeps the loads; almost never true */
        a.scratch[0] = sink;
}

/* Waits (at most spin_limit spins) until every thread of the instance
 * has arrived, so that they start the test together. */
__device__ static void gb_presync(const gb_args &a, int inst)
{
    atomicAdd(&a.arrived[inst], 1u);
    for (long s = 0; s < a.spin_limit; s++)
        if (*(volatile unsigned *)&a.arrived[inst] >= (unsigned)LT_THREADS)
            break;
}

/* One launch: every lane of a testing block runs its instance's thread of
 * its block's role (or, past the instances, only the role's barriers);
 * the other blocks stress memory. */
__global__ void gb_kernel(gb_args a)
{
    if ((int)blockIdx.x >= a.testing_blocks) {
        gb_stress(a, a.stress_iterations);
        return;
    }
    int logical = a.block_logical[blockIdx.x];
    int role = logical % LT_ROLES, group = logical / LT_ROLES;
    int n = lt_role_size(role);
    int pos = a.lane_pos[(size_t)blockIdx.x * blockDim.x + threadIdx.x];
    int slot = pos / n;
    if (slot >= a.slots) {
        lt_fill(role);           /* passes the role's barriers with the test threads */
        return;
    }
    int inst = a.instance_of[((size_t)role * a.groups + group) * a.slots + slot];
    if (a.pre_stress_iterations > 0)
        gb_stress(a, a.pre_stress_iterations);
    if (a.pre_sync)
        gb_presync(a, inst);
    uint32_t *loc[LT_LOCS + 1];
    for (int j = 0; j < LT_LOCS; j++)
        loc[j] = a.loc_base[j] + a.loc_index[(size_t)inst * LT_LOCS + j];
    if (!lt_run_thread(lt_role_thread(role, pos % n), loc, a.regs + (size_t)inst * LT_REGS, a.max_loop_steps))
        a.cut[inst] = 1;
}

/* ---- host side ---- */

#define GB_CHECK(call)                                                                    \
    do {                                                                                  \
        cudaError_t gb_err = (call);                                                      \
        if (gb_err != cudaSuccess) {                                                      \
            fprintf(stderr, "%s: CUDA error: %s (%s)\n", LT_NAME, cudaGetErrorString(gb_err), #call); \
            exit(3);                                                                      \
        }                                                                                 \
    } while (0)

/* Reads NAME = VALUE lines into p; exits with status 2 on a bad line. */
static void gb_read_params(const char *path, long *p)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
        exit(2);
    }
    char line[512];
    for (int no = 1; fgets(line, sizeof line, f); no++) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char name[128], extra[2];
        long v;
        if (sscanf(line, " %127[A-Za-z0-9_] = %ld %1s", name, &v, extra) != 2) {
            if (sscanf(line, " %1s", extra) == 1) {
                fprintf(stderr, "%s:%d: error: expected NAME = INTEGER\n", path, no);
                exit(2);
            }
            continue;
        }
        int i = 0;
        while (i < GB_NPARAMS && strcmp(gb_param_table[i].name, name) != 0)
            i++;
        if (i == GB_NPARAMS) {
            fprintf(stderr, "%s:%d: error: unknown parameter '%s'\n", path, no, name);
            exit(2);
        }
        if (v < gb_param_table[i].min || v > gb_param_table[i].max) {
            fprintf(stderr, "%s:%d: error: %s must be from %ld to %ld\n", path, no, name,
                    gb_param_table[i].min, gb_param_table[i].max);
            exit(2);
        }
        p[i] = v;
    }
    fclose(f);
}

/* splitmix64: the random numbers of the host's permutations. */
static uint64_t gb_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* v[0, n) = 0..n-1, shuffled when shuffle is set. */
static void gb_permutation(int *v, int n, bool shuffle, uint64_t *rng)
{
    for (int i = 0; i < n; i++)
        v[i] = i;
    for (int i = n - 1; shuffle && i > 0; i--) {
        int j = (int)(gb_next(rng) % (uint64_t)(i + 1)), t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

/* Seconds on a monotonic clock. */
static double gb_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A zeroed host buffer of n elements of T. */
template <typename T> static T *gb_host(size_t n)
{
    T *p = (T *)calloc(n ? n : 1, sizeof(T));
    if (!p) {
        fprintf(stderr, "%s: out of memory\n", LT_NAME);
        exit(3);
    }
    return p;
}

/* A device buffer of n elements of T. */
template <typename T> static T *gb_alloc(size_t n)
{
    T *p = NULL;
    GB_CHECK(cudaMalloc((void **)&p, (n ? n : 1) * sizeof(T)));
    return p;
}

/* Copies n elements to the device. */
template <typename T> static void gb_upload(T *dst, const T *src, size_t n)
{
    GB_CHECK(cudaMemcpy(dst, src, n * sizeof(T), cudaMemcpyHostToDevice));
}

/* Copies n elements from the device. */
template <typename T> static void gb_download(T *dst, const T *src, size_t n)
{
    GB_CHECK(cudaMemcpy(dst, src, n * sizeof(T), cudaMemcpyDeviceToHost));
}

#if LT_MAPS > 1
/* A driver function, found through the runtime (no -lcuda at link time). */
template <typename F> static F gb_driver(const char *name)
{
    void *fn = NULL;
    cudaDriverEntryPointQueryResult found;
    GB_CHECK(cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &found));
    if (!fn || found != cudaDriverEntryPointSuccess) {
        fprintf(stderr, "%s: error: the CUDA driver has no %s\n", LT_NAME, name);
        exit(3);
    }
    return (F)fn;
}

#define GB_CU_CHECK(call)                                                                 \
    do {                                                                                  \
        CUresult gb_res = (call);                                                         \
        if (gb_res != CUDA_SUCCESS) {                                                     \
            fprintf(stderr, "%s: CUDA driver error %d (%s)\n", LT_NAME, (int)gb_res, #call); \
            exit(3);                                                                      \
        }                                                                                 \
    } while (0)
#endif

/* The array of the locations, words long, mapped LT_MAPS times at
 * different virtual addresses (maps[0..LT_MAPS-1]): every alias of a
 * location reads and writes the same memory through its own address. */
static void gb_alloc_locations(size_t words, uint32_t **maps)
{
#if LT_MAPS == 1
    maps[0] = gb_alloc<uint32_t>(words);
#else
    GB_CHECK(cudaFree(0));   /* the runtime's context exists */
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    size_t grain = 0;
    GB_CU_CHECK(gb_driver<PFN_cuMemGetAllocationGranularity_v10020>("cuMemGetAllocationGranularity")(
        &grain, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    size_t size = (words * sizeof(uint32_t) + grain - 1) / grain * grain;
    CUmemGenericAllocationHandle memory;
    GB_CU_CHECK(gb_driver<PFN_cuMemCreate_v10020>("cuMemCreate")(&memory, size, &prop, 0));
    CUdeviceptr base;
    GB_CU_CHECK(gb_driver<PFN_cuMemAddressReserve_v10020>("cuMemAddressReserve")(&base, size * LT_MAPS, 0, 0, 0));
    for (int m = 0; m < LT_MAPS; m++) {
        GB_CU_CHECK(gb_driver<PFN_cuMemMap_v10020>("cuMemMap")(base + m * size, size, 0, memory, 0));
        maps[m] = (uint32_t *)(uintptr_t)(base + m * size);
    }
    CUmemAccessDesc access;
    memset(&access, 0, sizeof access);
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    GB_CU_CHECK(gb_driver<PFN_cuMemSetAccess_v10020>("cuMemSetAccess")(base, size * LT_MAPS, &access, 1));
#endif
}

/* How the instances sit on this GPU. */
struct gb_layout {
    int sms, testing_blocks, stress_blocks, groups, slots, instances;
    char device[256];
};

/* Places the blocks: the stress blocks, then as many testing blocks as fit
 * on the GPU at once (all of them must run together for the pre-sync
 * barrier and the spin loops to finish), in whole groups of LT_ROLES. */
static gb_layout gb_place(const long *p)
{
    gb_layout l;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        fprintf(stderr, "%s: error: no CUDA device\n", LT_NAME);
        exit(3);
    }
    cudaDeviceProp prop;
    GB_CHECK(cudaGetDeviceProperties(&prop, 0));
    int per_sm = 0, block = (int)p[GP_block_size];
    GB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gb_kernel, block, 0));
    l.sms = prop.multiProcessorCount;
    snprintf(l.device, sizeof l.device, "%s", prop.name);
    int fit = per_sm * l.sms;
    l.stress_blocks = (int)p[GP_stress_blocks_per_sm] * l.sms;
    if (l.stress_blocks > fit - LT_ROLES)
        l.stress_blocks = fit > LT_ROLES ? fit - LT_ROLES : 0;
    l.testing_blocks = p[GP_testing_blocks] ? (int)p[GP_testing_blocks] : fit - l.stress_blocks;
    l.testing_blocks -= l.testing_blocks % LT_ROLES;
    if (l.testing_blocks + l.stress_blocks > fit)
        fprintf(stderr, "%s: warning: %d blocks do not all fit on the GPU at once (%d do); the pre-sync "
                "barrier and spin loops may run out of steps\n", LT_NAME, l.testing_blocks + l.stress_blocks, fit);
    l.groups = l.testing_blocks / LT_ROLES;
    l.slots = block / LT_MAX_ROLE_SIZE;
    l.instances = l.groups * l.slots;
    if (block % 32 != 0 || l.instances == 0) {
        fprintf(stderr, "%s: error: no instance fits (block_size %d, %d testing blocks, %d CTAs of up to %d "
                "threads)\n", LT_NAME, block, l.testing_blocks, LT_ROLES, LT_MAX_ROLE_SIZE);
        exit(2);
    }
    return l;
}

/* A state: the observed values, then whether the condition's body holds. */
#define GB_KEY (LT_OBS + 1)

/* What the runs saw: the states, in ascending order, and their counts. */
struct gb_tally {
    int nstates, cap;
    int32_t *keys;              /* nstates rows of GB_KEY */
    long *counts;
    long instances, cut, filtered, positive, negative;
};

/* qsort's order of states: value by value. */
static int gb_compare_keys(const void *a, const void *b)
{
    const int32_t *x = (const int32_t *)a, *y = (const int32_t *)b;
    for (int k = 0; k < GB_KEY; k++)
        if (x[k] != y[k])
            return x[k] < y[k] ? -1 : 1;
    return 0;
}

/* Counts n more runs of state key. */
static void gb_add_state(gb_tally &t, const int32_t *key, long n)
{
    int lo = 0, hi = t.nstates;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (gb_compare_keys(t.keys + (size_t)mid * GB_KEY, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < t.nstates && gb_compare_keys(t.keys + (size_t)lo * GB_KEY, key) == 0) {
        t.counts[lo] += n;
        return;
    }
    if (t.nstates == t.cap) {
        t.cap = t.cap ? 2 * t.cap : 64;
        t.keys = (int32_t *)realloc(t.keys, (size_t)t.cap * GB_KEY * sizeof(int32_t));
        t.counts = (long *)realloc(t.counts, (size_t)t.cap * sizeof(long));
        if (!t.keys || !t.counts) {
            fprintf(stderr, "%s: out of memory\n", LT_NAME);
            exit(3);
        }
    }
    memmove(t.keys + (size_t)(lo + 1) * GB_KEY, t.keys + (size_t)lo * GB_KEY,
            (size_t)(t.nstates - lo) * GB_KEY * sizeof(int32_t));
    memmove(t.counts + lo + 1, t.counts + lo, (size_t)(t.nstates - lo) * sizeof(long));
    memcpy(t.keys + (size_t)lo * GB_KEY, key, GB_KEY * sizeof(int32_t));
    t.counts[lo] = n;
    t.nstates++;
}

/* Counts the outcome of every instance of one launch (batch: room for
 * instances keys). */
static void gb_count(gb_tally &t, int instances, const int32_t *regs, const uint32_t *mem,
                     const int *loc_index, const int *cut, int32_t *batch)
{
    int32_t vals[LT_LOCS + 1];
    int n = 0;
    for (int i = 0; i < instances; i++) {
        t.instances++;
        if (cut[i]) {
            t.cut++;
            continue;
        }
        const int32_t *r = regs + (size_t)i * LT_REGS;
        for (int j = 0; j < LT_LOCS; j++)
            vals[j] = (int32_t)mem[loc_index[(size_t)i * LT_LOCS + j]];
        if (!lt_filter(r, vals)) {
            t.filtered++;
            continue;
        }
        int32_t *key = batch + (size_t)n++ * GB_KEY;
        for (int k = 0; k < LT_OBS; k++)
            key[k] = lt_obs_reg[k] >= 0 ? r[lt_obs_reg[k]] : vals[lt_obs_loc[k]];
        key[LT_OBS] = lt_body(r, vals);
        (key[LT_OBS] ? t.positive : t.negative)++;
    }
    qsort(batch, (size_t)n, GB_KEY * sizeof(int32_t), gb_compare_keys);
    for (int i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && gb_compare_keys(batch + (size_t)i * GB_KEY, batch + (size_t)j * GB_KEY) == 0; j++)
            ;
        gb_add_state(t, batch + (size_t)i * GB_KEY, j - i);
    }
}

/* Runs the test p[GP_iterations] times over the whole GPU. */
static void gb_run(const long *p, const gb_layout &l, gb_tally &t)
{
    uint64_t rng = p[GP_seed] ? (uint64_t)p[GP_seed] : (uint64_t)(gb_seconds() * 1e9);
    int block = (int)p[GP_block_size], K = l.instances, stride = (int)p[GP_mem_stride];
    int nlines = (int)(p[GP_scratch_words] / p[GP_stress_line_size]);
    size_t words = (size_t)K * LT_LOCS * stride + 1, nloc = (size_t)K * LT_LOCS;
    size_t nlanes = (size_t)l.testing_blocks * block, nregs = (size_t)K * LT_REGS + 1;
    int *loc_index = gb_host<int>(nloc), *order = gb_host<int>(nloc), *lines = gb_host<int>(nlines);
    int *block_logical = gb_host<int>(l.testing_blocks), *lane_pos = gb_host<int>(nlanes);
    int *instance_of = gb_host<int>((size_t)K * LT_ROLES), *cut = gb_host<int>(K);
    uint32_t *mem = gb_host<uint32_t>(words);
    int32_t *regs = gb_host<int32_t>(nregs), *batch = gb_host<int32_t>((size_t)K * GB_KEY);
    gb_args a;
    uint32_t *maps[LT_MAPS];
    gb_alloc_locations(words, maps);
    for (int j = 0; j < LT_LOCS; j++)
        a.loc_base[j] = maps[lt_loc_map[j]];
    int *d_loc = gb_alloc<int>(nloc), *d_block = gb_alloc<int>(l.testing_blocks), *d_lane = gb_alloc<int>(nlanes);
    int *d_inst = gb_alloc<int>((size_t)K * LT_ROLES), *d_lines = gb_alloc<int>((size_t)p[GP_stress_target_lines]);
    a.loc_index = d_loc, a.block_logical = d_block, a.lane_pos = d_lane, a.instance_of = d_inst;
    a.stress_lines = d_lines;
    a.regs = gb_alloc<int32_t>(nregs);
    a.cut = gb_alloc<int>(K);
    a.arrived = gb_alloc<unsigned>(K);
    a.scratch = gb_alloc<uint32_t>((size_t)p[GP_scratch_words]);
    GB_CHECK(cudaMemset(a.scratch, 0, (size_t)p[GP_scratch_words] * sizeof(uint32_t)));
    a.testing_blocks = l.testing_blocks, a.groups = l.groups, a.slots = l.slots;
    a.max_loop_steps = p[GP_max_loop_steps], a.spin_limit = p[GP_spin_limit];
    a.pre_sync = (int)p[GP_pre_sync], a.stress_iterations = (int)p[GP_mem_stress_iterations];
    a.pre_stress_iterations = (int)p[GP_pre_stress_iterations], a.pattern = (int)p[GP_mem_stress_pattern];
    a.line_size = (int)p[GP_stress_line_size];
    a.target_lines = (int)(p[GP_stress_target_lines] < nlines ? p[GP_stress_target_lines] : nlines);
    bool shuffle = p[GP_thread_shuffle] != 0;
    for (long it = 0; it < p[GP_iterations]; it++) {
        gb_permutation(order, K * LT_LOCS, p[GP_location_shuffle] != 0, &rng);
        memset(mem, 0, words * sizeof(uint32_t));
        for (int i = 0; i < K; i++) {
            for (int j = 0; j < LT_LOCS; j++)
                if (lt_loc_root[j] == j) {
                    int w = order[(size_t)i * LT_LOCS + j] * stride;
                    loc_index[(size_t)i * LT_LOCS + j] = w;
                    mem[w] = (uint32_t)lt_loc_init[j];
                }
            for (int j = 0; j < LT_LOCS; j++)    /* an alias: its root's word */
                loc_index[(size_t)i * LT_LOCS + j] = loc_index[(size_t)i * LT_LOCS + lt_loc_root[j]];
        }
        gb_permutation(block_logical, l.testing_blocks, shuffle, &rng);
        for (int b = 0; b < l.testing_blocks; b++)
            gb_permutation(lane_pos + (size_t)b * block, block, shuffle, &rng);
        for (int r = 0; r < LT_ROLES; r++)
            gb_permutation(instance_of + (size_t)r * K, K, shuffle, &rng);
        gb_permutation(lines, nlines, true, &rng);
        gb_upload(maps[0], mem, words);
        gb_upload(d_loc, loc_index, nloc);
        gb_upload(d_block, block_logical, (size_t)l.testing_blocks);
        gb_upload(d_lane, lane_pos, nlanes);
        gb_upload(d_inst, instance_of, (size_t)K * LT_ROLES);
        gb_upload(d_lines, lines, (size_t)a.target_lines);
        GB_CHECK(cudaMemset(a.regs, 0, nregs * sizeof(int32_t)));
        GB_CHECK(cudaMemset(a.cut, 0, K * sizeof(int)));
        GB_CHECK(cudaMemset(a.arrived, 0, K * sizeof(unsigned)));
        gb_kernel<<<l.testing_blocks + l.stress_blocks, block>>>(a);
        GB_CHECK(cudaGetLastError());
        GB_CHECK(cudaDeviceSynchronize());
        gb_download(regs, a.regs, nregs);
        gb_download(mem, maps[0], words);
        gb_download(cut, a.cut, (size_t)K);
        gb_count(t, K, regs, mem, loc_index, cut, batch);
    }
}

/* One state's bindings, herd-style ("1:r0=1; x=2;") or as JSON members. */
static void gb_print_state(FILE *f, const int32_t *key, bool json)
{
    for (int k = 0; k < LT_OBS; k++) {
        if (json)
            fprintf(f, "%s\"%s\": %d", k ? ", " : "", lt_obs_json[k], (int)key[k]);
        else
            fprintf(f, " %s=%d;", lt_obs_herd[k], (int)key[k]);
    }
}

/* Whether the observed runs validate the test's condition. */
static bool gb_validated(const gb_tally &t)
{
    return LT_QUANT == 1 ? t.positive > 0 : LT_QUANT == 2 ? t.positive == 0 : t.negative == 0;
}

/* The histogram in herd's log format (herdtools' mcompare7 reads it). */
static void gb_print_log(const long *p, const gb_layout &l, const gb_tally &t, double secs)
{
    printf("Test %s %s\n", LT_NAME, LT_KIND);
    printf("Histogram (%d states)\n", t.nstates);
    for (int s = 0; s < t.nstates; s++) {
        const int32_t *key = t.keys + (size_t)s * GB_KEY;
        printf("%-8ld%s>", t.counts[s], key[LT_OBS] ? "*" : ":");
        gb_print_state(stdout, key, false);
        printf("\n");
    }
    printf("%s\n\nWitnesses\nPositive: %ld, Negative: %ld\n", gb_validated(t) ? "Ok" : "No", t.positive,
           t.negative);
    if (LT_CONDITION[0])
        printf("Condition %s is %svalidated\n", LT_CONDITION, gb_validated(t) ? "" : "NOT ");
    printf("Observation %s %s %ld %ld\n", LT_NAME,
           t.positive == 0 ? "Never" : t.negative == 0 ? "Always" : "Sometimes", t.positive, t.negative);
    printf("Time %s %.2f\n", LT_NAME, secs);
    printf("Runs %s %ld instances over %ld iteration%s, %ld cut at max_loop_steps, %ld outside the filter\n",
           LT_NAME, t.instances, p[GP_iterations], p[GP_iterations] == 1 ? "" : "s", t.cut, t.filtered);
    printf("Device %s %s, %d SMs, %d testing and %d stress blocks of %ld threads\n\n", LT_NAME, l.device,
           l.sms, l.testing_blocks, l.stress_blocks, p[GP_block_size]);
}

/* s as a JSON string. */
static void gb_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

/* The same as one JSON object on one line. */
static void gb_print_json(FILE *f, const long *p, const gb_layout &l, const gb_tally &t, double secs)
{
    fprintf(f, "{\"test\": ");
    gb_json_string(f, LT_NAME);
    fprintf(f, ", \"file\": ");
    gb_json_string(f, LT_FILE);
    fprintf(f, ", \"kind\": \"%s\"", LT_KIND);
    fprintf(f, ", \"observed\": [");
    for (int k = 0; k < LT_OBS; k++)
        fprintf(f, "%s\"%s\"", k ? ", " : "", lt_obs_json[k]);
    fprintf(f, "], \"states\": [");
    for (int s = 0; s < t.nstates; s++) {
        const int32_t *key = t.keys + (size_t)s * GB_KEY;
        fprintf(f, "%s{\"values\": {", s ? ", " : "");
        gb_print_state(f, key, true);
        fprintf(f, "}, \"count\": %ld, \"satisfies\": %s}", t.counts[s], key[LT_OBS] ? "true" : "false");
    }
    fprintf(f, "], \"positive\": %ld, \"negative\": %ld, \"instances\": %ld, \"cut\": %ld, \"filtered\": %ld, "
            "\"time_s\": %.3f, \"device\": ", t.positive, t.negative, t.instances, t.cut, t.filtered, secs);
    gb_json_string(f, l.device);
    fprintf(f, ", \"layout\": {\"sms\": %d, \"testing_blocks\": %d, \"stress_blocks\": %d, \"instances\": %d}, "
            "\"params\": {", l.sms, l.testing_blocks, l.stress_blocks, l.instances);
    for (int i = 0; i < GB_NPARAMS; i++)
        fprintf(f, "%s\"%s\": %ld", i ? ", " : "", gb_param_table[i].name, p[i]);
    fprintf(f, "}}\n");
}

/* ./NAME [-p PARAMS.txt] [-j OUT.json]: the run, its log on stdout. */
int main(int argc, char **argv)
{
    long p[GB_NPARAMS];
    for (int i = 0; i < GB_NPARAMS; i++)
        p[i] = gb_param_table[i].def;
    const char *json = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-p") == 0 && i + 1 < argc) {
            gb_read_params(argv[++i], p);
        } else if (strcmp(argv[i], "-j") == 0 && i + 1 < argc) {
            json = argv[++i];
        } else {
            fprintf(stderr, "usage: %s [-p PARAMS.txt] [-j OUT.json]\n"
                    "Runs the litmus test %s on the GPU; prints the outcomes in herd's log format\n"
                    "and, with -j, appends them to OUT.json as one JSON line.\n", argv[0], LT_NAME);
            return 2;
        }
    }
    gb_layout l = gb_place(p);
    gb_tally t;
    memset(&t, 0, sizeof t);
    double t0 = gb_seconds();
    gb_run(p, l, t);
    double secs = gb_seconds() - t0;
    gb_print_log(p, l, t, secs);
    if (json) {
        FILE *f = fopen(json, "a");
        if (!f) {
            fprintf(stderr, "%s: cannot open: %s\n", json, strerror(errno));
            return 2;
        }
        gb_print_json(f, p, l, t, secs);
        fclose(f);
    }
    return 0;
}
