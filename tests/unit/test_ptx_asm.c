/* Unit tests of the CUDA harness's inline PTX (bmc/cuda/ptx_asm.h): each
 * PTX litmus instruction against the statement that runs it, as a table,
 * and each instruction PTX lacks against its refusal. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "bmc/cuda/ptx_asm.h"

/* One instruction: its litmus text and the statement (or the refusal's
 * words) it must give. */
struct row {
    const char *instr;
    const char *expect;
};

/* Parses a one-thread test around instr (registers r0-r2, locations x and
 * a surface alias s of x). */
static struct litmus *one_instruction(const char *instr)
{
    char text[512];
    snprintf(text, sizeof text, "PTX T\n{ x=0; s @ surface aliases x; P0:r0=0; P0:r1=0; P0:r2=0; }\n"
             " P0@cta 0,gpu 0 ;\n %s ;\nexists (P0:r0 == 0 /\\ P0:r1 == 0 /\\ P0:r2 == 0)\n", instr);
    struct litmus_error err;
    struct litmus *l = litmus_parse("t.litmus", text, &err);
    if (!l)
        fail_msg("`%s` does not parse: %d:%d: %s", instr, err.pos.line, err.pos.col, err.msg);
    return l;
}

static const struct row accepted[] = {
    { "ld.weak r0, x", "asm volatile(\"ld.weak.u32 %0, [%1];\" : \"=r\"(r0) : \"l\"(L_x) : \"memory\");" },
    { "ld.relaxed.cta r1, x", "asm volatile(\"ld.relaxed.cta.u32 %0, [%1];\" : \"=r\"(r1) : \"l\"(L_x) : \"memory\");" },
    { "ld.relaxed.sys r0, x", "asm volatile(\"ld.relaxed.sys.u32 %0, [%1];\" : \"=r\"(r0) : \"l\"(L_x) : \"memory\");" },
    { "ld.acquire.gpu r2, x", "asm volatile(\"ld.acquire.gpu.u32 %0, [%1];\" : \"=r\"(r2) : \"l\"(L_x) : \"memory\");" },
    { "st.weak x, 1", "asm volatile(\"st.weak.u32 [%0], %1;\" :: \"l\"(L_x), \"r\"(1) : \"memory\");" },
    { "st.relaxed.gpu x, r1", "asm volatile(\"st.relaxed.gpu.u32 [%0], %1;\" :: \"l\"(L_x), \"r\"(r1) : \"memory\");" },
    { "st.release.sys x, -5", "asm volatile(\"st.release.sys.u32 [%0], %1;\" :: \"l\"(L_x), \"r\"(-5) : \"memory\");" },
    { "st.release.cta x, 0xFFFFFFFF", "asm volatile(\"st.release.cta.u32 [%0], %1;\" :: \"l\"(L_x), \"r\"(-1) : \"memory\");" },
    { "st.weak x, -2147483648", "asm volatile(\"st.weak.u32 [%0], %1;\" :: \"l\"(L_x), \"r\"(INT32_MIN) : \"memory\");" },
    { "atom.relaxed.gpu.add r0, x, 1",
      "asm volatile(\"atom.relaxed.gpu.add.u32 %0, [%1], %2;\" : \"=r\"(r0) : \"l\"(L_x), \"r\"(1) : \"memory\");" },
    { "atom.acquire.cta.sub r0, x, 2",
      "asm volatile(\"atom.acquire.cta.add.u32 %0, [%1], %2;\" : \"=r\"(r0) : \"l\"(L_x), \"r\"(-2) : \"memory\");" },
    { "atom.release.sys.sub r0, x, r1",
      "asm volatile(\"atom.release.sys.add.u32 %0, [%1], %2;\" : \"=r\"(r0) : \"l\"(L_x), "
      "\"r\"((int32_t)(0u - (uint32_t)r1)) : \"memory\");" },
    { "atom.relaxed.gpu.sub r0, x, -2147483648",
      "asm volatile(\"atom.relaxed.gpu.add.u32 %0, [%1], %2;\" : \"=r\"(r0) : \"l\"(L_x), \"r\"(INT32_MIN) : \"memory\");" },
    { "atom.acq_rel.gpu.and r0, x, 6",
      "asm volatile(\"atom.acq_rel.gpu.and.b32 %0, [%1], %2;\" : \"=r\"(r0) : \"l\"(L_x), \"r\"(6) : \"memory\");" },
    { "atom.acq_rel.gpu.or r0, x, 6",
      "asm volatile(\"atom.acq_rel.gpu.or.b32 %0, [%1], %2;\" : \"=r\"(r0) : \"l\"(L_x), \"r\"(6) : \"memory\");" },
    { "atom.acq_rel.gpu.xor r0, x, 6",
      "asm volatile(\"atom.acq_rel.gpu.xor.b32 %0, [%1], %2;\" : \"=r\"(r0) : \"l\"(L_x), \"r\"(6) : \"memory\");" },
    { "atom.relaxed.sys.exch r1, x, r2",
      "asm volatile(\"atom.relaxed.sys.exch.b32 %0, [%1], %2;\" : \"=r\"(r1) : \"l\"(L_x), \"r\"(r2) : \"memory\");" },
    { "atom.acq_rel.gpu.cas r0, x, 0, 1",
      "asm volatile(\"atom.acq_rel.gpu.cas.b32 %0, [%1], %2, %3;\" : \"=r\"(r0) : \"l\"(L_x), \"r\"(0), \"r\"(1) : \"memory\");" },
    { "red.relaxed.gpu.add x, 1", "asm volatile(\"red.relaxed.gpu.add.u32 [%0], %1;\" :: \"l\"(L_x), \"r\"(1) : \"memory\");" },
    { "red.release.gpu.sub x, 1", "asm volatile(\"red.release.gpu.add.u32 [%0], %1;\" :: \"l\"(L_x), \"r\"(-1) : \"memory\");" },
    { "red.relaxed.cta.or x, r1", "asm volatile(\"red.relaxed.cta.or.b32 [%0], %1;\" :: \"l\"(L_x), \"r\"(r1) : \"memory\");" },
    { "fence.sc.cta", "asm volatile(\"fence.sc.cta;\" ::: \"memory\");" },
    { "fence.sc.gpu", "asm volatile(\"fence.sc.gpu;\" ::: \"memory\");" },
    { "fence.acq_rel.sys", "asm volatile(\"fence.acq_rel.sys;\" ::: \"memory\");" },
    { "fence.proxy.alias", "asm volatile(\"fence.proxy.alias;\" ::: \"memory\");" },
    { "bar.cta.sync 0", "asm volatile(\"bar.cta.sync 0;\" ::: \"memory\");" },
    { "bar.cta.sync 15", "asm volatile(\"bar.cta.sync 15;\" ::: \"memory\");" },
    { "add r0, r1, 1", "asm volatile(\"add.s32 %0, %1, %2;\" : \"=r\"(r0) : \"r\"(r1), \"r\"(1) : \"memory\");" },
    { "sub r0, r1, r2", "asm volatile(\"sub.s32 %0, %1, %2;\" : \"=r\"(r0) : \"r\"(r1), \"r\"(r2) : \"memory\");" },
    { "mul r0, r1, 3", "asm volatile(\"mul.lo.s32 %0, %1, %2;\" : \"=r\"(r0) : \"r\"(r1), \"r\"(3) : \"memory\");" },
    { "div r0, r1, 3", "asm volatile(\"div.s32 %0, %1, %2;\" : \"=r\"(r0) : \"r\"(r1), \"r\"(3) : \"memory\");" },
    { "ld r0, 5", "asm volatile(\"mov.b32 %0, %1;\" : \"=r\"(r0) : \"r\"(5) : \"memory\");" },
    { "ld r0, r2", "asm volatile(\"mov.b32 %0, %1;\" : \"=r\"(r0) : \"r\"(r2) : \"memory\");" },
};

