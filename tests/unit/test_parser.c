/* Unit tests of the litmus front end: ASTs of small PTX and Vulkan tests,
 * and errors with their line:col and message. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/ast.h"
#include "litmus/equal.h"
#include "litmus/printer.h"

/* Parses text, failing the test with the error message if it does not parse. */
static struct litmus *parse_ok(const char *text)
{
    struct litmus_error err;
    struct litmus *l = litmus_parse("test.litmus", text, &err);
    if (!l)
        fail_msg("unexpected error %d:%d: %s", err.pos.line, err.pos.col, err.msg);
    return l;
}

/* Checks that text fails at line:col with a message containing msg. */
static void expect_error(const char *text, int line, int col, const char *msg)
{
    struct litmus_error err;
    struct litmus *l = litmus_parse("bad.litmus", text, &err);
    if (l) {
        litmus_free(l);
        fail_msg("expected error '%s', but the text parsed:\n%s", msg, text);
    }
    if (err.pos.line != line || err.pos.col != col || !strstr(err.msg, msg))
        fail_msg("expected %d:%d '%s', got %d:%d '%s' for:\n%s",
                 line, col, msg, err.pos.line, err.pos.col, err.msg, text);
}

static int loc_named(const struct litmus *l, const char *name)
{
    for (int i = 0; i < l->nlocs; i++)
        if (strcmp(l->locs[i].name, name) == 0)
            return i;
    return -1;
}

static int reg_named(const struct thread *t, const char *name)
{
    for (int i = 0; i < t->nregs; i++)
        if (strcmp(t->reg_names[i], name) == 0)
            return i;
    return -1;
}

static const char *const ptx_sb =
    "PTX SB+fence\n"
    "\"store buffering\" (* a comment *)\n"
    "{\n"
    "x=0; y=7;\n"
    "P0:r0=0;\n"
    "1:r1=-3;\n"
    "}\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
    " st.weak x, 1   | st.relaxed.gpu y, 2 ;\n"
    " fence.sc.cta   | fence.acq_rel.gpu ;\n"
    " ld.weak r0, y  | ld.acquire.sys r1, x ;\n"
    "exists (P0:r0 == 0 /\\ 1:r1 = 0)\n";

static void test_ptx_store_buffering(void **state)
{
    (void)state;
    struct litmus *l = parse_ok(ptx_sb);
    assert_int_equal(l->dialect, DIALECT_PTX);
    assert_string_equal(l->name, "SB+fence");
    assert_string_equal(l->doc, "\"store buffering\" (* a comment *)");
    assert_string_equal(l->path, "test.litmus");
    assert_int_equal(l->nthreads, 2);
    const struct thread *t0 = &l->threads[0], *t1 = &l->threads[1];
    assert_int_equal(t0->id, 0);
    assert_int_equal(t1->scope_id[0], 1);
    assert_int_equal(t1->scope_id[1], 0);
    assert_int_equal(t1->scope_id[2], -1);
    assert_int_equal(l->nlocs, 2);
    assert_int_equal(l->locs[loc_named(l, "y")].init, 7);
    assert_int_equal(l->locs[loc_named(l, "x")].alias_of, -1);
    assert_true(t1->reg_has_init[reg_named(t1, "r1")]);
    assert_int_equal(t1->reg_init[reg_named(t1, "r1")], -3);

    assert_int_equal(t0->ninstrs, 3);
    const struct instr *st = &t0->instrs[0];
    assert_int_equal(st->kind, I_STORE);
    assert_int_equal(st->mo, MO_WEAK);
    assert_int_equal(st->scope, SCOPE_NONE);
    assert_int_equal(st->loc, loc_named(l, "x"));
    assert_false(st->a.is_reg);
    assert_int_equal(st->a.value, 1);
    assert_int_equal(st->dst, -1);
    assert_string_equal(st->text, "st.weak x, 1");
    assert_int_equal(st->pos.line, 9);
    assert_int_equal(st->pos.col, 2);

    const struct instr *rst = &t1->instrs[0];
    assert_int_equal(rst->mo, MO_RELAXED);
    assert_int_equal(rst->scope, SCOPE_GPU);
    assert_int_equal(t0->instrs[1].kind, I_FENCE);
    assert_int_equal(t0->instrs[1].mo, MO_SC);
    assert_int_equal(t0->instrs[1].scope, SCOPE_CTA);
    assert_int_equal(t1->instrs[1].mo, MO_ACQ_REL);

    const struct instr *ld = &t1->instrs[2];
    assert_int_equal(ld->kind, I_LOAD);
    assert_int_equal(ld->mo, MO_ACQUIRE);
    assert_int_equal(ld->scope, SCOPE_SYS);
    assert_int_equal(ld->dst, reg_named(t1, "r1"));
    assert_int_equal(ld->loc, loc_named(l, "x"));
    assert_string_equal(ld->text, "ld.acquire.sys r1, x");

    assert_int_equal(l->quant, Q_EXISTS);
    const struct assertion *a = l->assertion;
    assert_int_equal(a->kind, A_AND);
    assert_int_equal(a->lhs->kind, A_CMP);
    assert_int_equal(a->lhs->a.kind, AV_REG);
    assert_int_equal(a->lhs->a.thread, 0);
    assert_int_equal(a->rhs->a.thread, 1);
    assert_int_equal(a->rhs->cmp, CMP_EQ);
    assert_int_equal(a->rhs->b.kind, AV_CONST);
    assert_null(l->filter);
    char *printed = litmus_print(l);   /* the doc text follows the name line */
    assert_non_null(printed);
    assert_true(strncmp(printed, "PTX SB+fence\n\"store buffering\" (* a comment *)\n{", 48) == 0);
    free(printed);
    litmus_free(l);
}

