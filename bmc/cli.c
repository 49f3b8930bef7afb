/* Option parsing: the stable command-line contract of DESIGN.md. */
#include "bmc/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmc/jobs.h"
#include "models/model.h"

static const char usage[] =
    "usage: gpubmc [--model ptx-v6.0|ptx-v7.5|vulkan|vulkan-nochains]\n"
    "              [--property program_spec|cat_spec|termination[,...]]\n"
    "              [--progress fair|hsa|obe|hsa_obe|lobe|unfair] [--bound N]\n"
    "              [--no-axiom NAME]... [--engine sat|oracle]\n"
    "              [--json] [--witness FILE.json] [--outcomes] [--no-symmetry]\n"
    "              [--expect CSV]... [-j N] [--shard K/N] [FILE|DIR]...\n";

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "gpubmc: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s", usage);
    return 1;
}

static int parse_properties(const char *arg, struct cli *cli)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", arg);
    cli->nproperties = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        enum property p;
        if (!property_parse(tok, &p))
            return usage_error("unknown property '%s'", tok);
        if (cli->nproperties == CLI_MAX_PROPERTIES)
            return usage_error("too many properties in '%s'", arg);
        cli->properties[cli->nproperties++] = p;
    }
    return cli->nproperties ? 0 : usage_error("empty property list '%s'", arg);
}

/* Parses a whole decimal number in [lo, hi] into *out. */
static bool parse_int(const char *v, long lo, long hi, int *out)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (*v == '\0' || *end != '\0' || n < lo || n > hi)
        return false;
    *out = (int)n;
    return true;
}

/* Parses "K/N" with 1 <= K <= N. */
static bool parse_shard(const char *v, struct cli *cli)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", v);
    char *slash = strchr(buf, '/');
    if (!slash)
        return false;
    *slash = '\0';
    return parse_int(buf, 1, 1000000, &cli->shard_k) && parse_int(slash + 1, 1, 1000000, &cli->shard_n)
        && cli->shard_k <= cli->shard_n;
}

/* The value of option argv[*i], or NULL after reporting a missing one. */
static const char *option_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        usage_error("option %s needs a value", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

int cli_parse(int argc, char **argv, struct cli *cli)
{
    memset(cli, 0, sizeof *cli);
    cli->opts.bound = 1;
    cli->opts.progress = PROG_FAIR;
    cli->nproperties = 1;
    cli->properties[0] = P_PROGRAM_SPEC;
    cli->workers = 1;
    cli->files = calloc((size_t)argc, sizeof *cli->files);
    cli->csv = calloc((size_t)argc, sizeof *cli->csv);
    if (!cli->files || !cli->csv)
        return usage_error("%s", "out of memory");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            return 2;
        } else if (strcmp(a, "--version") == 0) {
            puts("gpubmc 0.1");
            return 2;
        } else if (strcmp(a, "--engine") == 0) {
            if (!(v = option_value(argc, argv, &i)))
                return 1;
            if (strcmp(v, "sat") != 0 && strcmp(v, "oracle") != 0)
                return usage_error("unknown engine '%s' (sat or oracle)", v);
            cli->opts.oracle = strcmp(v, "oracle") == 0;
        } else if (strcmp(a, "--json") == 0) {
            cli->json = true;
        } else if (strcmp(a, "--outcomes") == 0) {
            cli->opts.outcomes = true;
        } else if (strcmp(a, "--no-symmetry") == 0) {
            cli->opts.no_symmetry = true;
        } else if (strcmp(a, "--explain") == 0) {
            cli->opts.explain = true;
        } else if (strcmp(a, "--model") == 0) {
            if (!(v = option_value(argc, argv, &i)))
                return 1;
            if (!model_find(v))
                return usage_error("unknown or unavailable model '%s'", v);
            cli->opts.model = v;
        } else if (strcmp(a, "--property") == 0) {
            if (!(v = option_value(argc, argv, &i)) || parse_properties(v, cli))
                return 1;
        } else if (strcmp(a, "--progress") == 0) {
            if (!(v = option_value(argc, argv, &i)))
                return 1;
            if (!progress_parse(v, &cli->opts.progress))
                return usage_error("unknown progress model '%s' (fair, hsa, obe, hsa_obe, lobe or unfair)", v);
        } else if (strcmp(a, "--bound") == 0) {
            if (!(v = option_value(argc, argv, &i)))
                return 1;
            if (!parse_int(v, 1, 10000, &cli->opts.bound))
                return usage_error("--bound needs an integer from 1 to 10000, not '%s'", v);
        } else if (strcmp(a, "--witness") == 0) {
            if (!(v = option_value(argc, argv, &i)))
                return 1;
            cli->witness_path = v;
            cli->opts.want_witness = true;
        } else if (strcmp(a, "--no-axiom") == 0) {
            if (!(v = option_value(argc, argv, &i)))
                return 1;
            if (cli->opts.ndisabled == CHECK_MAX_DISABLED)
                return usage_error("too many --no-axiom options (at %s)", v);
            cli->opts.disabled[cli->opts.ndisabled++] = v;
        } else if (strcmp(a, "--expect") == 0) {
            if (!(v = option_value(argc, argv, &i)))
                return 1;
            cli->csv[cli->ncsv++] = (char *)v;
        } else if (strcmp(a, "-j") == 0 || strcmp(a, "--jobs") == 0) {
            if (!(v = option_value(argc, argv, &i)))
                return 1;
            if (!parse_int(v, 1, CLI_MAX_WORKERS, &cli->workers))
                return usage_error("-j needs a number of workers from 1 to 256, not '%s'", v);
        } else if (strncmp(a, "-j", 2) == 0 && a[2] != '\0') {
            if (!parse_int(a + 2, 1, CLI_MAX_WORKERS, &cli->workers))
                return usage_error("-j needs a number of workers from 1 to 256, not '%s'", a + 2);
        } else if (strcmp(a, "--shard") == 0) {
            if (!(v = option_value(argc, argv, &i)))
                return 1;
            if (!parse_shard(v, cli))
                return usage_error("--shard needs K/N with 1 <= K <= N, not '%s'", v);
        } else if (a[0] == '-' && a[1] != '\0') {
            return usage_error("unknown option '%s'", a);
        } else {
            cli->files[cli->nfiles++] = argv[i];
        }
    }
    if (cli->nfiles == 0 && cli->ncsv == 0)
        return usage_error("%s", "no input files");
    return 0;
}
