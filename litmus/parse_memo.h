/* Parses kept for a later check of the same file: a batch checks a file
 * once per model and property, and its bytes parse to the same litmus
 * each time.  A parse is kept only when the caller has said that a later
 * check wants the file (parse_memo_keep), and handed out again only for
 * the same path, grid and bytes (the file is read again and compared). */
#ifndef GPUBMC_LITMUS_PARSE_MEMO_H
#define GPUBMC_LITMUS_PARSE_MEMO_H

#include <stdbool.h>

#include "litmus/ast.h"

/* Says that a check after the next one reads the file at path (NULL:
 * none does): parse_memo_take keeps that file's parse.  path must live
 * until the next call. */
void parse_memo_keep(const char *path);

/* The litmus of the file at path for grid (see ast.h), as
 * litmus_parse_file_grid parses it, or the one kept for the same path,
 * grid and bytes; NULL and err on failure.  *kept: the memo keeps it (to
 * be given back with parse_memo_give_back, neither changed nor freed);
 * otherwise the caller owns it. */
struct litmus *parse_memo_take(const char *path, const int *grid, struct litmus_error *err, bool *kept);

/* Ends a use of a litmus that parse_memo_take returned with *kept. */
void parse_memo_give_back(const struct litmus *l);

#endif