static const char *const ptx_misc =
    "ptx misc\n"
    "{ x=0; s @ surface aliases x; t @ texture aliases x; c @ constant aliases x; }\n"
    "P3@cta 0,gpu 1 | P1@cta 0,gpu 1;\n"
    "atom.acq_rel.gpu.cas r1, x, 0, r2 | LC00: ;\n"
    "red.release.cta.xor x, 5 | bar.cta.arrive 2, r3, 0x10 ;\n"
    "atom.relaxed.sys.exch r4, x, 1 | bar.cta.sync 0 ;\n"
    "sust.weak s, 1 | bar.cta.sync 1, 3 ;\n"
    "tld.weak r5, t | ld r6, -4 ;\n"
    "fence.proxy.texture | add r7, r6, 2 ;\n"
    "fence.proxy.alias | blt r7, r6, LC00 ;\n"
    "cold.weak r8, c | goto LC00 ;\n";

static void test_ptx_rmw_barriers_proxies(void **state)
{
    (void)state;
    struct litmus *l = parse_ok(ptx_misc);
    const struct thread *t0 = &l->threads[0], *t1 = &l->threads[1];
    assert_int_equal(t0->id, 3);
    assert_int_equal(t0->scope_id[1], 1);
    assert_int_equal(l->quant, Q_NONE);
    assert_null(l->assertion);

    int s = loc_named(l, "s"), x = loc_named(l, "x");
    assert_int_equal(l->locs[s].alias_of, x);
    assert_int_equal(l->locs[s].alias_proxy, PROXY_SURFACE);
    assert_int_equal(l->locs[loc_named(l, "t")].alias_proxy, PROXY_TEXTURE);
    assert_int_equal(l->locs[loc_named(l, "c")].alias_proxy, PROXY_CONSTANT);

    const struct instr *cas = &t0->instrs[0];
    assert_int_equal(cas->kind, I_RMW);
    assert_int_equal(cas->op, OP_CAS);
    assert_int_equal(cas->mo, MO_ACQ_REL);
    assert_false(cas->a.is_reg);
    assert_int_equal(cas->a.value, 0);
    assert_true(cas->b.is_reg);
    assert_int_equal(cas->b.reg, reg_named(t0, "r2"));

    const struct instr *red = &t0->instrs[1];
    assert_int_equal(red->kind, I_RMW);
    assert_int_equal(red->dst, -1);
    assert_int_equal(red->op, OP_XOR);
    assert_int_equal(red->mo, MO_RELEASE);
    assert_int_equal(t0->instrs[2].op, OP_EXCH);
    assert_int_equal(t0->instrs[3].proxy, PROXY_SURFACE);
    assert_int_equal(t0->instrs[4].proxy, PROXY_TEXTURE);
    assert_int_equal(t0->instrs[5].kind, I_PROXY_FENCE);
    assert_int_equal(t0->instrs[5].proxy, PROXY_TEXTURE);
    assert_int_equal(t0->instrs[6].kind, I_ALIAS_FENCE);
    assert_int_equal(t0->instrs[7].proxy, PROXY_CONSTANT);

    assert_int_equal(t1->instrs[0].kind, I_LABEL);
    assert_int_equal(t1->nlabels, 1);
    assert_string_equal(t1->label_names[0], "LC00");
    const struct instr *arrive = &t1->instrs[1];
    assert_int_equal(arrive->kind, I_BARRIER);
    assert_true(arrive->arrive);
    assert_int_equal(arrive->scope, SCOPE_CTA);
    assert_int_equal(arrive->bar_instance, 2);
    assert_true(arrive->has_bar_id && arrive->bar_id.is_reg);
    assert_true(arrive->has_bar_quorum);
    assert_int_equal(arrive->bar_quorum.value, 16);
    assert_false(t1->instrs[2].has_bar_id);
    assert_false(t1->instrs[2].arrive);
    assert_true(t1->instrs[3].has_bar_id);
    assert_false(t1->instrs[3].has_bar_quorum);

    const struct instr *mov = &t1->instrs[4];
    assert_int_equal(mov->kind, I_LOCAL);
    assert_int_equal(mov->op, OP_EXCH);
    assert_int_equal(mov->a.value, -4);
    assert_int_equal(t1->instrs[5].op, OP_ADD);
    assert_int_equal(t1->instrs[6].kind, I_BRANCH);
    assert_int_equal(t1->instrs[6].cmp, CMP_LT);
    assert_int_equal(t1->instrs[6].label, 0);
    assert_int_equal(t1->instrs[7].kind, I_GOTO);
    litmus_free(l);
}

static const char *const vulkan_text =
    "Vulkan everything\n"
    "{ x=0; y aliases x; }\n"
    "{ ssw P1 0; }\n"
    "P0@sg 0, wg 1, qf 2 | P1@sg 3,wg 4,qf 5 ;\n"
    "ld.nonpriv.sc1 r0, x | st.av.wg.sc0 x, r1 ;\n"
    "ld.vis.qf.sc2 r2, y | st.atom.rel.dv.sc0.semsc0.semsc2.semav x, 1 ;\n"
    "ld.atom.sg.sc3 r3, x | rmw.atom.acq_rel.wg.sc0.semsc1.semav.semvis.add r4, x, 2 ;\n"
    "ld.atom.acq.wg.sc0.semsc0.semvis r5, x | rmw.atom.dv.sc1 r6, x, 3 ;\n"
    "membar.acq_rel.dv.semsc0.semav.semvis | cbar.wg 1 ;\n"
    "cbar.acq.wg.semsc0 2, r0, 4 | avdevice ;\n"
    "xor r7, r0, 1 | visdevice ;\n"
    "st.sc0 x, 1 | ;\n"
    "filter (x == 1)\n"
    "~exists (P0:r5 != 0 \\/ y = 2)\n";

