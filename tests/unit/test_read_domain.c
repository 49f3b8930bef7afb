/* The bits a read can see (read_domain.c): a location written only with
 * constants, or with registers that hold only constants, keeps its
 * constant bits; one that RMWs add constants to (or subtract them from)
 * is bounded; a location written with a computed or a loaded value is
 * any value (a loaded one could come out of thin air). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "encoders/read_domain.h"
#include "litmus/ast.h"

/* x holds 0 or 2; w and v get r1, which holds its initial 0 or the moved
 * 4 (v through an exchange); y gets P1's read of x, z r0 + 1, and u a
 * compare-and-swap that writes the old value back when unequal. */
static const char *domains_text =
    "PTX domains\n"
    "{ x = 0; y = 0; z = 0; w = 0; v = 0; u = 0; }\n"
    " P0@cta 0,gpu 0                   | P1@cta 0,gpu 0         ;\n"
    " st.relaxed.gpu x, 2              | ld.relaxed.gpu r0, x   ;\n"
    " ld r1, 4                         | st.relaxed.gpu y, r0   ;\n"
    " st.relaxed.gpu w, r1             | add r2, r0, 1          ;\n"
    " atom.relaxed.gpu.exch r3, v, r1  | st.relaxed.gpu z, r2   ;\n"
    " atom.relaxed.gpu.cas r4, u, 0, 1 |                        ;\n"
    "exists (P1:r0 == 0)\n";

/* The index of location name in l. */
static int location(const struct litmus *l, const char *name)
{
    for (int k = 0; k < l->nlocs; k++)
        if (strcmp(l->locs[k].name, name) == 0)
            return k;
    fail_msg("no location %s", name);
    return -1;
}

/* Asserts location name's domain: known with the bits any and all, or not known. */
static void expect_domain(const struct read_domain *d, const struct litmus *l, const char *name, bool known,
                          uint32_t any, uint32_t all)
{
    int k = location(l, name);
    assert_int_equal(d->known[k], known);
    if (known) {
        assert_int_equal(d->any[k], any);
        assert_int_equal(d->all[k], all);
    }
}

/* A test's program, unrolled once, and its read domains. */
struct domains {
    struct litmus *l;
    struct program *p;
    struct read_domain d;
};

/* Parses text (named name), unrolls it once and builds its read domains. */
static void domains_of(struct domains *x, const char *name, const char *text)
{
    struct litmus_error err;
    x->l = litmus_parse(name, text, &err);
    assert_non_null(x->l);
    char msg[256];
    x->p = program_build(x->l, 1, msg, sizeof msg);
    assert_non_null(x->p);
    read_domain_build(x->p, &x->d);
}

/* Frees what domains_of made. */
static void domains_free(struct domains *x)
{
    read_domain_free(&x->d);
    program_free(x->p);
    litmus_free(x->l);
}

static void test_register_stores(void **state)
{
    (void)state;
    struct domains x;
    domains_of(&x, "domains.litmus", domains_text);
    expect_domain(&x.d, x.l, "x", true, 2, 0);
    expect_domain(&x.d, x.l, "y", false, 0, 0);  /* a register loaded from x */
    expect_domain(&x.d, x.l, "w", true, 4, 0);   /* a register moved a constant */
    expect_domain(&x.d, x.l, "v", true, 4, 0);   /* an exchange of that register */
    expect_domain(&x.d, x.l, "z", false, 0, 0);  /* a sum: any value */
    expect_domain(&x.d, x.l, "u", false, 0, 0);  /* an old value written back */
    domains_free(&x);
}

/* c starts at 1 and gets 3 added twice and 2 stored: values 0 to 1 + 6;
 * d gets 0 added (a thin-air cycle of such adds justifies any value), e a
 * register that may hold 0 or 4, f a loaded value besides an add, g an add
 * to a negative initial value (its sum leaves 31 bits). */
static const char *counters_text =
    "PTX counters\n"
    "{ c = 1; d = 0; e = 0; f = 0; g = -1; }\n"
    " P0@cta 0,gpu 0                    | P1@cta 0,gpu 0                    ;\n"
    " atom.relaxed.gpu.add r0, c, 3     | atom.relaxed.gpu.add r0, c, 3     ;\n"
    " st.relaxed.gpu c, 2               | atom.relaxed.gpu.add r1, d, 0     ;\n"
    " ld r1, 4                          | ld.relaxed.gpu r2, c              ;\n"
    " atom.relaxed.gpu.add r2, e, r1    | st.relaxed.gpu f, r2              ;\n"
    " atom.relaxed.gpu.add r3, f, 1     | atom.relaxed.gpu.add r3, g, 1     ;\n"
    "exists (P1:r0 == 0)\n";

static void test_adding_rmws(void **state)
{
    (void)state;
    struct domains x;
    domains_of(&x, "counters.litmus", counters_text);
    expect_domain(&x.d, x.l, "c", true, 15, 0);  /* 1 | 2 plus 3 + 3: up to 9, bits 0 to 3 */
    expect_domain(&x.d, x.l, "d", false, 0, 0);
    expect_domain(&x.d, x.l, "e", false, 0, 0);
    expect_domain(&x.d, x.l, "f", false, 0, 0);
    expect_domain(&x.d, x.l, "g", false, 0, 0);
    domains_free(&x);
}

/* s starts at 5 and loses 2 and 3: values 0 to 5; t starts at 1 and loses
 * 2 (it would wrap); m gets 1 added and 1 taken (a cycle of the two
 * cancels out: any value). */
static const char *subtracts_text =
    "PTX subtracts\n"
    "{ s = 5; t = 1; m = 0; }\n"
    " P0@cta 0,gpu 0                    | P1@cta 0,gpu 0                    ;\n"
    " atom.relaxed.gpu.sub r0, s, 2     | atom.relaxed.gpu.sub r0, s, 3     ;\n"
    " atom.relaxed.gpu.sub r1, t, 2     | atom.relaxed.gpu.add r1, m, 1     ;\n"
    " atom.relaxed.gpu.sub r2, m, 1     |                                   ;\n"
    "exists (P1:r0 == 0)\n";

static void test_subtracting_rmws(void **state)
{
    (void)state;
    struct domains x;
    domains_of(&x, "subtracts.litmus", subtracts_text);
    expect_domain(&x.d, x.l, "s", true, 7, 0);   /* 5 less 2 + 3: 0 to 5, bits 0 to 2 */
    expect_domain(&x.d, x.l, "t", false, 0, 0);
    expect_domain(&x.d, x.l, "m", false, 0, 0);
    domains_free(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_register_stores),
        cmocka_unit_test(test_adding_rmws),
        cmocka_unit_test(test_subtracting_rmws),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
