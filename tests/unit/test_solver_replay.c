/* Replayed solver sessions (encoders/solver_replay.c): a session whose
 * calls repeat an earlier one's answers as that one did and makes no
 * solver; one that departs from it answers for itself: with no solver
 * when unit propagation decides (solver_forced.c: the only model, or a
 * conflict and the assumptions it rests on) and, for the answer alone,
 * when a short search does; a value or failed assumption that only a
 * solver knows makes the solver then; with a CADICAL_ setting in the
 * environment every session makes its solver. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

#include "encoders/solver_replay.h"

/* Clauses over variables 1..5 whose models are x1 = x2, x3 false and x4
 * or x5, x1 free: x4 | x5, which no propagation decides, makes a session
 * solve for itself or follow a record. */
static const int SHARED[] = { 1, -2, 0, -1, 2, 0, -3, 0, 4, 5, 0 };
#define NSHARED (sizeof SHARED / sizeof *SHARED)

/* A session with the shared clauses and first clause first (n ints,
 * ended by 0), assuming assumed (0: nothing). */
static struct replay *session(const int *first, size_t n, int assumed)
{
    struct replay *r = replay_new();
    replay_clauses(r, first, n);
    replay_clauses(r, SHARED, NSHARED);
    if (assumed)
        replay_assume(r, assumed);
    return r;
}

static void test_repeat_makes_no_solver(void **state)
{
    (void)state;
    const int first[] = { 1, 3, 0 };   /* with -3: x1, so x2 */
    struct replay *a = session(first, 3, 0);
    assert_int_equal(replay_solve(a), 10);   /* x4 | x5 open: a search, no model to ask */
    assert_false(replay_has_solver(a));
    assert_true(replay_val(a, 4) > 0 || replay_val(a, 5) > 0);
    assert_true(replay_has_solver(a));
    assert_true(replay_val(a, 1) > 0);
    assert_true(replay_val(a, 2) > 0);
    assert_true(replay_val(a, 3) < 0);
    int four = replay_val(a, 4);
    replay_free(a);

    struct replay *b = session(first, 3, 0);
    assert_int_equal(replay_solve(b), 10);
    assert_true(replay_val(b, 4) > 0 || replay_val(b, 5) > 0);
    assert_true(replay_val(b, 1) > 0);
    assert_true(replay_val(b, 2) > 0);
    assert_true(replay_val(b, 3) < 0);
    assert_int_equal(replay_val(b, 4), four);
    assert_false(replay_has_solver(b));
    /* then a clause of its own: x1 and x1 -> false now, by propagation */
    const int own[] = { -2, 0 };
    replay_clauses(b, own, 2);
    assert_int_equal(replay_solve(b), 20);
    assert_false(replay_has_solver(b));
    replay_free(b);
}

static void test_other_clauses_solve_for_themselves(void **state)
{
    (void)state;
    const int with_x2[] = { 2, 3, 0 }, without_x2[] = { -2, 3, 0 };
    struct replay *a = session(with_x2, 3, -1);   /* x2 and not x1: none */
    assert_int_equal(replay_solve(a), 20);
    assert_true(replay_failed(a, -1));
    replay_free(a);

    struct replay *b = session(with_x2, 3, -1);
    assert_int_equal(replay_solve(b), 20);
    assert_true(replay_failed(b, -1));
    assert_false(replay_has_solver(b));
    replay_free(b);

    struct replay *c = session(without_x2, 3, -1);   /* not x2, not x1: a model */
    assert_int_equal(replay_solve(c), 10);
    assert_true(replay_val(c, 2) < 0);   /* fixed by propagation */
    assert_false(replay_has_solver(c));
    assert_true(replay_val(c, 4) > 0 || replay_val(c, 5) > 0);
    assert_true(replay_has_solver(c));
    replay_free(c);
}

