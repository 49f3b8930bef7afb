/* The relation arena: ownership, hash-consing, the row stack, sets and
 * relations built pair by pair. */
#include "encoders/rel_impl.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Arena memory is bumped from blocks, and a request too big for a block
 * gets a block of its own.  Blocks are not zeroed: rels_alloc zeroes what
 * it hands out, rels_alloc_raw hands out arrays their maker writes whole.
 * When an arena is freed its blocks are kept in a pool of this process,
 * up to ARENA_POOL_MAX bytes, for the next arena: a worker's checks reuse
 * the same few blocks instead of a malloc and free each.  Every object
 * here (ints, literals, pointers, longs, the structs of rel.h and
 * rel_impl.h) needs at most 8-byte alignment (rels_alloc). */
#define ARENA_BLOCK_FIRST ((size_t)64 << 10)
#define ARENA_BLOCK_MAX ((size_t)1 << 20)
#define ARENA_POOL_MAX ((size_t)16 << 20)
#define ARENA_POOL_BLOCKS 64

/* Blocks no arena owns, and their bytes in all. */
static struct arena_block pool[ARENA_POOL_BLOCKS];
static int npool;
static size_t pool_bytes;

/* A block of at least bytes (exactly bytes when none is pooled), owned
 * by A from now on; its index in A->owned. */
static int own_block(struct rels *A, size_t bytes)
{
    XGROW_FROM(A->owned, A->owned_cap, A->nowned + 1, 64);
    struct arena_block b = { NULL, bytes, 0 };
    for (int k = 0; k < npool; k++)
        if (pool[k].size >= bytes && (!b.p || pool[k].size < b.size)) {   /* the smallest that fits */
            b = pool[k];
            b.used = (size_t)k;
        }
    if (b.p) {
        pool[b.used] = pool[--npool];
        pool_bytes -= b.size;
        b.used = 0;
    } else {
        b.p = xrealloc(NULL, bytes);
    }
    A->owned[A->nowned] = b;
    return A->nowned++;
}

/* Gives block b back: to the pool while it has room; else to the system. */
static void give_back(struct arena_block b)
{
    if (npool == ARENA_POOL_BLOCKS || pool_bytes + b.size > ARENA_POOL_MAX) {
        free(b.p);
        return;
    }
    b.used = 0;
    pool[npool++] = b;
    pool_bytes += b.size;
}

void *rels_alloc_block(struct rels *A, size_t bytes)
{
    size_t next = A->block_size == 0 ? ARENA_BLOCK_FIRST
                  : A->block_size < ARENA_BLOCK_MAX ? 2 * A->block_size : A->block_size;
    if (4 * bytes > next) {   /* big: a block of its own, the current one stays */
        int k = own_block(A, bytes);   /* may move A->owned: indexed after */
        struct arena_block *own = &A->owned[k];
        own->used = own->size;
        return own->p;
    }
    int k = own_block(A, next);   /* may move A->owned: indexed after */
    struct arena_block *cur = &A->owned[k];
    A->block_size = cur->size;
    cur->used = bytes;
    A->bump = cur->p + bytes;
    A->bump_end = cur->p + cur->size;
    return cur->p;
}

void *rels_cons_get_slow(struct rels *A, int op, const void *x, const void *y, size_t k)
{
    for (; A->cons[k].op; k = (k + 1) & (A->cons_cap - 1))
        if (A->cons[k].op == op && A->cons[k].x == x && A->cons[k].y == y)
            return A->cons[k].node;
    A->miss = (struct cons_slot){ op, x, y, NULL };
    A->miss_at = k;
    return NULL;
}

/* Enters (op, x, y, node) in A's table, which has room, at slot k (empty,
 * where a probe for it ends); records where. */
static inline void cons_insert_at(struct rels *A, size_t k, int op, const void *x, const void *y, void *node)
{
    A->cons[k] = (struct cons_slot){ op, x, y, node };
    A->cons_at[A->cons_used++] = (int)k;
}

/* Enters (op, x, y, node) in A's table, which has room, where its probe
 * ends. */
static void cons_insert(struct rels *A, int op, const void *x, const void *y, void *node)
{
    size_t k = rels_cons_home(A, op, x, y);
    while (A->cons[k].op)
        k = (k + 1) & (A->cons_cap - 1);
    cons_insert_at(A, k, op, x, y, node);
}

