/* Unit tests of the 32-bit bit-vector circuits: every operation on constant
 * vectors folds to the two's-complement result computed in C, and the same
 * circuits over fresh variables give the same values through the solver. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>

#include "encoders/bv.h"

enum op { OP_ADD, OP_SUB, OP_MUL, OP_SDIV, OP_AND, OP_OR, OP_XOR, OP_SMIN, OP_SMAX, OP_UMIN, OP_UMAX,
          OP_ITE_T, OP_ITE_F,
          OP_EQ, OP_SLT, OP_ULT, OP_COUNT };

static const char *const op_name[OP_COUNT] = { "add", "sub", "mul", "sdiv", "and", "or", "xor",
                                               "smin", "smax", "umin", "umax",
                                               "ite(1)", "ite(0)", "eq", "slt", "ult" };

#define MAX_PAIRS 512
#define NRANDOM 200

static const int32_t edges[] = { 0, 1, -1, 2, -2, 3, -7, 7, INT32_MIN, INT32_MIN + 1, INT32_MAX,
                                 INT32_MAX - 1, 1 << 16, 1 << 30, -(1 << 30), 0x55555555 };
#define NEDGES ((int)(sizeof edges / sizeof edges[0]))

static int32_t pa[MAX_PAIRS], pb[MAX_PAIRS];
static int npairs;

/* The next number of a fixed-seed 64-bit LCG (high half). */
static uint32_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 32);
}

/* Fills pa/pb: all edge pairs, then random pairs (some with small or shifted divisors). */
static void make_pairs(void)
{
    uint64_t s = 12345;
    npairs = 0;
    for (int i = 0; i < NEDGES; i++)
        for (int j = 0; j < NEDGES; j++) {
            pa[npairs] = edges[i];
            pb[npairs++] = edges[j];
        }
    for (int k = 0; k < NRANDOM; k++) {
        uint32_t a = lcg(&s), b = lcg(&s);
        if (k % 3 == 1)
            b = (uint32_t)((int32_t)(b % 41) - 20);
        else if (k % 3 == 2)
            b = (uint32_t)((int32_t)b >> (lcg(&s) % 31));
        pa[npairs] = (int32_t)a;
        pb[npairs++] = (int32_t)b;
    }
}

/* C reference for signed division: truncation toward zero; x / 0 is -1 for
 * x >= 0 and 1 otherwise (bv.h); INT32_MIN / -1 wraps to INT32_MIN. */
static int32_t ref_sdiv(int32_t a, int32_t b)
{
    if (b == 0)
        return a >= 0 ? -1 : 1;
    if (a == INT32_MIN && b == -1)
        return INT32_MIN;
    return a / b;
}

/* The expected 32-bit result of op on a, b (comparisons give 0 or 1). */
static int32_t ref(int op, int32_t a, int32_t b)
{
    uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
    switch (op) {
    case OP_ADD: return (int32_t)(ua + ub);
    case OP_SUB: return (int32_t)(ua - ub);
    case OP_MUL: return (int32_t)(ua * ub);
    case OP_SDIV: return ref_sdiv(a, b);
    case OP_AND: return a & b;
    case OP_OR: return a | b;
    case OP_XOR: return a ^ b;
    case OP_SMIN: return a < b ? a : b;
    case OP_SMAX: return a > b ? a : b;
    case OP_UMIN: return ua < ub ? a : b;
    case OP_UMAX: return ua > ub ? a : b;
    case OP_ITE_T: return a;
    case OP_ITE_F: return b;
    case OP_EQ: return a == b;
    case OP_SLT: return a < b;
    default: return ua < ub;
    }
}

/* True for the operations whose result is one literal. */
static bool is_pred(int op) { return op >= OP_EQ; }

/* Builds op(x, y) in c; predicates come back in bit 0 with the rest false. */
static struct bv apply(struct cnf *c, int op, struct bv x, struct bv y)
{
    struct bv r = bv_const(0);
    switch (op) {
    case OP_ADD: return bv_add(c, x, y);
    case OP_SUB: return bv_sub(c, x, y);
    case OP_MUL: return bv_mul(c, x, y);
    case OP_SDIV: return bv_sdiv(c, x, y);
    case OP_AND: return bv_and(c, x, y);
    case OP_OR: return bv_or(c, x, y);
    case OP_XOR: return bv_xor(c, x, y);
    case OP_SMIN: return bv_extremum(c, x, y, false, false);
    case OP_SMAX: return bv_extremum(c, x, y, true, false);
    case OP_UMIN: return bv_extremum(c, x, y, false, true);
    case OP_UMAX: return bv_extremum(c, x, y, true, true);
    case OP_ITE_T: return bv_ite(c, LIT_TRUE, x, y);
    case OP_ITE_F: return bv_ite(c, LIT_FALSE, x, y);
    case OP_EQ: r.b[0] = bv_eq(c, x, y); return r;
    case OP_SLT: r.b[0] = bv_slt(c, x, y); return r;
    default: r.b[0] = bv_ult(c, x, y); return r;
    }
}

