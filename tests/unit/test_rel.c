/* Unit tests of the relation layer over n = 4..6 events: every operation,
 * on static and dynamic operands, checked against a plain bool-matrix
 * implementation, with constant inputs (the concrete back end) and with
 * inputs of fresh variables fixed by assumptions (the solver's model);
 * row enumeration against single pairs; may-sets of compositions and
 * closures; closures and strict orders big enough to be refined lazily;
 * the arena's blocks of their own; constant relations made at once as
 * bits and lazily, either side of REL_DENSE_MAX events; a row estimated
 * at 0 is empty; a built relation's rows from pairs given unordered and
 * repeated. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "encoders/rel.h"
#include "encoders/rel_impl.h"

#define MAXN 6
#define NSQ (MAXN * MAXN)
#define TRIALS 40

/* Relation outputs. */
enum { O_UNION, O_INTER, O_DIFF, O_SEQ, O_INV, O_PLUS, O_OPT, O_FILTER, O_FILTER_A, O_FILTER_B,
       O_PRODUCT, O_ID, O_PLUS_S, O_SEQ_RR, O_AND_CLASS, O_MINUS_CLASS, O_STATIC_OR, O_STATIC_MINUS,
       O_INV_SEQ, O_IMM, O_CLASS_SEQ, O_SEQ_PRODUCT, NOUT };
/* Literal outputs. */
enum { L_NONEMPTY, L_NONEMPTY_EMPTY, L_REFLEXIVE, L_CYCLIC_R, L_CYCLIC_S, L_REFLEXIVE_SEQ, NLITS };

static const char *const out_name[NOUT] = { "union", "inter", "diff", "seq", "inv", "plus", "opt",
    "filter", "filter_a", "filter_b", "product", "id", "plus(S)", "seq(R,R)", "R & K", "R \\ K",
    "K | A*B", "A*B \\ K", "(R;S)^-1", "imm(R)", "K;R", "R;A*B" };
static const char *const lit_name[NLITS] = { "nonempty", "nonempty(S\\S)", "reflexive_some",
    "cyclic(R)", "cyclic(S)", "reflexive(R;S)" };

/* Inputs: executed events, relations r, s (pairs of executed events only),
 * static sets a, b (members among the executed events) and a class key. */
struct minput { int n; bool e[MAXN], r[NSQ], s[NSQ], a[MAXN], b[MAXN]; int key[MAXN]; };
/* Reference outputs. */
struct mout { bool rel[NOUT][NSQ]; bool lit[NLITS]; };
/* Outputs built by the library. */
struct lout { const struct rel *rel[NOUT]; lit lit[NLITS]; };

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
        in->e[i] = coin(s, 85);
        in->a[i] = coin(s, 60);
        in->b[i] = coin(s, 60);
        in->key[i] = coin(s, 20) ? -1 : (int)(lcg(s) % 3);
        for (int j = 0; j < n; j++) {
            in->r[i * n + j] = coin(s, pct) && (trial % 4 != 0 || i < j);
            in->s[i * n + j] = coin(s, pct);
        }
    }
}

