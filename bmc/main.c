/* gpubmc: checks each litmus file and reports a verdict per property. */
#include <stdio.h>
#include <stdlib.h>

#include "bmc/cli.h"

/* Prints one result line, human or JSON. */
static void report(const struct cli *cli, const char *file, enum property prop,
                   const struct check_result *r)
{
    if (r->verdict == V_ERROR)
        fprintf(stderr, "%s\n", r->reason);
    if (cli->json) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "file", file);
        cJSON_AddStringToObject(o, "model", r->model);
        cJSON_AddStringToObject(o, "property", property_name(prop));
        cJSON_AddStringToObject(o, "result", verdict_name(r->verdict));
        cJSON_AddNumberToObject(o, "time_ms", (double)(long)(r->ms * 1000) / 1000);
        cJSON_AddStringToObject(o, "reason", r->reason);
        char *s = cJSON_PrintUnformatted(o);
        puts(s);
        free(s);
        cJSON_Delete(o);
    } else if (r->verdict != V_ERROR) {
        if (cli->nproperties > 1)
            printf("%s: %s: %s (%s)\n", file, property_name(prop), verdict_name(r->verdict), r->reason);
        else
            printf("%s: %s (%s)\n", file, verdict_name(r->verdict), r->reason);
    }
}

/* Collects a witness entry for --witness. */
static void add_witness(cJSON *all, const char *file, enum property prop, struct check_result *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", file);
    cJSON_AddStringToObject(o, "model", r->model);
    cJSON_AddStringToObject(o, "property", property_name(prop));
    cJSON_AddStringToObject(o, "result", verdict_name(r->verdict));
    if (r->witness)
        cJSON_AddItemToObject(o, "witness", r->witness);
    else
        cJSON_AddNullToObject(o, "witness");
    r->witness = NULL;
    cJSON_AddItemToArray(all, o);
}

static int write_witnesses(const char *path, cJSON *all)
{
    cJSON *out = cJSON_GetArraySize(all) == 1 ? cJSON_DetachItemFromArray(all, 0) : all;
    char *s = cJSON_Print(out);
    FILE *f = fopen(path, "w");
    bool ok = f && fputs(s, f) >= 0 && fputc('\n', f) != EOF;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        fprintf(stderr, "gpubmc: error: cannot write witness file %s\n", path);
    free(s);
    if (out != all)
        cJSON_Delete(out);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    struct cli cli;
    int rc = cli_parse(argc, argv, &cli);
    if (rc) {
        free(cli.files);
        return rc == 2 ? 0 : 1;
    }
    bool any_fail = false, any_unknown = false, any_error = false;
    cJSON *witnesses = cJSON_CreateArray();
    for (int f = 0; f < cli.nfiles; f++)
        for (int k = 0; k < cli.nproperties; k++) {
            struct check_result r;
            cli.opts.property = cli.properties[k];
            check_file(cli.files[f], &cli.opts, &r);
            report(&cli, cli.files[f], cli.properties[k], &r);
            any_fail |= r.verdict == V_FAIL;
            any_unknown |= r.verdict == V_UNKNOWN;
            any_error |= r.verdict == V_ERROR;
            if (cli.witness_path)
                add_witness(witnesses, cli.files[f], cli.properties[k], &r);
            cJSON_Delete(r.witness);
        }
    if (cli.witness_path && write_witnesses(cli.witness_path, witnesses))
        any_error = true;
    cJSON_Delete(witnesses);
    free(cli.files);
    if (any_error)
        return 1;
    return any_fail ? 10 : any_unknown ? 20 : 0;
}
