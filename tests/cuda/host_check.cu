/* The host side of an emitted CUDA program, run without a GPU
 * (tests/cuda_tests.py): the emitted file is included with its main
 * renamed, the outcomes of one made-up launch of 64 instances are counted
 * by its own gb_count and printed by its own log and JSON printers, which
 * gpubmc --observed then reads.  Instance i has every register's bit k
 * equal to bit k of i (k: the register's place in the flat array), every
 * location j equal to bit j of i, and is cut when i % 7 == 6.
 * Build: nvcc -DEMITTED='"DIR/NAME.cu"' -o host_check tests/cuda/host_check.cu */
#define main gb_emitted_main
#include EMITTED
#undef main

int main(void)
{
    enum { K = 64 };
    static int32_t regs[K * LT_REGS + 1], batch[K * GB_KEY];
    static uint32_t mem[K * LT_LOCS + 1];
    static int loc_index[K * LT_LOCS + 1], cut[K];
    for (int i = 0; i < K; i++) {
        for (int r = 0; r < LT_REGS; r++)
            regs[i * LT_REGS + r] = (i >> r) & 1;
        for (int j = 0; j < LT_LOCS; j++) {
            loc_index[i * LT_LOCS + j] = i * LT_LOCS + lt_loc_root[j];
            mem[i * LT_LOCS + j] = (uint32_t)((i >> j) & 1);
        }
        cut[i] = i % 7 == 6;
    }
    gb_tally t;
    memset(&t, 0, sizeof t);
    gb_count(t, K, regs, mem, loc_index, cut, batch);
    long p[GB_NPARAMS];
    for (int i = 0; i < GB_NPARAMS; i++)
        p[i] = gb_param_table[i].def;
    p[GP_iterations] = 1;
    gb_layout l;
    memset(&l, 0, sizeof l);
    l.sms = 1, l.testing_blocks = LT_ROLES, l.groups = 1, l.slots = K, l.instances = K;
    snprintf(l.device, sizeof l.device, "no GPU: made-up outcomes");
    gb_print_log(p, l, t, 0.0);
    gb_print_json(stderr, p, l, t, 0.0);
    return 0;
}
