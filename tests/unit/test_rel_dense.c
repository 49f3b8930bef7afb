/* The leaves of a constant-only arena as rows of bits (rel_dense.c): a
 * class (ordered or not), a product and an identity, over events some of
 * which are not executed, with one and with two words per row, read
 * through an operation made at once as bits and compared pair by pair
 * with their definition; and a result with no pair, or with an operand's
 * pairs, is that relation, with the pairs it had; a relation built pair
 * by pair as bits (rel_build_dense) has rel_build's pairs, the last
 * literal given for a pair winning, and leaves its builder emptied for
 * the next; closures have the pairs of the paths; the operations cat.h
 * calls on a concrete execution (rel_dense_or ..) have their definitions'
 * pairs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "encoders/cnf.h"
#include "encoders/rel.h"
#include "encoders/rel_impl.h"

enum { MAXN = 100 };

/* The next number of a fixed-seed 64-bit LCG (high half). */
static uint32_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 32);
}

/* One random arena: who executes, a key per event (-1 for some), two sets. */
struct leaves_input {
    int n;
    bool exec[MAXN], a[MAXN], b[MAXN];
    int key[MAXN];
    int extra_i, extra_j;    /* a pair of executed events the test adds */
};

static void random_leaves(uint64_t *seed, int n, int nkeys, struct leaves_input *in)
{
    in->n = n;
    for (int i = 0; i < n; i++) {
        in->exec[i] = lcg(seed) % 5 != 0;
        in->key[i] = lcg(seed) % 7 == 0 ? -1 : (int)(lcg(seed) % (uint32_t)nkeys);
        in->a[i] = lcg(seed) % 3 == 0;
        in->b[i] = lcg(seed) % 2 == 0;
    }
    in->exec[0] = in->exec[n - 1] = in->a[0] = in->b[n - 1] = true;   /* neither set empty */
    in->extra_i = 0;
    in->extra_j = n - 1;
}

/* r (made as bits: r united with the extra pair) holds exactly the pairs
 * want says, and the extra one. */
static void assert_leaf(struct rels *A, const struct leaves_input *in, const struct rel *leaf,
                        bool (*want)(const struct leaves_input *, int, int, bool), bool ordered, const char *what)
{
    struct rel_builder one;
    rel_builder_init(&one);
    rel_add(&one, in->extra_i, in->extra_j, LIT_TRUE);
    const struct rel *r = rel_union(A, leaf, rel_build(A, &one, false));
    for (int i = 0; i < in->n; i++)
        for (int j = 0; j < in->n; j++) {
            bool expect = (in->exec[i] && in->exec[j] && want(in, i, j, ordered)) ||
                          (i == in->extra_i && j == in->extra_j);
            if ((rel_get(r, i, j) == LIT_TRUE) != expect)
                fail_msg("n=%d: %s (%d, %d) should be %d", in->n, what, i, j, expect);
        }
}

static bool in_class(const struct leaves_input *in, int i, int j, bool ordered)
{
    return in->key[i] >= 0 && in->key[i] == in->key[j] && (!ordered || i < j);
}

static bool in_product(const struct leaves_input *in, int i, int j, bool ordered)
{
    (void)ordered;
    return in->a[i] && in->b[j];
}

static bool in_id(const struct leaves_input *in, int i, int j, bool ordered)
{
    (void)ordered;
    return in->a[i] && i == j;
}

/* With one and with two words per row, few and many keys: every leaf's
 * bits are its definition's pairs among the executed events. */
static void test_dense_leaves(void **state)
{
    (void)state;
    const int sizes[] = { 5, 40, 64, 65, 97 }, keys[] = { 1, 3, 12 };
    uint64_t seed = 7;
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            struct leaves_input in;
            random_leaves(&seed, sizes[z], keys[k], &in);
            lit exec[MAXN];
            for (int i = 0; i < in.n; i++)
                exec[i] = lit_of(in.exec[i]);
            struct cnf *c = cnf_new(false);
            struct rels *A = rels_new(c, in.n, exec);
            assert_true(rel_dense(A));
            assert_leaf(A, &in, rel_class(A, in.key, false), in_class, false, "class");
            assert_leaf(A, &in, rel_class(A, in.key, true), in_class, true, "ordered class");
            const struct set *a = set_of(A, in.a), *b = set_of(A, in.b);
            assert_leaf(A, &in, rel_product(A, a, b), in_product, false, "product");
            assert_leaf(A, &in, rel_id(A, a), in_id, false, "id");
            rels_free(A);
            cnf_free(c);
        }
}