static void test_vulkan_instructions(void **state)
{
    (void)state;
    struct litmus *l = parse_ok(vulkan_text);
    const struct thread *t0 = &l->threads[0], *t1 = &l->threads[1];
    assert_int_equal(l->dialect, DIALECT_VULKAN);
    assert_int_equal(t1->scope_id[0], 3);
    assert_int_equal(t1->scope_id[2], 5);
    assert_int_equal(l->nssw, 1);
    assert_int_equal(l->ssw[0].from, 1);
    assert_int_equal(l->ssw[0].to, 0);
    assert_int_equal(l->locs[loc_named(l, "y")].alias_of, loc_named(l, "x"));

    const struct instr *in = &t0->instrs[0];
    assert_int_equal(in->kind, I_LOAD);
    assert_int_equal(in->mo, MO_WEAK);
    assert_int_equal(in->vk_flags, VK_NONPRIV);
    assert_int_equal(in->storage_class, 1);
    in = &t0->instrs[1];
    assert_int_equal(in->vk_flags, VK_NONPRIV | VK_VIS);
    assert_int_equal(in->scope, SCOPE_QF);
    in = &t0->instrs[2];
    assert_int_equal(in->mo, MO_RELAXED);
    assert_int_equal(in->vk_flags, VK_ATOMIC | VK_NONPRIV | VK_VIS);
    assert_int_equal(in->scope, SCOPE_SG);
    assert_int_equal(in->storage_class, 3);
    in = &t0->instrs[3];
    assert_int_equal(in->mo, MO_ACQUIRE);
    assert_int_equal(in->semsc, 1);
    assert_true(in->vk_flags & VK_SEMVIS);
    in = &t0->instrs[4];
    assert_int_equal(in->kind, I_FENCE);
    assert_int_equal(in->mo, MO_ACQ_REL);
    assert_int_equal(in->scope, SCOPE_DV);
    assert_int_equal(in->storage_class, -1);
    assert_int_equal(in->vk_flags, VK_SEMAV | VK_SEMVIS);
    in = &t0->instrs[5];
    assert_int_equal(in->kind, I_BARRIER);
    assert_int_equal(in->mo, MO_ACQUIRE);
    assert_int_equal(in->bar_instance, 2);
    assert_true(in->has_bar_id && in->has_bar_quorum);
    assert_int_equal(in->bar_quorum.value, 4);
    assert_int_equal(t0->instrs[6].op, OP_XOR);
    assert_int_equal(t0->instrs[7].vk_flags, 0);
    assert_int_equal(t0->instrs[7].scope, SCOPE_NONE);

    in = &t1->instrs[0];
    assert_int_equal(in->kind, I_STORE);
    assert_int_equal(in->vk_flags, VK_NONPRIV | VK_AV);
    assert_int_equal(in->scope, SCOPE_WG);
    assert_true(in->a.is_reg);
    in = &t1->instrs[1];
    assert_int_equal(in->mo, MO_RELEASE);
    assert_int_equal(in->semsc, 5);
    assert_int_equal(in->vk_flags, VK_ATOMIC | VK_NONPRIV | VK_AV | VK_SEMAV);
    in = &t1->instrs[2];
    assert_int_equal(in->kind, I_RMW);
    assert_int_equal(in->op, OP_ADD);
    assert_int_equal(in->mo, MO_ACQ_REL);
    assert_int_equal(in->semsc, 2);
    in = &t1->instrs[3];
    assert_int_equal(in->op, OP_EXCH);
    assert_int_equal(in->mo, MO_RELAXED);
    in = &t1->instrs[4];
    assert_int_equal(in->kind, I_BARRIER);
    assert_int_equal(in->mo, MO_NONE);
    assert_int_equal(in->scope, SCOPE_WG);
    assert_false(in->has_bar_id);
    assert_int_equal(t1->instrs[5].kind, I_AVDEVICE);
    assert_int_equal(t1->instrs[6].kind, I_VISDEVICE);
    assert_int_equal(t1->ninstrs, 7);

    assert_non_null(l->filter);
    assert_int_equal(l->filter->a.kind, AV_LOC);
    assert_int_equal(l->quant, Q_NOT_EXISTS);
    assert_int_equal(l->assertion->kind, A_OR);
    assert_int_equal(l->assertion->rhs->a.loc, loc_named(l, "y"));
    litmus_free(l);
}

static const char *const tiny_prefix = "PTX t\n{ x=0; }\nP0@cta 0,gpu 0;\nst.weak x, 1;\n";

/* Parses tiny_prefix followed by tail. */
static struct litmus *parse_with_tail(const char *tail)
{
    char text[512];
    snprintf(text, sizeof text, "%s%s", tiny_prefix, tail);
    return parse_ok(text);
}

