/* Fixed-width (32-bit) bit-vectors of literals, two's complement. */
#ifndef GPUBMC_BV_H
#define GPUBMC_BV_H

#include <stdbool.h>
#include <stdint.h>

#include "encoders/cnf.h"

#define BV_WIDTH 32

struct bv { lit b[BV_WIDTH]; };   /* b[0] is the least significant bit */

/* The constant v (truncated to 32 bits); inline: made often, mostly 0. */
static inline struct bv bv_const(int64_t v)
{
    struct bv r;
    for (int i = 0; i < BV_WIDTH; i++)   /* every bit 0, then the ones (few) */
        r.b[i] = LIT_FALSE;
    for (uint32_t ones = (uint32_t)v; ones; ones &= ones - 1)
        r.b[__builtin_ctz(ones)] = LIT_TRUE;
    return r;
}
/* A vector of fresh variables. */
struct bv bv_fresh(struct cnf *c);
/* True when every bit is constant; then *v gets the signed value. */
int bv_is_const(const struct bv *x, int32_t *v);
/* The bits of x that are not the constant 0, bit i for b[i]. */
uint32_t bv_nonzero_bits(const struct bv *x);
/* The bits of x that are no constant (variables or gates), bit i for b[i]. */
uint32_t bv_variable_bits(const struct bv *x);
/* The value of x in the solver's last model (or of a constant vector). */
int32_t bv_model_value(struct cnf *c, const struct bv *x);

struct bv bv_add(struct cnf *c, struct bv x, struct bv y);
struct bv bv_sub(struct cnf *c, struct bv x, struct bv y);
struct bv bv_mul(struct cnf *c, struct bv x, struct bv y);
/* Signed division truncating toward zero; x / 0 is -1 for x >= 0 and 1 otherwise
 * (the unsigned quotient of |x| by 0 is all ones); INT32_MIN / -1 wraps to INT32_MIN. */
struct bv bv_sdiv(struct cnf *c, struct bv x, struct bv y);
struct bv bv_and(struct cnf *c, struct bv x, struct bv y);
struct bv bv_or(struct cnf *c, struct bv x, struct bv y);
struct bv bv_xor(struct cnf *c, struct bv x, struct bv y);
/* The minimum (max false) or maximum of x and y, in signed or unsigned order. */
struct bv bv_extremum(struct cnf *c, struct bv x, struct bv y, bool max, bool is_unsigned);
/* s ? x : y, bitwise. */
struct bv bv_ite(struct cnf *c, lit s, struct bv x, struct bv y);

lit bv_eq(struct cnf *c, struct bv x, struct bv y);
/* Signed x < y. */
lit bv_slt(struct cnf *c, struct bv x, struct bv y);
/* Unsigned x < y. */
lit bv_ult(struct cnf *c, struct bv x, struct bv y);

#endif
