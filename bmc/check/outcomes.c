/* Outcome sets: observed values, states, JSON and herd-style text. */
#include "bmc/check/outcomes.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* An observed value met in a condition, with where it appears. */
struct sighting {
    struct avalue v;
    struct srcpos pos;
    int order;               /* tie-break: left operand before right, then tree order */
};

struct sightings {
    struct sighting *a;
    int n, cap;
};

static void sight(struct sightings *s, const struct avalue *v, struct srcpos pos)
{
    if (v->kind == AV_CONST)
        return;
    XGROW(s->a, s->cap, s->n + 1);
    s->a[s->n] = (struct sighting){ *v, pos, s->n };
    s->n++;
}

/* Collects the registers and locations of an assertion tree. */
static void sight_assertion(struct sightings *s, const struct assertion *a)
{
    if (!a)
        return;
    if (a->kind == A_CMP) {
        sight(s, &a->a, a->pos);
        sight(s, &a->b, a->pos);
    }
    sight_assertion(s, a->lhs);
    sight_assertion(s, a->rhs);
}

static int by_position(const void *x, const void *y)
{
    const struct sighting *a = x, *b = y;
    if (a->pos.line != b->pos.line)
        return a->pos.line < b->pos.line ? -1 : 1;
    if (a->pos.col != b->pos.col)
        return a->pos.col < b->pos.col ? -1 : 1;
    return (a->order > b->order) - (a->order < b->order);
}

static bool same_value(const struct avalue *a, const struct avalue *b)
{
    if (a->kind != b->kind)
        return false;
    return a->kind == AV_REG ? a->thread == b->thread && a->reg == b->reg : a->loc == b->loc;
}

/* Adds v to the observed values unless it is there already. */
static void observe(struct outcome_set *o, const struct litmus *l, const struct avalue *v)
{
    for (int i = 0; i < o->nobs; i++)
        if (same_value(&o->obs[i], v))
            return;
    o->obs = xrealloc(o->obs, (size_t)(o->nobs + 1) * sizeof *o->obs);
    o->names = xrealloc(o->names, (size_t)(o->nobs + 1) * sizeof *o->names);
    o->obs[o->nobs] = *v;
    if (v->kind == AV_REG) {
        const struct thread *t = &l->threads[v->thread];
        size_t len = strlen(t->reg_names[v->reg]) + 16;
        o->names[o->nobs] = xcalloc(len, 1);
        snprintf(o->names[o->nobs], len, "P%d:%s", t->id, t->reg_names[v->reg]);
    } else {
        o->names[o->nobs] = xstrdup(l->locs[v->loc].name);
    }
    o->nobs++;
}

void outcomes_init(struct outcome_set *o, const struct litmus *l)
{
    memset(o, 0, sizeof *o);
    o->complete = true;
    if (l->has_locations) {
        for (int i = 0; i < l->nobserved; i++)
            observe(o, l, &l->observed[i]);
        return;
    }
    struct sightings s = { 0 };
    sight_assertion(&s, l->filter);
    sight_assertion(&s, l->assertion);
    if (s.n > 0)
        qsort(s.a, (size_t)s.n, sizeof *s.a, by_position);
    for (int i = 0; i < s.n; i++)
        observe(o, l, &s.a[i].v);
    free(s.a);
}

void outcomes_init_observing(struct outcome_set *o, const struct litmus *l, const struct avalue *obs, int n)
{
    memset(o, 0, sizeof *o);
    o->complete = true;
    for (int i = 0; i < n; i++)
        observe(o, l, &obs[i]);
}

void outcomes_free(struct outcome_set *o)
{
    for (int i = 0; i < o->nobs; i++)
        free(o->names[i]);
    free(o->names);
    free(o->obs);
    free(o->values);
    free(o->satisfies);
    memset(o, 0, sizeof *o);
}

