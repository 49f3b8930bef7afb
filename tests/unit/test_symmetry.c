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

/* Parses a PTX test with the given initial state, placements, thread code
 * and condition (source line 6 is the first line of code) into *l and
 * returns it unrolled with bound 2. */
static struct program *build(const char *init, const char *places, const char *code, const char *cond,
                             struct litmus **l)
{
    char text[2048], msg[256];
    snprintf(text, sizeof text, "PTX T\n{\n%s\n}\n%s\n%s\n%s\n", init, places, code, cond);
    struct litmus_error err;
    *l = litmus_parse("t.litmus", text, &err);
    if (!*l)
        fail_msg("parse: %s", err.msg);
    struct program *p = program_build(*l, 2, msg, sizeof msg);
    assert_non_null(p);
    return p;
}

/* The number of ordering clauses symmetry_break adds to a test (the same
 * under both keys). */
static int clauses_for(const char *init, const char *places, const char *code, const char *cond)
{
    struct litmus *l;
    struct program *p = build(init, places, code, cond, &l);
    struct cnf *c = cnf_new(true);
    struct exec_enc x;
    struct skeleton k = model_skeleton(model_find("ptx-v7.5"), NULL, 0);
    exec_encode(c, p, &k, SX_PLAIN, &x);
    int added = symmetry_break(c, p, x.base.rels[R_CO], KEY_FIRST_WRITE);
    assert_int_equal(symmetry_break(c, p, x.base.rels[R_CO], KEY_LAST_WRITE), added);
    exec_free(&x);
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

#define PRIVATE3 " st.relaxed.gpu x, 1 | st.relaxed.gpu x, 1 | st.relaxed.gpu x, 1 ;\n" \
                 " st.weak a, 1 | st.weak b, 1 | st.weak c, 1 ;"

/* Threads that differ only in a location each accesses alone still swap,
 * unless the locations start different or the test names one; in the
 * last, P1 and P2 share b (and swap as plain equals), and P0's a, which
 * only P0 accesses, has no private partner. */
static void test_private_locations(void **state)
{
    (void)state;
    const char *places = " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 ;";
    assert_int_equal(clauses_for("x=0; a=0; b=0; c=0;", places, PRIVATE3, "exists (x == 1)"), 2);
    assert_int_equal(clauses_for("x=0; a=0; b=0; c=7;", places, PRIVATE3, "exists (x == 1)"), 1);
    assert_int_equal(clauses_for("x=0; a=0; b=0; c=0;", places, PRIVATE3, "exists (b == 1)"), 1);
    assert_int_equal(clauses_for("x=0; a=0; b=0;", places,
                                 " st.relaxed.gpu x, 1 | st.relaxed.gpu x, 1 | st.relaxed.gpu x, 1 ;\n"
                                 " st.weak a, 1 | st.weak b, 1 | st.weak b, 1 ;", "exists (x == 1)"), 1);
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

/* The kind and source line of the last-write key of thread t of a test
 * with the given code, and the number of keys worth trying. */
static int key_of(const char *places, const char *code, int t, int *line, enum instr_kind *kind)
{
    struct litmus *l;
    struct program *p = build("x=0; l=0;", places, code, "exists (x == 1)", &l);
    int k = symmetry_key_write(p, t, KEY_LAST_WRITE), keys = symmetry_keys(p);
    *line = k < 0 ? -1 : p->events[p->threads[t].first_event + k].in->pos.line;
    *kind = k < 0 ? I_LABEL : p->events[p->threads[t].first_event + k].in->kind;
    program_free(p);
    litmus_free(l);
    return keys;
}

#define TWO " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;"

static void test_key_write(void **state)
{
    (void)state;
    int line;
    enum instr_kind kind;
    /* a lock: the release after the loop, not the CAS of the first iteration */
    assert_int_equal(key_of(TWO, " L0: | L0: ;\n"
                                 " atom.acquire.gpu.cas r0, l, 0, 1 | atom.acquire.gpu.cas r0, l, 0, 1 ;\n"
                                 " bne r0, 0, L0 | bne r0, 0, L0 ;\n"
                                 " st.weak x, 1 | st.weak x, 1 ;\n"
                                 " st.release.gpu l, 0 | st.release.gpu l, 0 ;", 1, &line, &kind), 2);
    assert_int_equal(line, 10);
    assert_int_equal(kind, I_STORE);
    /* a write that a branch can skip is not the key: the last one before it is */
    assert_int_equal(key_of(TWO, " st.relaxed.gpu l, 1 | st.relaxed.gpu l, 1 ;\n"
                                 " ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x ;\n"
                                 " beq r0, 0, L0 | beq r0, 0, L0 ;\n"
                                 " st.relaxed.gpu x, 2 | st.relaxed.gpu x, 2 ;\n"
                                 " L0: | L0: ;", 0, &line, &kind), 1);
    assert_int_equal(line, 6);
    /* every write skippable: the first write; one thread: no key to try */
    assert_int_equal(key_of(" P0@cta 0,gpu 0 ;", " ld.relaxed.gpu r0, x ;\n beq r0, 0, L0 ;\n"
                            " st.relaxed.gpu x, 2 ;\n st.relaxed.gpu l, 2 ;\n L0: ;", 0, &line, &kind), 0);
    assert_int_equal(line, 8);
    /* no write */
    assert_int_equal(key_of(TWO, " ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x ;", 0, &line, &kind), 0);
    assert_int_equal(line, -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_identical_threads),
        cmocka_unit_test(test_scope_tree_asymmetry),
        cmocka_unit_test(test_named_registers),
        cmocka_unit_test(test_register_init),
        cmocka_unit_test(test_code_differences),
        cmocka_unit_test(test_private_locations),
        cmocka_unit_test(test_key_write),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
