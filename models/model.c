/* Model registry, builds and axiom bookkeeping. */
#include "models/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"
#include "models/cat.h"

/* The weakening of both Vulkan models (model_vulkan_weak_build); not
 * named on the command line. */
static const struct model_desc vulkan_weak = {
    "vulkan (weakened: locord without availability/visibility)", DIALECT_VULKAN, true, model_vulkan_axioms,
    model_vulkan_weak_build, model_vulkan_po_facts,
    { AXIOM_BIT(VULKAN_CONSISTENCY_CYCLE), AXIOM_BIT(VULKAN_CONSISTENCY_CYCLE), AXIOM_BIT(VULKAN_CONSISTENCY_CYCLE),
      AXIOM_BIT(VULKAN_CONSISTENCY_CYCLE) },
    -1, NULL, true, NULL, model_vulkan_co_seen
};

/* Per model: its facts (PO_NO_FUTURE_READ, PO_CO_NOT_BACK, PO_CO_ALONG,
 * PO_RF_COHERENT) with the axioms each rests on, as the comment above its
 * po_facts argues (PO_RF_COHERENT: CoWR's axiom and CoRW's; the PTX models
 * have no co_seen: argued there, not assumed, measured slower). */
static const struct model_desc models[] = {
    { "ptx-v6.0", DIALECT_PTX, false, model_ptx60_axioms, model_ptx60_build, model_ptx60_po_facts,
      { AXIOM_BIT(PTX60_SC_PER_LOCATION), AXIOM_BIT(PTX60_SC_PER_LOCATION),
        AXIOM_BIT(PTX_COHERENCE2) | AXIOM_BIT(PTX60_SC_PER_LOCATION),
        AXIOM_BIT(PTX_COHERENCE) | AXIOM_BIT(PTX60_SC_PER_LOCATION) }, PTX_NO_THIN_AIR, NULL, false, NULL, NULL },
    { "ptx-v7.5", DIALECT_PTX, false, model_ptx75_axioms, model_ptx75_build, model_ptx75_po_facts,
      { AXIOM_BIT(PTX75_CAUSALITY), AXIOM_BIT(PTX_COHERENCE), AXIOM_BIT(PTX_COHERENCE),
        AXIOM_BIT(PTX_COHERENCE) | AXIOM_BIT(PTX75_CAUSALITY) }, PTX_NO_THIN_AIR, NULL, false, NULL, NULL },
    { "vulkan", DIALECT_VULKAN, true, model_vulkan_axioms, model_vulkan_build, model_vulkan_po_facts,
      { AXIOM_BIT(VULKAN_CONSISTENCY_CYCLE), AXIOM_BIT(VULKAN_CONSISTENCY_CYCLE), AXIOM_BIT(VULKAN_CONSISTENCY_CYCLE),
      AXIOM_BIT(VULKAN_CONSISTENCY_CYCLE) },
      -1, NULL, true, &vulkan_weak, model_vulkan_co_seen },
    { "vulkan-nochains", DIALECT_VULKAN, true, model_vulkan_axioms, model_vulkan_nochains_build,
      model_vulkan_po_facts,
      { AXIOM_BIT(VULKAN_CONSISTENCY_CYCLE), AXIOM_BIT(VULKAN_CONSISTENCY_CYCLE), AXIOM_BIT(VULKAN_CONSISTENCY_CYCLE),
      AXIOM_BIT(VULKAN_CONSISTENCY_CYCLE) },
      -1, NULL, true, &vulkan_weak, model_vulkan_co_seen },
    { "opencl", DIALECT_OPENCL, true, model_opencl_axioms, model_opencl_build, model_opencl_po_facts,
      { AXIOM_BIT(OPENCL_RF), AXIOM_BIT(OPENCL_COH_G) | AXIOM_BIT(OPENCL_COH_L),
        AXIOM_BIT(OPENCL_COH_G) | AXIOM_BIT(OPENCL_COH_L), AXIOM_BIT(OPENCL_COH_G) | AXIOM_BIT(OPENCL_COH_L) },
      -1, NULL, true, NULL, model_opencl_co_seen },
};

#define NMODELS (sizeof models / sizeof models[0])

const struct model_desc *model_find(const char *name)
{
    for (size_t i = 0; i < NMODELS; i++)
        if (strcmp(models[i].name, name) == 0)
            return &models[i];
    return NULL;
}

const struct model_desc *model_at(int i)
{
    return i >= 0 && (size_t)i < NMODELS ? &models[i] : NULL;
}

void model_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < NMODELS && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", models[i].name);
}

void model_axiom_names(const struct model_desc *md, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; md->axioms[k].name && used < len; k++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", k ? " " : "", md->axioms[k].name);
}

/* The index of axiom name in md's table, -1 if none: first by pointer (a
 * model names its axioms with its table's literals, one object each in its
 * file), then by content. */
static int axiom_index(const struct model_desc *md, const char *name)
{
    for (int k = 0; md->axioms[k].name; k++)
        if (md->axioms[k].name == name)
            return k;
    for (int k = 0; md->axioms[k].name; k++)
        if (strcmp(md->axioms[k].name, name) == 0)
            return k;
    return -1;
}

bool model_has_axiom(const struct model_desc *md, const char *name)
{
    return axiom_index(md, name) >= 0;
}

/* The axioms of md's table named in disabled, as a set. */
static unsigned disabled_axioms(const struct model_desc *md, const char *const *disabled, int ndisabled)
{
    unsigned off = 0;
    for (int i = 0; i < ndisabled; i++) {
        int k = axiom_index(md, disabled[i]);
        if (k >= 0)
            off |= AXIOM_BIT(k);
    }
    return off;
}

