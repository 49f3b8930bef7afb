/* The operations of a constant-only cnf (one concrete execution) over at
 * most REL_DENSE_MAX events, made at once: every pair holds or not, so a
 * relation is n rows of bits, and a union, intersection or difference is
 * a word operation per row, a composition an OR of rows, a closure each
 * row's reach (Warshall's beyond 64 events).  The results are REL_ROWS
 * nodes whose rows (every literal LIT_TRUE) are made from the bits when
 * first read (rel_settle), so whatever reads a relation reads these as
 * any other.  A result is made
 * in place in the arena; one with no pair is the arena's empty relation;
 * over rows of several words, one with the pairs of an operand is that
 * operand, so that the operations on it are shortened as on the operand,
 * and its bits are given back (over one-word rows a closure alone is
 * compared: node1).  Results are not consed (making
 * one again costs less than looking it up).  Classes and filters [a]; r;
 * [b] are made as bits at once too, a filter without the product of its
 * sets, and so are the concrete evaluator's own relations (rf, co, ...:
 * rel_build_dense, one builder's arrays reused for them all; its base
 * relations: rel_from_bits). */
#include "encoders/rel_impl.h"

#include <string.h>

typedef unsigned long long word;

#define WORD_BITS 64

/* Words per row over n events. */
static int words_of(int n) { return (int)(((unsigned)n + WORD_BITS - 1) / WORD_BITS); }   /* n >= 0 */

/* j is an event (not negative): unsigned, its word and bit are a shift and a mask. */
static void set_bit(word *row, int j) { row[(unsigned)j / WORD_BITS] |= 1ull << ((unsigned)j % WORD_BITS); }

static bool has_bit(const word *row, int j) { return row[(unsigned)j / WORD_BITS] >> ((unsigned)j % WORD_BITS) & 1; }

/* Row `to` becomes a copy of row `from`. */
static void copy_row(word *b, int w, int to, int from)
{
    for (int v = 0; v < w; v++)   /* a word or a few: no call to memcpy */
        b[(size_t)to * w + v] = b[(size_t)from * w + v];
}

/* The bits of a REL_CLASS leaf: the members of a group, in ascending
 * order, each relate to all of it (to those after it when ordered), so
 * one row per group is made bit by bit and the others are copies. */
static void class_bits(const struct rel *r, word *b, int w)
{
    for (int i = 0; i < r->n; i++) {
        int k = r->key[i];
        if (k < 0 || r->group[r->group_start[k]] != i)   /* not the first of its group */
            continue;
        const int *g = r->group + r->group_start[k];
        int size = r->group_start[k + 1] - r->group_start[k];
        if (r->ordered) {   /* the last's row is empty; each other's is the next's and the next */
            for (int m = size - 2; m >= 0; m--) {
                copy_row(b, w, g[m], g[m + 1]);
                set_bit(b + (size_t)g[m] * w, g[m + 1]);
            }
            continue;
        }
        for (int m = 0; m < size; m++)
            set_bit(b + (size_t)g[0] * w, g[m]);
        for (int m = 1; m < size; m++)
            copy_row(b, w, g[m], g[0]);
    }
}

/* r's pairs as bits (made and kept in r on first use, in its arena): the
 * leaves from their definition (a member of a set, or an event with a key,
 * is executed: its literals are LIT_TRUE), anything else from its rows. */
