/* --graph and --graph-dir: one picture per check, written as the result arrives. */
#ifndef GPUBMC_GRAPH_OUTPUT_H
#define GPUBMC_GRAPH_OUTPUT_H

#include "bmc/check/check.h"
#include "bmc/driver/cli.h"

/* Draws the execution that decides r (the check of job) where --graph or
 * --graph-dir asks; a verdict no single execution decides gets a note on
 * stderr.  False after printing an error (an unknown relation, a file that
 * cannot be written). */
bool graph_output(const struct cli *cli, struct graph_renderer *gr, const struct job *job,
                  const struct check_result *r);

#endif
