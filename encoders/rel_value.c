/* The pairs a relation has in the solver's last model, as rows of bits,
 * for the lazy acyclicity check (bmc/check/refine.c), which needs every
 * pair's value and the literals of a cycle's edges only.  A static term's
 * pairs are its bits where both events execute; a built relation's are
 * its literals' values; an operation's are its operands' combined word by
 * word (within its candidate bits, rel_may.c, as its operands' are within
 * theirs).  These are the values cnf_value finds for the literals the
 * lazy rows make (rel_rows.c): where those rows take a guarded operand's
 * literal for a static one's (a union, a filter, a composition's outer
 * event), the two agree in every model, as the guarded literal implies
 * both events' execution. */
#include "encoders/rel_impl.h"

typedef unsigned long long word;

/* The events of A that execute in the model numbered now (1 + its
 * cnf_model_number), as one row of bits, read once per model; A's
 * exec_stamp changes when they differ from the last model's. */
static const word *exec_value(struct rels *A, unsigned now)
{
    if (A->exec_value_of == now)
        return A->exec_value;
    word ex[REL_DENSE_MAX / 64] = { 0 };
    for (int i = 0; i < A->n; i++)
        if (cnf_value(A->c, A->exec[i]))
            ex[i / 64] |= 1ull << (i % 64);
    if (A->exec_stamp == 0 || memcmp(ex, A->exec_value, sizeof ex) != 0) {
        memcpy(A->exec_value, ex, sizeof ex);
        A->exec_stamp++;
    }
    A->exec_value_of = now;
    return A->exec_value;
}

/* b = static r's pairs whose events both execute (ex). */
static void static_value(const struct rel *r, word *b, int w, const word *ex)
{
    const word *bits = rel_bits(r, false);
    if (w == 1) {   /* one word a row: no loop over a row's words */
        word runs = ex[0];
        for (int i = 0; i < r->n; i++)
            b[i] = bits[i] & runs & (0 - (runs >> i & 1));
        return;
    }
    for (int i = 0; i < r->n; i++) {
        word runs = 0 - (ex[i / 64] >> (i % 64) & 1);   /* all ones or none */
        for (int k = 0; k < w; k++)
            b[(size_t)i * w + k] = bits[(size_t)i * w + k] & ex[k] & runs;
    }
}

/* b = built r's pairs whose literals are true. */
static void rows_value(const struct rel *r, word *b, int w)
{
    const struct rel_rows *t = r->rows;
    struct cnf *c = r->home->c;
    memset(b, 0, (size_t)r->n * (size_t)w * sizeof *b);
    for (int i = 0; i < r->n; i++)
        for (int e = t->start[i]; e < t->start[i + 1]; e++)
            if (cnf_value(c, t->val[e])) {
                int j = t->col[e];
                b[(size_t)i * w + (unsigned)j / 64] |= 1ull << ((unsigned)j % 64);
            }
}

static const word *value_at(const struct rel *r, unsigned now);

/* A relation's value rows follow a head: their version, bumped when a
 * remaking changes them (1 once first made), and the versions of the
 * operands' rows they were made from.  A composition or closure made
 * again in a later model from operands whose rows have not changed is
 * not made again: a refinement's next model mostly differs from the last
 * in a few pairs, and most of a term keeps its rows. */
struct value_head { unsigned version, from_a, from_b, spare; };
_Static_assert(sizeof(struct value_head) == 2 * sizeof(word), "a head is two words");

static struct value_head *head_of(const word *rows) { return (struct value_head *)(void *)rows - 1; }

/* The rows remade over, kept to tell whether the remaking changed them
 * (no value is made while they are held: operands are made first). */
static word remade_over[REL_DENSE_MAX * (REL_DENSE_MAX / 64)];

/* The value rows of x, with their version in *version; where x is an
 * operand of an intersection, or the subtracted operand of a difference,
 * whose other operand, other, is guarded, and x is static, x's own bits
 * (version 0: they never change), not masked by the executions (other's
 * pairs in the model have both events executing already, so the mask
 * changes no pair of the result, and x's masked rows are not made). */