static void test_assertion_precedence(void **state)
{
    (void)state;
    struct litmus *l = parse_with_tail("forall x == 1 \\/ x == 2 /\\ ~x == 3 /\\ not (x < 0x1F);");
    const struct assertion *a = l->assertion;
    assert_int_equal(l->quant, Q_FORALL);
    assert_int_equal(a->kind, A_OR);
    assert_int_equal(a->lhs->kind, A_CMP);
    assert_int_equal(a->rhs->kind, A_AND);
    assert_int_equal(a->rhs->lhs->kind, A_AND);
    assert_int_equal(a->rhs->lhs->rhs->kind, A_NOT);
    assert_int_equal(a->rhs->rhs->kind, A_NOT);
    assert_int_equal(a->rhs->rhs->lhs->cmp, CMP_LT);
    assert_int_equal(a->rhs->rhs->lhs->b.value, 31);
    litmus_free(l);

    l = parse_with_tail("exists 0==0");
    assert_int_equal(l->assertion->kind, A_CMP);
    assert_int_equal(l->assertion->a.kind, AV_CONST);
    assert_int_equal(l->assertion->b.kind, AV_CONST);
    litmus_free(l);

    l = parse_ok("PTX t\n{ x=0; P0:r9=1; }\nP0@cta 0,gpu 0;\nst.weak x, 1;\n"
                 "not exists (P0:r9 >= -2147483648 \\/ x == 4294967295 \\/ x == 0x80000000)");
    assert_int_equal(l->quant, Q_NOT_EXISTS);
    assert_int_equal(l->assertion->lhs->lhs->cmp, CMP_GE);
    assert_true(l->assertion->lhs->lhs->b.value == INT32_MIN);
    assert_true(l->assertion->lhs->rhs->b.value == -1);
    assert_true(l->assertion->rhs->b.value == INT32_MIN);
    assert_int_equal(l->threads[0].nregs, 1);
    litmus_free(l);

    l = parse_ok("PTX t\n{ x=0; z=2; }\nP0@cta 0,gpu 0;\nld.weak r0, y;\n"
                 "locations [x; P0:r0; y;] exists (z <= 1 /\\ [y] > 0 /\\ x != 1)");
    assert_int_equal(l->nlocs, 3);
    assert_int_equal(l->nobserved, 3);
    assert_int_equal(l->observed[2].loc, loc_named(l, "y"));
    litmus_free(l);
}

static void test_comments_and_configs_are_skipped(void **state)
{
    (void)state;
    struct litmus *l = parse_ok(
        "(* leading *) PTX name \"with { inside\" (* and { here *) free text\n"
        "{ (* c *) x = 1 ; }\n"
        "<< exec config >>\n"
        "P0@cta 0,gpu 0 ;\n"
        "st.weak (* mid *) x, 2 ;\n"
        "exists (x == 2)");
    assert_string_equal(l->name, "name");
    assert_string_equal(l->doc, "\"with { inside\" (* and { here *) free text");
    assert_int_equal(l->locs[0].init, 1);
    assert_string_equal(l->threads[0].instrs[0].text, "st.weak (* mid *) x, 2");
    litmus_free(l);
}

static void test_syntax_errors(void **state)
{
    (void)state;
    expect_error("", 1, 1, "expected 'PTX', 'VULKAN' or 'OPENCL'");
    expect_error("C test\n{}", 1, 1, "expected 'PTX', 'VULKAN' or 'OPENCL'");
    expect_error("PTX t\nno brace", 2, 9, "expected '{'");
    expect_error("PTX t \"open", 1, 7, "unterminated string");
    expect_error("PTX t\n{ x=0; }\n (* never closed\nP0@cta 0,gpu 0;", 3, 2, "unterminated comment");
    expect_error("PTX t\n{ x=0; $ }", 2, 8, "unexpected character '$'");
    expect_error("PTX t\n{ x=0 y=1; }", 2, 7, "expected ';' or '}'");
    expect_error("PTX t\n{ x=99999999999999999999; }", 2, 5, "out of range");
    expect_error("PTX t\n{ x=4294967296; }", 2, 5, "constant '4294967296' is out of range: values are 32 bits");
    expect_error("PTX t\n{ P0:r0=0x100000000; }", 2, 9, "constant '0x100000000' is out of range");
    expect_error("PTX t\n{ x=0; }\nP0@cta 0,gpu 0;\nadd r1, r1, - 2147483649;", 4, 13, "constant '-2147483649' is out of range");
    expect_error("PTX t\n{ x=0; }\nP0@cta 0,gpu 0;\nbar.cta.sync 4294967296;", 4, 14, "out of range");
    expect_error("PTX t\n{ x=0; }\nP0@cta 0,gpu 0;\nst.weak x, 1;\nexists (x == 99999999999)", 5, 14, "out of range");
    expect_error("PTX t\n{ }\nP0@cta 0,gpu 0;\nfoo.bar r1, x;", 4, 1, "unknown instruction 'foo.bar'");
    expect_error("PTX t\n{ }\nP0@cta 0,gpu 0;\nld.weak r1 x;", 4, 12, "expected ',' after register, got 'x'");
    expect_error("PTX t\n{ }\nP0@cta 0,gpu 0;\nst.weak x 1;", 4, 11, "expected ',' after location");
    expect_error("PTX t\n{ }\nP0@cta 0,gpu 0;\nst.weak r1, 1;", 4, 9, "expected a location, got 'r1'");
    expect_error("PTX t\n{ }\nP0@cta 0,gpu 0;\nld.weak x, x;", 4, 9, "expected a register, got 'x'");
    expect_error("PTX t\n{ }\nP0@cta 0,gpu 0;\nadd r1, r2, y;", 4, 13, "expected a register or constant");
    expect_error("PTX t\n{ }\nP0@cta 0,gpu 0;\nst.weak x, 1, 2;", 4, 13, "too many operands");
    expect_error("PTX t\n{ }\nP0@cta 0,gpu 0;\nst.weak x, 1\n", 5, 1, "expected ';' at the end of the row");
    expect_error("PTX t\n{ }\nP0@cta 0,gpu 0;\nld.weak. r1, x;", 4, 8, "expected a name right after '.'");
    expect_error("PTX t\n{ }\nP0@cta 0,gpu 0;\nld .weak r1, x;", 4, 4, "expected a register, got '.'");
    /* 16 parts are read whole (then decoded), a 17th is one too many, where it starts */
    expect_error("PTX t\n{ }\nP0@cta 0,gpu 0;\nst.weak.b.c.d.e.f.g.h.i.j.k.l.m.n.o x, 1;", 4, 9,
                 "unexpected '.b' in 'st.weak.b.c.d.e.f.g.h.i.j.k.l.m.n.o'");
    expect_error("PTX t\n{ }\nP0@cta 0,gpu 0;\nst.weak.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p x, 1;", 4, 37,
                 "instruction name has too many parts (limit 16)");
    expect_error("PTX t\n{ }\nP0@cta 0,gpu 0;\nst.weak.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q x, 1;", 4, 37,
                 "instruction name has too many parts (limit 16)");
}

