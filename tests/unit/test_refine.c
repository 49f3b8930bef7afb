/* Lazy acyclicity (bmc/check/refine.c) over a relation of fresh
 * variables: a model with a cycle gets it forbidden, read from the bits
 * and logged; the next model has none of the logged cycles; and a logged
 * cycle the bits show again (what bits that disagree with the literals
 * would show) has the graph read from the literals, which logs nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "bmc/check/refine.h"

enum { N = 5 };

/* A ring 0 -> 1 -> ... -> N-1 -> 0 of fresh variables, each forced true
 * but the last, which only one clause with a spare variable names: the
 * solver's first guess (every variable true) closes the ring. */
struct ring {
    struct cnf *c;
    struct rels *A;
    const struct rel *r;
    lit edge[N];
};

static void ring_make(struct ring *x)
{
    x->c = cnf_new(true);
    lit exec[N];
    for (int i = 0; i < N; i++)
        exec[i] = LIT_TRUE;
    x->A = rels_new(x->c, N, exec);
    struct rel_builder bld;
    rel_builder_init(&bld);
    for (int i = 0; i < N; i++) {
        x->edge[i] = cnf_var(x->c);
        rel_add(&bld, i, (i + 1) % N, x->edge[i]);
    }
    x->r = rel_build(x->A, &bld, false);
    rel_builder_free(&bld);
    for (int i = 0; i + 1 < N; i++)
        cnf_unit(x->c, x->edge[i]);
    cnf_clause2(x->c, x->edge[N - 1], cnf_var(x->c));
}

static void ring_free(struct ring *x)
{
    rels_free(x->A);
    cnf_free(x->c);
}

/* The model's cycle is forbidden and logged; the next model breaks it. */
static void test_cycle_forbidden_and_logged(void **state)
{
    (void)state;
    struct ring x;
    ring_make(&x);
    struct refine_log log = { 0 };
    lit act = cnf_var(x.c);
    assert_int_equal(cnf_solve(x.c, &act, 1), 10);
    assert_true(cnf_value(x.c, x.edge[N - 1]));
    assert_int_equal(refine_acyclic(x.c, x.r, act, &log), 1);
    assert_int_equal(log.n, 1);
    assert_int_equal(log.v[0].len, N);
    assert_int_equal(cnf_solve(x.c, &act, 1), 10);
    assert_false(cnf_value(x.c, x.edge[N - 1]));
    assert_int_equal(refine_acyclic(x.c, x.r, act, &log), 0);
    refine_log_free(&log);
    ring_free(&x);
}

/* A cycle logged for r and act that the bits show: the literals decide,
 * and the cycle they find is forbidden without being logged again. */
static void test_logged_cycle_shown_again(void **state)
{
    (void)state;
    struct ring x;
    ring_make(&x);
    cnf_unit(x.c, x.edge[N - 1]);
    lit act = cnf_var(x.c);
    assert_int_equal(cnf_solve(x.c, &act, 1), 10);
    struct refine_log log = { 0 };
    int nodes[N];
    for (int i = 0; i < N; i++)
        nodes[i] = (i + 2) % N;   /* the ring, from another node */
    log.v = malloc(sizeof *log.v);
    log.nodes = malloc(sizeof nodes);
    log.cap = 1;
    log.nodes_cap = N;
    log.v[log.n++] = (struct refined){ x.r, act, 0, N };
    for (int i = 0; i < N; i++)
        log.nodes[log.nnodes++] = nodes[i];
    assert_int_equal(refine_acyclic(x.c, x.r, act, &log), 1);
    assert_int_equal(log.n, 1);   /* read from the literals: nothing logged */
    /* under another literal the logged cycle is not r's and act's: bits */
    lit other = cnf_var(x.c);
    assert_int_equal(cnf_solve(x.c, &other, 1), 10);
    assert_int_equal(refine_acyclic(x.c, x.r, other, &log), 1);
    assert_int_equal(log.n, 2);
    refine_log_free(&log);
    ring_free(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cycle_forbidden_and_logged),
        cmocka_unit_test(test_logged_cycle_shown_again),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
