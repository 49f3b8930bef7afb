/* Unit tests of the CNF layer: constant folding of every gate, structural
 * hashing, exact Tseitin encodings checked exhaustively against truth tables
 * (through the solver and through the concrete back end), definitions
 * emitted on demand by polarity, at-most-one, empty clauses and failed
 * assumptions; the solver's settings from the environment and its
 * numbering of variables. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "encoders/cnf.h"

enum op { OP_AND, OP_OR, OP_XOR, OP_IFF, OP_ITE, OP_AND_N, OP_OR_N, OP_COUNT };

static const char *const op_name[OP_COUNT] = { "and", "or", "xor", "iff", "ite", "and_n", "or_n" };

#define NVARS 3
#define POOL 8
#define MAX_GATES 2048

/* Number of operands the test gives to op (and_n/or_n get three). */
static int arity(int op) { return op == OP_ITE || op == OP_AND_N || op == OP_OR_N ? 3 : 2; }

/* Builds gate op over args in c. */
static lit apply(struct cnf *c, int op, const lit *a)
{
    switch (op) {
    case OP_AND: return cnf_and(c, a[0], a[1]);
    case OP_OR: return cnf_or(c, a[0], a[1]);
    case OP_XOR: return cnf_xor(c, a[0], a[1]);
    case OP_IFF: return cnf_iff(c, a[0], a[1]);
    case OP_ITE: return cnf_ite(c, a[0], a[1], a[2]);
    case OP_AND_N: return cnf_and_n(c, a, 3);
    default: return cnf_or_n(c, a, 3);
    }
}

/* The truth-table value of op on the booleans v. */
static bool truth(int op, const bool *v)
{
    switch (op) {
    case OP_AND: return v[0] && v[1];
    case OP_OR: return v[0] || v[1];
    case OP_XOR: return v[0] != v[1];
    case OP_IFF: return v[0] == v[1];
    case OP_ITE: return v[0] ? v[1] : v[2];
    case OP_AND_N: return v[0] && v[1] && v[2];
    default: return v[0] || v[1] || v[2];
    }
}

/* Value of l when vars[i] has bit i of asg (l is a constant or +-vars[i]). */
static bool eval(lit l, const lit *vars, unsigned asg)
{
    if (lit_is_const(l))
        return l == LIT_TRUE;
    for (int i = 0; i < NVARS; i++)
        if (l == vars[i] || l == -vars[i])
            return (((asg >> i) & 1u) != 0) == (l > 0);
    fail_msg("literal %d is not an operand", l);
    return false;
}

/* Fills as[] with the assumptions that give vars[i] bit i of asg. */
static void assume_bits(lit *as, const lit *vars, unsigned asg)
{
    for (int i = 0; i < NVARS; i++)
        as[i] = (asg >> i) & 1u ? vars[i] : -vars[i];
}

/* Every gate on every tuple of constants folds to the truth-table constant. */
static void test_fold_constants(void **state)
{
    (void)state;
    struct cnf *c = cnf_new(false);
    assert_false(cnf_symbolic(c));
    for (int op = 0; op < OP_COUNT; op++)
        for (unsigned bits = 0; bits < 8; bits++) {
            bool v[3] = { bits & 1u, (bits >> 1) & 1u, (bits >> 2) & 1u };
            lit a[3] = { lit_of(v[0]), lit_of(v[1]), lit_of(v[2]) };
            lit o = apply(c, op, a);
            if (o != lit_of(truth(op, v)))
                fail_msg("%s(%d,%d,%d) folded to %d", op_name[op], v[0], v[1], v[2], o);
            assert_int_equal(cnf_value(c, o), truth(op, v));
        }
    assert_int_equal(cnf_num_vars(c), 1);
    cnf_free(c);
}

/* and_n / or_n of n = 0..6 constants fold correctly (empty: true / false). */
static void test_fold_nary(void **state)
{
    (void)state;
    struct cnf *c = cnf_new(false);
    for (int n = 0; n <= 6; n++)
        for (unsigned bits = 0; bits < (1u << n); bits++) {
            lit a[6];
            for (int i = 0; i < n; i++)
                a[i] = lit_of((bits >> i) & 1u);
            bool all = bits == (1u << n) - 1, any = bits != 0;
            assert_int_equal(cnf_and_n(c, a, n), lit_of(all));
            assert_int_equal(cnf_or_n(c, a, n), lit_of(any));
        }
    cnf_free(c);
}