static void test_row_and_label_errors(void **state)
{
    (void)state;
    const char *two = "PTX t\n{ }\nP0@cta 0,gpu 0 | P1@cta 0,gpu 0;\n";
    char text[256];
    snprintf(text, sizeof text, "%s st.weak x, 1 | | ;\n", two);
    expect_error(text, 4, 2, "row has 3 columns, expected 2 threads");
    snprintf(text, sizeof text, "%s st.weak x, 1 ;\n", two);
    expect_error(text, 4, 2, "row has 1 column, expected 2 threads");
    snprintf(text, sizeof text, "%s goto LC07 | ;\nLC00: | ;\n", two);
    expect_error(text, 4, 7, "undefined label 'LC07'");
    snprintf(text, sizeof text, "%s LC00: | LC00: ;\nLC00: | ;\n", two);
    expect_error(text, 5, 1, "duplicate label 'LC00'");
    snprintf(text, sizeof text, "%s LC00: | goto LC00 ;\n", two);
    expect_error(text, 4, 15, "undefined label 'LC00'");
    expect_error("PTX t\n{ }\nP0@cta 0,gpu 0 | P0@cta 1,gpu 0;\n;", 3, 18, "duplicate thread P0");
    expect_error("PTX t\n{ P2:r0=1; }\nP0@cta 0,gpu 0;\n;", 2, 3, "unknown thread P2");
    expect_error("PTX t\n{ }\nP0@cta 0,gpu 0;\n;\nexists (P1:r0 == 0)", 5, 9, "unknown thread P1");
    expect_error("PTX t\n{ }\nP0@cta 0,gpu 0;\n;\nexists (P0:r0 == 0)", 5, 12, "unknown register P0:r0");
    expect_error("PTX t\n{ P0:r1=0; }\nP0@cta 0,gpu 0 | P1@cta 0,gpu 0;\nld.weak r0, x | ;\n"
                 "filter (P1:r0 == 0) exists (x == 0)", 5, 12, "unknown register P1:r0");
    expect_error("PTX t\n{ x=0; }\nP0@cta 0,gpu 0;\nld.weak r0, x;\nlocations [P0:r1]", 5, 15, "unknown register P0:r1");
    expect_error("PTX t\n{ x=0; }\nP0@cta 0,gpu 0;\nld.weak r0, x;\nexists (P0:r0 == [z])", 5, 19, "unknown location 'z'");
    expect_error("PTX t\n{ x=0; }\nP0@cta 0,gpu 0;\nld.weak r0, x;\nlocations [x; y] exists (y == 0)", 5, 15,
                 "unknown location 'y' in the locations list");
    expect_error("PTX t\n{ }\nP0@cta 0;\n", 3, 9, "expected ',' after cta id");
    expect_error("PTX t\n{ }\nP0@sg 0, wg 0, qf 0;\n", 3, 4, "expected 'cta'");
    expect_error("PTX t\n{ }\n{ ssw 0 1; }\n", 3, 1, "expected a thread name like P0");
}

static void test_ptx_validity_errors(void **state)
{
    (void)state;
    const char *head = "PTX t\n{ }\nP0@cta 0,gpu 0;\n";
    static const struct { const char *instr; int col; const char *msg; } cases[] = {
        { "ld.weak.cta r1, x", 9, "weak load takes no scope" },
        { "st.weak.gpu x, 1", 9, "weak store takes no scope" },
        { "ld.relaxed r1, x", 1, "'ld.relaxed' needs a scope" },
        { "st.release x, 1", 1, "'st.release' needs a scope" },
        { "ld.release.gpu r1, x", 4, "load does not support memory order 'release'" },
        { "st.acquire.gpu x, 1", 4, "store does not support memory order 'acquire'" },
        { "ld.sc.gpu r1, x", 4, "load does not support memory order 'sc'" },
        { "atom.weak.gpu.add r1, x, 1", 6, "atom does not support memory order 'weak'" },
        { "atom.sc.gpu.add r1, x, 1", 6, "atom does not support memory order 'sc'" },
        { "red.relaxed.gpu.exch x, 1", 17, "expected an operation" },
        { "atom.relaxed.add r1, x, 1", 14, "expected a scope (cta, gpu or sys)" },
        { "fence.relaxed.gpu", 7, "fence does not support memory order 'relaxed'" },
        { "fence.sc", 1, "'fence.sc' needs a scope" },
        { "fence.proxy.foo", 13, "expected a proxy" },
        { "bar.gpu.sync 0", 5, "expected 'cta'" },
        { "bar.cta.wait 0", 9, "expected 'sync' or 'arrive'" },
        { "bar.cta.sync r1", 14, "expected a constant" },
        { "ld.weak.x r1, x", 9, "unexpected '.x'" },
        { "and r1, r2, 1", 1, "unknown instruction 'and'" },
        { "ld.foo r1, x", 4, "expected a memory order" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "%s%s;\n", head, cases[i].instr);
        expect_error(text, 4, cases[i].col, cases[i].msg);
    }
}

