/* Parse, model, unroll, with errors that name the file. */
#include "bmc/compare/load.h"

#include <stdio.h>
#include <string.h>

bool load_program(const char *path, const struct check_opts *o, struct loaded *out, struct check_result *r)
{
    struct litmus_error err;
    char msg[256] = "";
    memset(out, 0, sizeof *out);
    out->lit = litmus_parse_file(path, &err);
    if (!out->lit) {
        if (err.pos.line > 0)
            snprintf(r->reason, sizeof r->reason, "%s:%d:%d: error: %s", path, err.pos.line, err.pos.col, err.msg);
        else
            snprintf(r->reason, sizeof r->reason, "%s: error: %s", path, err.msg);
        return false;
    }
    const char *name = o->model ? o->model : check_default_model(out->lit);
    out->md = check_model(o, name, out->lit->dialect);
    name = out->md ? out->md->name : name;
    snprintf(r->model, sizeof r->model, "%s", name);
    if (!out->md || out->md->dialect != out->lit->dialect) {
        snprintf(r->reason, sizeof r->reason, "%s: error: model %s does not check %s tests", path, name,
                 dialect_name(out->lit->dialect));
        return false;
    }
    out->p = program_build(out->lit, o->bound, msg, sizeof msg);
    if (!out->p)
        snprintf(r->reason, sizeof r->reason, "%s: error: %s", path, msg);
    return out->p != NULL;
}

void loaded_free(struct loaded *l)
{
    program_free(l->p);
    litmus_free(l->lit);
    memset(l, 0, sizeof *l);
}
