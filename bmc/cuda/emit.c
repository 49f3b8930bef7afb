/* Writing the CUDA program of a test, its Makefile and parameters. */
#include "bmc/cuda/emit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bmc/cuda/emit_test.h"
#include "bmc/cuda/emit_threads.h"
#include "bmc/cuda/harness.h"
#include "bmc/cuda/params.h"
#include "bmc/cuda/support.h"
#include "bmc/check/load.h"
#include "util/newfile.h"

#define NVCC_FLAGS "-O3 -arch=sm_90"

static const char makefile[] =
    "# Written by gpubmc --emit-cuda: builds every CUDA litmus program here with nvcc;\n"
    "# `make run` runs each with params.txt, the outcomes going to results.log (herd's\n"
    "# log format, for gpubmc --observed and herdtools' mcompare7) and results.json.\n"
    "NVCC ?= nvcc\n"
    "ARCH ?= sm_90\n"
    "NVCCFLAGS ?= -O3 -arch=$(ARCH)\n"
    "PROGRAMS := $(patsubst %.cu,%,$(wildcard *.cu))\n\n"
    "all: $(PROGRAMS)\n\n"
    "%: %.cu\n"
    "\t$(NVCC) $(NVCCFLAGS) -o $@ $<\n\n"
    "run: $(PROGRAMS)\n"
    "\trm -f results.log results.json\n"
    "\tfor p in $(PROGRAMS); do ./$$p -p params.txt -j results.json >> results.log || echo \"$$p failed\" >&2; done\n\n"
    "clean:\n"
    "\trm -f $(PROGRAMS) results.log results.json\n\n"
    ".PHONY: all run clean\n";

/* NAME of DIR/NAME.cu: path without leading ./ ../ / and .litmus, '/' as '_'. */
static void program_name(const char *path, char *buf, size_t len)
{
    for (;;) {
        if (strncmp(path, "./", 2) == 0)
            path += 2;
        else if (strncmp(path, "../", 3) == 0)
            path += 3;
        else if (*path == '/')
            path++;
        else
            break;
    }
    size_t n = 0;
    for (; *path && n + 1 < len; path++)
        buf[n++] = *path == '/' ? '_' : *path;
    buf[n] = '\0';
    if (n > 7 && strcmp(buf + n - 7, ".litmus") == 0)
        buf[n - 7] = '\0';
}

/* What write_program needs. */
struct program_text {
    const char *path, *name;
    const struct litmus *l;
    const struct cuda_layout *c;
    const struct outcome_set *o;
};

/* The whole program of the test. */
static void write_program(FILE *f, const void *arg)
{
    const struct program_text *t = arg;
    fprintf(f, "// %s: the litmus test %s, written by gpubmc --emit-cuda.\n"
            "// Build: nvcc " NVCC_FLAGS " -o %s %s.cu\n"
            "// Run:   ./%s [-p params.txt] [-j results.json]\n"
            "// Every memory access, fence and barrier of the test is the inline PTX of its\n"
            "// instruction, after a comment with the litmus text.\n\n#include <cstdint>\n\n", t->name, t->path,
            t->name, t->name, t->name);
    cuda_params_write_table(f);
    fputc('\n', f);
    cuda_emit_description(f, t->path, t->l, t->c, t->o);
    fputs(cuda_harness_text, f);
    fputc('\n', f);
    cuda_emit_threads(f, t->l, t->c);
    cuda_emit_conditions(f, t->l, t->c);
}

static void write_makefile(FILE *f, const void *arg)
{
    (void)arg;
    fputs(makefile, f);
}

static void write_params(FILE *f, const void *arg)
{
    (void)arg;
    cuda_params_write_file(f);
}

/* Writes path whole, never over a file that differs (util/newfile.h: jobs
 * that write the same Makefile at once, or a run again, leave one copy;
 * a user's Makefile, an input or a symbolic link is left alone); false
 * with r's reason naming the test. */
static bool write_file(const char *path, const char *test, struct check_result *r,
                       void (*fill)(FILE *, const void *), const void *arg)
{
    char *text = NULL, err[900];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    bool ok = f != NULL;
    if (ok) {
        fill(f, arg);
        ok = !ferror(f);
        ok = fclose(f) == 0 && ok;
    }
    if (!ok)
        snprintf(err, sizeof err, "cannot write %.700s: %s", path, strerror(errno));
    else
        ok = newfile_write(path, text, len, err, sizeof err);
    if (!ok)
        snprintf(r->reason, sizeof r->reason, "%s: error: %s", test, err);
    free(text);
    return ok;
}

/* Writes the three files; false with r's reason. */
static bool write_all(const char *dir, const struct program_text *t, struct check_result *r)
{
    char file[4096];
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(r->reason, sizeof r->reason, "%s: error: cannot make %s: %s", t->path, dir, strerror(errno));
        return false;
    }
    snprintf(file, sizeof file, "%s/Makefile", dir);
    if (!write_file(file, t->path, r, write_makefile, NULL))
        return false;
    snprintf(file, sizeof file, "%s/params.txt", dir);
    if (!write_file(file, t->path, r, write_params, NULL))
        return false;
    snprintf(file, sizeof file, "%s/%s.cu", dir, t->name);
    return write_file(file, t->path, r, write_program, t);
}

void check_emit_cuda(const char *path, const char *dir, const struct check_opts *o, struct check_result *r)
{
    struct loaded ld;
    if (check_begin(path, o, &ld, r)) {
        struct cuda_layout c;
        char why[600], name[1024];
        cuda_layout_build(ld.lit, &c);
        if (!cuda_supported(ld.lit, &c, why, sizeof why)) {
            snprintf(r->reason, sizeof r->reason, "%s: error: not emitted: %s", path, why);
        } else {
            struct outcome_set obs;
            outcomes_init(&obs, ld.lit);
            program_name(path, name, sizeof name);
            struct program_text t = { path, name, ld.lit, &c, &obs };
            if (write_all(dir, &t, r)) {
                r->verdict = V_PASS;
                snprintf(r->reason, sizeof r->reason, "wrote %.500s/%.300s.cu: %d thread%s in %d CTA%s, %d observed value%s",
                         dir, name, ld.lit->nthreads, ld.lit->nthreads == 1 ? "" : "s", c.nroles,
                         c.nroles == 1 ? "" : "s", obs.nobs, obs.nobs == 1 ? "" : "s");
                r->details = cJSON_CreateObject();
                char file[4096];
                snprintf(file, sizeof file, "%s/%s.cu", dir, name);
                cJSON_AddStringToObject(r->details, "kind", "emit-cuda");
                cJSON_AddStringToObject(r->details, "cuda", file);
                cJSON *names = cJSON_AddArrayToObject(r->details, "observed");
                for (int k = 0; k < obs.nobs; k++)
                    cJSON_AddItemToArray(names, cJSON_CreateString(obs.names[k]));
            }
            outcomes_free(&obs);
        }
        cuda_layout_free(&c);
    }
    check_end(&ld, r);
}
