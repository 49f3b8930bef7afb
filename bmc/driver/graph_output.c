/* Writing the graph of each check's deciding execution. */
#include "bmc/driver/graph_output.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bmc/driver/output.h"
#include "encoders/progress.h"
#include "util/newfile.h"

/* Seconds Graphviz may lay out one graph without a --timeout: its layout
 * grows much faster than the graph (an IRIW of 100 readers sat 480 s at
 * 1.9 GB; 40 threads of 20 accesses take 90 s). */
#define RENDER_DEFAULT_TIMEOUT_S 60

/* True when path ends in .svg or .png. */
static bool rendered(const char *path)
{
    size_t len = strlen(path);
    return len > 4 && (strcmp(path + len - 4, ".svg") == 0 || strcmp(path + len - 4, ".png") == 0);
}

/* Writes dot to path; an .svg or .png is laid out by Graphviz in a child
 * process under the check's budgets (--timeout, or without one
 * RENDER_DEFAULT_TIMEOUT_S; --max-memory).  False,
 * with err filled, when it failed; with *note set when it did not run or
 * ran out of its budget (a note, not an error). */
static bool render_graph(const struct cli *cli, struct graph_renderer *gr, const char *dot, const char *path,
                         char *err, size_t errlen, bool *note)
{
    *note = false;
    if (!rendered(path))
        return graph_write(gr, dot, path, err, errlen);
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(err, errlen, "cannot render %s: %s", path, strerror(errno));
        return false;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDERR_FILENO);   /* Graphviz's complaints, for the message */
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGALRM, SIG_DFL);
        worker_limit_memory(&cli->budget);
        double secs = cli->budget.timeout_s > 0 ? cli->budget.timeout_s : RENDER_DEFAULT_TIMEOUT_S;
        struct itimerval t = { { 0, 0 }, { (time_t)secs, (suseconds_t)((secs - (time_t)secs) * 1e6) } };
        if (t.it_value.tv_sec == 0 && t.it_value.tv_usec == 0)
            t.it_value.tv_usec = 1;
        setitimer(ITIMER_REAL, &t, NULL);
        char why[512] = "";
        bool ok = graph_write(gr, dot, path, why, sizeof why);
        if (!ok && write(fds[1], why, strlen(why)) < 0)
            _exit(2);
        if (ok && fflush(stderr) != 0)
            _exit(2);
        _exit(ok ? 0 : 1);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        snprintf(err, errlen, "cannot render %s: %s", path, strerror(errno));
        return false;
    }
    char why[512], chunk[4096];   /* the last line the child wrote: its reason */
    size_t len = 0;
    ssize_t got;
    while ((got = read(fds[0], chunk, sizeof chunk)) > 0 || (got < 0 && errno == EINTR))
        for (ssize_t k = 0; k < got; k++) {
            if (chunk[k] == '\n' || len == sizeof why - 1)
                len = 0;
            if (chunk[k] != '\n')
                why[len++] = chunk[k];
        }
    why[len] = '\0';
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        continue;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return true;
    *note = true;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM && cli->budget.timeout_s > 0)
        snprintf(err, errlen, "no graph %s: Graphviz's layout took more than the --timeout of %g s", path,
                 cli->budget.timeout_s);
    else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        snprintf(err, errlen, "no graph %s: Graphviz's layout took more than %d s (the limit without "
                 "--timeout)", path, RENDER_DEFAULT_TIMEOUT_S);
    else if (WIFEXITED(status) && WEXITSTATUS(status) == 1 && why[0]) {
        snprintf(err, errlen, "%s", why);
        *note = false;
    } else if (cli->budget.max_memory_mb > 0 && (WIFSIGNALED(status) || WEXITSTATUS(status) != 0))
        snprintf(err, errlen, "no graph %s: Graphviz failed (%s %d) within the --max-memory of %ld MB",
                 path, WIFSIGNALED(status) ? "signal" : "status",
                 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), cli->budget.max_memory_mb);
    else {
        snprintf(err, errlen, "Graphviz could not render %s (%s %d)", path,
                 WIFSIGNALED(status) ? "signal" : "status",
                 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        *note = false;
    }
    return false;
}

/* render_graph through a temporary file beside path, then named path:
 * a failure leaves no truncated picture.  --graph FILE replaces a file
 * there (not a symbolic link); --graph-dir replaces nothing
 * (util/newfile.h), so that two checks never share a picture. */
