/* Relation algebra over literal matrices with static sparsity. */
#include "encoders/rel.h"

#include <stdlib.h>
#include <string.h>

#include "encoders/xalloc.h"

static lit *falses(int count)
{
    lit *m = xcalloc((size_t)count, sizeof *m);
    for (int i = 0; i < count; i++)
        m[i] = LIT_FALSE;
    return m;
}

struct set set_empty(int n) { return (struct set){ n, falses(n) }; }
struct rel rel_empty(int n) { return (struct rel){ n, falses(n * n) }; }

void set_free(struct set *s)
{
    free(s->m);
    s->m = NULL;
}

void rel_free(struct rel *r)
{
    free(r->m);
    r->m = NULL;
}

struct set set_copy(const struct set *s)
{
    struct set t = set_empty(s->n);
    memcpy(t.m, s->m, (size_t)s->n * sizeof *t.m);
    return t;
}

struct rel rel_copy(const struct rel *r)
{
    struct rel t = rel_empty(r->n);
    memcpy(t.m, r->m, (size_t)r->n * r->n * sizeof *t.m);
    return t;
}

struct set set_union(struct cnf *c, const struct set *a, const struct set *b)
{
    struct set s = set_empty(a->n);
    for (int i = 0; i < a->n; i++)
        s.m[i] = cnf_or(c, a->m[i], b->m[i]);
    return s;
}

struct set set_inter(struct cnf *c, const struct set *a, const struct set *b)
{
    struct set s = set_empty(a->n);
    for (int i = 0; i < a->n; i++)
        s.m[i] = cnf_and(c, a->m[i], b->m[i]);
    return s;
}

struct set set_diff(struct cnf *c, const struct set *a, const struct set *b)
{
    struct set s = set_empty(a->n);
    for (int i = 0; i < a->n; i++)
        s.m[i] = cnf_and(c, a->m[i], -b->m[i]);
    return s;
}

struct rel rel_union(struct cnf *c, const struct rel *r, const struct rel *s)
{
    struct rel t = rel_empty(r->n);
    for (int i = 0; i < r->n * r->n; i++)
        t.m[i] = cnf_or(c, r->m[i], s->m[i]);
    return t;
}

struct rel rel_inter(struct cnf *c, const struct rel *r, const struct rel *s)
{
    struct rel t = rel_empty(r->n);
    for (int i = 0; i < r->n * r->n; i++)
        t.m[i] = cnf_and(c, r->m[i], s->m[i]);
    return t;
}

struct rel rel_diff(struct cnf *c, const struct rel *r, const struct rel *s)
{
    struct rel t = rel_empty(r->n);
    for (int i = 0; i < r->n * r->n; i++)
        t.m[i] = cnf_and(c, r->m[i], -s->m[i]);
    return t;
}

struct rel rel_seq(struct cnf *c, const struct rel *r, const struct rel *s)
{
    int n = r->n;
    struct rel t = rel_empty(n);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            lit a = r->m[i * n + k];
            if (a == LIT_FALSE)
                continue;
            for (int j = 0; j < n; j++) {
                lit b = s->m[k * n + j];
                if (b != LIT_FALSE)
                    t.m[i * n + j] = cnf_or(c, t.m[i * n + j], cnf_and(c, a, b));
            }
        }
    return t;
}

struct rel rel_inv(const struct rel *r)
{
    int n = r->n;
    struct rel t = rel_empty(n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            t.m[j * n + i] = r->m[i * n + j];
    return t;
}

struct rel rel_plus(struct cnf *c, const struct rel *r)
{
    struct rel t = rel_empty(r->n);
    cnf_closure(c, r->m, r->n, t.m);
    return t;
}

struct rel rel_opt(struct cnf *c, const struct rel *r, const struct set *dom)
{
    struct rel t = rel_copy(r);
    for (int i = 0; i < r->n; i++)
        t.m[i * r->n + i] = cnf_or(c, t.m[i * r->n + i], dom->m[i]);
    return t;
}

struct rel rel_restrict(struct cnf *c, const struct rel *r, const struct set *a, const struct set *b)
{
    int n = r->n;
    struct rel t = rel_empty(n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            lit l = r->m[i * n + j];
            if (a)
                l = cnf_and(c, l, a->m[i]);
            if (b)
                l = cnf_and(c, l, b->m[j]);
            t.m[i * n + j] = l;
        }
    return t;
}

struct rel rel_product(struct cnf *c, const struct set *a, const struct set *b)
{
    int n = a->n;
    struct rel t = rel_empty(n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            t.m[i * n + j] = cnf_and(c, a->m[i], b->m[j]);
    return t;
}

struct rel rel_id(const struct set *a)
{
    struct rel t = rel_empty(a->n);
    for (int i = 0; i < a->n; i++)
        t.m[i * a->n + i] = a->m[i];
    return t;
}

lit rel_nonempty(struct cnf *c, const struct rel *r)
{
    return cnf_or_n(c, r->m, r->n * r->n);
}

lit rel_reflexive_some(struct cnf *c, const struct rel *r)
{
    lit acc = LIT_FALSE;
    for (int i = 0; i < r->n; i++)
        acc = cnf_or(c, acc, r->m[i * r->n + i]);
    return acc;
}

lit rel_cyclic(struct cnf *c, const struct rel *r)
{
    struct rel t = rel_plus(c, r);
    lit l = rel_reflexive_some(c, &t);
    rel_free(&t);
    return l;
}

long rel_may_size(const struct rel *r)
{
    long k = 0;
    for (int i = 0; i < r->n * r->n; i++)
        k += r->m[i] != LIT_FALSE;
    return k;
}