static const struct row refused[] = {
    { "atom.relaxed.gpu.mul r0, x, 2", "PTX has no atom.mul" },
    { "atom.relaxed.gpu.div r0, x, 2", "PTX has no atom.div" },
    { "red.relaxed.gpu.mul x, 2", "PTX has no red.mul" },
    { "red.acq_rel.gpu.add x, 1", "PTX's red is .relaxed or .release" },
    { "red.acquire.sys.or x, 1", "PTX's red is .relaxed or .release" },
    { "bar.cta.arrive 0", "bar.cta.arrive needs a thread count" },
    { "bar.cta.sync 1, 2", "a barrier with an id or a quorum" },
    { "bar.cta.sync 1, r0, 64", "a barrier with an id or a quorum" },
    { "bar.cta.sync 16", "PTX has barriers 0 to 15" },
    { "fence.proxy.surface", "PTX has no fence.proxy.surface" },
    { "fence.proxy.texture", "PTX has no fence.proxy.texture" },
    { "suld.weak r0, s", "a surface-proxy access needs a bound surface object" },
    { "sust.weak s, 1", "a surface-proxy access needs a bound surface object" },
    { "tld.weak r0, x", "a texture-proxy access needs a bound texture object" },
    { "cold.weak r0, x", "a constant-proxy access needs a bound constant bank" },
};

/* Every accepted instruction gives exactly its statement. */
static void test_instruction_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++) {
        struct litmus *l = one_instruction(accepted[i].instr);
        char stmt[512], why[400] = "";
        bool ok = ptx_asm_statement(l, &l->threads[0], &l->threads[0].instrs[0], stmt, sizeof stmt, why, sizeof why);
        if (!ok)
            fail_msg("`%s` refused: %s", accepted[i].instr, why);
        if (strcmp(stmt, accepted[i].expect) != 0)
            fail_msg("`%s`:\n  got      %s\n  expected %s", accepted[i].instr, stmt, accepted[i].expect);
        litmus_free(l);
    }
}

/* Every refused instruction says why, naming itself. */
static void test_refusals(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        struct litmus *l = one_instruction(refused[i].instr);
        char stmt[512], why[400] = "";
        if (ptx_asm_statement(l, &l->threads[0], &l->threads[0].instrs[0], stmt, sizeof stmt, why, sizeof why))
            fail_msg("`%s` accepted as %s", refused[i].instr, stmt);
        if (!strstr(why, refused[i].expect) || !strstr(why, refused[i].instr))
            fail_msg("`%s`: reason '%s' lacks '%s' or the instruction", refused[i].instr, why, refused[i].expect);
        litmus_free(l);
    }
}

/* The PTX of each accepted statement is the litmus mnemonic with its type
 * (and sub as add), so the table cannot drift from the text it claims. */
static void test_mnemonics_follow_the_text(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++) {
        const char *in = accepted[i].instr, *asm_text = strchr(accepted[i].expect, '"') + 1;
        char mnemonic[64];
        sscanf(in, "%63[a-z_.0-9]", mnemonic);
        char *sub = strstr(mnemonic, ".sub");
        if (sub && (strncmp(in, "atom", 4) == 0 || strncmp(in, "red", 3) == 0))
            memcpy(sub, ".add", 4);
        bool local = strchr(mnemonic, '.') == NULL;
        if (!local && strncmp(asm_text, mnemonic, strlen(mnemonic)) != 0)
            fail_msg("`%s`: the PTX `%s` does not start with `%s`", in, asm_text, mnemonic);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_instruction_table),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_mnemonics_follow_the_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