/* Folding with one symbolic operand: x&1, x|0, x^x, x^-x, ite on constants. */
static void test_fold_partial(void **state)
{
    (void)state;
    struct cnf *c = cnf_new(true);
    lit x = cnf_var(c), y = cnf_var(c);
    int nv = cnf_num_vars(c);
    assert_int_equal(cnf_and(c, x, LIT_TRUE), x);
    assert_int_equal(cnf_and(c, LIT_FALSE, x), LIT_FALSE);
    assert_int_equal(cnf_and(c, x, -x), LIT_FALSE);
    assert_int_equal(cnf_and(c, x, x), x);
    assert_int_equal(cnf_or(c, x, LIT_FALSE), x);
    assert_int_equal(cnf_or(c, LIT_TRUE, x), LIT_TRUE);
    assert_int_equal(cnf_or(c, -x, x), LIT_TRUE);
    assert_int_equal(cnf_xor(c, x, x), LIT_FALSE);
    assert_int_equal(cnf_xor(c, x, -x), LIT_TRUE);
    assert_int_equal(cnf_xor(c, x, LIT_TRUE), -x);
    assert_int_equal(cnf_iff(c, x, x), LIT_TRUE);
    assert_int_equal(cnf_iff(c, LIT_FALSE, x), -x);
    assert_int_equal(cnf_ite(c, LIT_TRUE, x, y), x);
    assert_int_equal(cnf_ite(c, LIT_FALSE, x, y), y);
    assert_int_equal(cnf_ite(c, x, y, y), y);
    assert_int_equal(cnf_num_vars(c), nv);
    cnf_free(c);
}

/* The same gate twice, or with commuted / sign-normalised operands, is one literal. */
static void test_structural_hashing(void **state)
{
    (void)state;
    struct cnf *c = cnf_new(true);
    lit x = cnf_var(c), y = cnf_var(c), z = cnf_var(c);
    lit a = cnf_and(c, x, -y), o = cnf_or(c, y, z), e = cnf_xor(c, x, z);
    lit t = cnf_ite(c, x, y, z);
    lit l3[3] = { x, y, z };
    lit n3 = cnf_and_n(c, l3, 3), r3 = cnf_or_n(c, l3, 3);
    int nv = cnf_num_vars(c);
    long nc = cnf_num_clauses(c);
    assert_int_equal(cnf_and(c, x, -y), a);
    assert_int_equal(cnf_and(c, -y, x), a);
    assert_int_equal(cnf_or(c, z, y), o);
    assert_int_equal(cnf_and(c, -y, -z), -o);
    assert_int_equal(cnf_xor(c, z, x), e);
    assert_int_equal(cnf_xor(c, -x, z), -e);
    assert_int_equal(cnf_xor(c, -z, -x), e);
    assert_int_equal(cnf_iff(c, x, z), -e);
    assert_int_equal(cnf_ite(c, x, y, z), t);
    assert_int_equal(cnf_and_n(c, l3, 3), n3);
    assert_int_equal(cnf_or_n(c, l3, 3), r3);
    assert_int_equal(cnf_num_vars(c), nv);
    assert_int_equal(cnf_num_clauses(c), nc);
    cnf_free(c);
}

/* Hashing survives table growth: thousands of distinct gates, then all asked again. */
static void test_hashing_after_growth(void **state)
{
    (void)state;
    enum { N = 80 };
    struct cnf *c = cnf_new(true);
    lit v[N], *out = test_malloc(N * N * sizeof *out);
    for (int i = 0; i < N; i++)
        v[i] = cnf_var(c);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            out[i * N + j] = i < j ? cnf_and(c, v[i], -v[j]) : cnf_xor(c, v[i], v[j]);
    int nv = cnf_num_vars(c);
    for (int i = N - 1; i >= 0; i--)
        for (int j = N - 1; j >= 0; j--) {
            lit o = i < j ? cnf_and(c, -v[j], v[i]) : cnf_xor(c, v[j], v[i]);
            assert_int_equal(o, out[i * N + j]);
        }
    assert_int_equal(cnf_num_vars(c), nv);
    test_free(out);
    cnf_free(c);
}

/* Every gate over every operand tuple from {T, F, +-x, +-y, +-z}, checked under
 * all 8 assignments against the truth table and the concrete back end. */
