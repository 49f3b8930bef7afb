/* libFuzzer target: parses a litmus text from memory and, when it parses,
 * checks it the way the command line does (bmc/check/check.h) under several
 * models, properties and bounds.  Built and run by `make fuzz`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bmc/check/check.h"
#include "litmus/ast.h"

/* check_file reads a path, so a parsed input goes to this file first. */
static char tmp_path[64];
static int tmp_fd = -1;

static void remove_tmp(void)
{
    if (tmp_fd >= 0)
        unlink(tmp_path);
}

/* Creates the scratch file once per process. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *dir = getenv("TMPDIR");
    snprintf(tmp_path, sizeof tmp_path, "%s/gpubmc-fuzz-XXXXXX", dir && strlen(dir) < 32 ? dir : "/tmp");
    tmp_fd = mkstemp(tmp_path);
    if (tmp_fd < 0) {
        perror("fuzz_check: mkstemp");
        exit(1);
    }
    atexit(remove_tmp);
    return 0;
}

/* Replaces the scratch file's contents. */
static int write_tmp(const uint8_t *data, size_t size)
{
    if (ftruncate(tmp_fd, 0) != 0)
        return -1;
    size_t done = 0;
    while (done < size) {
        ssize_t n = pwrite(tmp_fd, data + done, size - done, (off_t)done);
        if (n <= 0)
            return -1;
        done += (size_t)n;
    }
    return 0;
}

/* One check; a witness or an outcome set is built and freed. */
static void check(const char *model, enum property prop, enum progress_model progress,
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
    check_file(tmp_path, &o, &r);
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
    free(text);
    if (!l)
        return 0;
    bool ptx = l->dialect == DIALECT_PTX;
    litmus_free(l);
    /* check_file rejects a NUL byte, which litmus_parse took as the end */
    if (memchr(data, '\0', size) || write_tmp(data, size) != 0)
        return 0;
    int bound = 1 + (int)(size % 2);
    check(NULL, P_PROGRAM_SPEC, PROG_FAIR, bound, true, false);
    check(ptx ? "ptx-v6.0" : "vulkan-nochains", P_PROGRAM_SPEC, PROG_FAIR, 1, false, true);
    check(ptx ? "ptx-v7.5" : "vulkan", P_CAT_SPEC, PROG_FAIR, bound, true, false);
    check(NULL, P_TERMINATION, size % 3 == 0 ? PROG_HSA : PROG_FAIR, 2, true, false);
    return 0;
}