struct skeleton model_skeleton(const struct model_desc *md, const char *const *disabled, int ndisabled)
{
    struct skeleton k = model_skeleton_without_facts(md);
    unsigned off = disabled_axioms(md, disabled, ndisabled);
    for (int f = 0; f < PO_NFACTS; f++)
        if (!(md->fact_axioms[f] & off))
            k.on |= PO_BIT(f);
    return k;
}

struct skeleton model_skeleton_without_facts(const struct model_desc *md)
{
    return (struct skeleton){ .co_total = md->co_total, .po_facts = md->po_facts, .co_seen = md->co_seen, .on = 0 };
}

bool model_forbids_value_cycles(const struct model_desc *md, const char *const *disabled, int ndisabled)
{
    return md->thin_air >= 0 && !(disabled_axioms(md, disabled, ndisabled) & AXIOM_BIT(md->thin_air));
}

/* Ends the process on a model that breaks its own table: a programming error. */
static void model_bug(const char *what, const char *name)
{
    fprintf(stderr, "gpubmc: internal error: %s: %s\n", what, name);
    abort();
}

void cat_axiom(struct cat *m, const char *name, const struct rel *r)
{
    int k = axiom_index(m->md, name);
    if (k < 0 || k >= MODEL_MAX_AXIOMS || m->out->axioms[k].name)
        model_bug("an axiom not in the model's table, or built twice", name);
    m->out->axioms[k] = (struct axiom){ name, m->md->axioms[k].kind, LIT_FALSE, r };
    if (!cnf_symbolic(m->c))   /* concrete: every verdict at once */
        m->out->axioms[k].violated = model_violated(m->out, k);
}

void cat_undefined_behavior(struct cat *m)
{
    cat_axiom(m, "undefined-behavior", cat_id(m, SET(S_UB)));
}

void cat_export(struct cat *m, const char *name, const struct rel *r)
{
    if (m->out->nexports == MODEL_MAX_EXPORTS)
        model_bug("more exports than MODEL_MAX_EXPORTS", name);
    m->out->exports[m->out->nexports++] = (struct named_rel){ name, r };
}

/* model_build, the flags' relations made only where flags is set. */
static void build(const struct model_desc *md, struct cnf *c, const struct base *b, struct model_out *out,
                  bool flags)
{
    memset(out, 0, sizeof *out);
    out->arena = rels_new_child(b->arena);
    struct cat m = { c, b, out->arena, md, out, flags, rels_dense(out->arena) };
    md->build(&m);
    for (int k = 0; md->axioms[k].name; k++)
        if (!out->axioms[k].name)
            model_bug("an axiom of the table was not built", md->axioms[k].name);
        else
            out->naxioms = k + 1;
}

void model_build(const struct model_desc *md, struct cnf *c, const struct base *b, struct model_out *out)
{
    build(md, c, b, out, true);
}

void model_build_unflagged(const struct model_desc *md, struct cnf *c, const struct base *b, struct model_out *out)
{
    build(md, c, b, out, false);
}

lit model_violated(struct model_out *out, int k)
{
    struct axiom *ax = &out->axioms[k];
    struct rels *A = out->arena;
    if (ax->violated != LIT_FALSE)
        return ax->violated;
    switch (ax->kind) {
    case AX_EMPTY: case AX_FLAG: ax->violated = rel_nonempty(A, ax->rel); break;
    case AX_IRREFLEXIVE: ax->violated = rel_reflexive_some(A, ax->rel); break;
    case AX_ACYCLIC: ax->violated = rel_cyclic(A, ax->rel); break;
    }
    return ax->violated;
}

static int by_lit(const void *x, const void *y)
{
    lit a = *(const lit *)x, b = *(const lit *)y;
    return (a > b) - (a < b);
}

/* Sorts n literals ascending: by insertion where there are few (a guard's
 * usual handful, without qsort's set-up and calls), else by qsort. */
static void sort_lits(lit *a, int n)
{
    if (n > 16) {
        qsort(a, (size_t)n, sizeof *a, by_lit);
        return;
    }
    for (int i = 1; i < n; i++) {
        lit x = a[i];
        int j = i;
        for (; j > 0 && a[j - 1] > x; j--)
            a[j] = a[j - 1];
        a[j] = x;
    }
}

void model_guard(struct cnf *c, struct model_out *out, int k, lit act)
{
    const struct axiom *ax = &out->axioms[k];
    const struct rel *r = ax->rel;
    if (ax->kind != AX_EMPTY && ax->kind != AX_IRREFLEXIVE)
        return;
    const lit *lits = NULL;
    int count = ax->kind == AX_EMPTY ? rel_lits(r, &lits) : r->n;
    lit few[64];   /* most guards' literals: no allocation */
    lit *pairs = count < 64 ? few : xcalloc((size_t)count + 1, sizeof *pairs);
    if (ax->kind == AX_EMPTY)
        for (int e = 0; e < count; e++)
            pairs[e] = lits[e];
    else   /* the diagonal's pairs that are not false: a false one forbids nothing */
        count = rel_diagonal(r, pairs);
    sort_lits(pairs, count);   /* one clause per literal */
    for (int e = 0; e < count; e++)
        if (e == 0 || pairs[e] != pairs[e - 1])
            cnf_forbid(c, act, pairs[e]);
    if (pairs != few)
        free(pairs);
}

void model_out_free(struct model_out *out)
{
    rels_free(out->arena);
    out->arena = NULL;
    out->naxioms = out->nexports = 0;
}