void rels_cons_grow(struct rels *A)
{
    struct cons_slot *old = A->cons;   /* doubled: the old table's slots entered again */
    int *old_at = A->cons_at;
    size_t used = A->cons_used;
    A->cons_cap *= 2;
    A->cons = xcalloc(A->cons_cap, sizeof *A->cons);
    A->cons_at = xcalloc(A->cons_cap / 2, sizeof *A->cons_at);
    A->cons_used = 0;
    A->miss.op = 0;   /* its slot was the old table's */
    for (size_t k = 0; k < used; k++) {
        const struct cons_slot *s = &old[old_at[k]];
        cons_insert(A, s->op, s->x, s->y, s->node);
    }
    free(old);
    free(old_at);
}

void rels_cons_put_slow(struct rels *A, int op, const void *x, const void *y, void *node)
{
    if (2 * (A->cons_used + 1) > A->cons_cap)
        rels_cons_grow(A);
    cons_insert(A, op, x, y, node);
}

void rels_stack_grow(struct rels *A, int k)
{
    A->scap = xcapacity(A->scap, A->stop + k, 1024);
    XRESIZE(A->scol, A->scap);
    XRESIZE(A->sval, A->scap);
}

/* True when the w words at x and y are equal (a word or a few: no call). */
static bool same_words(const unsigned long long *x, const unsigned long long *y, int w)
{
    for (int k = 0; k < w; k++)
        if (x[k] != y[k])
            return false;
    return true;
}

/* The hash of a set's w words of bits. */
static uintptr_t bits_hash(const unsigned long long *bits, int w)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (int k = 0; k < w; k++) {
        h = (h ^ bits[k]) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
    }
    return (uintptr_t)(h | 1);
}

/* The words of bits a set of A is made from: taken from A (not zeroed),
 * the last thing taken, for set_with_bits. */
static unsigned long long *set_bits_take(struct rels *A)
{
    return rels_alloc_raw(A, (size_t)rel_bits_words(A->n), sizeof(unsigned long long));
}

/* The set of A (or of its parent) whose members are the bits set in b
 * (from set_bits_take, events that can execute only), made in A, with b,
 * when none is (b is given back when one is): sets are consed by content,
 * so that the relations built on equal sets made different ways (SC0 |
 * SC1 where no event is SC1, and SC0) are one relation, and one closure.
 * A set that exists is found by a word or a few, before any member is
 * listed (most tag sets are empty). */
static const struct set *set_with_bits(struct rels *A, unsigned long long *b)
{
    int w = rel_bits_words(A->n);
    uintptr_t h = bits_hash(b, w), k = 1;
    const struct set *t;
    if (A->parent)
        for (uintptr_t j = 1; (t = rels_cons_get((struct rels *)A->parent, CONS_SET_CONTENT, (void *)h, (void *)j)); j++)
            if (same_words(t->bits, b, w))
                goto found;
    for (; (t = rels_cons_get(A, CONS_SET_CONTENT, (void *)h, (void *)k)); k++)
        if (same_words(t->bits, b, w))
            goto found;
    /* the record, m and room for n members in one allocation (the members
     * counted as they are listed), every field written below */
    _Static_assert(sizeof(struct set) % 8 == 0 && sizeof(lit) == sizeof(int), "m and members follow the record");
    struct set *s = rels_alloc_raw(A, sizeof *s + 2 * (size_t)A->n * sizeof(int), 1);
    s->n = A->n;
    s->bits = b;
    s->m = (lit *)(s + 1);
    s->members = (int *)(s->m + A->n);
    _Static_assert(LIT_FALSE == -1, "every byte 0xff is LIT_FALSE");
    memset(s->m, 0xff, (size_t)A->n * sizeof *s->m);
    int size = 0;
    for (int v = 0; v < w; v++)
        for (unsigned long long x = b[v]; x; x &= x - 1) {
            int i = v * 64 + __builtin_ctzll(x);
            s->members[size++] = i;
            s->m[i] = A->exec[i];
        }
    s->size = size;
    rels_cons_put(A, CONS_SET_CONTENT, (void *)h, (void *)k, s);
    return s;
found:
    rels_alloc_undo(A, b, (size_t)w, sizeof *b);
    return t;
}

/* The set of the events with member[i] (every event when member is
 * NULL) that can execute (exec_i not false; their literals exec_i). */
