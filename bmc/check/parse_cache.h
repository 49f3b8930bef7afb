/* Parsed tests a worker keeps between the checks of one file: a batch
 * that checks a file again later (another model, another property) reads
 * and parses it once, as long as the file stays the same on disk. */
#ifndef GPUBMC_PARSE_CACHE_H
#define GPUBMC_PARSE_CACHE_H

#include <stdbool.h>

#include "litmus/ast.h"

/* Before check job of file: drops every kept test that no check from job
 * on will use, and lets this check keep file's test for check next (-1:
 * no later check of file). */
void parse_cache_plan(int job, const char *file, int next);

/* The test parsed from path (grid as litmus_parse_file_grid; its filter
 * dropped when drop_filter): kept from an earlier check when planned and
 * the file is unchanged (device, inode, size, modification time), else
 * read and parsed.  *own: the test when the caller owns it, NULL when
 * the cache keeps it (then nobody may change or free it).  NULL with err
 * on failure. */
const struct litmus *parse_cache_load(const char *path, const int *grid, bool drop_filter,
                                      struct litmus_error *err, struct litmus **own);

/* Frees every kept test and forgets the plan. */
void parse_cache_clear(void);

#endif