static void test_gates_exhaustive(void **state)
{
    (void)state;
    static lit outs[MAX_GATES], args[MAX_GATES][3];
    static int ops[MAX_GATES];
    struct cnf *c = cnf_new(true), *k = cnf_new(false);
    lit vars[NVARS];
    for (int i = 0; i < NVARS; i++)
        vars[i] = cnf_var(c);
    lit pool[POOL] = { LIT_TRUE, LIT_FALSE, vars[0], -vars[0], vars[1], -vars[1], vars[2], -vars[2] };
    int ng = 0;
    for (int op = 0; op < OP_COUNT; op++) {
        int tuples = arity(op) == 3 ? POOL * POOL * POOL : POOL * POOL;
        for (int t = 0; t < tuples; t++) {
            for (int i = 0; i < 3; i++)
                args[ng][i] = pool[(t >> (3 * i)) % POOL];
            ops[ng] = op;
            outs[ng] = apply(c, op, args[ng]);
            ng++;
        }
    }
    for (unsigned asg = 0; asg < 8; asg++) {
        lit as[NVARS];
        assume_bits(as, vars, asg);
        assert_int_equal(cnf_solve(c, as, NVARS), 10);
        for (int g = 0; g < ng; g++) {
            bool v[3];
            lit kargs[3];
            for (int i = 0; i < 3; i++) {
                v[i] = eval(args[g][i], vars, asg);
                kargs[i] = lit_of(v[i]);
            }
            bool want = truth(ops[g], v);
            if (cnf_value(c, outs[g]) != want)
                fail_msg("%s(%d,%d,%d) under %u: solver says %d", op_name[ops[g]],
                         args[g][0], args[g][1], args[g][2], asg, !want);
            assert_int_equal(apply(k, ops[g], kargs), lit_of(want));
        }
    }
    cnf_free(k);
    cnf_free(c);
}

/* Assuming a gate's output forces its truth-table value: the half of the
 * definition an assumption needs reaches the solver, and for every input
 * assignment the wrong output value is unsatisfiable. */
static void test_gates_enforced(void **state)
{
    (void)state;
    lit pool[POOL];
    for (int op = 0; op < OP_COUNT; op++) {
        int tuples = arity(op) == 3 ? POOL * POOL * POOL : POOL * POOL;
        for (int t = 0; t < tuples; t++) {
            struct cnf *c = cnf_new(true);
            lit vars[NVARS], args[3];
            for (int i = 0; i < NVARS; i++)
                vars[i] = cnf_var(c);
            lit init[POOL] = { LIT_TRUE, LIT_FALSE, vars[0], -vars[0], vars[1], -vars[1], vars[2], -vars[2] };
            for (int i = 0; i < POOL; i++)
                pool[i] = init[i];
            for (int i = 0; i < 3; i++)
                args[i] = pool[(t >> (3 * i)) % POOL];
            lit out = apply(c, op, args);
            for (unsigned asg = 0; asg < 8 && !lit_is_const(out); asg++) {
                lit as[NVARS + 1];
                bool v[3];
                assume_bits(as, vars, asg);
                for (int i = 0; i < 3; i++)
                    v[i] = eval(args[i], vars, asg);
                bool want = truth(op, v);
                as[NVARS] = want ? out : -out;
                assert_int_equal(cnf_solve(c, as, NVARS + 1), 10);
                as[NVARS] = want ? -out : out;
                if (cnf_solve(c, as, NVARS + 1) != 20)
                    fail_msg("%s(%d,%d,%d) under %u: the solver allows %d", op_name[op],
                             args[0], args[1], args[2], asg, !want);
            }
            cnf_free(c);
        }
    }
}

/* A gate no clause mentions costs no clause; a clause mentioning it with
 * one sign brings only the half of its definition that sign needs. */
static void test_definitions_on_demand(void **state)
{
    (void)state;
    struct cnf *c = cnf_new(true);
    lit a = cnf_var(c), b = cnf_var(c), x = cnf_var(c);
    long before = cnf_num_clauses(c);
    lit g = cnf_and(c, a, b);
    cnf_or(c, g, x);                         /* built, never used */
    assert_int_equal(cnf_num_clauses(c), before);
    cnf_imply(c, g, x);                      /* -g | x: needs a & b -> g */
    assert_int_equal(cnf_num_clauses(c), before + 2);
    lit as[3] = { a, b, -x };
    assert_int_equal(cnf_solve(c, as, 3), 20);
    lit bs[2] = { -a, -x };                  /* g false: x is free */
    assert_int_equal(cnf_solve(c, bs, 2), 10);
    assert_false(cnf_value(c, g));
    cnf_unit(c, g);                          /* g: now needs g -> a & b */
    assert_int_equal(cnf_num_clauses(c), before + 5);
    assert_int_equal(cnf_solve(c, NULL, 0), 10);
    assert_true(cnf_value(c, a) && cnf_value(c, b) && cnf_value(c, x));
    cnf_free(c);
}

