/* Loading the original program and checking variants against it. */
#include "bmc/transform/origin.h"

#include <stdio.h>
#include <string.h>

bool origin_begin(struct origin *g, const char *path, const struct check_opts *o, struct check_result *r)
{
    memset(g, 0, sizeof *g);
    g->path = path;
    g->o = o;
    if (!check_begin(path, o, &g->prog, r))
        return false;
    g->lit = g->prog.lit;
    char why[sizeof r->reason];
    g->race_free = g->lit->dialect == DIALECT_OPENCL && o->property == P_PROGRAM_SPEC
                   && refinement_races(g->prog.p, g->prog.md, o, why, sizeof why) == 0;
    g->src_ready = refinement_source_init(&g->src, g->prog.p, g->prog.md, o, r);
    return g->src_ready;
}

void origin_end(struct origin *g, struct check_result *r)
{
    if (g->src_ready)
        refinement_source_free(&g->src);
    if (r->verdict != V_ERROR && !r->engine[0])
        snprintf(r->engine, sizeof r->engine, "%s", g->engine[0] ? g->engine : "sat");
    check_end(&g->prog, r);
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
    char why[sizeof r->reason];
    if (g->race_free && r->verdict == V_PASS && refinement_races(t, g->prog.md, g->o, why, sizeof why) == 1) {
        r->verdict = V_FAIL;
        snprintf(r->reason, sizeof r->reason, "the target can race where the source cannot: %.300s", why);
    }
    if (!g->engine[0])
        snprintf(g->engine, sizeof g->engine, "%s", r->engine);
    program_free(t);
}

cJSON *origin_site_json(const struct origin *g, const struct variant *v, const char *need,
                        struct check_result *r)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "line", v->line);
    cJSON_AddNumberToObject(j, "thread", g->lit->threads[v->thread].id);
    cJSON_AddStringToObject(j, "transformation", transform_name(v->kind));
    cJSON_AddStringToObject(j, "change", v->change);
    cJSON_AddStringToObject(j, "result", verdict_name(r->verdict));
    if (need)
        cJSON_AddStringToObject(j, "need", need);
    cJSON_AddStringToObject(j, "reason", r->reason);
    cJSON_AddItemToObject(j, "details", r->details ? r->details : cJSON_CreateNull());
    r->details = NULL;
    return j;
}
