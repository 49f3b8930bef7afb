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
        for (int i = 0; i < r->n; i++)
            b[i] = bits[i] & ex[0] & (0 - (ex[0] >> i & 1));
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
                b[(size_t)i * w + (size_t)(j / 64)] |= 1ull << (j % 64);
            }
}

const word *rel_value(const struct rel *r)
{
    if (!rel_may_on(r))
        return NULL;
    struct rel *m = (struct rel *)r;
    unsigned now = cnf_model_number(r->home->c) + 1;
    if (!r->is_static && m->value_of == now)
        return m->value;
    const word *ex = r->is_static ? exec_value(r->home, now) : NULL;
    if (r->is_static && m->value_of == r->home->exec_stamp)   /* made under the same executions */
        return m->value;
    int n = r->n, w = rel_bits_words(n);
    size_t all = (size_t)n * (size_t)w;
    if (!m->value)   /* one array per relation, made again for each model */
        m->value = rels_alloc_raw(r->home, all, sizeof *m->value);
    word *b = m->value;
    if (r->is_static) {
        static_value(r, b, w, ex);
        m->value_of = r->home->exec_stamp;
        return b;
    }
    const word *x, *y;
    switch (r->op) {
    case REL_UNION:
        x = rel_value(r->a);
        y = rel_value(r->b);
        for (size_t k = 0; k < all; k++)
            b[k] = x[k] | y[k];
        break;
    case REL_INTER:
        x = rel_value(r->a);
        y = rel_value(r->b);
        for (size_t k = 0; k < all; k++)
            b[k] = x[k] & y[k];
        break;
    case REL_DIFF:
        x = rel_value(r->a);
        y = rel_value(r->b);
        for (size_t k = 0; k < all; k++)
            b[k] = x[k] & ~y[k];
        break;
    case REL_INV: rel_bits_transpose(b, rel_value(r->a), n, w); break;
    case REL_SEQ: rel_bits_compose(b, rel_value(r->a), rel_value(r->b), n, w); break;
    case REL_PLUS: rel_bits_close(b, rel_value(r->a), n, w); break;
    default: rows_value(r, b, w); break;   /* a built relation */
    }
    m->value_of = now;
    return b;
}

bool rel_candidates_acyclic(const struct rel *r)
{
    return rel_may_on(r) && !rel_bits_cyclic(rel_may(r, false), r->n);
}
