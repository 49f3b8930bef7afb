/* Observed outcomes against allowed ones. */
#include "bmc/observed/judge.h"

#include <stdlib.h>
#include <string.h>

#include "bmc/check/enumerate.h"
#include "bmc/check/explain.h"
#include "bmc/check/load.h"
#include "bmc/observed/log.h"
#include "encoders/assertion.h"
#include "util/xalloc.h"

/* The verdict on one observed state. */
enum state_verdict { SV_ALLOWED, SV_OUTSIDE_FILTER, SV_FORBIDDEN, SV_UNKNOWN };

static const char *const state_verdict_names[] = { "allowed", "outside the filter", "forbidden", "unknown" };

/* Maps a log name ("1:r0", "P1:r0", "x", "[x]") to a register or location
 * of l; false when l has none of that name. */
static bool resolve_name(const struct litmus *l, const char *name, struct avalue *v)
{
    memset(v, 0, sizeof *v);
    const char *colon = strchr(name, ':');
    if (colon) {
        char *end;
        long id = strtol(name + (name[0] == 'P'), &end, 10);
        if (end != colon)
            return false;
        for (int t = 0; t < l->nthreads; t++)
            for (int r = 0; l->threads[t].id == id && r < l->threads[t].nregs; r++)
                if (strcmp(l->threads[t].reg_names[r], colon + 1) == 0) {
                    *v = (struct avalue){ .kind = AV_REG, .thread = t, .reg = r };
                    return true;
                }
        return false;
    }
    size_t n = strlen(name);
    bool bracket = n > 2 && name[0] == '[' && name[n - 1] == ']';
    for (int x = 0; x < l->nlocs; x++)
        if (strlen(l->locs[x].name) == n - 2 * bracket && strncmp(l->locs[x].name, name + bracket, n - 2 * bracket) == 0) {
            *v = (struct avalue){ .kind = AV_LOC, .loc = x };
            return true;
        }
    return false;
}

/* The literal "the observed values are vals". */
static lit state_is(struct sat_check *s, const struct avalue *obs, int n, const int32_t *vals)
{
    lit all = LIT_TRUE;
    for (int i = 0; i < n; i++)
        all = cnf_and(s->c, all, bv_eq(s->c, *enumerate_observed_bv(s, &obs[i]), bv_const(vals[i])));
    return all;
}

/* The index of the row vals in the outcome set, or -1. */
static int find_state(const struct outcome_set *o, const int32_t *vals)
{
    for (int k = 0; k < o->nstates; k++)
        if (memcmp(o->values + (size_t)k * o->nobs, vals, (size_t)o->nobs * sizeof *vals) == 0)
            return k;
    return -1;
}

/* {"P1:r0": 1, ...} of one row. */
static cJSON *values_json(const struct outcome_set *o, const int32_t *vals)
{
    cJSON *j = cJSON_CreateObject();
    for (int i = 0; i < o->nobs; i++)
        cJSON_AddNumberToObject(j, o->names[i], vals[i]);
    return j;
}

/* "P1:r0=1; P1:r1=0;" of one row. */
static void state_text(const struct outcome_set *o, const int32_t *vals, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < o->nobs && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s=%d;", i ? " " : "", o->names[i], vals[i]);
}

/* The value of v in the state vals over o, into *out; false when v is a
 * register or location the state does not give. */
static bool value_in_state(const struct outcome_set *o, const int32_t *vals, const struct avalue *v, int32_t *out)
{
    if (v->kind == AV_CONST) {
        *out = (int32_t)v->value;
        return true;
    }
    for (int i = 0; i < o->nobs; i++) {
        const struct avalue *w = &o->obs[i];
        if (w->kind == v->kind && (v->kind == AV_LOC ? w->loc == v->loc : w->thread == v->thread && w->reg == v->reg)) {
            *out = vals[i];
            return true;
        }
    }
    return false;
}

/* Whether assertion a holds in the state vals over o, as herd marks a log
 * line: 1 or 0, or -1 when it reads a value the state does not give. */
