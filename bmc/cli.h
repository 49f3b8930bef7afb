/* Command-line parsing for gpubmc. */
#ifndef GPUBMC_CLI_H
#define GPUBMC_CLI_H

#include "bmc/check.h"

#define CLI_MAX_PROPERTIES 3

struct cli {
    struct check_opts opts;
    int nproperties;
    enum property properties[CLI_MAX_PROPERTIES];
    bool json;
    const char *witness_path;
    int nfiles;
    char **files;
};

/* Parses argv; returns 0 on success, 1 on a usage error (message printed),
 * 2 when --help or --version was answered. */
int cli_parse(int argc, char **argv, struct cli *cli);

#endif
