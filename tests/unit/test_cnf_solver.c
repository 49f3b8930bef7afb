/* Unit tests of how the CNF layer drives its CaDiCaL solver, read from the
 * solver's own record of its calls (CADICAL_API_TRACE): each hand-over
 * makes all of its new variables in one step, and that step leaves the
 * answers, models and failed assumptions as they would be without it; the
 * solver is not handed what it drops itself: clauses that its unit
 * clauses satisfy, literals they falsify; nor asked the value of a
 * variable they fix. */
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

/* What a trace says about the solver's variables and settings. */
struct trace_facts {
    int steps;          /* literals naming a variable beyond every one before */
    int largest;        /* the largest variable named */
    bool realtime;      /* "set realtime 1" was called */
};

/* Reads the CADICAL_API_TRACE file at path. */
static struct trace_facts read_trace(const char *path)
{
    struct trace_facts t = { 0, 0, false };
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[128];
    while (fgets(line, sizeof line, f)) {
        int l;
        if (strcmp(line, "set realtime 1\n") == 0)
            t.realtime = true;
        if ((sscanf(line, "add %d", &l) == 1 || sscanf(line, "assume %d", &l) == 1) && abs(l) > t.largest) {
            t.largest = abs(l);
            t.steps++;
        }
    }
    fclose(f);
    return t;
}

/* Whether a trace asks the value of literal l. */
static bool traced_val(const char *path, int l)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[128];
    bool asked = false;
    int x;
    while (fgets(line, sizeof line, f))
        asked = asked || (sscanf(line, "val %d", &x) == 1 && x == l);
    fclose(f);
    return asked;
}

/* The clauses a trace adds, and whether any of them has literal l. */
static int traced_clauses(const char *path, int l, bool *has)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[128];
    int clauses = 0, x;
    *has = false;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "add %d", &x) == 1) {
            clauses += x == 0;
            *has = *has || x == l;
        }
    fclose(f);
    return clauses;
}

/* A cnf whose solver records its calls in path. */
static struct cnf *traced_cnf(char *path, size_t size, const char *tag)
{
    snprintf(path, size, "/tmp/gpubmc-test-cnf-solver-%s-%ld", tag, (long)getpid());
    unlink(path);
    assert_int_equal(setenv("CADICAL_API_TRACE", path, 1), 0);
    struct cnf *c = cnf_new(true);
    unsetenv("CADICAL_API_TRACE");
    return c;
}

/* Each solve's new variables, those of its clauses and those named only by
 * its assumptions, reach the solver in one step: two solves that bring new
 * variables, two steps. */
static void test_variables_in_one_step(void **state)
{
    (void)state;
    char path[80];
    struct cnf *c = traced_cnf(path, sizeof path, "steps");
    lit v[40];
    for (int k = 0; k < 40; k++)
        v[k] = cnf_var(c);
    for (int k = 0; k + 1 < 30; k++)
        cnf_imply(c, v[k], v[k + 1]);           /* a chain v0 -> ... -> v29 */
    lit first[2] = { v[0], v[35] };             /* v35: named by nothing else */
    assert_int_equal(cnf_solve(c, first, 2), 10);
    for (int k = 0; k < 30; k++)
        assert_true(cnf_value(c, v[k]));
    assert_true(cnf_value(c, v[35]));
    cnf_clause2(c, -v[30], -v[31]);             /* new variables after a solve */
    cnf_clause3(c, -v[29], v[32], v[33]);
    lit second[4] = { v[0], v[30], v[31], v[38] };
    assert_int_equal(cnf_solve(c, second, 4), 20);
    assert_true(cnf_failed(c, v[30]));
    assert_true(cnf_failed(c, v[31]));
    assert_false(cnf_failed(c, v[0]));
    assert_false(cnf_failed(c, v[38]));
    cnf_free(c);
    struct trace_facts t = read_trace(path);
    unlink(path);
    /* true, v0..v29, v35; then v30..v33, v38 */
    assert_int_equal(t.largest, 1 + 30 + 1 + 5);
    assert_int_equal(t.steps, 2);
}