/* The effective inputs: only executed events are in sets and pairs. */
static void effective(struct minput *in)
{
    int n = in->n;
    for (int i = 0; i < n; i++) {
        in->a[i] &= in->e[i];
        in->b[i] &= in->e[i];
        for (int j = 0; j < n; j++) {
            in->r[i * n + j] &= in->e[i] && in->e[j];
            in->s[i * n + j] &= in->e[i] && in->e[j];
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

/* Computes every reference output of (effective) in. */
static void ref_all(const struct minput *in, struct mout *o)
{
    int n = in->n;
    bool tmp[NSQ] = { false }, plus[NSQ], seq[NSQ];
    ref_plus(n, in->r, plus);
    ref_seq(n, in->r, plus, seq);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int e = i * n + j;
            bool r = in->r[e], s = in->s[e], both = in->e[i] && in->e[j];
            bool k = both && in->key[i] >= 0 && in->key[i] == in->key[j], ab = in->a[i] && in->b[j];
            o->rel[O_UNION][e] = r || s;
            o->rel[O_INTER][e] = r && s;
            o->rel[O_DIFF][e] = r && !s;
            o->rel[O_INV][e] = in->r[j * n + i];
            o->rel[O_OPT][e] = r || (i == j && in->e[i]);
            o->rel[O_FILTER][e] = r && in->a[i] && in->b[j];
            o->rel[O_FILTER_A][e] = r && in->a[i];
            o->rel[O_FILTER_B][e] = r && in->b[j];
            o->rel[O_PRODUCT][e] = ab;
            o->rel[O_ID][e] = i == j && in->a[i];
            o->rel[O_AND_CLASS][e] = r && k;
            o->rel[O_MINUS_CLASS][e] = r && !k;
            o->rel[O_STATIC_OR][e] = k || ab;
            o->rel[O_STATIC_MINUS][e] = ab && !k;
            o->rel[O_PLUS][e] = plus[e];
            o->rel[O_IMM][e] = r && !seq[e];
        }
    ref_seq(n, in->r, in->s, o->rel[O_SEQ]);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            o->rel[O_INV_SEQ][i * n + j] = o->rel[O_SEQ][j * n + i];
    ref_seq(n, in->r, in->r, o->rel[O_SEQ_RR]);
    ref_plus(n, in->s, o->rel[O_PLUS_S]);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            tmp[i * n + j] = in->e[i] && in->e[j] && in->key[i] >= 0 && in->key[i] == in->key[j];
    ref_seq(n, tmp, in->r, o->rel[O_CLASS_SEQ]);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            tmp[i * n + j] = in->a[i] && in->b[j];
    ref_seq(n, in->r, tmp, o->rel[O_SEQ_PRODUCT]);
    o->lit[L_NONEMPTY] = false;
    for (int e = 0; e < n * n; e++)
        o->lit[L_NONEMPTY] |= in->r[e];
    o->lit[L_NONEMPTY_EMPTY] = false;
    o->lit[L_REFLEXIVE] = ref_diag(n, in->r);
    o->lit[L_CYCLIC_R] = ref_diag(n, plus);
    ref_plus(n, in->s, tmp);
    o->lit[L_CYCLIC_S] = ref_diag(n, tmp);
    o->lit[L_REFLEXIVE_SEQ] = ref_diag(n, o->rel[O_SEQ]);
}

/* Applies every operation of the library to r, s, a, b and the class key in A. */
static void lib_all(struct rels *A, const struct rel *r, const struct rel *s, const struct set *a,
                    const struct set *b, const int *key, struct lout *o)
{
    const struct rel *k = rel_class(A, key, false), *ab = rel_product(A, a, b);
    o->rel[O_UNION] = rel_union(A, r, s);
    o->rel[O_INTER] = rel_inter(A, r, s);
    o->rel[O_DIFF] = rel_diff(A, r, s);
    o->rel[O_SEQ] = rel_seq(A, r, s);
    o->rel[O_INV] = rel_inv(A, r);
    o->rel[O_PLUS] = rel_plus(A, r);
    o->rel[O_OPT] = rel_opt(A, r);
    o->rel[O_FILTER] = rel_filter(A, a, r, b);
    o->rel[O_FILTER_A] = rel_filter(A, a, r, NULL);
    o->rel[O_FILTER_B] = rel_filter(A, NULL, r, b);
    o->rel[O_PRODUCT] = ab;
    o->rel[O_ID] = rel_id(A, a);
    o->rel[O_PLUS_S] = rel_plus(A, s);
    o->rel[O_SEQ_RR] = rel_seq(A, r, r);
    o->rel[O_AND_CLASS] = rel_inter(A, r, k);
    o->rel[O_MINUS_CLASS] = rel_diff(A, r, k);
    o->rel[O_STATIC_OR] = rel_union(A, k, ab);
    o->rel[O_STATIC_MINUS] = rel_diff(A, ab, k);
    o->rel[O_INV_SEQ] = rel_inv(A, rel_seq(A, r, s));
    o->rel[O_IMM] = rel_imm(A, r);
    o->rel[O_CLASS_SEQ] = rel_seq(A, k, r);
    o->rel[O_SEQ_PRODUCT] = rel_seq(A, r, ab);
    o->lit[L_NONEMPTY] = rel_nonempty(A, r);
    o->lit[L_NONEMPTY_EMPTY] = rel_nonempty(A, rel_diff(A, s, s));
    o->lit[L_REFLEXIVE] = rel_reflexive_some(A, r);
    o->lit[L_CYCLIC_R] = rel_cyclic(A, r);
    o->lit[L_CYCLIC_S] = rel_cyclic(A, s);
    o->lit[L_REFLEXIVE_SEQ] = rel_reflexive_some(A, rel_seq(A, r, s));
}

/* Checks every output of o (values in c's model) against the reference w,
 * pair by pair and row by row. */
static void check_all(const char *mode, struct cnf *c, const struct lout *o, const struct mout *w,
                      int n, int trial)
{
    for (int k = 0; k < NOUT; k++) {
        assert_int_equal(o->rel[k]->n, n);
        for (int i = 0; i < n; i++) {
            const int *cols;
            const lit *lits;
            int len = rel_row(o->rel[k], i, &cols, &lits), at = 0;
            for (int j = 0; j < n; j++) {
                lit l = rel_get(o->rel[k], i, j);
                if (cnf_value(c, l) != w->rel[k][i * n + j])
                    fail_msg("%s n=%d trial %d: %s(%d,%d) is %d", mode, n, trial, out_name[k], i, j,
                             !w->rel[k][i * n + j]);
                if (at < len && cols[at] == j) {
                    assert_int_equal(cnf_value(c, lits[at]), cnf_value(c, l));
                    at++;
                } else if (cnf_value(c, l)) {
                    fail_msg("%s n=%d trial %d: row %d of %s lacks %d", mode, n, trial, i, out_name[k], j);
                }
            }
            assert_int_equal(at, len);
        }
        const lit *all;   /* rel_lits: every row's literals, one row after the other */
        int total = rel_lits(o->rel[k], &all), e = 0;
        for (int i = 0; i < n; i++) {
            const int *cols;
            const lit *lits;
            for (int x = 0, len = rel_row(o->rel[k], i, &cols, &lits); x < len; x++, e++)
                if (e >= total || all[e] != lits[x])
                    fail_msg("%s n=%d trial %d: rel_lits of %s differs at %d", mode, n, trial, out_name[k], e);
        }
        assert_int_equal(e, total);
    }
    for (int k = 0; k < NLITS; k++)
        if (cnf_value(c, o->lit[k]) != w->lit[k])
            fail_msg("%s n=%d trial %d: %s is %d", mode, n, trial, lit_name[k], !w->lit[k]);
}

/* The relation of the bool matrix m (entries l(i, j) where m holds). */
static const struct rel *matrix_rel(struct rels *A, int n, const bool *m, const lit *l)
{
    struct rel_builder bld;
    rel_builder_init(&bld);
    for (int e = 0; e < n * n; e++)
        if (m[e])
            rel_add(&bld, e / n, e % n, l ? l[e] : LIT_TRUE);
    return rel_build(A, &bld, false);
}

/* Builds in's operations over constants: every output is constant and right
 * by the reference; may_size counts the true entries. */
static void check_concrete(const struct minput *in, const struct mout *w, int trial)
{
    int n = in->n;
    struct cnf *c = cnf_new(false);
    lit exec[MAXN];
    for (int i = 0; i < n; i++)
        exec[i] = lit_of(in->e[i]);
    struct rels *A = rels_new(c, n, exec);
    struct lout o;
    lib_all(A, matrix_rel(A, n, in->r, NULL), matrix_rel(A, n, in->s, NULL), set_of(A, in->a),
            set_of(A, in->b), in->key, &o);
    for (int k = 0; k < NOUT; k++) {
        long trues = 0;
        for (int e = 0; e < n * n; e++) {
            assert_true(lit_is_const(rel_get(o.rel[k], e / n, e % n)));
            trues += w->rel[k][e];
        }
        assert_int_equal(rel_may_size(o.rel[k]), trues);
    }
    for (int k = 0; k < NLITS; k++)
        assert_true(lit_is_const(o.lit[k]));
    check_all("concrete", c, &o, w, n, trial);
    rels_free(A);
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
            effective(&in);
            ref_all(&in, &w);
            cyclic += w.lit[L_CYCLIC_R];
            check_concrete(&in, &w, t);
        }
    assert_true(cyclic > 0 && cyclic < 3 * TRIALS);
}

/* The reference composition and closure of n x n bool matrices. */
static void big_seq(int n, const bool *r, const bool *s, bool *out)
{
    memset(out, 0, (size_t)n * n);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++)
            if (r[i * n + k])
                for (int j = 0; j < n; j++)
                    out[i * n + j] |= s[k * n + j];
}

