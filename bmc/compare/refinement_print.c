/* The text form of refinement and transformation details. */
#include "bmc/compare/refinement.h"

#include <stdbool.h>
#include <string.h>

static const cJSON *item(const cJSON *j, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(j, name);
}

/* One herd-style state line ":> P1:r0=0; P1:r1=1;" after indent, marked
 * "*>" when it satisfies the condition. */
static void print_state(FILE *f, const char *indent, const cJSON *values, bool satisfies)
{
    const cJSON *v;
    fprintf(f, "%s%s", indent, satisfies ? "*>" : ":>");
    cJSON_ArrayForEach(v, values)
        fprintf(f, " %s=%d;", v->string, v->valueint);
    fputc('\n', f);
}

/* The source's states, the new one and the witness's reads, when the
 * target has a new outcome. */
static void print_new_outcome(FILE *f, const char *indent, const cJSON *d)
{
    const cJSON *fresh = item(d, "new_outcome"), *source = item(d, "source"), *st, *read;
    if (!cJSON_IsObject(fresh) || !cJSON_IsObject(source))
        return;
    const cJSON *states = item(source, "states");
    fprintf(f, "%sSource outcomes: States %d%s\n", indent, cJSON_GetArraySize(states),
            cJSON_IsTrue(item(source, "complete")) ? "" : " (may be incomplete)");
    cJSON_ArrayForEach(st, states)
        print_state(f, indent, item(st, "values"), cJSON_IsTrue(item(st, "satisfies")));
    fprintf(f, "%sNew outcome of the target:\n", indent);
    print_state(f, indent, fresh, cJSON_IsTrue(item(d, "new_outcome_satisfies")));
    if (cJSON_GetArraySize(item(d, "reads")) > 0)
        fprintf(f, "%sIts execution (re-checked by the concrete evaluator):\n", indent);
    cJSON_ArrayForEach(read, item(d, "reads"))
        fprintf(f, "%s  %s\n", indent, cJSON_GetStringValue(read));
}

void refinement_print(FILE *f, const cJSON *details)
{
    const cJSON *site;
    const char *kind = cJSON_GetStringValue(item(details, "kind"));
    if (kind && strcmp(kind, "refinement") == 0) {
        print_new_outcome(f, "", details);
        return;
    }
    cJSON_ArrayForEach(site, item(details, "sites")) {
        const cJSON *line = item(site, "line");
        if (cJSON_IsNumber(line))
            fprintf(f, "  line %d,", line->valueint);
        fprintf(f, "%sP%d: %s: %s (%s)\n", cJSON_IsNumber(line) ? " " : "  ", item(site, "thread")->valueint,
                cJSON_GetStringValue(item(site, "change")), cJSON_GetStringValue(item(site, "result")),
                cJSON_GetStringValue(item(site, "reason")));
        print_new_outcome(f, "    ", item(site, "details"));
    }
    const cJSON *dir;
    cJSON_ArrayForEach(dir, item(details, "directions")) {
        if (strcmp(cJSON_GetStringValue(item(dir, "result")), "PASS") == 0)
            continue;
        fprintf(f, "  %s allows what %s forbids? %s (%s)\n", cJSON_GetStringValue(item(dir, "allows")),
                cJSON_GetStringValue(item(dir, "forbids")), cJSON_GetStringValue(item(dir, "result")),
                cJSON_GetStringValue(item(dir, "reason")));
        print_new_outcome(f, "    ", item(dir, "details"));
    }
    const cJSON *program = item(details, "program");
    if (cJSON_IsString(program))
        fprintf(f, "%s", cJSON_GetStringValue(program));
}