/* The step constrains nothing: the largest new variable, named by an
 * assumption alone, takes either value, and a solve that brings a single
 * new variable is as it was. */
static void test_step_constrains_nothing(void **state)
{
    (void)state;
    char path[80];
    struct cnf *c = traced_cnf(path, sizeof path, "free");
    lit x = cnf_var(c), y = cnf_var(c), z = cnf_var(c);
    cnf_clause2(c, x, y);
    for (int sign = -1; sign <= 1; sign += 2) {
        lit as[2] = { -x, sign * z };            /* z: the largest, in no clause */
        assert_int_equal(cnf_solve(c, as, 2), 10);
        assert_true(cnf_value(c, y));
        assert_int_equal(cnf_value(c, z), sign > 0);
    }
    lit w = cnf_var(c);
    cnf_clause2(c, -w, -y);                     /* one new variable */
    lit both[2] = { w, -x };
    assert_int_equal(cnf_solve(c, both, 2), 20);
    assert_true(cnf_failed(c, w));
    assert_true(cnf_failed(c, -x));
    cnf_free(c);
    struct trace_facts t = read_trace(path);
    unlink(path);
    assert_int_equal(t.largest, 5);             /* true, x, y, z, w */
    assert_int_equal(t.steps, 2);
}

/* After the unit clause x: x | y and x again are not handed over, -x | z | w
 * goes as z | w; after -x | -w, which goes as -w, w | z goes as z.  The
 * answers and values are the same. */
static void test_units_fold(void **state)
{
    (void)state;
    char path[80];
    struct cnf *c = traced_cnf(path, sizeof path, "fold");
    lit x = cnf_var(c), y = cnf_var(c), z = cnf_var(c), w = cnf_var(c);
    cnf_unit(c, x);
    cnf_clause2(c, x, y);
    cnf_clause3(c, -x, z, w);
    cnf_unit(c, x);
    cnf_clause2(c, -x, -w);
    cnf_clause2(c, w, z);
    assert_int_equal(cnf_solve(c, NULL, 0), 10);
    assert_true(cnf_value(c, x));
    assert_true(cnf_value(c, z));
    assert_false(cnf_value(c, w));
    lit not_z = -z;
    assert_int_equal(cnf_solve(c, &not_z, 1), 20);
    assert_true(cnf_failed(c, not_z));
    cnf_free(c);
    bool has_not_x;
    /* the step (w | -w), true, x, z | w, -w, z */
    assert_int_equal(traced_clauses(path, -x, &has_not_x), 6);
    unlink(path);
    assert_false(has_not_x);
}

/* The value of a variable a unit clause fixed is its value in every
 * model: read with no question to the solver. */
static void test_fixed_values_not_asked(void **state)
{
    (void)state;
    char path[80];
    struct cnf *c = traced_cnf(path, sizeof path, "fixed");
    lit x = cnf_var(c), y = cnf_var(c), z = cnf_var(c);
    cnf_unit(c, -x);
    cnf_clause2(c, y, z);
    assert_int_equal(cnf_solve(c, NULL, 0), 10);
    assert_false(cnf_value(c, x));
    assert_true(cnf_value(c, y) || cnf_value(c, z));
    cnf_free(c);
    bool asked_x = traced_val(path, x), asked_y = traced_val(path, y);
    unlink(path);
    assert_false(asked_x);
    assert_true(asked_y);
}

/* The solver's timer of each solve reads the wall clock (a vDSO call)
 * rather than getrusage (a system call). */
static void test_wall_clock(void **state)
{
    (void)state;
    char path[80];
    struct cnf *c = traced_cnf(path, sizeof path, "clock");
    assert_int_equal(cnf_solve(c, NULL, 0), 10);
    cnf_free(c);
    struct trace_facts t = read_trace(path);
    unlink(path);
    assert_true(t.realtime);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_variables_in_one_step),
        cmocka_unit_test(test_step_constrains_nothing),
        cmocka_unit_test(test_units_fold),
        cmocka_unit_test(test_fixed_values_not_asked),
        cmocka_unit_test(test_wall_clock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