static const word *operand(const struct rel *x, const struct rel *other, unsigned now, unsigned *version)
{
    if (other && x->is_static && rel_guarded(other)) {
        *version = 0;
        return rel_bits(x, false);
    }
    const word *v = value_at(x, now);
    *version = head_of(v)->version;
    return v;
}

/* Makes r's value rows for the model numbered now (not yet made; ex:
 * its arena's executions when r is static); kept out of line, so that
 * value_at's look-up of kept rows saves no registers. */
static __attribute__((noinline)) const word *value_make(const struct rel *r, unsigned now, const word *ex)
{
    struct rel *m = (struct rel *)r;
    int n = r->n, w = rel_bits_words(n);
    size_t all = (size_t)n * (size_t)w;
    if (!m->value) {   /* one array per relation, made again for each model */
        word *block = rels_alloc_raw(r->home, all + 2, sizeof *block);
        *(struct value_head *)(void *)block = (struct value_head){ 0, 0, 0, 0 };
        m->value = block + 2;
    }
    word *b = m->value;
    struct value_head *h = head_of(b);
    const word *x = NULL, *y = NULL;
    unsigned va = 0, vb = 0;
    switch (r->is_static ? REL_ROWS : r->op) {   /* the operands' rows first */
    case REL_UNION: case REL_SEQ:
        x = operand(r->a, NULL, now, &va);
        y = operand(r->b, NULL, now, &vb);
        break;
    case REL_INTER:
        x = operand(r->a, r->b, now, &va);
        y = operand(r->b, r->a, now, &vb);
        break;
    case REL_DIFF:
        x = operand(r->a, NULL, now, &va);
        y = operand(r->b, r->a, now, &vb);
        break;
    case REL_INV: case REL_PLUS:
        x = operand(r->a, NULL, now, &va);
        break;
    default:   /* a static or built relation: remade from the executions or literals */
        break;
    }
    if (x && h->version && h->from_a == va && h->from_b == vb) {   /* the same operands' rows */
        m->value_of = now;
        return b;
    }
    bool again = h->version != 0;
    if (again)
        memcpy(remade_over, b, all * sizeof *b);
    if (r->is_static) {
        static_value(r, b, w, ex);
    } else {
        switch (r->op) {
        case REL_UNION:
            for (size_t k = 0; k < all; k++)
                b[k] = x[k] | y[k];
            break;
        case REL_INTER:
            for (size_t k = 0; k < all; k++)
                b[k] = x[k] & y[k];
            break;
        case REL_DIFF:
            for (size_t k = 0; k < all; k++)
                b[k] = x[k] & ~y[k];
            break;
        case REL_INV: rel_bits_transpose(b, x, n, w); break;
        case REL_SEQ: rel_bits_compose(b, x, y, n, w); break;
        case REL_PLUS: rel_bits_close(b, x, n, w); break;
        default: rows_value(r, b, w); break;   /* a built relation */
        }
    }
    if (!again || memcmp(remade_over, b, all * sizeof *b) != 0)
        h->version++;
    h->from_a = va;
    h->from_b = vb;
    m->value_of = r->is_static ? r->home->exec_stamp : now;
    return b;
}

/* r's value rows in the model numbered now (1 + cnf_model_number): kept
 * ones when current (a static relation's while its arena's executions
 * are the same), else made; r's operands share its cnf, and have rows
 * of bits as it has. */
static const word *value_at(const struct rel *r, unsigned now)
{
    if (!r->is_static)
        return r->value_of == now ? r->value : value_make(r, now, NULL);
    const word *ex = exec_value(r->home, now);
    return r->value_of == r->home->exec_stamp ? r->value : value_make(r, now, ex);   /* made under the same executions */
}

const word *rel_value(const struct rel *r)
{
    if (!rel_may_on(r))
        return NULL;
    return value_at(r, cnf_model_number(r->home->c) + 1);
}

bool rel_candidates_acyclic(const struct rel *r)
{
    if (!r->candidates_acyclic)   /* asked once: the candidates are made once */
        ((struct rel *)r)->candidates_acyclic = rel_may_on(r) && !rel_bits_cyclic(rel_may(r, false), r->n) ? 1 : -1;
    return r->candidates_acyclic > 0;
}
