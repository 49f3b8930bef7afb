/* Corpus CSVs for --expect: the header's settings and each row's verdict,
 * bound, progress model and options. */
#define _DEFAULT_SOURCE   /* for realpath */
#include "bmc/driver/expect.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bmc/driver/dir_list.h"
#include "bmc/driver/inputs.h"
#include "models/model.h"
#include "util/text_hash.h"
#include "util/xalloc.h"

#define MAX_FIELDS 64        /* fields of a row looked at; the rest stay in the last */

bool verdict_parse(const char *s, enum verdict *v)
{
    static const char *const names[] = { "PASS", "FAIL", "UNKNOWN", "ERROR" };
    int i = s[0] == 'P' ? 0 : s[0] == 'F' ? 1 : s[0] == 'U' ? 2 : 3;   /* the one it can be */
    if (strcmp(s, names[i]) != 0)
        return false;
    *v = (enum verdict)i;
    return true;
}

bool property_parse(const char *s, enum property *p)
{
    static const enum property all[] = { P_PROGRAM_SPEC, P_CAT_SPEC, P_TERMINATION, P_BARRIER_DIVERGENCE };
    for (int i = 0; i < 4; i++)
        if (strcmp(s, property_name(all[i])) == 0) {
            *p = all[i];
            return true;
        }
    return false;
}

/* Parses a loop bound, 1 to 10000. */
static bool bound_parse(const char *val, int *bound)
{
    char *end;
    long b = strtol(val, &end, 10);
    if (*val == '\0' || *end != '\0' || b < 1 || b > 10000)
        return false;
    *bound = (int)b;
    return true;
}

/* Parses a progress model or hierarchy ("fair;QF=obe") into o. */
static bool progress_field(const char *val, struct check_opts *o)
{
    char err[160];
    o->progress_set = 0;
    return progress_parse_spec(val, &o->progress, &o->hierarchy, err, sizeof err);
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
        return progress_field(val, o);
    if (strcmp(key, "bound") == 0)
        return bound_parse(val, &o->bound);
    return false;
}

/* Applies a row's options column (Dartagnan's option names) to o. */
static bool row_option(const char *val, struct check_opts *o)
{
    if (strcmp(val, "encoding.ignoreFilterSpecification=true") == 0)
        o->ignore_filter = true;
    else if (strcmp(val, "encoding.ignoreFilterSpecification=false") == 0)
        o->ignore_filter = false;
    else
        return false;
    return true;
}

/* Fills msg with "path:line:col: error: ..." and returns false. */
static bool row_error(char *msg, int msglen, const char *path, int line, int col, const char *fmt, ...)
{
    int used = snprintf(msg, (size_t)msglen, "%s:%d:%d: error: ", path, line, col);
    va_list ap;
    va_start(ap, fmt);
    if (used >= 0 && used < msglen)
        vsnprintf(msg + used, (size_t)(msglen - used), fmt, ap);
    va_end(ap);
    return false;
}

/* Where a CSV's rows hold their settings: field indices, -1 for none. */
struct columns {
    int bound, progress, options;
};

/* Reads the column names of a "# path,expected,..." comment (its first
 * word) into cols; false when line is no such comment. */
static bool column_line(const char *line, struct columns *cols)
{
    if (strncmp(line, "# path,", 7) != 0)
        return false;
    *cols = (struct columns){ -1, -1, -1 };
    size_t end = 2 + strcspn(line + 2, " \t");
    int k = 0;
    for (size_t at = 2; at < end; k++) {
        size_t len = strcspn(line + at, ", \t");
        int *which = len == 5 && !strncmp(line + at, "bound", 5) ? &cols->bound
                     : len == 8 && !strncmp(line + at, "progress", 8) ? &cols->progress
                     : len == 7 && !strncmp(line + at, "options", 7) ? &cols->options : NULL;
        if (which)
            *which = k;
        at += len + (line[at + len] == ',');
    }
    return true;
}

/* Applies a row's bound, progress and options fields (f[cols...]; empty,
 * '-' or absent: the header's) to a copy of header, which becomes the
 * row's own options in out; header itself when the row sets none. */
