/* Static terms over a cnf with a solver as rows of bits (rel_bits.c):
 * random classes (ordered or not), products, identities and a built
 * static relation over events some of which never execute, some of which
 * execute under a variable, and their unions, intersections, differences
 * and inverses, with one and with two words per row.  Every pair, row,
 * column and row size is compared with the terms' definition: a pair of
 * the term has the literal both(i, j), any other LIT_FALSE; rows and
 * columns are sorted and hold exactly those pairs; a row's estimate is its
 * size.  Past REL_DENSE_MAX events the arena walks the terms instead, and
 * the same comparison holds there. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "encoders/cnf.h"
#include "encoders/rel.h"
#include "encoders/rel_impl.h"

enum { MAXN = REL_DENSE_MAX + 4, TERMS = 16 };

/* The next number of a fixed-seed 64-bit LCG (high half). */
static uint32_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 32);
}

/* The reference: per term its pairs as a matrix (row-major, n x n). */
struct terms {
    int n, count;
    const struct rel *rel[TERMS];
    bool *pairs[TERMS];
};

/* Adds term r whose pairs are want (taken). */
static void add_term(struct terms *t, const struct rel *r, bool *want)
{
    t->rel[t->count] = r;
    t->pairs[t->count++] = want;
}

/* A fresh n x n matrix. */
static bool *matrix(int n)
{
    return calloc((size_t)n * (size_t)n, sizeof(bool));
}

/* The leaves and terms of one random arena A over n events with exec. */
static void random_terms(struct rels *A, uint64_t *seed, int n, const bool *runs, struct terms *t)
{
    int *key = calloc((size_t)n, sizeof *key);
    bool *a = calloc((size_t)n, sizeof *a), *b = calloc((size_t)n, sizeof *b);
    for (int i = 0; i < n; i++) {
        key[i] = lcg(seed) % 5 == 0 ? -1 : (int)(lcg(seed) % 6);
        a[i] = lcg(seed) % 3 == 0;
        b[i] = lcg(seed) % 2 == 0;
    }
    a[0] = b[n - 1] = true;
    bool *cl = matrix(n), *po = matrix(n), *ab = matrix(n), *id = matrix(n), *built = matrix(n);
    struct rel_builder bld;
    rel_builder_init(&bld);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            bool both = runs[i] && runs[j], same = key[i] >= 0 && key[i] == key[j];
            cl[i * n + j] = both && same;
            po[i * n + j] = both && same && i < j;
            ab[i * n + j] = both && a[i] && b[j];
            id[i * n + j] = both && i == j && a[i];
            if (both && lcg(seed) % 4 == 0) {
                built[i * n + j] = true;
                rel_add(&bld, i, j, rels_both(A, i, j));
            }
        }
    const struct rel *k = rel_class(A, key, false), *o = rel_class(A, key, true);
    const struct rel *p = rel_product(A, set_of(A, a), set_of(A, b)), *d = rel_id(A, set_of(A, a));
    const struct rel *s = rel_build(A, &bld, true);
    add_term(t, k, cl);
    add_term(t, o, po);
    add_term(t, p, ab);
    add_term(t, d, id);
    add_term(t, s, built);
    /* unions, intersections, differences and inverses of them */
    static const int operands[][2] = { { 0, 2 }, { 1, 4 }, { 2, 3 }, { 4, 0 } };   /* indices of the leaves */
    for (int x = 0; x < 4; x++) {
        const struct rel *l = t->rel[operands[x][0]], *r = t->rel[operands[x][1]];
        const bool *ml = t->pairs[operands[x][0]], *mr = t->pairs[operands[x][1]];
        bool *u = matrix(n), *in = matrix(n), *df = matrix(n), *iv = matrix(n);
        for (int e = 0; e < n * n; e++) {
            u[e] = ml[e] || mr[e];
            in[e] = ml[e] && mr[e];
            df[e] = ml[e] && !mr[e];
        }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                iv[i * n + j] = df[j * n + i];
        const struct rel *dr = rel_diff(A, l, r);
        if (x % 2 == 0) {
            add_term(t, rel_union(A, l, r), u);
            add_term(t, rel_inv(A, dr), iv);
            free(in);
            free(df);
        } else {
            add_term(t, rel_inter(A, l, r), in);
            add_term(t, dr, df);
            free(u);
            free(iv);
        }
    }
    t->n = n;
    free(key);
    free(a);
    free(b);
}

/* Every term of t agrees with its reference, pair by pair, row by row and
 * column by column. */
static void check_terms(struct rels *A, const struct terms *t, const char *what)
{
    int n = t->n;
    for (int k = 0; k < t->count; k++) {
        const struct rel *r = t->rel[k];
        assert_true(r->is_static);
        for (int i = 0; i < n; i++) {
            const int *cols, *rows;
            const lit *lits, *clits;
            int len = rel_row(r, i, &cols, &lits), clen = rel_col(r, i, &rows, &clits), at = 0, cat = 0;
            long size = 0, csize = 0;
            for (int j = 0; j < n; j++) {
                bool want = t->pairs[k][i * n + j], cwant = t->pairs[k][j * n + i];
                size += want;
                csize += cwant;
                if (rel_get(r, i, j) != (want ? rels_both(A, i, j) : LIT_FALSE))
                    fail_msg("%s n=%d term %d: (%d, %d) should be %d", what, n, k, i, j, want);
                if (want && !(at < len && cols[at] == j && lits[at++] == rels_both(A, i, j)))
                    fail_msg("%s n=%d term %d: row %d lacks %d", what, n, k, i, j);
                if (cwant && !(cat < clen && rows[cat] == j && clits[cat++] == rels_both(A, j, i)))
                    fail_msg("%s n=%d term %d: column %d lacks %d", what, n, k, i, j);
            }
            if (at != len || cat != clen)
                fail_msg("%s n=%d term %d: row or column %d has extra pairs", what, n, k, i);
            if (A->static_bits && (rel_est(A, r, i, false) != size || rel_est(A, r, i, true) != csize))
                fail_msg("%s n=%d term %d: estimates of %d are not its sizes", what, n, k, i);
        }
    }
}

static void test_static_terms(void **state)
{
    (void)state;
    static const int sizes[] = { 5, 63, 64, 65, 130, MAXN };
    uint64_t seed = 2026;
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        int n = sizes[z];
        struct cnf *c = cnf_new(true);
        lit exec[MAXN];
        bool runs[MAXN];
        for (int i = 0; i < n; i++) {
            unsigned kind = lcg(&seed) % 6;
            exec[i] = kind == 0 ? LIT_FALSE : kind == 1 ? cnf_var(c) : LIT_TRUE;
            runs[i] = kind != 0;
        }
        struct rels *A = rels_new(c, n, exec);
        assert_true(A->static_bits == (n <= REL_DENSE_MAX));
        struct terms t = { 0 };
        random_terms(A, &seed, n, runs, &t);
        check_terms(A, &t, A->static_bits ? "bits" : "terms");
        for (int k = 0; k < t.count; k++)
            free(t.pairs[k]);
        rels_free(A);
        cnf_free(c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_static_terms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