/* Fails with a readable message when got differs from the reference. */
static void check(const char *mode, int op, int32_t a, int32_t b, int32_t got)
{
    int32_t want = ref(op, a, b);
    if (got != want)
        fail_msg("%s %s(%d, %d) = %d (%#x), want %d (%#x)", mode, op_name[op], (int)a, (int)b,
                 (int)got, (unsigned)got, (int)want, (unsigned)want);
}

/* Constant vectors, concrete cnf: every op folds to the reference constant. */
static void test_concrete_fold(void **state)
{
    (void)state;
    struct cnf *c = cnf_new(false);
    for (int p = 0; p < npairs; p++)
        for (int op = 0; op < OP_COUNT; op++) {
            struct bv r = apply(c, op, bv_const(pa[p]), bv_const(pb[p]));
            int32_t v;
            assert_true(bv_is_const(&r, &v));
            check("concrete", op, pa[p], pb[p], v);
            assert_int_equal(bv_model_value(c, &r), v);
        }
    assert_int_equal(cnf_num_vars(c), 1);
    cnf_free(c);
}

/* Constant vectors in a solver cnf also fold, creating no variable. */
static void test_symbolic_cnf_folds_constants(void **state)
{
    (void)state;
    struct cnf *c = cnf_new(true);
    for (int p = 0; p < NEDGES * NEDGES; p += 7)
        for (int op = 0; op < OP_COUNT; op++) {
            struct bv r = apply(c, op, bv_const(pa[p]), bv_const(pb[p]));
            int32_t v;
            assert_true(bv_is_const(&r, &v));
            check("folded", op, pa[p], pb[p], v);
        }
    assert_int_equal(cnf_num_vars(c), 1);
    assert_int_equal(cnf_num_clauses(c), 0);
    cnf_free(c);
}

/* bv_const truncates to 32 bits; bv_is_const refuses vectors with a variable. */
/* bv_nonzero_bits and bv_variable_bits name each bit that is not the
 * constant 0 and each that is no constant, in pairs of equal and of
 * different kinds, at both ends of the vector. */
static void test_bit_masks(void **state)
{
    (void)state;
    struct cnf *c = cnf_new(true);
    struct bv x = bv_fresh(c), k = bv_const(0);
    assert_int_equal(bv_nonzero_bits(&k), 0);
    assert_int_equal(bv_variable_bits(&k), 0);
    k = bv_const(-1);
    assert_int_equal(bv_nonzero_bits(&k), 0xffffffffu);
    assert_int_equal(bv_variable_bits(&k), 0);
    k = bv_const(0x80000005);   /* bits 0, 2 and 31 are 1 */
    k.b[1] = x.b[0];
    k.b[6] = x.b[1];
    k.b[7] = -x.b[2];
    k.b[30] = x.b[3];
    assert_int_equal(bv_nonzero_bits(&k), 0xc00000c7u);
    assert_int_equal(bv_variable_bits(&k), 0x400000c2u);
    assert_int_equal(bv_variable_bits(&x), 0xffffffffu);
    cnf_free(c);
}

static void test_is_const(void **state)
{
    (void)state;
    int32_t v = 0;
    struct bv k = bv_const(-5);
    assert_true(bv_is_const(&k, &v));
    assert_int_equal(v, -5);
    k = bv_const(((int64_t)1 << 32) + 9);
    assert_true(bv_is_const(&k, &v));
    assert_int_equal(v, 9);
    k = bv_const(INT64_C(0x80000000));
    assert_true(bv_is_const(&k, &v));
    assert_int_equal(v, INT32_MIN);
    struct cnf *c = cnf_new(true);
    struct bv x = bv_fresh(c);
    v = 77;
    assert_false(bv_is_const(&x, &v));
    assert_int_equal(v, 77);
    k = bv_const(3);
    k.b[31] = x.b[0];
    assert_false(bv_is_const(&k, &v));
    struct bv r = bv_and(c, x, bv_const(0));
    assert_true(bv_is_const(&r, &v));
    assert_int_equal(v, 0);
    cnf_free(c);
}

/* One cnf per pair: x, y fresh, fixed by units bv_eq(x, a), bv_eq(y, b); checks
 * op(x, y), op(x, b) and op(a, y) through the model. */
