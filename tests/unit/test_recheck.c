/* The concrete re-check of a SAT witness (evaluate_model) accepts the
 * solver's execution and rejects it once corrupted: a read made to read
 * another write, or given a value no write stores, also after the session
 * has re-checked (and remembered) the honest witness; a race is re-checked
 * as cut at the bound, or not, as the goal claims. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "bmc/check/sat_check.h"
#include "encoders/cnf_impl.h"
#include "litmus/ast.h"

/* MP without synchronisation: its outcome (flag seen, data not) is reachable. */
static const char *mp_text =
    "PTX MP\n"
    "{ x = 0; y = 0; }\n"
    " P0@cta 0,gpu 0       | P1@cta 1,gpu 0       ;\n"
    " st.relaxed.gpu x, 1  | ld.relaxed.gpu r0, y ;\n"
    " st.relaxed.gpu y, 1  | ld.relaxed.gpu r1, x ;\n"
    "exists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

struct session {
    struct litmus *l;
    struct program *p;
    struct check_opts o;
    struct sat_check s;
};

/* Sets up and solves MP's SAT check (any consistent execution). */
static void session_solve(struct session *x)
{
    struct litmus_error err;
    x->l = litmus_parse("mp.litmus", mp_text, &err);
    assert_non_null(x->l);
    char msg[256];
    x->p = program_build(x->l, 1, msg, sizeof msg);
    assert_non_null(x->p);
    x->o = (struct check_opts){ .property = P_PROGRAM_SPEC, .bound = 1 };
    x->s = (struct sat_check){ .p = x->p, .md = model_find("ptx-v7.5"), .o = &x->o };
    assert_non_null(x->s.md);
    sat_setup(&x->s);
    assert_int_equal(solve_with(&x->s, LIT_TRUE), 10);
}

static void session_free(struct session *x)
{
    sat_discard(&x->s);
    program_free(x->p);
    litmus_free(x->l);
}

/* Why the re-check rejects the session's model as an execution (NULL: it accepts it). */
static const char *recheck_why(struct session *x)
{
    struct choice ch;
    const struct evaluation *ev;
    const char *why = evaluate_model(&x->s, GOAL_ANY, &ch, &ev);
    choice_free(&ch);
    return why;
}

/* The read of P1's x: the last event that reads. */
static int read_of_x(const struct program *p)
{
    int r = -1;
    for (int e = 0; e < p->nevents; e++)
        if (p->events[e].kind == EV_READ)
            r = e;
    assert_true(r >= 0);
    return r;
}

/* Sets a plain variable's value in the solver's last model, as a corrupted
 * witness would carry it. */
static void force(struct cnf *c, lit l, bool value)
{
    assert_false(cnf_pending(c, l));
    c->eval_val[l > 0 ? l : -l] = l > 0 ? value : !value;
}

static void test_honest_witness_accepted(void **state)
{
    (void)state;
    struct session x;
    session_solve(&x);
    assert_null(recheck_why(&x));
    session_free(&x);
}

/* Makes the read of x read from the write it does not read in the
 * solver's model (both are plain variables), its value the one the model
 * gave it (the read's bits are gates of its rf choices, evaluated here
 * before the choices change, as a witness carries them). */
static void corrupt_rf(struct session *x)
{
    int r = read_of_x(x->p);
    bv_model_value(x->s.c, &x->s.x.sx.val[r]);
    const struct rel *rf = x->s.x.base.rels[R_RF];
    lit chosen = LIT_FALSE, other = LIT_FALSE;
    for (int w = 0; w < x->p->nevents; w++) {
        const int *cols;
        const lit *lits;
        for (int k = 0, len = rel_row(rf, w, &cols, &lits); k < len; k++)
            if (cols[k] == r) {
                if (cnf_value(x->s.c, lits[k]))
                    chosen = lits[k];
                else
                    other = lits[k];
            }
    }
    assert_true(chosen > 0 && other > 0);   /* two sources, both plain variables */
    force(x->s.c, chosen, false);
    force(x->s.c, other, true);
}

static void test_other_rf_source_rejected(void **state)
{
    (void)state;
    struct session x;
    session_solve(&x);
    corrupt_rf(&x);
    assert_non_null(recheck_why(&x));
    session_free(&x);
}

