/* Command-line parsing for gpubmc. */
#ifndef GPUBMC_CLI_H
#define GPUBMC_CLI_H

#include "bmc/graph/graph.h"
#include "bmc/driver/jobs.h"
#include "bmc/driver/worker.h"

#define CLI_MAX_PROPERTIES 3
#define CLI_MAX_WORKERS 256
#define CLI_DEFAULT_MAX_MEMORY_MB 4096

struct cli {
    struct job_spec spec;    /* what every job does with its file */
    struct check_opts opts;
    int nproperties;
    enum property properties[CLI_MAX_PROPERTIES];
    bool property_given;     /* --property: else the default, program_spec (and
                                barrier_divergence for SPIR-V and OpenCL files) */
    bool json;
    bool verbose;            /* --verbose: each comparison site's detail */
    const char *witness_path;
    const char *dimacs_path;     /* --dimacs FILE, or NULL */
    const char *graph_path;  /* --graph FILE */
    const char *graph_dir;   /* --graph-dir DIR */
    int graph_dpi;           /* --graph-dpi: the pictures' resolution (0: Graphviz's default) */
    const char *graph_format;   /* --graph-format: dot (default), svg or png */
    int ngraph_rels;
    char *graph_rels[GRAPH_MAX_RELATIONS];   /* --graph-relations, split */
    int nfiles;
    char **files;            /* files and directories */
    int ncsv;
    char **csv;              /* --expect */
    int workers;             /* -j */
    int shard_k, shard_n;    /* --shard K/N; shard_n = 0: no sharding */
    struct budget budget;    /* --timeout, --max-memory */
    struct cat_model *cat_models[2];   /* --cat, --compare-model FILE.cat (owned) */
    const char *cat_paths[2];          /* their file names */
};

/* Parses argv; returns 0 on success, 1 on a usage error (message printed),
 * 2 when --help or --version was answered. */
int cli_parse(int argc, char **argv, struct cli *cli);

/* Refuses options that apply to none of the jobs (a --progress model
 * other than the default fair without a termination check, --outcomes
 * without a program_spec check) or cannot apply to one (--engine oracle
 * with a termination check); returns 0, or 1 after printing a usage
 * error. */
int cli_check_jobs(const struct cli *cli, const struct job_list *jobs);

/* Frees what cli_parse allocated. */
void cli_free(struct cli *cli);

#endif
