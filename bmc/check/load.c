/* Begin, parse, model, unroll, end, with errors that name the file. */
#include "bmc/check/load.h"

#include <stdio.h>
#include <stddef.h>
#include <string.h>

#include "program/load_memo.h"
#include "models/cat_model.h"

/* The model a test is checked under without --model: ptx-v7.5 for PTX,
 * vulkan for Vulkan, opencl for OpenCL. */
static const char *default_model(const struct litmus *l)
{
    return l->dialect == DIALECT_PTX ? "ptx-v7.5" : l->dialect == DIALECT_VULKAN ? "vulkan" : "opencl";
}

bool check_begin(const char *path, const struct check_opts *o, struct loaded *out, struct check_result *r)
{
    double t0 = check_clock_ms();
    memset(r, 0, offsetof(struct check_result, progress));   /* progress[] past nprogress is never read */
    r->verdict = V_ERROR;
    bool ok = load_program(path, o, out, r);
    out->t0 = t0;
    return ok;
}

void check_end(struct loaded *ld, struct check_result *r)
{
    r->ms = check_clock_ms() - ld->t0;
    loaded_free(ld);
}

void check_name_error(const char *path, int line, int col, struct check_result *r)
{
    char msg[sizeof r->reason];
    snprintf(msg, sizeof msg, "%s", r->reason);
    for (char *nl = strchr(msg, '\n'); nl; nl = strchr(nl, '\n'))
        *nl = ' ';
    int n = line > 0 ? snprintf(r->reason, sizeof r->reason, "%s:%d:%d: error: %s", path, line, col, msg)
                     : snprintf(r->reason, sizeof r->reason, "%s: error: %s", path, msg);
    if (n >= (int)sizeof r->reason)
        memcpy(r->reason + sizeof r->reason - 4, "...", 4);
}

/* True when md, the model named name, checks l's dialect; otherwise
 * false with why in r->reason (the file not named yet). */
static bool model_fits(const struct litmus *l, const char *name, const struct model_desc *md,
                       struct check_result *r)
{
    if (!md) {
        char names[128];
        model_names(names, sizeof names);
        snprintf(r->reason, sizeof r->reason, "model %s is not available (have: %s)", name, names);
        return false;
    }
    if (md->dialect != l->dialect) {
        snprintf(r->reason, sizeof r->reason, "model %s is for %s tests, this is a %s test",
                 name, dialect_name(md->dialect), dialect_name(l->dialect));
        return false;
    }
    return true;
}

bool load_program(const char *path, const struct check_opts *o, struct loaded *out, struct check_result *r)
{
    struct litmus_error err = { 0 };
    char msg[256] = "";
    memset(out, 0, sizeof *out);
    const int *grid = o->has_grid ? o->grid : NULL;
    if (o->ignore_filter)   /* dropping the filter changes the litmus: no parse kept */
        out->lit = litmus_parse_file_grid(path, grid, &err);
    else
        out->lit = load_memo_litmus(path, grid, &err, &out->lit_kept);
    if (!out->lit) {
        snprintf(r->reason, sizeof r->reason, "%s", err.msg);
        check_name_error(path, err.pos.line, err.pos.col, r);
        return false;
    }
    if (o->ignore_filter)
        litmus_drop_filter(out->lit);
    const char *name = o->model ? o->model : default_model(out->lit);
    out->md = check_model(o, name, out->lit->dialect);
    name = out->md ? out->md->name : name;
    size_t name_len = strnlen(name, sizeof r->model - 1);   /* as snprintf would cut it, without its cost */
    memcpy(r->model, name, name_len);
    r->model[name_len] = '\0';
    if (!model_fits(out->lit, name, out->md, r)) {
        check_name_error(path, 0, 0, r);
        return false;
    }
    if (o->ignore_filter)
        out->p = program_build(out->lit, o->bound, msg, sizeof msg);
    else
        out->p = load_memo_program(out->lit, o->bound, msg, sizeof msg, &out->p_kept);
    if (!out->p) {
        snprintf(r->reason, sizeof r->reason, "%s", msg);
        check_name_error(path, 0, 0, r);
    }
    return out->p != NULL;
}

const struct model_desc *check_model(const struct check_opts *o, const char *name, int d)
{
    return o->cat ? cat_model_desc(o->cat, (enum dialect)d) : model_find(name);
}

void loaded_free(struct loaded *l)
{
    if (!l->p_kept)
        program_free(l->p);
    if (l->lit_kept)
        load_memo_give_back(l->lit);
    else
        litmus_free(l->lit);
    memset(l, 0, sizeof *l);
}
