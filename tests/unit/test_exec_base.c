/* exec_base_init (bmc/concrete/exec_base.c) gives the sets and relations
 * base_init gives (encoders/base.c) for the same executed events: every
 * tag set the same members, every base relation the same pairs, over the
 * project's litmus tests (PTX with proxies and aliases, Vulkan with
 * scopes, storage classes, RMWs and ssw, OpenCL) at two loop bounds,
 * and made-up ones (OpenCL over two devices; Vulkan and PTX over 64 and
 * over 128 events), with every event executed, none, and subsets of
 * them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>

#include "bmc/concrete/exec_base.h"
#include "encoders/cnf.h"
#include "litmus/ast.h"

/* The folders of tests whose programs are compared (from the project root). */
static const char *const folders[] = {
    "tests/litmus/ptx", "tests/litmus/ptx75", "tests/litmus/vulkan", "tests/litmus/vulkan-dr",
    "tests/litmus/vulkan-nochains", "tests/litmus/opencl", "tests/litmus/opencl-dr", "tests/litmus/fragment",
    "tests/litmus/regress", "tests/litmus/termination", "tests/litmus/divergence",
};

/* Two devices (no test of the folders has more than one). */
static const char *two_devices =
    "OPENCL two-devices\n"
    "{ [x] = 0; [y] = 0; }\n"
    "P0@wg 0, dev 0 (global atomic_int* x, global atomic_int* y) {\n"
    "  atomic_store(x, 1);\n"
    "  atomic_store(y, 1);\n"
    "}\n"
    "P1@wg 0, dev 1 (global atomic_int* x, global atomic_int* y) {\n"
    "  int r0 = atomic_load(y);\n"
    "  int r1 = atomic_load(x);\n"
    "}\n"
    "P2@wg 1, dev 1 (global atomic_int* x, global atomic_int* y) {\n"
    "  int r0 = atomic_load(x);\n"
    "}\n"
    "exists (1:r0 == 1 /\\ 1:r1 == 0)\n";

/* A test of rows copies of row (after header), over 64 and over 128
 * events (rows of several words); into buf. */
static const char *many_rows(char *buf, size_t len, const char *header, const char *row, const char *cond, int rows)
{
    size_t at = (size_t)snprintf(buf, len, "%s", header);
    for (int k = 0; k < rows && at < len; k++)
        at += (size_t)snprintf(buf + at, len - at, "%s", row);
    if (at < len)
        snprintf(buf + at, len - at, "%s", cond);
    return buf;
}

/* Sets s and t have the same members. */
static bool same_set(const struct set *s, const struct set *t)
{
    return s->size == t->size && memcmp(s->members, t->members, (size_t)s->size * sizeof *s->members) == 0;
}

/* Relations r and s have the same pairs, each true (rows compared). */
static bool same_pairs(const struct rel *r, const struct rel *s, int n)
{
    for (int i = 0; i < n; i++) {
        const int *rc, *sc;
        const lit *rl, *sl;
        int nr = rel_row(r, i, &rc, &rl), ns = rel_row(s, i, &sc, &sl);
        if (nr != ns || memcmp(rc, sc, (size_t)nr * sizeof *rc) != 0)
            return false;
        for (int k = 0; k < nr; k++)
            if (rl[k] != LIT_TRUE || sl[k] != LIT_TRUE)
                return false;
    }
    return true;
}

/* Compares both bases of p with event e executed when exec[e]; counts
 * the comparisons in *compared. */
static void compare(const char *path, const struct program *p, const bool *exec, int *compared)
{
    int n = p->nevents;
    lit *lits = calloc((size_t)n + 1, sizeof *lits);
    for (int e = 0; e < n; e++)
        lits[e] = exec[e] ? LIT_TRUE : LIT_FALSE;
    struct cnf *c1 = cnf_new(false), *c2 = cnf_new(false);
    struct base want, got;
    base_init(&want, c1, p, lits);
    exec_base_init(&got, c2, p, exec);
    for (int s = 0; s < S_COUNT; s++)
        if (!same_set(want.sets[s], got.sets[s]))
            fail_msg("%s: set %s differs", path, base_set_names[s]);
    for (int r = 0; r < R_COUNT; r++)
        if (!same_pairs(want.rels[r], got.rels[r], n))
            fail_msg("%s: relation %s differs", path, base_rel_names[r]);
    base_free(&want);
    base_free(&got);
    cnf_free(c1);
    cnf_free(c2);
    free(lits);
    (*compared)++;
}

/* Compares p's bases for every event executed, none, and a few subsets. */
static void compare_subsets(const char *path, const struct program *p, int *compared)
{
    int n = p->nevents;
    bool *exec = calloc((size_t)n + 1, sizeof *exec);
    uint64_t x = 0x9E3779B97F4A7C15ull ^ (uint64_t)n;
    for (int round = 0; round < 8; round++) {
        for (int e = 0; e < n; e++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            exec[e] = round == 0 ? true : round == 1 ? false : (x >> 33) % 4 != 0;
        }
        compare(path, p, exec, compared);
    }
    free(exec);
}

/* Compares the bases of l's programs at bounds 1 and 2; frees l. */
static void compare_litmus(const char *path, struct litmus *l, int *compared)
{
    for (int bound = 1; bound <= 2; bound++) {
        char msg[256];
        struct program *p = program_build(l, bound, msg, sizeof msg);
        if (!p)
            continue;
        compare_subsets(path, p, compared);
        program_free(p);
    }
    litmus_free(l);
}

static void test_same_as_base_init(void **state)
{
    (void)state;
    int compared = 0;
    for (size_t f = 0; f < sizeof folders / sizeof folders[0]; f++) {
        DIR *dir = opendir(folders[f]);
        assert_non_null(dir);
        for (struct dirent *de; (de = readdir(dir));) {
            size_t len = strlen(de->d_name);
            if (len < 7 || strcmp(de->d_name + len - 7, ".litmus") != 0)
                continue;
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", folders[f], de->d_name);
            struct litmus_error err;
            struct litmus *l = litmus_parse_file(path, &err);
            if (l)   /* else one of the error tests' files */
                compare_litmus(path, l, &compared);
        }
        closedir(dir);
    }
    static char big[16384];   /* two texts of 8192 bytes */
    const char *texts[][2] = {
        { "two-devices.litmus", two_devices },
        { "many-vulkan.litmus",
          many_rows(big, sizeof big, "Vulkan many\n{ x=0; y=0; }\n P0@sg 0, wg 0, qf 0 | P1@sg 0, wg 1, qf 0 | P2@sg 1, wg 1, qf 1 ;\n",
                    " st.atom.dv.sc0 x, 1 | ld.atom.acq.wg.sc1.semsc0 r0, y | st.atom.wg.sc1 y, 2 ;\n", "exists (P1:r0 == 2)\n", 50) },
        { "many-ptx.litmus",
          many_rows(big + 8192, sizeof big - 8192, "PTX many\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n",
                    " ld.relaxed.cta r0, x | st.relaxed.gpu x, 2 ;\n", "exists (P0:r0 == 2)\n", 40) },
    };
    for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++) {
        struct litmus_error err;
        struct litmus *l = litmus_parse(texts[k][0], texts[k][1], &err);
        if (!l)
            fail_msg("%s: %s", texts[k][0], err.msg);
        compare_litmus(texts[k][0], l, &compared);
    }
    assert_true(compared > 1000);   /* the folders were found and read */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_as_base_init),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