static const struct set *new_set(struct rels *A, const bool *member)
{
    unsigned long long *b = set_bits_take(A);
    memset(b, 0, (size_t)rel_bits_words(A->n) * sizeof *b);
    for (int i = 0; i < A->n; i++)
        if ((!member || member[i]) && A->exec[i] != LIT_FALSE)
            b[(unsigned)i / 64] |= 1ull << ((unsigned)i % 64);
    return set_with_bits(A, b);
}

const struct set *set_of_bits(struct rels *A, const unsigned long long *bits)
{
    unsigned long long *b = set_bits_take(A);
    const unsigned long long *can = A->all->bits;   /* the events that can execute */
    for (int k = 0; k < rel_bits_words(A->n); k++)
        b[k] = bits[k] & can[k];
    return set_with_bits(A, b);
}

/* The first capacities of an arena's table of consed nodes: a base arena
 * conses a few dozen (at most 33 over the corpus), a model's arena about a
 * hundred (a median of 86); the table doubles when half full. */
#define CONS_FIRST_BASE 64
#define CONS_FIRST_CHILD 256

/* Freed arenas' tables, emptied (only the slots they took), wait here
 * for the next arenas of their kind (base, child), with their arrays of
 * taken slots and their capacity (the first one or a doubling of it, up
 * to CONS_SPARE_MAX slots): a worker's checks (a session's arenas and an
 * evaluation's beside them) reuse a few of each instead of a zeroed
 * allocation each, and a model's arena a table already grown. */
#define CONS_SPARES 4
#define CONS_SPARE_MAX 4096
static struct cons_slot *spare_cons[2][CONS_SPARES];
static int *spare_cons_at[2][CONS_SPARES];
static size_t spare_cons_cap[2][CONS_SPARES];
static int nspare_cons[2];

/* A's first, empty table: a spare one of its kind, else one of cap slots. */
static void cons_start(struct rels *A, size_t cap)
{
    int kind = A->parent != NULL;
    A->miss.op = 0;
    if (nspare_cons[kind]) {
        int k = --nspare_cons[kind];
        A->cons = spare_cons[kind][k];
        A->cons_at = spare_cons_at[kind][k];
        A->cons_cap = spare_cons_cap[kind][k];
        return;
    }
    A->cons_cap = cap;
    A->cons = xcalloc(cap, sizeof *A->cons);
    A->cons_at = xcalloc(cap / 2, sizeof *A->cons_at);
}

/* Empties A's table and keeps it for a next arena of its kind when it is
 * at most CONS_SPARE_MAX slots and there is room; else frees it. */
static void cons_end(struct rels *A)
{
    int kind = A->parent != NULL;
    if (A->cons_cap > CONS_SPARE_MAX || nspare_cons[kind] == CONS_SPARES) {
        free(A->cons);
        free(A->cons_at);
        return;
    }
    for (size_t k = 0; k < A->cons_used; k++)
        A->cons[A->cons_at[k]].op = 0;
    spare_cons[kind][nspare_cons[kind]] = A->cons;
    spare_cons_at[kind][nspare_cons[kind]] = A->cons_at;
    spare_cons_cap[kind][nspare_cons[kind]++] = A->cons_cap;
}

/* Freed arenas' records, emptied but for the arrays that grow (the list
 * of owned blocks and the row stack), wait here for the next arenas: an
 * evaluation makes two and frees them, so a worker reuses a few records
 * instead of a zeroed allocation and those arrays' growth each. */
#define ARENA_SPARES 8
static struct rels *spare_arena[ARENA_SPARES];
static int nspare_arena;

/* An empty arena record, with a freed one's arrays when one waits. */
static struct rels *arena_record(void)
{
    return nspare_arena ? spare_arena[--nspare_arena] : xcalloc(1, sizeof(struct rels));
}

/* A new arena over n events with execution literals exec (copied), or,
 * beside parent, with parent's: its set of every event is parent's. */
static struct rels *arena_new(struct cnf *c, int n, const lit *exec, const struct rels *parent)
{
    struct rels *A = arena_record();
    A->c = c;
    A->n = n;
    A->parent = parent;
    A->static_bits = cnf_symbolic(c) && n <= REL_DENSE_MAX;
    A->dense = !cnf_symbolic(c) && n <= REL_DENSE_MAX;
    cons_start(A, parent ? CONS_FIRST_CHILD : CONS_FIRST_BASE);
    if (parent) {
        A->exec = parent->exec;
        A->all = parent->all;
    } else {
        /* copied whole below; one more: the arena's first allocation takes
         * some bytes even over no event (rels_alloc_bytes) */
        A->exec = rels_alloc_raw(A, (size_t)n + 1, sizeof *A->exec);
        memcpy(A->exec, exec, (size_t)n * sizeof *exec);
        A->all = new_set(A, NULL);
    }
    struct rel *e = rel_node(A, REL_ROWS);
    e->rows = rows_from_pairs(A, 0, NULL, NULL, NULL);
    e->is_static = e->empty = e->transitive = true;
    A->empty = e;
    return A;
}

