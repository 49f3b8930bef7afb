/* Internals of the relation layer, shared by rel_arena.c (the arena,
 * hash-consing, sets, built relations), rel_eval.c (pairs and row-size
 * estimates), rel_rows.c (rows: enumerated, stored, materialized),
 * rel_ops.c (the operations), rel_query.c (reading and axiom
 * literals), rel_bits.c (static terms as rows of bits) and rel_may.c
 * (every relation's candidate pairs as rows of bits); nothing
 * outside encoders/rel*.c includes it. */
#ifndef GPUBMC_REL_IMPL_H
#define GPUBMC_REL_IMPL_H

#include <stdint.h>
#include <string.h>

#include "encoders/rel.h"

/* Operations consed beside the relation kinds. */
enum { CONS_PLUS = 32, CONS_SET_UNION, CONS_SET_INTER, CONS_SET_DIFF, CONS_SET_CONTENT };

struct cons_slot { int op; const void *x, *y; void *node; };

/* A composition's row under construction: per event its literal so far
 * (LIT_FALSE: none), and the events touched; both arrays lie in the
 * record's own block (one free). */
struct accumulator { lit *acc; int *touched; };

/* Rows of a lazy relation kept as they are first read (len < 0: not yet). */
struct row_store { int *len; int **col; lit **val; };

/* A block of arena memory: its size and the bytes handed out of it when
 * it was taken (the block being bumped hands out more: rels.bump). */
struct arena_block { char *p; size_t size, used; };

struct rels {
    struct cnf *c;
    const struct rels *parent;   /* a child arena's parent (its sets are reused), else NULL */
    int n;
    lit *exec;
    const struct set *all;
    const struct rel *empty;
    const struct rel *id_all;    /* [every event], once rel_dense_opt has made it */
    struct arena_block *owned;   /* every block the arena gives back */
    int nowned, owned_cap;
    char *bump, *bump_end;       /* the free bytes of the block being bumped */
    size_t block_size;
    struct cons_slot *cons;      /* open addressing; op == 0: empty */
    size_t cons_cap, cons_used;
    int *cons_at;                /* the cons_used slots taken, in cons */
    struct cons_slot miss;       /* the key of the last lookup that missed (op 0: none), */
    size_t miss_at;              /* and the empty slot where its probe ended */
    int *scol;                   /* the row stack: entries (scol, sval)[0 .. stop) */
    lit *sval;
    int stop, scap;
    struct accumulator **accs;   /* per nesting depth of compositions being enumerated */
    int depth, naccs;
    bool dense;                  /* its operations are made at once as bits (rel_dense) */
    bool static_bits;            /* its static relations are rows of bits (rel_bits.c): a cnf
                                    with a solver and at most REL_DENSE_MAX events */
    long pairs;
    long next_order;             /* of the next relation made */
    unsigned long long exec_value[REL_DENSE_MAX / 64]; /* the events that execute in the model */
    unsigned exec_value_of;      /* numbered as rel.value_of (rel_value.c), 0: none yet */
    unsigned exec_stamp;         /* bumped when exec_value changes from one model to the next */
};

/* rels_alloc_raw of bytes (a multiple of 8) from a new block. */
void *rels_alloc_block(struct rels *A, size_t bytes);
/* The bytes rels_alloc takes for count elements of size bytes: none for
 * none (an empty array is never read; an arena's first allocation, in
 * arena_new, takes some, so that even an empty one is not NULL). */
static inline size_t rels_alloc_bytes(size_t count, size_t size)
{
    return (count * size + 7) & ~(size_t)7;
}
/* Memory owned by the arena (8-byte aligned, NOT zeroed: for an array
 * written whole before it is read): bumped from the current block where
 * it fits. */
static inline void *rels_alloc_raw(struct rels *A, size_t count, size_t size)
{
    size_t bytes = rels_alloc_bytes(count, size);
    if (bytes <= (size_t)(A->bump_end - A->bump)) {
        void *p = A->bump;
        A->bump += bytes;
        return p;
    }
    return rels_alloc_block(A, bytes);
}
/* Gives back p, count elements of size bytes that rels_alloc_raw took
 * last, when it was bumped from the current block (else it stays A's). */
