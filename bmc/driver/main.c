/* gpubmc: checks litmus files and reports a verdict per property. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bmc/driver/batch.h"
#include "bmc/driver/cli.h"
#include "bmc/driver/graph_output.h"
#include "bmc/observed/judge.h"
#include "bmc/check/explain.h"
#include "bmc/check/outcomes.h"
#include "bmc/driver/output.h"
#include "util/xalloc.h"
#include "bmc/compare/refinement.h"
#include "encoders/cnf.h"
#include "encoders/progress.h"
#include "models/model.h"

/* What the run has seen so far. */
struct run {
    const struct cli *cli;
    bool any_fail, any_unknown, any_error;
    int matched, mismatched;
    int stdout_errno;        /* the first failed write to stdout, or 0 */
    bool some_model;                          /* some check ran under a model */
    bool axiom_applies[CHECK_MAX_DISABLED];   /* --no-axiom i named an axiom of one */
    struct json_stream *witnesses;   /* for --witness: written as they come */
    struct graph_renderer *renderer;   /* for --graph and --graph-dir */
    char *last_error;        /* the error last printed: a file's second check repeats it */
    struct json_text line;   /* the JSON result lines held (hold_rows), else the last one,
                                its memory kept for the next */
    struct json_text head;   /* the members before "progress" of the last line: the same
                                in every line of one check of several progress models */
    bool hold_rows;          /* JSON lines wait in line until the batch waits */
};

/* The stdout buffer of a run that holds its JSON lines back, and the most
 * bytes of lines held: a line that would make them more is preceded by a
 * flush, so that no line goes out in two writes (unless it is longer than
 * all of it). */
#define ROW_BUFFER 32768

/* Hands the first n bytes of lines held to stdout's buffer (where they fit)
 * and keeps the rest. */
static void hand_rows(struct run *run, size_t n)
{
    struct json_text *held = &run->line;
    fwrite(held->s, 1, n, stdout);
    memmove(held->s, held->s + n, held->len - n + 1);
    held->len -= n;
}

/* batch_flush_fn: writes the lines held back. */
static void flush_rows(void *ctx)
{
    struct run *run = ctx;
    if (run->hold_rows && run->line.len > 0) {
        hand_rows(run, run->line.len);
        output_flush(&run->stdout_errno);
    }
}

/* Prints one JSON result line (built in run->line, after the lines held
 * there, or alone), with the expectation when there is one; same_head:
 * the line's file, job, model and property are the last line's (a check
 * of several progress models), copied from run->head. */
static void report_json(struct run *run, const struct job *job, const struct check_result *r, bool same_head)
{
    struct json_text *line = &run->line;
    size_t held = run->hold_rows ? line->len : 0;
    if (run->hold_rows)
        json_text_open(line);
    else
        json_text_begin(line);
    size_t head = line->len;
    if (same_head) {
        json_text_put_raw(line, run->head.s, run->head.len);
    } else {
        json_text_string(line, "file", job->file);
        if (job->shard_index > 0)
            json_text_long(line, "job", job->shard_index - 1);
        if (r->model[0])
            json_text_string(line, "model", r->model);
        else
            json_text_null(line, "model");        /* no model was chosen: the input is in error */
        json_text_string(line, "property", property_name(job->opts->property));
        run->head.len = 0;
        json_text_put_raw(&run->head, line->s + head, line->len - head);
    }
    if (job->opts->property == P_TERMINATION)
        output_progress_text(line, job->opts->progress, &job->opts->hierarchy, r->model);
    json_text_string(line, "result", verdict_name(r->verdict));
    if (r->engine[0])
        json_text_string(line, "engine", r->engine);
    if (r->has_reachable)
        json_text_bool(line, "reachable", r->reachable);
    json_text_thousandths(line, "time_ms", (long)(r->ms * 1000));
    json_text_string(line, "reason", r->reason);
    if (r->vacuous)
        json_text_bool(line, "vacuous", true);
    if (r->no_execution)
        json_text_bool(line, "no_execution", true);
    if (r->cut_at_bound)
        json_text_bool(line, "cut_at_bound", true);
    if (r->nvars > 0) {
        json_text_long(line, "vars", r->nvars);
        json_text_long(line, "clauses", r->nclauses);
        json_text_long(line, "pairs", r->npairs);
    }
    if (r->symmetry_key[0])
        json_text_string(line, "symmetry_key", r->symmetry_key);
    if (r->outcomes)
        json_text_item(line, "outcomes", r->outcomes);
    if (r->explanation)
        json_text_item(line, "explanation", r->explanation);
    if (r->details)
        json_text_item(line, "details", r->details);
    if (job->has_expected) {
        json_text_string(line, "expected", verdict_name(job->expected));
        json_text_bool(line, "match", job->expected == r->verdict);
    }
    json_text_close(line);
    json_text_put_raw(line, "\n", 1);
    if (!run->hold_rows) {
        fwrite(line->s, 1, line->len, stdout);
    } else if (held > 0 && line->len > ROW_BUFFER) {   /* the lines before it go out first */
        hand_rows(run, held);
        output_flush(&run->stdout_errno);
    }
}

