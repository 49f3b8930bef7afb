/* Model registry and axiom bookkeeping. */
#include "models/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct model_desc models[] = {
    { "ptx-v6.0", DIALECT_PTX, false,
      "Coherence Coherence2 FenceSC Atomicity NoThinAir ScPerLocation Causality",
      model_ptx60_build, model_ptx60_po_facts,
      { "ScPerLocation", "ScPerLocation", "Coherence2 ScPerLocation" } },
    { "ptx-v7.5", DIALECT_PTX, false,
      "Coherence Coherence2 FenceSC Atomicity NoThinAir Causality",
      model_ptx75_build, model_ptx75_po_facts, { "Causality", "Coherence", "Coherence" } },
    { "vulkan", DIALECT_VULKAN, true, "consistency-cycle consistency-rf atomic racy3c3", model_vulkan_build,
      model_vulkan_po_facts, { "consistency-cycle", "consistency-cycle", "consistency-cycle" } },
    { "vulkan-nochains", DIALECT_VULKAN, true, "consistency-cycle consistency-rf atomic racy3c3",
      model_vulkan_nochains_build, model_vulkan_po_facts,
      { "consistency-cycle", "consistency-cycle", "consistency-cycle" } },
};

const struct model_desc *model_find(const char *name)
{
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        if (strcmp(models[i].name, name) == 0)
            return &models[i];
    return NULL;
}

const char *model_names(void) { return "ptx-v6.0 ptx-v7.5 vulkan vulkan-nochains"; }

/* True when the space-separated list names contains name (len characters). */
static bool names_contain(const char *names, const char *name, size_t len)
{
    if (len == 0)
        return false;
    for (const char *p = names; (p = strstr(p, name)) != NULL; p += len) {
        bool starts = p == names || p[-1] == ' ';
        if (starts && (p[len] == ' ' || p[len] == '\0'))
            return true;
    }
    return false;
}

bool model_has_axiom(const struct model_desc *md, const char *name)
{
    return names_contain(md->axioms, name, strlen(name));
}

struct skeleton model_skeleton(const struct model_desc *md, const char *const *disabled, int ndisabled)
{
    struct skeleton k = { .co_total = md->co_total, .po_facts = md->po_facts, .on = 0 };
    for (int f = 0; f < PO_NFACTS; f++) {
        bool on = true;
        for (int i = 0; i < ndisabled; i++)
            on &= !names_contain(md->fact_axioms[f], disabled[i], strlen(disabled[i]));
        if (on)
            k.on |= PO_BIT(f);
    }
    return k;
}

void model_axiom(struct cnf *c, struct model_out *out, const char *name, enum axiom_kind kind,
                 struct rel r)
{
    if (out->naxioms == MODEL_MAX_AXIOMS) {
        fprintf(stderr, "gpubmc: internal error: too many axioms\n");
        abort();
    }
    lit v = LIT_FALSE;
    switch (kind) {
    case AX_EMPTY: case AX_FLAG: v = rel_nonempty(c, &r); break;
    case AX_IRREFLEXIVE: v = rel_reflexive_some(c, &r); break;
    case AX_ACYCLIC: v = cnf_symbolic(c) ? LIT_FALSE : rel_cyclic(c, &r); break;
    }
    out->axioms[out->naxioms++] = (struct axiom){ name, kind, v, r };
}

void model_export(struct model_out *out, const char *name, struct rel r)
{
    if (out->nexports == MODEL_MAX_EXPORTS) {
        rel_free(&r);
        return;
    }
    out->exports[out->nexports++] = (struct named_rel){ name, r };
}

void model_out_free(struct model_out *out)
{
    for (int i = 0; i < out->naxioms; i++)
        rel_free(&out->axioms[i].rel);
    for (int i = 0; i < out->nexports; i++)
        rel_free(&out->exports[i].rel);
    out->naxioms = out->nexports = 0;
}
