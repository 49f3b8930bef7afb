/* The memo of evaluations (eval_memo.c) keeps the last EVAL_MEMO_SIZE:
 * more than that, and the oldest is evaluated afresh while the newest
 * still come from memory; an evaluation from memory is the one a fresh
 * evaluate() gives; a freed memo starts empty; two choices that differ
 * only in an arbitrary value (SPIR-V's OpUndef) are two evaluations; the
 * memo's copy of a choice (choice_copy) is equal to it and apart from it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bmc/concrete/eval_memo.h"
#include "litmus/ast.h"

static const char *mp_text =
    "PTX mp\n"
    "{ x = 0; y = 0; }\n"
    " P0@cta 0,gpu 0       | P1@cta 1,gpu 0       ;\n"
    " st.relaxed.gpu x, 1  | ld.relaxed.gpu r0, y ;\n"
    " st.relaxed.gpu y, 1  | ld.relaxed.gpu r1, x ;\n"
    "exists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

/* Axioms "off" that no model has, one name per key: each a different key
 * for the memo, the same evaluation. */
static const char *const names[EVAL_MEMO_SIZE + 2] = { "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9" };

/* l unrolled once, and an empty choice for it in *ch. */
static struct program *built(struct litmus *l, struct choice *ch)
{
    char msg[128];
    struct program *p = program_build(l, 1, msg, sizeof msg);
    assert_non_null(p);
    choice_init(ch, p);
    return p;
}

static void test_ring(void **state)
{
    (void)state;
    struct litmus_error err;
    struct litmus *l = litmus_parse("mp.litmus", mp_text, &err);
    assert_non_null(l);
    struct choice ch;
    struct program *p = built(l, &ch);
    const struct model_desc *md = model_find("ptx-v7.5");
    struct skeleton k = model_skeleton_without_facts(md);
    struct evaluation fresh;
    evaluate(p, md, &k, NULL, 0, &ch, &fresh);
    struct eval_memo m;
    eval_memo_init(&m, p, md);
    const long size = EVAL_MEMO_SIZE;
    for (long round = 0; round < 2; round++) {   /* the second after a free: empty again */
        long before = round * (size + 3);
        for (int i = 0; i < EVAL_MEMO_SIZE + 2; i++) {
            const struct evaluation *ev = eval_memo_evaluate(&m, &names[i], 1, &ch);
            assert_int_equal(ev->x.valid, fresh.x.valid);
            assert_string_equal(ev->x.why, fresh.x.why);
        }
        assert_int_equal(m.evaluated, before + size + 2);
        for (int i = 2; i < EVAL_MEMO_SIZE + 2; i++)   /* the newest EVAL_MEMO_SIZE: remembered */
            eval_memo_evaluate(&m, &names[i], 1, &ch);
        assert_int_equal(m.reused, (round + 1) * size);
        eval_memo_evaluate(&m, &names[0], 1, &ch);       /* pushed out: afresh */
        assert_int_equal(m.evaluated, before + size + 3);
        eval_memo_free(&m);
    }
    evaluation_free(p, &fresh);
    choice_free(&ch);
    program_free(p);
    litmus_free(l);
}

/* One thread whose register takes an arbitrary value: P0:r0 == 1 holds
 * exactly when the value chosen is 1. */
static const char *any_text =
    "PTX any\n"
    "{ x = 0; }\n"
    " P0@cta 0,gpu 0 ;\n"
    " add r0, r0, 0  ;\n"
    "exists (P0:r0 == 1)\n";

static void test_arbitrary_values(void **state)
{
    (void)state;
    struct litmus_error err;
    struct litmus *l = litmus_parse("any.litmus", any_text, &err);
    assert_non_null(l);
    struct instr *in = &l->threads[0].instrs[0];   /* r0 <- the arbitrary value number 0 */
    in->kind = I_ANY;
    in->op = OP_EXCH;
    in->a = (struct operand){ .is_reg = false, .value = 0 };
    l->nanys = 1;
    struct choice ch;
    struct program *p = built(l, &ch);
    const struct model_desc *md = model_find("ptx-v7.5");
    for (int e = 0; e < p->nevents; e++)   /* x's final value: its initial write's */
        if (p->events[e].thread < 0)
            ch.final_pick[p->events[e].loc] = e;
    struct eval_memo m;
    eval_memo_init(&m, p, md);
    for (int32_t v = 0; v < 2; v++) {
        ch.any_val[0] = v;
        const struct evaluation *ev = eval_memo_evaluate(&m, NULL, 0, &ch);
        assert_true(ev->x.valid);
        assert_int_equal(ev->assertion, v == 1);
    }
    ch.any_val[0] = 0;   /* the first again: from memory */
    assert_false(eval_memo_evaluate(&m, NULL, 0, &ch)->assertion);
    assert_int_equal(m.evaluated, 2);
    assert_int_equal(m.reused, 1);
    eval_memo_free(&m);
    choice_free(&ch);
    program_free(p);
    litmus_free(l);
}

/* Every array of the copy and has_hint equal to the choice's; the copy's
 * arrays its own. */
static void test_choice_copy(void **state)
{
    (void)state;
    struct litmus_error err;
    struct litmus *l = litmus_parse("mp.litmus", mp_text, &err);
    assert_non_null(l);
    struct choice ch, copy;
    struct program *p = built(l, &ch);
    size_t n = (size_t)p->nevents;
    for (size_t e = 0; e < n; e++) {   /* something in every array */
        ch.rf[e] = (int)(n - 1 - e);
        ch.sync[e] = e % 2;
        ch.val_hint[e] = (int32_t)(7 * e + 1);
        ch.co[e * n + (e + 1) % n] = ch.sf[((e + 2) % n) * n + e] = true;
    }
    ch.final_pick[0] = 1;
    ch.stop_at[1] = 2;
    ch.has_hint = true;
    choice_copy(&ch, p, &copy);
    assert_true(copy.has_hint);
    assert_memory_equal(copy.rf, ch.rf, n * sizeof *ch.rf);
    assert_memory_equal(copy.sync, ch.sync, n * sizeof *ch.sync);
    assert_memory_equal(copy.co, ch.co, n * n * sizeof *ch.co);
    assert_memory_equal(copy.sf, ch.sf, n * n * sizeof *ch.sf);
    assert_memory_equal(copy.final_pick, ch.final_pick, (size_t)l->nlocs * sizeof *ch.final_pick);
    assert_memory_equal(copy.stop_at, ch.stop_at, (size_t)p->nthreads * sizeof *ch.stop_at);
    assert_memory_equal(copy.val_hint, ch.val_hint, n * sizeof *ch.val_hint);
    copy.co[1] = !ch.co[1];   /* apart: the choice keeps its own */
    assert_int_not_equal(copy.co[1], ch.co[1]);
    choice_free(&copy);
    choice_free(&ch);
    program_free(p);
    litmus_free(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ring),
        cmocka_unit_test(test_arbitrary_values),
        cmocka_unit_test(test_choice_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
