/* Solves decided without a solver (encoders/solver_forced.c), against
 * CaDiCaL on random small sessions: a decided answer is CaDiCaL's; an
 * ONLY_MODEL assignment satisfies every clause and assumption and is the
 * only one that does; a SEARCHED_MODEL is a model whose values fixed
 * before the search are those of every model; a CONFLICT_CORE's failed
 * assumptions are assumptions, and with the clauses alone they have no
 * model; the search stops at its budget and a conflict limit stops
 * everything. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <ccadical.h>
#include <cmocka.h>

#include "encoders/solver_forced.h"

/* A session's calls as solver_replay.c keeps them. */
struct calls {
    int at[4096];
    size_t n;
};

static void put(struct calls *c, int x) { c->at[c->n++] = x; }

static void put_op(struct calls *c, int op, int arg)
{
    put(c, op);
    put(c, arg);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

/* A pseudo-random number below n (xorshift64). */
static int below(int n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (int)(rng % (uint64_t)n);
}

/* A random literal over variables 1..vars. */
static int random_lit(int vars) { return (1 + below(vars)) * (below(2) ? 1 : -1); }

/* CaDiCaL's answer to the clauses of c (up to its last OP_SOLVE, or all)
 * with the assumptions made after its last solve, and, where extra is
 * not NULL, the 0-ended literals at extra each as an assumption. */
static int cadical_answer(const struct calls *c, const int *extra)
{
    CCaDiCaL *s = ccadical_init();
    ccadical_set_option(s, "quiet", 1);
    int assumed[64], nassumed = 0;
    for (size_t i = 0; i < c->n; i++) {
        int x = c->at[i];
        if (x > OP_FAILED) {
            ccadical_add(s, x);
            continue;
        }
        if (x == OP_ASSUME)
            assumed[nassumed++] = c->at[i + 1];
        if (x == OP_SOLVE)
            nassumed = 0;
        i++;
    }
    if (extra)
        for (const int *p = extra; *p; p++)
            ccadical_assume(s, *p);
    else
        for (int k = 0; k < nassumed; k++)
            ccadical_assume(s, assumed[k]);
    int res = ccadical_solve(s);
    ccadical_release(s);
    return res;
}

/* The assumptions made after the last solve of c, 0-ended, in out (room
 * for 64). */
static void last_assumptions(const struct calls *c, int *out)
{
    int n = 0;
    for (size_t i = 0; i < c->n; i++)
        if (c->at[i] <= OP_FAILED) {
            n = c->at[i] == OP_SOLVE ? 0 : n;
            if (c->at[i] == OP_ASSUME)
                out[n++] = c->at[i + 1];
            i++;
        }
    out[n] = 0;
}

/* The largest variable c names. */
static int max_var(const struct calls *c)
{
    int top = 0;
    for (size_t i = 0; i < c->n; i++) {
        int x = c->at[i] > OP_FAILED ? c->at[i] : c->at[++i];
        top = abs(x) > top ? abs(x) : top;
    }
    return top;
}

/* Whether l is true under model (by variable, 1 or -1). */
static bool true_in(const signed char *model, int l) { return l > 0 ? model[l] > 0 : model[-l] < 0; }

/* Whether the clauses of c and its last assumptions hold under model. */
static bool satisfies(const struct calls *c, const signed char *model)
{
    bool clause_true = false;
    for (size_t i = 0; i < c->n; i++) {
        int x = c->at[i];
        if (x > OP_FAILED && x != 0) {
            clause_true = clause_true || true_in(model, x);
        } else if (x == 0) {
            if (!clause_true)
                return false;
            clause_true = false;
        } else {
            i++;
        }
    }
    int assumed[65];
    last_assumptions(c, assumed);
    for (const int *p = assumed; *p; p++)
        if (!true_in(model, *p))
            return false;
    return true;
}

/* A random session over vars variables: clauses of two or three literals
 * and now and then one, sometimes a solve and more clauses, then up to
 * three assumptions. */
static void random_session(struct calls *c, int vars)
{
    c->n = 0;
    int nclauses = 1 + below(5 * vars);
    for (int k = 0; k < nclauses; k++) {
        int len = below(12) == 0 ? 1 : 2 + below(2);
        for (int j = 0; j < len; j++)
            put(c, random_lit(vars));
        put(c, 0);
        if (below(16) == 0) {
            put_op(c, OP_ASSUME, random_lit(vars));   /* dropped by the solve */
            put_op(c, OP_SOLVE, 0);
        }
    }
    int nassumed = below(4);
    for (int k = 0; k < nassumed; k++)
        put_op(c, OP_ASSUME, random_lit(vars));
}

/* Checks what forced_answer makes of c against CaDiCaL; returns how it
 * decided. */
static enum forced check_session(const struct calls *c, int budget)
{
    signed char *model = NULL;
    size_t cap = 0;
    enum forced how = forced_answer(c->at, c->n, budget, &model, &cap);
    int expected = cadical_answer(c, NULL);
    if (how == ONLY_MODEL || how == SEARCHED_MODEL)
        assert_int_equal(expected, 10);
    if (how == CONFLICT_CORE || how == SEARCHED_NONE)
        assert_int_equal(expected, 20);
    int assumed[65];
    last_assumptions(c, assumed);
    if (how == ONLY_MODEL) {
        assert_true(satisfies(c, model));
        struct calls other = *c;   /* the model's negation: no other model */
        for (int v = 1; v <= max_var(c); v++)
            put(&other, model[v] > 0 ? -v : v);
        put(&other, 0);
        assert_int_equal(cadical_answer(&other, assumed), 20);
    }
    if (how == SEARCHED_MODEL) {   /* a model; its values of weight 1 are every model's */
        signed char sign[64] = { 0 };
        int n = 0, implied[66];
        for (int v = 1; v <= max_var(c); v++)
            sign[v] = (signed char)(model[v] > 0 ? 1 : -1);
        assert_true(satisfies(c, sign));
        for (const int *p = assumed; *p; p++)
            implied[n++] = *p;
        for (int v = 1; v <= max_var(c); v++) {
            assert_true(abs(model[v]) == 1 || abs(model[v]) == 2);
            if (abs(model[v]) == 1) {
                implied[n] = -sign[v] * v;   /* its negation, with the assumptions: no model */
                implied[n + 1] = 0;
                assert_int_equal(cadical_answer(c, implied), 20);
            }
        }
    }
    if (how == CONFLICT_CORE) {
        int failed[130], n = 0;
        for (int v = 1; v <= max_var(c); v++) {
            if (model[v] & 1)
                failed[n++] = v;
            if (model[v] & 2)
                failed[n++] = -v;
        }
        failed[n] = 0;
        for (int k = 0; k < n; k++) {   /* each one of the last assumptions */
            bool found = false;
            for (const int *p = assumed; *p; p++)
                found = found || *p == failed[k];
            assert_true(found);
        }
        assert_int_equal(cadical_answer(c, failed), 20);
    }
    free(model);
    return how;
}

static void test_random_sessions_agree_with_cadical(void **state)
{
    (void)state;
    int decided[SEARCHED_NONE + 1] = { 0 };
    for (int round = 0; round < 4000; round++) {
        struct calls c;
        random_session(&c, 3 + below(10));
        decided[check_session(&c, 1 << 16)]++;
    }
    /* every kind met, and with this budget every session decided */
    assert_int_equal(decided[NOT_DECIDED], 0);
    for (int k = ONLY_MODEL; k <= SEARCHED_NONE; k++)
        assert_true(decided[k] > 50);
}

static void test_no_budget_no_search(void **state)
{
    (void)state;
    for (int round = 0; round < 1000; round++) {
        struct calls c;
        random_session(&c, 3 + below(10));
        enum forced how = check_session(&c, 0);
        assert_true(how != SEARCHED_MODEL && how != SEARCHED_NONE);
    }
}

/* Pigeons into one hole fewer: no model, and a backtracking search meets
 * a conflict for each way of seating all but the last few. */
static void pigeonhole(struct calls *c, int holes)
{
    c->n = 0;
    int pigeons = holes + 1;
    for (int p = 0; p < pigeons; p++) {
        for (int h = 0; h < holes; h++)
            put(c, 1 + p * holes + h);
        put(c, 0);
    }
    for (int h = 0; h < holes; h++)
        for (int p = 0; p < pigeons; p++)
            for (int q = p + 1; q < pigeons; q++) {
                put(c, -(1 + p * holes + h));
                put(c, -(1 + q * holes + h));
                put(c, 0);
            }
}

static void test_search_stops_at_its_budget(void **state)
{
    (void)state;
    struct calls c;
    pigeonhole(&c, 3);
    assert_int_equal(check_session(&c, 1 << 16), SEARCHED_NONE);
    assert_int_equal(check_session(&c, 3), NOT_DECIDED);
    put_op(&c, OP_LIMIT, 1000);   /* a conflict limit: the solver's call */
    assert_int_equal(check_session(&c, 1 << 16), NOT_DECIDED);
}

static void test_core_follows_reasons(void **state)
{
    (void)state;
    /* x1 -> x2 -> x3, x4 free; assuming x4, x1 and not x3: the core is
     * x1 and -x3, not x4 */
    struct calls c = { .n = 0 };
    const int clauses[] = { -1, 2, 0, -2, 3, 0 };
    for (size_t k = 0; k < sizeof clauses / sizeof *clauses; k++)
        put(&c, clauses[k]);
    put_op(&c, OP_ASSUME, 4);
    put_op(&c, OP_ASSUME, 1);
    put_op(&c, OP_ASSUME, -3);
    signed char *model = NULL;
    size_t cap = 0;
    assert_int_equal(forced_answer(c.at, c.n, 0, &model, &cap), CONFLICT_CORE);
    assert_int_equal(model[1], 1);
    assert_int_equal(model[3], 2);
    assert_int_equal(model[4], 0);
    assert_int_equal(model[2], 0);
    free(model);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_sessions_agree_with_cadical),
        cmocka_unit_test(test_no_budget_no_search),
        cmocka_unit_test(test_search_stops_at_its_budget),
        cmocka_unit_test(test_core_follows_reasons),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