struct rels *rels_new(struct cnf *c, int n, const lit *exec) { return arena_new(c, n, exec, NULL); }

struct rels *rels_new_child(struct rels *parent)
{
    struct rels *A = arena_new(parent->c, parent->n, parent->exec, parent);
    A->next_order = parent->next_order + (1L << 40);
    return A;
}

void rels_free(struct rels *A)
{
    if (!A)
        return;
    for (int k = 0; k < A->nowned; k++)
        give_back(A->owned[k]);
    for (int d = 0; d < A->naccs; d++)
        free(A->accs[d]);   /* its arrays in the same block */
    free(A->accs);
    cons_end(A);
    if (nspare_arena < ARENA_SPARES) {   /* kept empty, with its growing arrays */
        *A = (struct rels){ .owned = A->owned, .owned_cap = A->owned_cap, .scol = A->scol, .sval = A->sval,
                            .scap = A->scap };
        spare_arena[nspare_arena++] = A;
        return;
    }
    free(A->owned);
    free(A->scol);
    free(A->sval);
    free(A);
}

long rels_pairs(const struct rels *A) { return A->pairs; }

const struct set *set_all(struct rels *A) { return A->all; }
const struct set *set_of(struct rels *A, const bool *member) { return new_set(A, member); }

/* x op y for op one of CONS_SET_*, consed. */
static const struct set *set_op(struct rels *A, int op, const struct set *x, const struct set *y)
{
    assert(x->n == A->n && y->n == A->n);
    if ((op == CONS_SET_UNION || op == CONS_SET_INTER) && x > y) {
        const struct set *t = x; x = y; y = t;
    }
    const struct set *s = rels_cons_get(A, op, x, y);
    if (s)
        return s;
    int w = rel_bits_words(A->n);
    unsigned long long *b = set_bits_take(A);
    switch (op) {   /* one loop per operation: no test of op per word */
    case CONS_SET_UNION:
        for (int k = 0; k < w; k++)
            b[k] = x->bits[k] | y->bits[k];
        break;
    case CONS_SET_INTER:
        for (int k = 0; k < w; k++)
            b[k] = x->bits[k] & y->bits[k];
        break;
    default:
        for (int k = 0; k < w; k++)
            b[k] = x->bits[k] & ~y->bits[k];
        break;
    }
    s = set_with_bits(A, b);
    rels_cons_put(A, op, x, y, (void *)s);
    return s;
}

const struct set *set_union(struct rels *A, const struct set *x, const struct set *y)
{
    return x == y ? x : set_op(A, CONS_SET_UNION, x, y);
}

const struct set *set_inter(struct rels *A, const struct set *x, const struct set *y)
{
    return x == y ? x : set_op(A, CONS_SET_INTER, x, y);
}

const struct set *set_diff(struct rels *A, const struct set *x, const struct set *y)
{
    return set_op(A, CONS_SET_DIFF, x, y);
}

int rows_find(const struct rel_rows *t, int i, int j)
{
    int lo = t->start[i], hi = t->start[i + 1];
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (t->col[mid] < j)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->start[i + 1] && t->col[lo] == j ? lo : -1;
}

/* rows_from_pairs's rows t (start zeroed, col and val of count entries)
 * from entries already in order, none twice: those not LIT_FALSE, as
 * they come. */
static struct rel_rows *rows_in_order(struct rels *A, struct rel_rows *t, int count, const int *i, const int *j,
                                      const lit *l)
{
    int kept = 0;
    for (int k = 0; k < count; k++) {
        if (l[k] == LIT_FALSE)
            continue;
        t->start[i[k] + 1]++;
        t->col[kept] = j[k];
        t->val[kept++] = l[k];
    }
    for (int r = 0; r < A->n; r++)
        t->start[r + 1] += t->start[r];
    A->pairs += kept;
    return t;
}

/* Rows from the entries sorted by row, then column, then place in the
 * input: two stable counting passes (by column, then by row) over the
 * entries' places, with the row stack's free room as scratch (the entries
 * are the caller's arrays, never the stack). */