/* The pairs (i, j) with i + j + shift = 0 (mod 3) among n events. */
static const struct rel *every_third(struct rels *A, int n, int shift)
{
    struct rel_builder bld;
    rel_builder_init(&bld);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if ((i + j + shift) % 3 == 0)
                rel_add(&bld, i, j, LIT_TRUE);
    return rel_build(A, &bld, false);
}

/* r holds (i, j) exactly when i + j + shift = 0 (mod 3), with shift < 0
 * for no pair at all. */
static void assert_third(const struct rel *r, int n, int shift)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            assert_int_equal(rel_get(r, i, j) == LIT_TRUE, shift >= 0 && (i + j + shift) % 3 == 0);
}

/* R's pairs are i + j = 0, S's i + j = 1 (mod 3), disjoint: R & S is
 * the empty relation, R \ S, R^-1 | R and (R | S) & R are R itself, and
 * what is made from them has the right pairs. */
static void test_results_that_are_operands(void **state)
{
    (void)state;
    enum { N = 70 };
    lit exec[N];
    for (int i = 0; i < N; i++)
        exec[i] = LIT_TRUE;
    struct cnf *c = cnf_new(false);
    struct rels *A = rels_new(c, N, exec);
    const struct rel *r = every_third(A, N, 0), *s = every_third(A, N, 2);
    const struct rel *none = rel_inter(A, r, s);
    assert_ptr_equal(none, rel_empty(A));
    assert_ptr_equal(rel_diff(A, r, s), r);
    assert_ptr_equal(rel_union(A, rel_inv(A, r), r), r);   /* R is symmetric */
    const struct rel *rs = rel_union(A, r, s);
    assert_ptr_equal(rel_inter(A, rs, r), r);
    assert_third(rel_diff(A, rs, r), N, 2);
    assert_third(rel_inter(A, rs, s), N, 2);
    assert_third(rel_union(A, none, r), N, 0);
    assert_third(none, N, -1);
    rels_free(A);
    cnf_free(c);
}

/* Random pairs, some given twice with the second literal false, some
 * false then true, with one and two words per row: rel_build_dense has
 * every pair rel_build has and no other, read as rows and through an
 * operation; a builder with only false literals gives the empty relation. */
static void test_build_dense(void **state)
{
    (void)state;
    const int sizes[] = { 6, 64, 90 };
    uint64_t seed = 11;
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        int n = sizes[z];
        lit exec[MAXN];
        for (int i = 0; i < n; i++)
            exec[i] = LIT_TRUE;
        struct cnf *c = cnf_new(false);
        struct rels *A = rels_new(c, n, exec);
        struct rel_builder sorted, dense;
        rel_builder_init(&sorted);
        rel_builder_init(&dense);
        for (int k = 0; k < 3 * n; k++) {
            int i = (int)(lcg(&seed) % (uint32_t)n), j = (int)(lcg(&seed) % (uint32_t)n);
            lit first = lit_of(lcg(&seed) % 2), last = lit_of(lcg(&seed) % 3 != 0);
            rel_add(&sorted, i, j, first);
            rel_add(&dense, i, j, first);
            if (k % 2) {
                rel_add(&sorted, i, j, last);
                rel_add(&dense, i, j, last);
            }
        }
        const struct rel *want = rel_build(A, &sorted, false), *got = rel_build_dense(A, &dense);
        const struct rel *twice = rel_union(A, got, rel_inv(A, got));
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                assert_int_equal(rel_get(got, i, j), rel_get(want, i, j));
                assert_int_equal(rel_get(twice, i, j) == LIT_TRUE,
                                 rel_get(want, i, j) == LIT_TRUE || rel_get(want, j, i) == LIT_TRUE);
            }
        assert_int_equal(dense.count, 0);   /* emptied, its arrays kept for the next */
        rel_add(&dense, 0, n - 1, LIT_FALSE);
        assert_ptr_equal(rel_build_dense(A, &dense), rel_empty(A));
        rel_add(&dense, n - 1, 0, LIT_TRUE);
        const struct rel *one = rel_build_dense(A, &dense);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                assert_int_equal(rel_get(one, i, j) == LIT_TRUE, i == n - 1 && j == 0);
        rel_builder_free(&dense);
        rels_free(A);
        cnf_free(c);
    }
}

/* Beyond REL_DENSE_MAX events rel_build_dense is rel_build, and it too
 * keeps the builder's arrays, emptied, for the next relation. */