static inline void rels_alloc_undo(struct rels *A, void *p, size_t count, size_t size)
{
    size_t bytes = rels_alloc_bytes(count, size);
    if ((char *)p + bytes == A->bump)
        A->bump -= bytes;
}
/* Zeroed memory owned by the arena (zeroed here, when taken: the arena's
 * blocks are not zeroed when given back). */
static inline void *rels_alloc(struct rels *A, size_t count, size_t size)
{
    return memset(rels_alloc_raw(A, count, size), 0, rels_alloc_bytes(count, size));
}
/* Sixteen zero bytes stored at once (arena memory is 8-byte aligned). */
typedef unsigned long long rel_zero16 __attribute__((vector_size(16), may_alias, aligned(8)));
typedef unsigned long long rel_zero8 __attribute__((may_alias));
_Static_assert(sizeof(struct rel) % 8 == 0, "a node is zeroed 16 and 8 bytes at a time");
/* Zeroes node r with a store per 16 bytes: a node is made some hundred
 * times a setup, and the string store a memset of its size compiles to
 * costs each time a start-up and an instruction per 8 bytes. */
static inline void rel_zero(struct rel *r)
{
    rel_zero16 *p = (rel_zero16 *)r;
#pragma GCC unroll 16
    for (size_t k = 0; k < sizeof *r / sizeof *p; k++)
        p[k] = (rel_zero16){ 0, 0 };
    if (sizeof *r % sizeof *p)
        ((rel_zero8 *)r)[sizeof *r / 8 - 1] = 0;
}
/* A new relation node of kind op (zeroed, owned by A). */
static inline struct rel *rel_node(struct rels *A, enum rel_op op)
{
    struct rel *r = rels_alloc_raw(A, 1, sizeof *r);
    rel_zero(r);
    r->n = A->n;
    r->op = op;
    r->home = A;
    r->order = A->next_order++;
    return r;
}
/* The answers the operations of rel.h give without an operation, shared by
 * the lazy terms (rel_ops.c) and the dense ones (rel_dense.c): an operand
 * empty, an identity or the other operand.  Each returns NULL when the
 * operation must be made; a union or intersection then has the older
 * operand in *r. */
static inline void rels_older_first(const struct rel **r, const struct rel **s)
{
    if ((*r)->order > (*s)->order) {
        const struct rel *t = *r;
        *r = *s;
        *s = t;
    }
}
static inline const struct rel *union_without_op(const struct rel **r, const struct rel **s)
{
    if (*r == *s || (*s)->empty)
        return *r;
    if ((*r)->empty)
        return *s;
    rels_older_first(r, s);
    return NULL;
}
static inline const struct rel *inter_without_op(struct rels *A, const struct rel **r, const struct rel **s)
{
    if (*r == *s)
        return *r;
    if ((*r)->empty || (*s)->empty)
        return A->empty;
    rels_older_first(r, s);
    return NULL;
}
static inline const struct rel *diff_without_op(struct rels *A, const struct rel *r, const struct rel *s)
{
    if (r == s || r->empty)
        return A->empty;
    return s->empty ? r : NULL;
}
/* Whether [a]; r; [b] is r itself: each side absent (NULL) or every event. */
static inline bool filter_keeps_all(const struct rels *A, const struct set *a, const struct set *b)
{
    return (!a || a == A->all) && (!b || b == A->all);
}
static inline const struct rel *inv_without_op(const struct rel *r)
{
    if (r->empty || (r->op == REL_CLASS && !r->ordered) || r->op == REL_ID ||
        (r->op == REL_PRODUCT && r->s == r->t))
        return r;
    return r->op == REL_INV ? r->a : NULL;
}
/* The slot where a probe for (op, x, y) starts in A's table. */
static inline size_t rels_cons_home(const struct rels *A, int op, const void *x, const void *y)
{
    uint64_t h = (uint64_t)(uintptr_t)x * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)(uintptr_t)y * 0xC2B2AE3D27D4EB4Full + (uint64_t)op;
    h ^= h >> 31;
    return (size_t)h & (A->cons_cap - 1);
}
/* rels_cons_get past its probe's first slot k (taken by another key). */
void *rels_cons_get_slow(struct rels *A, int op, const void *x, const void *y, size_t k);
/* The node consed under (op, x, y), or NULL; rels_cons_put records one.
 * The probe's first slot is read here: most lookups end there. */