static void big_plus(int n, const bool *r, bool *out)
{
    memcpy(out, r, (size_t)n * n);
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            if (out[i * n + k])
                for (int j = 0; j < n; j++)
                    out[i * n + j] |= out[k * n + j];
}

/* Relation q holds exactly the pairs of bool matrix m over n events. */
static void assert_pairs(const struct rel *q, int n, const bool *m, const char *what)
{
    for (int i = 0; i < n; i++) {
        const int *cols;
        const lit *lits;
        int len = rel_row(q, i, &cols, &lits), at = 0;
        for (int j = 0; j < n; j++) {
            bool in = at < len && cols[at] == j;
            if (in != m[i * n + j] || (in && lits[at] != LIT_TRUE))
                fail_msg("n=%d: %s (%d, %d) is %d", n, what, i, j, !m[i * n + j]);
            at += in;
        }
    }
}

/* Over constants, the operations made at once as bits (up to
 * REL_DENSE_MAX events: one word a row up to 64, several beyond) and the
 * lazy terms beyond agree with the reference on random sparse relations
 * (denser over fewer events), some events not executed. */
static void test_concrete_dense_and_lazy(void **state)
{
    (void)state;
    const int sizes[4] = { 13, 64, REL_DENSE_MAX - 6, REL_DENSE_MAX + 6 };
    uint64_t seed = 11;
    for (int z = 0; z < 4; z++) {
        int n = sizes[z];
        uint32_t sparse_r = n <= 64 ? 9 : 97, sparse_s = n <= 64 ? 7 : 89;   /* one pair in so many, about */
        bool *r = calloc((size_t)n * n, 1), *sm = calloc((size_t)n * n, 1), *w = calloc((size_t)n * n, 1);
        bool *t = calloc((size_t)n * n, 1), *e = calloc((size_t)n, 1);
        lit *exec = calloc((size_t)n, sizeof *exec);
        for (int i = 0; i < n; i++) {
            e[i] = lcg(&seed) % 8 != 0;
            exec[i] = lit_of(e[i]);
        }
        for (int k = 0; k < n * n; k++) {
            r[k] = e[k / n] && e[k % n] && lcg(&seed) % sparse_r == 0;
            sm[k] = e[k / n] && e[k % n] && lcg(&seed) % sparse_s == 0;
        }
        struct cnf *c = cnf_new(false);
        struct rels *A = rels_new(c, n, exec);
        assert_int_equal(rel_dense(A), n <= REL_DENSE_MAX);
        const struct rel *R = matrix_rel(A, n, r, NULL), *S = matrix_rel(A, n, sm, NULL);
        for (int k = 0; k < n * n; k++)
            w[k] = r[k] || sm[k];
        assert_pairs(rel_union(A, R, S), n, w, "union");
        for (int k = 0; k < n * n; k++)
            w[k] = r[k] && !sm[k];
        assert_pairs(rel_diff(A, R, S), n, w, "diff");
        for (int k = 0; k < n * n; k++)
            w[k] = r[(k % n) * n + k / n];
        assert_pairs(rel_inv(A, R), n, w, "inv");
        big_seq(n, r, sm, w);
        assert_pairs(rel_seq(A, R, S), n, w, "seq");
        big_plus(n, r, t);
        assert_pairs(rel_plus(A, R), n, t, "plus");
        for (int k = 0; k < n * n; k++)
            w[k] = t[k] && sm[k];
        assert_pairs(rel_inter(A, rel_plus(A, R), S), n, w, "inter");
        bool *even = calloc((size_t)n, 1);
        for (int i = 0; i < n; i += 2)
            even[i] = true;
        for (int k = 0; k < n * n; k++)   /* [even]; R; [executed]: through a product */
            w[k] = r[k] && k / n % 2 == 0;
        assert_pairs(rel_filter(A, set_of(A, even), R, set_all(A)), n, w, "filter");
        for (int k = 0; k < n * n; k++)   /* [executed]; R; [even] */
            w[k] = r[k] && k % n % 2 == 0;
        assert_pairs(rel_filter(A, set_all(A), R, set_of(A, even)), n, w, "column filter");
        free(even);
        rels_free(A);
        cnf_free(c);
        free(r);
        free(sm);
        free(w);
        free(t);
        free(e);
        free(exec);
    }
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

/* Symbolic execution literals and pairs (each anded with its events'
 * execution, as every relation's pairs are); in is adjusted to the
 * constant entries and made effective. */
static void sym_input(struct cnf *c, uint64_t *s, struct minput *in, lit *exec, lit *rl, lit *sl,
                      lit *as, int *nas)
{
    int n = in->n;
    *nas = 0;
    for (int i = 0; i < n; i++) {
        exec[i] = sym_entry(c, s);
        fix(exec[i], &in->e[i], as, nas);
    }
    for (int e = 0; e < n * n; e++) {
        lit r = sym_entry(c, s), t = sym_entry(c, s);
        fix(r, &in->r[e], as, nas);
        fix(t, &in->s[e], as, nas);
        lit both = cnf_and(c, exec[e / n], exec[e % n]);
        rl[e] = cnf_and(c, r, both);
        sl[e] = cnf_and(c, t, both);
    }
    effective(in);
}

/* Symbolic relations fixed by assumptions: every output's model value agrees
 * with the reference (and so with the concrete back end); with guarded, r
 * and s are marked guarded (their pairs imply both events' execution), so
 * filters, static intersections and differences keep their literals and
 * compositions with a static side AND the outer execution in once: a
 * simplification that dropped an execution literal it needs (K;R or R;A*B
 * with an unexecuted outer event) would disagree with the reference. */
/* One trial over symbolic relations: its input, the assumptions that fix
 * them, and every library output built over them. */
struct sym_trial {
    struct minput in;
    struct lout o;
    lit as[3 * NSQ + MAXN];
    int nas;
    struct cnf *c;
    struct rels *A;
};

/* Builds trial t over n events from *seed, with r and s guarded if asked. */
static void sym_trial_begin(struct sym_trial *tr, uint64_t *seed, int n, int t, bool guarded)
{
    lit exec[MAXN], rl[NSQ], sl[NSQ];
    bool all[NSQ];
    tr->c = cnf_new(true);
    random_input(seed, n, t, &tr->in);
    for (int e = 0; e < n * n; e++)
        all[e] = true;
    sym_input(tr->c, seed, &tr->in, exec, rl, sl, tr->as, &tr->nas);
    tr->A = rels_new(tr->c, n, exec);
    const struct rel *r = matrix_rel(tr->A, n, all, rl), *s = matrix_rel(tr->A, n, all, sl);
    if (guarded) {
        rel_mark_guarded(r);
        rel_mark_guarded(s);
    }
    lib_all(tr->A, r, s, set_of(tr->A, tr->in.a), set_of(tr->A, tr->in.b), tr->in.key, &tr->o);
}

/* Frees what sym_trial_begin made. */
static void sym_trial_end(struct sym_trial *tr)
{
    rels_free(tr->A);
    cnf_free(tr->c);
}

static void symbolic_trials(bool guarded)
{
    uint64_t seed = 99;
    for (int n = 4; n <= MAXN; n++)
        for (int t = 0; t < TRIALS; t++) {
            struct sym_trial tr;
            struct mout w;
            sym_trial_begin(&tr, &seed, n, t, guarded);
            ref_all(&tr.in, &w);
            check_concrete(&tr.in, &w, t);
            assert_int_equal(cnf_solve(tr.c, tr.as, tr.nas), 10);
            check_all(guarded ? "guarded" : "symbolic", tr.c, &tr.o, &w, n, t);
            sym_trial_end(&tr);
        }
}

static void test_symbolic(void **state)
{
    (void)state;
    symbolic_trials(false);
}

static void test_symbolic_guarded(void **state)
{
    (void)state;
    symbolic_trials(true);
}

/* A row (column) that rel_est puts at 0 has no pair: an intersection or a
 * composition with it is empty without a look at the other operand.  The
 * estimates are made before any row is, as the operations make them. */
static void test_zero_estimates(void **state)
{
    (void)state;
    uint64_t seed = 31;
    int zeros = 0;
    for (int n = 4; n <= MAXN; n++)
        for (int t = 0; t < TRIALS; t++) {
            struct sym_trial tr;
            sym_trial_begin(&tr, &seed, n, t, t % 2);
            const struct lout o = tr.o;
            long est[NOUT][2][MAXN];
            for (int k = 0; k < NOUT; k++)
                for (int flip = 0; flip < 2; flip++)
                    for (int i = 0; i < n; i++)
                        est[k][flip][i] = rel_est(tr.A, o.rel[k], i, flip);
            for (int k = 0; k < NOUT; k++)
                for (int flip = 0; flip < 2; flip++)
                    for (int i = 0; i < n; i++) {
                        const int *cols;
                        const lit *lits;
                        int len = flip ? rel_col(o.rel[k], i, &cols, &lits) : rel_row(o.rel[k], i, &cols, &lits);
                        if (est[k][flip][i] == 0 && len > 0)
                            fail_msg("n=%d trial %d: %s %s %d estimated 0 has %d pairs", n, t, out_name[k],
                                     flip ? "column" : "row", i, len);
                        zeros += est[k][flip][i] == 0;
                    }
            sym_trial_end(&tr);
        }
    assert_true(zeros > 0);
}

/* rel_lits asked first (no row made yet, as an axiom's guard asks it):
 * none only where the relation has no pair in the solver's model, and
 * else the literals its rows give; some outputs have no candidate at all
 * (the shortcut's case) and some have pairs. */
static void test_lits_first(void **state)
{
    (void)state;
    uint64_t seed = 57;
    int none = 0, some = 0;
    for (int n = 4; n <= MAXN; n++)
        for (int t = 0; t < TRIALS; t++) {
            struct sym_trial tr;
            struct mout w;
            sym_trial_begin(&tr, &seed, n, t, t % 2);
            ref_all(&tr.in, &w);
            int total[NOUT];
            for (int k = 0; k < NOUT; k++) {
                const lit *all;
                total[k] = rel_lits(tr.o.rel[k], &all);
            }
            assert_int_equal(cnf_solve(tr.c, tr.as, tr.nas), 10);
            for (int k = 0; k < NOUT; k++) {
                long pairs = 0, listed = 0;
                for (int e = 0; e < n * n; e++)
                    pairs += w.rel[k][e];
                for (int i = 0; i < n; i++) {
                    const int *cols;
                    const lit *lits;
                    listed += rel_row(tr.o.rel[k], i, &cols, &lits);
                }
                if (total[k] == 0 && pairs > 0)
                    fail_msg("n=%d trial %d: rel_lits of %s is none, with %ld pairs", n, t, out_name[k], pairs);
                assert_int_equal(total[k], listed);
                none += total[k] == 0;
                some += pairs > 0;
            }
            sym_trial_end(&tr);
        }
    assert_true(none > 0 && some > 0);
}

/* A guarded relation filtered by static sets keeps its pairs' literals,
 * and less a static relation its literals outside it (false inside), with
 * no new variable; not guarded, each pair inside the static relation is a
 * new AND gate with both(i, j) (or its negation). */
static void test_guarded_filter(void **state)
{
    (void)state;
    for (int guarded = 0; guarded < 2; guarded++) {
        struct cnf *c = cnf_new(true);
        lit exec[4], l[16];
        bool every[16], first[4] = { true, true, false, false };
        for (int i = 0; i < 4; i++)
            exec[i] = cnf_var(c);
        for (int e = 0; e < 16; e++) {
            every[e] = true;
            l[e] = cnf_and(c, cnf_var(c), cnf_and(c, exec[e / 4], exec[e % 4]));
        }
        struct rels *A = rels_new(c, 4, exec);
        const struct rel *r = matrix_rel(A, 4, every, l);
        if (guarded)
            rel_mark_guarded(r);
        const struct set *a = set_of(A, first);
        const struct rel *f = rel_filter(A, a, r, NULL), *d = rel_diff(A, r, rel_product(A, a, set_all(A)));
        int vars = cnf_num_vars(c);
        for (int e = 0; e < 16; e++) {
            lit want = first[e / 4] ? l[e] : LIT_FALSE;
            assert_true((rel_get(f, e / 4, e % 4) == want) == (guarded || !first[e / 4]));
            lit rest = first[e / 4] ? LIT_FALSE : l[e];
            assert_true((rel_get(d, e / 4, e % 4) == rest) == (guarded || !first[e / 4]));
        }
        assert_true((cnf_num_vars(c) == vars) == (guarded != 0));
        rels_free(A);
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
            lit exec[MAXN], l[NSQ];
            bool pat[NSQ], want[NSQ];
            long may = 0;
            for (int i = 0; i < n; i++)
                exec[i] = LIT_TRUE;
            for (int e = 0; e < n * n; e++) {
                pat[e] = coin(&seed, 10 + 4 * (unsigned)t % 60);
                l[e] = cnf_var(c);
                may += pat[e];
            }
            struct rels *A = rels_new(c, n, exec);
            const struct rel *r = matrix_rel(A, n, pat, l);
            assert_int_equal(rel_may_size(r), may);
            const struct rel *inv = rel_inv(A, r), *sq = rel_seq(A, r, r), *pl = rel_plus(A, r);
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++)
                    assert_int_equal(rel_get(inv, j, i), rel_get(r, i, j));
            ref_seq(n, pat, pat, want);
            for (int e = 0; e < n * n; e++)
                assert_int_equal(rel_get(sq, e / n, e % n) != LIT_FALSE, want[e]);
            ref_plus(n, pat, want);
            for (int e = 0; e < n * n; e++)
                assert_int_equal(rel_get(pl, e / n, e % n) != LIT_FALSE, want[e]);
            assert_true(rel_seq(A, r, r) == sq && rel_plus(A, r) == pl);   /* consed */
            rels_free(A);
            cnf_free(c);
        }
}