static int holds_in_state(const struct assertion *a, const struct outcome_set *o, const int32_t *vals)
{
    if (!a || a->kind == A_TRUE)
        return 1;
    if (a->kind == A_NOT) {
        int h = holds_in_state(a->lhs, o, vals);
        return h < 0 ? h : !h;
    }
    if (a->kind == A_CMP) {
        int32_t x, y;
        if (!value_in_state(o, vals, &a->a, &x) || !value_in_state(o, vals, &a->b, &y))
            return -1;
        return cmp_holds(a->cmp, x, y);
    }
    int n = assertion_chain(a, NULL), result = a->kind == A_AND;   /* a chain, in a loop */
    const struct assertion **ops = xcalloc((size_t)n, sizeof *ops);
    assertion_chain(a, ops);
    bool unknown = false;
    for (int i = 0; i < n && result == (a->kind == A_AND); i++) {
        int h = holds_in_state(ops[i], o, vals);
        if (h < 0)
            unknown = true;
        else if (h != (a->kind == A_AND))
            result = h;
    }
    free(ops);
    return result != (a->kind == A_AND) ? result : unknown ? -1 : result;
}

/* A state's JSON: {"values": {...}} with "satisfies" (herd's *> mark:
 * the state satisfies the test's proposition) when the state gives every
 * value the proposition reads. */
static cJSON *marked_state_json(const struct outcome_set *o, const struct litmus *l, const int32_t *vals)
{
    cJSON *st = cJSON_CreateObject();
    cJSON_AddItemToObject(st, "values", values_json(o, vals));
    int h = l->quant == Q_NONE ? 0 : holds_in_state(l->assertion, o, vals);
    if (h >= 0)
        cJSON_AddBoolToObject(st, "satisfies", h);
    return st;
}

/* What the judge works on. */
struct judge {
    struct sat_check s;
    struct outcome_set allowed;     /* over the log's names */
    const struct observed_test *t;
    lit filter, term;
    bool bounded;                   /* some loop can run past the bound */
};

/* The verdict on observed row vals; for a forbidden one, *why explains it. */
static enum state_verdict judge_state(struct judge *j, const int32_t *vals, cJSON **why, char *text, size_t len)
{
    *why = NULL;
    if (find_state(&j->allowed, vals) >= 0)
        return SV_ALLOWED;
    lit is = state_is(&j->s, j->allowed.obs, j->allowed.nobs, vals);
    lit query = cnf_and(j->s.c, cnf_and(j->s.c, is, j->filter), j->term);
    if (solve_with(&j->s, query) == 10)
        return SV_ALLOWED;
    if (solve_with(&j->s, cnf_and(j->s.c, is, j->term)) == 10)
        return SV_OUTSIDE_FILTER;
    if (j->bounded)
        return SV_UNKNOWN;
    *why = explain_forbidden(&j->s, query, GOAL_ANY, text, len);
    return SV_FORBIDDEN;
}

/* Sums the counts of equal rows of t into one entry per distinct row:
 * rows (distinct, in first-seen order) and their counts. */
static int merge_rows(const struct observed_test *t, int32_t *rows, long *counts)
{
    int n = 0, w = t->nnames;
    for (int k = 0; k < t->nstates; k++) {
        const int32_t *row = t->values + (size_t)k * w;
        int m = 0;
        while (m < n && memcmp(rows + (size_t)m * w, row, (size_t)w * sizeof *row) != 0)
            m++;
        if (m == n) {
            if (w > 0)
                memcpy(rows + (size_t)n * w, row, (size_t)w * sizeof *row);
            counts[n++] = 0;
        }
        counts[m] += t->counts[k];
    }
    return n;
}

