/* Relations and sets over the n events of one program.
 *
 * Every relation lives in an arena (struct rels) that owns it until
 * rels_free.  A relation has a may-set, the pairs that can ever hold, and a
 * literal per may-pair; pairs outside it are LIT_FALSE and cost nothing.
 * Storage and every operation cost what the may-sets involved hold, never
 * n x n:
 *  - static relations (po, loc, sr, products of sets, and their unions,
 *    intersections, differences and inverses) are decided by the events'
 *    types, threads, locations and scopes before any literal exists; they
 *    are kept as terms and a pair (i, j) of one has the literal
 *    both(i, j) = exec_i & exec_j; over a cnf with a solver and at most
 *    REL_DENSE_MAX events, a term's pairs are rows of bits, made once from
 *    its operands' when first read (rel_bits.c);
 *  - unions, intersections, differences, inverses and compositions are
 *    lazy: a pair is computed when asked, and a row by enumerating the
 *    operand with the fewest candidates (the intersection of a huge static
 *    relation with a sparse one costs the sparse one); a pair of a union
 *    or a composition is read from its row, enumerated once and kept;
 *  - over a cnf with a solver and at most REL_DENSE_MAX events, every
 *    relation's candidate pairs (a superset of its pairs) are rows of
 *    bits, made from its operands' when first read (rel_may.c): a row
 *    with no candidate is not walked, a row's size is estimated from
 *    them, and a filter looks up no pair outside them;
 *  - closures (built when first read) and the rows that compositions and
 *    closures read are materialized as sorted rows of literals;
 *  - where a guarded relation (rel_mark_guarded: its literals imply both)
 *    meets a static one, the static literal makes no gate: a filter keeps
 *    the guarded literal, a union the static one, and a composition ANDs
 *    the outer event's exec once per pair, not once per term.
 * Sets are the events of a static tag set, each with the literal exec_i.
 * The same code evaluates one concrete execution when the cnf is
 * constant-only; there, over at most REL_DENSE_MAX events, every
 * operation is made at once as rows of bits (a pair holds or not: no
 * literal to share, and a few words per row cost less than the lazy
 * terms' enumerations and estimates). */
#ifndef GPUBMC_REL_H
#define GPUBMC_REL_H

#include "encoders/cnf.h"

struct rels;

/* A set: m[i] is exec_i for a member, LIT_FALSE otherwise. */
struct set {
    int n, size;             /* events; members */
    lit *m;
    int *members;            /* sorted */
    unsigned long long *bits; /* the members as bits, 64 events a word: the set algebra's
                                operands and the key sets are consed by */
};

/* Sorted rows of literals (none LIT_FALSE): row i is col/val[start[i] .. start[i+1]). */
struct rel_rows {
    int *start, *col;
    lit *val;
};

/* Events up to which a constant-only cnf's operations are made at once,
 * as bits (n x n bits per relation beyond would cost more than the lazy
 * terms). */
#define REL_DENSE_MAX 256

enum rel_op { REL_ROWS, REL_CLASS, REL_PRODUCT, REL_ID, REL_UNION, REL_INTER, REL_DIFF, REL_INV, REL_SEQ, REL_PLUS };

/* A relation; read-only outside encoders/rel*.c. */
struct rel {
    int n;
    enum rel_op op;
    bool is_static;          /* static: a pair's literal is both(i, j) */
    bool transitive;         /* transitive in every execution (an order) */
    bool guarded;            /* every pair's literal implies exec_i & exec_j in every
                                model of the cnf (rel_guarded: static ones too) */
    bool empty;              /* known to have no pair */
    bool settling;           /* its rows are being made (no second start) */
    bool unsettled;          /* rel_settle never materializes it (not static and small, or
                                static as bits: rel_bits.c) */
    bool ordered;            /* REL_CLASS: i, j related only when i < j */
    signed char candidates_acyclic; /* rel_candidates_acyclic's answer, 1 yes, -1 no, 0 not asked yet
                                (its candidates never change); with the bools: no padding */
    struct rels *home;       /* the arena it lives in */
    const struct rel *a, *b; /* operands */
    const struct set *s, *t; /* REL_PRODUCT s * t; REL_ID [s] */
    const int *key;          /* REL_CLASS: i, j related when key[i] == key[j] >= 0 */
    const int *group_start, *group; /* REL_CLASS: members by key */
    struct rel_rows *rows;   /* REL_ROWS, or the rows a lazy relation was materialized to */
    struct rel_rows *cols;   /* the rows of the inverse, once asked for */
    struct row_store *store; /* the rows read one by one so far (a lazy relation) */
    bool *enumerated[2];     /* per row (column): enumerated once; a second time keeps it */
    struct row_store *cstore; /* the columns kept so */
    long bound;              /* static: 1 + an upper bound of the may-set's size, 0 until computed */
    long *est[2];            /* per row (column): 1 + rel_est's guess once made, 0 before
                                (operations only; leaves answer at once) */
    unsigned long long *sbits[2]; /* static, over a cnf with a solver and at most REL_DENSE_MAX
                                events: its pairs (of its inverse) as rows of bits (rel_bits.c) */
    unsigned long long *may[2]; /* over a cnf with a solver and at most REL_DENSE_MAX events: a
                                superset of its pairs (of its inverse's) as rows of bits, made
                                when first asked for (rel_may.c); sbits[] where static */
    unsigned long long *bits; /* a constant-only cnf's relation over at most REL_DENSE_MAX
                                events: row i's pairs as bits i * words .. (rel_dense.c) */
    unsigned long long *value; /* rel_value's rows of bits (after a head, rel_value.c), valid while
                                value_of is current: */
    unsigned value_of;       /* 1 + cnf_model_number of the model they are of, or (static)
                                the arena's exec_stamp they were made under; 0: none */
    union {                  /* beside value_of: no padding */
        int closure;         /* REL_PLUS: 1 + the cnf's closure number once built, else 0 */
        int nkeys;           /* REL_CLASS: its keys, 0 .. nkeys - 1 (group_start has nkeys + 1) */
    };
    long order;              /* creation order (a child arena's after its parent's): operands
                                of commutative operations are sorted by it, not by address,
                                so every run builds the same formula */
};

