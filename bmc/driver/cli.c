/* Option parsing: the stable command-line contract of DESIGN.md. */
#include "bmc/driver/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bmc/check/symmetry.h"
#include "bmc/compare/map.h"
#include "bmc/transform/transform.h"
#include "models/cat_model.h"
#include "models/model.h"

#define GPUBMC_VERSION "0.1"
#define STRING(x) #x
#define NUMBER(x) STRING(x)   /* a macro's value as a string literal */

static const char synopsis[] =
    "usage: gpubmc [--model ptx-v6.0|ptx-v7.5|vulkan|vulkan-nochains|opencl | --cat FILE]\n"
    "              [--property program_spec|cat_spec|termination|barrier_divergence[,...]]\n"
    "              [--progress fair|hsa|obe|hsa_obe|lobe|unfair|M_strong|all|LIST[;SCOPE=M...]] [--bound N]\n"
    "              [--grid T,S,W] [--ignore-filter]\n"
    "              [--no-axiom NAME]... [--engine sat|states|oracle] [--max-states N]\n"
    "              [--json] [--verbose] [--witness FILE.json] [--outcomes]\n"
    "              [--no-symmetry | --symmetry-key first|last]\n"
    "              [--explain] [--graph FILE.dot|.svg|.png | --graph-dir DIR]\n"
    "              [--graph-format dot|svg|png] [--graph-dpi N] [--graph-relations R,...]\n"
    "              [--expect CSV]... [-j N] [--shard K/N]\n"
    "              [--timeout SECONDS] [--max-memory MB] [--dimacs FILE]\n"
    "              [--source SRC | --map MAPPING | --transform NAME[@LINE] [--emit-transformed DIR]\n"
    "               | --necessary-sync | --minimize-sync | --compare-model M2\n"
    "               | --emit-cuda DIR | --observed LOG] [--observe NAME,...]\n"
    "              [FILE|DIR]...\n"
    "       gpubmc --help | --version\n";

enum option_id {
    O_MODEL, O_CAT, O_PROPERTY, O_PROGRESS, O_BOUND, O_GRID, O_IGNORE_FILTER, O_NO_AXIOM, O_ENGINE, O_MAX_STATES,
    O_JSON, O_VERBOSE, O_WITNESS,
    O_OUTCOMES, O_NO_SYMMETRY, O_SYMMETRY_KEY, O_EXPLAIN, O_GRAPH, O_GRAPH_DIR, O_GRAPH_FORMAT, O_GRAPH_DPI, O_GRAPH_RELATIONS, O_EXPECT, O_JOBS,
    O_SHARD, O_TIMEOUT, O_MAX_MEMORY, O_DIMACS, O_SOURCE, O_MAP, O_TRANSFORM, O_EMIT_TRANSFORMED, O_NECESSARY_SYNC, O_MINIMIZE_SYNC,
    O_COMPARE_MODEL, O_OBSERVE, O_EMIT_CUDA, O_OBSERVED, O_HELP,
    O_VERSION, O_COUNT
};

/* A long option: its name, its short form (or NULL), the name of its value
 * (NULL: it takes none), and its text in --help ('\n' starts an indented
 * line). */
struct option_spec {
    const char *name, *alias, *value, *help;
};

