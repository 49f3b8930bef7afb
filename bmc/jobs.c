/* Building the job list: directory walks, corpus CSVs, sharding. */
#define _DEFAULT_SOURCE   /* for realpath */
#include "bmc/jobs.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "encoders/xalloc.h"
#include "models/model.h"

#define MAX_DIR_DEPTH 64

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

/* A growing list of file names. */
struct names {
    int n, cap;
    char **v;
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

static void add_job(struct job_list *l, const char *file, const struct check_opts *o,
                    bool has_expected, enum verdict expected)
{
    XGROW(l->jobs, l->cap, l->n + 1);
    l->jobs[l->n++] = (struct job){ xstrdup(file), *o, has_expected, expected };
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_name(struct names *ns, char *name)
{
    XGROW(ns->v, ns->cap, ns->n + 1);
    ns->v[ns->n++] = name;
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Adds the .litmus files under dir, recursively, in sorted order. */
static bool walk_dir(const char *dir, int depth, struct names *out, char *msg, int msglen)
{
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(msg, msglen, "%s:0:0: error: cannot read directory: %s", dir, strerror(errno));
        return false;
    }
    struct names here = { 0 };
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        if (ent->d_name[0] == '.')
            continue;
        size_t len = strlen(dir) + strlen(ent->d_name) + 2;
        char *path = xcalloc(len, 1);
        snprintf(path, len, "%s%s%s", dir, has_suffix(dir, "/") ? "" : "/", ent->d_name);
        add_name(&here, path);
    }
    closedir(d);
    qsort(here.v, (size_t)here.n, sizeof *here.v, compare_names);
    bool ok = true;
    for (int i = 0; i < here.n; i++) {
        struct stat st;
        if (ok && stat(here.v[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            if (depth >= MAX_DIR_DEPTH) {
                snprintf(msg, msglen, "%s:0:0: error: directories nested more than %d deep",
                         here.v[i], MAX_DIR_DEPTH);
                ok = false;
            } else {
                ok = walk_dir(here.v[i], depth + 1, out, msg, msglen);
            }
        } else if (ok && has_suffix(here.v[i], ".litmus")) {
            add_name(out, xstrdup(here.v[i]));
        }
        free(here.v[i]);
    }
    free(here.v);
    return ok;
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
    if (strcmp(key, "progress") == 0)
        return progress_parse(val, &o->progress);
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
 * "path,expected[,source]"; '#' lines after the first are comments. */
static bool read_csv(const char *path, const struct check_opts *defaults, struct rows *out,
                     char *msg, int msglen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(msg, msglen, "%s:0:0: error: cannot read: %s", path, strerror(errno));
        return false;
    }
    struct check_opts o = *defaults;
    char line[4096];
    bool ok = true;
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
        snprintf(msg, msglen, "%s:0:0: error: read error", path);
        ok = false;
    }
    fclose(f);
    return ok;
}

/* Jobs for the given paths: each file's CSV rows, or the CLI's properties. */
static void jobs_for_files(const struct job_request *req, const struct names *files,
                           const struct rows *rows, struct job_list *out)
{
    for (int i = 0; i < files->n; i++) {
        char resolved[PATH_MAX];
        const char *real = realpath(files->v[i], resolved);
        bool matched = false;
        for (int k = 0; real && k < rows->n; k++)
            if (rows->r[k].real && strcmp(rows->r[k].real, real) == 0) {
                add_job(out, files->v[i], &rows->r[k].opts, true, rows->r[k].expected);
                matched = true;
            }
        for (int p = 0; !matched && p < req->nproperties; p++) {
            struct check_opts o = *req->opts;
            o.property = req->properties[p];
            add_job(out, files->v[i], &o, false, V_ERROR);
        }
    }
}

/* Keeps jobs k-1, k-1+n, k-1+2n, ... of the list. */
static void keep_shard(struct job_list *l, int k, int n)
{
    int kept = 0;
    for (int i = 0; i < l->n; i++) {
        if (i % n == k - 1)
            l->jobs[kept++] = l->jobs[i];
        else
            free(l->jobs[i].file);
    }
    l->n = kept;
}

bool jobs_build(const struct job_request *req, struct job_list *out, char *msg, int msglen)
{
    memset(out, 0, sizeof *out);
    struct rows rows = { 0 };
    struct names files = { 0 };
    bool ok = true;
    struct check_opts defaults = *req->opts;   /* a CSV without property= takes the first */
    if (req->nproperties > 0)
        defaults.property = req->properties[0];
    for (int i = 0; ok && i < req->ncsv; i++)
        ok = read_csv(req->csv[i], &defaults, &rows, msg, msglen);
    for (int i = 0; ok && i < req->npaths; i++) {
        struct stat st;
        if (stat(req->paths[i], &st) == 0 && S_ISDIR(st.st_mode))
            ok = walk_dir(req->paths[i], 0, &files, msg, msglen);
        else
            add_name(&files, xstrdup(req->paths[i]));   /* check_file reports a missing one */
    }
    if (ok && req->npaths > 0)
        jobs_for_files(req, &files, &rows, out);
    else if (ok)
        for (int k = 0; k < rows.n; k++)
            add_job(out, rows.r[k].file, &rows.r[k].opts, true, rows.r[k].expected);
    if (ok && req->shard_n > 0)
        keep_shard(out, req->shard_k, req->shard_n);
    for (int k = 0; k < rows.n; k++) {
        free(rows.r[k].file);
        free(rows.r[k].real);
    }
    free(rows.r);
    for (int i = 0; i < files.n; i++)
        free(files.v[i]);
    free(files.v);
    if (!ok)
        jobs_free(out);
    return ok;
}

void jobs_free(struct job_list *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->jobs[i].file);
    free(l->jobs);
    memset(l, 0, sizeof *l);
}
