/* The concrete evaluator's NoThinAir sees an RMW's own dependency: the
 * value an atomic add writes depends on the value it read, so a cycle of
 * reads-from and data dependencies through it is thin air, while an
 * exchange writes its operand and the same cycle is no cycle at all.
 *
 * P0 copies y to x, P1 adds 0 to x, P2 copies x to y; in the execution
 * where P0 reads P2's y, P1 reads P0's x and P2 reads P1's x, every value
 * comes from the others (a value cycle, the hint gives it 7). The only
 * edge that closes the cycle rf | dep is P1's read-to-write edge inside
 * the RMW: without it (or with an exchange) the execution is consistent
 * under PTX v7.5. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "bmc/concrete/evaluate.h"
#include "litmus/ast.h"

/* The program with P1's RMW given as rmw (its operand 0 for an add, 7 for
 * an exchange: the value the cycle carries either way). */
static void text_with(char *buf, size_t len, const char *rmw)
{
    snprintf(buf, len,
             "PTX thin-air-rmw\n"
             "{ x = 0; y = 0; }\n"
             " P0@cta 0,gpu 0        | P1@cta 1,gpu 0 | P2@cta 2,gpu 0        ;\n"
             " ld.relaxed.gpu r0, y  | %s | ld.relaxed.gpu r2, x  ;\n"
             " st.relaxed.gpu x, r0  |                | st.relaxed.gpu y, r2  ;\n"
             "exists (P0:r0 == 7 /\\ P1:r1 == 7 /\\ P2:r2 == 7)\n",
             rmw);
}

/* The event of thread t of kind k on location loc (the only one). */
static int event_of(const struct program *p, int t, enum ev_kind k, int loc)
{
    for (int e = 0; e < p->nevents; e++)
        if (p->events[e].thread == t && p->events[e].kind == k && p->events[e].loc == loc)
            return e;
    fail_msg("no event of thread %d, kind %d, location %d", t, (int)k, loc);
    return -1;
}

/* The initial write of location loc. */
static int init_of(const struct program *p, int loc)
{
    for (int e = 0; e < p->nevents; e++)
        if (p->events[e].kind == EV_INIT && p->events[e].loc == loc)
            return e;
    fail_msg("no initial write of location %d", loc);
    return -1;
}

/* Evaluates the cyclic execution of the program with P1's RMW rmw under
 * PTX v7.5; NULL when it is consistent, else the axiom it violates. */
static const char *cycle_violates(const char *rmw)
{
    char text[1024];
    text_with(text, sizeof text, rmw);
    struct litmus_error err;
    struct litmus *l = litmus_parse("thin-air-rmw.litmus", text, &err);
    assert_non_null(l);
    char msg[128];
    struct program *p = program_build(l, 1, msg, sizeof msg);
    assert_non_null(p);
    int x = -1, y = -1;
    for (int i = 0; i < l->nlocs; i++) {
        if (strcmp(l->locs[i].name, "x") == 0)
            x = i;
        if (strcmp(l->locs[i].name, "y") == 0)
            y = i;
    }
    assert_true(x >= 0 && y >= 0);
    int n = p->nevents;
    int r0 = event_of(p, 0, EV_READ, y), w0 = event_of(p, 0, EV_WRITE, x);
    int r1 = event_of(p, 1, EV_READ, x), w1 = event_of(p, 1, EV_WRITE, x);
    int r2 = event_of(p, 2, EV_READ, x), w2 = event_of(p, 2, EV_WRITE, y);
    int ix = init_of(p, x), iy = init_of(p, y);
    struct choice ch;
    choice_init(&ch, p);
    ch.rf[r0] = w2;
    ch.rf[r1] = w0;
    ch.rf[r2] = w1;
    ch.co[ix * n + w0] = ch.co[ix * n + w1] = ch.co[w0 * n + w1] = true;   /* the RMW right after P0's */
    ch.co[iy * n + w2] = true;
    ch.final_pick[x] = w1;
    ch.final_pick[y] = w2;
    ch.has_hint = true;
    for (int e = 0; e < n; e++)
        ch.val_hint[e] = 7;
    const struct model_desc *md = model_find("ptx-v7.5");
    struct skeleton k = model_skeleton_without_facts(md);
    struct evaluation ev;
    evaluate(p, md, &k, NULL, 0, &ch, &ev);
    assert_true(ev.x.valid);
    assert_true(ev.assertion);   /* the outcome: 7 everywhere */
    const char *violated = ev.consistent ? NULL : ev.violated;
    evaluation_free(p, &ev);
    choice_free(&ch);
    program_free(p);
    litmus_free(l);
    return violated;
}

static void test_add_cycle_is_thin_air(void **state)
{
    (void)state;
    const char *violated = cycle_violates("atom.relaxed.gpu.add r1, x, 0");
    assert_non_null(violated);
    assert_string_equal(violated, "NoThinAir");
}

static void test_exchange_cycle_is_consistent(void **state)
{
    (void)state;
    assert_null(cycle_violates("atom.relaxed.gpu.exch r1, x, 7"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_cycle_is_thin_air),
        cmocka_unit_test(test_exchange_cycle_is_consistent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
