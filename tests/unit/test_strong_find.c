/* strong_find on hand-made state graphs where a group owed progress may
 * give minimal progress to either of two subgroups: a state escapes only
 * when every way of sharing progress has a thread whose step escapes.
 *
 * Threads: P0 (workgroup 0, subgroup 0), P1 (workgroup 1), P2 (workgroup 0,
 * subgroup 1), under lobe_strong.  Once P1 has started, workgroup 0 is
 * owed progress and owes neither subgroup anything while neither started:
 * the ways are {P0, P1} and {P1, P2}. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bmc/concrete/fair.h"
#include "bmc/concrete/strong.h"
#include "litmus/ast.h"

static const char *placement =
    "Vulkan ways\n"
    "{ x=0; }\n"
    " P0@sg 0, wg 0, qf 0 | P1@sg 0, wg 1, qf 0 | P2@sg 1, wg 0, qf 0 ;\n"
    " st.atom.dv.sc0 x, 1 | st.atom.dv.sc0 x, 2 | st.atom.dv.sc0 x, 3 ;\n"
    "exists (x == 1)\n";

enum { NTHREADS = 3, WIDTH = 4, MAXSTATES = 5 };

/* A thread's word: its pc (2: ended) twice, plus one once it started. */
enum { IDLE = 0, SPINS = 3, ENDED = 5 };

/* Whether lobe_strong hangs on the graph of n states (words: the location
 * and the three threads' words; succ by thread, -1 none; parent and via:
 * the breadth-first tree); guaranteed gets the trap's way. */
static int hangs(int n, const int32_t *words, const int *succ, const int *parent, const int *via, bool *guaranteed)
{
    struct litmus_error err;
    struct litmus *l = litmus_parse("ways.litmus", placement, &err);
    assert_non_null(l);
    int32_t w[MAXSTATES * WIDTH];
    int s[MAXSTATES * NTHREADS], pa[MAXSTATES], vi[MAXSTATES], offset[NTHREADS] = { 1, 2, 3 };
    memcpy(w, words, (size_t)n * WIDTH * sizeof *w);
    memcpy(s, succ, (size_t)n * NTHREADS * sizeof *s);
    memcpy(pa, parent, (size_t)n * sizeof *pa);
    memcpy(vi, via, (size_t)n * sizeof *vi);
    static const struct instr loads[2] = { { .kind = I_LOAD }, { .kind = I_LOAD } };   /* the lasso's steps
                                                                                       read, none writes */
    struct st_code code[NTHREADS] = { { .n = 2, .in = loads }, { .n = 2, .in = loads }, { .n = 2, .in = loads } };
    struct state_graph g = { .nthreads = NTHREADS, .width = WIDTH, .nstates = n, .words = w, .succ = s,
                             .parent = pa, .via = vi, .offset = offset, .code = code };
    struct fair_tree *tr = fair_tree_build(l, NULL);
    struct lasso la = { 0 };
    int h = strong_find(&g, tr, PROG_LOBE_STRONG, &la, guaranteed);
    if (h == 1)
        lasso_free(&la);
    fair_tree_free(tr);
    litmus_free(l);
    return h;
}

/* From state 1 (P1 spinning) P0's step and P2's step both lead to the end:
 * whichever subgroup gets minimal progress ends the run, so no trap (with
 * P1 alone guaranteed, state 1 would have been one). */
static void test_either_choice_escapes(void **state)
{
    (void)state;
    const int32_t words[] = { 0, IDLE, IDLE, IDLE,  0, IDLE, SPINS, IDLE,  0, ENDED, ENDED, ENDED };
    const int succ[] = { -1, 1, -1,  2, 1, 2,  -1, -1, -1 };
    const int parent[] = { -1, 0, 1 }, via[] = { -1, 1, 0 };
    bool guaranteed[NTHREADS];
    assert_int_equal(hangs(3, words, succ, parent, via, guaranteed), 0);
}

/* P2's step instead leads to state 3, where P2 and P1 spin and P0's step
 * leads to state 4, where all three spin for ever: the way {P1, P2} has no
 * schedule that escapes, so the scheduler may trap the run there, though
 * the way {P0, P1} escapes. */
static void test_one_choice_traps(void **state)
{
    (void)state;
    const int32_t words[] = { 0, IDLE, IDLE, IDLE,  0, IDLE, SPINS, IDLE,  0, ENDED, ENDED, ENDED,
                              0, IDLE, SPINS, SPINS,  0, SPINS, SPINS, SPINS };
    const int succ[] = { -1, 1, -1,  2, 1, 3,  -1, -1, -1,  4, 3, 3,  4, 4, 4 };
    const int parent[] = { -1, 0, 1, 1, 3 }, via[] = { -1, 1, 0, 2, 0 };
    bool guaranteed[NTHREADS];
    assert_int_equal(hangs(5, words, succ, parent, via, guaranteed), 1);
    assert_true(guaranteed[1]);   /* P1 spins in every way */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_either_choice_escapes),
        cmocka_unit_test(test_one_choice_traps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
