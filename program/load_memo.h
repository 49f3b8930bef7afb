/* What a check loads, kept for a later check of the same file: a batch
 * checks a file once per model and property, and its bytes parse to the
 * same litmus, which unrolls to the same program, each time.  A file's
 * litmus and program are kept only when the caller has said that a later
 * check wants the file (load_memo_keep), and handed out again only for
 * the same path, grid and bytes (the file is read again and compared)
 * and the same bound. */
#ifndef GPUBMC_PROGRAM_LOAD_MEMO_H
#define GPUBMC_PROGRAM_LOAD_MEMO_H

#include <stdbool.h>

#include "litmus/ast.h"
#include "program/program.h"

/* Says that a check after the next one reads the file at path (NULL:
 * none does): load_memo_litmus keeps that file's parse.  path must live
 * until the next call. */
void load_memo_keep(const char *path);

/* The litmus of the file at path for grid (see ast.h), as
 * litmus_parse_file_grid parses it, or the one kept for the same path,
 * grid and bytes; NULL and err on failure.  *kept: the memo keeps it (to
 * be given back with load_memo_give_back, neither changed nor freed);
 * otherwise the caller owns it. */
struct litmus *load_memo_litmus(const char *path, const int *grid, struct litmus_error *err, bool *kept);

/* The program of l, which the last load_memo_litmus returned, unrolled to
 * bound (as program_build does; NULL and msg on failure), or the one kept
 * with l for that bound.  *kept: the memo keeps it with l (neither to
 * change nor to free); otherwise the caller owns it. */
struct program *load_memo_program(const struct litmus *l, int bound, char *msg, int msglen, bool *kept);

/* Ends a use of a litmus that load_memo_litmus returned with *kept (and
 * of the program load_memo_program kept with it). */
void load_memo_give_back(const struct litmus *l);

#endif
