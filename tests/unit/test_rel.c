/* Unit tests of the relation algebra over n = 4..6 events: constant relations
 * checked against a plain bool-matrix implementation, and relations of fresh
 * variables (sparse, with some constant entries) checked through the solver
 * against the same reference and the concrete back end. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "encoders/rel.h"

#define MAXN 6
#define NSQ (MAXN * MAXN)
#define TRIALS 40

/* Relation outputs: union, inter, diff, seq, inv, plus, opt, restrict (both,
 * left only, right only), product, id, plus(S), seq(R, R). */
enum { R_UNION, R_INTER, R_DIFF, R_SEQ, R_INV, R_PLUS, R_OPT, R_RESTRICT, R_RESTRICT_A,
       R_RESTRICT_B, R_PRODUCT, R_ID, R_PLUS_S, R_SEQ_RR, NRELS };
/* Literal outputs: nonempty(R), nonempty(S \ S), reflexive_some(R), cyclic(R), cyclic(S). */
enum { L_NONEMPTY, L_NONEMPTY_EMPTY, L_REFLEXIVE, L_CYCLIC_R, L_CYCLIC_S, NLITS };

static const char *const rel_name[NRELS] = { "union", "inter", "diff", "seq", "inv", "plus", "opt",
    "restrict", "restrict_a", "restrict_b", "product", "id", "plus(S)", "seq(R,R)" };
static const char *const lit_name[NLITS] = { "nonempty", "nonempty(S\\S)", "reflexive_some",
    "cyclic(R)", "cyclic(S)" };

/* Concrete inputs: relations r, s and sets a, b over n events. */
struct minput { int n; bool r[NSQ], s[NSQ], a[MAXN], b[MAXN]; };
/* Reference outputs. */
struct mout { bool rel[NRELS][NSQ]; bool lit[NLITS]; };
/* Outputs built by the library. */
struct lout { struct rel rel[NRELS]; lit lit[NLITS]; };

/* The next number of a fixed-seed 64-bit LCG (high half). */
static uint32_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 32);
}

/* A random boolean that is true with probability pct percent. */
static bool coin(uint64_t *s, unsigned pct) { return lcg(s) % 100 < pct; }

/* Random inputs; density varies with the trial, every fourth r is acyclic. */
static void random_input(uint64_t *s, int n, int trial, struct minput *in)
{
    unsigned pct = 10 + 12 * (unsigned)(trial % 5);
    in->n = n;
    for (int i = 0; i < n; i++) {
        in->a[i] = coin(s, 60);
        in->b[i] = coin(s, 60);
        for (int j = 0; j < n; j++) {
            in->r[i * n + j] = coin(s, pct) && (trial % 4 != 0 || i < j);
            in->s[i * n + j] = coin(s, pct);
        }
    }
}

/* Reference r ; s. */
static void ref_seq(int n, const bool *r, const bool *s, bool *t)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            t[i * n + j] = false;
            for (int k = 0; k < n; k++)
                t[i * n + j] |= r[i * n + k] && s[k * n + j];
        }
}

/* Reference r+ as the fixpoint of t = t | t ; r. */
static void ref_plus(int n, const bool *r, bool *t)
{
    bool step[NSQ], changed = true;
    memcpy(t, r, sizeof(bool) * (size_t)(n * n));
    while (changed) {
        changed = false;
        ref_seq(n, t, r, step);
        for (int i = 0; i < n * n; i++)
            if (step[i] && !t[i])
                t[i] = changed = true;
    }
}

/* Reference: some diagonal entry of m. */
static bool ref_diag(int n, const bool *m)
{
    for (int i = 0; i < n; i++)
        if (m[i * n + i])
            return true;
    return false;
}

