/* Unit tests of the progress models' order (encoders/progress.c,
 * progress_stronger), which lets a termination check by SAT answer one
 * model from another's answer: where it says that model a guarantees at
 * least what model b does, every combination of the threads' facts
 * (started, halted, terminated, blocked) that a's constraints admit, b's
 * admit too.  Checked by the solver over every combination, three
 * threads in two trees of scopes, without and with per-scope schedulers.
 * Among three siblings the order is exactly that: where it says no, some
 * combination tells the two apart.  (Among two, hsa_obe admits all that
 * lobe does, which the order does not say: that only costs a solve.)
 * And with no thread halting, every model admits the facts. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>

#include "encoders/cnf.h"
#include "encoders/progress.h"
#include "litmus/ast.h"
#include "program/program.h"

#define NTHREADS 3
#define FACTS 4   /* per thread: started, halted, terminated, blocked */

/* Three threads in three subgroups, two workgroups. */
static const char *const SPREAD =
    "VULKAN spread\n{ x=0; }\n"
    "P0@sg 0,wg 0, qf 0 | P1@sg 1,wg 0, qf 0 | P2@sg 0,wg 1, qf 0 ;\n"
    "st.atom.wg.sc0 x, 1 | st.atom.wg.sc0 x, 2 | st.atom.wg.sc0 x, 3 ;\n"
    "exists (x == 1)\n";
/* Three threads in one subgroup: three siblings. */
static const char *const ONE_SG =
    "VULKAN one-sg\n{ x=0; }\n"
    "P0@sg 0,wg 0, qf 0 | P1@sg 0,wg 0, qf 0 | P2@sg 0,wg 0, qf 0 ;\n"
    "st.atom.wg.sc0 x, 1 | st.atom.wg.sc0 x, 2 | st.atom.wg.sc0 x, 3 ;\n"
    "exists (x == 1)\n";

/* fair[m][k]: model m's constraints admit the facts numbered k (bit
 * FACTS * t + f of k: fact f of thread t), under hierarchy h; m the six
 * weak models, then the five strong ones. */
static void admitted(const char *text, const struct progress_hierarchy *h,
                     bool fair[PROGRESS_MODELS][1 << (FACTS * NTHREADS)])
{
    struct litmus_error err;
    struct litmus *l = litmus_parse("t.litmus", text, &err);
    assert_non_null(l);
    char msg[256];
    struct program *p = program_build(l, 1, msg, sizeof msg);
    assert_non_null(p);
    assert_int_equal(p->nthreads, NTHREADS);
    struct cnf *c = cnf_new(true);
    struct thread_status ts[NTHREADS];
    lit facts[FACTS * NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        for (int f = 0; f < FACTS; f++)
            facts[FACTS * t + f] = cnf_var(c);
        ts[t] = (struct thread_status){ facts[FACTS * t], facts[FACTS * t + 1], facts[FACTS * t + 2],
                                        facts[FACTS * t + 3] };
    }
    lit act[PROGRESS_MODELS];
    for (int m = 0; m < PROGRESS_MODELS; m++) {
        act[m] = cnf_var(c);
        progress_encode(c, p, (enum progress_model)m, h, ts, act[m]);
    }
    for (int k = 0; k < 1 << (FACTS * NTHREADS); k++) {
        lit as[FACTS * NTHREADS + 1];
        for (int i = 0; i < FACTS * NTHREADS; i++)
            as[i] = k >> i & 1 ? facts[i] : -facts[i];
        for (int m = 0; m < PROGRESS_MODELS; m++) {
            as[FACTS * NTHREADS] = act[m];
            fair[m][k] = cnf_solve(c, as, FACTS * NTHREADS + 1) == 10;
        }
    }
    cnf_free(c);
    program_free(p);
    litmus_free(l);
}

/* Where progress_stronger(h, a, b), b admits all that a admits; with exact,
 * also the converse: where it does not, some facts a admits and b not. */
static void check_order(const char *text, const struct progress_hierarchy *h, bool exact)
{
    static bool fair[PROGRESS_MODELS][1 << (FACTS * NTHREADS)];
    admitted(text, h, fair);
    for (int a = 0; a < PROGRESS_MODELS; a++)
        for (int b = 0; b < PROGRESS_MODELS; b++) {
            bool within = true;
            for (int k = 0; k < 1 << (FACTS * NTHREADS); k++)
                within &= !fair[a][k] || fair[b][k];
            bool stronger = progress_stronger(h, (enum progress_model)a, (enum progress_model)b);
            if (stronger)
                assert_true(within);
            if (exact)
                assert_int_equal(stronger, within);
        }
}

/* Fair at every scope admits exactly the facts in which no thread halts,
 * and every model admits those (termination_progress encodes nothing when
 * no thread can halt). */
static void test_no_halting(void **state)
{
    (void)state;
    static bool fair[PROGRESS_MODELS][1 << (FACTS * NTHREADS)];
    admitted(SPREAD, NULL, fair);
    for (int k = 0; k < 1 << (FACTS * NTHREADS); k++) {
        bool halts = false;
        for (int t = 0; t < NTHREADS; t++)
            halts |= k >> (FACTS * t + 1) & 1;
        assert_int_equal(fair[PROG_FAIR][k], !halts);
        assert_int_equal(fair[PROG_FAIR_STRONG][k], !halts);
        for (int m = 0; m < PROGRESS_MODELS && !halts; m++)
            assert_true(fair[m][k]);
    }
}

static void test_order_spread(void **state)
{
    (void)state;
    check_order(SPREAD, NULL, false);
}

static void test_order_one_subgroup(void **state)
{
    (void)state;
    check_order(ONE_SG, NULL, true);
}

/* Per-scope schedulers: an override is the same for both models. */
static void test_order_scoped(void **state)
{
    (void)state;
    struct progress_hierarchy h = { { 0 } };
    h.at[PSCOPE_QF] = PROG_HSA + 1;
    h.at[PSCOPE_SG] = PROG_OBE + 1;
    check_order(SPREAD, &h, false);
    struct progress_hierarchy u = { { 0 } };
    u.at[PSCOPE_WG] = PROG_UNFAIR + 1;
    check_order(SPREAD, &u, false);
    check_order(ONE_SG, &u, false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_halting),
        cmocka_unit_test(test_order_spread),
        cmocka_unit_test(test_order_one_subgroup),
        cmocka_unit_test(test_order_scoped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
