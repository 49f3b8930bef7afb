/* Replayed solver sessions (encoders/solver_replay.c): a session whose
 * calls repeat an earlier one's answers as that one did and makes no
 * solver; one that departs from it, at a clause or at a question, makes
 * its solver and answers for itself, unless unit propagation fixes every
 * variable (solver_forced.c): then it answers that only model with no
 * solver; with a CADICAL_ setting in the environment every session makes
 * its solver. */
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
    assert_int_equal(replay_solve(a), 10);
    assert_true(replay_has_solver(a));
    assert_true(replay_val(a, 1) > 0);
    assert_true(replay_val(a, 2) > 0);
    assert_true(replay_val(a, 3) < 0);
    replay_free(a);

    struct replay *b = session(first, 3, 0);
    assert_int_equal(replay_solve(b), 10);
    assert_true(replay_val(b, 1) > 0);
    assert_true(replay_val(b, 2) > 0);
    assert_true(replay_val(b, 3) < 0);
    assert_false(replay_has_solver(b));
    /* then a clause of its own: x1 and x1 -> false now */
    const int own[] = { -2, 0 };
    replay_clauses(b, own, 2);
    assert_int_equal(replay_solve(b), 20);
    assert_true(replay_has_solver(b));
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
    assert_true(replay_has_solver(c));
    assert_true(replay_val(c, 2) < 0);
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

/* Solves the session as it stands: SAT with no solver made. */
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
    const int open[] = { 5, 6, 0 };   /* x5 or x6: the solver decides */
    replay_clauses(r, open, 3);
    assert_int_equal(replay_solve(r), 10);
    assert_true(replay_has_solver(r));
    assert_true(replay_val(r, 4) > 0);
    assert_true(replay_val(r, 5) > 0 || replay_val(r, 6) > 0);
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
    assert_int_equal(replay_solve(r), 10);   /* the assumption is gone: x1 free */
    assert_true(replay_has_solver(r));
    replay_free(r);

    r = replay_new();   /* a conflict under the assumptions: the solver names them */
    const int not_x3[] = { -3, 0 };
    replay_clauses(r, implications, 6);
    replay_clauses(r, not_x3, 2);
    replay_assume(r, 1);
    assert_int_equal(replay_solve(r), 20);
    assert_true(replay_has_solver(r));
    assert_true(replay_failed(r, 1));
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
        cmocka_unit_test(test_conflict_limit_asks_the_solver),
        cmocka_unit_test(test_settings_make_a_solver_at_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