/* Computes every reference output of in. */
static void ref_all(const struct minput *in, struct mout *o)
{
    int n = in->n;
    bool tmp[NSQ];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int e = i * n + j;
            bool r = in->r[e], s = in->s[e];
            o->rel[R_UNION][e] = r || s;
            o->rel[R_INTER][e] = r && s;
            o->rel[R_DIFF][e] = r && !s;
            o->rel[R_INV][e] = in->r[j * n + i];
            o->rel[R_OPT][e] = r || (i == j && in->a[i]);
            o->rel[R_RESTRICT][e] = r && in->a[i] && in->b[j];
            o->rel[R_RESTRICT_A][e] = r && in->a[i];
            o->rel[R_RESTRICT_B][e] = r && in->b[j];
            o->rel[R_PRODUCT][e] = in->a[i] && in->b[j];
            o->rel[R_ID][e] = i == j && in->a[i];
        }
    ref_seq(n, in->r, in->s, o->rel[R_SEQ]);
    ref_seq(n, in->r, in->r, o->rel[R_SEQ_RR]);
    ref_plus(n, in->r, o->rel[R_PLUS]);
    ref_plus(n, in->s, o->rel[R_PLUS_S]);
    o->lit[L_NONEMPTY] = false;
    for (int e = 0; e < n * n; e++)
        o->lit[L_NONEMPTY] |= in->r[e];
    o->lit[L_NONEMPTY_EMPTY] = false;
    o->lit[L_REFLEXIVE] = ref_diag(n, in->r);
    o->lit[L_CYCLIC_R] = ref_diag(n, o->rel[R_PLUS]);
    ref_plus(n, in->s, tmp);
    o->lit[L_CYCLIC_S] = ref_diag(n, tmp);
}

/* Applies every operation of the library to r, s, a, b in c. */
static void lib_all(struct cnf *c, const struct rel *r, const struct rel *s, const struct set *a,
                    const struct set *b, struct lout *o)
{
    o->rel[R_UNION] = rel_union(c, r, s);
    o->rel[R_INTER] = rel_inter(c, r, s);
    o->rel[R_DIFF] = rel_diff(c, r, s);
    o->rel[R_SEQ] = rel_seq(c, r, s);
    o->rel[R_INV] = rel_inv(r);
    o->rel[R_PLUS] = rel_plus(c, r);
    o->rel[R_OPT] = rel_opt(c, r, a);
    o->rel[R_RESTRICT] = rel_restrict(c, r, a, b);
    o->rel[R_RESTRICT_A] = rel_restrict(c, r, a, NULL);
    o->rel[R_RESTRICT_B] = rel_restrict(c, r, NULL, b);
    o->rel[R_PRODUCT] = rel_product(c, a, b);
    o->rel[R_ID] = rel_id(a);
    o->rel[R_PLUS_S] = rel_plus(c, s);
    o->rel[R_SEQ_RR] = rel_seq(c, r, r);
    struct rel empty = rel_diff(c, s, s);
    o->lit[L_NONEMPTY] = rel_nonempty(c, r);
    o->lit[L_NONEMPTY_EMPTY] = rel_nonempty(c, &empty);
    o->lit[L_REFLEXIVE] = rel_reflexive_some(c, r);
    o->lit[L_CYCLIC_R] = rel_cyclic(c, r);
    o->lit[L_CYCLIC_S] = rel_cyclic(c, s);
    rel_free(&empty);
}

/* Frees the relations of o. */
static void lout_free(struct lout *o)
{
    for (int k = 0; k < NRELS; k++)
        rel_free(&o->rel[k]);
}

/* Checks every output of o (values in c's model) against the reference w. */
static void check_all(const char *mode, struct cnf *c, const struct lout *o, const struct mout *w,
                      int n, int trial)
{
    for (int k = 0; k < NRELS; k++) {
        assert_int_equal(o->rel[k].n, n);
        for (int e = 0; e < n * n; e++)
            if (cnf_value(c, o->rel[k].m[e]) != w->rel[k][e])
                fail_msg("%s n=%d trial %d: %s(%d,%d) is %d", mode, n, trial, rel_name[k],
                         e / n, e % n, !w->rel[k][e]);
    }
    for (int k = 0; k < NLITS; k++)
        if (cnf_value(c, o->lit[k]) != w->lit[k])
            fail_msg("%s n=%d trial %d: %s is %d", mode, n, trial, lit_name[k], !w->lit[k]);
}

/* The constant relation of the bool matrix m. */
static struct rel const_rel(int n, const bool *m)
{
    struct rel r = rel_empty(n);
    for (int e = 0; e < n * n; e++)
        r.m[e] = lit_of(m[e]);
    return r;
}

/* The constant set of the bool vector v. */
static struct set const_set(int n, const bool *v)
{
    struct set s = set_empty(n);
    for (int i = 0; i < n; i++)
        s.m[i] = lit_of(v[i]);
    return s;
}