/* Judges every distinct observed state; fills details and the verdict. */
static void judge_all(struct judge *j, cJSON *d, struct check_result *r)
{
    const struct observed_test *t = j->t;
    int w = t->nnames;
    int32_t *rows = xcalloc((size_t)t->nstates * (size_t)w + 1, sizeof *rows);
    long *counts = xcalloc((size_t)t->nstates + 1, sizeof *counts), runs = 0;
    int n = merge_rows(t, rows, counts), tally[4] = { 0 };
    bool *seen = xcalloc((size_t)j->allowed.nstates + 1, sizeof *seen);
    char named[600] = "", first_why[300] = "", why_text[768];
    cJSON *states = cJSON_AddArrayToObject(d, "states");
    for (int k = 0; k < n; k++) {
        const int32_t *row = rows + (size_t)k * w;
        int at = find_state(&j->allowed, row);
        if (at >= 0)
            seen[at] = true;
        cJSON *why;
        enum state_verdict v = judge_state(j, row, &why, why_text, sizeof why_text);
        tally[v]++;
        runs += counts[k];
        cJSON *st = marked_state_json(&j->allowed, j->s.p->lit, row);
        cJSON_AddNumberToObject(st, "count", (double)counts[k]);
        cJSON_AddStringToObject(st, "verdict", state_verdict_names[v]);
        if (why) {
            cJSON_AddStringToObject(st, "why", why_text);
            cJSON_AddItemToObject(st, "explanation", why);
            if (!r->explanation)
                r->explanation = cJSON_Duplicate(why, true);
        }
        if (v == SV_FORBIDDEN) {
            char text[300];
            size_t used = strlen(named);
            state_text(&j->allowed, row, text, sizeof text);
            snprintf(named + used, sizeof named - used, "%s%.200s (seen %ld time%s)", used ? ", " : "", text,
                     counts[k], counts[k] == 1 ? "" : "s");
            if (!first_why[0])
                snprintf(first_why, sizeof first_why, "%.290s", why_text);
        }
        cJSON_AddItemToArray(states, st);
    }
    cJSON *unobserved = cJSON_AddArrayToObject(d, "unobserved");
    int missed = 0;
    for (int k = 0; k < j->allowed.nstates; k++)
        if (!seen[k]) {
            cJSON_AddItemToArray(unobserved, marked_state_json(&j->allowed, j->s.p->lit,
                                                               j->allowed.values + (size_t)k * j->allowed.nobs));
            missed++;
        }
    if (t->counted)
        cJSON_AddNumberToObject(d, "runs", (double)runs);
    else
        cJSON_AddNullToObject(d, "runs");
    char seen_text[200];
    snprintf(seen_text, sizeof seen_text, "%d of the %d allowed outcome%s%s seen", j->allowed.nstates - missed,
             j->allowed.nstates, j->allowed.nstates == 1 ? "" : "s", j->allowed.complete ? "" : " found within the bound");
    if (tally[SV_FORBIDDEN] > 0) {
        r->verdict = V_FAIL;
        snprintf(r->reason, sizeof r->reason, "the model forbids %d of the %d observed outcome%s: %s; %s%s",
                 tally[SV_FORBIDDEN], n, n == 1 ? "" : "s", named, tally[SV_FORBIDDEN] > 1 ? "the first: " : "",
                 first_why);
    } else if (tally[SV_UNKNOWN] > 0) {
        r->verdict = V_UNKNOWN;
        snprintf(r->reason, sizeof r->reason, "%d of the %d observed outcome%s %s not reachable within the loop "
                 "bound %d, and some loop can run past it; %s", tally[SV_UNKNOWN], n, n == 1 ? "" : "s",
                 tally[SV_UNKNOWN] == 1 ? "is" : "are", j->s.p->bound, seen_text);
    } else {
        r->verdict = V_PASS;
        snprintf(r->reason, sizeof r->reason, "the model allows %s %d observed outcome%s%s; %s",
                 n == 1 ? "the" : "each of the", n, n == 1 ? "" : "s",
                 tally[SV_OUTSIDE_FILTER] ? " (some only outside the filter)" : "", seen_text);
    }
    free(rows);
    free(counts);
    free(seen);
}

/* Resolves the log's names into obs; false with r's reason naming one
 * the test lacks, or one named twice. */
static bool resolve_all(const char *path, const char *log, const struct litmus *l, const struct observed_test *t,
                        struct avalue *obs, struct check_result *r)
{
    for (int i = 0; i < t->nnames; i++) {
        bool twice = false;
        if (resolve_name(l, t->names[i], &obs[i]))
            for (int k = 0; k < i; k++)
                twice |= memcmp(&obs[k], &obs[i], sizeof obs[i]) == 0;
        else
            twice = true;
        if (twice) {
            snprintf(r->reason, sizeof r->reason, "%s: error: %s:%d: test %s: '%s' is %s", path, log, t->line,
                     l->name, t->names[i], resolve_name(l, t->names[i], &obs[i]) ? "named twice"
                                                                              : "no register or location of the test");
            return false;
        }
    }
    return true;
}

