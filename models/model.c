/* Model registry and axiom bookkeeping. */
#include "models/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct model_desc models[] = {
    { "ptx-v6.0", DIALECT_PTX, false,
      "Coherence Coherence2 FenceSC Atomicity NoThinAir ScPerLocation Causality",
      model_ptx60_build },
    { "ptx-v7.5", DIALECT_PTX, false,
      "Coherence Coherence2 FenceSC Atomicity NoThinAir Causality",
      model_ptx75_build },
    { "vulkan", DIALECT_VULKAN, true, "consistency-cycle consistency-rf atomic racy3c3", model_vulkan_build },
    { "vulkan-nochains", DIALECT_VULKAN, true, "consistency-cycle consistency-rf atomic racy3c3",
      model_vulkan_nochains_build },
};

const struct model_desc *model_find(const char *name)
{
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        if (strcmp(models[i].name, name) == 0)
            return &models[i];
    return NULL;
}

const char *model_names(void) { return "ptx-v6.0 ptx-v7.5 vulkan vulkan-nochains"; }

bool model_has_axiom(const struct model_desc *md, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = md->axioms; (p = strstr(p, name)) != NULL; p += len) {
        bool starts = p == md->axioms || p[-1] == ' ';
        if (starts && (p[len] == ' ' || p[len] == '\0'))
            return true;
    }
    return false;
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
