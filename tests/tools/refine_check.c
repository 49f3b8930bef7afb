/* refine_check: drives the refinement and transformation library
 * (bmc/refinement.h, bmc/transform/checks.h) from the command line.
 * Usage: refine_check [--json] [--witness] [--property P] [--progress G]
 *                     [--bound N] [--model M]
 *                     (--source SRC | --transform NAME[@LINE] [--emit DIR]
 *                      | --necessary-sync | --minimize-sync) FILE...
 * Prints per file "FILE: VERDICT (reason)" and the details, or with
 * --json one object {"file", "result", "reason", "vacuous", "details",
 * "witness"}. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmc/jobs.h"
#include "bmc/refinement.h"
#include "bmc/transform/checks.h"

enum mode { M_NONE, M_SOURCE, M_TRANSFORM, M_NECESSARY, M_MINIMIZE };

static void print_result(const char *file, bool json, struct check_result *r)
{
    if (json) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "file", file);
        cJSON_AddStringToObject(o, "result", verdict_name(r->verdict));
        cJSON_AddStringToObject(o, "reason", r->reason);
        cJSON_AddBoolToObject(o, "vacuous", r->vacuous);
        cJSON_AddItemToObject(o, "details", r->details ? r->details : cJSON_CreateNull());
        cJSON_AddItemToObject(o, "witness", r->witness ? r->witness : cJSON_CreateNull());
        char *s = cJSON_PrintUnformatted(o);
        puts(s);
        free(s);
        cJSON_Delete(o);
        return;
    }
    printf("%s: %s (%s)\n", file, verdict_name(r->verdict), r->reason);
    if (r->details)
        refinement_print(stdout, r->details);
    cJSON_Delete(r->details);
    cJSON_Delete(r->witness);
}

int main(int argc, char **argv)
{
    struct check_opts opts = { .property = P_PROGRAM_SPEC, .progress = PROG_FAIR, .bound = 1 };
    bool json = false;
    enum mode mode = M_NONE;
    const char *arg = NULL, *emit = NULL;
    int i = 1;
    for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--json") == 0)
            json = true;
        else if (strcmp(a, "--witness") == 0)
            opts.want_witness = true;
        else if (strcmp(a, "--property") == 0 && property_parse(argv[i + 1], &opts.property))
            i++;
        else if (strcmp(a, "--progress") == 0 && progress_parse(argv[i + 1], &opts.progress))
            i++;
        else if (strcmp(a, "--bound") == 0)
            opts.bound = atoi(argv[++i]);
        else if (strcmp(a, "--model") == 0)
            opts.model = argv[++i];
        else if (strcmp(a, "--source") == 0)
            mode = M_SOURCE, arg = argv[++i];
        else if (strcmp(a, "--transform") == 0)
            mode = M_TRANSFORM, arg = argv[++i];
        else if (strcmp(a, "--emit") == 0)
            emit = argv[++i];
        else if (strcmp(a, "--necessary-sync") == 0)
            mode = M_NECESSARY;
        else if (strcmp(a, "--minimize-sync") == 0)
            mode = M_MINIMIZE;
        else
            break;
    }
    enum transform_kind kind = T_REORDER;
    int line = 0;
    char err[300];
    if (mode == M_TRANSFORM && !transform_parse(arg, &kind, &line, err, sizeof err)) {
        fprintf(stderr, "refine_check: %s\n", err);
        return 2;
    }
    if (mode == M_NONE || i >= argc) {
        fprintf(stderr, "usage: %s [--json] [--witness] [--property P] [--progress G] [--bound N] [--model M] "
                "(--source SRC | --transform NAME[@LINE] [--emit DIR] | --necessary-sync | --minimize-sync) "
                "FILE...\n", argv[0]);
        return 2;
    }
    int status = 0;
    for (; i < argc; i++) {
        struct check_result r;
        if (mode == M_SOURCE)
            check_refinement(arg, argv[i], &opts, &r);
        else if (mode == M_TRANSFORM)
            check_transform(argv[i], kind, line, emit, &opts, &r);
        else if (mode == M_NECESSARY)
            check_necessary_sync(argv[i], &opts, &r);
        else
            check_minimize_sync(argv[i], &opts, &r);
        status = r.verdict == V_ERROR ? 1 : status;
        print_result(argv[i], json, &r);
        cJSON_Delete(r.outcomes);
    }
    return status;
}