static bool row_settings(char **f, int nf, const struct columns *cols, const char *line,
                         const struct check_opts *header, struct rows *out, const struct check_opts **opts,
                         const char *path, int ln, char *msg, int msglen)
{
    struct check_opts *mine = NULL;   /* a copy of header once the row sets something */
    const int at[3] = { cols->bound, cols->progress, cols->options };
    for (int k = 0; k < 3; k++) {
        const char *v = at[k] >= 0 && at[k] < nf ? f[at[k]] : NULL;
        if (!v || v[0] == '\0' || strcmp(v, "-") == 0)
            continue;
        if (!mine) {
            XGROW(out->opts, out->opts_cap, out->nopts + 1);
            mine = out->opts[out->nopts++] = xcalloc(1, sizeof *mine);
            *mine = *header;
        }
        int col = (int)(v - line) + 1;
        if (k == 0 && !bound_parse(v, &mine->bound))
            return row_error(msg, msglen, path, ln, col, "bound '%s': expected a loop bound from 1 to 10000", v);
        if (k == 1 && !progress_field(v, mine))
            return row_error(msg, msglen, path, ln, col, "progress '%s': expected a progress model (fair, hsa, "
                             "obe, hsa_obe, lobe, unfair, M_strong) or DEFAULT;SCOPE=MODEL...", v);
        if (k == 2 && !row_option(v, mine))
            return row_error(msg, msglen, path, ln, col, "option '%s': expected '-' or "
                             "encoding.ignoreFilterSpecification=true|false", v);
    }
    *opts = mine ? mine : header;
    return true;
}

/* Splits line at its commas into at most max fields (a last column's
 * commas stay in it); returns how many. */
static int split_row(char *line, char **f, int max)
{
    int n = 0;
    for (char *at = line; at && n < max; n++) {
        f[n] = at;
        at = n + 1 < max ? strchr(at, ',') : NULL;
        if (at)
            *at++ = '\0';
    }
    return n;
}

/* The directory of the last row, its realpath ("" before any) and its
 * entries. */
struct dir_cache {
    char dir[PATH_MAX], real[PATH_MAX];
    int rows;                  /* rows of new files in dir, one after the other */
    struct dir_list listing;   /* dir's entries, read at its second such row */
};

/* Whether the file of a CSV row is there, and with real its realpath
 * (a copy; NULL when absent): the realpath of its directory (kept from
 * the row before when it is the same) and its name, when the name is no
 * link, not "." or ".."; else realpath itself.  What the name is comes
 * from lstat, or from the directory's listing, read at the second of the
 * rows of one directory that come one after the other: such rows cost no
 * system call each, not a readlink per component and a getcwd; *regular
 * says whether the name is a regular file. */
static bool row_realpath(struct dir_cache *dc, const char *path, bool *regular, char **real)
{
    const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
    char dir[PATH_MAX], resolved[PATH_MAX];
    bool plain = slash != path && *name && strcmp(name, ".") != 0 && strcmp(name, "..") != 0
                 && (size_t)(name - path) < sizeof dir;
    *regular = false;
    if (real)
        *real = NULL;
    if (plain) {
        size_t len = slash ? (size_t)(slash - path) : 1;
        memcpy(dir, slash ? path : ".", len);
        dir[len] = '\0';
        if (strcmp(dir, dc->dir) != 0) {
            memcpy(dc->dir, dir, len + 1);
            if (!realpath(dir, dc->real))
                dc->real[0] = '\0';
            dc->rows = 0;
            dc->listing.n = 0;
        }
        if (++dc->rows == 2)
            dir_list_read(&dc->listing, dir);
        enum entry_kind kind = dir_list_kind(&dc->listing, name);
        struct stat st;
        if (kind == ENTRY_UNKNOWN)
            kind = lstat(path, &st) != 0 ? ENTRY_ABSENT : S_ISLNK(st.st_mode) ? ENTRY_LINK
                 : S_ISREG(st.st_mode) ? ENTRY_REGULAR : ENTRY_OTHER;
        plain = kind == ENTRY_REGULAR || kind == ENTRY_OTHER;
        *regular = kind == ENTRY_REGULAR;
    }
    if (plain) {
        size_t r = strcmp(dc->real, "/") == 0 ? 0 : strlen(dc->real), k = strlen(name);
        if (dc->real[0] && r + 1 + k < PATH_MAX) {
            if (real) {
                *real = xcalloc(r + k + 2, 1);
                memcpy(*real, dc->real, r);
                (*real)[r] = '/';
                memcpy(*real + r + 1, name, k);
            }
            return true;
        }
    }
    if (!realpath(path, resolved))
        return false;
    if (real)
        *real = xstrdup(resolved);
    return true;
}

