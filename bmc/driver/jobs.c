/* Building the job list: input files, corpus CSVs, sharding. */
#define _DEFAULT_SOURCE   /* for realpath */
#include "bmc/driver/jobs.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bmc/driver/inputs.h"
#include "util/xalloc.h"
#include "models/model.h"

/* A CSV row: a file and what its suite expects under its options. */
struct row {
    char *file;
    char *real;              /* realpath, or NULL when the file is absent */
    struct check_opts opts;
    enum verdict expected;
};

struct rows {
    int n, cap;
    struct row *r;
};

bool verdict_parse(const char *s, enum verdict *v)
{
    static const char *const names[] = { "PASS", "FAIL", "UNKNOWN", "ERROR" };
    for (int i = 0; i < 4; i++)
        if (strcmp(s, names[i]) == 0) {
            *v = (enum verdict)i;
            return true;
        }
    return false;
}

bool property_parse(const char *s, enum property *p)
{
    static const enum property all[] = { P_PROGRAM_SPEC, P_CAT_SPEC, P_TERMINATION };
    for (int i = 0; i < 3; i++)
        if (strcmp(s, property_name(all[i])) == 0) {
            *p = all[i];
            return true;
        }
    return false;
}

static void add_job(struct job_list *l, const char *file, const struct job_spec *spec, const struct check_opts *o,
                    bool has_expected, enum verdict expected, const char *error)
{
    XGROW(l->jobs, l->cap, l->n + 1);
    l->jobs[l->n++] = (struct job){ .file = xstrdup(file), .spec = *spec, .opts = *o, .has_expected = has_expected,
                                    .expected = expected, .error = error ? xstrdup(error) : NULL };
}

/* Applies one "key=value" of a CSV header to o. */
static bool header_option(char *kv, struct check_opts *o)
{
    char *eq = strchr(kv, '=');
    if (!eq)
        return false;
    *eq = '\0';
    const char *key = kv, *val = eq + 1;
    if (strcmp(key, "model") == 0) {
        const struct model_desc *md = model_find(val);
        if (!md)
            return false;
        o->model = md->name;
        return true;
    }
    if (strcmp(key, "property") == 0)
        return property_parse(val, &o->property);
    if (strcmp(key, "progress") == 0) {
        o->progress_set = 0;
        return progress_parse(val, &o->progress);
    }
    if (strcmp(key, "bound") == 0) {
        char *end;
        long b = strtol(val, &end, 10);
        if (*val == '\0' || *end != '\0' || b < 1 || b > 10000)
            return false;
        o->bound = (int)b;
        return true;
    }
    return false;
}

/* Reads one corpus CSV: "# model=M property=P progress=G" then rows
 * "path,expected[,source]"; '#' lines after the first are comments.  A
 * CSV without rows is an error. */