/* A new arena over n events whose execution literals are exec[0..n-1]
 * (copied); relations of different arenas over one cnf can be mixed. */
struct rels *rels_new(struct cnf *c, int n, const lit *exec);
/* A new arena beside parent: the same cnf, events and execution literals,
 * and parent's set of every event; parent must outlive it. */
struct rels *rels_new_child(struct rels *parent);
/* Frees the arena and every set and relation in it. */
void rels_free(struct rels *A);
/* both(i, j) = exec_i & exec_j, the literal of a static pair. */
lit rels_both(struct rels *A, int i, int j);
/* Pairs stored in the arena's materialized rows (its memory, in pairs). */
long rels_pairs(const struct rels *A);

/* Sets: every event, the events with member[i], and the algebra. */
const struct set *set_all(struct rels *A);
const struct set *set_of(struct rels *A, const bool *member);
/* The set of the events whose bits are set in bits (64 events a word,
 * over A's n events) that can execute: set_of without a bool per event. */
const struct set *set_of_bits(struct rels *A, const unsigned long long *bits);
const struct set *set_union(struct rels *A, const struct set *x, const struct set *y);
const struct set *set_inter(struct rels *A, const struct set *x, const struct set *y);
const struct set *set_diff(struct rels *A, const struct set *x, const struct set *y);
/* True when i is a member of s. */
static inline bool set_has(const struct set *s, int i) { return s->m[i] != LIT_FALSE; }

/* Static leaves: the empty relation; i, j with key[i] == key[j] >= 0
 * (and i < j when ordered; key is copied); s * t; [s]. */
const struct rel *rel_empty(struct rels *A);
const struct rel *rel_class(struct rels *A, const int *key, bool ordered);
const struct rel *rel_product(struct rels *A, const struct set *s, const struct set *t);
const struct rel *rel_id(struct rels *A, const struct set *s);

/* Builds a relation pair by pair: rel_add sets the literal of (i, j) (the
 * last one given wins; LIT_FALSE entries are dropped); rel_build makes the
 * relation in A and empties the builder (static when every literal is
 * both(i, j)); rel_builder_free drops what a builder holds. */
struct rel_builder { int count, cap; int *i, *j; lit *l; };   /* j and l lie in i's block */
void rel_builder_init(struct rel_builder *bld);
void rel_add(struct rel_builder *bld, int i, int j, lit l);
const struct rel *rel_build(struct rels *A, struct rel_builder *bld, bool is_static);
void rel_builder_free(struct rel_builder *bld);
/* rel_build's relation (not static) over a constant-only cnf, made as
 * rows of bits at once, its rows only when read (encoders/rel_dense.c);
 * rel_build's where the operations are not made as bits (rel_dense).
 * Unlike rel_build it keeps bld's arrays, emptied, for the next relation:
 * the caller frees them (rel_builder_free). */
const struct rel *rel_build_dense(struct rels *A, struct rel_builder *bld);
/* Whether A makes its operations as bits (a constant-only cnf over at
 * most REL_DENSE_MAX events), so that rel_from_bits can be called. */
bool rels_dense(const struct rels *A);
/* Where rels_dense(A): the relation whose row i is the words
 * rows[i * w .. (i + 1) * w), w = (n + 63) / 64 (copied; bits of events
 * that do not execute must be 0), made at once as rel_build_dense makes
 * its relations (A's empty relation when it has no pair); transitive
 * marks it so (rel_mark_transitive). */
const struct rel *rel_from_bits(struct rels *A, const unsigned long long *rows, bool transitive);
/* Marks r (made by rel_build) as transitive in every execution. */
void rel_mark_transitive(const struct rel *r);
/* Marks r (made by rel_build) as guarded: the cnf has every pair's literal
 * imply exec_i & exec_j, so an intersection with a static relation (whose
 * literal is both(i, j)) keeps r's literal as it is, with no gate. */