static void test_vulkan_validity_errors(void **state)
{
    (void)state;
    const char *head = "Vulkan t\n{ }\nP0@sg 0, wg 0, qf 0;\n";
    static const struct { const char *instr; int col; const char *msg; } cases[] = {
        { "ld.atom.acq.dv.sc0.semsc0.semav r1, x", 27, "'.semav' needs memory order rel or acq_rel" },
        { "st.atom.rel.dv.sc0.semsc0.semvis x, 1", 27, "'.semvis' needs memory order acq" },
        { "st.atom.acq.dv.sc0.semsc0 x, 1", 9, "'st' does not support memory order 'acq'" },
        { "ld.atom.acq.dv.sc0 r1, x", 1, "needs storage class semantics" },
        { "ld.atom.dv.sc0.semsc0 r1, x", 16, "storage class semantics need a memory order" },
        { "ld.atom.dv r1, x", 1, "needs a storage class" },
        { "ld.atom.sc0 r1, x", 9, "expected a scope (sg, wg, qf or dv)" },
        { "membar.dv", 1, "'membar.dv' needs a memory order" },
        { "membar.acq.sc0.semsc0", 12, "expected a scope" },
        { "membar.acq.dv", 1, "needs storage class semantics" },
        { "cbar.wg.semsc0 0", 9, "storage class semantics need a memory order" },
        { "ld.av.dv.sc0 r1, x", 4, "expected a storage class" },
        { "rmw.dv.sc0 r1, x, 1", 1, "must start with 'rmw.atom'" },
        { "rmw.atom.dv.sc0.exch r1, x, 1", 17, "unexpected '.exch'" },
        { "fence.sc.wg", 1, "unknown instruction 'fence.sc.wg'" },
        { "ld r1, 2", 1, "'ld' needs a storage class" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "%s%s;\n", head, cases[i].instr);
        expect_error(text, 4, cases[i].col, cases[i].msg);
    }
    expect_error("Vulkan t\n{ y @ surface aliases x; }", 2, 5, "exist only in PTX");
}

static void test_unsupported_forms(void **state)
{
    (void)state;
    expect_error("PTX t\n{ P0:r1 = &x; }", 2, 11, "initialising register 'r1' with an address is not supported");
    expect_error("PTX t\n{ x = &y; }", 2, 7, "initialising location 'x' with an address is not supported");
    expect_error("PTX t\n{ x = y; }", 2, 7, "initialising location 'x' with a location is not supported");
    expect_error("PTX t\n{ x aliases x; }", 2, 13, "cannot alias itself");
    expect_error("PTX t\n{ a aliases b; b aliases a; }", 2, 26, "alias cycle: 'b' aliases 'a', which leads back to 'b'");
    expect_error("PTX t\n{ x=0; a aliases b; b aliases c; c aliases a; }", 2, 44,
                 "alias cycle: 'c' aliases 'a', which leads back to 'c'");
    expect_error("PTX t\n{ x=0; y aliases z; }", 2, 18, "'y' aliases 'z', which the initial state does not declare");
    expect_error("PTX t\n{ x=0; x=1; }", 2, 8, "duplicate initial value for location 'x' (first at 2:3)");
    expect_error("PTX t\n{ x=0; y aliases x; y @ generic aliases x; }", 2, 21, "duplicate alias for location 'y' (first at 2:8)");
    expect_error("PTX t\n{ x=0; y=0; y aliases x; }", 2, 13, "location 'y' is both an alias and given an initial value (first at 2:8)");
    expect_error("PTX t\n{ P0:x=0; }", 2, 6, "expected a register name like r0 after ':', got 'x'");
    expect_error("PTX t\n{ x=0; }\nP0@cta 0,gpu 0;\nld.weak r0, x;\nexists (P0:x == 0)", 5, 12,
                 "expected a register name like r0 after ':', got 'x'");
    expect_error("PTX t\n{ P0:r0=0; 0:r0=1; }\nP0@cta 0,gpu 0;\n", 2, 12, "duplicate initial value for register P0:r0 (first at 2:3)");
    expect_error("Vulkan t\n{ }\n{ ssw 1 P1; }\n", 3, 9, "ssw P1 P1 pairs a thread with itself");
    expect_error("Vulkan t\n{ }\n{ ssw P0 P1; ssw P2 P0; ssw P1 P2; }\n"
                 "P0@sg 0,wg 0,qf 0 | P1@sg 0,wg 1,qf 0 | P2@sg 0,wg 2,qf 0;\n", 3, 32,
                 "ssw P1 P2 closes a cycle: the ssw pairs before it lead from P2 to P1");
    char text[256];
    snprintf(text, sizeof text, "%sfinal (x == 1) with tso: exists;", tiny_prefix);
    expect_error(text, 5, 1, "'final ... with' conditions are not supported");
    snprintf(text, sizeof text, "%sexists (x == 1) exists (x == 2)", tiny_prefix);
    expect_error(text, 5, 17, "more than one final condition");
    snprintf(text, sizeof text, "%sexists (x == 1", tiny_prefix);
    expect_error(text, 5, 15, "expected ')'");
    snprintf(text, sizeof text, "%sexists", tiny_prefix);
    expect_error(text, 5, 7, "expected a location, register or constant");
    snprintf(text, sizeof text, "%sexists x 1", tiny_prefix);
    expect_error(text, 5, 10, "expected a comparison");
    snprintf(text, sizeof text, "%sexists (r0 == 1)", tiny_prefix);
    expect_error(text, 5, 9, "register 'r0' needs a thread, e.g. P0:r0");
    expect_error("PTX t\n{ r1 = 0; }", 2, 3, "register 'r1' needs a thread");
    snprintf(text, sizeof text, "%sexists x == 1 junk", tiny_prefix);
    expect_error(text, 5, 15, "expected 'exists', 'forall', 'filter' or end of input");
}

