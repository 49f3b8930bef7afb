/* fair_find picks, among the fair cyclic components, the one whose first
 * state has the lowest index (the one a breadth-first stem reaches
 * soonest), which is not the order Tarjan's algorithm closes them in;
 * fair_sccs finds a component of one state cyclic by its steps to itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bmc/concrete/fair.h"
#include "litmus/ast.h"

/* Two threads, for the scope hierarchy fair_tree_build reads. */
static const char *two_threads =
    "PTX two\n"
    "{ x = 0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
    " st.relaxed.gpu x, 1 | st.relaxed.gpu x, 2 ;\n"
    "exists (x == 1)\n";

enum { NSTATES = 4, NTHREADS = 2, WIDTH = 3 };

/* State 0 steps (P0) into component {1, 2}, where P0 goes round and P1
 * stays at 1; P1 leaves it from 2 for state 3, where both threads loop.
 * Both components are fair under the fair model (every thread steps
 * inside); Tarjan's algorithm closes {3} first, though {1, 2} has the
 * lower first state. */
static const int succ[NSTATES * NTHREADS] = {
    1, -1,   /* 0 */
    2, 1,    /* 1 */
    1, 3,    /* 2 */
    3, 3,    /* 3 */
};

/* The graph above with its own copy of succ to change: every pc 0 (no
 * thread has ended), threads of five instructions. */
struct example {
    int32_t words[NSTATES * WIDTH];
    int offset[NTHREADS], succ[NSTATES * NTHREADS];
    struct st_code code[NTHREADS];
    struct state_graph g;
};

static void example_init(struct example *e)
{
    memset(e, 0, sizeof *e);
    memcpy(e->succ, succ, sizeof succ);
    for (int t = 0; t < NTHREADS; t++) {
        e->offset[t] = t + 1;
        e->code[t].n = 5;
    }
    e->g = (struct state_graph){ .nthreads = NTHREADS, .width = WIDTH, .nstates = NSTATES, .words = e->words,
                                 .succ = e->succ, .offset = e->offset, .code = e->code };
}

static void test_lowest_first_state_wins(void **state)
{
    (void)state;
    struct litmus_error err;
    struct litmus *l = litmus_parse("two.litmus", two_threads, &err);
    assert_non_null(l);
    struct example e;
    example_init(&e);
    struct fair_sccs f;
    fair_sccs(&e.g, &f);
    assert_int_equal(f.nscc, 3);
    assert_int_equal(f.scc_of[3], 0);   /* closed first */
    struct fair_tree *tr = fair_tree_build(l, NULL);
    bool need[NTHREADS];
    int c = fair_find(&f, tr, PROG_FAIR, need);
    assert_int_equal(c, f.scc_of[1]);
    assert_int_equal(f.first[c], 1);
    assert_true(need[0] && need[1]);
    fair_tree_free(tr);
    fair_free(&f);
    litmus_free(l);
}

/* A component of one state is cyclic exactly when a step goes from it to
 * itself: on the graph above, {3} (both threads loop there, so both run
 * inside) and not {0}; the cyclic ones listed by first state, each with
 * the threads that step inside it. */
static void test_one_state_cycles_by_its_own_steps(void **state)
{
    (void)state;
    struct example e;
    example_init(&e);
    struct fair_sccs f;
    fair_sccs(&e.g, &f);
    assert_false(f.cyclic[f.scc_of[0]]);
    assert_true(f.cyclic[f.scc_of[3]]);
    assert_int_equal(f.ncycles, 2);
    assert_int_equal(f.cycles[0], f.scc_of[1]);
    assert_int_equal(f.cycles[1], f.scc_of[3]);
    const bool *runs3 = &f.runs[f.scc_of[3] * NTHREADS], *runs1 = &f.runs[f.scc_of[1] * NTHREADS];
    assert_true(runs3[0] && runs3[1]);
    assert_true(runs1[0] && runs1[1]);    /* P1 from 1 back to 1 */
    e.succ[3 * NTHREADS + 1] = -1;     /* 3: P1 ended, P0 still loops there */
    fair_free(&f);
    fair_sccs(&e.g, &f);
    assert_true(f.cyclic[f.scc_of[3]]);
    assert_true(f.runs[f.scc_of[3] * NTHREADS] && !f.runs[f.scc_of[3] * NTHREADS + 1]);
    e.succ[3 * NTHREADS] = -1;         /* 3: the end, no step */
    fair_free(&f);
    fair_sccs(&e.g, &f);
    assert_false(f.cyclic[f.scc_of[3]]);
    assert_int_equal(f.ncycles, 1);
    fair_free(&f);
}

