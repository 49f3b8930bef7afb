/* The concrete re-check of a termination lasso (lasso_witness) accepts the
 * explorer's lasso and rejects it once the explorer's run is corrupted (in
 * its first state or in later ones), also when the memo already holds the
 * lasso's execution; lassos that are one execution are evaluated once; a
 * program lent at the bound a lasso needs is the one it is re-checked on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bmc/concrete/lasso_witness.h"
#include "litmus/ast.h"

/* P0 reads x once and ends; P1 waits for x == 1, which nobody writes, so
 * every fair run has P1 spin for ever after P0's read. */
static const char *spin_text =
    "PTX spin-read\n"
    "{ x = 0; }\n"
    " P0@cta 0,gpu 0       | P1@cta 1,gpu 0       ;\n"
    " ld.relaxed.gpu r0, x | LC10:                ;\n"
    "                      | ld.relaxed.gpu r1, x ;\n"
    "                      | bne r1, 1, LC10      ;\n"
    "exists (P0:r0 == 0)\n";

struct session {
    struct litmus *l;
    struct state_graph g;
    struct fair_sccs f;
    struct lasso la;
    struct lasso_recheck rc;
};

/* Explores the spin test and finds its fair lasso. */
static void session_open(struct session *x)
{
    struct litmus_error err;
    x->l = litmus_parse("spin.litmus", spin_text, &err);
    assert_non_null(x->l);
    assert_true(states_explore(x->l, 1000, &x->g));
    fair_sccs(&x->g, &x->f);
    struct progress_hierarchy h;
    memset(&h, 0, sizeof h);
    struct fair_tree *tr = fair_tree_build(x->l, &h);
    bool need[2];
    int scc = fair_find(&x->f, tr, PROG_FAIR, need);
    assert_true(scc >= 0);
    lasso_find(&x->g, &x->f, scc, need, &x->la);
    fair_tree_free(tr);
    assert_int_equal(x->la.how[1], LASSO_SPINS);
    lasso_recheck_init(&x->rc, x->l, model_find("ptx-v7.5"), NULL, 0);
}

static void session_close(struct session *x)
{
    lasso_recheck_free(&x->rc);
    lasso_free(&x->la);
    fair_free(&x->f);
    states_free(&x->g);
    litmus_free(x->l);
}

/* The explorer's initial state says x holds 2 (the program says 0): P0's
 * read and P1's spinning reads see 2, P1 still spins, so the lasso's steps
 * stay the same, but the run it stands for is not the program's. */
static void corrupt_initial_value(struct session *x)
{
    assert_int_equal(x->g.words[0], 0);
    x->g.words[0] = 2;
}

static void test_honest_lasso_accepted(void **state)
{
    (void)state;
    struct session x;
    session_open(&x);
    char why[256] = "";
    cJSON *w = NULL;
    assert_true(lasso_witness(&x.rc, &x.g, &x.la, &w, why, sizeof why));
    assert_non_null(cJSON_GetObjectItemCaseSensitive(w, "lasso"));
    cJSON_Delete(w);
    session_close(&x);
}

static void test_corrupted_lasso_rejected(void **state)
{
    (void)state;
    struct session x;
    session_open(&x);
    corrupt_initial_value(&x);
    char why[256] = "";
    cJSON *w = NULL;
    assert_false(lasso_witness(&x.rc, &x.g, &x.la, &w, why, sizeof why));
    assert_null(w);
    assert_non_null(strstr(why, "the concrete run differs from the interleaving"));
    session_close(&x);
}

/* The explorer's states after the first step say x holds 2: the lasso
 * is followed through the graph's own states (not replayed from the
 * first), so the values the run is compared with are the ones the
 * explorer claims, and the corruption is caught. */
static void test_corrupted_later_states_rejected(void **state)
{
    (void)state;
    struct session x;
    session_open(&x);
    int v = 0, n = x.la.nstem + x.la.ncycle;
    for (int k = 0; k < n; k++) {
        v = x.g.succ[(size_t)v * x.g.nthreads + x.la.step[k]];
        x.g.words[(size_t)v * x.g.width] = 2;
    }
    char why[256] = "";
    assert_false(lasso_witness(&x.rc, &x.g, &x.la, NULL, why, sizeof why));
    assert_non_null(strstr(why, "the concrete run differs from the interleaving"));
    session_close(&x);
}

/* The corrupted run is the honest one's execution (the same reads-from,
 * coherence and stop points), so the memo answers its evaluation; the
 * lasso is still compared with the evaluated run and rejected. */