/* Prints one human result line (and the outcome set under it); with an
 * expectation, only a mismatch. */
static void report_human(const struct run *run, const struct job *job, const struct check_result *r)
{
    char shown[8192], reason_shown[4200];
    const char *file = output_shown(job->file, shown, sizeof shown);
    const char *reason = output_shown(r->reason, reason_shown, sizeof reason_shown);
    char label[128];
    progress_label(job->opts->progress, &job->opts->hierarchy, label, sizeof label);
    if (job->has_expected) {
        if (job->expected != r->verdict && job_several_models(job))
            printf("%s: %s (%s): expected %s, got %s (%s)\n", file, property_name(job->opts->property),
                   label, verdict_name(job->expected), verdict_name(r->verdict), reason);
        else if (job->expected != r->verdict)
            printf("%s: %s: expected %s, got %s (%s)\n", file, property_name(job->opts->property),
                   verdict_name(job->expected), verdict_name(r->verdict), reason);
        return;
    }
    if (r->verdict == V_ERROR)
        return;
    if (run->cli->nproperties > 1 || job->opts->property != run->cli->properties[0])   /* or one added by default */
        printf("%s: %s: %s (%s)\n", file, property_name(job->opts->property),
               verdict_name(r->verdict), reason);
    else
        printf("%s: %s (%s)\n", file, verdict_name(r->verdict), reason);
    if (r->outcomes)
        outcomes_print(stdout, r->outcomes);
    if (r->explanation && job->spec->kind == JOB_PLAIN)
        explain_print_steps(stdout, "  ", r->explanation);
    if (r->details && job->spec->kind == JOB_OBSERVED)
        observed_print(stdout, r->details);
    else if (r->details)
        refinement_print(stdout, r->details, run->cli->verbose);
}

/* Writes a witness entry to the --witness file. */
static void add_witness(struct json_stream *all, const struct job *job, struct check_result *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", job->file);
    if (r->model[0])
        cJSON_AddStringToObject(o, "model", r->model);
    else
        cJSON_AddNullToObject(o, "model");
    cJSON_AddStringToObject(o, "property", property_name(job->opts->property));
    if (job->opts->property == P_TERMINATION)
        output_progress(o, job->opts->progress, &job->opts->hierarchy, r->model);
    cJSON_AddStringToObject(o, "result", verdict_name(r->verdict));
    if (r->witness)
        cJSON_AddItemToObject(o, "witness", r->witness);
    else
        cJSON_AddNullToObject(o, "witness");
    r->witness = NULL;
    if (r->explanation)
        cJSON_AddItemToObject(o, "explanation", r->explanation);
    r->explanation = NULL;
    output_stream_add(all, o);
    cJSON_Delete(o);
}

/* Reports and tallies one result (of one progress model, for a check of
 * several); human output of such a check is the table, printed before. */
static void one_result(struct run *run, const struct job *job, struct check_result *r, bool table, bool first)
{
    char shown[4200];
    if (r->verdict == V_ERROR && !job->has_expected && first
        && !(run->last_error && strcmp(run->last_error, r->reason) == 0)) {
        flush_rows(run);   /* the lines before it first, as a reader of both streams saw them */
        fprintf(stderr, "%s\n", output_shown(r->reason, shown, sizeof shown));
        free(run->last_error);
        run->last_error = xstrdup(r->reason);
    }
    if (run->cli->json)
        report_json(run, job, r, !first);
    else if (!table || job->has_expected)
        report_human(run, job, r);
    run->any_fail |= r->verdict == V_FAIL;
    run->any_unknown |= r->verdict == V_UNKNOWN;
    run->any_error |= r->verdict == V_ERROR;
    if (job->has_expected) {
        if (job->expected == r->verdict)
            run->matched++;
        else
            run->mismatched++;
    }
    run->any_error |= !graph_output(run->cli, run->renderer, job, r);
    if (run->witnesses)
        add_witness(run->witnesses, job, r);
    if (run->some_model && job->opts->ndisabled == 0)
        return;   /* the model would tell nothing new */
    const struct model_desc *md = check_model(job->opts, r->model, 0);
    run->some_model |= md != NULL;
    for (int i = 0; md && i < job->opts->ndisabled; i++)
        run->axiom_applies[i] |= model_has_axiom(md, job->opts->disabled[i]);
}