static void check_pair_units(int32_t a, int32_t b, const int *ops, int nops)
{
    struct cnf *c = cnf_new(true);
    struct bv x = bv_fresh(c), y = bv_fresh(c), ka = bv_const(a), kb = bv_const(b);
    cnf_unit(c, bv_eq(c, x, ka));
    cnf_unit(c, bv_eq(c, y, kb));
    struct bv r[3 * OP_COUNT];
    for (int i = 0; i < nops; i++) {
        r[3 * i] = apply(c, ops[i], x, y);
        r[3 * i + 1] = apply(c, ops[i], x, kb);
        r[3 * i + 2] = apply(c, ops[i], ka, y);
    }
    assert_int_equal(cnf_solve(c, NULL, 0), 10);
    assert_int_equal(bv_model_value(c, &x), a);
    assert_int_equal(bv_model_value(c, &y), b);
    for (int i = 0; i < 3 * nops; i++)
        check(i % 3 == 0 ? "sym(x,y)" : i % 3 == 1 ? "sym(x,b)" : "sym(a,y)", ops[i / 3], a, b,
              bv_model_value(c, &r[i]));
    cnf_free(c);
}

/* Symbolic with unit clauses, cheap ops, every pair. */
static void test_symbolic_units_cheap(void **state)
{
    (void)state;
    static const int ops[] = { OP_ADD, OP_SUB, OP_AND, OP_OR, OP_XOR, OP_ITE_T, OP_ITE_F,
                               OP_EQ, OP_SLT, OP_ULT };
    for (int p = 0; p < npairs; p++)
        check_pair_units(pa[p], pb[p], ops, (int)(sizeof ops / sizeof ops[0]));
}

/* Symbolic with unit clauses, mul and sdiv, every third pair (large circuits). */
static void test_symbolic_units_muldiv(void **state)
{
    (void)state;
    static const int ops[] = { OP_MUL, OP_SDIV };
    for (int p = 0; p < npairs; p += 3)
        check_pair_units(pa[p], pb[p], ops, 2);
}

/* One cnf, circuits built once over fresh x, y; every pair is one incremental
 * solve under the assumptions bv_eq(x, a) and bv_eq(y, b). */
static void test_symbolic_incremental(void **state)
{
    (void)state;
    struct cnf *c = cnf_new(true);
    struct bv x = bv_fresh(c), y = bv_fresh(c), r[OP_COUNT];
    lit s = cnf_var(c);
    for (int op = 0; op < OP_COUNT; op++)
        r[op] = apply(c, op, x, y);
    struct bv sel = bv_ite(c, s, x, y);
    for (int p = 0; p < npairs; p++) {
        lit as[3] = { bv_eq(c, x, bv_const(pa[p])), bv_eq(c, y, bv_const(pb[p])),
                      p % 2 ? s : -s };
        assert_int_equal(cnf_solve(c, as, 3), 10);
        for (int op = 0; op < OP_COUNT; op++)
            check("incremental", op, pa[p], pb[p], bv_model_value(c, &r[op]));
        check("incremental", p % 2 ? OP_ITE_T : OP_ITE_F, pa[p], pb[p], bv_model_value(c, &sel));
    }
    cnf_free(c);
}

/* The circuits are exact: asserting a wrong result for a fixed pair is UNSAT. */
static void test_symbolic_wrong_result_unsat(void **state)
{
    (void)state;
    static const int32_t a[] = { 7, -7, INT32_MIN, 123456789, 0 };
    static const int32_t b[] = { 2, 2, -1, -1000, 0 };
    struct cnf *c = cnf_new(true);
    struct bv x = bv_fresh(c), y = bv_fresh(c), r[OP_COUNT];
    for (int op = 0; op < OP_COUNT; op++)
        r[op] = apply(c, op, x, y);
    for (int p = 0; p < 5; p++)
        for (int op = 0; op < OP_COUNT; op++) {
            int32_t want = ref(op, a[p], b[p]);
            int32_t wrong = is_pred(op) ? !want : (int32_t)((uint32_t)want ^ (1u << (p * 7 % 32)));
            lit as[3] = { bv_eq(c, x, bv_const(a[p])), bv_eq(c, y, bv_const(b[p])),
                          bv_eq(c, r[op], bv_const(wrong)) };
            if (cnf_solve(c, as, 3) != 20)
                fail_msg("%s(%d, %d) can be %d", op_name[op], (int)a[p], (int)b[p], (int)wrong);
        }
    cnf_free(c);
}

/* Builds the shared pair table once for the whole group. */
static int setup(void **state)
{
    (void)state;
    make_pairs();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_concrete_fold),
        cmocka_unit_test(test_symbolic_cnf_folds_constants),
        cmocka_unit_test(test_is_const),
        cmocka_unit_test(test_bit_masks),
        cmocka_unit_test(test_symbolic_units_cheap),
        cmocka_unit_test(test_symbolic_units_muldiv),
        cmocka_unit_test(test_symbolic_incremental),
        cmocka_unit_test(test_symbolic_wrong_result_unsat),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