/* Enumerates the allowed states over obs and judges the log's states. */
static void judge_test(const struct loaded *ld, const char *log, const struct observed_test *t,
                       const struct avalue *obs, const struct check_opts *o, struct check_result *r)
{
    struct judge j = { .s = { .p = ld->p, .md = ld->md, .o = o }, .t = t };
    sat_setup(&j.s);
    struct final_state fs = { j.s.x.sx.final_regs, j.s.x.final_mem };
    j.filter = assertion_encode(j.s.c, ld->lit->filter, &fs);
    j.term = all_terminated(&j.s);
    lit body = assertion_encode(j.s.c, ld->lit->assertion, &fs);
    outcomes_init_observing(&j.allowed, ld->lit, obs, t->nnames);
    lit bound = some_bound_hit(&j.s);
    j.bounded = bound != LIT_FALSE && solve_with(&j.s, bound) == 10;
    if (j.bounded) {
        char why[96];
        snprintf(why, sizeof why, "some loop can run past the loop bound %d", ld->p->bound);
        outcomes_incomplete(&j.allowed, why);
    }
    bool capped = false;
    if (enumerate_states(&j.s, body, j.filter, &j.allowed, &capped, r)) {
        r->details = cJSON_CreateObject();
        cJSON_AddStringToObject(r->details, "kind", "observed");
        cJSON_AddStringToObject(r->details, "log", log);
        cJSON_AddStringToObject(r->details, "test", ld->lit->name);
        cJSON *names = cJSON_AddArrayToObject(r->details, "observed");
        for (int i = 0; i < j.allowed.nobs; i++)
            cJSON_AddItemToArray(names, cJSON_CreateString(j.allowed.names[i]));
        judge_all(&j, r->details, r);
        snprintf(r->engine, sizeof r->engine, "sat");
        cJSON_AddNumberToObject(r->details, "allowed", j.allowed.nstates);
        cJSON_AddBoolToObject(r->details, "complete", j.allowed.complete);
        if (!j.allowed.complete)
            cJSON_AddStringToObject(r->details, "incomplete", j.allowed.why_incomplete);
    } else {
        r->verdict = V_ERROR;
    }
    outcomes_free(&j.allowed);
    sat_teardown(&j.s, r);
}

void check_observed(const char *path, const char *log_path, const struct check_opts *o, struct check_result *r)
{
    struct loaded ld;
    struct observed_test t;
    memset(&t, 0, sizeof t);
    if (check_begin(path, o, &ld, r)) {
        const char *name = ld.lit->name && *ld.lit->name ? ld.lit->name : path;
        char err[600];
        int found = observed_log_read(log_path, name, &t, err, sizeof err);
        struct avalue *obs = xcalloc((size_t)t.nnames + 1, sizeof *obs);
        if (found < 0)
            snprintf(r->reason, sizeof r->reason, "%s: error: %s", path, err);
        else if (found == 0)
            snprintf(r->reason, sizeof r->reason, "%s: error: %s has no test %s (no line \"Test %s\")", path,
                     log_path, name, name);
        else if (resolve_all(path, log_path, ld.lit, &t, obs, r))
            judge_test(&ld, log_path, &t, obs, o, r);
        free(obs);
    }
    observed_test_free(&t);
    check_end(&ld, r);
}

/* One state's mark and bindings "*> P1:r0=1; x=2;" from its object. */
static void print_marked(FILE *f, const cJSON *st)
{
    const cJSON *v;
    fputs(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st, "satisfies")) ? "*>" : ":>", f);
    cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(st, "values"))
        fprintf(f, " %s=%d;", v->string, v->valueint);
}

void observed_print(FILE *f, const cJSON *details)
{
    const cJSON *st, *runs = cJSON_GetObjectItemCaseSensitive(details, "runs");
    const cJSON *states = cJSON_GetObjectItemCaseSensitive(details, "states");
    const cJSON *unobserved = cJSON_GetObjectItemCaseSensitive(details, "unobserved");
    fprintf(f, "  Observed: %d outcome%s", cJSON_GetArraySize(states), cJSON_GetArraySize(states) == 1 ? "" : "s");
    if (cJSON_IsNumber(runs))
        fprintf(f, " in %.0f runs", runs->valuedouble);
    fputs("\n", f);
    cJSON_ArrayForEach(st, states) {
        const char *why = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(st, "why"));
        if (cJSON_IsNumber(runs))
            fprintf(f, "  %10.0f ", cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(st, "count")));
        else
            fprintf(f, "  ");
        print_marked(f, st);
        fprintf(f, "  %s%s%s\n", cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(st, "verdict")),
                why ? ": " : "", why ? why : "");
    }
    if (cJSON_GetArraySize(unobserved) == 0)
        fprintf(f, "  Allowed, never observed: none\n");
    else
        fprintf(f, "  Allowed, never observed: %d\n", cJSON_GetArraySize(unobserved));
    cJSON_ArrayForEach(st, unobserved) {
        fprintf(f, cJSON_IsNumber(runs) ? "             " : "  ");
        print_marked(f, st);
        fputc('\n', f);
    }
}
