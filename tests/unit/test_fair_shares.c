/* fair_shares: the ways a scheduler may share progress.  A group owed
 * progress whose schedulable children it owes nothing gives minimal
 * progress to one of them, each choice a way; an owed schedulable child
 * takes it, and a lone schedulable child gets it, so there is one way;
 * more ways than FAIR_MAX_SHARES are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bmc/concrete/fair.h"
#include "litmus/ast.h"

/* Workgroup 0 holds P0 (subgroup 0) and P2 (subgroup 1); P1 is workgroup
 * 1's only thread. */
static const char *two_subgroups =
    "Vulkan two-subgroups\n"
    "{ x=0; }\n"
    " P0@sg 0, wg 0, qf 0 | P1@sg 0, wg 1, qf 0 | P2@sg 1, wg 0, qf 0 ;\n"
    " st.atom.dv.sc0 x, 1 | st.atom.dv.sc0 x, 2 | st.atom.dv.sc0 x, 3 ;\n"
    "exists (x == 1)\n";

/* The ways of model m on text where started[t] holds (nothing ended), into
 * ways (FAIR_MAX_SHARES * nthreads entries); returns their count. */
static int shares_of(const char *text, enum progress_model m, const bool *started, bool *ways)
{
    struct litmus_error err;
    struct litmus *l = litmus_parse("shares.litmus", text, &err);
    assert_non_null(l);
    bool ended[64] = { false };
    assert_true(l->nthreads <= 64);
    struct fair_tree *tr = fair_tree_build(l, NULL);
    int k = fair_shares(tr, m, ended, started, ways);
    fair_tree_free(tr);
    litmus_free(l);
    return k;
}

/* Whether way k of ways (three threads) is exactly {a, b}. */
static bool way_is(const bool *ways, int k, int a, int b)
{
    for (int t = 0; t < 3; t++)
        if (ways[k * 3 + t] != (t == a || t == b))
            return false;
    return true;
}

/* Under LOBE, once P1 (workgroup 1) started, workgroup 0 below it is owed
 * progress, owes neither subgroup anything (neither started), and gives
 * minimal progress to P0 or to P2: two ways, each with P1. */
static void test_choice_of_two_subgroups(void **state)
{
    (void)state;
    bool ways[FAIR_MAX_SHARES * 3];
    bool started[3] = { false, true, false };
    assert_int_equal(shares_of(two_subgroups, PROG_LOBE, started, ways), 2);
    assert_true(way_is(ways, 0, 0, 1));
    assert_true(way_is(ways, 1, 1, 2));
}

/* Once P2 started, LOBE owes subgroup 0 progress too (a later subgroup
 * started) and subgroup 1 (started): one way, every thread. */
static void test_owed_children_leave_no_choice(void **state)
{
    (void)state;
    bool ways[FAIR_MAX_SHARES * 3];
    bool started[3] = { false, true, true };
    assert_int_equal(shares_of(two_subgroups, PROG_LOBE, started, ways), 1);
    assert_true(ways[0] && ways[1] && ways[2]);
}

/* Under HSA the lowest schedulable child is owed: one way, never a choice. */
static void test_hsa_has_one_way(void **state)
{
    (void)state;
    bool ways[FAIR_MAX_SHARES * 3];
    bool started[3] = { false, true, false };
    assert_int_equal(shares_of(two_subgroups, PROG_HSA, started, ways), 1);
}

/* Seven workgroups of one started thread (P0 of each) and two idle ones
 * (subgroups 1 and 2) under OBE: each workgroup is owed progress (it
 * started), its started subgroup is owed it, so no choice; with every
 * started thread ended, each workgroup chooses between its two idle
 * subgroups: 2^7 ways, more than FAIR_MAX_SHARES. */
static void test_too_many_ways_refused(void **state)
{
    (void)state;
    char text[4096], *at = text;
    at += sprintf(at, "Vulkan many\n{ x=0; }\n");
    for (int w = 0; w < 7; w++)
        for (int s = 0; s < 3; s++)
            at += sprintf(at, "%sP%d@sg %d, wg %d, qf 0", w + s ? " | " : " ", 3 * w + s, s, w);
    at += sprintf(at, " ;\n");
    for (int t = 0; t < 21; t++)
        at += sprintf(at, "%sst.atom.dv.sc0 x, 1", t ? " | " : " ");
    sprintf(at, " ;\nexists (x == 1)\n");
    struct litmus_error err;
    struct litmus *l = litmus_parse("many.litmus", text, &err);
    assert_non_null(l);
    bool ended[21] = { false }, started[21] = { false }, *ways = calloc((size_t)FAIR_MAX_SHARES * 21, 1);
    for (int w = 0; w < 7; w++)
        ended[3 * w] = started[3 * w] = true;
    struct fair_tree *tr = fair_tree_build(l, NULL);
    assert_int_equal(fair_shares(tr, PROG_OBE, ended, started, ways), -1);
    ended[0] = false;   /* workgroup 0's started thread back: it takes progress, 2^6 ways */
    assert_int_equal(fair_shares(tr, PROG_OBE, ended, started, ways), 64);
    fair_tree_free(tr);
    free(ways);
    litmus_free(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_choice_of_two_subgroups),
        cmocka_unit_test(test_owed_children_leave_no_choice),
        cmocka_unit_test(test_hsa_has_one_way),
        cmocka_unit_test(test_too_many_ways_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