/* Builds in's operations in a concrete cnf: every output is a constant, right
 * by the reference; may_size counts the true entries. */
static void check_concrete(const struct minput *in, const struct mout *w, int trial)
{
    int n = in->n;
    struct cnf *c = cnf_new(false);
    struct rel r = const_rel(n, in->r), s = const_rel(n, in->s);
    struct set a = const_set(n, in->a), b = const_set(n, in->b);
    struct lout o;
    lib_all(c, &r, &s, &a, &b, &o);
    for (int k = 0; k < NRELS; k++) {
        long trues = 0;
        for (int e = 0; e < n * n; e++) {
            assert_true(lit_is_const(o.rel[k].m[e]));
            trues += w->rel[k][e];
        }
        assert_int_equal(rel_may_size(&o.rel[k]), trues);
    }
    for (int k = 0; k < NLITS; k++)
        assert_true(lit_is_const(o.lit[k]));
    check_all("concrete", c, &o, w, n, trial);
    lout_free(&o);
    rel_free(&r); rel_free(&s); set_free(&a); set_free(&b);
    cnf_free(c);
}

/* Constant relations: every operation agrees with the bool-matrix reference. */
static void test_concrete(void **state)
{
    (void)state;
    uint64_t seed = 7;
    int cyclic = 0;
    for (int n = 4; n <= MAXN; n++)
        for (int t = 0; t < TRIALS; t++) {
            struct minput in;
            struct mout w;
            random_input(&seed, n, t, &in);
            ref_all(&in, &w);
            cyclic += w.lit[L_CYCLIC_R];
            check_concrete(&in, &w, t);
        }
    assert_true(cyclic > 0 && cyclic < 3 * TRIALS);
}

/* A symbolic entry: LIT_FALSE (20%), LIT_TRUE (10%) or a fresh variable. */
static lit sym_entry(struct cnf *c, uint64_t *s)
{
    unsigned k = lcg(s) % 10;
    return k < 2 ? LIT_FALSE : k < 3 ? LIT_TRUE : cnf_var(c);
}

/* Appends to as[] the assumption giving l the value v (constants: v := l's value). */
static void fix(lit l, bool *v, lit *as, int *nas)
{
    if (lit_is_const(l))
        *v = l == LIT_TRUE;
    else
        as[(*nas)++] = *v ? l : -l;
}

/* Symbolic r, s, a, b over n events; in is adjusted to the constant entries. */
static void sym_input(struct cnf *c, uint64_t *s, struct minput *in, struct rel *r,
                      struct rel *sr, struct set *a, struct set *b, lit *as, int *nas)
{
    int n = in->n;
    *r = rel_empty(n); *sr = rel_empty(n); *a = set_empty(n); *b = set_empty(n);
    *nas = 0;
    for (int e = 0; e < n * n; e++) {
        r->m[e] = sym_entry(c, s);
        sr->m[e] = sym_entry(c, s);
        fix(r->m[e], &in->r[e], as, nas);
        fix(sr->m[e], &in->s[e], as, nas);
    }
    for (int i = 0; i < n; i++) {
        a->m[i] = sym_entry(c, s);
        b->m[i] = sym_entry(c, s);
        fix(a->m[i], &in->a[i], as, nas);
        fix(b->m[i], &in->b[i], as, nas);
    }
}

/* Symbolic relations fixed by assumptions: every output's model value agrees
 * with the reference (and so with the concrete back end). */
static void test_symbolic(void **state)
{
    (void)state;
    uint64_t seed = 99;
    for (int n = 4; n <= MAXN; n++)
        for (int t = 0; t < TRIALS; t++) {
            struct minput in;
            struct mout w;
            struct rel r, s;
            struct set a, b;
            struct lout o;
            lit as[2 * NSQ + 2 * MAXN];
            int nas;
            struct cnf *c = cnf_new(true);
            random_input(&seed, n, t, &in);
            sym_input(c, &seed, &in, &r, &s, &a, &b, as, &nas);
            ref_all(&in, &w);
            check_concrete(&in, &w, t);
            lib_all(c, &r, &s, &a, &b, &o);
            assert_int_equal(cnf_solve(c, as, nas), 10);
            check_all("symbolic", c, &o, &w, n, t);
            lout_free(&o);
            rel_free(&r); rel_free(&s); set_free(&a); set_free(&b);
            cnf_free(c);
        }
}