static bool write_graph(const struct cli *cli, struct graph_renderer *gr, const char *dot, const char *path,
                        char *err, size_t errlen, bool *note)
{
    char tmp[4200];
    struct stat st;
    *note = false;
    if (!cli->graph_dir && lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        snprintf(err, errlen, "%s is a symbolic link: not written through", path);
        return false;
    }
    newfile_temp_path(path, tmp, sizeof tmp);
    bool ok = render_graph(cli, gr, dot, tmp, err, errlen, note);
    if (ok && cli->graph_dir)
        return newfile_publish(tmp, path, err, errlen);
    if (ok && rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        ok = false;
    }
    if (!ok) {
        unlink(tmp);
        char *at = strstr(err, tmp);   /* name path, not the temporary file */
        if (at && strlen(err) - strlen(tmp) + strlen(path) < errlen) {
            memmove(at + strlen(path), at + strlen(tmp), strlen(at + strlen(tmp)) + 1);
            memcpy(at, path, strlen(path));
        }
    }
    return ok;
}

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
    snprintf(buf + base, len - base, ".%s%s%s.%s", property_name(job->opts->property), several ? "-" : "",
             several ? progress_name(job->opts->progress) : "", cli->graph_format ? cli->graph_format : "dot");
}

/* For a transformation's picture (the first adding site's execution, in
 * the rewritten program): "rewritten" in o says which rewrite and where,
 * "rewritten_file" the file --emit-transformed wrote it to, so that the
 * caption names the program drawn. */
static void add_rewritten(cJSON *o, const cJSON *details)
{
    const cJSON *site;
    cJSON_ArrayForEach(site, cJSON_GetObjectItemCaseSensitive(details, "sites")) {
        const char *result = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(site, "result"));
        if (!result || strcmp(result, "FAIL") != 0)
            continue;
        const cJSON *line = cJSON_GetObjectItemCaseSensitive(site, "line");
        const char *file = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(site, "file"));
        char where[32] = "", text[1024];
        if (cJSON_IsNumber(line))
            snprintf(where, sizeof where, ", line %d", line->valueint);
        snprintf(text, sizeof text, "%s at P%d%s: %.600s",
                 cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(site, "transformation")),
                 cJSON_GetObjectItemCaseSensitive(site, "thread")->valueint, where,
                 cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(site, "change")));
        cJSON_AddStringToObject(o, "rewritten", text);
        if (file)
            cJSON_AddStringToObject(o, "rewritten_file", file);
        return;
    }
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
    cJSON_AddStringToObject(o, "property", property_name(job->opts->property));
    cJSON_AddStringToObject(o, "result", verdict_name(r->verdict));
    if (job->opts->property == P_TERMINATION)
        output_progress(o, job->opts->progress, &job->opts->hierarchy, r->model);
    if (r->witness)
        cJSON_AddItemReferenceToObject(o, "witness", r->witness);
    if (r->explanation)
        cJSON_AddItemReferenceToObject(o, "explanation", r->explanation);
    if (cli->graph_dpi > 0)
        cJSON_AddNumberToObject(o, "dpi", cli->graph_dpi);
    add_rewritten(o, r->details);
    char err[8192], path[4096];
    const char *const *rels = cli->ngraph_rels ? (const char *const *)cli->graph_rels : NULL;
    char *dot = graph_dot(o, rels, cli->ngraph_rels, err, sizeof err);
    bool ok = true;
    char shown[8192];
    const char *file = output_shown(job->file, shown, sizeof shown);
    if (!dot && !r->witness && !(r->explanation && cJSON_GetObjectItem(r->explanation, "witness"))) {
        fprintf(stderr, "%s: note: no graph: no single execution decides %s %s%s\n", file,
                property_name(job->opts->property), verdict_name(r->verdict),
                job->opts->explain ? "" : " (--explain draws the execution without the axioms that forbid it)");
    } else if (!dot) {
        fprintf(stderr, "%s: error: %s\n", file, err);
        ok = false;
    } else {
        if (cli->graph_dir)
            graph_path(cli, job, path, sizeof path);
        else
            snprintf(path, sizeof path, "%s", cli->graph_path);
        bool note;
        if (!write_graph(cli, gr, dot, path, err, sizeof err, &note)) {
            fprintf(stderr, "%s: %s: %s\n", file, note ? "note" : "error", err);
            ok = note;
        }
    }
    free(dot);
    cJSON_Delete(o);
    return ok;
}