static const word *bits_of(struct rels *A, const struct rel *r)
{
    if (r->bits)
        return r->bits;
    int n = r->n, w = words_of(n);
    word *b = rels_alloc(r->home, (size_t)n * (size_t)w, sizeof *b);
    if (r->op == REL_PRODUCT && w == 1) {   /* every row of s is t's members, one word */
        for (int x = 0; x < r->s->size; x++)
            b[r->s->members[x]] = r->t->bits[0];
    } else if (r->op == REL_PRODUCT) {   /* every row of s is t's bits */
        for (int x = 0; x < r->s->size; x++)
            for (int v = 0; v < w; v++)
                b[(size_t)r->s->members[x] * w + v] = r->t->bits[v];
    } else if (r->op == REL_ID) {
        for (int x = 0; x < r->s->size; x++)
            set_bit(b + (size_t)r->s->members[x] * w, r->s->members[x]);
    } else if (r->op == REL_CLASS) {
        class_bits(r, b, w);
    } else {
        const struct rel_rows *t = rel_rows_of(A, r);
        for (int i = 0; i < n; i++)
            for (int e = t->start[i]; e < t->start[i + 1]; e++)
                if (t->val[e] == LIT_TRUE)
                    set_bit(b + (size_t)i * w, t->col[e]);
    }
    ((struct rel *)r)->bits = b;
    return b;
}

/* True when the all words at x and y are equal (stops at the first
 * difference: a few words, no call). */
static bool same_words(const word *x, const word *y, size_t all)
{
    for (size_t k = 0; k < all; k++)
        if (x[k] != y[k])
            return false;
    return true;
}

/* The relation with the pairs of bits m (all words, just taken from A,
 * the last thing taken): `same` (A's empty relation, or an operand with
 * those pairs) when there is one (m given back), else a new node of A
 * with them, whose rows are made when something reads them
 * (rel_dense_rows), most never are. */
static struct rel *kept_or_same(struct rels *A, word *m, size_t all, const struct rel *same)
{
    if (same) {
        rels_alloc_undo(A, m, all, sizeof *m);
        return (struct rel *)same;
    }
    struct rel *r = rel_node(A, REL_ROWS);
    r->bits = m;
    return r;
}

/* kept_or_same for bits m (any: the OR of them, 0 when there is no pair)
 * made from operand x (bits a) and y (bits b; b NULL for none): A's empty
 * relation, x or y when it has m's pairs. */
static struct rel *node_of_bits(struct rels *A, word *m, size_t all, word any, const struct rel *x,
                                const word *a, const struct rel *y, const word *b)
{
    const struct rel *same = any == 0 ? A->empty : same_words(m, a, all) ? x
                             : b && same_words(m, b, all) ? y : NULL;
    return kept_or_same(A, m, all, same);
}

/* kept_or_same where the operation's pass gathered, besides any, the
 * bits where m differs from operand x (from_x) and from y (from_y; y NULL
 * for none). */
static struct rel *node_of_diffs(struct rels *A, word *m, size_t all, word any, const struct rel *x, word from_x,
                                 const struct rel *y, word from_y)
{
    const struct rel *same = any == 0 ? A->empty : from_x == 0 ? x : y && from_y == 0 ? y : NULL;
    return kept_or_same(A, m, all, same);
}

void rel_dense_rows(const struct rel *r)
{
    struct rels *A = r->home;
    int n = r->n, w = words_of(n), size = 0;
    const word *m = r->bits;
    for (size_t k = 0; k < (size_t)n * (size_t)w; k++)
        for (word x = m[k]; x; x &= x - 1)
            size++;
    struct rel_rows *t = rows_new(A, n, size);   /* col and val written whole below */
    int at = 0;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < w; k++)
            for (word x = m[(size_t)i * w + k]; x; x &= x - 1) {
                t->col[at] = k * WORD_BITS + __builtin_ctzll(x);
                t->val[at++] = LIT_TRUE;
            }
        t->start[i + 1] = at;
    }
    ((struct rel *)r)->rows = t;
    A->pairs += size;
}

/* Rows m (n rows of w words, zeroed) become a; b: for each pair (i, k)
 * of a, row k of b ORed into row i (one-word rows: seq1).  Returns the OR
 * of m's words (0: no pair). */
static word seq_bits(word *m, const word *a, const word *b, int n, int w)
{
    word any = 0;
    for (int i = 0; i < n; i++)
        for (int v = 0; v < w; v++)
            for (word bit = a[(size_t)i * w + v]; bit; bit &= bit - 1) {
                const word *row = b + (size_t)(v * WORD_BITS + __builtin_ctzll(bit)) * w;
                for (int u = 0; u < w; u++)
                    any |= m[(size_t)i * w + u] |= row[u];
            }
    return any;
}

