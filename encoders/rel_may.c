/* Candidate pairs of every relation over a cnf with a solver and at most
 * REL_DENSE_MAX events, as rows of bits: a pair outside them has the
 * literal LIT_FALSE.  A static term's are its own bits (rel_bits.c); an
 * operation's are its operands' combined word by word (a composition's
 * rows the OR of the second operand's rows its first one's row reaches,
 * a closure's the transitive closure of its operand's), made once per
 * relation and direction when first asked for, before any literal of it.
 * The lazy rows read them first: an empty candidate row is not walked, a
 * row's size is estimated by a population count instead of a walk of the
 * term, and a filter looks up no pair its other operand cannot have. */
#include "encoders/rel_impl.h"

#include <string.h>

typedef unsigned long long word;

/* The candidate rows of a built relation, from its rows, in b (w words
 * a row), zeroed first. */
static void rows_bits(const struct rel *r, word *b, int w)
{
    memset(b, 0, (size_t)r->n * (size_t)w * sizeof *b);
    const struct rel_rows *t = r->rows;
    for (int i = 0; i < r->n; i++)
        for (int e = t->start[i]; e < t->start[i + 1]; e++) {
            int j = t->col[e];
            b[(size_t)i * w + (unsigned)j / 64] |= 1ull << ((unsigned)j % 64);
        }
}

void rel_bits_transpose(word *b, const word *x, int n, int w)
{
    memset(b, 0, (size_t)n * (size_t)w * sizeof *b);
    if (w == 1) {   /* one word a row: no loop over a row's words */
        for (int i = 0; i < n; i++)
            for (word m = x[i]; m; m &= m - 1)
                b[__builtin_ctzll(m)] |= 1ull << i;
        return;
    }
    if (w == 2) {   /* two words a row: a loop for each, no loop over a row's words */
        for (int i = 0; i < n; i++) {
            word bit = 1ull << (i % 64);
            int half = i / 64;
            for (word m = x[2 * i]; m; m &= m - 1)
                b[2 * __builtin_ctzll(m) + half] |= bit;
            for (word m = x[2 * i + 1]; m; m &= m - 1)
                b[128 + 2 * __builtin_ctzll(m) + half] |= bit;
        }
        return;
    }
    for (int i = 0; i < n; i++)
        for (int k = 0; k < w; k++)
            for (word m = x[(size_t)i * w + k]; m; m &= m - 1) {
                int j = k * 64 + __builtin_ctzll(m);
                b[(size_t)j * w + (unsigned)i / 64] |= 1ull << ((unsigned)i % 64);
            }
}

void rel_bits_compose(word *b, const word *x, const word *y, int n, int w)
{
    if (w == 1) {   /* one word a row: each row made in a register, written whole */
        for (int i = 0; i < n; i++) {
            word row = 0;
            for (word m = x[i]; m; m &= m - 1)
                row |= y[__builtin_ctzll(m)];
            b[i] = row;
        }
        return;
    }
    if (w == 2) {   /* two words a row: both made in registers, written whole */
        for (int i = 0; i < n; i++) {
            word lo = 0, hi = 0;
            for (word m = x[2 * i]; m; m &= m - 1) {   /* through events 0 .. 63 */
                const word *from = y + 2 * __builtin_ctzll(m);
                lo |= from[0];
                hi |= from[1];
            }
            for (word m = x[2 * i + 1]; m; m &= m - 1) {   /* through events 64 .. 127 */
                const word *from = y + 128 + 2 * __builtin_ctzll(m);
                lo |= from[0];
                hi |= from[1];
            }
            b[2 * i] = lo;
            b[2 * i + 1] = hi;
        }
        return;
    }
    memset(b, 0, (size_t)n * (size_t)w * sizeof *b);
    for (int i = 0; i < n; i++) {
        word *row = b + (size_t)i * w;
        for (int k = 0; k < w; k++)
            for (word m = x[(size_t)i * w + k]; m; m &= m - 1) {
                const word *from = y + (size_t)(k * 64 + __builtin_ctzll(m)) * w;
                for (int v = 0; v < w; v++)
                    row[v] |= from[v];
            }
    }
}

void rel_bits_close(word *b, const word *x, int n, int w)
{
    memcpy(b, x, (size_t)n * (size_t)w * sizeof *b);
    if (w == 1) {
        rel_close_word_rows(b, n);
        return;
    }
    if (w == 2) {   /* two words a row: row k's in registers, no loop over a row's words */
        for (int k = 0; k < n; k++) {
            word t0 = b[2 * k], t1 = b[2 * k + 1], bit = 1ull << (k % 64);
            if (!(t0 | t1))
                continue;
            for (int i = 0; i < n; i++)
                if (b[2 * i + k / 64] & bit) {
                    b[2 * i] |= t0;
                    b[2 * i + 1] |= t1;
                }
        }
        return;
    }
    for (int k = 0; k < n; k++) {
        const word *through = b + (size_t)k * w;
        word any = 0;
        for (int v = 0; v < w; v++)
            any |= through[v];
        for (int i = 0; any && i < n; i++) {
            word *row = b + (size_t)i * w;
            if (row[k / 64] >> (k % 64) & 1)
                for (int v = 0; v < w; v++)
                    row[v] |= through[v];
        }
    }
}

const word *rel_may_make(const struct rel *r, bool flip)
{
    if (r->is_static)   /* exact: its own bits */
        return ((struct rel *)r)->may[flip] = (word *)rel_bits(r, flip);
    int n = r->n, w = rel_bits_words(n);
    size_t all = (size_t)n * (size_t)w;
    word *b = rels_alloc_raw(r->home, all, sizeof *b);   /* written whole below */
    const word *x, *y;
    if (flip) {   /* the rows' transpose: no second walk of the term */
        rel_bits_transpose(b, rel_may(r, false), n, w);
        ((struct rel *)r)->may[flip] = b;
        return b;
    }
    switch (r->op) {
    case REL_UNION: case REL_INTER:
        x = rel_may(r->a, false);
        y = rel_may(r->b, false);
        if (r->op == REL_UNION)
            for (size_t k = 0; k < all; k++)
                b[k] = x[k] | y[k];
        else
            for (size_t k = 0; k < all; k++)
                b[k] = x[k] & y[k];
        break;
    case REL_DIFF:
        /* a guarded x(i, j) & -both(i, j) is false where static y has (i, j) */
        x = rel_may(r->a, false);
        y = r->b->is_static && rel_guarded(r->a) ? rel_bits(r->b, false) : NULL;
        for (size_t k = 0; k < all; k++)
            b[k] = y ? x[k] & ~y[k] : x[k];
        break;
    case REL_INV:
        memcpy(b, rel_may(r->a, true), all * sizeof *b);
        break;
    case REL_SEQ:
        rel_bits_compose(b, rel_may(r->a, false), rel_may(r->b, false), n, w);
        break;
    case REL_PLUS:
        rel_bits_close(b, rel_may(r->a, false), n, w);
        break;
    default:   /* a built relation */
        rows_bits(r, b, w);
        break;
    }
    ((struct rel *)r)->may[false] = b;
    return b;
}