/* Sparsity: the may-set of seq and plus over variable entries is exactly the
 * reference seq / plus of the may-pattern; rel_inv keeps literals as they are. */
static void test_symbolic_sparsity(void **state)
{
    (void)state;
    uint64_t seed = 4242;
    for (int n = 4; n <= MAXN; n++)
        for (int t = 0; t < TRIALS; t++) {
            struct cnf *c = cnf_new(true);
            struct rel r = rel_empty(n);
            bool pat[NSQ], want[NSQ];
            long may = 0;
            for (int e = 0; e < n * n; e++) {
                pat[e] = coin(&seed, 10 + 4 * (unsigned)t % 60);
                r.m[e] = pat[e] ? cnf_var(c) : LIT_FALSE;
                may += pat[e];
            }
            assert_int_equal(rel_may_size(&r), may);
            struct rel inv = rel_inv(&r), sq = rel_seq(c, &r, &r), pl = rel_plus(c, &r);
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++)
                    assert_int_equal(rel_get(&inv, j, i), rel_get(&r, i, j));
            ref_seq(n, pat, pat, want);
            for (int e = 0; e < n * n; e++)
                assert_int_equal(sq.m[e] != LIT_FALSE, want[e]);
            ref_plus(n, pat, want);
            for (int e = 0; e < n * n; e++)
                assert_int_equal(pl.m[e] != LIT_FALSE, want[e]);
            rel_free(&inv); rel_free(&sq); rel_free(&pl); rel_free(&r);
            cnf_free(c);
        }
}

/* Closure and cycle detection built once per relation, then solved under many
 * assumption sets (incrementally) and compared with the reference each time;
 * assuming the other value of an entry (either sign) must be unsatisfiable. */
static void test_closure_cyclic_incremental(void **state)
{
    (void)state;
    uint64_t seed = 2024;
    int cyc[2] = { 0, 0 };
    for (int n = 4; n <= MAXN; n++)
        for (int rep = 0; rep < 4; rep++) {
            struct cnf *c = cnf_new(true);
            struct rel r = rel_empty(n);
            for (int e = 0; e < n * n; e++)
                r.m[e] = coin(&seed, 15) ? LIT_FALSE : cnf_var(c);
            struct rel pl = rel_plus(c, &r);
            lit cy = rel_cyclic(c, &r);
            for (int t = 0; t < 60; t++) {
                struct minput in;
                bool want[NSQ];
                lit as[NSQ + 1];
                int nas = 0;
                random_input(&seed, n, t, &in);
                for (int e = 0; e < n * n; e++)
                    fix(r.m[e], &in.r[e], as, &nas);
                ref_plus(n, in.r, want);
                assert_int_equal(cnf_solve(c, as, nas), 10);
                for (int e = 0; e < n * n; e++)
                    if (cnf_value(c, pl.m[e]) != want[e])
                        fail_msg("plus n=%d (%d,%d) is %d", n, e / n, e % n, !want[e]);
                assert_int_equal(cnf_value(c, cy), ref_diag(n, want));
                cyc[ref_diag(n, want)]++;
                /* the clauses enforce it: the other value of any entry is unsatisfiable */
                for (int e = 0; e < n * n; e++) {
                    if (lit_is_const(pl.m[e]))
                        continue;
                    as[nas] = want[e] ? -pl.m[e] : pl.m[e];
                    if (cnf_solve(c, as, nas + 1) != 20)
                        fail_msg("plus n=%d (%d,%d) can be %d", n, e / n, e % n, !want[e]);
                }
                if (!lit_is_const(cy)) {
                    as[nas] = ref_diag(n, want) ? -cy : cy;
                    assert_int_equal(cnf_solve(c, as, nas + 1), 20);
                }
            }
            rel_free(&pl); rel_free(&r);
            cnf_free(c);
        }
    assert_true(cyc[0] > 0 && cyc[1] > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_concrete),
        cmocka_unit_test(test_symbolic),
        cmocka_unit_test(test_symbolic_sparsity),
        cmocka_unit_test(test_closure_cyclic_incremental),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