/* True when row k of m (rows of w words) has no pair. */
static bool row_empty(const word *m, int w, int k)
{
    for (int v = 0; v < w; v++)
        if (m[(size_t)k * w + v])
            return false;
    return true;
}

/* Rows m (n rows of w words) become their transitive closure by
 * Warshall (after step k, paths through 0..k are edges; one-word rows:
 * plus1); a step whose row k is empty adds nothing and is skipped. */
static void plus_bits(word *m, int n, int w)
{
    for (int k = 0; k < n; k++) {
        if (row_empty(m, w, k))
            continue;
        for (int i = 0; i < n; i++)
            if (has_bit(m + (size_t)i * w, k))
                for (int v = 0; v < w; v++)
                    m[(size_t)i * w + v] |= m[(size_t)k * w + v];
    }
}

/* x | y, x & y or x \ y (op) over rows of several words, word by word
 * (not inline: kept out of rel_dense_op, whose one-word operations then
 * save fewer registers).  A union's or intersection's words are then compared
 * with its operands' (node_of_bits: most differ in a first word), which
 * costs less than gathering where they differ in the pass; a
 * difference gathers the pairs of x it drops. */
__attribute__((noinline)) static struct rel *word_op(struct rels *A, enum rel_op op, const struct rel *x,
                                                     const struct rel *y)
{
    size_t all = (size_t)A->n * (size_t)words_of(A->n);
    const word *a = bits_of(A, x), *b = bits_of(A, y);
    word *m = rels_alloc_raw(A, all, sizeof *m), any = 0;   /* taken last: given back if not kept */
    word from_a = 0;   /* a difference's pairs of a it drops */
    switch (op) {
    case REL_UNION:
        for (size_t k = 0; k < all; k++)
            any |= m[k] = a[k] | b[k];
        return node_of_bits(A, m, all, any, x, a, y, b);
    case REL_INTER:
        for (size_t k = 0; k < all; k++)
            any |= m[k] = a[k] & b[k];
        return node_of_bits(A, m, all, any, x, a, y, b);
    default:   /* REL_DIFF: never b's pairs unless empty (a \ b = b leaves b empty) */
        for (size_t k = 0; k < all; k++) {
            any |= m[k] = a[k] & ~b[k];
            from_a |= a[k] & b[k];
        }
        return node_of_diffs(A, m, all, any, x, from_a, NULL, 0);
    }
}

/* The inverse, composition and closure of rel_dense_op over rows of
 * several words (not inline, as word_op). */
__attribute__((noinline)) static struct rel *row_op(struct rels *A, enum rel_op op, const struct rel *x,
                                                    const struct rel *y)
{
    int n = A->n, w = words_of(n);
    size_t all = (size_t)n * (size_t)w;
    const word *a = bits_of(A, x), *b = y ? bits_of(A, y) : NULL;
    word *m = rels_alloc_raw(A, all, sizeof *m), any = 0;   /* taken last: given back if not kept */
    switch (op) {
    case REL_INV:   /* has a pair when a has one */
        memset(m, 0, all * sizeof *m);
        for (int i = 0; i < n; i++)
            for (int v = 0; v < w; v++) {
                any |= a[(size_t)i * w + v];
                for (word bit = a[(size_t)i * w + v]; bit; bit &= bit - 1)
                    set_bit(m + (size_t)(v * WORD_BITS + __builtin_ctzll(bit)) * w, i);
            }
        break;
    case REL_SEQ:
        memset(m, 0, all * sizeof *m);
        any = seq_bits(m, a, b, n, w);
        break;
    case REL_PLUS:   /* has a pair when a has one */
        for (size_t k = 0; k < all; k++)
            any |= m[k] = a[k];
        plus_bits(m, n, w);
        break;
    default:   /* no other operation is made as bits: no pair */
        memset(m, 0, all * sizeof *m);
        break;
    }
    struct rel *r = node_of_bits(A, m, all, any, x, a, y, b);
    r->transitive |= op == REL_PLUS;
    return r;
}