static bool read_csv(const char *path, const struct check_opts *defaults, struct rows *out,
                     char *msg, int msglen)
{
    char why[128];
    const char *problem = input_problem(path, why, sizeof why);
    FILE *f = problem ? NULL : fopen(path, "r");
    if (!f) {
        snprintf(msg, msglen, "%s: error: %s%s", path, problem ? problem : "cannot open: ",
                 problem ? "" : strerror(errno));
        return false;
    }
    struct check_opts o = *defaults;
    char line[4096];
    bool ok = true;
    int first_row = out->n;
    for (int ln = 1; ok && fgets(line, sizeof line, f); ln++) {
        line[strcspn(line, "\r\n")] = '\0';
        if (ln == 1 && line[0] == '#') {
            for (char *tok = strtok(line + 1, " \t"); ok && tok; tok = strtok(NULL, " \t")) {
                char copy[256];
                snprintf(copy, sizeof copy, "%s", tok);
                if (!header_option(copy, &o)) {
                    snprintf(msg, msglen, "%s:1:%d: error: unknown header setting '%s' "
                             "(model=, property=, progress=, bound=)",
                             path, (int)(tok - line) + 1, tok);
                    ok = false;
                }
            }
            continue;
        }
        if (line[0] == '#' || line[0] == '\0')
            continue;
        char *comma = strchr(line, ',');
        char *verdict = comma ? comma + 1 : NULL;
        if (verdict)
            verdict[strcspn(verdict, ",")] = '\0';
        enum verdict v;
        if (!comma || comma == line || !verdict_parse(verdict, &v)) {
            snprintf(msg, msglen, "%s:%d:%d: error: expected 'path,PASS|FAIL|UNKNOWN|ERROR'",
                     path, ln, comma ? (int)(comma - line) + 2 : 1);
            ok = false;
            break;
        }
        *comma = '\0';
        XGROW(out->r, out->cap, out->n + 1);
        char resolved[PATH_MAX];
        out->r[out->n++] = (struct row){ xstrdup(line),
                                         realpath(line, resolved) ? xstrdup(resolved) : NULL, o, v };
    }
    if (ok && ferror(f)) {
        snprintf(msg, msglen, "%s: error: read error", path);
        ok = false;
    }
    if (ok && out->n == first_row) {
        snprintf(msg, msglen, "%s: error: no rows: expected lines 'path,PASS|FAIL|UNKNOWN|ERROR[,source]' "
                 "after the header", path);
        ok = false;
    }
    fclose(f);
    return ok;
}

/* Jobs for the given inputs: each file's CSV rows, or the CLI's properties. */
static void jobs_for_files(const struct job_request *req, const struct inputs *files,
                           const struct rows *rows, struct job_list *out)
{
    for (int i = 0; i < files->n; i++) {
        const struct input *in = &files->v[i];
        char resolved[PATH_MAX];
        const char *real = in->error ? NULL : realpath(in->path, resolved);
        bool matched = false;
        for (int k = 0; real && k < rows->n; k++)
            if (rows->r[k].real && strcmp(rows->r[k].real, real) == 0) {
                add_job(out, in->path, req->spec, &rows->r[k].opts, true, rows->r[k].expected, NULL);
                matched = true;
            }
        for (int p = 0; !matched && p < req->nproperties; p++) {
            struct check_opts o = *req->opts;
            o.property = req->properties[p];
            add_job(out, in->path, req->spec, &o, false, V_ERROR, in->error);
        }
    }
}

/* Jobs for every row of every CSV; a row whose file cannot be read keeps
 * its error. */
static void jobs_for_rows(const struct job_request *req, const struct rows *rows, struct job_list *out)
{
    for (int k = 0; k < rows->n; k++) {
        char why[128];
        add_job(out, rows->r[k].file, req->spec, &rows->r[k].opts, true, rows->r[k].expected,
                input_problem(rows->r[k].file, why, sizeof why));
    }
}

/* False, with one message line per CSV in msg, when no row compares:
 * no row names a checked file (with paths) or an existing file (without). */
static bool some_row_compares(const struct job_request *req, const struct rows *rows,
                              const struct job_list *jobs, char *msg, int msglen)
{
    for (int i = 0; i < jobs->n && req->npaths > 0; i++)
        if (jobs->jobs[i].has_expected)
            return true;
    for (int k = 0; k < rows->n && req->npaths == 0; k++)
        if (rows->r[k].real)
            return true;
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        snprintf(cwd, sizeof cwd, ".");
    int used = 0;
    for (int c = 0; c < req->ncsv && used < msglen; c++)
        used += snprintf(msg + used, (size_t)(msglen - used), "%s%s: error: no row names %s "
                         "(row paths are taken relative to the current directory, %s)",
                         c ? "\n" : "", req->csv[c],
                         req->npaths > 0 ? "a file given on the command line" : "an existing file", cwd);
    return false;
}

/* The progress models job j checks, as a bit set. */
static unsigned models_of(const struct job *j)
{
    return j->opts.progress_set ? j->opts.progress_set : 1u << j->opts.progress;
}

