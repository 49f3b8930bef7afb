/* Bit-vector circuits: ripple-carry adders, shift-add multiplier,
 * restoring divider, comparators. */
#include "encoders/bv.h"

#include <string.h>

struct bv bv_fresh(struct cnf *c)
{
    struct bv r;
    for (int i = 0; i < BV_WIDTH; i++)
        r.b[i] = cnf_var(c);
    return r;
}

int bv_is_const(const struct bv *x, int32_t *v)
{
    uint32_t u = 0;
    for (int i = 0; i < BV_WIDTH; i++) {
        if (!lit_is_const(x->b[i]))
            return 0;
        if (x->b[i] == LIT_TRUE)
            u |= 1u << i;
    }
    *v = (int32_t)u;
    return 1;
}

/* True when b[i] and b[i + 1] are both the constant 0 (most bits are):
 * one compare of a word. */
static bool pair_is_zero(const struct bv *x, int i)
{
    uint64_t w;
    memcpy(&w, &x->b[i], sizeof w);
    return w == ~(uint64_t)0;   /* LIT_FALSE is -1 */
}

uint32_t bv_nonzero_bits(const struct bv *x)
{
    uint32_t m = 0;
    for (int i = 0; i < BV_WIDTH; i += 2)
        if (!pair_is_zero(x, i))
            m |= (uint32_t)(x->b[i] != LIT_FALSE) << i | (uint32_t)(x->b[i + 1] != LIT_FALSE) << (i + 1);
    return m;
}

uint32_t bv_variable_bits(const struct bv *x)
{
    uint32_t m = 0;
    for (int i = 0; i < BV_WIDTH; i += 2)
        if (!pair_is_zero(x, i))
            m |= (uint32_t)!lit_is_const(x->b[i]) << i | (uint32_t)!lit_is_const(x->b[i + 1]) << (i + 1);
    return m;
}

int32_t bv_model_value(struct cnf *c, const struct bv *x)
{
    uint32_t u = 0;
    for (uint32_t m = bv_nonzero_bits(x); m; m &= m - 1) {   /* a bit 0 (most are) adds nothing */
        int i = __builtin_ctz(m);
        if (cnf_value(c, x->b[i]))
            u |= 1u << i;
    }
    return (int32_t)u;
}

/* x + y + carry_in, returning the sum. */
static struct bv add_carry(struct cnf *c, struct bv x, struct bv y, lit carry)
{
    struct bv r;
    for (int i = 0; i < BV_WIDTH; i++) {
        if (x.b[i] == LIT_FALSE && y.b[i] == LIT_FALSE && carry == LIT_FALSE) {   /* what the gates fold to */
            r.b[i] = LIT_FALSE;
            continue;
        }
        lit t = cnf_xor(c, x.b[i], y.b[i]);
        r.b[i] = cnf_xor(c, t, carry);
        carry = cnf_or(c, cnf_and(c, x.b[i], y.b[i]), cnf_and(c, t, carry));
    }
    return r;
}

static struct bv bv_not(struct bv x)
{
    for (int i = 0; i < BV_WIDTH; i++)
        x.b[i] = -x.b[i];
    return x;
}

struct bv bv_add(struct cnf *c, struct bv x, struct bv y) { return add_carry(c, x, y, LIT_FALSE); }

struct bv bv_sub(struct cnf *c, struct bv x, struct bv y) { return add_carry(c, x, bv_not(y), LIT_TRUE); }

struct bv bv_mul(struct cnf *c, struct bv x, struct bv y)
{
    struct bv acc = bv_const(0);
    for (int i = 0; i < BV_WIDTH; i++) {
        if (y.b[i] == LIT_FALSE)
            continue;
        struct bv part;
        for (int j = 0; j < BV_WIDTH; j++)
            part.b[j] = j < i ? LIT_FALSE : cnf_and(c, x.b[j - i], y.b[i]);
        acc = bv_add(c, acc, part);
    }
    return acc;
}

struct bv bv_ite(struct cnf *c, lit s, struct bv x, struct bv y)
{
    struct bv r;
    for (int i = 0; i < BV_WIDTH; i++)
        r.b[i] = x.b[i] == y.b[i] ? x.b[i] : cnf_ite(c, s, x.b[i], y.b[i]);
    return r;
}

