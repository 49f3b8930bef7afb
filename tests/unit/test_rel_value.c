/* A relation's pairs in the solver's model (rel_value.c) against the
 * literals the lazy rows make: over a cnf with a solver, random built
 * relations whose pairs are fresh variables, events that may not execute
 * (their exec a fresh variable), static sets, a class and a product, and
 * every operation on them (union, intersection, difference, inverse,
 * composition, closure); random units fix some variables, the solver
 * gives a model, then a clause rules that model out and it gives
 * another; a guarded relation (its variables imply both events'
 * execution) meets static ones.  In every model, every pair's bit must
 * be cnf_value of its literal (rel_get): refine_acyclic reads a model's
 * graph from the bits and makes literals only for a cycle's edges, so a
 * bit that differed would forbid a cycle the model does not have, or miss
 * one it has. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "encoders/cnf.h"
#include "encoders/rel.h"

enum { MAXN = 96, TERMS = 18, MODELS = 4 };

/* The next number of a fixed-seed 64-bit LCG (high half). */
static uint32_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 32);
}

/* A random relation of fresh variables over n events (density 1 in sparse). */
static const struct rel *random_built(struct rels *A, struct cnf *c, uint64_t *seed, int n, int sparse)
{
    struct rel_builder bld;
    rel_builder_init(&bld);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (lcg(seed) % (unsigned)sparse == 0)
                rel_add(&bld, i, j, cnf_var(c));
    const struct rel *r = rel_build(A, &bld, false);
    rel_builder_free(&bld);
    return r;
}

/* random_built's relation made guarded: each pair's variable implies
 * both events' execution (clauses), as rf's do. */
static const struct rel *random_guarded(struct rels *A, struct cnf *c, uint64_t *seed, int n, int sparse,
                                        const lit *exec)
{
    struct rel_builder bld;
    rel_builder_init(&bld);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (lcg(seed) % (unsigned)sparse == 0) {
                lit v = cnf_var(c);
                cnf_imply(c, v, exec[i]);
                cnf_imply(c, v, exec[j]);
                rel_add(&bld, i, j, v);
            }
    const struct rel *r = rel_build(A, &bld, false);
    rel_builder_free(&bld);
    rel_mark_guarded(r);
    return r;
}

/* rel_diagonal lists r's pairs (i, i) whose literals are not false, as
 * rel_get gives them, i ascending. */
static void check_diagonal(const struct rel *r, int n)
{
    lit diag[MAXN];
    int k = rel_diagonal(r, diag), at = 0;
    for (int i = 0; i < n; i++) {
        lit l = rel_get(r, i, i);
        if (l == LIT_FALSE)
            continue;
        assert_true(at < k);
        assert_int_equal(diag[at++], l);
    }
    assert_int_equal(at, k);
}

/* Every pair of r: its bit in rel_value is the model's value of its literal. */
static void check_value(struct cnf *c, const struct rel *r, int n)
{
    const unsigned long long *v = rel_value(r);
    assert_non_null(v);
    int w = (n + 63) / 64;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            bool bit = v[(size_t)i * w + (size_t)(j / 64)] >> (j % 64) & 1;
            assert_int_equal(bit, cnf_value(c, rel_get(r, i, j)));
        }
}

static void test_values_match_literals(void **state)
{
    (void)state;
    uint64_t seed = 2026;
    static const int sizes[] = { 7, 33, 64, 65, 90 };
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        int n = sizes[s];
        struct cnf *c = cnf_new(true);
        lit exec[MAXN];
        for (int i = 0; i < n; i++)
            exec[i] = lcg(&seed) % 4 == 0 ? cnf_var(c) : LIT_TRUE;   /* some events may not run */
        struct rels *A = rels_new(c, n, exec);
        const struct rel *a = random_built(A, c, &seed, n, n / 3 + 2);
        const struct rel *b = random_built(A, c, &seed, n, n / 3 + 2);
        const struct rel *sparse = random_built(A, c, &seed, n, 2 * n);
        const struct rel *g = random_guarded(A, c, &seed, n, n / 3 + 2, exec);
        bool in_a[MAXN], in_b[MAXN];
        int key[MAXN];
        for (int i = 0; i < n; i++) {
            in_a[i] = lcg(&seed) % 2 == 0;
            in_b[i] = lcg(&seed) % 3 != 0;
            key[i] = (int)(lcg(&seed) % 4) - 1;   /* -1: in no class */
        }
        const struct rel *prod = rel_product(A, set_of(A, in_a), set_of(A, in_b));
        const struct rel *cls = rel_class(A, key, true);
        const struct rel *terms[TERMS] = {
            a, prod, cls,
            rel_union(A, a, sparse),
            rel_inter(A, rel_union(A, a, b), prod),
            rel_diff(A, a, prod),
            rel_seq(A, a, b),
            rel_inv(A, rel_seq(A, a, b)),
            rel_plus(A, sparse),
            rel_seq(A, rel_inter(A, b, prod), rel_plus(A, sparse)),
            rel_seq(A, cls, a),
            rel_union(A, rel_diff(A, cls, prod), rel_inv(A, b)),
            rel_filter(A, set_of(A, in_a), rel_union(A, b, cls), set_of(A, in_b)),
            rel_plus(A, rel_union(A, sparse, cls)),
            rel_inter(A, g, prod),   /* a guarded relation meets a static one */
            rel_diff(A, rel_seq(A, g, g), cls),
            rel_filter(A, set_of(A, in_b), rel_union(A, g, rel_inv(A, g)), set_of(A, in_a)),
            rel_union(A, g, prod),
        };
        for (int v = 2; v <= cnf_num_vars(c); v++)   /* some variables fixed */
            if (lcg(&seed) % 5 == 0)
                cnf_unit(c, lcg(&seed) % 2 ? v : -v);
        for (int m = 0; m < MODELS && cnf_solve(c, NULL, 0) == 10; m++) {
            for (int t = 0; t < TERMS; t++) {
                check_value(c, terms[t], n);
                check_diagonal(terms[t], n);
            }
            lit block[MAXN + 1];   /* the next model differs in some event's execution or a's pairs */
            int k = 0;
            for (int i = 0; i < n && k < MAXN; i++)
                if (exec[i] != LIT_TRUE)
                    block[k++] = cnf_value(c, exec[i]) ? -exec[i] : exec[i];
            for (int i = 0; i < n && k < MAXN; i++)
                for (int j = 0; j < n && k < MAXN; j++) {
                    lit l = rel_get(a, i, j);
                    if (l != LIT_FALSE)
                        block[k++] = cnf_value(c, l) ? -l : l;
                }
            if (k == 0)
                break;
            cnf_clause(c, block, k);
        }
        rels_free(A);
        cnf_free(c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_match_literals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