void rel_mark_guarded(const struct rel *r);
/* True when r's pair literals imply both events' execution: static, or
 * made of guarded operands (rel_mark_guarded). */
static inline bool rel_guarded(const struct rel *r) { return r->is_static || r->guarded; }

/* r | s, r & s, r \ s, r ; s, r^-1, r+, r? (= r | [every event]),
 * [a]; r; [b] (a or b NULL: any event), and imm(r) = r \ (r; r+).  Over a
 * cnf with a solver the same operation on the same operands returns the
 * same relation; where the operations are made as bits (rel_dense), an
 * equal one. */
const struct rel *rel_union(struct rels *A, const struct rel *r, const struct rel *s);
const struct rel *rel_inter(struct rels *A, const struct rel *r, const struct rel *s);
const struct rel *rel_diff(struct rels *A, const struct rel *r, const struct rel *s);
const struct rel *rel_seq(struct rels *A, const struct rel *r, const struct rel *s);
const struct rel *rel_inv(struct rels *A, const struct rel *r);
const struct rel *rel_plus(struct rels *A, const struct rel *r);
const struct rel *rel_opt(struct rels *A, const struct rel *r);
const struct rel *rel_filter(struct rels *A, const struct set *a, const struct rel *r, const struct set *b);
const struct rel *rel_imm(struct rels *A, const struct rel *r);
/* The same operations where rels_dense(A) (encoders/rel_dense.c): each
 * returns a relation equal to the one above, made as bits at once without
 * the lazy terms' layers (the models' cat.h calls them on a concrete
 * execution); only where rels_dense(A). */
const struct rel *rel_dense_or(struct rels *A, const struct rel *r, const struct rel *s);
const struct rel *rel_dense_and(struct rels *A, const struct rel *r, const struct rel *s);
const struct rel *rel_dense_minus(struct rels *A, const struct rel *r, const struct rel *s);
const struct rel *rel_dense_seq(struct rels *A, const struct rel *r, const struct rel *s);
const struct rel *rel_dense_inv(struct rels *A, const struct rel *r);
const struct rel *rel_dense_plus(struct rels *A, const struct rel *r);
const struct rel *rel_dense_opt(struct rels *A, const struct rel *r);
const struct rel *rel_dense_restrict(struct rels *A, const struct set *a, const struct rel *r, const struct set *b);

/* The literal of (i, j) in r. */
lit rel_get(const struct rel *r, int i, int j);
/* Row i of r: its columns (sorted) and literals, none LIT_FALSE; returns
 * their number.  Materializes r on first use; the pointers stay valid
 * while the arena lives. */
int rel_row(const struct rel *r, int i, const int **cols, const lit **lits);
/* The literals of every pair of r, row by row (rel_row's, one after the
 * other); returns their number.  Materializes r on first use. */
int rel_lits(const struct rel *r, const lit **lits);
/* Every row of r at once (rel_row's, as one struct); materializes r on
 * first use. */
const struct rel_rows *rel_all_rows(const struct rel *r);
/* Column j of r (row j of r^-1), likewise. */
int rel_col(const struct rel *r, int j, const int **rows, const lit **lits);

/* The pairs of r that hold in the solver's last model (the pairs whose
 * literals cnf_value finds true), as rows of bits, row i at words
 * i * ((n + 63) / 64) ..: computed word by word from the values of its
 * operands', no literal made; valid until the next solve.  NULL where r
 * has no candidate bits (rel_may.c: no solver, or over REL_DENSE_MAX
 * events). */
const unsigned long long *rel_value(const struct rel *r);
/* True when r's candidate pairs (rel_may.c) have no cycle, so that r has
 * none in any model; false where r has no candidate bits. */
bool rel_candidates_acyclic(const struct rel *r);

/* Literal that is true iff r has some pair (the OR of its entries). */
lit rel_nonempty(struct rels *A, const struct rel *r);
/* The literals of r's pairs (i, i) that are not LIT_FALSE, i ascending,
 * into lits (room for n); returns their number.  A pair with no
 * candidate (rel_may.c) is not looked up. */
int rel_diagonal(const struct rel *r, lit *lits);
/* Literal that is true iff some (i, i) is in r; a composition's diagonal
 * is computed without its other pairs. */
lit rel_reflexive_some(struct rels *A, const struct rel *r);
/* True when the pairs of bits m (n rows of (n + 63) / 64 words) have a
 * cycle: the events with no pair to an event left are taken away until
 * none is; what is left, if anything, is on or leads to a cycle. */
bool rel_bits_cyclic(const unsigned long long *m, int n);
/* Literal that is true iff r has a cycle. */
lit rel_cyclic(struct rels *A, const struct rel *r);
/* Number of pairs in r's may-set (materializes r). */
long rel_may_size(const struct rel *r);

#endif
