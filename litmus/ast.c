/* Freeing the litmus AST and naming its enumerations. */
#include "litmus/ast.h"

#include <stdlib.h>

/* Frees an assertion tree (its depth is bounded by the parser). */
static void free_assertion(struct assertion *a)
{
    if (!a)
        return;
    free_assertion(a->lhs);
    free_assertion(a->rhs);
    free(a);
}

/* Frees an array of n strings and the array itself. */
static void free_strings(char **strings, int n)
{
    if (!strings)
        return;
    for (int i = 0; i < n; i++)
        free(strings[i]);
    free(strings);
}

/* Frees what one thread owns (not the thread struct itself). */
static void free_thread(struct thread *t)
{
    free_strings(t->reg_names, t->nregs);
    free(t->reg_has_init);
    free(t->reg_init);
    free_strings(t->label_names, t->nlabels);
    if (t->instrs) {
        for (int i = 0; i < t->ninstrs; i++)
            free(t->instrs[i].text);
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
            free_thread(&l->threads[i]);
        free(l->threads);
    }
    if (l->locs) {
        for (int i = 0; i < l->nlocs; i++)
            free(l->locs[i].name);
        free(l->locs);
    }
    free(l->ssw);
    free(l->observed);
    free_assertion(l->assertion);
    free_assertion(l->filter);
    free(l->name);
    free(l->path);
    free(l);
}

/* Name of a dialect, "PTX" or "Vulkan". */
const char *dialect_name(enum dialect d)
{
    return d == DIALECT_PTX ? "PTX" : "Vulkan";
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
    free_assertion(l->filter);
    l->filter = NULL;
}