/* A closure and its cycle literal built once over a relation of fresh
 * variables (density pct) on n nodes, then solved under many assumption
 * sets (incrementally) and compared with the reference each time; assuming
 * the other value of a sampled entry must be unsatisfiable (only false
 * for a reachable entry unless both_ways: the exact other half costs a
 * cube of gates). */
static void closure_rounds(int n, unsigned pct, int rounds, bool both_ways, uint64_t *seed, int *cyc)
{
    struct cnf *c = cnf_new(true);
    lit *exec = calloc((size_t)n, sizeof *exec), *l = calloc((size_t)n * n, sizeof *l);
    bool *pat = calloc((size_t)n * n, sizeof *pat), *in = calloc((size_t)n * n, sizeof *in);
    bool *want = calloc((size_t)n * n, sizeof *want), *step = calloc((size_t)n * n, sizeof *step);
    lit *as = calloc((size_t)n * n + 1, sizeof *as);
    for (int i = 0; i < n; i++)
        exec[i] = LIT_TRUE;
    for (int e = 0; e < n * n; e++) {
        pat[e] = coin(seed, pct);
        l[e] = pat[e] ? cnf_var(c) : LIT_FALSE;
    }
    struct rels *A = rels_new(c, n, exec);
    const struct rel *r = matrix_rel(A, n, pat, l), *pl = rel_plus(A, r);
    lit cy = rel_cyclic(A, r);
    for (int t = 0; t < rounds; t++) {
        int nas = 0;
        for (int e = 0; e < n * n; e++) {
            in[e] = pat[e] && coin(seed, 10 + 12 * (unsigned)(t % 5) * 10 / (unsigned)n);
            if (pat[e])
                as[nas++] = in[e] ? l[e] : -l[e];
        }
        memcpy(want, in, (size_t)n * n);   /* reference closure: repeated squaring */
        for (bool changed = true; changed;) {
            changed = false;
            for (int i = 0; i < n; i++)
                for (int k = 0; k < n; k++)
                    if (want[i * n + k])
                        for (int j = 0; j < n; j++)
                            if (want[k * n + j] && !want[i * n + j])
                                want[i * n + j] = changed = true;
        }
        assert_int_equal(cnf_solve(c, as, nas), 10);
        for (int e = 0; e < n * n; e++)
            if (cnf_value(c, rel_get(pl, e / n, e % n)) != want[e])
                fail_msg("plus n=%d (%d,%d) is %d", n, e / n, e % n, !want[e]);
        bool diag = false;
        for (int i = 0; i < n; i++)
            diag |= want[i * n + i];
        assert_int_equal(cnf_value(c, cy), diag);
        cyc[diag]++;
        for (int e = 0; e < n * n; e += 1 + n * n / 64) {   /* the clauses enforce it */
            lit p = rel_get(pl, e / n, e % n);
            if (lit_is_const(p) || (!both_ways && !want[e]))
                continue;
            as[nas] = want[e] ? -p : p;
            if (cnf_solve(c, as, nas + 1) != 20)
                fail_msg("plus n=%d (%d,%d) can be %d", n, e / n, e % n, !want[e]);
        }
        if (!lit_is_const(cy) && (both_ways || diag)) {
            as[nas] = diag ? -cy : cy;
            assert_int_equal(cnf_solve(c, as, nas + 1), 20);
        }
    }
    rels_free(A);
    cnf_free(c);
    free(exec); free(l); free(pat); free(in); free(want); free(step); free(as);
}

