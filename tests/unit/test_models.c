/* Models: the advertised axiom names are exactly the ones built. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "models/model.h"

/* Builds the model over an empty two-event base and compares axiom names. */
static void check_names(const char *model)
{
    const struct model_desc *md = model_find(model);
    assert_non_null(md);
    struct cnf *c = cnf_new(false);
    struct base b;
    base_init(&b, 2);
    struct model_out out = { 0 };
    md->build(c, &b, &out);
    char built[512] = "";
    for (int i = 0; i < out.naxioms; i++) {
        if (i)
            strcat(built, " ");
        strcat(built, out.axioms[i].name);
        assert_true(model_has_axiom(md, out.axioms[i].name));
        assert_int_equal(out.axioms[i].violated, LIT_FALSE);   /* nothing happens, nothing fails */
    }
    assert_string_equal(built, md->axioms);
    assert_false(model_has_axiom(md, "Causal"));
    model_out_free(&out);
    base_free(&b);
    cnf_free(c);
}

static void test_ptx60_axiom_names(void **state)
{
    (void)state;
    check_names("ptx-v6.0");
}

static void test_ptx75_axiom_names(void **state)
{
    (void)state;
    check_names("ptx-v7.5");
}

static void test_unknown_model(void **state)
{
    (void)state;
    assert_null(model_find("ptx-v9"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ptx60_axiom_names),
        cmocka_unit_test(test_ptx75_axiom_names),
        cmocka_unit_test(test_unknown_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
