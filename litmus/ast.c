/* Freeing the litmus AST and naming its enumerations. */
#include "litmus/ast.h"
#include "util/xalloc.h"

#include <stdlib.h>

int assertion_chain(const struct assertion *a, const struct assertion **ops)
{
    int n = 1;
    if (a->kind == A_AND || a->kind == A_OR)
        for (const struct assertion *x = a; x->kind == a->kind; x = x->lhs)
            n++;
    if (ops) {
        int i = n;
        for (; i > 1; a = a->lhs)
            ops[--i] = a->rhs;
        ops[0] = a;
    }
    return n;
}

/* Frees an assertion tree: down lhs (a chain's spine, a negation's operand)
 * by a loop, rhs (an operand of a chain) by recursion, whose depth the
 * parser's limit on nesting bounds. */
void assertion_free(struct assertion *a)
{
    while (a) {
        struct assertion *next = a->lhs;
        assertion_free(a->rhs);
        free(a);
        a = next;
    }
}

/* A deep copy of an assertion tree (NULL for NULL): down lhs by a loop,
 * rhs by recursion, as assertion_free walks it. */
struct assertion *assertion_copy(const struct assertion *a)
{
    struct assertion *head = NULL, **tail = &head;
    for (; a; a = a->lhs) {
        struct assertion *c = xcalloc(1, sizeof *c);
        *c = *a;
        c->rhs = assertion_copy(a->rhs);
        c->lhs = NULL;
        *tail = c;
        tail = &c->lhs;
    }
    return head;
}

/* Frees a string of l (a name or an instruction's text) unless its string
 * pool holds it. */
void litmus_free_string(const struct litmus *l, char *s)
{
    if (!strpool_owns(&l->strings, s))
        free(s);
}

/* Frees an array of l unless its string pool holds it. */
static void free_array(const struct litmus *l, void *array)
{
    if (array && !strpool_owns(&l->strings, array))
        free(array);
}

/* Frees an array of n strings of l and the array itself. */
static void free_strings(const struct litmus *l, char **strings, int n)
{
    if (!strings)
        return;
    for (int i = 0; i < n; i++)
        litmus_free_string(l, strings[i]);
    free_array(l, strings);
}

/* Frees what one thread of l owns (not the thread struct itself). */
static void free_thread(const struct litmus *l, struct thread *t)
{
    free_strings(l, t->reg_names, t->nregs);
    free_array(l, t->reg_has_init);
    free_array(l, t->reg_init);
    free_strings(l, t->label_names, t->nlabels);
    if (t->instrs) {
        for (int i = 0; i < t->ninstrs; i++)
            litmus_free_string(l, t->instrs[i].text);
        free(t->instrs);
    }
}

/* Frees everything litmus_parse allocated; NULL is fine. */
void litmus_free(struct litmus *l)
{
    if (!l)
        return;
    if (l->threads) {
        for (int i = 0; i < l->nthreads; i++)
            free_thread(l, &l->threads[i]);
        free_array(l, l->threads);
    }
    if (l->locs) {
        for (int i = 0; i < l->nlocs; i++)
            litmus_free_string(l, l->locs[i].name);
        free_array(l, l->locs);
    }
    free_array(l, l->ssw);
    free(l->observed);
    assertion_free(l->assertion);
    assertion_free(l->filter);
    litmus_free_string(l, l->name);
    litmus_free_string(l, l->doc);
    litmus_free_string(l, l->path);
    strpool_free(&l->strings);
    free(l);
}

/* Name of a dialect, "PTX", "Vulkan" or "OpenCL". */
const char *dialect_name(enum dialect d)
{
    return d == DIALECT_PTX ? "PTX" : d == DIALECT_VULKAN ? "Vulkan" : "OpenCL";
}

/* Name of a memory order, e.g. "acq_rel". */
const char *mo_name(enum mo mo)
{
    switch (mo) {
    case MO_NONE: return "none";
    case MO_WEAK: return "weak";
    case MO_RELAXED: return "relaxed";
    case MO_ACQUIRE: return "acquire";
    case MO_RELEASE: return "release";
    case MO_ACQ_REL: return "acq_rel";
    case MO_SC: return "sc";
    }
    return "?";
}

/* Name of a scope, e.g. "gpu". */
const char *scope_name(enum scope s)
{
    switch (s) {
    case SCOPE_NONE: return "none";
    case SCOPE_CTA: return "cta";
    case SCOPE_GPU: return "gpu";
    case SCOPE_SYS: return "sys";
    case SCOPE_SG: return "sg";
    case SCOPE_WG: return "wg";
    case SCOPE_QF: return "qf";
    case SCOPE_DV: return "dv";
    case SCOPE_WI: return "wi";
    case SCOPE_ALL: return "all";
    }
    return "?";
}

/* Name of a proxy, e.g. "surface". */
const char *proxy_name(enum proxy p)
{
    switch (p) {
    case PROXY_GENERIC: return "generic";
    case PROXY_TEXTURE: return "texture";
    case PROXY_SURFACE: return "surface";
    case PROXY_CONSTANT: return "constant";
    }
    return "?";
}

/* Drops the test's filter. */
void litmus_drop_filter(struct litmus *l)
{
    if (!l)
        return;
    assertion_free(l->filter);
    l->filter = NULL;
}