/* The n words at x and y are equal (one-word rows: a word a row; the
 * first compared inline, most differ there). */
static inline bool same_rows1(const word *x, const word *y, int n)
{
    return x[0] == y[0] && memcmp(x, y, (size_t)n * sizeof *x) == 0;
}

/* Words a node takes (a node is a whole number of words: rel_zero). */
#define NODE_WORDS (sizeof(struct rel) / sizeof(word))

/* The count words of a result's bits with room for its node after them,
 * taken at once (the last thing taken from A: given back whole when the
 * result is not kept). */
static inline word *take_words(struct rels *A, size_t count)
{
    return rels_alloc_raw(A, count + NODE_WORDS, sizeof(word));
}

/* The result with the count words of bits m (from take_words): `same`
 * when there is one (m and the node's room given back), else a new node
 * of A, placed after m, as rel_node makes one. */
static inline struct rel *kept_words(struct rels *A, word *m, size_t count, const struct rel *same)
{
    if (same) {
        rels_alloc_undo(A, m, count + NODE_WORDS, sizeof *m);
        return (struct rel *)same;
    }
    struct rel *r = (struct rel *)(m + count);
    rel_zero(r);
    r->n = A->n;
    r->op = REL_ROWS;
    r->home = A;
    r->order = A->next_order++;
    r->bits = m;
    return r;
}

/* The result of an operation over one-word rows (m from take_words, any
 * the OR of its words): A's empty relation when it has no pair, else a
 * new node.  It is not compared with its operands: over one word a row,
 * the comparisons cost more than the shortcuts on an operand save (a
 * closure alone is, plus1: one of a relation closed already is common). */
static inline struct rel *node1(struct rels *A, word *m, int n, word any)
{
    return kept_words(A, m, (size_t)n, any == 0 ? A->empty : NULL);
}

/* x | y over one-word rows. */
static struct rel *union1(struct rels *A, const struct rel *x, const struct rel *y)
{
    int n = A->n;
    const word *a = bits_of(A, x), *b = bits_of(A, y);
    word *m = take_words(A, (size_t)n), any = 0;
    for (int i = 0; i < n; i++)
        any |= m[i] = a[i] | b[i];
    return node1(A, m, n, any);
}

/* x & y over one-word rows. */
static struct rel *inter1(struct rels *A, const struct rel *x, const struct rel *y)
{
    int n = A->n;
    const word *a = bits_of(A, x), *b = bits_of(A, y);
    word *m = take_words(A, (size_t)n), any = 0;
    for (int i = 0; i < n; i++)
        any |= m[i] = a[i] & b[i];
    return node1(A, m, n, any);
}

/* x \ y over one-word rows: x itself when y drops none of its pairs. */
static struct rel *diff1(struct rels *A, const struct rel *x, const struct rel *y)
{
    int n = A->n;
    const word *a = bits_of(A, x), *b = bits_of(A, y);
    word *m = take_words(A, (size_t)n), any = 0;
    for (int i = 0; i < n; i++)
        any |= m[i] = a[i] & ~b[i];
    return node1(A, m, n, any);
}

/* x ; y over one-word rows: each row made in a register. */
static struct rel *seq1(struct rels *A, const struct rel *x, const struct rel *y)
{
    int n = A->n;
    const word *a = bits_of(A, x), *b = bits_of(A, y);
    word *m = take_words(A, (size_t)n), any = 0;
    for (int i = 0; i < n; i++) {
        word row = 0;
        for (word bit = a[i]; bit; bit &= bit - 1)
            row |= b[__builtin_ctzll(bit)];
        any |= m[i] = row;
    }
    return node1(A, m, n, any);
}