/* Jobs a and b are termination checks of one file that differ at most in
 * their progress models, and those do not overlap. */
static bool mergeable(const struct job *a, const struct job *b)
{
    const struct check_opts *x = &a->opts, *y = &b->opts;
    bool same_model = x->model == y->model || (x->model && y->model && strcmp(x->model, y->model) == 0);
    return x->property == P_TERMINATION && y->property == P_TERMINATION && !a->error && !b->error
        && same_model && x->bound == y->bound && strcmp(a->file, b->file) == 0
        && !(models_of(a) & models_of(b));
}

/* Records the expectations of job j per progress model in into. */
static void expect_by_model(struct job *into, const struct job *j)
{
    if (j->opts.progress_set) {
        into->expected_models |= j->expected_models;
        for (int m = 0; m < CHECK_PROGRESS_MODELS; m++)
            if (j->expected_models & (1u << m))
                into->expected_by[m] = j->expected_by[m];
    } else if (j->has_expected) {
        into->expected_models |= 1u << j->opts.progress;
        into->expected_by[j->opts.progress] = j->expected;
    }
}

/* Merges termination jobs of one file that differ only in the progress
 * model into the first of them: one check, one encoding, all the models. */
static void merge_progress(struct job_list *l)
{
    int kept = 0;
    for (int i = 0; i < l->n; i++) {
        struct job *j = &l->jobs[i], *into = NULL;
        for (int k = kept - 1; k >= 0 && !into; k--)
            if (mergeable(&l->jobs[k], j))
                into = &l->jobs[k];
        if (!into) {
            l->jobs[kept++] = *j;
            continue;
        }
        struct job merged = *into;
        merged.expected_models = 0;
        expect_by_model(&merged, into);
        expect_by_model(&merged, j);
        merged.opts.progress_set = models_of(into) | models_of(j);
        merged.has_expected = merged.expected_models != 0;
        *into = merged;
        free(j->file);
        free(j->error);
    }
    l->n = kept;
}

void jobs_keep_shard(struct job_list *l, int k, int n)
{
    int kept = 0;
    for (int i = 0; i < l->n; i++) {
        if (i % n == k - 1) {
            l->jobs[i].shard_index = i + 1;
            l->jobs[kept++] = l->jobs[i];
        } else {
            free(l->jobs[i].file);
            free(l->jobs[i].error);
        }
    }
    l->n = kept;
}

bool jobs_build(const struct job_request *req, struct job_list *out, char *msg, int msglen)
{
    memset(out, 0, sizeof *out);
    struct rows rows = { 0 };
    bool ok = true;
    struct check_opts defaults = *req->opts;   /* a CSV without property= takes the first */
    if (req->nproperties > 0)
        defaults.property = req->properties[0];
    for (int i = 0; ok && i < req->ncsv; i++)
        ok = read_csv(req->csv[i], &defaults, &rows, msg, msglen);
    struct inputs files = { 0 };
    for (int i = 0; ok && i < req->npaths; i++)
        inputs_add(&files, req->paths[i]);
    if (ok && req->npaths > 0)
        jobs_for_files(req, &files, &rows, out);
    else if (ok)
        jobs_for_rows(req, &rows, out);
    if (ok && req->ncsv > 0)
        ok = some_row_compares(req, &rows, out, msg, msglen);
    if (ok)
        merge_progress(out);
    for (int k = 0; k < rows.n; k++) {
        free(rows.r[k].file);
        free(rows.r[k].real);
    }
    free(rows.r);
    inputs_free(&files);
    if (!ok)
        jobs_free(out);
    return ok;
}

void jobs_free(struct job_list *l)
{
    for (int i = 0; i < l->n; i++) {
        free(l->jobs[i].file);
        free(l->jobs[i].error);
    }
    free(l->jobs);
    memset(l, 0, sizeof *l);
}