/* The honest witness re-checked twice is evaluated once; corrupted
 * afterwards it is another execution, evaluated afresh and rejected. */
static void test_corrupted_after_remembered_rejected(void **state)
{
    (void)state;
    struct session x;
    session_solve(&x);
    assert_null(recheck_why(&x));
    assert_null(recheck_why(&x));
    assert_int_equal(x.s.memo.evaluated, 1);
    assert_int_equal(x.s.memo.reused, 1);
    corrupt_rf(&x);
    assert_non_null(recheck_why(&x));
    assert_int_equal(x.s.memo.evaluated, 2);
    session_free(&x);
}

static void test_value_no_write_stores_rejected(void **state)
{
    (void)state;
    struct session x;
    session_solve(&x);
    const struct bv *v = &x.s.x.sx.val[read_of_x(x.p)];
    int flipped = 0;
    for (int i = 0; i < BV_WIDTH && flipped == 0; i++)
        if (!lit_is_const(v->b[i])) {
            force(x.s.c, v->b[i], !cnf_value(x.s.c, v->b[i]));
            flipped++;
        }
    assert_int_equal(flipped, 1);
    assert_non_null(recheck_why(&x));
    session_free(&x);
}

/* A store to x in the first of three iterations of P0's loop races with
 * P1's load (private accesses, no locord): at bound 1 every execution is
 * cut, at bound 3 none is. */
static const char *loop_race_text =
    "VULKAN loop-race\n"
    "{ x=0; P0:r0=0; P1:r1=0; }\n"
    " P0@sg 0, wg 0, qf 0  | P1@sg 0, wg 1, qf 0 ;\n"
    " LC00:                | ld.sc0 r1, x        ;\n"
    " bne r0, 0, LC01      |                     ;\n"
    " st.sc0 x, 1          |                     ;\n"
    " LC01:                |                     ;\n"
    " add r0, r0, 1        |                     ;\n"
    " bne r0, 3, LC00      |                     ;\n"
    "exists (P1:r1 == 1)\n";

/* Solves loop_race at bound for a raised racy flag, cut at the bound or
 * not (cut), and returns why the re-check for goal rejects the witness. */
static const char *loop_race_recheck(int bound, bool cut, enum goal goal)
{
    struct litmus_error err;
    struct litmus *l = litmus_parse("loop.litmus", loop_race_text, &err);
    assert_non_null(l);
    char msg[256];
    struct program *p = program_build(l, bound, msg, sizeof msg);
    assert_non_null(p);
    struct check_opts o = { .property = P_CAT_SPEC, .bound = bound };
    struct sat_check s = { .p = p, .md = model_find("vulkan"), .o = &o };
    sat_setup(&s);
    lit raised = model_violated(&s.m, VULKAN_RACY);
    lit bound_hit = some_bound_hit(&s);
    assert_int_equal(solve_with(&s, cnf_and(s.c, raised, cut ? bound_hit : -bound_hit)), 10);
    struct choice ch;
    const struct evaluation *ev;
    const char *why = evaluate_model(&s, goal, &ch, &ev);
    choice_free(&ch);
    sat_discard(&s);
    program_free(p);
    litmus_free(l);
    return why;   /* a string literal of evaluate_model's */
}

/* A race in an execution cut at the bound passes the re-check that asks
 * for one (GOAL_FLAG_CUT) and fails the one that asks for an execution the
 * bound does not cut (GOAL_FLAG); an uncut race the other way round. */
static void test_cut_flag_goal(void **state)
{
    (void)state;
    assert_null(loop_race_recheck(1, true, GOAL_FLAG_CUT));
    assert_string_equal(loop_race_recheck(1, true, GOAL_FLAG), "a thread is cut at the bound");
    assert_null(loop_race_recheck(3, false, GOAL_FLAG));
    assert_string_equal(loop_race_recheck(3, false, GOAL_FLAG_CUT), "no thread is cut at the bound");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_honest_witness_accepted),
        cmocka_unit_test(test_other_rf_source_rejected),
        cmocka_unit_test(test_value_no_write_stores_rejected),
        cmocka_unit_test(test_corrupted_after_remembered_rejected),
        cmocka_unit_test(test_cut_flag_goal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
