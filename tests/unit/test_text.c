/* text_int writes integers as printf's %d does, text_append appends what
 * fits, always ending the text, and text_copy copies as snprintf's "%s". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "bmc/concrete/text.h"

static void test_integers(void **state)
{
    (void)state;
    const int values[] = { 0, 7, 10, 12, -3, 4096, INT_MAX, INT_MIN };
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        char want[16], got[12];
        snprintf(want, sizeof want, "%d", values[i]);
        assert_string_equal(text_int(values[i], got), want);
    }
}

static void test_append_fits_or_cuts(void **state)
{
    (void)state;
    char buf[10];
    size_t used = 0;
    text_append(buf, sizeof buf, &used, (const char *const[]){ "P", "12", " spins" }, 3);
    assert_string_equal(buf, "P12 spins");
    assert_int_equal(used, 9);
    text_append(buf, sizeof buf, &used, (const char *const[]){ ", more" }, 1);
    assert_string_equal(buf, "P12 spins");   /* no room left: unchanged, still ended */
    used = 0;
    text_append(buf, 4, &used, (const char *const[]){ "abcdef" }, 1);
    assert_string_equal(buf, "abc");
    used = 0;
    text_append(buf, sizeof buf, &used, (const char *const[]){ "" }, 1);
    assert_string_equal(buf, "");
}

/* Parts of one or two bytes (copied without calls) are cut as any. */
static void test_short_parts_cut(void **state)
{
    (void)state;
    char buf[8];
    size_t used = 0;
    text_append(buf, 4, &used, (const char *const[]){ "P", "12", "3" }, 3);
    assert_string_equal(buf, "P12");
    assert_int_equal(used, 3);
    used = 0;
    text_append(buf, 3, &used, (const char *const[]){ "P", ", " }, 2);
    assert_string_equal(buf, "P,");   /* one byte of room for the two */
    assert_int_equal(used, 2);
    used = 0;
    text_append(buf, sizeof buf, &used, (const char *const[]){ "ab", "", "c", "de" }, 4);
    assert_string_equal(buf, "abcde");
    assert_int_equal(used, 5);
}

/* text_copy writes what snprintf(buf, len, "%s", s) writes, for every
 * length from none to more than enough. */
static void test_copy_as_snprintf(void **state)
{
    (void)state;
    const char *texts[] = { "", "a", "every thread terminates" };
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++)
        for (size_t len = 0; len <= 26; len++) {
            char want[32], got[32];
            memset(want, '#', sizeof want);
            memset(got, '#', sizeof got);
            snprintf(want, len, "%s", texts[t]);
            text_copy(got, len, texts[t]);
            assert_memory_equal(got, want, sizeof want);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integers),
        cmocka_unit_test(test_append_fits_or_cuts),
        cmocka_unit_test(test_short_parts_cut),
        cmocka_unit_test(test_copy_as_snprintf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
