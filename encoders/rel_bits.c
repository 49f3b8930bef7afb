/* Static relations of a cnf with a solver over at most REL_DENSE_MAX
 * events as rows of bits: which pairs a static term holds is decided by
 * the events alone, so a union, intersection or difference is a word
 * operation per row and an inverse a transpose, made once per term (and
 * direction) when first asked for.  Membership is then one bit, a row's
 * size a population count and a row the set bits in order, each pair
 * with its literal both(i, j); no static term is walked per pair or
 * materialized as rows of literals to be read. */
#include "encoders/rel_impl.h"

#include <assert.h>
#include <string.h>

typedef unsigned long long word;

#define WORD_BITS 64

static void set_bit(word *row, int j) { row[(unsigned)j / WORD_BITS] |= 1ull << ((unsigned)j % WORD_BITS); }


/* Row `to` of b becomes a copy of row `from` (w words a row): rows are
 * a word or two, and a loop costs less than a call of memcpy. */
static void copy_row(word *b, int w, int to, int from)
{
    for (int v = 0; v < w; v++)
        b[(size_t)to * w + v] = b[(size_t)from * w + v];
}

/* The rows of a class leaf (its inverse when flip) over at most 64
 * events in b, zeroed, a word a row: each group's word made once in a
 * register (for an ordered class, the words of the members after each
 * member, or before it when flip, as a running mask). */
static void class_word_rows(const struct rel *r, bool flip, word *b)
{
    for (int key = 0; key < r->nkeys; key++) {
        const int *g = r->group + r->group_start[key];
        int size = r->group_start[key + 1] - r->group_start[key];
        word mask = 0;
        if (!r->ordered) {
            for (int m = 0; m < size; m++)
                mask |= 1ull << g[m];
            for (int m = 0; m < size; m++)
                b[g[m]] = mask;
        } else if (flip) {   /* members ascending: each relates to those before it */
            for (int m = 0; m < size; m++) {
                b[g[m]] = mask;
                mask |= 1ull << g[m];
            }
        } else {   /* to those after it */
            for (int m = size - 1; m >= 0; m--) {
                b[g[m]] = mask;
                mask |= 1ull << g[m];
            }
        }
    }
}

/* The rows of a product leaf (its inverse when flip) over at most 64
 * events in b, zeroed, a word a row: one word, made in a register. */
static void product_word_rows(const struct rel *r, bool flip, word *b)
{
    const struct set *x = flip ? r->t : r->s, *y = flip ? r->s : r->t;
    for (int k = 0; k < x->size; k++)
        b[x->members[k]] = y->bits[0];
}

/* The rows of a leaf (its inverse when flip) in b, zeroed, w words a row:
 * rows alike (a product's, the members of one class) made once and
 * copied. */
static void leaf_bits(const struct rel *r, bool flip, word *b, int w)
{
    if (w == 1 && r->op == REL_CLASS) {
        class_word_rows(r, flip, b);
        return;
    }
    if (w == 1 && r->op == REL_PRODUCT) {
        product_word_rows(r, flip, b);
        return;
    }
    switch (r->op) {
    case REL_PRODUCT: {   /* every row of x is y's bits */
        const struct set *x = flip ? r->t : r->s, *y = flip ? r->s : r->t;
        for (int k = 0; k < x->size; k++)
            for (int v = 0; v < w; v++)
                b[(size_t)x->members[k] * w + v] = y->bits[v];
        break;
    }
    case REL_ID:
        for (int k = 0; k < r->s->size; k++)
            set_bit(b + (size_t)r->s->members[k] * w, r->s->members[k]);
        break;
    case REL_CLASS:
        for (int i = 0; i < r->n; i++) {
            int key = r->key[i];
            if (key < 0)
                continue;
            const int *g = r->group + r->group_start[key];
            int size = r->group_start[key + 1] - r->group_start[key];
            if (r->ordered) {   /* members ascending: each relates to those after it (before it when flip) */
                for (int m = 0; m < size; m++)
                    if (flip ? g[m] < i : g[m] > i)
                        set_bit(b + (size_t)i * w, g[m]);
            } else if (g[0] != i) {   /* the first member's row is made, the others copy it */
                copy_row(b, w, i, g[0]);
            } else {
                for (int m = 0; m < size; m++)
                    set_bit(b + (size_t)i * w, g[m]);
            }
        }
        break;
    case REL_ROWS:
        for (int i = 0; i < r->n; i++)
            for (int e = r->rows->start[i]; e < r->rows->start[i + 1]; e++)
                set_bit(b + (size_t)(flip ? r->rows->col[e] : i) * w, flip ? i : r->rows->col[e]);
        break;
    default:
        break;
    }
}

const word *rel_bits_make(const struct rel *r, bool flip)
{
    assert(rel_bits_on(r));
    int n = r->n, w = rel_bits_words(n);
    size_t all = (size_t)n * (size_t)w;
    word *b = rels_alloc_raw(r->home, all, sizeof *b);   /* an operation's bits are written whole */
    switch (r->op) {
    case REL_UNION: case REL_INTER: case REL_DIFF: {
        const word *x = rel_bits(r->a, flip), *y = rel_bits(r->b, flip);
        if (r->op == REL_UNION)   /* one loop per operation, none chosen per word */
            for (size_t k = 0; k < all; k++)
                b[k] = x[k] | y[k];
        else if (r->op == REL_INTER)
            for (size_t k = 0; k < all; k++)
                b[k] = x[k] & y[k];
        else
            for (size_t k = 0; k < all; k++)
                b[k] = x[k] & ~y[k];
        break;
    }
    case REL_INV:
        memcpy(b, rel_bits(r->a, !flip), all * sizeof *b);
        break;
    default:
        memset(b, 0, all * sizeof *b);
        leaf_bits(r, flip, b, w);
        break;
    }
    ((struct rel *)r)->sbits[flip] = b;
    return b;
}


int rel_bits_enum(struct rels *A, const struct rel *r, int i, bool flip)
{
    int w = rel_bits_words(r->n), base = A->stop;
    const word *row = rel_bits(r, flip) + (size_t)i * w;
    rels_stack_reserve(A, r->n);   /* room for a full row: counting the bits first costs more */
    for (int k = 0; k < w; k++)
        for (word x = row[k]; x; x &= x - 1) {
            int j = k * WORD_BITS + __builtin_ctzll(x);
            A->scol[A->stop] = j;
            A->sval[A->stop++] = rels_both(A, i, j);
        }
    return A->stop - base;
}