/* On random graphs, fair_sccs against reachability worked out by brute
 * force: one component exactly for states that reach each other, cyclic
 * exactly with a step inside, runs by the threads that step inside, its
 * first state the lowest, and the cyclic ones listed by first state. */
static void test_components_match_reachability(void **state)
{
    (void)state;
    enum { MAXN = 12, MAXT = 3 };
    uint32_t seed = 12345;
    for (int round = 0; round < 2000; round++) {
        seed = seed * 1103515245u + 12345u;
        int n = 1 + (int)(seed >> 16) % MAXN, nt = 1 + (int)(seed >> 8) % MAXT;
        int succ_r[MAXN * MAXT], offset[MAXT] = { 0 };
        int32_t words[MAXN] = { 0 };
        for (int i = 0; i < n * nt; i++) {
            seed = seed * 1103515245u + 12345u;
            succ_r[i] = (seed >> 16) % 3 == 0 ? -1 : (int)((seed >> 8) % (uint32_t)n);
        }
        bool reach[MAXN][MAXN] = { { false } };
        for (int v = 0; v < n; v++)
            for (int t = 0; t < nt; t++)
                if (succ_r[v * nt + t] >= 0)
                    reach[v][succ_r[v * nt + t]] = true;
        for (int k = 0; k < n; k++)
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++)
                    reach[i][j] |= reach[i][k] && reach[k][j];
        struct st_code code[MAXT] = { { .n = 5 }, { .n = 5 }, { .n = 5 } };
        struct state_graph g = { .nthreads = nt, .width = 1, .nstates = n, .words = words, .succ = succ_r,
                                 .offset = offset, .code = code };
        struct fair_sccs f;
        fair_sccs(&g, &f);
        for (int u = 0; u < n; u++)
            for (int v = 0; v < n; v++)
                assert_int_equal(f.scc_of[u] == f.scc_of[v], u == v || (reach[u][v] && reach[v][u]));
        int ncyclic = 0;
        for (int c = 0; c < f.nscc; c++) {
            bool inside = false, runs[MAXT] = { false };
            int first = -1;
            for (int v = 0; v < n; v++) {
                if (f.scc_of[v] != c)
                    continue;
                if (first < 0)
                    first = v;
                for (int t = 0; t < nt; t++)
                    if (succ_r[v * nt + t] >= 0 && f.scc_of[succ_r[v * nt + t]] == c)
                        inside = runs[t] = true;
            }
            assert_int_equal(f.first[c], first);
            assert_int_equal(f.cyclic[c], inside);
            for (int t = 0; inside && t < nt; t++)
                assert_int_equal(f.runs[c * nt + t], runs[t]);
            ncyclic += inside;
        }
        assert_int_equal(f.ncycles, ncyclic);
        for (int k = 0; k < f.ncycles; k++) {
            assert_true(f.cyclic[f.cycles[k]]);
            if (k > 0)
                assert_true(f.first[f.cycles[k - 1]] < f.first[f.cycles[k]]);
        }
        fair_free(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lowest_first_state_wins),
        cmocka_unit_test(test_one_state_cycles_by_its_own_steps),
        cmocka_unit_test(test_components_match_reachability),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
