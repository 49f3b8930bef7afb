/* The concrete re-check of a SAT witness (evaluate_model) accepts the
 * solver's execution and rejects it once corrupted: a read made to read
 * another write, or given a value no write stores, also after the session
 * has re-checked (and remembered) the honest witness. */
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
 * solver's model (both are plain variables). */
static void corrupt_rf(struct session *x)
{
    int r = read_of_x(x->p);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_honest_witness_accepted),
        cmocka_unit_test(test_other_rf_source_rejected),
        cmocka_unit_test(test_value_no_write_stores_rejected),
        cmocka_unit_test(test_corrupted_after_remembered_rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
