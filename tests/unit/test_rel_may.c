/* Candidate pairs (rel_may.c) over a cnf with a solver: random built
 * relations whose every pair is a fresh variable (so no gate of their
 * unions, intersections, compositions, inverses and closures folds to
 * false), beside a static product, with one and with two words per row.
 * The pairs each term must have are worked out here on boolean matrices
 * (a composition's by its definition, a closure's by paths); every one
 * must be a candidate, must have a literal other than LIT_FALSE, and must
 * be in its row and its column, which hold nothing else.  A candidate row
 * that left out a pair would drop it from every lazy row. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "encoders/cnf.h"
#include "encoders/rel.h"
#include "encoders/rel_impl.h"

enum { MAXN = 96, TERMS = 12 };

/* The next number of a fixed-seed 64-bit LCG (high half). */
static uint32_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 32);
}

/* A random relation of fresh variables over n events (density 1 in
 * sparse), its pairs in want (n x n). */
static const struct rel *random_built(struct rels *A, struct cnf *c, uint64_t *seed, int n, int sparse,
                                      bool *want)
{
    struct rel_builder bld;
    rel_builder_init(&bld);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if ((want[i * n + j] = lcg(seed) % (unsigned)sparse == 0))
                rel_add(&bld, i, j, cnf_var(c));
    const struct rel *r = rel_build(A, &bld, false);
    rel_builder_free(&bld);
    return r;
}

/* out = x ; y over n events. */
static void compose(bool *out, const bool *x, const bool *y, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            bool some = false;
            for (int k = 0; k < n && !some; k++)
                some = x[i * n + k] && y[k * n + j];
            out[i * n + j] = some;
        }
}

/* out = x+ over n events. */
static void close_paths(bool *out, const bool *x, int n)
{
    for (int e = 0; e < n * n; e++)
        out[e] = x[e];
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            for (int j = 0; i != k && out[i * n + k] && j < n; j++)
                out[i * n + j] |= out[k * n + j];
}

/* Every pair of r is exactly want: candidate, literal, row and column. */
static void check_term(const struct rel *r, const bool *want, int n)
{
    for (int i = 0; i < n; i++) {
        const int *cols, *rows;
        const lit *lits;
        int k = rel_row(r, i, &cols, &lits), kc = rel_col(r, i, &rows, &lits), seen = 0, seen_c = 0;
        for (int j = 0; j < n; j++) {
            bool has = want[i * n + j];
            if (has)
                assert_true(rel_may_has(r, i, j));
            assert_int_equal(rel_get(r, i, j) != LIT_FALSE, has);
            if (has) {
                assert_true(seen < k);
                assert_int_equal(cols[seen++], j);
            }
            if (want[j * n + i]) {
                assert_true(seen_c < kc);
                assert_int_equal(rows[seen_c++], j);
            }
        }
        assert_int_equal(seen, k);
        assert_int_equal(seen_c, kc);
    }
}

static void test_candidates(void **state)
{
    (void)state;
    uint64_t seed = 4711;
    static const int sizes[] = { 7, 40, 64, 65, 90 };
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        int n = sizes[s];
        struct cnf *c = cnf_new(true);
        lit exec[MAXN];
        for (int i = 0; i < n; i++)
            exec[i] = LIT_TRUE;
        struct rels *A = rels_new(c, n, exec);
        bool *m[TERMS];
        for (int t = 0; t < TERMS; t++)
            m[t] = calloc((size_t)n * (size_t)n, sizeof(bool));
        const struct rel *a = random_built(A, c, &seed, n, n / 3 + 2, m[0]);
        const struct rel *b = random_built(A, c, &seed, n, n / 3 + 2, m[1]);
        const struct rel *sparse = random_built(A, c, &seed, n, 2 * n, m[2]);
        bool in_a[MAXN], in_b[MAXN];
        for (int i = 0; i < n; i++) {
            in_a[i] = lcg(&seed) % 2 == 0;
            in_b[i] = lcg(&seed) % 3 != 0;
        }
        const struct rel *prod = rel_product(A, set_of(A, in_a), set_of(A, in_b));
        const struct rel *terms[TERMS] = { a, b, sparse };
        terms[3] = rel_union(A, a, sparse);
        terms[4] = rel_inter(A, rel_union(A, a, b), prod);
        terms[5] = rel_seq(A, a, b);
        terms[6] = rel_inv(A, terms[5]);
        terms[7] = rel_plus(A, sparse);
        terms[8] = rel_seq(A, rel_inter(A, b, prod), rel_plus(A, sparse));
        terms[9] = rel_diff(A, a, prod);   /* a is not guarded: its candidates are all a's */
        for (int e = 0; e < n * n; e++) {
            m[3][e] = m[0][e] || m[2][e];
            m[4][e] = (m[0][e] || m[1][e]) && in_a[e / n] && in_b[e % n];
            m[9][e] = m[0][e] && !(in_a[e / n] && in_b[e % n]);   /* every event runs: both is true */
        }
        compose(m[5], m[0], m[1], n);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                m[6][i * n + j] = m[5][j * n + i];
        close_paths(m[7], m[2], n);
        bool *bp = calloc((size_t)n * (size_t)n, sizeof(bool));
        for (int e = 0; e < n * n; e++)
            bp[e] = m[1][e] && in_a[e / n] && in_b[e % n];
        compose(m[8], bp, m[7], n);
        free(bp);
        for (int t = 0; t < 10; t++)
            check_term(terms[t], m[t], n);
        for (int t = 0; t < TERMS; t++)
            free(m[t]);
        rels_free(A);
        cnf_free(c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_candidates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
