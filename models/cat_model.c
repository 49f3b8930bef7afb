/* Cat-file models behind the model interface. */
#include "models/cat_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"
#include "models/cat.h"
#include "models/cat_lang.h"

struct cat_model {
    struct cat_program *prog;
    struct cat_shape shape;
    char *name;
    struct model_desc desc[2];   /* by dialect */
};

/* Builds the model from its program. */
static void cat_build(struct cat *m)
{
    cat_eval(m->md->data, m);
}

/* No program-order facts: the axioms alone decide. */
static unsigned no_po_facts(const struct program *p, int a, int b)
{
    (void)p;
    (void)a;
    (void)b;
    return 0;
}

struct cat_model *cat_model_load(const char *path, char *err, size_t errlen)
{
    struct cat_error e;
    struct cat_program *prog = cat_parse_file(path, &e);
    struct cat_model *cm = NULL;
    if (prog) {
        cm = xcalloc(1, sizeof *cm);
        cm->prog = prog;
        if (!cat_check(prog, &cm->shape, &e)) {
            cat_model_free(cm);
            cm = NULL;
        }
    }
    if (!cm) {
        if (e.line > 0)
            snprintf(err, errlen, "%s:%d:%d: error: %s", e.file, e.line, e.col, e.msg);
        else
            snprintf(err, errlen, "%s: error: %s", e.file[0] ? e.file : path, e.msg);
        return NULL;
    }
    cm->name = xstrdup(path);
    for (int d = 0; d < 2; d++) {
        enum dialect dialect = cm->shape.dialect >= 0 ? (enum dialect)cm->shape.dialect : (enum dialect)d;
        cm->desc[d] = (struct model_desc){
            .name = cm->name, .dialect = dialect, .co_total = dialect != DIALECT_PTX,
            .axioms = cm->shape.axioms, .build = cat_build, .po_facts = no_po_facts,
            .fact_axioms = { 0, 0, 0 }, .thin_air = cm->shape.thin_air, .data = prog,
        };
    }
    return cm;
}

const struct model_desc *cat_model_desc(const struct cat_model *cm, enum dialect d)
{
    return &cm->desc[d == DIALECT_VULKAN];
}

void cat_model_free(struct cat_model *cm)
{
    if (!cm)
        return;
    cat_program_free(cm->prog);
    free(cm->name);
    free(cm);
}
