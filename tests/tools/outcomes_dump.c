/* Test driver for outcome sets: runs the program_spec check with
 * opts.outcomes on each file and prints, per file, one JSON line
 * {"file", "result", "reason", "nvars", "nclauses", "outcomes"} or, with
 * --text, the herd-style form.
 * Usage: outcomes_dump [--text] [--model M] [--bound N] [--witness] FILE... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmc/check/check.h"
#include "bmc/check/outcomes.h"

/* Prints one result as a JSON line. */
static void print_json(const char *path, struct check_result *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", path);
    cJSON_AddStringToObject(o, "result", verdict_name(r->verdict));
    cJSON_AddStringToObject(o, "reason", r->reason);
    cJSON_AddNumberToObject(o, "nvars", (double)r->nvars);
    cJSON_AddNumberToObject(o, "nclauses", (double)r->nclauses);
    cJSON_AddBoolToObject(o, "has_witness", r->witness != NULL);
    if (r->outcomes) {
        cJSON_AddItemToObject(o, "outcomes", r->outcomes);
        r->outcomes = NULL;
    } else {
        cJSON_AddNullToObject(o, "outcomes");
    }
    char *text = cJSON_PrintUnformatted(o);
    printf("%s\n", text);
    free(text);
    cJSON_Delete(o);
}

int main(int argc, char **argv)
{
    struct check_opts opts = { .property = P_PROGRAM_SPEC, .bound = 1, .outcomes = true };
    bool text = false;
    int status = 0, i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        if (strcmp(argv[i], "--text") == 0)
            text = true;
        else if (strcmp(argv[i], "--witness") == 0)
            opts.want_witness = true;
        else if (strcmp(argv[i], "--model") == 0 && i + 1 < argc)
            opts.model = argv[++i];
        else if (strcmp(argv[i], "--bound") == 0 && i + 1 < argc)
            opts.bound = atoi(argv[++i]);
        else
            break;
    }
    if (i >= argc) {
        fprintf(stderr, "usage: %s [--text] [--model M] [--bound N] [--witness] FILE...\n", argv[0]);
        return 2;
    }
    for (; i < argc; i++) {
        struct check_result r;
        check_file(argv[i], &opts, &r);
        if (r.verdict == V_ERROR)
            status = 1;
        if (!text) {
            print_json(argv[i], &r);
        } else {
            printf("%s: %s (%s)\n", argv[i], verdict_name(r.verdict), r.reason);
            if (r.outcomes)
                outcomes_print(stdout, r.outcomes);
        }
        cJSON_Delete(r.outcomes);
        cJSON_Delete(r.witness);
    }
    return status;
}