static void test_deep_nesting_is_refused(void **state)
{
    (void)state;
    size_t n = 100000, len = strlen(tiny_prefix);
    char *text = malloc(len + 8 + n * 2 + 16);
    assert_non_null(text);
    strcpy(text, tiny_prefix);
    strcat(text, "exists ");
    size_t at = strlen(text);
    memset(text + at, '(', n);
    strcpy(text + at + n, "x == 1");
    expect_error(text, 5, 8 + 500, "nested too deeply");

    /* negations nest as parentheses do */
    at = strlen(tiny_prefix) + 7;
    memset(text + at, '~', 600);
    strcpy(text + at + 600, "x == 1");
    expect_error(text, 5, 8 + 500, "nested too deeply (limit 500)");
    free(text);
}

/* A flat chain of /\ or \/ is no nesting: 100,000 terms parse, print
 * and compare equal after a round trip (each walk goes along the chain in
 * a loop; by recursion this would need a stack 100,000 frames deep). */
static void test_long_flat_chain_is_accepted(void **state)
{
    (void)state;
    size_t n = 100000, len = strlen(tiny_prefix);
    for (int kind = 0; kind < 2; kind++) {
        const char *op = kind == 0 ? " /\\ " : " \\/ ";
        char *text = malloc(len + 16 + n * 12);
        assert_non_null(text);
        char *at = text + sprintf(text, "%sexists (", tiny_prefix);
        for (size_t i = 0; i < n; i++)
            at += sprintf(at, "%sx == %d", i ? op : "", (int)(i % 3));
        strcpy(at, ")\n");
        struct litmus_error err;
        struct litmus *l = litmus_parse("chain", text, &err);
        assert_non_null(l);
        assert_int_equal(assertion_chain(l->assertion, NULL), (int)n);
        const struct assertion **ops = malloc(n * sizeof *ops);
        assert_non_null(ops);
        assertion_chain(l->assertion, ops);
        assert_int_equal(ops[0]->kind, A_CMP);
        assert_true(ops[n - 1]->b.value == (int64_t)((n - 1) % 3));
        assert_int_equal(ops[n - 1]->pos.line, 5);
        free(ops);
        char *printed = litmus_print(l);
        assert_non_null(printed);
        struct litmus *back = litmus_parse("chain", printed, &err);
        assert_non_null(back);
        char why[200];
        assert_true(litmus_equal(l, back, why, sizeof why));
        litmus_free(back);
        free(printed);
        litmus_free(l);
        free(text);
    }
}

static void test_files(void **state)
{
    (void)state;
    struct litmus_error err;
    assert_null(litmus_parse_file("/nonexistent/dir/x.litmus", &err));
    assert_int_equal(err.pos.line, 0);
    assert_int_equal(err.pos.col, 0);
    assert_non_null(strstr(err.msg, "cannot open"));

    char path[] = "/tmp/test_parser_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    fputs(ptx_sb, f);
    fclose(f);
    struct litmus *l = litmus_parse_file(path, &err);
    assert_non_null(l);
    assert_string_equal(l->path, path);
    litmus_free(l);

    f = fopen(path, "wb");
    fwrite("PTX t\n{ x\0= 1; }", 1, 16, f);
    fclose(f);
    assert_null(litmus_parse_file(path, &err));
    assert_int_equal(err.pos.line, 2);
    assert_int_equal(err.pos.col, 4);
    assert_non_null(strstr(err.msg, "NUL"));

    f = fopen(path, "wb");                       /* a lone CR ends a line too */
    fwrite("PTX t\r{ x\r\n\0= 1; }", 1, 18, f);
    fclose(f);
    assert_null(litmus_parse_file(path, &err));
    assert_int_equal(err.pos.line, 3);
    assert_int_equal(err.pos.col, 1);
    remove(path);
}

/* Every prefix and many one-byte mutations of valid tests must parse or fail cleanly. */
static void test_truncations_and_mutations_never_crash(void **state)
{
    (void)state;
    const char *texts[] = { ptx_sb, ptx_misc, vulkan_text };
    const char replacements[] = "|;,.:{}()~\\/=-x0r@\"*<>";
    for (size_t t = 0; t < 3; t++) {
        size_t len = strlen(texts[t]);
        char *copy = malloc(len + 1);
        assert_non_null(copy);
        for (size_t cut = 0; cut <= len; cut++) {
            struct litmus_error err;
            memcpy(copy, texts[t], cut);
            copy[cut] = '\0';
            struct litmus *l = litmus_parse("cut", copy, &err);
            if (!l)
                assert_true(err.pos.line >= 1 && err.pos.col >= 1 && err.msg[0]);
            litmus_free(l);
        }
        for (size_t i = 0; i < len; i++) {
            for (size_t r = 0; r < sizeof replacements - 1; r++) {
                struct litmus_error err;
                memcpy(copy, texts[t], len + 1);
                copy[i] = replacements[r];
                struct litmus *l = litmus_parse("mut", copy, &err);
                if (!l)
                    assert_true(err.pos.line >= 1 && err.pos.col >= 1 && err.msg[0]);
                litmus_free(l);
            }
        }
        free(copy);
    }
}