static inline void *rels_cons_get(struct rels *A, int op, const void *x, const void *y)
{
    size_t k = rels_cons_home(A, op, x, y);
    const struct cons_slot *s = &A->cons[k];
    if (s->op == op && s->x == x && s->y == y)
        return s->node;
    if (s->op)
        return rels_cons_get_slow(A, op, x, y, k);
    A->miss = (struct cons_slot){ op, x, y, NULL };
    A->miss_at = k;
    return NULL;
}
/* rels_cons_put where its slot is not at hand: grows the table when full. */
void rels_cons_put_slow(struct rels *A, int op, const void *x, const void *y, void *node);
/* Records node under (op, x, y): at once where the last lookup missed
 * that key and the table has room, else rels_cons_put_slow. */
static inline void rels_cons_put(struct rels *A, int op, const void *x, const void *y, void *node)
{
    if (A->miss.op == op && A->miss.x == x && A->miss.y == y && 2 * (A->cons_used + 1) <= A->cons_cap
        && !A->cons[A->miss_at].op) {
        A->miss.op = 0;
        A->cons[A->miss_at] = (struct cons_slot){ op, x, y, node };
        A->cons_at[A->cons_used++] = (int)A->miss_at;
        return;
    }
    rels_cons_put_slow(A, op, x, y, node);
}
/* Doubles A's table (rels_cons_slot's slow path). */
void rels_cons_grow(struct rels *A);
/* The slot of (op, x, y) in A's table: the consed node's (node not NULL),
 * else the empty one where it goes, in a table with room for it, for
 * rels_cons_fill (no other key may be consed in between).  One probe
 * for a look-up and its entry, where rels_cons_get and rels_cons_put
 * make two. */
static inline struct cons_slot *rels_cons_slot(struct rels *A, int op, const void *x, const void *y)
{
    if (2 * (A->cons_used + 1) > A->cons_cap)
        rels_cons_grow(A);
    size_t k = rels_cons_home(A, op, x, y);
    for (;; k = (k + 1) & (A->cons_cap - 1)) {
        struct cons_slot *s = &A->cons[k];
        if (!s->op || (s->op == op && s->x == x && s->y == y))
            return s;
    }
}
/* Conses node under (op, x, y) in s, the empty slot rels_cons_slot gave. */
static inline void rels_cons_fill(struct rels *A, struct cons_slot *s, int op, const void *x, const void *y,
                                  void *node)
{
    *s = (struct cons_slot){ op, x, y, node };
    A->cons_at[A->cons_used++] = (int)(s - A->cons);
}
/* Grows the row stack to room for k more entries (rels_stack_reserve's
 * slow path). */
void rels_stack_grow(struct rels *A, int k);
/* Makes room for k more entries on the row stack. */
static inline void rels_stack_reserve(struct rels *A, int k)
{
    if (A->stop + k > A->scap)
        rels_stack_grow(A, k);
}

/* Materializes static composite r when its may-set is small (walking a
 * term per pair costs more than listing a few thousand pairs once) and
 * its arena has no static bits (rel_bits.c), and the rows of a node made
 * as bits (rel_dense_op) on its first read. */
void rel_settle_slow(const struct rel *r);
static inline void rel_settle(const struct rel *r)
{
    if (!r->rows && !r->unsettled)
        rel_settle_slow(r);
}
/* The cnf's closure of r->a (r a REL_PLUS), built on first use. */
int rel_closure_of(struct rels *A, const struct rel *r);
/* Static membership of (i, j) in static r. */
bool rel_has(const struct rel *r, int i, int j);
/* The literal of (i, j) in r, computed with A's cnf. */
lit rel_at(struct rels *A, const struct rel *r, int i, int j);
/* Pushes row i of r (of r^-1 when flip) on A's row stack, sorted, none
 * LIT_FALSE; returns the number of entries pushed. */