/* x^-1 over one-word rows. */
static struct rel *inv1(struct rels *A, const struct rel *x)
{
    int n = A->n;
    const word *a = bits_of(A, x);
    word *m = take_words(A, (size_t)n), any = 0;
    for (int i = 0; i < n; i++)
        m[i] = 0;
    for (int i = 0; i < n; i++) {
        any |= a[i];
        for (word bit = a[i]; bit; bit &= bit - 1)
            m[__builtin_ctzll(bit)] |= 1ull << i;
    }
    return node1(A, m, n, any);
}

/* x+ over one-word rows. */
static struct rel *plus1(struct rels *A, const struct rel *x)
{
    int n = A->n;
    const word *a = bits_of(A, x);
    word *m = take_words(A, (size_t)n), any = 0;
    for (int i = 0; i < n; i++)
        any |= m[i] = a[i];
    rel_close_word_rows(m, n);
    struct rel *r = kept_words(A, m, (size_t)n, any == 0 ? A->empty : same_rows1(m, a, n) ? x : NULL);   /* x when closed already */
    r->transitive = true;
    return r;
}

struct rel *rel_dense_op(struct rels *A, enum rel_op op, const struct rel *x, const struct rel *y)
{
    if (A->n <= WORD_BITS)   /* one word a row: each operation on its own, inline */
        switch (op) {
        case REL_UNION: return union1(A, x, y);
        case REL_INTER: return inter1(A, x, y);
        case REL_DIFF: return diff1(A, x, y);
        case REL_SEQ: return seq1(A, x, y);
        case REL_INV: return inv1(A, x);
        case REL_PLUS: return plus1(A, x);
        default: break;
        }
    if (op == REL_UNION || op == REL_INTER || op == REL_DIFF)
        return word_op(A, op, x, y);
    return row_op(A, op, x, y);
}

/* rel_dense_class over one-word rows and nkeys <= 64 keys: each key's
 * executed members as one word, each member's row that word (ordered:
 * its bits past the member). */
static struct rel *class_in_words(struct rels *A, const int *key, bool ordered, int nkeys)
{
    int n = A->n;
    word members[WORD_BITS], any = 0;
    for (int k = 0; k < nkeys; k++)
        members[k] = 0;
    for (int i = 0; i < n; i++)
        if (key[i] >= 0 && A->exec[i] != LIT_FALSE)
            members[key[i]] |= 1ull << i;
    word *m = rels_alloc_raw(A, (size_t)n, sizeof *m);   /* taken last: given back if it has no pair */
    for (int i = 0; i < n; i++) {
        word row = key[i] >= 0 && A->exec[i] != LIT_FALSE ? members[key[i]] : 0;
        if (ordered)
            row &= ~((1ull << i << 1) - 1);   /* the members after i */
        m[i] = row;
        any |= row;
    }
    if (!any) {
        rels_alloc_undo(A, m, (size_t)n, sizeof *m);
        return (struct rel *)A->empty;
    }
    struct rel *r = rel_node(A, REL_ROWS);
    r->bits = m;
    r->transitive = true;
    return r;
}

