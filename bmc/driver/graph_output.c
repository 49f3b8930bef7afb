/* Writing the graph of each check's deciding execution. */
#include "bmc/driver/graph_output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encoders/progress.h"

/* DIR/FILE.PROPERTY.FMT (termination under several progress models:
 * DIR/FILE.termination-MODEL.FMT), with the file's '/' turned into '_' so
 * that every check of a batch gets its own name. */
static void graph_path(const struct cli *cli, const struct job *job, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "%s/", cli->graph_dir);
    for (const char *c = job->file; *c && used + 1 < len; c++)
        buf[used++] = *c == '/' ? '_' : *c;
    buf[used < len ? used : len - 1] = '\0';
    size_t base = strlen(buf);
    if (base > 7 && strcmp(buf + base - 7, ".litmus") == 0)
        buf[base - 7] = '\0';
    base = strlen(buf);
    bool several = job_several_models(job);   /* one graph per progress model */
    snprintf(buf + base, len - base, ".%s%s%s.%s", property_name(job->opts.property), several ? "-" : "",
             several ? progress_name(job->opts.progress) : "", cli->graph_format ? cli->graph_format : "dot");
}

bool graph_output(const struct cli *cli, struct graph_renderer *gr, const struct job *job,
                  const struct check_result *r)
{
    if (!cli->graph_path && !cli->graph_dir)
        return true;
    if (r->verdict == V_ERROR)
        return true;   /* the error is already reported */
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", job->file);
    cJSON_AddStringToObject(o, "property", property_name(job->opts.property));
    cJSON_AddStringToObject(o, "result", verdict_name(r->verdict));
    if (job->opts.property == P_TERMINATION)
        cJSON_AddStringToObject(o, "progress", progress_name(job->opts.progress));
    if (r->witness)
        cJSON_AddItemReferenceToObject(o, "witness", r->witness);
    if (r->explanation)
        cJSON_AddItemReferenceToObject(o, "explanation", r->explanation);
    char err[1024], path[4096];
    const char *const *rels = cli->ngraph_rels ? (const char *const *)cli->graph_rels : NULL;
    char *dot = graph_dot(o, rels, cli->ngraph_rels, err, sizeof err);
    bool ok = true;
    if (!dot && !r->witness && !(r->explanation && cJSON_GetObjectItem(r->explanation, "witness"))) {
        fprintf(stderr, "%s: note: no graph: no single execution decides %s %s%s\n", job->file,
                property_name(job->opts.property), verdict_name(r->verdict),
                job->opts.explain ? "" : " (--explain draws the execution without the axioms that forbid it)");
    } else if (!dot) {
        fprintf(stderr, "%s: error: %s\n", job->file, err);
        ok = false;
    } else {
        if (cli->graph_dir)
            graph_path(cli, job, path, sizeof path);
        else
            snprintf(path, sizeof path, "%s", cli->graph_path);
        if (!graph_write(gr, dot, path, err, sizeof err)) {
            fprintf(stderr, "%s: error: %s\n", job->file, err);
            ok = false;
        }
    }
    free(dot);
    cJSON_Delete(o);
    return ok;
}
