/* Input files: regular-file checks and recursive directory walks that
 * survive FIFOs, devices, broken links and directory loops. */
#include "bmc/driver/inputs.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/xalloc.h"

#define MAX_DIR_DEPTH 64

/* The directories from the walk's root down to the current one, by
 * device and inode, to recognise a link back to one of them. */
struct ancestors {
    int n;
    dev_t dev[MAX_DIR_DEPTH + 1];
    ino_t ino[MAX_DIR_DEPTH + 1];
};

static void add(struct inputs *in, const char *path, const char *error)
{
    XGROW(in->v, in->cap, in->n + 1);
    in->v[in->n++] = (struct input){ xstrdup(path), error ? xstrdup(error) : NULL };
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

const char *input_problem(const char *path, char *buf, size_t len)
{
    struct stat st;
    if (stat(path, &st) != 0)
        snprintf(buf, len, "cannot open: %s", strerror(errno));
    else if (!S_ISREG(st.st_mode))
        snprintf(buf, len, "not a regular file");
    else
        return NULL;
    return buf;
}

/* The sorted entry paths of dir (hidden ones left out), or NULL with
 * errno set. */
static char **list_dir(const char *dir, int *n)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **v = NULL;
    int cap = 0;
    *n = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        if (ent->d_name[0] == '.')
            continue;
        size_t len = strlen(dir) + strlen(ent->d_name) + 2;
        XGROW(v, cap, *n + 1);
        v[*n] = xcalloc(len, 1);
        snprintf(v[(*n)++], len, "%s%s%s", dir, has_suffix(dir, "/") ? "" : "/", ent->d_name);
    }
    closedir(d);
    qsort(v, (size_t)*n, sizeof *v, compare_names);
    return v ? v : xcalloc(1, sizeof *v);
}

/* Whether a file found in a directory is a test to check: a litmus test
 * or a SPIR-V module. */
static bool is_input_name(const char *name)
{
    return has_suffix(name, ".litmus") || has_suffix(name, ".spvasm");
}

/* Adds the test files (is_input_name) under dir (whose stat is st), recursively. */
static void walk_dir(struct inputs *in, const char *dir, const struct stat *st, struct ancestors *up)
{
    char why[128];
    for (int k = 0; k < up->n; k++)
        if (up->dev[k] == st->st_dev && up->ino[k] == st->st_ino) {
            add(in, dir, "directory loop: a symbolic link leads back to a directory being searched");
            return;
        }
    if (up->n > MAX_DIR_DEPTH) {
        snprintf(why, sizeof why, "directories nested more than %d deep", MAX_DIR_DEPTH);
        add(in, dir, why);
        return;
    }
    int n;
    char **names = list_dir(dir, &n);
    if (!names) {
        snprintf(why, sizeof why, "cannot read directory: %s", strerror(errno));
        add(in, dir, why);
        return;
    }
    up->dev[up->n] = st->st_dev;
    up->ino[up->n++] = st->st_ino;
    for (int i = 0; i < n; i++) {
        struct stat sub;
        bool found = stat(names[i], &sub) == 0;
        if (found && S_ISDIR(sub.st_mode))
            walk_dir(in, names[i], &sub, up);
        else if (found && S_ISREG(sub.st_mode) && is_input_name(names[i]))
            add(in, names[i], NULL);   /* a regular file: no need to look again */
        else if (is_input_name(names[i]))
            add(in, names[i], input_problem(names[i], why, sizeof why));
        free(names[i]);
    }
    up->n--;
    free(names);
}

void inputs_add(struct inputs *in, const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        struct ancestors up = { 0 };
        int before = in->n;
        walk_dir(in, path, &st, &up);
        if (in->n == before)   /* nothing to check is no pass */
            add(in, path, "no .litmus file in this directory or under it");
    } else {
        char why[128];
        add(in, path, input_problem(path, why, sizeof why));
    }
}

void inputs_free(struct inputs *in)
{
    for (int i = 0; i < in->n; i++) {
        free(in->v[i].path);
        free(in->v[i].error);
    }
    free(in->v);
    in->n = in->cap = 0;
    in->v = NULL;
}
