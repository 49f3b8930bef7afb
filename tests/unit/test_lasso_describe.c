/* lasso_describe: the threads that run for ever first, then the halted
 * ones, short or in full, with the test's thread ids; and a buffer that
 * holds only part of it gets what fits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bmc/concrete/lasso.h"
#include "litmus/ast.h"

/* Four threads; their ids (0, 1, 2, 12) are what the description names. */
static const char *four_threads =
    "PTX four\n"
    "{ x = 0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P12@cta 3,gpu 0 ;\n"
    " st.relaxed.gpu x, 1 | st.relaxed.gpu x, 2 | st.relaxed.gpu x, 3 | st.relaxed.gpu x, 4 ;\n"
    "exists (x == 1)\n";

static void test_descriptions(void **state)
{
    (void)state;
    struct litmus_error err;
    struct litmus *l = litmus_parse("four.litmus", four_threads, &err);
    assert_non_null(l);
    assert_int_equal(l->threads[3].id, 12);
    enum lasso_how how[4] = { LASSO_HALTED, LASSO_ENDS, LASSO_REPEATS, LASSO_SPINS };
    struct lasso la = { .how = how };
    char buf[256];
    lasso_describe(l, &la, false, buf, sizeof buf);
    assert_string_equal(buf, "P2 repeats, P12 spins, P0 halted");
    lasso_describe(l, &la, true, buf, sizeof buf);
    assert_string_equal(buf, "P2 repeats its loop for ever (livelock); P12 spins for ever; "
                             "the scheduler never runs P0 again");
    char small[110];   /* a thread is described while 64 bytes are left: two are */
    lasso_describe(l, &la, true, small, sizeof small);
    assert_string_equal(small, "P2 repeats its loop for ever (livelock); P12 spins for ever");
    char tiny[8];
    lasso_describe(l, &la, false, tiny, sizeof tiny);
    assert_string_equal(tiny, "");
    litmus_free(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_descriptions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