/* "FILE: fair PASS, hsa FAIL (P1 spins), ...": a check of several progress
 * models in one line. */
static void report_table(const struct run *run, const struct job *job, const struct check_result *r)
{
    char shown[8192];
    printf("%s:%s", output_shown(job->file, shown, sizeof shown), run->cli->nproperties > 1 ? " termination:" : "");
    for (int i = 0; i < r->nprogress; i++) {
        const struct progress_result *pr = &r->progress[i];
        char label[128];
        progress_label(pr->model, &job->opts->hierarchy, label, sizeof label);
        printf("%s %s %s", i ? "," : "", label, verdict_name(pr->verdict));
        if (pr->verdict == V_FAIL && pr->brief[0])
            printf(" (%s)", pr->brief);
    }
    printf("%s\n", r->no_execution ? " (vacuously: no consistent execution at all)" : "");
}

/* Copies src into dst of size bytes, cut to fit (as snprintf's "%s"). */
static void copy_text(char *dst, size_t size, const char *src)
{
    size_t len = strnlen(src, size - 1);
    memcpy(dst, src, len);
    dst[len] = '\0';
}

/* batch_result_fn: reports and tallies one result, or one per progress
 * model of a check of several. */
static void on_result(void *ctx, const struct job *job, struct check_result *r)
{
    struct run *run = ctx;
    if (!job_several_models(job)) {
        one_result(run, job, r, false, true);
        if (!run->hold_rows)
            output_flush(&run->stdout_errno);
        return;
    }
    if (r->nprogress == 0) {   /* no check ran (an error, a timeout): the same for every model */
        enum progress_model ms[CHECK_PROGRESS_MODELS];
        r->nprogress = check_progress_models(job->opts, ms);
        for (int i = 0; i < r->nprogress; i++) {
            r->progress[i] = (struct progress_result){ .model = ms[i], .verdict = r->verdict };
            copy_text(r->progress[i].engine, sizeof r->progress[i].engine, r->engine);
            copy_text(r->progress[i].reason, sizeof r->progress[i].reason, r->reason);
        }
    }
    bool table = !run->cli->json && !job->has_expected && r->verdict != V_ERROR;
    if (table)
        report_table(run, job, r);
    struct job one = *job;   /* the job under one model at a time */
    struct check_opts opts = *job->opts;
    one.opts = &opts;
    for (int i = 0; i < r->nprogress; i++) {
        const struct progress_result *pr = &r->progress[i];
        opts.progress = pr->model;
        one.has_expected = job->expected_models & (1u << pr->model);
        one.expected = (enum verdict)job->expected_by[pr->model];
        /* all but the progress results, which it has none of, and the
         * reason, its own (a KiB, mostly unused) */
        struct check_result each;
        _Static_assert(offsetof(struct check_result, ms) - offsetof(struct check_result, reason)
                       - sizeof each.reason < _Alignof(double), "the reason comes just before ms");
        memcpy(&each, r, offsetof(struct check_result, reason));
        memcpy(&each.ms, &r->ms, offsetof(struct check_result, progress) - offsetof(struct check_result, ms));
        each.nprogress = 0;
        each.verdict = pr->verdict;
        each.vacuous = pr->vacuous;
        copy_text(each.engine, sizeof each.engine, pr->engine);
        copy_text(each.reason, sizeof each.reason, pr->reason);
        each.witness = r->witness ? cJSON_DetachItemFromArray(r->witness, 0) : NULL;
        if (each.witness && cJSON_IsNull(each.witness)) {
            cJSON_Delete(each.witness);
            each.witness = NULL;
        }
        one_result(run, &one, &each, table, i == 0);
        cJSON_Delete(each.witness);
    }
    if (!run->hold_rows)
        output_flush(&run->stdout_errno);   /* once per check: a write per row wakes the reader as often */
}

/* False, after an error, when some --no-axiom name named an axiom of no
 * model that a file was checked under (with --model, cli_parse checked). */
static bool axioms_applied(const struct run *run)
{
    bool ok = true;
    for (int i = 0; run->some_model && i < run->cli->opts.ndisabled; i++)
        if (!run->axiom_applies[i]) {
            fprintf(stderr, "gpubmc: error: --no-axiom %s: no file was checked under a model "
                    "with that axiom\n", run->cli->opts.disabled[i]);
            ok = false;
        }
    return ok;
}