static const struct option_spec options[O_COUNT] = {
    [O_MODEL] = { "--model", NULL, "M", "ptx-v6.0, ptx-v7.5, vulkan, vulkan-nochains or\n"
                  "opencl (default: ptx-v7.5 for PTX tests, vulkan for\n"
                  "VULKAN, opencl for OPENCL)" },
    [O_CAT] = { "--cat", NULL, "FILE", "the model written in the cat language in FILE (with\n"
                "the stdlib.cat beside it), for every test and in\n"
                "place of the model a CSV names" },
    [O_PROPERTY] = { "--property", NULL, "P[,P...]", "program_spec (default; SPIR-V and OpenCL files\n"
                     "also barrier_divergence), cat_spec, termination,\n"
                     "barrier_divergence" },
    [O_PROGRESS] = { "--progress", NULL, "G[,G...]", "fair (default), hsa, obe, hsa_obe, lobe, unfair,\n"
                     "the first five with _strong (strong fairness),\n"
                     "a list of them, or all (the six weak ones): the\n"
                     "progress models of termination checks (one result\n"
                     "each, one check); ;SCOPE=MODEL... (or Dat3M's\n"
                     "[SCOPE=MODEL,...]) sets a scope's scheduler" },
    [O_BOUND] = { "--bound", NULL, "N", "loops run at most N iterations (1-10000, default 1)" },
    [O_GRID] = { "--grid", NULL, "T,S,W", "SPIR-V: threads per subgroup, subgroups per workgroup,\n"
                 "workgroups (overrides the file's @Config; without one: 1,1,1)" },
    [O_IGNORE_FILTER] = { "--ignore-filter", NULL, NULL, "ignore the test's filter (SPIR-V @Filter, litmus filter)" },
    [O_NO_AXIOM] = { "--no-axiom", NULL, "NAME", "switch an axiom of the model off (repeatable)" },
    [O_ENGINE] = { "--engine", NULL, "E", "sat, states or oracle (default: SAT, and for\n"
                   "termination in the interleaving fragment explicit\n"
                   "states; states: termination only; oracle: brute-\n"
                   "force enumeration, program_spec and cat_spec only)" },
    [O_MAX_STATES] = { "--max-states", NULL, "N", "states the explicit-state engine explores before it\n"
                       "gives up (default " NUMBER(CHECK_DEFAULT_MAX_STATES_INT) ")" },
    [O_JSON] = { "--json", NULL, NULL, "one JSON object per result line" },
    [O_VERBOSE] = { "--verbose", NULL, NULL, "under each site of a comparison, the reads of its\n"
                    "new outcome's execution" },
    [O_WITNESS] = { "--witness", NULL, "FILE.json", "write the executions that decide the verdicts" },
    [O_OUTCOMES] = { "--outcomes", NULL, NULL, "also list the reachable final states\n"
                     "(program_spec checks, SAT engine)" },
    [O_NO_SYMMETRY] = { "--no-symmetry", NULL, NULL, "no symmetry breaking between interchangeable threads" },
    [O_SYMMETRY_KEY] = { "--symmetry-key", NULL, "K", "order interchangeable threads by their first write\n"
                         "or by their last (default: both, in turns)" },
    [O_EXPLAIN] = { "--explain", NULL, NULL, "why an outcome is forbidden: a minimal set of\n"
                    "axioms, the execution without them, their cycles" },
    [O_GRAPH] = { "--graph", NULL, "FILE", "draw the deciding execution as .dot, .svg or .png\n"
                  "(one check)" },
    [O_GRAPH_DIR] = { "--graph-dir", NULL, "DIR", "draw one graph per file and property into DIR" },
    [O_GRAPH_FORMAT] = { "--graph-format", NULL, "FMT", "dot (default), svg or png: the --graph-dir format" },
    [O_GRAPH_DPI] = { "--graph-dpi", NULL, "N", "the pictures' resolution in dots per inch (36-600;\n"
                      "default: Graphviz's, 96 for PNG)" },
    [O_GRAPH_RELATIONS] = { "--graph-relations", NULL, "R,...", "the relations drawn (default rf, co, fr, rmw,\n"
                            "sync or sw, syncbar)" },
    [O_EXPECT] = { "--expect", NULL, "CSV", "compare with the verdicts a corpus CSV expects,\n"
                   "each row under its bound, progress and options\n(repeatable)" },
    [O_JOBS] = { "--jobs", "-j", "N", "run N checks at once (default 1)" },
    [O_SHARD] = { "--shard", NULL, "K/N", "check only the K-th of N interleaved slices" },
    [O_TIMEOUT] = { "--timeout", NULL, "SECONDS", "wall-clock seconds per check, then UNKNOWN\n"
                    "(default 0: none)" },
    [O_MAX_MEMORY] = { "--max-memory", NULL, "MB", "memory (address space) per check, then ERROR\n"
                       "(default " NUMBER(CLI_DEFAULT_MAX_MEMORY_MB) "; 0: none)" },
    [O_DIMACS] = { "--dimacs", NULL, "FILE", "write the clauses of the first SAT solver session\n"
                   "to FILE in DIMACS (tests/bench/limit.py)" },
    [O_SOURCE] = { "--source", NULL, "SRC", "check that each file adds no outcome to SRC\n"
                   "(termination: no hang; cat_spec: no race)" },
    [O_MAP] = { "--map", NULL, "MAPPING", "compile each OpenCL file to PTX (ptx, ptx-sc-relaxed,\n"
                "ptx-sc-release; wrong on purpose: ptx-no-sc-fence,\nptx-relaxed-acquire) or Vulkan (vulkan; "
                "wrong on\npurpose: vulkan-relaxed-release, vulkan-private)\n"
                "and check that it adds no outcome under ptx-v7.5\nor vulkan" },
    [O_TRANSFORM] = { "--transform", NULL, "NAME[@LINE]", "rewrite each file at each site (on LINE) and check\n"
                      "that it adds no outcome: hoist-acquire, remove-spin,\nweaken-order, narrow-scope, "
                      "drop-fence,\ndrop-barrier-semantics or reorder" },
    [O_EMIT_TRANSFORMED] = { "--emit-transformed", NULL, "DIR", "write the rewritten programs of --transform to DIR" },
    [O_NECESSARY_SYNC] = { "--necessary-sync", NULL, NULL, "try each single-step weakening of each order,\n"
                           "scope, fence, barrier semantics and av/vis flag" },
    [O_MINIMIZE_SYNC] = { "--minimize-sync", NULL, NULL, "weaken greedily while no outcome is added; print\n"
                          "the weakest program, checked again" },
    [O_COMPARE_MODEL] = { "--compare-model", NULL, "M2", "the outcomes the model allows and M2 forbids, and\n"
                          "the reverse (M2 a model name or a FILE.cat)" },
    [O_OBSERVE] = { "--observe", NULL, "NAME,...", "what comparisons observe: registers (P0:r1) and\n"
                    "locations (default: the locations list, else\n"
                    "what the condition names, else all both share)" },
    [O_EMIT_CUDA] = { "--emit-cuda", NULL, "DIR", "write each PTX test as a CUDA program that runs it\n"
                      "under stress on a GPU (DIR/NAME.cu, Makefile, params.txt)" },
    [O_OBSERVED] = { "--observed", NULL, "LOG", "judge the outcomes a hardware run saw (herd or litmus7\n"
                     "log): FAIL names those the model forbids" },
    [O_HELP] = { "--help", "-h", NULL, "print this help" },
    [O_VERSION] = { "--version", NULL, NULL, "print the version" },
};