static void test_build_dense_beyond(void **state)
{
    (void)state;
    enum { N = REL_DENSE_MAX + 4 };
    static lit exec[N];
    for (int i = 0; i < N; i++)
        exec[i] = LIT_TRUE;
    struct cnf *c = cnf_new(false);
    struct rels *A = rels_new(c, N, exec);
    assert_false(rel_dense(A));
    struct rel_builder bld;
    rel_builder_init(&bld);
    for (int pass = 0; pass < 2; pass++) {
        rel_add(&bld, pass, N - 1, LIT_TRUE);
        rel_add(&bld, N - 1, pass, LIT_FALSE);
        const struct rel *r = rel_build_dense(A, &bld);
        assert_int_equal(bld.count, 0);
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                assert_int_equal(rel_get(r, i, j) == LIT_TRUE, i == pass && j == N - 1);
    }
    rel_builder_free(&bld);
    rels_free(A);
    cnf_free(c);
}

/* The closure of bool matrix r over n events into t, by the definition:
 * (i, j) when a path of one or more pairs leads from i to j. */
static void closure_by_paths(int n, const bool *r, bool *t)
{
    for (int i = 0; i < n; i++) {
        bool seen[MAXN] = { false };
        int stack[MAXN], top = 0;
        for (int j = 0; j < n; j++)
            if (r[i * n + j] && !seen[j])
                seen[j] = true, stack[top++] = j;
        while (top > 0) {
            int k = stack[--top];
            for (int j = 0; j < n; j++)
                if (r[k * n + j] && !seen[j])
                    seen[j] = true, stack[top++] = j;
        }
        for (int j = 0; j < n; j++)
            t[i * n + j] = seen[j];
    }
}

/* Closures of random relations, sparse and dense, with cycles and
 * without, with one and two words per row: rel_plus has exactly the
 * pairs of the paths. */
static void test_closure(void **state)
{
    (void)state;
    const int sizes[] = { 5, 17, 63, 64, 65, 97 }, density[] = { 2, 10, 40 };
    uint64_t seed = 13;
    static bool r[MAXN * MAXN], t[MAXN * MAXN];
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (size_t d = 0; d < sizeof density / sizeof density[0]; d++)
            for (int acyclic = 0; acyclic < 2; acyclic++) {
                int n = sizes[z];
                lit exec[MAXN];
                struct rel_builder bld;
                rel_builder_init(&bld);
                for (int i = 0; i < n; i++) {
                    exec[i] = LIT_TRUE;
                    for (int j = 0; j < n; j++) {
                        r[i * n + j] = (!acyclic || i < j) && (int)(lcg(&seed) % 1000) < density[d] * 1000 / n;
                        if (r[i * n + j])
                            rel_add(&bld, i, j, LIT_TRUE);
                    }
                }
                closure_by_paths(n, r, t);
                struct cnf *c = cnf_new(false);
                struct rels *A = rels_new(c, n, exec);
                const struct rel *plus = rel_plus(A, rel_build(A, &bld, false));
                for (int i = 0; i < n; i++)
                    for (int j = 0; j < n; j++)
                        if ((rel_get(plus, i, j) == LIT_TRUE) != t[i * n + j])
                            fail_msg("n=%d: closure (%d, %d) should be %d", n, i, j, t[i * n + j]);
                rels_free(A);
                cnf_free(c);
            }
}

/* A random relation over the n events of A: each pair of executed events
 * with density percent chance, into bool matrix r and as bits (rel_build_dense). */
static const struct rel *random_rel(struct rels *A, uint64_t *seed, int n, const lit *exec, int density, bool *r)
{
    struct rel_builder bld;
    rel_builder_init(&bld);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            r[i * n + j] = exec[i] == LIT_TRUE && exec[j] == LIT_TRUE && (int)(lcg(seed) % 100) < density;
            if (r[i * n + j])
                rel_add(&bld, i, j, LIT_TRUE);
        }
    const struct rel *x = rel_build_dense(A, &bld);
    rel_builder_free(&bld);
    return x;
}

/* got has exactly the pairs of want (n x n). */
static void assert_pairs(const struct rel *got, const bool *want, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if ((rel_get(got, i, j) == LIT_TRUE) != want[i * n + j])
                fail_msg("n=%d: %s: (%d, %d) should be %d", n, what, i, j, want[i * n + j]);
}

