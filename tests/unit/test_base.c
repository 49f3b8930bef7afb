/* Base sets and relations (base.c): each tag set holds the events that
 * base_event_in puts in it and can execute, tag sets with the same events
 * are one set, and sr relates two scoped events when the narrower scope's
 * instance holds both threads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "encoders/base.h"
#include "encoders/cnf.h"
#include "litmus/ast.h"

/* P0 and P1 share a device but not a workgroup nor a queue family: P0's store
 * of a (device scope, sc0) and P1's load of b (workgroup scope, sc1 with
 * semsc0 semantics) and relaxed load of a (device scope, sc0). */
static const char *scopes_text =
    "VULKAN scopes\n"
    "{ a = 0; b = 0; }\n"
    " P0@sg 0,wg 0, qf 0 | P1@sg 0,wg 1, qf 1                ;\n"
    " st.atom.dv.sc0 a, 1 | ld.atom.acq.wg.sc1.semsc0 r0, b ;\n"
    "                     | ld.atom.dv.sc0 r1, a             ;\n"
    "exists (P1:r0 == 0)\n";

struct built {
    struct litmus *l;
    struct program *p;
    struct cnf *c;
    lit *exec;
    struct base b;
};

/* Builds the base of scopes_text at bound 1, event e executable when
 * can_execute(e) (every event when NULL). */
static void build(struct built *x, bool (*can_execute)(const struct program *, int))
{
    struct litmus_error err;
    x->l = litmus_parse("scopes.litmus", scopes_text, &err);
    assert_non_null(x->l);
    char msg[256];
    x->p = program_build(x->l, 1, msg, sizeof msg);
    assert_non_null(x->p);
    x->c = cnf_new(false);
    x->exec = calloc((size_t)x->p->nevents + 1, sizeof *x->exec);
    for (int e = 0; e < x->p->nevents; e++)
        x->exec[e] = !can_execute || can_execute(x->p, e) ? LIT_TRUE : LIT_FALSE;
    base_init(&x->b, x->c, x->p, x->exec);
}

/* Frees what build made. */
static void release(struct built *x)
{
    base_free(&x->b);
    free(x->exec);
    cnf_free(x->c);
    program_free(x->p);
    litmus_free(x->l);
}

/* The event of thread t that accesses location name (the first). */
static int access_of(const struct program *p, int t, const char *name)
{
    for (int e = 0; e < p->nevents; e++) {
        const struct event *ev = &p->events[e];
        if (ev->thread == t && event_is_mem(ev) && ev->loc >= 0 &&
            strcmp(p->lit->locs[ev->loc].name, name) == 0)
            return e;
    }
    fail_msg("no access of %s by thread %d", name, t);
    return -1;
}

/* Every tag set holds exactly its executable events base_event_in puts in it. */
static void expect_tag_sets(const struct built *x)
{
    for (int s = 0; s < S_COUNT; s++) {
        const struct set *set = x->b.sets[s];
        for (int e = 0; e < x->p->nevents; e++) {
            bool in = (s == S_ALL || base_event_in(x->p, e, s)) && x->exec[e] != LIT_FALSE;
            if ((set->m[e] != LIT_FALSE) != in)
                fail_msg("set %s, event %d: %s", base_set_names[s], e, in ? "missing" : "extra");
        }
    }
}

static void test_tag_sets(void **state)
{
    (void)state;
    struct built x;
    build(&x, NULL);
    expect_tag_sets(&x);
    int load_b = access_of(x.p, 1, "b");
    assert_true(base_event_in(x.p, load_b, S_SC1));
    assert_true(base_event_in(x.p, load_b, S_SEMSC0));
    assert_true(base_event_in(x.p, load_b, S_WG));
    assert_false(base_event_in(x.p, load_b, S_SC0));
    assert_false(base_event_in(x.p, load_b, S_SEMSC1));
    assert_false(base_event_in(x.p, load_b, S_DV));
    assert_int_equal(x.b.sets[S_SC1]->size, 1);
    assert_ptr_equal(x.b.sets[S_SC1], x.b.sets[S_SEMSC0]);   /* the same events: one set */
    assert_ptr_equal(x.b.sets[S_GEN], x.b.sets[S_TEX]);       /* PTX's proxies: empty */
    assert_int_equal(x.b.sets[S_GEN]->size, 0);
    release(&x);
}