struct rel *rel_dense_class(struct rels *A, const int *key, bool ordered)
{
    int n = A->n, w = words_of(n), nkeys = 0;
    for (int i = 0; i < n; i++)
        if (key[i] >= nkeys)
            nkeys = key[i] + 1;
    if (w == 1 && nkeys <= WORD_BITS)
        return class_in_words(A, key, ordered, nkeys);
    rels_stack_reserve(A, nkeys);   /* scratch: per key, the member whose row the next copies */
    int *at = A->scol + A->stop;
    for (int k = 0; k < nkeys; k++)
        at[k] = -1;
    size_t all = (size_t)n * (size_t)w;
    word *m = rels_alloc(A, all, sizeof *m), any = 0;   /* taken last: given back if it has no pair */
    if (ordered) {   /* from the last: a row is the next member's row and that member */
        for (int i = n - 1; i >= 0; i--) {
            int k = A->exec[i] == LIT_FALSE ? -1 : key[i];
            if (k < 0)
                continue;
            if (at[k] >= 0) {
                copy_row(m, w, i, at[k]);
                set_bit(m + (size_t)i * w, at[k]);
                any = 1;
            }
            at[k] = i;
        }
    } else {   /* the first member's row made bit by bit, the others copied */
        for (int i = 0; i < n; i++) {
            int k = A->exec[i] == LIT_FALSE ? -1 : key[i];
            if (k < 0)
                continue;
            if (at[k] < 0)
                at[k] = i;
            set_bit(m + (size_t)at[k] * w, i);
            any = 1;
        }
        for (int i = 0; i < n; i++) {
            int k = A->exec[i] == LIT_FALSE ? -1 : key[i];
            if (k >= 0 && at[k] != i)
                copy_row(m, w, i, at[k]);
        }
    }
    if (!any) {
        rels_alloc_undo(A, m, all, sizeof *m);
        return (struct rel *)A->empty;
    }
    struct rel *r = rel_node(A, REL_ROWS);
    r->bits = m;
    r->transitive = true;
    return r;
}

/* rel_dense_filter over rows of several words (not inline, as word_op). */
__attribute__((noinline)) static struct rel *filter_words(struct rels *A, const struct set *a, const struct rel *x,
                                                          const struct set *b)
{
    int n = A->n, w = words_of(n);
    size_t all = (size_t)n * (size_t)w;
    const word *cols = b->bits, *rows = a->bits;
    const word *r = bits_of(A, x);
    word *m = rels_alloc_raw(A, all, sizeof *m), any = 0, from_x = 0;   /* taken last: given back if not kept */
    for (int i = 0; i < n; i++) {
        bool row = has_bit(rows, i);
        for (int v = 0; v < w; v++) {
            size_t k = (size_t)i * w + v;
            any |= m[k] = row ? r[k] & cols[v] : 0;
            from_x |= m[k] ^ r[k];
        }
    }
    return node_of_diffs(A, m, all, any, x, from_x, NULL, 0);
}

struct rel *rel_dense_filter(struct rels *A, const struct set *a, const struct rel *x, const struct set *b)
{
    if (x->empty || a->size == 0 || b->size == 0)
        return (struct rel *)A->empty;
    int n = A->n;
    if (n > WORD_BITS)
        return filter_words(A, a, x, b);
    /* one word a row: the columns kept (every one for A's set: an event
     * outside it is in no row) */
    word cols = b == A->all ? ~0ull : b->bits[0], rows = a->bits[0];
    const word *r = bits_of(A, x);
    word *m = take_words(A, (size_t)n), any = 0;
    if (a == A->all)   /* every row */
        for (int i = 0; i < n; i++)
            any |= m[i] = r[i] & cols;
    else
        for (int i = 0; i < n; i++)
            any |= m[i] = rows >> i & 1 ? r[i] & cols : 0;
    return node1(A, m, n, any);
}

const struct rel *rel_build_dense(struct rels *A, struct rel_builder *bld)
{
    if (!rel_dense(A)) {   /* rel_build frees the builder it reads: a copy of bld's pairs */
        struct rel_builder copy;
        rel_builder_init(&copy);
        for (int k = 0; k < bld->count; k++)
            rel_add(&copy, bld->i[k], bld->j[k], bld->l[k]);
        bld->count = 0;
        return rel_build(A, &copy, false);
    }
    int n = A->n, w = words_of(n);
    size_t all = (size_t)n * (size_t)w;
    word *m = rels_alloc(A, all, sizeof *m);   /* taken last: given back if it has no pair */
    for (int k = 0; k < bld->count; k++) {   /* in order: the last literal of a pair wins */
        unsigned j = (unsigned)bld->j[k];   /* an event: not negative */
        word *row = m + (size_t)bld->i[k] * w, bit = 1ull << (j % WORD_BITS);
        if (bld->l[k] == LIT_FALSE)
            row[j / WORD_BITS] &= ~bit;
        else
            row[j / WORD_BITS] |= bit;
    }
    bld->count = 0;   /* its arrays kept for the caller's next relation */
    word any = 0;
    for (size_t k = 0; k < all; k++)
        any |= m[k];
    if (any == 0) {
        rels_alloc_undo(A, m, all, sizeof *m);
        return A->empty;
    }
    struct rel *r = rel_node(A, REL_ROWS);
    r->bits = m;
    return r;
}

