/* The text form of refinement and transformation details. */
#include "bmc/compare/refinement.h"

#include <stdbool.h>
#include <string.h>

#include "bmc/check/explain.h"

static const cJSON *item(const cJSON *j, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(j, name);
}

/* One herd-style state "*> P1:r0=0; P1:r1=1;" (":>" when it does not
 * satisfy the condition), without a line end. */
static void print_state(FILE *f, const cJSON *values, bool satisfies)
{
    const cJSON *v;
    fputs(satisfies ? "*>" : ":>", f);
    cJSON_ArrayForEach(v, values)
        fprintf(f, " %s=%d;", v->string, v->valueint);
}

/* What chose the observables (details' "observed_from"), in words. */
static const char *observed_why(const char *from)
{
    if (from && strcmp(from, "observe") == 0)
        return "as --observe asks";
    if (from && strcmp(from, "locations") == 0)
        return "the locations list";
    if (from && strcmp(from, "condition") == 0)
        return "what the condition names";
    return "every name both programs have: the test has no locations list or condition";
}

/* "Observed: P1:r1 (what the condition names)", then with states the
 * source's outcome set herd-style. */
static void print_source(FILE *f, const char *indent, const cJSON *d, bool states)
{
    const cJSON *source = item(d, "source"), *name, *st;
    if (!cJSON_IsObject(source))
        return;
    fprintf(f, "%sObserved:", indent);
    cJSON_ArrayForEach(name, item(source, "observed"))
        fprintf(f, " %s", cJSON_GetStringValue(name));
    fprintf(f, " (%s)\n", observed_why(cJSON_GetStringValue(item(d, "observed_from"))));
    if (!states)
        return;
    fprintf(f, "%sSource outcomes: States %d%s\n", indent, cJSON_GetArraySize(item(source, "states")),
            cJSON_IsTrue(item(source, "complete")) ? "" : " (may be incomplete)");
    cJSON_ArrayForEach(st, item(source, "states")) {
        fputs(indent, f);
        print_state(f, item(st, "values"), cJSON_IsTrue(item(st, "satisfies")));
        fputc('\n', f);
    }
}

/* The reads of the new outcome's execution, one a line. */
static void print_reads(FILE *f, const char *indent, const cJSON *d)
{
    const cJSON *read;
    if (cJSON_GetArraySize(item(d, "reads")) > 0)
        fprintf(f, "%sIts execution (re-checked by the concrete evaluator):\n", indent);
    cJSON_ArrayForEach(read, item(d, "reads"))
        fprintf(f, "%s  %s\n", indent, cJSON_GetStringValue(read));
}

/* With --explain, why the source forbids the new outcome. */
static void print_why(FILE *f, const char *indent, const cJSON *d)
{
    const char *why = cJSON_GetStringValue(item(d, "source_forbids"));
    if (!why)
        return;
    fprintf(f, "%sWhy the source forbids it: %s\n", indent, why);
    char deeper[32];
    snprintf(deeper, sizeof deeper, "%s  ", indent);
    explain_print_steps(f, deeper, item(d, "explanation"));
}

/* The source's outcomes, the new one and its reads, when the target has a
 * new outcome; the observables alone when it has none. */
static void print_comparison(FILE *f, const char *indent, const cJSON *d)
{
    const cJSON *fresh = item(d, "new_outcome");
    print_source(f, indent, d, cJSON_IsObject(fresh));
    if (!cJSON_IsObject(fresh))
        return;
    fprintf(f, "%sNew outcome of the target:\n%s", indent, indent);
    print_state(f, fresh, cJSON_IsTrue(item(d, "new_outcome_satisfies")));
    fputc('\n', f);
    print_reads(f, indent, d);
    print_why(f, indent, d);
}

/* One line per site: "line 14, P1: CHANGE: FAIL: new outcome *> ...", or
 * its reason in parentheses when it adds none; with verbose the reads of
 * the new outcome's execution under it. */
static void print_site(FILE *f, const cJSON *site, const char *kind, bool verbose)
{
    const cJSON *line = item(site, "line"), *d = item(site, "details");
    const cJSON *fresh = item(d, "new_outcome");
    const char *result = cJSON_GetStringValue(item(site, "need"));
    if (!result)
        result = kind && strcmp(kind, "minimize-sync") == 0 ? "applied" : cJSON_GetStringValue(item(site, "result"));
    if (cJSON_IsNumber(line))
        fprintf(f, "  line %d,", line->valueint);
    fprintf(f, "%sP%d: %s: %s", cJSON_IsNumber(line) ? " " : "  ", item(site, "thread")->valueint,
            cJSON_GetStringValue(item(site, "change")), result);
    if (cJSON_IsObject(fresh) && strcmp(cJSON_GetStringValue(item(site, "result")), "FAIL") == 0) {
        fputs(": new outcome ", f);
        print_state(f, fresh, cJSON_IsTrue(item(d, "new_outcome_satisfies")));
        fputc('\n', f);
        if (verbose)
            print_reads(f, "    ", d);
        print_why(f, "    ", d);
    } else {
        fprintf(f, " (%s)\n", cJSON_GetStringValue(item(site, "reason")));
    }
}

/* The source side of a transformation's sites, once: the observables, and
 * the source's outcomes when some site adds one. */
static void print_sites_source(FILE *f, const cJSON *sites)
{
    const cJSON *site, *first = NULL;
    bool any_new = false;
    cJSON_ArrayForEach(site, sites) {
        const cJSON *d = item(site, "details");
        if (!first && cJSON_IsObject(item(d, "source")))
            first = d;
        any_new |= cJSON_IsObject(item(d, "new_outcome"));
    }
    if (first)
        print_source(f, "  ", first, any_new);
}

void refinement_print(FILE *f, const cJSON *details, bool verbose)
{
    const cJSON *site, *dir;
    const char *kind = cJSON_GetStringValue(item(details, "kind"));
    if (kind && strcmp(kind, "refinement") == 0) {
        print_comparison(f, "", details);
        return;
    }
    print_sites_source(f, item(details, "sites"));
    cJSON_ArrayForEach(site, item(details, "sites"))
        print_site(f, site, kind, verbose);
    cJSON_ArrayForEach(dir, item(details, "directions")) {
        if (strcmp(cJSON_GetStringValue(item(dir, "result")), "PASS") == 0)
            continue;
        fprintf(f, "  %s allows what %s forbids? %s (%s)\n", cJSON_GetStringValue(item(dir, "allows")),
                cJSON_GetStringValue(item(dir, "forbids")), cJSON_GetStringValue(item(dir, "result")),
                cJSON_GetStringValue(item(dir, "reason")));
        print_comparison(f, "    ", item(dir, "details"));
    }
    const cJSON *program = item(details, "program");
    if (cJSON_IsString(program))
        fprintf(f, "%s", cJSON_GetStringValue(program));
}