/* Small closures (every step clause at once) and big ones (step clauses
 * when a model lacks them) define the same closure. */
static void test_closure_cyclic_incremental(void **state)
{
    (void)state;
    uint64_t seed = 2024;
    int cyc[2] = { 0, 0 };
    for (int n = 4; n <= MAXN; n++)
        for (int rep = 0; rep < 4; rep++)
            closure_rounds(n, 85, 60, true, &seed, cyc);
    assert_true(cyc[0] > 0 && cyc[1] > 0);
    int big[2] = { 0, 0 };
    closure_rounds(60, 40, 4, false, &seed, big);
    assert_true(big[0] + big[1] == 4);
}

/* A strict order over n nodes (pair variables, antisymmetric) with
 * transitivity from cnf_order: every model is transitive, and chains
 * forced to close a cycle are unsatisfiable. */
static void order_rounds(int n, uint64_t *seed)
{
    struct cnf *c = cnf_new(true);
    lit *l = calloc((size_t)n * n, sizeof *l), *as = calloc((size_t)n + 1, sizeof *as);
    int *start = calloc((size_t)n + 1, sizeof *start), *col = calloc((size_t)n * n, sizeof *col);
    lit *val = calloc((size_t)n * n, sizeof *val);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            l[i * n + j] = cnf_var(c);
            l[j * n + i] = -l[i * n + j];   /* total: one way or the other */
        }
    int k = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            if (i != j) {
                col[k] = j;
                val[k++] = l[i * n + j];
            }
        start[i + 1] = k;
    }
    cnf_order(c, n, start, col, val);
    for (int t = 0; t < 8; t++) {
        int nas = 0;
        for (int a = 0; a < n / 4; a++) {   /* random pairs forced */
            int i = (int)(lcg(seed) % (unsigned)n), j = (int)(lcg(seed) % (unsigned)n);
            if (i != j)
                as[nas++] = l[i * n + j];
        }
        if (cnf_solve(c, as, nas) != 10)
            continue;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                for (int m = 0; m < n; m++)
                    if (i != j && j != m && i != m && cnf_value(c, l[i * n + j]) && cnf_value(c, l[j * n + m]))
                        assert_true(cnf_value(c, l[i * n + m]));
    }
    for (int i = 0; i + 1 < n; i++)         /* 0 < 1 < ... < n-1 < 0 */
        as[i] = l[i * n + i + 1];
    as[n - 1] = l[(n - 1) * n];
    assert_int_equal(cnf_solve(c, as, n), 20);
    cnf_free(c);
    free(l); free(as); free(start); free(col); free(val);
}