/* Lexicographic comparison of two rows of n values. */
static int compare_rows(const int32_t *a, const int32_t *b, int n)
{
    for (int i = 0; i < n; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

bool outcomes_add(struct outcome_set *o, const int32_t *values, bool satisfies)
{
    int lo = 0, hi = o->nstates;
    while (lo < hi) {            /* first row not below values */
        int mid = lo + (hi - lo) / 2;
        if (compare_rows(o->values + (size_t)mid * o->nobs, values, o->nobs) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < o->nstates && compare_rows(o->values + (size_t)lo * o->nobs, values, o->nobs) == 0)
        return false;
    if (o->nstates == o->cap) {
        o->cap = xcapacity(o->cap, o->nstates + 1, 16);
        o->values = xrealloc(o->values, (size_t)o->cap * (size_t)o->nobs * sizeof *o->values);
        XRESIZE(o->satisfies, o->cap);
    }
    size_t row = (size_t)o->nobs;
    memmove(o->values + (lo + 1) * row, o->values + lo * row,
            (size_t)(o->nstates - lo) * row * sizeof *o->values);
    memmove(o->satisfies + lo + 1, o->satisfies + lo, (size_t)(o->nstates - lo) * sizeof *o->satisfies);
    if (row > 0)
        memcpy(o->values + lo * row, values, row * sizeof *values);
    o->satisfies[lo] = satisfies;
    o->nstates++;
    return true;
}

void outcomes_incomplete(struct outcome_set *o, const char *why)
{
    size_t used = strlen(o->why_incomplete);
    snprintf(o->why_incomplete + used, sizeof o->why_incomplete - used, "%s%s", o->complete ? "" : "; ", why);
    o->complete = false;
}

int outcomes_positive(const struct outcome_set *o)
{
    int n = 0;
    for (int i = 0; i < o->nstates; i++)
        n += o->satisfies[i];
    return n;
}

cJSON *outcomes_json(const struct outcome_set *o)
{
    cJSON *j = cJSON_CreateObject();
    cJSON *names = cJSON_AddArrayToObject(j, "observed");
    for (int i = 0; i < o->nobs; i++)
        cJSON_AddItemToArray(names, cJSON_CreateString(o->names[i]));
    cJSON *states = cJSON_AddArrayToObject(j, "states");
    for (int s = 0; s < o->nstates; s++) {
        cJSON *st = cJSON_CreateObject();
        cJSON *vals = cJSON_AddObjectToObject(st, "values");
        for (int i = 0; i < o->nobs; i++)
            cJSON_AddNumberToObject(vals, o->names[i], o->values[(size_t)s * o->nobs + i]);
        cJSON_AddBoolToObject(st, "satisfies", o->satisfies[s]);
        cJSON_AddItemToArray(states, st);
    }
    int pos = outcomes_positive(o);
    cJSON_AddNumberToObject(j, "positive", pos);
    cJSON_AddNumberToObject(j, "negative", o->nstates - pos);
    cJSON_AddBoolToObject(j, "complete", o->complete);
    if (!o->complete)
        cJSON_AddStringToObject(j, "incomplete", o->why_incomplete);
    return j;
}

void outcomes_print(FILE *f, const cJSON *json)
{
    const cJSON *states = cJSON_GetObjectItemCaseSensitive(json, "states");
    const cJSON *st;
    fprintf(f, "States %d\n", cJSON_GetArraySize(states));
    cJSON_ArrayForEach(st, states) {
        const cJSON *v;
        fputs(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st, "satisfies")) ? "*>" : ":>", f);
        cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(st, "values"))
            fprintf(f, " %s=%d;", v->string, v->valueint);
        fputc('\n', f);
    }
    fprintf(f, "Positive: %d Negative: %d\n",
            (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(json, "positive")),
            (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(json, "negative")));
    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(json, "complete"))) {
        const char *why = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(json, "incomplete"));
        fprintf(f, "Note: the set may be incomplete (%s)\n", why ? why : "unknown reason");
    }
}
