/* Unit tests of reading corpus CSVs (bmc/driver/expect.c): a file listed
 * again shares its first row's texts, and the table that finds first rows
 * holds a slot per file, not per row. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bmc/check/check.h"
#include "bmc/driver/expect.h"

/* 600 rows naming three files in turn. */
static void write_rows(const char *path)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs("# property=program_spec\n", f);
    for (int i = 0; i < 600; i++)
        fprintf(f, "litmus/%c.litmus,PASS\n", "abc"[i % 3]);
    fclose(f);
}

static void test_first_rows_table_has_a_slot_per_file(void **state)
{
    (void)state;
    char path[] = "/tmp/test_expect_rows_XXXXXX";
    close(mkstemp(path));
    write_rows(path);
    struct check_opts defaults = { 0 };
    struct rows rows = { 0 };
    char msg[512];
    bool ok = expect_read(path, &defaults, &rows, msg, sizeof msg);
    if (!ok)
        fail_msg("%s", msg);
    assert_int_equal(rows.n, 600);
    assert_int_equal(rows.nfirst, 3);
    assert_int_equal(rows.first_cap, 256);   /* its first size: 600 rows, three files */
    for (int k = 3; k < rows.n; k++) {
        assert_true(rows.r[k].listed_again);
        assert_ptr_equal(rows.r[k].file, rows.r[k % 3].file);
    }
    assert_false(rows.r[2].listed_again);
    expect_free(&rows);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_rows_table_has_a_slot_per_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