/* Numbers: "0x" and "0X" before a hex digit open a hex number; otherwise
 * the digits end a decimal number (the lexer's fast path for decimal
 * numbers must leave every "0x" and "0X" to next_token). */
static void test_number_forms(void **state)
{
    (void)state;
    struct litmus *l = parse_ok("PTX t\n{ a=0X1F; b=0x1f; c=07; d=0; }\nP0@cta 0,gpu 0;\nst.weak a, 0X10;\n"
                                "exists (a == 0x10)");
    assert_int_equal(l->locs[loc_named(l, "a")].init, 31);
    assert_int_equal(l->locs[loc_named(l, "b")].init, 31);
    assert_int_equal(l->locs[loc_named(l, "c")].init, 7);
    assert_int_equal(l->locs[loc_named(l, "d")].init, 0);
    assert_int_equal(l->threads[0].instrs[0].a.value, 16);
    litmus_free(l);
    expect_error("PTX t\n{ x=1x; }", 2, 6, "expected ';' or '}'");
    expect_error("PTX t\n{ x=0X; }", 2, 6, "got 'X'");
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(mo_name(MO_ACQ_REL), "acq_rel");
    assert_string_equal(scope_name(SCOPE_QF), "qf");
    assert_string_equal(proxy_name(PROXY_SURFACE), "surface");
    litmus_free(NULL);
    assert_null(litmus_parse("x", NULL, NULL));
}

/* Line and column after a header's free text: '\n', "\r\n" and a lone '\r'
 * each end a line, a tab is one column. */
static void test_positions_after_the_header(void **state)
{
    (void)state;
    expect_error("PTX t\n\"doc\nmore\"\n\n{ x=0; $ }", 5, 8, "unexpected character '$'");
    expect_error("PTX t\r\n\"doc\rmore\"\r\n{ x=0; $ }", 4, 8, "unexpected character '$'");
    expect_error("PTX t \"a\" (* b\n c *)\n   \n\t\n   { x=0; $ }", 5, 11, "unexpected character '$'");
    expect_error("PTX t\n\"doc\"  {\r\r\n x=0;\r  $ }", 5, 3, "unexpected character '$'");
}

/* A mnemonic decoded once is decoded by the memo after that
 * (litmus/mnemonic_memo.c): a word that names a remembered mnemonic is
 * still a label when ':' follows it, an instruction keeps its own place,
 * the dialects are kept apart, and a test parses the second time as the
 * first. */
static void test_remembered_mnemonics(void **state)
{
    (void)state;
    static const char *const ptx =
        "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n add r0, r0, 1 ;\n add: ;\n"
        "   add r0, r0, 1 ;\n ld r1, 2 ;\n beq r0, 3, add ;\nexists (x == 0)\n";
    struct litmus *first = parse_ok(ptx), *again = parse_ok(ptx);
    char why[256];
    assert_true(litmus_equal(first, again, why, sizeof why));
    const struct thread *t = &again->threads[0];
    assert_int_equal(t->ninstrs, 5);
    assert_int_equal(t->instrs[0].kind, I_LOCAL);
    assert_int_equal(t->instrs[1].kind, I_LABEL);
    assert_int_equal(t->instrs[2].kind, I_LOCAL);
    assert_int_equal(t->instrs[2].pos.line, 6);
    assert_int_equal(t->instrs[2].pos.col, 4);
    assert_string_equal(t->instrs[2].text, "add r0, r0, 1");
    assert_int_equal(t->instrs[3].kind, I_LOCAL);
    assert_int_equal(t->instrs[3].op, OP_EXCH);
    assert_int_equal(t->instrs[4].kind, I_BRANCH);
    assert_int_equal(t->instrs[4].label, t->instrs[1].label);
    litmus_free(first);
    litmus_free(again);
    expect_error("VULKAN t\n{ x=0; }\n P0@sg 0,wg 0,qf 0 ;\n ld r1, x ;\nexists (x == 0)\n",
                 4, 2, "'ld' needs a storage class");
    expect_error("PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n add r0, r0, 1 ;\n add.x r0, r0, 1 ;\nexists (x == 0)\n",
                 5, 6, "unexpected '.x' in 'add.x'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ptx_store_buffering),
        cmocka_unit_test(test_ptx_rmw_barriers_proxies),
        cmocka_unit_test(test_vulkan_instructions),
        cmocka_unit_test(test_assertion_precedence),
        cmocka_unit_test(test_comments_and_configs_are_skipped),
        cmocka_unit_test(test_syntax_errors),
        cmocka_unit_test(test_positions_after_the_header),
        cmocka_unit_test(test_row_and_label_errors),
        cmocka_unit_test(test_ptx_validity_errors),
        cmocka_unit_test(test_vulkan_validity_errors),
        cmocka_unit_test(test_unsupported_forms),
        cmocka_unit_test(test_deep_nesting_is_refused),
        cmocka_unit_test(test_long_flat_chain_is_accepted),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_truncations_and_mutations_never_crash),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_number_forms),
        cmocka_unit_test(test_remembered_mnemonics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
