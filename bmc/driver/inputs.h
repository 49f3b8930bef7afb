/* Finding the input files: command-line paths and directory walks.  Only
 * regular files are checked; anything else is kept with the reason. */
#ifndef GPUBMC_INPUTS_H
#define GPUBMC_INPUTS_H

#include <stddef.h>

/* One input: a path, and why it cannot be checked (NULL: it can). */
struct input {
    char *path;
    char *error;
};

struct inputs {
    int n, cap;
    struct input *v;
};

/* Adds path: a regular file as it is; a directory's *.litmus entries,
 * recursively and in sorted order (an unreadable directory, a directory
 * loop or a .litmus entry that is not a regular file is kept with its
 * error; a directory without any is kept with the error "no .litmus
 * file ..."); anything else with its error. */
void inputs_add(struct inputs *in, const char *path);

/* Why path cannot be read as a litmus file ("not a regular file", "cannot
 * open: ..."), written into buf; NULL when it is a regular file. */
const char *input_problem(const char *path, char *buf, size_t len);

/* Frees the list. */
void inputs_free(struct inputs *in);

#endif