unsigned expect_file_hash(const char *file)
{
    return (unsigned)text_hash(14695981039346656037u, file);
}

/* The slot of a file name of hash h in out->first: its first row's, or
 * the empty one where that row goes. */
static struct file_slot *first_slot(struct rows *out, const char *name, unsigned h)
{
    size_t mask = (size_t)out->first_cap - 1, k = h & mask;
    while (out->first[k].row
           && (out->first[k].hash != h || strcmp(out->r[out->first[k].row - 1].file, name) != 0))
        k = (k + 1) & mask;
    return &out->first[k];
}

/* The first row of file name, of hash h (expect_file_hash), in out (NULL:
 * none yet, and row out->n, about to be added, will be): a file several
 * CSVs list is resolved once.  The table holds a slot per file, not per
 * row, and is kept at most half full of them (the corpus's 2,498 rows
 * name 782 files: 2,048 slots, not 8,192). */
static const struct row *listed_before(struct rows *out, const char *name, unsigned h)
{
    if (2 * (out->nfirst + 1) > out->first_cap) {
        struct file_slot *old = out->first;
        int old_cap = out->first_cap;
        out->first_cap = out->first_cap ? 2 * out->first_cap : 256;
        out->first = xcalloc((size_t)out->first_cap, sizeof *out->first);
        for (int k = 0; k < old_cap; k++)
            if (old[k].row) {
                size_t mask = (size_t)out->first_cap - 1, at = old[k].hash & mask;
                while (out->first[at].row)
                    at = (at + 1) & mask;
                out->first[at] = old[k];
            }
        free(old);
    }
    struct file_slot *slot = first_slot(out, name, h);
    if (slot->row)
        return &out->r[slot->row - 1];
    *slot = (struct file_slot){ out->n + 1, h };
    out->nfirst++;
    return NULL;
}

/* Reads one row at line ln of path into out; false with msg on an error. */
static bool read_row(char *line, const struct columns *cols, const struct check_opts *header, struct rows *out,
                     struct dir_cache *dirs, const char *path, int ln, char *msg, int msglen)
{
    char *f[MAX_FIELDS];
    int nf = split_row(line, f, MAX_FIELDS);   /* in place: a field's column is its offset from line */
    enum verdict v;
    bool ok = nf >= 2 && f[0][0] != '\0' && verdict_parse(f[1], &v);
    if (!ok)
        row_error(msg, msglen, path, ln, nf >= 2 ? (int)(f[1] - line) + 1 : 1,
                  "expected 'path,PASS|FAIL|UNKNOWN|ERROR'");
    const struct check_opts *opts = header;
    if (ok)
        ok = row_settings(f, nf, cols, line, header, out, &opts, path, ln, msg, msglen);
    if (ok) {
        /* room for 4096 rows at first (128 KiB, an allocation of its own, its
         * pages touched as rows fill them), doubled in place: no copies */
        XGROW_FROM(out->r, out->cap, out->n + 1, 4096);
        unsigned h = expect_file_hash(f[0]);
        const struct row *prev = listed_before(out, f[0], h);
        bool again = prev != NULL, regular = again && prev->regular;
        if (again) {   /* a file listed again: resolved once, its texts shared */
            out->r[out->n++] = (struct row){ prev->file, prev->real, opts, v, prev->exists, regular, true, h };
        } else {
            char *real;
            bool exists = row_realpath(dirs, f[0], &regular, out->want_real ? &real : NULL);
            out->r[out->n++] = (struct row){ xstrdup(f[0]), out->want_real ? real : NULL, opts, v, exists,
                                             regular, false, h };
        }
    }
    return ok;
}

