/* Models: the advertised axiom names are exactly the ones built. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/model.h"
#include "tests/unit/model_fixture.h"

/* Builds the model over a one-thread program of two stores (concrete,
 * nothing executed contradicts anything) and compares axiom names with its
 * table, in order. */
static void check_names(const char *model)
{
    const struct model_desc *md = model_find(model);
    assert_non_null(md);
    bool vulkan = md->dialect == DIALECT_VULKAN;
    const char *text = vulkan ? "VULKAN T\n{\nx=0;\n}\n P0@sg 0, wg 0, qf 0 ;\n st.atom.dv.sc0 x, 1 ;\n"
                                " st.atom.dv.sc0 x, 2 ;\nexists (x == 2)\n"
                              : "PTX T\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n st.relaxed.gpu x, 1 ;\n"
                                " st.relaxed.gpu x, 2 ;\nexists (x == 2)\n";
    struct model_fixture f;
    fixture_build(&f, text, md, LIT_FALSE);
    char built[512] = "", table[512];
    for (int i = 0; i < f.out.naxioms; i++) {
        if (i)
            strcat(built, " ");
        strcat(built, f.out.axioms[i].name);
        assert_true(model_has_axiom(md, f.out.axioms[i].name));
        assert_int_equal(f.out.axioms[i].violated, LIT_FALSE);   /* nothing happens, nothing fails */
    }
    model_axiom_names(md, table, sizeof table);
    assert_string_equal(built, table);
    assert_false(model_has_axiom(md, "Causal"));
    fixture_free(&f);
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

static void test_vulkan_axiom_names(void **state)
{
    (void)state;
    check_names("vulkan");
    check_names("vulkan-nochains");
}

static void test_unknown_model(void **state)
{
    (void)state;
    assert_null(model_find("ptx-v9"));
}

/* Every fact rests on some axiom, and every axiom it rests on is one of
 * the model's table; the thin-air axiom is an acyclic one of the table. */
static void check_fact_axioms(const char *model)
{
    const struct model_desc *md = model_find(model);
    assert_non_null(md);
    int naxioms = 0;
    while (md->axioms[naxioms].name)
        naxioms++;
    for (int f = 0; f < PO_NFACTS; f++) {
        assert_true(md->fact_axioms[f] != 0);
        assert_true((md->fact_axioms[f] >> naxioms) == 0);
    }
    if (md->thin_air >= 0) {
        assert_true(md->thin_air < naxioms);
        assert_int_equal(md->axioms[md->thin_air].kind, AX_ACYCLIC);
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
    const unsigned coherent = PO_BIT(PO_CO_NOT_BACK) | PO_BIT(PO_CO_ALONG) | PO_BIT(PO_RF_COHERENT);
    const unsigned all = PO_BIT(PO_NO_FUTURE_READ) | coherent;
    const struct model_desc *v75 = model_find("ptx-v7.5"), *v60 = model_find("ptx-v6.0");
    assert_int_equal(model_skeleton(v75, NULL, 0).on, all);
    const char *causality[] = { "Causality" }, *coherence[] = { "Coherence" };
    assert_int_equal(model_skeleton(v75, causality, 1).on, PO_BIT(PO_CO_NOT_BACK) | PO_BIT(PO_CO_ALONG));
    assert_int_equal(model_skeleton(v75, coherence, 1).on, PO_BIT(PO_NO_FUTURE_READ));
    const char *coherence2[] = { "Coherence2" }, *scpl[] = { "ScPerLocation" };
    assert_int_equal(model_skeleton(v60, coherence2, 1).on,
                     PO_BIT(PO_NO_FUTURE_READ) | PO_BIT(PO_CO_NOT_BACK) | PO_BIT(PO_RF_COHERENT));
    assert_int_equal(model_skeleton(v60, coherence, 1).on, all & ~PO_BIT(PO_RF_COHERENT));
    assert_int_equal(model_skeleton(v60, scpl, 1).on, 0);
    assert_false(model_skeleton(v60, NULL, 0).co_total);
    assert_true(model_skeleton(model_find("vulkan"), NULL, 0).co_total);
    const char *cycle[] = { "consistency-cycle" };
    assert_int_equal(model_skeleton(model_find("vulkan"), NULL, 0).on, all);
    assert_int_equal(model_skeleton(model_find("vulkan"), cycle, 1).on, 0);
    /* the oracle's skeleton has none, whatever is switched off */
    assert_int_equal(model_skeleton_without_facts(v60).on, 0);
    assert_true(model_skeleton_without_facts(model_find("vulkan")).co_total);
}

/* The PTX models' NoThinAir plays the thin-air axiom (by index), and
 * stops doing so when it is switched off; Vulkan's models have none. */
static void test_thin_air_axiom(void **state)
{
    (void)state;
    const struct model_desc *v60 = model_find("ptx-v6.0"), *v75 = model_find("ptx-v7.5");
    assert_string_equal(v60->axioms[v60->thin_air].name, "NoThinAir");
    assert_string_equal(v75->axioms[v75->thin_air].name, "NoThinAir");
    const char *nta[] = { "NoThinAir" }, *other[] = { "Causality" };
    assert_true(model_forbids_value_cycles(v75, NULL, 0));
    assert_true(model_forbids_value_cycles(v75, other, 1));
    assert_false(model_forbids_value_cycles(v75, nta, 1));
    assert_false(model_forbids_value_cycles(model_find("vulkan"), NULL, 0));
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
        cmocka_unit_test(test_vulkan_axiom_names),
        cmocka_unit_test(test_unknown_model),
        cmocka_unit_test(test_fact_axioms),
        cmocka_unit_test(test_skeleton_follows_disabled_axioms),
        cmocka_unit_test(test_thin_air_axiom),
        cmocka_unit_test(test_empty_axiom_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