static void print_help(void)
{
    fputs(synopsis, stdout);
    puts("\nChecks GPU litmus tests (PTX and Vulkan dialects) against a memory model by\n"
         "SAT.  Directories are searched recursively for *.litmus files.  Each check runs\n"
         "in a worker process under the --timeout and --max-memory budgets.\n\noptions:");
    for (int i = 0; i < O_COUNT; i++) {
        const struct option_spec *o = &options[i];
        char head[64];
        const char *v = o->value ? o->value : "";
        if (o->alias)
            snprintf(head, sizeof head, "%s%s%s, %s%s%s", o->alias, *v ? " " : "", v, o->name, *v ? " " : "", v);
        else
            snprintf(head, sizeof head, "%s%s%s", o->name, *v ? " " : "", v);
        printf("  %-24s ", head);
        for (const char *h = o->help; *h; h++) {
            if (*h == '\n')
                printf("\n%27s", "");
            else
                putchar(*h);
        }
        putchar('\n');
    }
    puts("\nexit status: 0 all PASS, 10 some FAIL, 20 some UNKNOWN (none FAIL), 1 usage or\n"
         "input error; with --expect, 0 when every verdict matches and 10 otherwise;\n"
         "130 or 143 when SIGINT or SIGTERM stopped the run (what was done is printed).");
}

/* Prints "gpubmc: error: " fmt (with arg) and a pointer to --help; returns 1. */
static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "gpubmc: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(gpubmc --help lists the options)\n");
    return 1;
}

/* Splits --graph-relations R,R,... into cli->graph_rels. */
static int parse_relations(const char *arg, struct cli *cli)
{
    for (const char *at = arg; *at;) {
        size_t len = strcspn(at, ",");
        if (len == 0 || cli->ngraph_rels == GRAPH_MAX_RELATIONS)
            return usage_error("--graph-relations needs up to " NUMBER(GRAPH_MAX_RELATIONS)
                               " names separated by commas, not '%s'", arg);
        cli->graph_rels[cli->ngraph_rels] = strndup(at, len);
        if (!cli->graph_rels[cli->ngraph_rels++])
            return usage_error("%s", "out of memory");
        if (!graph_relation_known(cli->graph_rels[cli->ngraph_rels - 1])) {
            char msg[512];
            size_t used = (size_t)snprintf(msg, sizeof msg, "--graph-relations: unknown relation '%.80s' (the "
                                           "relations a witness can have:", cli->graph_rels[cli->ngraph_rels - 1]);
            for (int i = 0; graph_relation_names[i] && used < sizeof msg; i++)
                used += (size_t)snprintf(msg + used, sizeof msg - used, " %s", graph_relation_names[i]);
            if (used < sizeof msg)
                snprintf(msg + used, sizeof msg - used, ")");
            return usage_error("%s", msg);
        }
        at += len + (at[len] == ',');
    }
    return 0;
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

/* Parses --progress: a model, a comma-separated list of them, or all,
 * then any ";SCOPE=MODEL" overrides for them all; or Dat3M's one
 * hierarchy "[SCOPE=MODEL,...]". */
static int parse_progress(const char *arg, struct check_opts *o)
{
    char buf[128], err[160], msg[320];
    snprintf(buf, sizeof buf, "%s", arg);
    memset(&o->hierarchy, 0, sizeof o->hierarchy);
    if (buf[0] == '[') {
        o->progress_set = 0;
        if (!progress_parse_spec(buf, &o->progress, &o->hierarchy, err, sizeof err)) {
            snprintf(msg, sizeof msg, "--progress %s: %s", arg, err);
            return usage_error("%s", msg);
        }
        return 0;
    }
    char *semi = strchr(buf, ';');
    if (semi) {
        *semi = '\0';
        if (!progress_parse_scopes(semi + 1, ';', &o->hierarchy, NULL, err, sizeof err)) {
            snprintf(msg, sizeof msg, "--progress %s: %s", arg, err);
            return usage_error("%s", msg);
        }
    }
    unsigned set = 0;
    bool first = true;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        enum progress_model m;
        if (strcmp(tok, "all") == 0) {
            set |= (1u << PROGRESS_WEAK_MODELS) - 1;
            m = PROG_FAIR;
        } else if (!progress_parse(tok, &m)) {
            return usage_error("unknown progress model '%s' (fair, hsa, obe, hsa_obe, lobe, unfair, "
                               "the first five with _strong, or all)", tok);
        }
        set |= 1u << m;
        if (first)
            o->progress = m;
        first = false;
    }
    if (first)
        return usage_error("empty progress model list '%s'", arg);
    o->progress_set = (set & (set - 1)) ? set : 0;   /* one model: progress alone */
    return 0;
}