/* A variable defined later as an OR (cnf_define_or): no clause while
 * nothing names it, then the half of its definition a clause's sign needs;
 * one a clause named before its definition gets both halves at once.  Its
 * value is its inputs' OR, whatever half the solver has. */
static void test_define_or(void **state)
{
    (void)state;
    struct cnf *c = cnf_new(true);
    lit v = cnf_var(c), w = cnf_var(c), a = cnf_var(c), b = cnf_var(c), d = cnf_var(c);
    lit in[3] = { a, -b, d };
    long before = cnf_num_clauses(c);
    cnf_define_or(c, v, in, 3);
    assert_int_equal(cnf_num_clauses(c), before);
    cnf_imply(c, v, a);                      /* -v: needs a | -b | d -> v, three clauses */
    assert_int_equal(cnf_num_clauses(c), before + 4);
    lit as[2] = { b, d };                    /* d makes v, hence a */
    assert_int_equal(cnf_solve(c, as, 2), 10);
    assert_true(cnf_value(c, v) && cnf_value(c, a));
    lit bs[3] = { b, -d, -a };               /* no input: v false, whatever the solver has */
    assert_int_equal(cnf_solve(c, bs, 3), 10);
    assert_false(cnf_value(c, v));
    cnf_unit(c, w);                          /* w named before its definition */
    lit none[1] = { LIT_FALSE };
    cnf_define_or(c, w, none, 0);            /* the OR of nothing: false */
    assert_int_equal(cnf_solve(c, NULL, 0), 20);
    cnf_free(c);
}

/* Checks that fixing the lits in l[0..n-1] to the given truths is (un)satisfiable. */
static void check_amo(struct cnf *c, const lit *l, int n, unsigned truths, int want)
{
    lit as[16];
    for (int i = 0; i < n; i++)
        as[i] = (truths >> i) & 1u ? l[i] : -l[i];
    int got = cnf_solve(c, as, n);
    if (got != want)
        fail_msg("at_most_one n=%d, true set %#x: got %d, want %d", n, truths, got, want);
}

/* at_most_one for n = 2..10 (both encodings): zero or one true is SAT, two is UNSAT. */
static void test_at_most_one(void **state)
{
    (void)state;
    for (int n = 2; n <= 10; n++) {
        struct cnf *c = cnf_new(true);
        lit l[16];
        for (int i = 0; i < n; i++)
            l[i] = i % 3 == 1 ? -cnf_var(c) : cnf_var(c);
        cnf_at_most_one(c, l, n);
        check_amo(c, l, n, 0, 10);
        for (int i = 0; i < n; i++) {
            check_amo(c, l, n, 1u << i, 10);
            for (int j = i + 1; j < n; j++) {
                lit two[2] = { l[i], l[j] };
                assert_int_equal(cnf_solve(c, two, 2), 20);
                check_amo(c, l, n, (1u << i) | (1u << j), 20);
            }
        }
        cnf_free(c);
    }
}

/* A clause whose literals are all false (or that is empty) makes the formula UNSAT. */
static void test_false_clause(void **state)
{
    (void)state;
    struct cnf *c = cnf_new(true);
    lit x = cnf_var(c);
    cnf_clause2(c, x, LIT_TRUE);        /* satisfied, dropped */
    cnf_clause2(c, LIT_FALSE, x);       /* unit x */
    assert_int_equal(cnf_solve(c, NULL, 0), 10);
    assert_true(cnf_value(c, x));
    cnf_clause3(c, LIT_FALSE, LIT_FALSE, LIT_FALSE);
    assert_int_equal(cnf_solve(c, NULL, 0), 20);
    cnf_free(c);

    c = cnf_new(true);
    cnf_clause(c, NULL, 0);
    assert_int_equal(cnf_solve(c, NULL, 0), 20);
    cnf_free(c);

    c = cnf_new(true);
    cnf_unit(c, LIT_FALSE);
    assert_int_equal(cnf_solve(c, NULL, 0), 20);
    cnf_free(c);
}

