/* Symmetry breaking: which threads count as interchangeable (one ordering
 * clause per consecutive pair of a set), and that the clauses keep an
 * execution of every orbit. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>

#include "program/program.h"
#include "bmc/check/symmetry.h"
#include "encoders/exec.h"
#include "models/model.h"

/* Parses a PTX test with the given placements, thread code and condition,
 * and returns the number of ordering clauses symmetry_break adds. */
static int clauses_for(const char *init, const char *places, const char *code, const char *cond)
{
    char text[2048], msg[256];
    snprintf(text, sizeof text, "PTX T\n{\n%s\n}\n%s\n%s\n%s\n", init, places, code, cond);
    struct litmus_error err;
    struct litmus *l = litmus_parse("t.litmus", text, &err);
    if (!l)
        fail_msg("parse: %s", err.msg);
    struct program *p = program_build(l, 2, msg, sizeof msg);
    assert_non_null(p);
    struct cnf *c = cnf_new(true);
    struct exec_enc x;
    struct skeleton k = model_skeleton(model_find("ptx-v7.5"), NULL, 0);
    exec_encode(c, p, &k, SX_PLAIN, &x);
    int added = symmetry_break(c, p, x.base.rels[R_CO]);
    exec_free(p, &x);
    cnf_free(c);
    program_free(p);
    litmus_free(l);
    return added;
}

#define SAME3 " st.relaxed.gpu x, 1 | st.relaxed.gpu x, 1 | st.relaxed.gpu x, 1 ;\n" \
              " ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x ;"

static void test_identical_threads(void **state)
{
    (void)state;
    assert_int_equal(clauses_for("x=0;", " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 ;",
                                 SAME3, "exists (x == 1)"), 2);
}

static void test_scope_tree_asymmetry(void **state)
{
    (void)state;
    /* P0 and P1 share a CTA that P2 is outside: only P0 and P1 swap */
    assert_int_equal(clauses_for("x=0;", " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 1,gpu 0 ;",
                                 SAME3, "exists (x == 1)"), 1);
    /* P0 alone on its GPU: P1 and P2 swap */
    assert_int_equal(clauses_for("x=0;", " P0@cta 0,gpu 0 | P1@cta 1,gpu 1 | P2@cta 2,gpu 1 ;",
                                 SAME3, "exists (x == 1)"), 1);
}

static void test_named_registers(void **state)
{
    (void)state;
    /* the condition tells P1 apart: P0 and P2 still swap */
    assert_int_equal(clauses_for("x=0;", " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 ;",
                                 SAME3, "exists (P1:r0 == 1)"), 1);
    assert_int_equal(clauses_for("x=0;", " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 ;",
                                 SAME3, "exists (P1:r0 == 1 /\\ P0:r0 == 1)"), 0);
}

static void test_register_init(void **state)
{
    (void)state;
    assert_int_equal(clauses_for("x=0; P2:r0=5;", " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 ;",
                                 SAME3, "exists (x == 1)"), 1);
}

static void test_code_differences(void **state)
{
    (void)state;
    /* a different scope qualifier in P2 */
    assert_int_equal(clauses_for("x=0;", " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 ;",
                                 " st.relaxed.gpu x, 1 | st.relaxed.gpu x, 1 | st.relaxed.sys x, 1 ;",
                                 "exists (x == 1)"), 1);
    /* labels with other names at the same places are the same code */
    assert_int_equal(clauses_for("x=0;", " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;",
                                 " LA: | LB: ;\n"
                                 " atom.relaxed.gpu.exch r0, x, 1 | atom.relaxed.gpu.exch r0, x, 1 ;\n"
                                 " bne r0, 0, LA | bne r0, 0, LB ;",
                                 "exists (x == 1)"), 1);
    /* no write at all: nothing to order */
    assert_int_equal(clauses_for("x=0;", " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;",
                                 " ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x ;", "exists (x == 0)"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_identical_threads),
        cmocka_unit_test(test_scope_tree_asymmetry),
        cmocka_unit_test(test_named_registers),
        cmocka_unit_test(test_register_init),
        cmocka_unit_test(test_code_differences),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
