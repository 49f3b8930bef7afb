/* Command-line parsing for gpubmc. */
#ifndef GPUBMC_CLI_H
#define GPUBMC_CLI_H

#include "bmc/check.h"

#define CLI_MAX_PROPERTIES 3
#define CLI_MAX_WORKERS 256

struct cli {
    struct check_opts opts;
    int nproperties;
    enum property properties[CLI_MAX_PROPERTIES];
    bool json;
    const char *witness_path;
    int nfiles;
    char **files;            /* files and directories */
    int ncsv;
    char **csv;              /* --expect */
    int workers;             /* -j */
    int shard_k, shard_n;    /* --shard K/N; shard_n = 0: no sharding */
};

/* Parses argv; returns 0 on success, 1 on a usage error (message printed),
 * 2 when --help or --version was answered. */
int cli_parse(int argc, char **argv, struct cli *cli);

#endif