/* cnf_failed names the assumptions of the core and not an unrelated one. */
static void test_failed(void **state)
{
    (void)state;
    struct cnf *c = cnf_new(true);
    lit x = cnf_var(c), y = cnf_var(c), z = cnf_var(c);
    cnf_clause2(c, -x, -y);
    cnf_clause2(c, z, -z);
    lit as[3] = { z, x, y };
    assert_int_equal(cnf_solve(c, as, 3), 20);
    assert_true(cnf_failed(c, x));
    assert_true(cnf_failed(c, y));
    assert_false(cnf_failed(c, z));
    assert_false(cnf_failed(c, LIT_TRUE));
    lit one[2] = { x, -y };
    assert_int_equal(cnf_solve(c, one, 2), 10);
    cnf_unit(c, -z);
    lit both[2] = { y, z };
    assert_int_equal(cnf_solve(c, both, 2), 20);
    assert_true(cnf_failed(c, z));
    assert_false(cnf_failed(c, y));
    cnf_free(c);
}

/* The solver still reads its CADICAL_ settings from the environment
 * (made with those entries alone), and the environment is whole again
 * after: CADICAL_API_TRACE makes it write its calls to a file. */
static void test_solver_environment(void **state)
{
    (void)state;
    char path[64];
    snprintf(path, sizeof path, "/tmp/gpubmc-test-cnf-trace-%ld", (long)getpid());
    unlink(path);
    assert_int_equal(setenv("CADICAL_API_TRACE", path, 1), 0);
    assert_int_equal(setenv("GPUBMC_TEST_KEPT", "yes", 1), 0);
    struct cnf *c = cnf_new(true);
    cnf_free(c);
    unsetenv("CADICAL_API_TRACE");
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[64] = "";
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "init\n");
    fclose(f);
    unlink(path);
    assert_non_null(getenv("GPUBMC_TEST_KEPT"));
    assert_string_equal(getenv("GPUBMC_TEST_KEPT"), "yes");
}

/* The largest variable named in a CADICAL_API_TRACE file (0: none). */
static int traced_max_var(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[128];
    int most = 0;
    while (fgets(line, sizeof line, f)) {
        int l;
        if ((sscanf(line, "add %d", &l) == 1 || sscanf(line, "assume %d", &l) == 1) && abs(l) > most)
            most = abs(l);
    }
    fclose(f);
    return most;
}

/* The solver numbers only the variables that clauses and assumptions name
 * (not the gates or variables nothing needs), in increasing order of ours
 * per solve; models, assumptions and failed assumptions read through that
 * numbering, also for variables named only after a solve. */
static void test_solver_numbering(void **state)
{
    (void)state;
    char path[64];
    snprintf(path, sizeof path, "/tmp/gpubmc-test-cnf-num-%ld", (long)getpid());
    unlink(path);
    assert_int_equal(setenv("CADICAL_API_TRACE", path, 1), 0);
    struct cnf *c = cnf_new(true);
    unsetenv("CADICAL_API_TRACE");
    lit v[100];
    for (int k = 0; k < 100; k++)
        v[k] = cnf_var(c);
    for (int k = 0; k + 1 < 100; k++)
        cnf_and(c, v[k], v[k + 1]);             /* gates no clause needs */
    cnf_clause2(c, -v[90], v[60]);              /* v90 -> v60 */
    lit as[1] = { v[90] };
    assert_int_equal(cnf_solve(c, as, 1), 10);
    assert_true(cnf_value(c, v[90]));
    assert_true(cnf_value(c, v[60]));
    assert_false(cnf_value(c, v[5]));           /* named by nothing: false */
    cnf_clause2(c, -v[60], -v[10]);             /* v10 named after a solve */
    lit both[2] = { v[10], v[90] };
    assert_int_equal(cnf_solve(c, both, 2), 20);
    assert_true(cnf_failed(c, v[10]));
    assert_true(cnf_failed(c, v[90]));
    assert_false(cnf_failed(c, v[5]));
    lit ten[1] = { v[10] };
    assert_int_equal(cnf_solve(c, ten, 1), 10);
    assert_true(cnf_value(c, v[10]));
    assert_false(cnf_value(c, v[60]));
    assert_false(cnf_value(c, v[90]));
    cnf_free(c);
    assert_int_equal(traced_max_var(path), 4);   /* true, v60, v90, v10 */
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fold_constants),
        cmocka_unit_test(test_fold_nary),
        cmocka_unit_test(test_fold_partial),
        cmocka_unit_test(test_structural_hashing),
        cmocka_unit_test(test_hashing_after_growth),
        cmocka_unit_test(test_gates_exhaustive),
        cmocka_unit_test(test_gates_enforced),
        cmocka_unit_test(test_definitions_on_demand),
        cmocka_unit_test(test_define_or),
        cmocka_unit_test(test_at_most_one),
        cmocka_unit_test(test_false_clause),
        cmocka_unit_test(test_failed),
        cmocka_unit_test(test_solver_environment),
        cmocka_unit_test(test_solver_numbering),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