/* The operations cat.h calls on a concrete execution (rel_dense_or ..
 * rel_dense_restrict), on random relations and sets, with one and with
 * several words per row, on distinct operands, on one operand twice and
 * with the empty relation: each has the pairs of its definition. */
static void test_dense_entry_points(void **state)
{
    (void)state;
    const int sizes[] = { 5, 31, 64, 65, 97 }, density[] = { 3, 30 };
    uint64_t seed = 29;
    static bool x[MAXN * MAXN], y[MAXN * MAXN], want[MAXN * MAXN], none[MAXN * MAXN];
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (size_t d = 0; d < sizeof density / sizeof density[0]; d++) {
            int n = sizes[z];
            lit exec[MAXN];
            bool a[MAXN], b[MAXN];
            for (int i = 0; i < n; i++) {
                exec[i] = lcg(&seed) % 6 ? LIT_TRUE : LIT_FALSE;
                a[i] = lcg(&seed) % 3 == 0;
                b[i] = lcg(&seed) % 2 == 0;
            }
            struct cnf *c = cnf_new(false);
            struct rels *A = rels_new(c, n, exec);
            assert_true(rels_dense(A));
            const struct rel *rx = random_rel(A, &seed, n, exec, density[d], x);
            const struct rel *ry = random_rel(A, &seed, n, exec, density[d], y);
            const struct set *sa = set_of(A, a), *sb = set_of(A, b);
            const struct rel *operands[][2] = { { rx, ry }, { ry, rx }, { rx, rx }, { rx, A->empty }, { A->empty, ry } };
            for (size_t o = 0; o < sizeof operands / sizeof operands[0]; o++) {
                const struct rel *p = operands[o][0], *q = operands[o][1];
                const bool *mp = p == rx ? x : p == ry ? y : none, *mq = q == rx ? x : q == ry ? y : none;
                for (int i = 0; i < n * n; i++)
                    want[i] = mp[i] || mq[i];
                assert_pairs(rel_dense_or(A, p, q), want, n, "or");
                for (int i = 0; i < n * n; i++)
                    want[i] = mp[i] && mq[i];
                assert_pairs(rel_dense_and(A, p, q), want, n, "and");
                for (int i = 0; i < n * n; i++)
                    want[i] = mp[i] && !mq[i];
                assert_pairs(rel_dense_minus(A, p, q), want, n, "minus");
                for (int i = 0; i < n; i++)
                    for (int j = 0; j < n; j++) {
                        want[i * n + j] = false;
                        for (int k = 0; k < n; k++)
                            want[i * n + j] |= mp[i * n + k] && mq[k * n + j];
                    }
                assert_pairs(rel_dense_seq(A, p, q), want, n, "seq");
                for (int i = 0; i < n; i++)
                    for (int j = 0; j < n; j++)
                        want[i * n + j] = mp[j * n + i];
                assert_pairs(rel_dense_inv(A, p), want, n, "inv");
                closure_by_paths(n, mp, want);
                assert_pairs(rel_dense_plus(A, p), want, n, "plus");
                for (int i = 0; i < n; i++)
                    for (int j = 0; j < n; j++)
                        want[i * n + j] = mp[i * n + j] || (i == j && exec[i] == LIT_TRUE);
                assert_pairs(rel_dense_opt(A, p), want, n, "opt");
                for (int i = 0; i < n; i++)
                    for (int j = 0; j < n; j++)
                        want[i * n + j] = mp[i * n + j] && a[i] && b[j];
                assert_pairs(rel_dense_restrict(A, sa, p, sb), want, n, "[a]; r; [b]");
                assert_pairs(rel_dense_seq(A, rel_id(A, sa), rel_dense_seq(A, p, rel_id(A, sb))), want, n,
                             "[a]; (r; [b]) by seq");
                for (int i = 0; i < n; i++)
                    for (int j = 0; j < n; j++)
                        want[i * n + j] = mp[i * n + j] && a[i];
                assert_pairs(rel_dense_restrict(A, sa, p, NULL), want, n, "[a]; r");
                assert_pairs(rel_dense_restrict(A, NULL, p, set_all(A)), mp, n, "r; [every event]");
            }
            rels_free(A);
            cnf_free(c);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dense_leaves),
        cmocka_unit_test(test_results_that_are_operands),
        cmocka_unit_test(test_build_dense),
        cmocka_unit_test(test_build_dense_beyond),
        cmocka_unit_test(test_closure),
        cmocka_unit_test(test_dense_entry_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
