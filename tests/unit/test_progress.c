/* Unit tests of the progress models' order (encoders/progress.c,
 * progress_stronger), which lets a termination check by SAT answer one
 * model from another's answer: where it says that model a guarantees at
 * least what model b does, every combination of the threads' facts
 * (started, halted, terminated, blocked) that a's constraints admit, b's
 * admit too.  Checked by the solver over every combination, three
 * threads in two trees of scopes, without and with per-scope schedulers.
 * Among three siblings the order is exactly that: where it says no, some
 * combination tells the two apart.  (Among two, hsa_obe admits all that
 * lobe does, which the order does not say: that only costs a solve.)
 * And with no thread halting, every model admits the facts.  The
 * encoding admits exactly what Dat3M's literal one does (every group with
 * free progress, schedulable and once literals, each child's progress
 * implying its group's), written here as the reference: in several trees
 * of scopes, under hierarchies that mix the schedulers.  And
 * progress_admits, which evaluates the constraints on given facts without
 * a solver, agrees with the solver on every combination. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>

#include "encoders/cnf.h"
#include "encoders/progress.h"
#include "litmus/ast.h"
#include "program/program.h"

#define NTHREADS 3
#define FACTS 4   /* per thread: started, halted, terminated, blocked */

/* Three threads in three subgroups, two workgroups. */
static const char *const SPREAD =
    "VULKAN spread\n{ x=0; }\n"
    "P0@sg 0,wg 0, qf 0 | P1@sg 1,wg 0, qf 0 | P2@sg 0,wg 1, qf 0 ;\n"
    "st.atom.wg.sc0 x, 1 | st.atom.wg.sc0 x, 2 | st.atom.wg.sc0 x, 3 ;\n"
    "exists (x == 1)\n";
/* Three threads in one subgroup: three siblings. */
static const char *const ONE_SG =
    "VULKAN one-sg\n{ x=0; }\n"
    "P0@sg 0,wg 0, qf 0 | P1@sg 0,wg 0, qf 0 | P2@sg 0,wg 0, qf 0 ;\n"
    "st.atom.wg.sc0 x, 1 | st.atom.wg.sc0 x, 2 | st.atom.wg.sc0 x, 3 ;\n"
    "exists (x == 1)\n";

/* Three threads in three queue families... two: one lone thread's chain
 * of groups beside a family of two workgroups. */
static const char *const FAMILIES =
    "VULKAN families\n{ x=0; }\n"
    "P0@sg 0,wg 0, qf 0 | P1@sg 0,wg 0, qf 1 | P2@sg 0,wg 1, qf 1 ;\n"
    "st.atom.wg.sc0 x, 1 | st.atom.wg.sc0 x, 2 | st.atom.wg.sc0 x, 3 ;\n"
    "exists (x == 1)\n";

/* A group of the reference encoding: its literals and its id. */
struct ref_group {
    int id;
    lit progress, sched, once;
};

