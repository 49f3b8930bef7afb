/* The parse cache: a kept test is reused only while its file is unchanged
 * on disk, only by the check planned for it, and parse errors are those
 * of litmus_parse_file_grid. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bmc/check/parse_cache.h"

/* A PTX test named name: the name alone tells two versions apart. */
static void write_test(const char *path, const char *name)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "PTX %s\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 1)\n", name);
    assert_int_equal(fclose(f), 0);
}

/* A fresh file name under the temporary directory. */
static void temp_path(char *path, size_t len, const char *tag)
{
    snprintf(path, len, "%s/gpubmc-parse-cache-%ld-%s.litmus", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (long)getpid(), tag);
}

/* Loads path for the planned check, asserting that it parses. */
static const struct litmus *load_ok(const char *path, struct litmus **own)
{
    struct litmus_error err;
    const struct litmus *l = parse_cache_load(path, NULL, false, &err, own);
    if (!l)
        fail_msg("unexpected error %d:%d: %s", err.pos.line, err.pos.col, err.msg);
    return l;
}

static void test_unchanged_file_is_parsed_once(void **state)
{
    (void)state;
    char path[256];
    temp_path(path, sizeof path, "same");
    write_test(path, "First");
    struct litmus *own;
    parse_cache_plan(0, path, 3);
    const struct litmus *first = load_ok(path, &own);
    assert_null(own);   /* kept for check 3 */
    parse_cache_plan(3, path, -1);
    const struct litmus *again = load_ok(path, &own);
    assert_ptr_equal(again, first);
    assert_null(own);
    assert_string_equal(again->name, "First");
    parse_cache_clear();
    unlink(path);
}

static void test_rewritten_file_is_read_again(void **state)
{
    (void)state;
    char path[256];
    temp_path(path, sizeof path, "rewritten");
    write_test(path, "Before");
    struct litmus *own;
    parse_cache_plan(0, path, 1);
    assert_string_equal(load_ok(path, &own)->name, "Before");
    write_test(path, "AfterTheRewrite");   /* another size */
    parse_cache_plan(1, path, 2);
    const struct litmus *now = load_ok(path, &own);
    assert_string_equal(now->name, "AfterTheRewrite");
    assert_null(own);   /* the new text kept for check 2 */
    parse_cache_plan(2, path, -1);
    assert_ptr_equal(load_ok(path, &own), now);
    parse_cache_clear();
    unlink(path);
}

static void test_replaced_file_is_read_again(void **state)
{
    (void)state;
    char path[256], other[256];
    temp_path(path, sizeof path, "replaced");
    temp_path(other, sizeof other, "replacement");
    write_test(path, "Old");
    write_test(other, "New");   /* the same size: only the inode differs */
    struct litmus *own;
    parse_cache_plan(0, path, 1);
    load_ok(path, &own);
    assert_int_equal(rename(other, path), 0);
    parse_cache_plan(1, path, -1);
    assert_string_equal(load_ok(path, &own)->name, "New");
    assert_non_null(own);   /* no later check: the caller's */
    litmus_free(own);
    parse_cache_clear();
    unlink(path);
}

static void test_only_the_planned_check_reuses(void **state)
{
    (void)state;
    char path[256];
    temp_path(path, sizeof path, "skipped");
    write_test(path, "Skipped");
    struct litmus *own;
    parse_cache_plan(0, path, 2);
    load_ok(path, &own);
    assert_null(own);
    parse_cache_plan(3, path, -1);   /* check 2 went to another worker */
    const struct litmus *fresh = load_ok(path, &own);
    assert_non_null(own);
    assert_ptr_equal(fresh, own);
    litmus_free(own);
    parse_cache_clear();
    parse_cache_plan(0, "another.litmus", 1);   /* not the planned file: the caller's */
    fresh = load_ok(path, &own);
    assert_ptr_equal(fresh, own);
    litmus_free(own);
    parse_cache_clear();
    unlink(path);
}

static void test_errors_are_the_parsers(void **state)
{
    (void)state;
    char path[256];
    temp_path(path, sizeof path, "broken");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("PTX Broken\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n st.weak x 1 ;\n", f);
    assert_int_equal(fclose(f), 0);
    struct litmus_error want, got;
    assert_null(litmus_parse_file_grid(path, NULL, &want));
    struct litmus *own;
    for (int job = 0; job < 2; job++) {   /* a failure is not kept: the same error twice */
        parse_cache_plan(job, path, job == 0 ? 1 : -1);
        assert_null(parse_cache_load(path, NULL, false, &got, &own));
        assert_null(own);
        assert_int_equal(got.pos.line, want.pos.line);
        assert_int_equal(got.pos.col, want.pos.col);
        assert_string_equal(got.msg, want.msg);
    }
    parse_cache_clear();
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unchanged_file_is_parsed_once),
        cmocka_unit_test(test_rewritten_file_is_read_again),
        cmocka_unit_test(test_replaced_file_is_read_again),
        cmocka_unit_test(test_only_the_planned_check_reuses),
        cmocka_unit_test(test_errors_are_the_parsers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