/* Parses a whole decimal number in [lo, hi] into *out. */
static bool parse_long(const char *v, long lo, long hi, long *out)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (*v == '\0' || *end != '\0' || n < lo || n > hi)
        return false;
    *out = n;
    return true;
}

static bool parse_int(const char *v, int lo, int hi, int *out)
{
    long n;
    if (!parse_long(v, lo, hi, &n))
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

/* Parses a number of seconds from 0 to a million (fractions allowed). */
static bool parse_seconds(const char *v, double *out)
{
    char *end;
    double s = strtod(v, &end);
    if (*v == '\0' || *end != '\0' || !(s >= 0 && s <= 1e6))
        return false;
    *out = s;
    return true;
}

/* True when some model has an axiom called name; otherwise *known lists
 * each model's axioms ("M: A B; ..."). */
static bool axiom_of_some_model(const char *name, char *known, size_t len)
{
    size_t used = 0;
    for (int i = 0; model_at(i); i++) {
        const struct model_desc *md = model_at(i);
        char axioms[256];
        if (model_has_axiom(md, name))
            return true;
        model_axiom_names(md, axioms, sizeof axioms);
        if (used < len)
            used += (size_t)snprintf(known + used, len - used, "%s%s: %s", used ? "; " : "", md->name, axioms);
    }
    return false;
}

/* Sets what the jobs check; a usage error when another of --source,
 * --transform, --necessary-sync, --minimize-sync, --compare-model,
 * --emit-cuda, --observed came first. */
static int set_kind(struct cli *cli, enum job_kind kind, const char *option)
{
    if (cli->spec.kind != JOB_PLAIN && cli->spec.kind != kind)
        return usage_error("%s cannot be combined with --source, --map, --transform, --necessary-sync, "
                           "--minimize-sync, --compare-model, --emit-cuda or --observed", option);
    cli->spec.kind = kind;
    return 0;
}

/* Loads the cat file v as --cat's model (which 0) or --compare-model's
 * (which 1); 0, or 1 after printing its error. */
static int load_cat(struct cli *cli, const char *v, int which)
{
    char err[1024];
    if (cli->cat_models[which])
        return usage_error("%s", which ? "--compare-model given twice" : "--cat given twice");
    cli->cat_models[which] = cat_model_load(v, err, sizeof err);
    cli->cat_paths[which] = v;
    if (!cli->cat_models[which]) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    if (which)
        cli->spec.compare_cat = cli->cat_models[which];
    else
        cli->opts.cat = cli->cat_models[which];
    return 0;
}

/* True when path ends in .dot, .svg or .png, the formats --graph writes. */
static bool graph_extension_known(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot && !strchr(dot, '/') && (strcmp(dot, ".dot") == 0 || strcmp(dot, ".svg") == 0
                                        || strcmp(dot, ".png") == 0);
}

/* The usage error for an unknown model name v given to option: it lists
 * the built-in models' names. */
static int unknown_model(const char *option, const char *v)
{
    char names[256], msg[600];
    model_names(names, sizeof names);
    snprintf(msg, sizeof msg, "%s: unknown model '%.200s' (the models: %s; %s)", option, v, names,
             strcmp(option, "--model") == 0 ? "or --cat FILE" : "or a FILE.cat");
    return usage_error("%s", msg);
}

/* Applies option id with value v (NULL for a flag); 0, 1 on a usage error,
 * 2 when it answered --help or --version. */
static int apply(struct cli *cli, enum option_id id, const char *v)
{
    switch (id) {
    case O_CAT:
        return load_cat(cli, v, 0);
    case O_MODEL:
        if (!model_find(v))
            return unknown_model("--model", v);
        cli->opts.model = v;
        return 0;
    case O_PROPERTY:
        cli->property_given = true;
        return parse_properties(v, cli);
    case O_PROGRESS:
        return parse_progress(v, &cli->opts);
    case O_BOUND:
        return parse_int(v, 1, 10000, &cli->opts.bound) ? 0
            : usage_error("--bound needs an integer from 1 to 10000, not '%s'", v);
    case O_GRID: {
        int *g = cli->opts.grid;
        char extra;
        if (sscanf(v, "%d,%d,%d%c", &g[0], &g[1], &g[2], &extra) != 3 || g[0] < 1 || g[1] < 1 || g[2] < 1
            || g[0] > 1024 || g[1] > 1024 || g[2] > 1024)
            return usage_error("--grid needs three positive integers T,S,W (at most 1024 each), not '%s'", v);
        cli->opts.has_grid = true;
        return 0;
    }
    case O_IGNORE_FILTER: cli->opts.ignore_filter = true; return 0;
    case O_NO_AXIOM:
        if (cli->opts.ndisabled == CHECK_MAX_DISABLED)
            return usage_error("too many --no-axiom options (at %s)", v);
        cli->opts.disabled[cli->opts.ndisabled++] = v;
        return 0;
    case O_ENGINE:
        if (strcmp(v, "sat") != 0 && strcmp(v, "states") != 0 && strcmp(v, "oracle") != 0)
            return usage_error("unknown engine '%s' (sat, states or oracle)", v);
        cli->opts.oracle = strcmp(v, "oracle") == 0;
        cli->opts.term_engine = strcmp(v, "sat") == 0 ? TERM_SAT : strcmp(v, "states") == 0 ? TERM_STATES : TERM_AUTO;
        return 0;
    case O_MAX_STATES:
        return parse_long(v, 1, 1000000000L, &cli->opts.max_states) ? 0
            : usage_error("--max-states needs a number of states from 1 to 10^9, not '%s'", v);
    case O_JSON: cli->json = true; return 0;
    case O_VERBOSE: cli->verbose = true; return 0;
    case O_WITNESS:
        cli->witness_path = v;
        cli->opts.want_witness = true;
        return 0;
    case O_OUTCOMES: cli->opts.outcomes = true; return 0;
    case O_NO_SYMMETRY: cli->opts.no_symmetry = true; return 0;
    case O_SYMMETRY_KEY:
        if (strcmp(v, "first") != 0 && strcmp(v, "last") != 0)
            return usage_error("unknown symmetry key '%s' (first or last)", v);
        cli->opts.symmetry_key = 1 + (strcmp(v, "first") == 0 ? KEY_FIRST_WRITE : KEY_LAST_WRITE);
        return 0;
    case O_EXPLAIN: cli->opts.explain = true; return 0;
    case O_GRAPH:
        if (!graph_extension_known(v))
            return usage_error("--graph %s: the graph's format comes from its extension: .dot, .svg or .png, "
                               "and this file has none of them", v);
        cli->graph_path = v;
        cli->opts.want_witness = true;
        return 0;
    case O_GRAPH_DIR:
        cli->graph_dir = v;
        cli->opts.want_witness = true;
        return 0;
    case O_GRAPH_FORMAT:
        if (strcmp(v, "dot") != 0 && strcmp(v, "svg") != 0 && strcmp(v, "png") != 0)
            return usage_error("unknown graph format '%s' (dot, svg or png)", v);
        cli->graph_format = v;
        return 0;
    case O_GRAPH_DPI:
        return parse_int(v, 36, 600, &cli->graph_dpi) ? 0
            : usage_error("--graph-dpi needs dots per inch from 36 to 600, not '%s'", v);
    case O_GRAPH_RELATIONS:
        return parse_relations(v, cli);
    case O_EXPECT: cli->csv[cli->ncsv++] = (char *)v; return 0;
    case O_JOBS:
        return parse_int(v, 1, CLI_MAX_WORKERS, &cli->workers) ? 0
            : usage_error("-j needs a number of workers from 1 to 256, not '%s'", v);
    case O_SHARD:
        return parse_shard(v, cli) ? 0 : usage_error("--shard needs K/N with 1 <= K <= N, not '%s'", v);
    case O_TIMEOUT:
        return parse_seconds(v, &cli->budget.timeout_s) ? 0
            : usage_error("--timeout needs seconds from 0 (none) to 1000000, not '%s'", v);
    case O_MAX_MEMORY:
        return parse_long(v, 0, 1L << 30, &cli->budget.max_memory_mb) ? 0
            : usage_error("--max-memory needs megabytes from 0 (none) to 2^30, not '%s'", v);
    case O_DIMACS:
        cli->dimacs_path = v;   /* checked and handed on with the other outputs (main.c) */
        return 0;
    case O_SOURCE: return set_kind(cli, JOB_SOURCE, "--source") || (cli->spec.source = v, 0);
    case O_MAP:
        if (!map_known(v))
            return usage_error("--map needs a mapping (ptx, ptx-sc-relaxed, ptx-sc-release, ptx-no-sc-fence, "
                               "ptx-relaxed-acquire, vulkan, vulkan-relaxed-release or vulkan-private), not '%s'", v);
        return set_kind(cli, JOB_MAP, "--map") || (cli->spec.map = v, 0);
    case O_TRANSFORM: {
        char err[256];
        enum transform_kind k;
        if (!transform_parse(v, &k, &cli->spec.transform_line, err, sizeof err))
            return usage_error("%s", err);
        cli->spec.transform = k;
        return set_kind(cli, JOB_TRANSFORM, "--transform");
    }
    case O_EMIT_TRANSFORMED: cli->spec.emit_dir = v; return 0;
    case O_NECESSARY_SYNC: return set_kind(cli, JOB_NECESSARY_SYNC, "--necessary-sync");
    case O_MINIMIZE_SYNC: return set_kind(cli, JOB_MINIMIZE_SYNC, "--minimize-sync");
    case O_COMPARE_MODEL:
        if (strlen(v) > 4 && strcmp(v + strlen(v) - 4, ".cat") == 0) {
            if (load_cat(cli, v, 1))
                return 1;
        } else if (!model_find(v)) {
            return unknown_model("--compare-model", v);
        }
        cli->spec.compare_model = v;
        return set_kind(cli, JOB_COMPARE_MODEL, "--compare-model");
    case O_OBSERVE:
        if (strspn(v, ",") == strlen(v) || strstr(v, ",,") || v[strlen(v) - 1] == ',')
            return usage_error("--observe needs registers (P0:r1) and locations separated by commas, not '%s'", v);
        cli->opts.observe = v;
        return 0;
    case O_EMIT_CUDA: return set_kind(cli, JOB_EMIT_CUDA, "--emit-cuda") || (cli->spec.cuda_dir = v, 0);
    case O_OBSERVED: return set_kind(cli, JOB_OBSERVED, "--observed") || (cli->spec.observed_log = v, 0);
    case O_HELP: print_help(); return 2;
    case O_VERSION: puts("gpubmc " GPUBMC_VERSION); return 2;
    case O_COUNT: break;   /* not an option */
    }
    return 1;
}

/* Parses argv[*i], an option, and its value (after '=' or in the next
 * argument); 0, 1 on a usage error, 2 for --help or --version. */
static int parse_option(int argc, char **argv, int *i, struct cli *cli)
{
    const char *a = argv[*i];
    if (strcmp(a, "-h") == 0)
        return apply(cli, O_HELP, NULL);
    if (strncmp(a, "-j", 2) == 0) {
        if (a[2] != '\0')
            return apply(cli, O_JOBS, a + 2);
        if (*i + 1 >= argc)
            return usage_error("option %s needs a value", a);
        return apply(cli, O_JOBS, argv[++*i]);
    }
    const char *eq = strchr(a, '=');
    size_t len = eq ? (size_t)(eq - a) : strlen(a);
    for (int id = 0; id < O_COUNT; id++) {
        const struct option_spec *o = &options[id];
        if (strncmp(a, o->name, len) != 0 || o->name[len] != '\0')
            continue;
        if (!o->value && eq)
            return usage_error("option %s takes no value", o->name);
        if (!o->value)
            return apply(cli, (enum option_id)id, NULL);
        if (eq)
            return apply(cli, (enum option_id)id, eq + 1);
        if (*i + 1 >= argc)
            return usage_error("option %s needs a value", o->name);
        return apply(cli, (enum option_id)id, argv[++*i]);
    }
    return usage_error("unknown option '%s'", a);
}

/* The current name of an axiom that earlier versions of gpubmc named
 * otherwise (the Vulkan data race was "racy3c3" before it took vulkan.cat's
 * name "racy"), or NULL. */
static const char *builtin_axiom_alias(const char *name)
{
    return strcmp(name, "racy3c3") == 0 ? "racy" : NULL;
}

/* Checks every --no-axiom name: an axiom of --model, or without one of
 * some model (a file whose model lacks it is unaffected); an
 * earlier name of a built-in axiom becomes its current name. */
static int check_axioms(struct cli *cli)
{
    const struct model_desc *md = cli->opts.cat ? cat_model_desc(cli->opts.cat, DIALECT_PTX)
                                  : cli->opts.model ? model_find(cli->opts.model) : NULL;
    for (int i = 0; i < cli->opts.ndisabled; i++) {
        const char *alias = builtin_axiom_alias(cli->opts.disabled[i]);
        if (alias && !cli->opts.cat && (!md || model_has_axiom(md, alias)))
            cli->opts.disabled[i] = alias;
        const char *name = cli->opts.disabled[i];
        if (md && !model_has_axiom(md, name)) {
            char axioms[256];
            model_axiom_names(md, axioms, sizeof axioms);
            fprintf(stderr, "gpubmc: error: model %s has no axiom '%s' (it has: %s)\n", md->name, name, axioms);
            return 1;
        }
        char known[512];
        if (!md && !axiom_of_some_model(name, known, sizeof known)) {
            fprintf(stderr, "gpubmc: error: no model has an axiom '%s' (%s)\n", name, known);
            return 1;
        }
    }
    return 0;
}

int cli_parse(int argc, char **argv, struct cli *cli)
{
    memset(cli, 0, sizeof *cli);
    cli->opts.bound = 1;
    cli->opts.progress = PROG_FAIR;
    cli->nproperties = 1;
    cli->properties[0] = P_PROGRAM_SPEC;
    cli->workers = 1;
    cli->budget.max_memory_mb = CLI_DEFAULT_MAX_MEMORY_MB;
    cli->files = calloc((size_t)argc, sizeof *cli->files);
    cli->csv = calloc((size_t)argc, sizeof *cli->csv);
    if (!cli->files || !cli->csv)
        return usage_error("%s", "out of memory");
    bool options = true;   /* until "--" */
    for (int i = 1; i < argc; i++) {
        if (options && strcmp(argv[i], "--") == 0) {
            options = false;
            continue;
        }
        if (!options || argv[i][0] != '-' || argv[i][1] == '\0') {
            cli->files[cli->nfiles++] = argv[i];
            continue;
        }
        int rc = parse_option(argc, argv, &i, cli);
        if (rc)
            return rc;
    }
    if (cli->nfiles == 0 && cli->ncsv == 0)
        return usage_error("%s", "no input files");
    if (cli->opts.cat && cli->opts.model)
        return usage_error("%s", "--cat is the model: it cannot be combined with --model");
    if (cli->opts.no_symmetry && cli->opts.symmetry_key)
        return usage_error("%s", "--symmetry-key chooses how to break symmetry, which --no-symmetry switches off");
    if (cli->opts.outcomes && cli->opts.oracle)
        return usage_error("%s", "--outcomes lists the states the SAT engine finds; "
                           "it does not work with --engine oracle");
    return check_axioms(cli);
}

int cli_check_jobs(const struct cli *cli, const struct job_list *jobs)
{
    bool termination = false, program_spec = false, cat_spec = false, divergence = false;
    for (int i = 0; i < jobs->n; i++) {
        divergence |= jobs->jobs[i].opts->property == P_BARRIER_DIVERGENCE;
        termination |= jobs->jobs[i].opts->property == P_TERMINATION;
        program_spec |= jobs->jobs[i].opts->property == P_PROGRAM_SPEC;
        cat_spec |= jobs->jobs[i].opts->property == P_CAT_SPEC;
    }
    if (cli->opts.oracle && (termination || divergence))
        return usage_error("%s", "--engine oracle decides program_spec and cat_spec, not termination or "
                           "barrier_divergence");
    if (divergence && cli->spec.kind != JOB_PLAIN)
        return usage_error("%s", "--property barrier_divergence checks each program alone: no --source, "
                           "--transform, --necessary-sync, --minimize-sync, --compare-model, --emit-cuda or "
                           "--observed");
    if (cli->opts.term_engine == TERM_STATES && jobs->n > 0 && !termination)
        return usage_error("%s", "--engine states decides termination, and no check here is one "
                           "(--property termination)");
    if ((cli->opts.progress != PROG_FAIR || cli->opts.progress_set || progress_scoped(&cli->opts.hierarchy))
        && !termination && jobs->n > 0)
        return usage_error("%s", "--progress applies to termination checks, and no check here is one "
                           "(--property termination)");
    if (cli->graph_path && cli->opts.progress_set && termination)
        return usage_error("%s", "--graph FILE draws one check and --progress asks for several; use --graph-dir DIR");
    if (cli->opts.outcomes && !program_spec && jobs->n > 0)
        return usage_error("%s", "--outcomes lists the final states of program_spec checks, and no "
                           "check here is one");
    if (cli->opts.explain && (cli->opts.oracle || (!program_spec && jobs->n > 0)))
        return usage_error("%s", "--explain explains program_spec outcomes with the SAT engine (a "
                           "cat_spec FAIL names its race, a termination FAIL its stuck threads)");
    bool symmetric = cat_spec || (program_spec && !cli->opts.outcomes);
    if (cli->opts.symmetry_key && (cli->opts.oracle || cli->spec.kind != JOB_PLAIN || (!symmetric && jobs->n > 0)))
        return usage_error("%s", "--symmetry-key applies to program_spec (without --outcomes) and cat_spec "
                           "checks of the SAT engine, and no check here is one");
    bool comparison = cli->spec.kind == JOB_SOURCE || cli->spec.kind == JOB_TRANSFORM
                      || cli->spec.kind == JOB_NECESSARY_SYNC || cli->spec.kind == JOB_MINIMIZE_SYNC
                      || cli->spec.kind == JOB_COMPARE_MODEL || cli->spec.kind == JOB_MAP;
    if (cli->opts.observe && (!comparison || (!program_spec && jobs->n > 0)))
        return usage_error("%s", "--observe chooses what the outcomes of --source, --map, --transform, --necessary-sync, "
                           "--minimize-sync and --compare-model compare (program_spec)");
    if (cli->spec.kind == JOB_COMPARE_MODEL && !cli->opts.cat && !cli->spec.compare_cat && cli->opts.model
        && strcmp(cli->opts.model, cli->spec.compare_model) == 0)
        return usage_error("--compare-model %s compares a model with itself (it is --model's): name another model",
                           cli->spec.compare_model);
    struct stat c0, c1;
    if (cli->spec.kind == JOB_COMPARE_MODEL && cli->cat_models[0] && cli->cat_models[1]
        && stat(cli->cat_paths[0], &c0) == 0 && stat(cli->cat_paths[1], &c1) == 0 && c0.st_dev == c1.st_dev
        && c0.st_ino == c1.st_ino)
        return usage_error("--compare-model %s compares a model with itself (it is --cat's file): name another "
                           "model", cli->cat_paths[1]);
    if (cli->spec.emit_dir && cli->spec.kind != JOB_TRANSFORM)
        return usage_error("%s", "--emit-transformed writes the programs of --transform, which is not given");
    if ((cli->spec.kind == JOB_EMIT_CUDA || cli->spec.kind == JOB_OBSERVED) && (termination || cat_spec))
        return usage_error("%s", "--emit-cuda and --observed are about a test's final states (program_spec): "
                           "no --property cat_spec or termination");
    if (cli->spec.kind == JOB_EMIT_CUDA && (cli->opts.oracle || cli->opts.outcomes || cli->opts.explain))
        return usage_error("%s", "--emit-cuda writes programs and checks nothing: no --engine oracle, "
                           "--outcomes or --explain");
    if (cli->spec.kind == JOB_OBSERVED && (cli->opts.oracle || cli->opts.outcomes || cli->opts.explain))
        return usage_error("%s", "--observed enumerates the allowed outcomes and explains each forbidden one "
                           "with the SAT engine: no --engine oracle, --outcomes or --explain");
    if (cli->spec.kind != JOB_PLAIN && (cli->opts.oracle || cli->opts.outcomes))
        return usage_error("%s", "--source, --map, --transform, --necessary-sync, --minimize-sync and --compare-model "
                           "compare outcome sets with the SAT engine: no --engine oracle or --outcomes");
    if (cli->graph_path && cli->graph_dir)
        return usage_error("%s", "--graph FILE draws one check, --graph-dir DIR one per check: give one");
    if (cli->graph_path && jobs->n > 1)
        return usage_error("%s", "--graph FILE draws one check and there are several; use --graph-dir DIR");
    if (cli->graph_format && !cli->graph_dir)
        return usage_error("%s", "--graph-format applies to --graph-dir (--graph takes its format "
                           "from the file's extension)");
    if (cli->graph_dpi > 0 && !cli->graph_path && !cli->graph_dir)
        return usage_error("%s", "--graph-dpi applies to --graph or --graph-dir");
    if (cli->ngraph_rels > 0 && !cli->graph_path && !cli->graph_dir)
        return usage_error("%s", "--graph-relations applies to --graph or --graph-dir");
    return 0;
}

void cli_free(struct cli *cli)
{
    free(cli->files);
    free(cli->csv);
    for (int i = 0; i < cli->ngraph_rels; i++)
        free(cli->graph_rels[i]);
    cat_model_free(cli->cat_models[0]);
    cat_model_free(cli->cat_models[1]);
}
