/* libFuzzer target: parses a litmus text from memory, or, when that fails,
 * SPIR-V assembly (litmus/spirv.h), and, when it parses, checks it the way
 * the command line does (bmc/check/check.h) under several models,
 * properties and bounds.  Built and run by `make fuzz`. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bmc/check/check.h"
#include "litmus/ast.h"
#include "litmus/spirv.h"

/* check_file reads a path, so a parsed input goes to one of these files in
 * a scratch directory first (check_file reads a .spvasm file as SPIR-V). */
static char tmp_dir[64];
static char tmp_path[2][96];
static int tmp_fd[2] = { -1, -1 };

static void remove_tmp(void)
{
    for (int i = 0; i < 2; i++)
        if (tmp_fd[i] >= 0)
            unlink(tmp_path[i]);
    rmdir(tmp_dir);
}

/* Creates the scratch files once per process. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *dir = getenv("TMPDIR");
    snprintf(tmp_dir, sizeof tmp_dir, "%s/gpubmc-fuzz-XXXXXX", dir && strlen(dir) < 32 ? dir : "/tmp");
    if (!mkdtemp(tmp_dir)) {
        perror("fuzz_check: mkdtemp");
        exit(1);
    }
    atexit(remove_tmp);
    for (int i = 0; i < 2; i++) {
        snprintf(tmp_path[i], sizeof tmp_path[i], "%s/input.%s", tmp_dir, i ? "spvasm" : "litmus");
        tmp_fd[i] = open(tmp_path[i], O_RDWR | O_CREAT | O_EXCL, 0600);
        if (tmp_fd[i] < 0) {
            perror("fuzz_check: open");
            exit(1);
        }
    }
    return 0;
}

/* Replaces scratch file i's contents. */
static int write_tmp(int i, const uint8_t *data, size_t size)
{
    if (ftruncate(tmp_fd[i], 0) != 0)
        return -1;
    size_t done = 0;
    while (done < size) {
        ssize_t n = pwrite(tmp_fd[i], data + done, size - done, (off_t)done);
        if (n <= 0)
            return -1;
        done += (size_t)n;
    }
    return 0;
}

/* One check of scratch file i; a witness or an outcome set is built and freed. */
static void check(int i, const char *model, enum property prop, enum progress_model progress,
                  int bound, bool witness, bool outcomes)
{
    struct check_opts o;
    struct check_result r;
    memset(&o, 0, sizeof o);
    o.model = model;
    o.property = prop;
    o.progress = progress;
    o.bound = bound;
    o.want_witness = witness;
    o.outcomes = outcomes;
    check_file(tmp_path[i], &o, &r);
    cJSON_Delete(r.witness);
    cJSON_Delete(r.outcomes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    struct litmus_error err;
    struct litmus *l = litmus_parse("fuzz.litmus", text, &err);
    int f = 0;
    if (!l) {
        l = spirv_parse("fuzz.spvasm", text, NULL, &err);
        f = 1;
    }
    free(text);
    if (!l)
        return 0;
    bool ptx = l->dialect == DIALECT_PTX;
    litmus_free(l);
    /* check_file rejects a NUL byte, which the parsers took as the end */
    if (memchr(data, '\0', size) || write_tmp(f, data, size) != 0)
        return 0;
    int bound = 1 + (int)(size % 2);
    check(f, NULL, P_PROGRAM_SPEC, PROG_FAIR, bound, true, false);
    check(f, ptx ? "ptx-v6.0" : "vulkan-nochains", P_PROGRAM_SPEC, PROG_FAIR, 1, false, true);
    check(f, ptx ? "ptx-v7.5" : "vulkan", P_CAT_SPEC, PROG_FAIR, bound, true, false);
    check(f, NULL, P_TERMINATION, size % 3 == 0 ? PROG_HSA : PROG_FAIR, 2, true, false);
    return 0;
}