struct rel_rows *rows_from_pairs(struct rels *A, int count, const int *i, const int *j, const lit *l)
{
    int n = A->n;
    bool in_order = true;   /* each entry past the one before, by row, then column */
    for (int k = 0; k < count; k++) {
        assert(i[k] >= 0 && i[k] < n && j[k] >= 0 && j[k] < n);
        in_order &= k == 0 || i[k] > i[k - 1] || (i[k] == i[k - 1] && j[k] > j[k - 1]);
    }
    struct rel_rows *t = rows_new(A, n, count);
    if (count == 0)
        return t;
    if (in_order)
        return rows_in_order(A, t, count, i, j, l);
    rels_stack_reserve(A, count + n + 1);
    int *by_col = A->scol + A->stop, *at = by_col + count, *by_row = A->sval + A->stop;
    memset(at, 0, ((size_t)n + 1) * sizeof *at);
    for (int k = 0; k < count; k++)   /* at[c + 1]: entries of column c */
        at[j[k] + 1]++;
    for (int c = 0; c < n; c++)   /* at[c]: where column c's entries begin */
        at[c + 1] += at[c];
    for (int k = 0; k < count; k++)
        by_col[at[j[k]]++] = k;
    memset(at, 0, ((size_t)n + 1) * sizeof *at);
    for (int k = 0; k < count; k++)
        at[i[k] + 1]++;
    for (int r = 0; r < n; r++)
        at[r + 1] += at[r];
    for (int e = 0; e < count; e++)
        by_row[at[i[by_col[e]]]++] = by_col[e];
    int kept = 0;
    for (int a = 0; a < count; a++) {
        int k = by_row[a];
        bool last = a + 1 == count || i[by_row[a + 1]] != i[k] || j[by_row[a + 1]] != j[k];
        if (!last || l[k] == LIT_FALSE)
            continue;
        t->start[i[k] + 1]++;
        t->col[kept] = j[k];
        t->val[kept++] = l[k];
    }
    for (int r = 0; r < n; r++)
        t->start[r + 1] += t->start[r];
    A->pairs += kept;
    return t;
}

void rel_builder_init(struct rel_builder *bld)
{
    *bld = (struct rel_builder){ 0 };
}

/* Grows bld to room for twice its pairs: its three arrays are one block
 * (i, then j, then l), moved whole. */
static void builder_grow(struct rel_builder *bld)
{
    int cap = (int)xcapacity((size_t)bld->cap, (size_t)bld->count + 1, 64);
    int *block = xrealloc(NULL, (size_t)cap * (2 * sizeof *bld->i + sizeof *bld->l));
    size_t used = (size_t)bld->count;
    if (used) {
        memcpy(block, bld->i, used * sizeof *bld->i);
        memcpy(block + cap, bld->j, used * sizeof *bld->j);
        memcpy(block + 2 * (size_t)cap, bld->l, used * sizeof *bld->l);
    }
    free(bld->i);
    bld->i = block;
    bld->j = block + cap;
    bld->l = (lit *)(block + 2 * (size_t)cap);
    bld->cap = cap;
}

void rel_add(struct rel_builder *bld, int i, int j, lit l)
{
    if (bld->count == bld->cap)
        builder_grow(bld);
    bld->i[bld->count] = i;
    bld->j[bld->count] = j;
    bld->l[bld->count++] = l;
}

void rel_builder_free(struct rel_builder *bld)
{
    free(bld->i);   /* j and l lie in its block */
    *bld = (struct rel_builder){ 0 };
}

const struct rel *rel_build(struct rels *A, struct rel_builder *bld, bool is_static)
{
    struct rel *r = rel_node(A, REL_ROWS);
    if (bld->count == 0) {   /* no pair: the arena's empty relation's rows, shared (never written) */
        r->rows = A->empty->rows;
        r->is_static = is_static;
        r->empty = true;
        rel_builder_free(bld);
        return r;
    }
    r->rows = rows_from_pairs(A, bld->count, bld->i, bld->j, bld->l);
    r->is_static = is_static;
    r->empty = r->rows->start[r->n] == 0;
    rel_builder_free(bld);
    return r;
}

void rel_mark_transitive(const struct rel *r)
{
    ((struct rel *)r)->transitive = true;
}

void rel_mark_guarded(const struct rel *r)
{
    ((struct rel *)r)->guarded = true;
}
