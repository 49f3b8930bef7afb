/* The explorer zeroes the registers dead at a thread's counter, past the
 * first 64 too (liveness keeps a set of registers a word per 64): P0
 * loads x into 70 registers that nothing reads, P1 writes x once, so a
 * state is P0's counter and P1's alone, however the loads interleave with
 * the write; one register P0 stores at the end lives until then. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "bmc/concrete/states.h"
#include "litmus/ast.h"

enum { LOADS = 70 };

/* The test's text: one load a line for P0, P1's store on the first;
 * then, when read_back is a register (not -1), P0 stores it. */
static void loads_text(char *buf, size_t len, int read_back)
{
    size_t used = (size_t)snprintf(buf, len, "PTX dead-registers\n{ x = 0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n");
    for (int r = 0; r < LOADS; r++)
        used += (size_t)snprintf(buf + used, len - used, " ld.relaxed.gpu r%d, x | %s ;\n", r,
                                 r == 0 ? "st.relaxed.gpu x, 1" : "");
    if (read_back >= 0)   /* it lives from its load on */
        used += (size_t)snprintf(buf + used, len - used, " st.relaxed.gpu x, r%d | ;\n", read_back);
    snprintf(buf + used, len - used, "exists (x == 1)\n");
}

/* The number of states the explorer finds for the test's text. */
static int explored(int read_back)
{
    static char text[8192];
    loads_text(text, sizeof text, read_back);
    struct litmus_error err;
    struct litmus *l = litmus_parse("dead.litmus", text, &err);
    assert_non_null(l);
    assert_true(l->threads[0].nregs >= LOADS);
    struct state_graph g;
    assert_true(states_explore(l, 100000, &g));
    int n = g.nstates;
    states_free(&g);
    litmus_free(l);
    return n;
}

static void test_dead_registers_past_64_zeroed(void **state)
{
    (void)state;
    /* P0's counter (LOADS loads and the end) by P1's (before and after
     * the write, which fixes x) */
    assert_int_equal(explored(-1), (LOADS + 1) * 2);
}

static void test_live_register_past_64_kept(void **state)
{
    (void)state;
    /* r66, loaded by P0's 67th step and stored by its last, holds what it
     * read from then on: before the load, a state per counter pair as
     * above (67 * 2); between the load and the store (P0 at 67..70) r66 is
     * 0 when P1 has not written, 0 or 1 when it has (4 * 3); after P0's
     * store x is r66 with P1 done (0 or 1), or 0 and then 1 when P1 writes
     * last (3) */
    assert_int_equal(explored(66), 67 * 2 + 4 * 3 + 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dead_registers_past_64_zeroed),
        cmocka_unit_test(test_live_register_past_64_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
