/* litmus_roundtrip FILE...: parses each file, prints it (litmus/printer.h),
 * parses the printed text and compares the two ASTs (litmus/equal.h); the
 * printed text printed again must be the same text.  One line per file
 * that fails, then "N round trips, N failed"; exit 1 if any failed.  Files
 * that do not parse are skipped (counted in the summary), and so are
 * kernels with a SPIR-V compare-exchange, which the Vulkan litmus dialect
 * cannot write (no rmw of it compares, nor writes only when equal), an
 * arbitrary value or an OpUnreachable (no dialect writes them).
 * litmus_roundtrip --same A B: exit 0 when A and B parse to equal ASTs,
 * else 1 after printing the first difference. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/equal.h"
#include "litmus/printer.h"

/* Round-trips one parsed test; false after printing why. */
static bool round_trip(const char *path, const struct litmus *l)
{
    char why[400] = "";
    struct litmus_error err;
    char *text = litmus_print(l);
    struct litmus *back = text ? litmus_parse(path, text, &err) : NULL;
    char *again = back ? litmus_print(back) : NULL;
    bool ok = false;
    if (!text)
        snprintf(why, sizeof why, "printer ran out of memory");
    else if (!back)
        snprintf(why, sizeof why, "printed text does not parse: %d:%d: %s", err.pos.line, err.pos.col, err.msg);
    else if (!litmus_equal(l, back, why, sizeof why))
        ;
    else if (!again || strcmp(text, again) != 0)
        snprintf(why, sizeof why, "printing the printed test gives another text");
    else
        ok = true;
    if (!ok)
        printf("%s: %s\n", path, why);
    free(again);
    litmus_free(back);
    free(text);
    return ok;
}

/* --same A B. */
static int same(const char *a, const char *b)
{
    struct litmus_error err;
    struct litmus *la = litmus_parse_file(a, &err), *lb = litmus_parse_file(b, &err);
    char why[400] = "one of them does not parse";
    bool ok = la && lb && litmus_equal(la, lb, why, sizeof why);
    if (!ok)
        printf("%s and %s differ: %s\n", a, b, why);
    litmus_free(la);
    litmus_free(lb);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    int done = 0, failed = 0, skipped = 0;
    if (argc == 4 && strcmp(argv[1], "--same") == 0)
        return same(argv[2], argv[3]);
    for (int i = 1; i < argc; i++) {
        struct litmus_error err;
        struct litmus *l = litmus_parse_file(argv[i], &err);
        if (!l) {
            skipped++;
            continue;
        }
        bool skip = l->nanys > 0;   /* no dialect writes an arbitrary value */
        for (int t = 0; t < l->nthreads; t++)
            for (int k = 0; k < l->threads[t].ninstrs; k++)
                skip |= ((l->threads[t].instrs[k].cas_if_equal || l->threads[t].instrs[k].op >= OP_SMIN)
                         && l->dialect != DIALECT_OPENCL)   /* only OpenCL prints these back */
                        || l->threads[t].instrs[k].kind == I_UB;   /* nor does any dialect write OpUnreachable */
        if (skip) {
            skipped++;
            litmus_free(l);
            continue;
        }
        done++;
        failed += !round_trip(argv[i], l);
        litmus_free(l);
    }
    printf("%d round trips, %d failed, %d files skipped (they do not parse, or have an arbitrary value, or "
           "a SPIR-V compare-exchange, minimum, maximum or OpUnreachable)\n", done, failed, skipped);
    return failed ? 1 : 0;
}