static void test_orders(void **state)
{
    (void)state;
    uint64_t seed = 31337;
    order_rounds(6, &seed);    /* every triple at once */
    order_rounds(104, &seed);  /* triples when a model lacks them: over EAGER_TRIPLES
                                  (encoders/order.c), 104 * 103 * 102 */
}

/* Requests too big for the arena's bump blocks get blocks of their own,
 * each wholly used: also the one whose block makes the table of owned
 * blocks grow (and move) under it. */
static void test_arena_own_blocks(void **state)
{
    (void)state;
    const size_t big = ((size_t)64 << 10) + 8;   /* past the first bump block, under malloc's mmap threshold */
    struct cnf *c = cnf_new(false);
    lit exec[1] = { LIT_TRUE };
    struct rels *A = rels_new(c, 1, exec);
    for (int k = 0; k < 200; k++) {
        char *p = rels_alloc(A, big, 1);
        p[0] = p[big - 1] = 1;
    }
    int owned_big = 0;
    for (int k = 0; k < A->nowned; k++)
        if (A->owned[k].size >= big) {
            assert_true(A->owned[k].used == A->owned[k].size);
            owned_big++;
        }
    assert_int_equal(owned_big, 200);
    rels_free(A);
    cnf_free(c);
}

/* rel_class (a lazy leaf: over a cnf with a solver) keeps the events that
 * can execute, each class's members in ascending order, and bounds its
 * pairs: classes {1} and {0, 2, 5} (event 4, of key 0, never executes)
 * have 1 + 9 pairs, or 0 + 3 ordered.  Over a constant-only cnf (made as
 * bits) it has those pairs, and a class of singles ordered is empty. */