/* base_event_in answers for every set as base_event_tags does, here for
 * initial writes, plain and atomic accesses and an RMW's two halves. */
static void test_event_in_agrees(void **state)
{
    (void)state;
    static const char *text =
        "VULKAN mixed\n"
        "{ x = 0; y = 0; }\n"
        " P0@sg 0, wg 0, qf 0  | P1@sg 0, wg 1, qf 0            ;\n"
        " st.av.dv.sc0 x, 1    | rmw.atom.dv.sc0 r0, y, 2       ;\n"
        " ld.sc0 r1, y         | ld.atom.acq.dv.sc0.semsc0 r2, x ;\n"
        "exists (P1:r0 == 0)\n";
    struct litmus_error err;
    struct litmus *l = litmus_parse("mixed.litmus", text, &err);
    assert_non_null(l);
    char msg[256];
    struct program *p = program_build(l, 1, msg, sizeof msg);
    assert_non_null(p);
    int atomic = 0;
    for (int e = 0; e < p->nevents; e++)
        for (int s = 0; s < S_COUNT; s++) {
            bool tagged = base_event_tags(p, e) >> s & 1;
            if (base_event_in(p, e, s) != tagged)
                fail_msg("event %d, set %s: base_event_in says %d", e, base_set_names[s], !tagged);
            atomic += s == S_ATOM && tagged;
        }
    assert_int_equal(atomic, 3);   /* the RMW's halves and the atomic load */
    program_free(p);
    litmus_free(l);
}

/* sr: both device-scoped accesses of a (one device) are related, P0's
 * device store and P1's workgroup load (another workgroup) are not, and
 * that load and P1's device load (one workgroup, P1's) are. */
static void test_scope_relation(void **state)
{
    (void)state;
    struct built x;
    build(&x, NULL);
    int store_a = access_of(x.p, 0, "a"), load_b = access_of(x.p, 1, "b"), load_a = access_of(x.p, 1, "a");
    const struct rel *sr = x.b.rels[R_SR];
    assert_int_equal(rel_get(sr, store_a, load_a), LIT_TRUE);
    assert_int_equal(rel_get(sr, load_a, store_a), LIT_TRUE);
    assert_int_equal(rel_get(sr, store_a, load_b), LIT_FALSE);
    assert_int_equal(rel_get(sr, load_b, store_a), LIT_FALSE);
    assert_int_equal(rel_get(sr, load_b, load_a), LIT_TRUE);
    assert_int_equal(rel_get(x.b.rels[R_SWG], load_b, load_a), LIT_TRUE);
    assert_int_equal(rel_get(x.b.rels[R_SWG], store_a, load_a), LIT_FALSE);
    assert_int_equal(rel_get(x.b.rels[R_SCTA], store_a, load_a), LIT_FALSE);   /* Vulkan: scta is swg */
    assert_int_equal(rel_get(x.b.rels[R_LOC], store_a, load_a), LIT_TRUE);
    assert_int_equal(rel_get(x.b.rels[R_VLOC], store_a, load_a), LIT_TRUE);
    assert_int_equal(rel_get(x.b.rels[R_LOC], store_a, load_b), LIT_FALSE);
    release(&x);
}

/* Only P1's workgroup-scoped load of b executes besides initial writes. */
static bool only_load_b(const struct program *p, int e)
{
    const struct event *ev = &p->events[e];
    return ev->kind == EV_INIT || (ev->thread == 1 && ev->kind == EV_READ && strcmp(p->lit->locs[ev->loc].name, "b") == 0);
}

/* With no device-scoped event executable, the tag sets follow, and the
 * load of b is sr-related to itself only. */
static void test_narrow_execution(void **state)
{
    (void)state;
    struct built x;
    build(&x, only_load_b);
    expect_tag_sets(&x);
    int load_b = access_of(x.p, 1, "b");
    assert_int_equal(rel_get(x.b.rels[R_SR], load_b, load_b), LIT_TRUE);
    assert_int_equal(x.b.sets[S_DV]->size, 0);
    assert_ptr_equal(x.b.sets[S_SC1], x.b.sets[S_R]);   /* the one read executable */
    release(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tag_sets),
        cmocka_unit_test(test_event_in_agrees),
        cmocka_unit_test(test_scope_relation),
        cmocka_unit_test(test_narrow_execution),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
