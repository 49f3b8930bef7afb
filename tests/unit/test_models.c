/* Models: the advertised axiom names are exactly the ones built. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
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

/* Every axiom a program-order fact rests on is one of the model's. */
static void check_fact_axioms(const char *model)
{
    const struct model_desc *md = model_find(model);
    assert_non_null(md);
    for (int f = 0; f < PO_NFACTS; f++) {
        char names[256];
        snprintf(names, sizeof names, "%s", md->fact_axioms[f]);
        assert_true(names[0] != '\0');
        for (char *save, *n = strtok_r(names, " ", &save); n; n = strtok_r(NULL, " ", &save))
            assert_true(model_has_axiom(md, n));
    }
}

static void test_fact_axioms(void **state)
{
    (void)state;
    check_fact_axioms("ptx-v6.0");
    check_fact_axioms("ptx-v7.5");
    check_fact_axioms("vulkan");
    check_fact_axioms("vulkan-nochains");
}

/* Switching an axiom off drops exactly the facts that rest on it. */
static void test_skeleton_follows_disabled_axioms(void **state)
{
    (void)state;
    const unsigned all = PO_BIT(PO_NO_FUTURE_READ) | PO_BIT(PO_CO_NOT_BACK) | PO_BIT(PO_CO_ALONG);
    const struct model_desc *v75 = model_find("ptx-v7.5"), *v60 = model_find("ptx-v6.0");
    assert_int_equal(model_skeleton(v75, NULL, 0).on, all);
    const char *causality[] = { "Causality" }, *coherence[] = { "Coherence" };
    assert_int_equal(model_skeleton(v75, causality, 1).on, PO_BIT(PO_CO_NOT_BACK) | PO_BIT(PO_CO_ALONG));
    assert_int_equal(model_skeleton(v75, coherence, 1).on, PO_BIT(PO_NO_FUTURE_READ));
    const char *coherence2[] = { "Coherence2" }, *scpl[] = { "ScPerLocation" };
    assert_int_equal(model_skeleton(v60, coherence2, 1).on, PO_BIT(PO_NO_FUTURE_READ) | PO_BIT(PO_CO_NOT_BACK));
    assert_int_equal(model_skeleton(v60, scpl, 1).on, 0);
    assert_false(model_skeleton(v60, NULL, 0).co_total);
    assert_true(model_skeleton(model_find("vulkan"), NULL, 0).co_total);
}

/* An empty name is no axiom (and does not hang the lookup). */
static void test_empty_axiom_name(void **state)
{
    (void)state;
    assert_false(model_has_axiom(model_find("ptx-v7.5"), ""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ptx60_axiom_names),
        cmocka_unit_test(test_ptx75_axiom_names),
        cmocka_unit_test(test_unknown_model),
        cmocka_unit_test(test_fact_axioms),
        cmocka_unit_test(test_skeleton_follows_disabled_axioms),
        cmocka_unit_test(test_empty_axiom_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