int rel_enum(struct rels *A, const struct rel *r, int i, bool flip);
/* An estimate of the size of that row: 0 only when it is empty. */
long rel_est(struct rels *A, const struct rel *r, int i, bool flip);
/* Row i of r (columns sorted, none LIT_FALSE), from its rows, its closure or
 * its row store, made on first read; valid while r's arena lives. */
int rel_row_of(struct rels *A, const struct rel *r, int i, const int **cols, const lit **lits);
/* r's rows, materialized on first use; the rows of r^-1 likewise. */
const struct rel_rows *rel_rows_of(struct rels *A, const struct rel *r);
const struct rel_rows *rel_cols_of(struct rels *A, const struct rel *r);
/* The index of (i, j) in rows t, or -1. */
int rows_find(const struct rel_rows *t, int i, int j);
/* True when A's operations are made at once as bits: a constant-only cnf
 * and at most REL_DENSE_MAX events. */
static inline bool rel_dense(const struct rels *A) { return A->dense; }
/* op(x, y) (y NULL for REL_INV and REL_PLUS) made at once as bits: A's
 * empty relation when it has no pair, x or y when it has their pairs
 * (over one-word rows: x for a closure alone), else a new node of A. */
struct rel *rel_dense_op(struct rels *A, enum rel_op op, const struct rel *x, const struct rel *y);
/* rel_class's relation made at once as bits: A's empty relation when it
 * has no pair, else a new node of A (transitive). */
struct rel *rel_dense_class(struct rels *A, const int *key, bool ordered);
/* [a]; x; [b] (a and b sets of A) made at once as bits, without the
 * product of a and b: A's empty relation when it has no pair, x when it
 * has x's pairs over rows of several words, else a new node of A. */
struct rel *rel_dense_filter(struct rels *A, const struct set *a, const struct rel *x, const struct set *b);
/* Makes the rows of such a node from its bits (rel_settle does, on the
 * first read). */
void rel_dense_rows(const struct rel *r);
/* Words per row of bits over n events. */
static inline int rel_bits_words(int n) { return (int)(((unsigned)n + 63) / 64); }   /* n >= 0: no sign fix */
/* Makes and keeps (in r's arena) the bits rel_bits returns. */
const unsigned long long *rel_bits_make(const struct rel *r, bool flip);
/* The pairs of static r (of r^-1 when flip) as rows of bits, row i at
 * words i * rel_bits_words(n) ..; made on first use; only where r's arena
 * has static_bits. */
static inline const unsigned long long *rel_bits(const struct rel *r, bool flip)
{
    return r->sbits[flip] ? r->sbits[flip] : rel_bits_make(r, flip);
}
/* The bits set in x. */
static inline int rel_bits_ones(unsigned long long x)
{
    x -= x >> 1 & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + (x >> 2 & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)(x * 0x0101010101010101ull >> 56);
}
/* Closes the n one-word rows of bits at m in place (m+: a row gains the
 * rows of what it reaches until nothing new is reached), at the cost of
 * the closure's pairs, not n * n. */
static inline void rel_close_word_rows(unsigned long long *m, int n)
{
    for (int i = 0; i < n; i++) {
        unsigned long long reach = m[i], todo = reach;   /* todo: reached, its row not yet read */
        while (todo) {
            unsigned long long more = m[__builtin_ctzll(todo)] & ~reach;
            todo &= todo - 1;
            reach |= more;
            todo |= more;
        }
        m[i] = reach;
    }
}
/* The ones of row i of rows, rows of bits over n events. */
static inline int rel_row_ones(const unsigned long long *rows, int n, int i)
{
    int w = rel_bits_words(n), count = 0;
    const unsigned long long *row = rows + (size_t)i * w;
    for (int k = 0; k < w; k++)
        count += rel_bits_ones(row[k]);
    return count;
}
/* The size of row i of static r (column when flip), from its bits. */
static inline int rel_bits_count(const struct rel *r, int i, bool flip)
{
    return rel_row_ones(rel_bits(r, flip), r->n, i);
}
/* Pushes row i of static r (column when flip) from its bits, each pair
 * with its literal both; returns the number pushed. */