static void test_other_question_asks_the_solver(void **state)
{
    (void)state;
    const int first[] = { -1, -3, 0 };
    struct replay *a = session(first, 3, 2);   /* x2: x1 */
    assert_int_equal(replay_solve(a), 10);
    assert_true(replay_val(a, 1) > 0);
    replay_free(a);

    struct replay *b = session(first, 3, 2);
    assert_int_equal(replay_solve(b), 10);
    assert_true(replay_val(b, 1) > 0);
    assert_false(replay_has_solver(b));
    assert_true(replay_val(b, 3) < 0);   /* not asked before */
    assert_true(replay_has_solver(b));
    assert_true(replay_val(b, 2) > 0);
    replay_free(b);
}

/* A session of n binary clauses over fresh variables from base on, solved
 * and asked one value: recorded when freed, about 3 n ints. */
static void big_session(int base, int n)
{
    struct replay *r = replay_new();
    for (int k = 0; k < n; k++) {
        const int clause[] = { base + 2 * k, base + 2 * k + 1, 0 };
        replay_clauses(r, clause, 3);
    }
    assert_int_equal(replay_solve(r), 10);
    assert_true(replay_val(r, base) != 0);
    replay_free(r);
}

static void test_followed_record_outlives_eviction(void **state)
{
    (void)state;
    const int first[] = { 1, 0 };   /* x1, so x2 */
    struct replay *a = session(first, 2, 0);
    assert_int_equal(replay_solve(a), 10);
    assert_true(replay_val(a, 1) > 0);
    assert_true(replay_val(a, 2) > 0);
    replay_free(a);

    struct replay *b = session(first, 2, 0);   /* follows a's record */
    assert_int_equal(replay_solve(b), 10);
    assert_true(replay_val(b, 1) > 0);
    /* sessions recorded meanwhile pass the memory budget several times:
     * the oldest records go, but not the one b follows */
    for (int k = 0; k < 8; k++)
        big_session(100 + 10000 * k, 2000);
    assert_true(replay_val(b, 2) > 0);
    assert_false(replay_has_solver(b));
    replay_free(b);
}

/* Solves the session as it stands: SAT with no solver made (unit
 * propagation or the search). */
static void assert_forced(struct replay *r)
{
    assert_int_equal(replay_solve(r), 10);
    assert_false(replay_has_solver(r));
}

static void test_forced_model_needs_no_solver(void **state)
{
    (void)state;
    const int chain[] = { 1, 0, -1, 2, 0, -2, -3, 0 };   /* x1, so x2, so not x3 */
    struct replay *r = replay_new();
    replay_clauses(r, chain, sizeof chain / sizeof *chain);
    assert_forced(r);
    assert_int_equal(replay_val(r, 1), 1);
    assert_int_equal(replay_val(r, -2), -2);
    assert_int_equal(replay_val(r, 3), -3);
    const int more[] = { 3, 4, 0 };   /* not x3: x4 */
    replay_clauses(r, more, 3);
    assert_forced(r);
    assert_true(replay_val(r, 4) > 0);
    const int open[] = { 5, 6, 0 };   /* x5 or x6: a search answers, the solver decides which */
    replay_clauses(r, open, 3);
    assert_forced(r);
    assert_true(replay_val(r, 4) > 0);   /* fixed before the search */
    assert_false(replay_has_solver(r));
    assert_true(replay_val(r, 5) > 0 || replay_val(r, 6) > 0);
    assert_true(replay_has_solver(r));
    replay_free(r);
}

static void test_forced_by_assumptions_alone(void **state)
{
    (void)state;
    const int implications[] = { -1, 2, 0, -2, 3, 0 };   /* x1 -> x2 -> x3 */
    struct replay *r = replay_new();
    replay_clauses(r, implications, 6);
    replay_assume(r, 1);
    assert_forced(r);
    assert_true(replay_val(r, 3) > 0);
    assert_int_equal(replay_solve(r), 10);   /* the assumption is gone: x1 free, a search */
    assert_false(replay_has_solver(r));
    replay_free(r);

    r = replay_new();   /* a conflict under the assumptions, which it rests on */
    const int not_x3[] = { -3, 0 };
    replay_clauses(r, implications, 6);
    replay_clauses(r, not_x3, 2);
    replay_assume(r, 4);
    replay_assume(r, 1);
    assert_int_equal(replay_solve(r), 20);
    assert_true(replay_failed(r, 1));
    assert_false(replay_failed(r, 4));
    assert_false(replay_has_solver(r));
    replay_free(r);
}