static int ref_by_id(const void *a, const void *b)
{
    const struct ref_group *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

/* The reference encoding of group g, the threads[0..k) grouped at depth
 * level (4: the threads themselves) under model m's scheduler at scope
 * (-1: the root): Dat3M's, literal for literal. */
static void ref_encode(struct cnf *c, const struct program *p, enum progress_model m,
                       const struct progress_hierarchy *h, const struct thread_status *ts, const int *threads,
                       int k, int level, int scope, const struct ref_group *g)
{
    struct ref_group ch[NTHREADS];
    int members[NTHREADS][NTHREADS], nmembers[NTHREADS] = { 0 }, n = 0;
    for (int i = 0; i < k; i++) {
        const struct thread *th = &p->lit->threads[threads[i]];
        int id = level == 4 ? th->id : level == 0 ? 0 : th->scope_id[3 - level];
        int j = 0;
        while (j < n && ch[j].id != id)
            j++;
        if (j == n)
            ch[n++] = (struct ref_group){ .id = id };
        members[j][nmembers[j]++] = threads[i];
    }
    for (int j = 0; j < n; j++) {
        ch[j].progress = cnf_var(c);
        if (level == 4) {
            const struct thread_status *s = &ts[members[j][0]];
            ch[j].sched = cnf_and(c, -s->terminated, -s->blocked);
            ch[j].once = s->started;
            cnf_clause2(c, -ch[j].progress, -s->halted);
        } else {
            ch[j].sched = cnf_var(c);
            ch[j].once = cnf_var(c);
            ref_encode(c, p, m, h, ts, members[j], nmembers[j], level + 1, progress_scope_at(p->lit->dialect, level),
                       &ch[j]);
        }
    }
    qsort(ch, (size_t)n, sizeof *ch, ref_by_id);
    lit some_child = LIT_FALSE;
    for (int j = 0; j < n; j++) {
        cnf_imply(c, ch[j].progress, g->progress);
        cnf_imply(c, ch[j].sched, g->sched);
        cnf_imply(c, ch[j].once, g->once);
        some_child = cnf_or(c, some_child, cnf_and(c, ch[j].progress, ch[j].sched));
    }
    cnf_clause3(c, -g->progress, -g->sched, some_child);
    enum progress_model sm = progress_at(h, m, scope);
    for (int i = 0; i < n; i++) {
        lit owed = sm == PROG_FAIR ? LIT_TRUE : LIT_FALSE, lower = LIT_FALSE;
        for (int j = 0; j < i; j++)
            lower = cnf_or(c, lower, ch[j].sched);
        if (sm == PROG_HSA || sm == PROG_HSA_OBE)
            owed = cnf_or(c, owed, -lower);
        if (sm == PROG_OBE || sm == PROG_HSA_OBE)
            owed = cnf_or(c, owed, ch[i].once);
        for (int j = i; sm == PROG_LOBE && j < n; j++)
            owed = cnf_or(c, owed, ch[j].once);
        cnf_clause3(c, -g->progress, -owed, ch[i].progress);
    }
}

/* progress_encode, or the reference with reference */
static void encode(struct cnf *c, const struct program *p, enum progress_model m, const struct progress_hierarchy *h,
                   const struct thread_status *ts, lit act, bool reference)
{
    if (!reference) {
        progress_encode(c, p, m, h, ts, act);
        return;
    }
    int all[NTHREADS];
    for (int t = 0; t < NTHREADS; t++)
        all[t] = t;
    struct ref_group root = { .progress = act, .sched = cnf_var(c), .once = cnf_var(c) };
    ref_encode(c, p, m, h, ts, all, NTHREADS, 0, -1, &root);
}

/* fair[m][k]: model m's constraints admit the facts numbered k (bit
 * FACTS * t + f of k: fact f of thread t), under hierarchy h; m the six
 * weak models, then the five strong ones, the first nmodels of them; by
 * the reference encoding with reference. */
static void admitted(const char *text, const struct progress_hierarchy *h,
                     bool fair[PROGRESS_MODELS][1 << (FACTS * NTHREADS)], int nmodels, bool reference)
{
    struct litmus_error err;
    struct litmus *l = litmus_parse("t.litmus", text, &err);
    assert_non_null(l);
    char msg[256];
    struct program *p = program_build(l, 1, msg, sizeof msg);
    assert_non_null(p);
    assert_int_equal(p->nthreads, NTHREADS);
    struct cnf *c = cnf_new(true);
    struct thread_status ts[NTHREADS];
    lit facts[FACTS * NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        for (int f = 0; f < FACTS; f++)
            facts[FACTS * t + f] = cnf_var(c);
        ts[t] = (struct thread_status){ facts[FACTS * t], facts[FACTS * t + 1], facts[FACTS * t + 2],
                                        facts[FACTS * t + 3] };
    }
    lit act[PROGRESS_MODELS];
    for (int m = 0; m < nmodels; m++) {
        act[m] = cnf_var(c);
        encode(c, p, (enum progress_model)m, h, ts, act[m], reference);
    }
    for (int k = 0; k < 1 << (FACTS * NTHREADS); k++) {
        lit as[FACTS * NTHREADS + 1];
        for (int i = 0; i < FACTS * NTHREADS; i++)
            as[i] = k >> i & 1 ? facts[i] : -facts[i];
        struct thread_facts f[NTHREADS];
        for (int t = 0; t < NTHREADS; t++)
            f[t] = (struct thread_facts){ k >> (FACTS * t) & 1, k >> (FACTS * t + 1) & 1,
                                          k >> (FACTS * t + 2) & 1, k >> (FACTS * t + 3) & 1 };
        for (int m = 0; m < nmodels; m++) {
            as[FACTS * NTHREADS] = act[m];
            fair[m][k] = cnf_solve(c, as, FACTS * NTHREADS + 1) == 10;
            if (!reference)   /* the evaluation without a solver agrees */
                assert_int_equal(progress_admits(p, (enum progress_model)m, h, f), fair[m][k]);
        }
    }
    cnf_free(c);
    program_free(p);
    litmus_free(l);
}

/* Where progress_stronger(h, a, b), b admits all that a admits; with exact,
 * also the converse: where it does not, some facts a admits and b not. */
static void check_order(const char *text, const struct progress_hierarchy *h, bool exact)
{
    static bool fair[PROGRESS_MODELS][1 << (FACTS * NTHREADS)];
    admitted(text, h, fair, PROGRESS_MODELS, false);
    for (int a = 0; a < PROGRESS_MODELS; a++)
        for (int b = 0; b < PROGRESS_MODELS; b++) {
            bool within = true;
            for (int k = 0; k < 1 << (FACTS * NTHREADS); k++)
                within &= !fair[a][k] || fair[b][k];
            bool stronger = progress_stronger(h, (enum progress_model)a, (enum progress_model)b);
            if (stronger)
                assert_true(within);
            if (exact)
                assert_int_equal(stronger, within);
        }
}

/* Fair at every scope admits exactly the facts in which no thread halts,
 * and every model admits those (termination_progress encodes nothing when
 * no thread can halt). */
static void test_no_halting(void **state)
{
    (void)state;
    static bool fair[PROGRESS_MODELS][1 << (FACTS * NTHREADS)];
    admitted(SPREAD, NULL, fair, PROGRESS_MODELS, false);
    for (int k = 0; k < 1 << (FACTS * NTHREADS); k++) {
        bool halts = false;
        for (int t = 0; t < NTHREADS; t++)
            halts |= k >> (FACTS * t + 1) & 1;
        assert_int_equal(fair[PROG_FAIR][k], !halts);
        assert_int_equal(fair[PROG_FAIR_STRONG][k], !halts);
        for (int m = 0; m < PROGRESS_MODELS && !halts; m++)
            assert_true(fair[m][k]);
    }
}

static void test_order_spread(void **state)
{
    (void)state;
    check_order(SPREAD, NULL, false);
}

static void test_order_one_subgroup(void **state)
{
    (void)state;
    check_order(ONE_SG, NULL, true);
}

/* Per-scope schedulers: an override is the same for both models. */
static void test_order_scoped(void **state)
{
    (void)state;
    struct progress_hierarchy h = { { 0 } };
    h.at[PSCOPE_QF] = PROG_HSA + 1;
    h.at[PSCOPE_SG] = PROG_OBE + 1;
    check_order(SPREAD, &h, false);
    struct progress_hierarchy u = { { 0 } };
    u.at[PSCOPE_WG] = PROG_UNFAIR + 1;
    check_order(SPREAD, &u, false);
    check_order(ONE_SG, &u, false);
}

/* The encoding and the reference admit the same facts under every weak
 * model (a strong one is its scheduler's). */
static void check_reference(const char *text, const struct progress_hierarchy *h)
{
    static bool fair[PROGRESS_MODELS][1 << (FACTS * NTHREADS)], ref[PROGRESS_MODELS][1 << (FACTS * NTHREADS)];
    admitted(text, h, fair, PROGRESS_WEAK_MODELS, false);
    admitted(text, h, ref, PROGRESS_WEAK_MODELS, true);
    for (int m = 0; m < PROGRESS_WEAK_MODELS; m++)
        for (int k = 0; k < 1 << (FACTS * NTHREADS); k++)
            assert_int_equal(fair[m][k], ref[m][k]);
}

/* Chains of groups with one child give way to it only where that admits
 * the same: every pair of schedulers above and below such a link (in
 * FAMILIES, a queue family over a workgroup has the inner scheduler
 * above the outer, a workgroup over a subgroup the outer above the
 * inner), and the model's own everywhere. */
static void test_reference(void **state)
{
    (void)state;
    const char *const trees[] = { SPREAD, ONE_SG, FAMILIES };
    for (int t = 0; t < 3; t++)
        check_reference(trees[t], NULL);
    for (int outer = 0; outer < PROGRESS_WEAK_MODELS; outer++)
        for (int inner = outer; inner < PROGRESS_WEAK_MODELS; inner++) {
            struct progress_hierarchy h = { { 0 } };
            h.at[PSCOPE_DV] = (signed char)(outer + 1);
            h.at[PSCOPE_QF] = (signed char)(inner + 1);
            h.at[PSCOPE_WG] = (signed char)(outer + 1);
            h.at[PSCOPE_SG] = (signed char)(inner + 1);
            check_reference(FAMILIES, &h);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_halting),
        cmocka_unit_test(test_order_spread),
        cmocka_unit_test(test_order_one_subgroup),
        cmocka_unit_test(test_order_scoped),
        cmocka_unit_test(test_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