/* How many results the jobs give: one each, or one per progress model. */
static long results_of(const struct job_list *jobs)
{
    long n = 0;
    for (int i = 0; i < jobs->n; i++) {
        enum progress_model ms[CHECK_PROGRESS_MODELS];
        n += job_several_models(&jobs->jobs[i]) ? check_progress_models(jobs->jobs[i].opts, ms) : 1;
    }
    return n;
}

/* Builds the job list and refuses what cannot run; 0 or 1 (message printed). */
static int prepare(const struct cli *cli, struct job_list *jobs)
{
    struct job_request req = { .spec = &cli->spec, .opts = &cli->opts, .nproperties = cli->nproperties,
                               .properties = cli->properties, .npaths = cli->nfiles,
                               .divergence_by_default = !cli->property_given && cli->spec.kind == JOB_PLAIN
                                                        && !cli->opts.oracle && !cli->graph_path,
                               .paths = cli->files, .ncsv = cli->ncsv, .csv = cli->csv };
    char msg[2048];
    if (!jobs_build(&req, jobs, msg, sizeof msg)) {
        fprintf(stderr, "%s\n", msg);
        return 1;
    }
    if (cli_check_jobs(cli, jobs)
        || (cli->witness_path && output_refused("--witness", cli->witness_path, cli, jobs))
        || (cli->graph_path && output_refused("--graph", cli->graph_path, cli, jobs))
        || (cli->dimacs_path && (output_refused("--dimacs", cli->dimacs_path, cli, jobs)
                                 || !output_writable("--dimacs", cli->dimacs_path)))
        || (cli->spec.emit_dir && output_refused("--emit-transformed", cli->spec.emit_dir, cli, jobs))
        || (cli->spec.cuda_dir && output_refused("--emit-cuda", cli->spec.cuda_dir, cli, jobs))
        || (cli->graph_dir && !output_dir_ready("--graph-dir", cli->graph_dir))
        || (cli->spec.emit_dir && !output_dir_ready("--emit-transformed", cli->spec.emit_dir))) {
        jobs_free(jobs);
        return 1;
    }
    if (cli->dimacs_path)
        cnf_dimacs_first(cli->dimacs_path);
    if (cli->shard_n > 0)
        jobs_keep_shard(jobs, cli->shard_k, cli->shard_n);
    return 0;
}

int main(int argc, char **argv)
{
    struct cli cli;
    int rc = cli_parse(argc, argv, &cli);
    struct job_list jobs;
    if (rc || prepare(&cli, &jobs)) {
        cli_free(&cli);
        return rc == 2 && output_stdout_ok(0) ? 0 : 1;
    }
    struct json_stream witnesses;   /* one object for one result, else an array */
    bool broken = cli.witness_path && !output_stream_open(&witnesses, cli.witness_path, results_of(&jobs) != 1);
    struct run run = { .cli = &cli, .witnesses = cli.witness_path && !broken ? &witnesses : NULL,
                       .renderer = graph_renderer_new() };
    /* Into a pipe or a file, JSON lines go out a batch of them at a time, in
     * one write each time the batch waits for results (flush_rows); lines
     * that go with pictures, on stderr, or to a terminal go out one by one. */
    static char row_buffer[ROW_BUFFER];
    run.hold_rows = cli.json && !cli.graph_path && !cli.graph_dir && !isatty(STDOUT_FILENO)
                    && setvbuf(stdout, row_buffer, _IOFBF, sizeof row_buffer) == 0;
    int stopped = broken ? 0 : batch_run(&jobs, cli.workers, &cli.budget, isatty(STDERR_FILENO), on_result,
                                         flush_rows, &run);
    broken |= run.witnesses && !output_stream_close(run.witnesses);
    graph_renderer_free(run.renderer);
    free(run.last_error);
    if (run.hold_rows && run.line.len > 0)   /* to stdout's buffer, flushed below */
        hand_rows(&run, run.line.len);
    json_text_free(&run.line);
    json_text_free(&run.head);
    bool expectations = cli.ncsv > 0;
    if (expectations)
        fprintf(cli.json ? stderr : stdout, "%d passed, %d failed\n", run.matched, run.mismatched);
    broken |= !stopped && !axioms_applied(&run);
    broken |= !output_stdout_ok(run.stdout_errno);
    jobs_free(&jobs);
    cli_free(&cli);
    if (stopped > 0)   /* a signal: what was done is printed */
        return 128 + stopped;
    if (broken || stopped)
        return 1;
    if (expectations)
        return run.mismatched ? 10 : 0;
    if (run.any_error)
        return 1;
    return run.any_fail ? 10 : run.any_unknown ? 20 : 0;
}