/* Four pigeons, each in one of three holes when guard holds (variables
 * 1..12), no two in one hole, guard assumed: no model, which propagation
 * alone does not see; a search meets a conflict per seating of the first
 * pigeons, a few dozen. */
static struct replay *pigeonhole_session(int guard)
{
    struct replay *r = replay_new();
    const int holes = 3, pigeons = 4;
    for (int p = 0; p < pigeons; p++) {
        int seat[] = { -guard, 1 + p * holes, 2 + p * holes, 3 + p * holes, 0 };
        replay_clauses(r, seat, 5);
    }
    for (int h = 0; h < holes; h++)
        for (int p = 0; p < pigeons; p++)
            for (int q = p + 1; q < pigeons; q++) {
                int apart[] = { -(1 + p * holes + h), -(1 + q * holes + h), 0 };
                replay_clauses(r, apart, 3);
            }
    replay_assume(r, guard);
    return r;
}

static void test_search_answers_alone(void **state)
{
    (void)state;
    struct replay *r = pigeonhole_session(20);
    assert_int_equal(replay_solve(r), 20);   /* by the search: no core known */
    assert_false(replay_has_solver(r));
    assert_true(replay_failed(r, 20));   /* the solver's core, made now */
    assert_true(replay_has_solver(r));
    replay_free(r);

    r = pigeonhole_session(21);
    assert_int_equal(replay_solve(r), 20);
    assert_int_equal(replay_solve(r), 10);   /* the guard gone: no pigeon need sit */
    assert_false(replay_has_solver(r));
    replay_free(r);

    r = replay_new();   /* x1, so x4; x2 or x3 left to the search */
    const int clauses[] = { 1, 0, -1, 4, 0, 2, 3, 0 };
    replay_clauses(r, clauses, sizeof clauses / sizeof *clauses);
    assert_int_equal(replay_solve(r), 10);
    assert_int_equal(replay_val(r, 4), 4);   /* fixed before the search: every model's */
    assert_int_equal(replay_val(r, -1), -1);   /* CaDiCaL's: lit when its variable is true */
    assert_false(replay_has_solver(r));
    assert_true(replay_val(r, 2) > 0 || replay_val(r, 3) > 0);   /* the search's choice: the solver's */
    assert_true(replay_has_solver(r));
    replay_free(r);
}

static void test_conflict_limit_asks_the_solver(void **state)
{
    (void)state;
    const int unit[] = { 1, 0 };
    struct replay *r = replay_new();
    replay_clauses(r, unit, 2);
    replay_limit_conflicts(r, 5);
    assert_int_equal(replay_solve(r), 10);
    assert_true(replay_has_solver(r));
    replay_free(r);
}

static void test_settings_make_a_solver_at_once(void **state)
{
    (void)state;
    assert_int_equal(setenv("CADICAL_SEED", "0", 1), 0);
    struct replay *r = replay_new();
    assert_true(replay_has_solver(r));
    replay_free(r);
    unsetenv("CADICAL_SEED");
    r = replay_new();
    assert_false(replay_has_solver(r));
    replay_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_repeat_makes_no_solver),
        cmocka_unit_test(test_other_clauses_solve_for_themselves),
        cmocka_unit_test(test_other_question_asks_the_solver),
        cmocka_unit_test(test_followed_record_outlives_eviction),
        cmocka_unit_test(test_forced_model_needs_no_solver),
        cmocka_unit_test(test_forced_by_assumptions_alone),
        cmocka_unit_test(test_search_answers_alone),
        cmocka_unit_test(test_conflict_limit_asks_the_solver),
        cmocka_unit_test(test_settings_make_a_solver_at_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