static void test_corrupted_lasso_rejected_from_memory(void **state)
{
    (void)state;
    struct session x;
    session_open(&x);
    char why[256] = "";
    assert_true(lasso_witness(&x.rc, &x.g, &x.la, NULL, why, sizeof why));
    corrupt_initial_value(&x);
    assert_false(lasso_witness(&x.rc, &x.g, &x.la, NULL, why, sizeof why));
    assert_int_equal(x.rc.nunrolled, 1);
    assert_int_equal(x.rc.unrolled[0].memo.evaluated, 1);
    assert_int_equal(x.rc.unrolled[0].memo.reused, 1);
    session_close(&x);
}

/* A second lasso that is the same execution (as one progress model's
 * lasso often is another's) is evaluated once, gets the same witness,
 * and a lasso under other axioms switched off is evaluated afresh. */
static void test_same_execution_evaluated_once(void **state)
{
    (void)state;
    struct session x;
    session_open(&x);
    char why[256] = "";
    cJSON *a = NULL, *b = NULL;
    assert_true(lasso_witness(&x.rc, &x.g, &x.la, &a, why, sizeof why));
    assert_true(lasso_witness(&x.rc, &x.g, &x.la, &b, why, sizeof why));
    assert_true(cJSON_Compare(a, b, true));
    assert_int_equal(x.rc.unrolled[0].memo.evaluated, 1);
    assert_int_equal(x.rc.unrolled[0].memo.reused, 1);
    static const char *const off[] = { "NoThinAir" };
    x.rc.disabled = off;
    x.rc.ndisabled = 1;
    assert_true(lasso_witness(&x.rc, &x.g, &x.la, NULL, why, sizeof why));
    assert_int_equal(x.rc.unrolled[0].memo.evaluated, 2);
    cJSON_Delete(a);
    cJSON_Delete(b);
    session_close(&x);
}

/* A program lent at the bound the lasso's run needs is what the run is
 * re-checked on (nothing is built) and gives the witness a built program
 * gives; one lent at another bound is left alone (a program is built); a
 * corrupted run is still rejected on the lent program. */
static void test_lent_program_used_at_its_bound(void **state)
{
    (void)state;
    struct session x;
    session_open(&x);
    char why[256] = "", msg[128] = "";
    cJSON *built = NULL, *lent = NULL;
    assert_true(lasso_witness(&x.rc, &x.g, &x.la, &built, why, sizeof why));
    assert_int_equal(x.rc.nunrolled, 1);
    int bound = x.rc.unrolled[0].bound;
    struct program *other = program_build(x.l, bound + 1, msg, sizeof msg);
    struct program *at = program_build(x.l, bound, msg, sizeof msg);
    assert_non_null(other);
    assert_non_null(at);
    struct lasso_recheck rc;
    lasso_recheck_init(&rc, x.l, model_find("ptx-v7.5"), NULL, 0);
    lasso_recheck_lend(&rc, other);
    assert_true(lasso_witness(&rc, &x.g, &x.la, NULL, why, sizeof why));
    assert_int_equal(rc.nunrolled, 1);
    assert_non_null(rc.unrolled[0].built);   /* other's bound is not the run's */
    lasso_recheck_free(&rc);
    lasso_recheck_init(&rc, x.l, model_find("ptx-v7.5"), NULL, 0);
    lasso_recheck_lend(&rc, at);
    assert_true(lasso_witness(&rc, &x.g, &x.la, &lent, why, sizeof why));
    assert_int_equal(rc.nunrolled, 1);
    assert_ptr_equal(rc.unrolled[0].p, at);
    assert_null(rc.unrolled[0].built);
    assert_int_equal(rc.unrolled[0].memo.evaluated, 1);
    assert_true(cJSON_Compare(built, lent, true));
    lasso_recheck_free(&rc);
    lasso_recheck_init(&rc, x.l, model_find("ptx-v7.5"), NULL, 0);
    lasso_recheck_lend(&rc, at);
    corrupt_initial_value(&x);
    assert_false(lasso_witness(&rc, &x.g, &x.la, NULL, why, sizeof why));
    assert_ptr_equal(rc.unrolled[0].p, at);
    lasso_recheck_free(&rc);
    program_free(at);
    program_free(other);
    cJSON_Delete(built);
    cJSON_Delete(lent);
    session_close(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_honest_lasso_accepted),
        cmocka_unit_test(test_corrupted_lasso_rejected),
        cmocka_unit_test(test_corrupted_later_states_rejected),
        cmocka_unit_test(test_corrupted_lasso_rejected_from_memory),
        cmocka_unit_test(test_same_execution_evaluated_once),
        cmocka_unit_test(test_lent_program_used_at_its_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