static void test_class_layout(void **state)
{
    (void)state;
    struct cnf *c = cnf_new(true);
    lit exec[6] = { LIT_TRUE, LIT_TRUE, LIT_TRUE, LIT_TRUE, LIT_FALSE, LIT_TRUE };
    int key[6] = { 1, 0, 1, -1, 0, 1 }, singles[6] = { 0, 1, 2, 3, 4, 5 };
    struct rels *A = rels_new(c, 6, exec);
    const struct rel *k = rel_class(A, key, false), *o = rel_class(A, key, true);
    const int starts[3] = { 0, 1, 4 }, members[4] = { 1, 0, 2, 5 };
    for (int g = 0; g < 3; g++) {
        assert_int_equal(k->group_start[g], starts[g]);
        assert_int_equal(o->group_start[g], starts[g]);
    }
    for (int m = 0; m < 4; m++) {
        assert_int_equal(k->group[m], members[m]);
        assert_int_equal(o->group[m], members[m]);
    }
    assert_int_equal(k->bound, 1 + 10);
    assert_int_equal(o->bound, 1 + 3);
    assert_false(k->empty || o->empty);
    assert_true(rel_class(A, singles, true)->empty);
    assert_false(rel_class(A, singles, false)->empty);
    rels_free(A);
    cnf_free(c);
    c = cnf_new(false);
    A = rels_new(c, 6, exec);
    k = rel_class(A, key, false);
    o = rel_class(A, key, true);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            bool same = exec[i] == LIT_TRUE && exec[j] == LIT_TRUE && key[i] >= 0 && key[i] == key[j];
            assert_int_equal(rel_get(k, i, j) == LIT_TRUE, same);
            assert_int_equal(rel_get(o, i, j) == LIT_TRUE, same && i < j);
        }
    assert_int_equal(rel_may_size(k), 10);
    assert_int_equal(rel_may_size(o), 3);
    assert_true(rel_class(A, singles, true)->empty);
    assert_false(rel_class(A, singles, false)->empty);
    rels_free(A);
    cnf_free(c);
}

/* An arena's consed nodes are not found by the next arena, whose nodes may
 * lie where the first's did (its table and blocks reused). */
