/* Output safety: refusing paths that would overwrite an input, and
 * checking every write. */
#include "bmc/driver/output.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/newfile.h"

/* True when a and b are the same existing file. */
static bool same_file(const struct stat *a, const char *b)
{
    struct stat sb;
    return stat(b, &sb) == 0 && a->st_dev == sb.st_dev && a->st_ino == sb.st_ino;
}

/* The input that path names, or NULL. */
static const char *input_named(const char *path, const struct cli *cli, const struct job_list *jobs)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return NULL;
    for (int i = 0; i < cli->nfiles; i++)
        if (same_file(&st, cli->files[i]))
            return cli->files[i];
    for (int i = 0; i < cli->ncsv; i++)
        if (same_file(&st, cli->csv[i]))
            return cli->csv[i];
    for (int i = 0; i < jobs->n; i++)
        if (same_file(&st, jobs->jobs[i].file))
            return jobs->jobs[i].file;
    /* --source SRC, --observed LOG, --compare-model FILE.cat */
    const char *others[] = { cli->spec.source, cli->spec.observed_log, cli->spec.compare_model };
    for (int i = 0; i < 3; i++)
        if (others[i] && same_file(&st, others[i]))
            return others[i];
    return NULL;
}

bool output_refused(const char *option, const char *path, const struct cli *cli,
                    const struct job_list *jobs)
{
    size_t len = strlen(path);
    const char *input = input_named(path, cli, jobs);
    struct stat st;
    bool file = strcmp(option, "--witness") == 0 || strcmp(option, "--graph") == 0;   /* not a directory */
    bool dir = strcmp(option, "--emit-transformed") == 0 || strcmp(option, "--emit-cuda") == 0;
    if (strcmp(path, "-") == 0)   /* not standard output: it carries the verdicts */
        fprintf(stderr, "gpubmc: error: %s -: standard output carries the verdicts; give a %s name\n",
                option, dir ? "directory" : "file");
    else if (file && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        fprintf(stderr, "gpubmc: error: %s %s is a symbolic link; gpubmc does not write through one\n",
                option, path);
    else if (input)
        fprintf(stderr, "gpubmc: error: %s %s would overwrite the input %s\n", option, path, input);
    else if (len >= 7 && strcmp(path + len - 7, ".litmus") == 0)
        fprintf(stderr, "gpubmc: error: %s %s names a litmus file; give it a .json name\n", option, path);
    else
        return false;
    fprintf(stderr, "(gpubmc --help lists the options)\n");
    return true;
}

bool output_writable(const char *option, const char *path)
{
    FILE *f = fopen(path, "a");   /* "a": what is there stays until the check writes */
    if (f) {
        fclose(f);
        return true;
    }
    fprintf(stderr, "gpubmc: error: %s %s: cannot write: %s\n", option, path, strerror(errno));
    return false;
}

bool output_dir_ready(const char *option, const char *dir)
{
    struct stat st;
    if (mkdir(dir, 0777) == 0 || (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode)))
        return true;
    fprintf(stderr, "gpubmc: error: %s %s: cannot make the directory: %s\n", option, dir,
            errno == EEXIST ? "a file of that name is there" : strerror(errno));
    return false;
}

const char *output_shown(const char *s, char *buf, size_t len)
{
    size_t used = 0;
    for (; *s && used + 5 < len; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c != 0x7f)
            buf[used++] = (char)c;
        else if (c == '\t' || c == '\n' || c == '\r')
            used += (size_t)snprintf(buf + used, len - used, "\\%c", c == '\t' ? 't' : c == '\n' ? 'n' : 'r');
        else
            used += (size_t)snprintf(buf + used, len - used, "\\x%02x", c);
    }
    buf[used] = '\0';
    return buf;
}

bool output_stream_open(struct json_stream *s, const char *path, bool array)
{
    struct stat st;
    memset(s, 0, sizeof *s);
    s->path = path;
    s->array = array;
    bool special = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
    newfile_temp_path(path, s->tmp, sizeof s->tmp);
    if (special)
        s->tmp[0] = '\0';
    s->f = fopen(special ? path : s->tmp, "w");
    if (!s->f) {
        fprintf(stderr, "%s: error: cannot write: %s\n", path, strerror(errno));
        return false;
    }
    if (array && fputs("[", s->f) < 0)
        s->err = errno ? errno : EIO;
    return true;
}

void output_stream_add(struct json_stream *s, const cJSON *item)
{
    char *text = cJSON_Print(item);
    if (!text && !s->err)
        s->err = ENOMEM;
    if (text && !s->err && fprintf(s->f, "%s%s", s->n ? ", " : "", text) < 0)
        s->err = errno ? errno : EIO;
    s->n++;
    free(text);
}

bool output_stream_close(struct json_stream *s)
{
    if (s->array && !s->err && fputs("]", s->f) < 0)
        s->err = errno ? errno : EIO;
    if (!s->err && (fputc('\n', s->f) == EOF || fflush(s->f) != 0 || ferror(s->f)))
        s->err = errno ? errno : EIO;
    if (fclose(s->f) != 0 && !s->err)
        s->err = errno ? errno : EIO;
    if (!s->err && s->tmp[0] && rename(s->tmp, s->path) != 0)
        s->err = errno;
    if (s->err && s->tmp[0])
        unlink(s->tmp);
    if (s->err)
        fprintf(stderr, "%s: error: cannot write: %s\n", s->path, strerror(s->err));
    return !s->err;
}

bool output_flush(int *first_errno)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return true;
    if (*first_errno == 0)
        *first_errno = errno ? errno : EIO;
    return false;
}

bool output_stdout_ok(int first_errno)
{
    if (output_flush(&first_errno))
        return true;
    fprintf(stderr, "gpubmc: error: cannot write the standard output: %s\n", strerror(first_errno));
    return false;
}

/* The dialect whose scopes a progress hierarchy names under model. */
static enum dialect scope_dialect(const char *model)
{
    return model && strncmp(model, "ptx", 3) == 0 ? DIALECT_PTX : DIALECT_VULKAN;
}

void output_progress(cJSON *o, enum progress_model m, const struct progress_hierarchy *h, const char *model)
{
    char label[128];
    progress_label(m, h, label, sizeof label);
    cJSON_AddStringToObject(o, "progress", label);
    if (!progress_scoped(h))
        return;
    enum dialect d = scope_dialect(model);
    cJSON *scopes = cJSON_AddObjectToObject(o, "progress_scopes");
    for (int depth = 0, s; (s = progress_scope_at(d, depth)) >= 0; depth++)
        cJSON_AddStringToObject(scopes, progress_scope_name((enum progress_scope)s),
                                progress_name(progress_at(h, m, s)));
}

void output_progress_text(struct json_text *t, enum progress_model m, const struct progress_hierarchy *h,
                          const char *model)
{
    if (!progress_scoped(h)) {   /* the label is the model's name */
        json_text_string(t, "progress", progress_name(m));
        return;
    }
    char label[128];
    progress_label(m, h, label, sizeof label);
    json_text_string(t, "progress", label);
    enum dialect d = scope_dialect(model);
    json_text_object(t, "progress_scopes");
    for (int depth = 0, s; (s = progress_scope_at(d, depth)) >= 0; depth++)
        json_text_string(t, progress_scope_name((enum progress_scope)s), progress_name(progress_at(h, m, s)));
    json_text_close(t);
}