int rel_bits_enum(struct rels *A, const struct rel *r, int i, bool flip);
/* True when static r's pairs are read from its bits. */
static inline bool rel_bits_on(const struct rel *r) { return r->is_static && r->home->static_bits; }

/* b = the transpose of x, n rows of w words (zeroed first). */
void rel_bits_transpose(unsigned long long *b, const unsigned long long *x, int n, int w);
/* b = x ; y over n rows of w words: row i the OR of y's rows k for the
 * bits k of x's row i. */
void rel_bits_compose(unsigned long long *b, const unsigned long long *x, const unsigned long long *y, int n,
                      int w);
/* b = x+ over n rows of w words: with one word a row, each row gathers
 * what its events reach, row by row (rows already closed or not, both lie
 * between x and x+), which costs the pairs of the closure; wider rows by
 * Warshall's algorithm on bits (a node whose row is empty leads nowhere
 * and is skipped). */
void rel_bits_close(unsigned long long *b, const unsigned long long *x, int n, int w);

/* True when r has candidate rows of bits (rel_may): its arena's static
 * relations are rows of bits. */
static inline bool rel_may_on(const struct rel *r) { return r->home->static_bits; }
/* Makes and keeps (in r's arena) the bits rel_may returns. */
const unsigned long long *rel_may_make(const struct rel *r, bool flip);
/* A superset of the pairs of r (of r^-1 when flip) as rows of bits, row i
 * at words i * rel_bits_words(n) ..: a pair outside it is LIT_FALSE; made
 * on first use, only where rel_may_on(r). */
static inline const unsigned long long *rel_may(const struct rel *r, bool flip)
{
    return r->may[flip] ? r->may[flip] : rel_may_make(r, flip);
}
/* True when (i, j) is a candidate pair of r (where rel_may_on(r)). */
static inline bool rel_may_has(const struct rel *r, int i, int j)
{
    return rel_may(r, false)[(size_t)i * rel_bits_words(r->n) + (unsigned)j / 64] >> ((unsigned)j % 64) & 1;
}
/* The candidates of row i of r (column when flip; where rel_may_on(r)). */
static inline int rel_may_count(const struct rel *r, int i, bool flip)
{
    return rel_row_ones(rel_may(r, flip), r->n, i);
}

/* True when row i of r (column when flip) has no candidate (where
 * rel_may_on(r); false elsewhere): it is empty. */
static inline bool rel_may_none(const struct rel *r, int i, bool flip)
{
    if (!rel_may_on(r))
        return false;
    int w = rel_bits_words(r->n);
    const unsigned long long *row = rel_may(r, flip) + (size_t)i * w;
    for (int k = 0; k < w; k++)
        if (row[k])
            return false;
    return true;
}

/* Rows over n nodes with room for size entries, owned by A, in one
 * allocation: start zeroed, col and val for their maker to write. */
static inline struct rel_rows *rows_new(struct rels *A, int n, int size)
{
    _Static_assert(sizeof(struct rel_rows) % 8 == 0 && sizeof(lit) == sizeof(int), "the arrays follow the record");
    struct rel_rows *t = rels_alloc_raw(A, sizeof *t + ((size_t)n + 1 + 2 * (size_t)size) * sizeof(int), 1);
    t->start = (int *)(t + 1);
    t->col = t->start + n + 1;
    t->val = (lit *)(t->col + size);
    memset(t->start, 0, ((size_t)n + 1) * sizeof *t->start);
    return t;
}
/* Rows over n nodes built from the entries (i[k], j[k], l[k]), k < count
 * (any order, later duplicates win, LIT_FALSE dropped), owned by A. */
struct rel_rows *rows_from_pairs(struct rels *A, int count, const int *i, const int *j, const lit *l);

#endif
