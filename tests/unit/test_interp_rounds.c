/* The interpreter's rounds (bmc/concrete/interp.c): a thread whose walk
 * read a value not known yet is walked again once it is known, and only a
 * walk that read known values alone is final.  Here P0 reads y before P1,
 * walked after it, writes it, and passes it on through z to P1's read:
 * the value reaches both registers and z's final value, and no value is
 * left to a (hint-less) value cycle; a choice whose reads form a real
 * cycle, with no hint, is still one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bmc/concrete/interp.h"
#include "litmus/ast.h"
#include "models/model.h"

static const char *chain_text =
    "PTX chain\n"
    "{ y = 0; z = 0; }\n"
    " P0@cta 0,gpu 0       | P1@cta 1,gpu 0       ;\n"
    " ld.relaxed.gpu r0, y | st.relaxed.gpu y, 7  ;\n"
    " st.relaxed.gpu z, r0 | ld.relaxed.gpu r1, z ;\n"
    "exists (P1:r1 == 7)\n";

/* text parsed (into *l) and unrolled once. */
static struct program *built(const char *name, const char *text, struct litmus **l)
{
    struct litmus_error err;
    *l = litmus_parse(name, text, &err);
    assert_non_null(*l);
    char msg[128];
    struct program *p = program_build(*l, 1, msg, sizeof msg);
    assert_non_null(p);
    return p;
}

/* The event of kind kind at location name (thread t; -1: the initial write). */
static int event_at(const struct program *p, enum ev_kind kind, int t, const char *name)
{
    for (int e = 0; e < p->nevents; e++) {
        const struct event *ev = &p->events[e];
        if (ev->kind == kind && ev->thread == t && strcmp(p->lit->locs[ev->loc].name, name) == 0)
            return e;
    }
    fail_msg("no such event");
    return -1;
}

/* Location name's index. */
static int loc_of(const struct program *p, const char *name)
{
    for (int l = 0; l < p->lit->nlocs; l++)
        if (strcmp(p->lit->locs[l].name, name) == 0)
            return l;
    fail_msg("no such location");
    return -1;
}

/* Thread t's register name's final value in x. */
static int32_t final_reg(const struct program *p, const struct concrete *x, int t, const char *name)
{
    const struct thread *th = &p->lit->threads[t];
    for (int r = 0; r < th->nregs; r++)
        if (strcmp(th->reg_names[r], name) == 0)
            return x->final_regs[t][r];
    fail_msg("no such register");
    return -1;
}

/* The choice where each location's write follows its initial write in
 * coherence and gives the final value, P0 reads y from read_y and P1 reads
 * z from P0's write. */
static void choose(const struct program *p, int read_y, struct choice *ch)
{
    int n = p->nevents;
    choice_init(ch, p);
    const char *names[] = { "y", "z" };
    int writer[] = { 1, 0 };   /* y written by P1, z by P0 */
    for (int k = 0; k < 2; k++) {
        int init = event_at(p, EV_INIT, -1, names[k]), w = event_at(p, EV_WRITE, writer[k], names[k]);
        ch->co[init * n + w] = true;
        ch->final_pick[loc_of(p, names[k])] = w;
    }
    ch->rf[event_at(p, EV_READ, 0, "y")] = read_y;
    ch->rf[event_at(p, EV_READ, 1, "z")] = event_at(p, EV_WRITE, 0, "z");
}

static void test_value_passed_on(void **state)
{
    (void)state;
    struct litmus *l;
    struct program *p = built("chain.litmus", chain_text, &l);
    struct skeleton k = model_skeleton_without_facts(model_find("ptx-v7.5"));
    struct choice ch;
    choose(p, event_at(p, EV_WRITE, 1, "y"), &ch);
    struct concrete x;
    interp_run(p, &ch, &k, &x);
    assert_true(x.valid);
    assert_false(x.value_cycle);
    assert_int_equal(final_reg(p, &x, 0, "r0"), 7);   /* read before P1 was walked */
    assert_int_equal(final_reg(p, &x, 1, "r1"), 7);   /* through P0's write of z */
    assert_int_equal(x.final_mem[loc_of(p, "z")], 7);
    assert_true(x.terminated[0] && x.terminated[1]);
    concrete_free(p, &x);
    choice_free(&ch);
    program_free(p);
    litmus_free(l);
}

static const char *cycle_text =
    "PTX cycle\n"
    "{ x = 0; y = 0; }\n"
    " P0@cta 0,gpu 0       | P1@cta 1,gpu 0       ;\n"
    " ld.relaxed.gpu r0, x | ld.relaxed.gpu r1, y ;\n"
    " st.relaxed.gpu y, r0 | st.relaxed.gpu x, r1 ;\n"
    "exists (P0:r0 == 1)\n";

static void test_cycle_stays_one(void **state)
{
    (void)state;
    struct litmus *l;
    struct program *p = built("cycle.litmus", cycle_text, &l);
    struct skeleton k = model_skeleton_without_facts(model_find("ptx-v7.5"));
    struct choice ch;
    int n = p->nevents;
    choice_init(&ch, p);
    const char *names[] = { "x", "y" };
    for (int t = 0; t < 2; t++) {   /* P<t> reads names[t], written by the other thread */
        int init = event_at(p, EV_INIT, -1, names[t]), w = event_at(p, EV_WRITE, 1 - t, names[t]);
        ch.co[init * n + w] = true;
        ch.final_pick[loc_of(p, names[t])] = w;
        ch.rf[event_at(p, EV_READ, t, names[t])] = w;
    }
    struct concrete x;
    interp_run(p, &ch, &k, &x);
    assert_false(x.valid);
    assert_true(x.value_cycle);
    concrete_free(p, &x);
    choice_free(&ch);
    program_free(p);
    litmus_free(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_value_passed_on),
        cmocka_unit_test(test_cycle_stays_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
