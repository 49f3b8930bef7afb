/* Loading the original program and checking variants against it. */
#include "bmc/transform/origin.h"

#include <stdio.h>
#include <string.h>

bool origin_load(struct origin *g, const char *path, const struct check_opts *o, struct check_result *r)
{
    memset(g, 0, sizeof *g);
    g->path = path;
    g->o = o;
    struct litmus_error err;
    g->lit = litmus_parse_file(path, &err);
    if (!g->lit) {
        if (err.pos.line > 0)
            snprintf(r->reason, sizeof r->reason, "%s:%d:%d: error: %.200s", path, err.pos.line, err.pos.col, err.msg);
        else
            snprintf(r->reason, sizeof r->reason, "%s: error: %.200s", path, err.msg);
        return false;
    }
    const char *mname = o->model ? o->model : g->lit->dialect == DIALECT_PTX ? "ptx-v7.5" : "vulkan";
    snprintf(r->model, sizeof r->model, "%s", mname);
    g->md = model_find(mname);
    if (!g->md || g->md->dialect != g->lit->dialect) {
        snprintf(r->reason, sizeof r->reason, "%s: error: model %s does not check %s tests", path, mname,
                 dialect_name(g->lit->dialect));
        return false;
    }
    char msg[256] = "";
    g->p = program_build(g->lit, o->bound, msg, sizeof msg);
    if (!g->p) {
        snprintf(r->reason, sizeof r->reason, "%s: error: %.200s", path, msg);
        return false;
    }
    g->src_ready = refinement_source_init(&g->src, g->p, g->md, o, r);
    return g->src_ready;
}

void origin_free(struct origin *g)
{
    if (g->src_ready)
        refinement_source_free(&g->src);
    program_free(g->p);
    litmus_free(g->lit);
}

void origin_check(struct origin *g, const struct litmus *target, struct check_result *r)
{
    char msg[256] = "";
    struct program *t = program_build(target, g->o->bound, msg, sizeof msg);
    if (!t) {
        memset(r, 0, sizeof *r);
        r->verdict = V_ERROR;
        snprintf(r->reason, sizeof r->reason, "error: the rewritten program: %.200s", msg);
        return;
    }
    refinement_check(&g->src, t, r);
    program_free(t);
}

cJSON *origin_site_json(const struct origin *g, const struct variant *v, const char *result,
                        struct check_result *r)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "line", v->line);
    cJSON_AddNumberToObject(j, "thread", g->lit->threads[v->thread].id);
    cJSON_AddStringToObject(j, "transformation", transform_name(v->kind));
    cJSON_AddStringToObject(j, "change", v->change);
    cJSON_AddStringToObject(j, "verdict", verdict_name(r->verdict));
    cJSON_AddStringToObject(j, "result", result);
    cJSON_AddStringToObject(j, "reason", r->reason);
    cJSON_AddItemToObject(j, "details", r->details ? r->details : cJSON_CreateNull());
    r->details = NULL;
    return j;
}