/* The whole text of f, NUL-terminated, its length in *len; NULL on a
 * read error. */
static char *read_all(FILE *f, size_t *len)
{
    size_t cap = 65536, n = 0, got;
    char *text = xrealloc(NULL, cap);
    while ((got = fread(text + n, 1, cap - 1 - n, f)) > 0)
        if ((n += got) == cap - 1)
            text = xrealloc(text, cap *= 2);
    if (ferror(f)) {
        free(text);
        return NULL;
    }
    text[n] = '\0';
    *len = n;
    return text;
}

bool expect_read(const char *path, const struct check_opts *defaults, struct rows *out, char *msg, int msglen)
{
    char why[128];
    const char *problem = input_problem(path, why, sizeof why);
    FILE *f = problem ? NULL : fopen(path, "r");
    if (!f) {
        snprintf(msg, msglen, "%s: error: %s%s", path, problem ? problem : "cannot open: ",
                 problem ? "" : strerror(errno));
        return false;
    }
    XGROW(out->opts, out->opts_cap, out->nopts + 1);
    struct check_opts *o = out->opts[out->nopts++] = xcalloc(1, sizeof *o);
    *o = *defaults;
    size_t len = 0;
    char *text = read_all(f, &len);   /* read at once, its lines cut in place */
    bool ok = text != NULL;
    if (!ok)
        snprintf(msg, msglen, "%s: error: read error", path);
    int first_row = out->n;
    struct columns cols = { -1, -1, -1 };   /* without a column line: path,expected,source */
    struct dir_cache dirs;   /* its paths' first bytes alone set: not 8 KiB zeroed per CSV */
    dirs.dir[0] = dirs.real[0] = '\0';
    dirs.rows = 0;
    dirs.listing = (struct dir_list){ 0 };
    char *at = text, *end = text + len;
    for (int ln = 1; ok && at < end; ln++) {
        char *line = at, *nl = memchr(at, '\n', (size_t)(end - at));
        at = nl ? nl + 1 : end;
        if (nl)
            *nl = '\0';
        char *cr = memchr(line, '\r', (size_t)((nl ? nl : end) - line));   /* a line ends at either */
        if (cr)
            *cr = '\0';
        if (ln == 1 && strncmp(line, "\xef\xbb\xbf", 3) == 0)   /* a byte-order mark */
            line += 3;
        if (ln == 1 && line[0] == '#') {
            for (char *tok = strtok(line + 1, " \t"); ok && tok; tok = strtok(NULL, " \t")) {
                char copy[256];
                snprintf(copy, sizeof copy, "%s", tok);
                if (!header_option(copy, o)) {
                    snprintf(msg, msglen, "%s:1:%d: error: unknown header setting '%s' "
                             "(model=, property=, progress=, bound=)",
                             path, (int)(tok - line) + 1, tok);
                    ok = false;
                }
            }
            continue;
        }
        if (ln == 2 && column_line(line, &cols))
            continue;
        if (line[0] != '#' && line[0] != '\0')
            ok = read_row(line, &cols, o, out, &dirs, path, ln, msg, msglen);
    }
    if (ok && out->n == first_row) {
        snprintf(msg, msglen, "%s: error: no rows: expected lines 'path,PASS|FAIL|UNKNOWN|ERROR[,source]' "
                 "after the header", path);
        ok = false;
    }
    free(text);
    fclose(f);
    dir_list_free(&dirs.listing);
    return ok;
}

void expect_free(struct rows *rows)
{
    for (int k = 0; k < rows->n; k++)
        if (!rows->r[k].listed_again) {
            free(rows->r[k].file);
            free(rows->r[k].real);
        }
    free(rows->r);
    for (int k = 0; k < rows->nopts; k++)
        free(rows->opts[k]);
    free(rows->opts);
    free(rows->first);
    memset(rows, 0, sizeof *rows);
}