/* Unsigned restoring division: the quotient of n by d. */
static struct bv udiv(struct cnf *c, struct bv n, struct bv d)
{
    struct bv q, rem = bv_const(0);
    for (int i = BV_WIDTH - 1; i >= 0; i--) {
        /* rem = (rem << 1) | n[i]; the shifted-out bit makes rem >= d */
        lit overflow = rem.b[BV_WIDTH - 1];
        for (int j = BV_WIDTH - 1; j > 0; j--)
            rem.b[j] = rem.b[j - 1];
        rem.b[0] = n.b[i];
        lit ge = cnf_or(c, overflow, -bv_ult(c, rem, d));
        q.b[i] = ge;
        rem = bv_ite(c, ge, bv_sub(c, rem, d), rem);
    }
    return q;
}

static struct bv bv_neg(struct cnf *c, struct bv x) { return bv_sub(c, bv_const(0), x); }

struct bv bv_sdiv(struct cnf *c, struct bv x, struct bv y)
{
    lit sx = x.b[BV_WIDTH - 1], sy = y.b[BV_WIDTH - 1];
    struct bv ax = bv_ite(c, sx, bv_neg(c, x), x);
    struct bv ay = bv_ite(c, sy, bv_neg(c, y), y);
    struct bv q = udiv(c, ax, ay);
    return bv_ite(c, cnf_xor(c, sx, sy), bv_neg(c, q), q);
}

struct bv bv_and(struct cnf *c, struct bv x, struct bv y)
{
    for (int i = 0; i < BV_WIDTH; i++)
        x.b[i] = cnf_and(c, x.b[i], y.b[i]);
    return x;
}

struct bv bv_or(struct cnf *c, struct bv x, struct bv y)
{
    for (int i = 0; i < BV_WIDTH; i++)
        x.b[i] = cnf_or(c, x.b[i], y.b[i]);
    return x;
}

struct bv bv_xor(struct cnf *c, struct bv x, struct bv y)
{
    for (int i = 0; i < BV_WIDTH; i++)
        x.b[i] = cnf_xor(c, x.b[i], y.b[i]);
    return x;
}

/* The bits where x and y have different literals, bit i for b[i]: two
 * literals a word, so a run of equal bits (most are) costs a compare per
 * pair. */
static uint32_t differing_bits(const struct bv *x, const struct bv *y)
{
    uint32_t m = 0;
    for (int i = 0; i < BV_WIDTH; i += 2) {
        uint64_t a, b;
        memcpy(&a, &x->b[i], sizeof a);
        memcpy(&b, &y->b[i], sizeof b);
        if (a != b)
            m |= (uint32_t)(x->b[i] != y->b[i]) << i | (uint32_t)(x->b[i + 1] != y->b[i + 1]) << (i + 1);
    }
    return m;
}

lit bv_eq(struct cnf *c, struct bv x, struct bv y)
{
    lit acc = LIT_TRUE;   /* equal bits: the iff folds to true */
    for (uint32_t m = differing_bits(&x, &y); m && acc != LIT_FALSE; m &= m - 1) {
        int i = __builtin_ctz(m);
        acc = cnf_and(c, acc, cnf_iff(c, x.b[i], y.b[i]));
    }
    return acc;
}

lit bv_ult(struct cnf *c, struct bv x, struct bv y)
{
    /* scan from the least significant bit: lt = (!x & y) | (x == y) & lt */
    lit lt = LIT_FALSE;   /* equal bits fold to lt as it is */
    for (uint32_t m = differing_bits(&x, &y); m; m &= m - 1) {
        int i = __builtin_ctz(m);
        lit less = cnf_and(c, -x.b[i], y.b[i]);
        lit same = cnf_iff(c, x.b[i], y.b[i]);
        lt = cnf_or(c, less, cnf_and(c, same, lt));
    }
    return lt;
}

lit bv_slt(struct cnf *c, struct bv x, struct bv y)
{
    /* flipping the sign bits turns signed order into unsigned order */
    x.b[BV_WIDTH - 1] = -x.b[BV_WIDTH - 1];
    y.b[BV_WIDTH - 1] = -y.b[BV_WIDTH - 1];
    return bv_ult(c, x, y);
}

struct bv bv_extremum(struct cnf *c, struct bv x, struct bv y, bool max, bool is_unsigned)
{
    lit (*less)(struct cnf *, struct bv, struct bv) = is_unsigned ? bv_ult : bv_slt;
    lit keep_x = max ? less(c, y, x) : less(c, x, y);
    return bv_ite(c, keep_x, x, y);
}
