/* Unit tests of the CNF layer's flattened AND gates (encoders/cnf.c,
 * require_and): a chain of AND gates (and of OR gates, their negations)
 * that a clause needs reaches the solver as one n-ary gate, with the
 * intermediate gates undefined there; a gate whose side the solver has
 * already is named, not flattened; answers and every gate's value stay
 * exact. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "encoders/cnf.h"

/* and(and(and(a, b), c), d) as a unit: the unit and d -> each of four
 * inputs, five clauses (a chain's halves: seven); all four then hold. */
static void test_and_chain_positive(void **state)
{
    (void)state;
    struct cnf *c = cnf_new(true);
    lit in[4] = { cnf_var(c), cnf_var(c), cnf_var(c), cnf_var(c) };
    lit ab = cnf_and(c, in[0], in[1]);
    lit g = cnf_and_n(c, in, 4);
    long before = cnf_num_clauses(c);
    cnf_unit(c, g);
    assert_int_equal(cnf_num_clauses(c), before + 5);
    assert_int_equal(cnf_solve(c, NULL, 0), 10);
    for (int i = 0; i < 4; i++)
        assert_true(cnf_value(c, in[i]));
    assert_true(cnf_value(c, ab));
    lit no_c = -in[2];
    assert_int_equal(cnf_solve(c, &no_c, 1), 20);
    cnf_free(c);
}

/* or(or(or(a, b), c), d) as a unit: one clause of the four inputs (a
 * chain's half: three clauses), so it holds exactly when one of them does;
 * the intermediate OR reads its inputs' value. */
static void test_or_chain_positive(void **state)
{
    (void)state;
    struct cnf *c = cnf_new(true);
    lit in[4] = { cnf_var(c), cnf_var(c), cnf_var(c), cnf_var(c) };
    lit ab = cnf_or(c, in[0], in[1]);
    lit h = cnf_or_n(c, in, 4);
    long before = cnf_num_clauses(c);
    cnf_unit(c, h);
    assert_int_equal(cnf_num_clauses(c), before + 2);
    lit only_d[3] = { -in[0], -in[1], -in[2] };
    assert_int_equal(cnf_solve(c, only_d, 3), 10);
    assert_true(cnf_value(c, in[3]));
    assert_false(cnf_value(c, ab));
    lit none[4] = { -in[0], -in[1], -in[2], -in[3] };
    assert_int_equal(cnf_solve(c, none, 4), 20);
    lit only_b[3] = { -in[0], -in[2], -in[3] };
    assert_int_equal(cnf_solve(c, only_b, 3), 10);
    assert_true(cnf_value(c, ab) && cnf_value(c, in[1]));
    cnf_free(c);
}

/* The negative half flattens too: and(and(a, b), c) -> x is one clause of
 * x and the negated inputs, and the gate reads true only under all three. */
static void test_and_chain_negative(void **state)
{
    (void)state;
    struct cnf *c = cnf_new(true);
    lit a = cnf_var(c), b = cnf_var(c), d = cnf_var(c), x = cnf_var(c);
    lit g = cnf_and(c, cnf_and(c, a, b), d);
    long before = cnf_num_clauses(c);
    cnf_imply(c, g, x);   /* -g | x: needs a & b & d -> g */
    assert_int_equal(cnf_num_clauses(c), before + 2);
    lit all[4] = { a, b, d, -x };
    assert_int_equal(cnf_solve(c, all, 4), 20);
    lit two[3] = { a, b, -x };
    assert_int_equal(cnf_solve(c, two, 3), 10);
    assert_false(cnf_value(c, g));
    cnf_free(c);
}

/* A gate whose half the solver already has is named, not flattened again:
 * and(a, b) as a unit (three clauses), then and(and(a, b), d) as a unit:
 * the unit and its two inputs, three more. */
static void test_required_gate_named(void **state)
{
    (void)state;
    struct cnf *c = cnf_new(true);
    lit a = cnf_var(c), b = cnf_var(c), d = cnf_var(c);
    lit ab = cnf_and(c, a, b);
    long before = cnf_num_clauses(c);
    cnf_unit(c, ab);
    assert_int_equal(cnf_num_clauses(c), before + 3);
    cnf_unit(c, cnf_and(c, ab, d));
    assert_int_equal(cnf_num_clauses(c), before + 6);
    assert_int_equal(cnf_solve(c, NULL, 0), 10);
    assert_true(cnf_value(c, a) && cnf_value(c, b) && cnf_value(c, d));
    cnf_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_and_chain_positive),
        cmocka_unit_test(test_or_chain_positive),
        cmocka_unit_test(test_and_chain_negative),
        cmocka_unit_test(test_required_gate_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