bool rels_dense(const struct rels *A) { return rel_dense(A); }

const struct rel *rel_from_bits(struct rels *A, const unsigned long long *rows, bool transitive)
{
    size_t all = (size_t)A->n * (size_t)words_of(A->n);
    word *bits = take_words(A, all);
    size_t k = 0;
    while (k < all && rows[k] == 0)   /* the first pair, most often in the first rows */
        k++;
    if (k < all)
        memcpy(bits, rows, all * sizeof *bits);
    struct rel *r = kept_words(A, bits, all, k == all ? A->empty : NULL);
    if (r != A->empty)
        r->transitive = transitive;
    return r;
}

/* The operations of rel.h where rel_dense(A), without the lazy terms'
 * layers (rel_ops.c: consing, guards, asserts): the same shortcuts where an
 * operand is empty, an identity or the other operand (rel_impl.h's
 * *_without_op), then the operation on one-word rows inline, on wider rows
 * as rel_dense_op. */

const struct rel *rel_dense_or(struct rels *A, const struct rel *r, const struct rel *s)
{
    const struct rel *done = union_without_op(&r, &s);
    if (done)
        return done;
    return A->n <= WORD_BITS ? union1(A, r, s) : word_op(A, REL_UNION, r, s);
}

const struct rel *rel_dense_and(struct rels *A, const struct rel *r, const struct rel *s)
{
    const struct rel *done = inter_without_op(A, &r, &s);
    if (done)
        return done;
    struct rel *m = A->n <= WORD_BITS ? inter1(A, r, s) : word_op(A, REL_INTER, r, s);
    m->transitive |= r->transitive && s->transitive;
    return m;
}

const struct rel *rel_dense_minus(struct rels *A, const struct rel *r, const struct rel *s)
{
    const struct rel *done = diff_without_op(A, r, s);
    if (done)
        return done;
    return A->n <= WORD_BITS ? diff1(A, r, s) : word_op(A, REL_DIFF, r, s);
}

const struct rel *rel_dense_restrict(struct rels *A, const struct set *a, const struct rel *r, const struct set *b)
{
    if (filter_keeps_all(A, a, b))
        return r;
    return rel_dense_filter(A, a ? a : A->all, r, b ? b : A->all);
}

const struct rel *rel_dense_seq(struct rels *A, const struct rel *r, const struct rel *s)
{
    if (r->empty || s->empty)
        return A->empty;
    if (r->op == REL_ID)
        return rel_dense_restrict(A, r->s, s, NULL);
    if (s->op == REL_ID)
        return rel_dense_restrict(A, NULL, r, s->s);
    return A->n <= WORD_BITS ? seq1(A, r, s) : row_op(A, REL_SEQ, r, s);
}

const struct rel *rel_dense_inv(struct rels *A, const struct rel *r)
{
    const struct rel *done = inv_without_op(r);
    if (done)
        return done;
    struct rel *m = A->n <= WORD_BITS ? inv1(A, r) : row_op(A, REL_INV, r, NULL);
    m->transitive |= r->transitive;
    return m;
}

const struct rel *rel_dense_plus(struct rels *A, const struct rel *r)
{
    if (r->empty || r->transitive)
        return r;
    return A->n <= WORD_BITS ? plus1(A, r) : row_op(A, REL_PLUS, r, NULL);
}

const struct rel *rel_dense_opt(struct rels *A, const struct rel *r)
{
    if (!A->id_all)
        A->id_all = rel_id(A, A->all);
    return rel_dense_or(A, r, A->id_all);
}
