/* --compare-model: refinement of a program by itself under two models. */
#include "bmc/compare/compare.h"

#include <stdio.h>
#include <string.h>

#include "bmc/check/load.h"
#include "bmc/compare/refinement.h"
#include "models/cat_model.h"

/* One direction: what `allows` allows and `forbids` forbids; its entry in
 * directions, its verdict in *v and reason in why. */
static void direction(const struct program *p, const struct model_desc *forbids, const struct model_desc *allows,
                      const struct check_opts *o, cJSON *directions, enum verdict *v, char *why, size_t len)
{
    struct refinement_source s;
    struct check_result r;
    memset(&r, 0, sizeof r);
    if (refinement_source_init(&s, p, forbids, o, &r)) {
        s.target_md = allows;
        refinement_check(&s, p, &r);
    }
    refinement_source_free(&s);
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "allows", allows->name);
    cJSON_AddStringToObject(d, "forbids", forbids->name);
    cJSON_AddStringToObject(d, "result", verdict_name(r.verdict));
    cJSON_AddStringToObject(d, "reason", r.reason);
    cJSON_AddItemToObject(d, "details", r.details ? r.details : cJSON_CreateNull());
    cJSON_AddItemToArray(directions, d);
    cJSON_Delete(r.witness);
    *v = r.verdict;
    snprintf(why, len, "%.400s", r.reason);
}

/* The verdict of both directions: an error, a difference, an open
 * question, or agreement. */
static enum verdict combine(enum verdict a, enum verdict b)
{
    if (a == V_ERROR || b == V_ERROR)
        return V_ERROR;
    if (a == V_FAIL || b == V_FAIL)
        return V_FAIL;
    return a == V_UNKNOWN || b == V_UNKNOWN ? V_UNKNOWN : V_PASS;
}

void check_compare_model(const char *path, const char *m2_name, const struct cat_model *m2_cat,
                         const struct check_opts *o, struct check_result *r)
{
    struct loaded g;
    const struct model_desc *m2 = NULL;
    if (!check_begin(path, o, &g, r)) {
        /* r names the problem */
    } else if (!(m2 = m2_cat ? cat_model_desc(m2_cat, g.lit->dialect) : model_find(m2_name))
               || m2->dialect != g.lit->dialect) {
        snprintf(r->reason, sizeof r->reason, "%s: error: model %s does not check %s tests", path,
                 m2_name, dialect_name(g.lit->dialect));
    } else if (m2 == g.md) {
        snprintf(r->reason, sizeof r->reason, "%s: error: --compare-model %s is the model this test is checked "
                 "under (%s): comparing it with itself tells nothing; name another model", path, m2->name,
                 o->model ? "--model" : "the dialect's default");
    } else {
        const struct model_desc *m1 = g.md;
        enum verdict v12, v21;
        char why12[420], why21[420];
        r->details = cJSON_CreateObject();
        cJSON_AddStringToObject(r->details, "kind", "compare-model");
        cJSON *dirs = cJSON_AddArrayToObject(r->details, "directions");
        direction(g.p, m1, m2, o, dirs, &v12, why12, sizeof why12);
        direction(g.p, m2, m1, o, dirs, &v21, why21, sizeof why21);
        r->verdict = combine(v12, v21);
        if (r->verdict != V_ERROR)
            snprintf(r->engine, sizeof r->engine, "sat");
        if (r->verdict == V_PASS)
            snprintf(r->reason, sizeof r->reason, "%s and %s agree on this test", m1->name, m2->name);
        else if (v12 == V_FAIL || (v12 != V_PASS && v21 != V_FAIL))
            snprintf(r->reason, sizeof r->reason, "%s allows what %s forbids: %s", m2->name, m1->name, why12);
        else
            snprintf(r->reason, sizeof r->reason, "%s allows what %s forbids: %s", m1->name, m2->name, why21);
    }
    check_end(&g, r);
}