static void test_cons_not_kept(void **state)
{
    (void)state;
    struct cnf *c = cnf_new(false);
    lit exec[4] = { LIT_TRUE, LIT_TRUE, LIT_TRUE, LIT_TRUE };
    for (int round = 0; round < 3; round++) {
        struct rels *A = rels_new(c, 4, exec);
        struct rels *B = rels_new_child(A);
        bool x[4] = { false }, y[4] = { false };
        x[round] = y[round + 1] = true;
        const struct set *u = set_union(B, set_of(B, x), set_of(B, y));
        assert_int_equal(u->size, 2);
        assert_int_equal(u->members[0], round);
        assert_int_equal(u->members[1], round + 1);
        rels_free(B);
        rels_free(A);
    }
    cnf_free(c);
}

/* Asserts that rows t of arena A over n nodes hold exactly the pairs (i, j)
 * whose expect[i * n + j] is not LIT_FALSE, with that literal, each row
 * sorted by column, and that A counts them; returns how many. */
static int assert_rows_are(const struct rels *A, const struct rel_rows *t, int n, const lit *expect)
{
    int pairs = 0;
    for (int i = 0; i < n; i++) {
        int at = t->start[i];
        for (int j = 0; j < n; j++) {
            if (expect[i * n + j] == LIT_FALSE)
                continue;
            assert_true(at < t->start[i + 1]);
            assert_int_equal(t->col[at], j);
            assert_int_equal(t->val[at], expect[i * n + j]);
            at++;
            pairs++;
        }
        assert_int_equal(at, t->start[i + 1]);
    }
    assert_int_equal(t->start[n], pairs);
    assert_int_equal(rels_pairs(A), pairs);
    return pairs;
}

/* rel_build over a cnf with a solver (rows, not bits): pairs given in no
 * order, across more than one growth of the builder, come out in rows
 * sorted by column; of a pair given twice the later literal is kept, and
 * a pair whose later literal is LIT_FALSE is dropped. */
static void test_build_duplicates(void **state)
{
    (void)state;
    enum { N = 9 };
    struct cnf *c = cnf_new(true);
    lit exec[N], expect[N][N];
    for (int i = 0; i < N; i++)
        exec[i] = LIT_TRUE;
    struct rels *A = rels_new(c, N, exec);
    struct rel_builder bld;
    rel_builder_init(&bld);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            expect[i][j] = LIT_FALSE;
    for (int round = 0; round < 3; round++)   /* 3 * 81 pairs: past two doublings of 64 */
        for (int k = 0; k < N * N; k++) {
            int i = (k * 5 + round) % N, j = (k * 7 + 2 * round) % N;
            lit l = (i + j + round) % 3 == 0 ? LIT_FALSE : cnf_var(c);
            rel_add(&bld, i, j, l);
            expect[i][j] = l;
        }
    assert_rows_are(A, rel_build(A, &bld, false)->rows, N, &expect[0][0]);
    rels_free(A);
    cnf_free(c);
}

/* rel_build over a cnf with a solver from pairs given already in order
 * (by row, then column: rows_from_pairs takes them as they come) keeps
 * them but those whose literal is LIT_FALSE, and counts those kept; the
 * same pairs with one given twice in a row (not strictly in order) come
 * out of the sorting passes with the later literal. */
static void test_build_in_order(void **state)
{
    (void)state;
    enum { N = 7 };
    struct cnf *c = cnf_new(true);
    lit exec[N];
    for (int i = 0; i < N; i++)
        exec[i] = LIT_TRUE;
    for (int twice = 0; twice < 2; twice++) {
        struct rels *A = rels_new(c, N, exec);
        struct rel_builder bld;
        rel_builder_init(&bld);
        lit expect[N][N];
        int pairs = 0;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                expect[i][j] = LIT_FALSE;
                if ((i * 3 + j) % 4 == 0)
                    continue;   /* not given */
                lit l = (i + 2 * j) % 5 == 0 ? LIT_FALSE : cnf_var(c);
                if (twice && i == 3 && j == 4) {
                    rel_add(&bld, i, j, cnf_var(c));   /* overwritten by the next */
                    l = LIT_FALSE;
                }
                if (twice && i == 5 && j == 1) {
                    rel_add(&bld, i, j, LIT_FALSE);   /* overwritten by the next */
                    l = cnf_var(c);
                }
                rel_add(&bld, i, j, l);
                expect[i][j] = l;
                pairs += l != LIT_FALSE;
            }
        assert_int_equal(assert_rows_are(A, rel_build(A, &bld, false)->rows, N, &expect[0][0]), pairs);
        rels_free(A);
    }
    cnf_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_concrete),
        cmocka_unit_test(test_build_duplicates),
        cmocka_unit_test(test_build_in_order),
        cmocka_unit_test(test_concrete_dense_and_lazy),
        cmocka_unit_test(test_symbolic),
        cmocka_unit_test(test_symbolic_guarded),
        cmocka_unit_test(test_zero_estimates),
        cmocka_unit_test(test_lits_first),
        cmocka_unit_test(test_guarded_filter),
        cmocka_unit_test(test_symbolic_sparsity),
        cmocka_unit_test(test_closure_cyclic_incremental),
        cmocka_unit_test(test_orders),
        cmocka_unit_test(test_arena_own_blocks),
        cmocka_unit_test(test_class_layout),
        cmocka_unit_test(test_cons_not_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
