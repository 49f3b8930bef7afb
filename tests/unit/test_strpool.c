/* The string pool: each copy holds exactly the bytes asked for and a NUL,
 * stays put while later copies fill new blocks, is owned by its pool only
 * (never past the bytes handed out), and freeing empties the pool for
 * reuse; arrays taken from it are aligned and apart from everything else. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "litmus/strpool.h"

static void test_copies_hold_exactly_len_bytes(void **state)
{
    (void)state;
    struct strpool pool = { 0 };
    char *abc = strpool_copy(&pool, "abcdef", 3);
    char *empty = strpool_copy(&pool, "xyz", 0);
    char *whole = strpool_copy(&pool, "abcdef", 6);
    assert_string_equal(abc, "abc");
    assert_string_equal(empty, "");
    assert_string_equal(whole, "abcdef");
    assert_ptr_not_equal(abc, whole);
    assert_true(strpool_owns(&pool, abc));
    assert_true(strpool_owns(&pool, empty));
    assert_true(strpool_owns(&pool, whole + 5));   /* inside a string */
    strpool_free(&pool);
}

static void test_copies_stay_put_across_blocks(void **state)
{
    (void)state;
    enum { N = 2000 };
    struct strpool pool = { 0 };
    char *copies[N];
    char want[32];
    for (int i = 0; i < N; i++) {
        int n = snprintf(want, sizeof want, "name%d", i * 7919);
        copies[i] = strpool_copy(&pool, want, (size_t)n);
        assert_non_null(copies[i]);
    }
    for (int i = 0; i < N; i++) {
        snprintf(want, sizeof want, "name%d", i * 7919);
        assert_string_equal(copies[i], want);
        assert_true(strpool_owns(&pool, copies[i]));
    }
    strpool_free(&pool);
}

static void test_long_string_gets_room(void **state)
{
    (void)state;
    struct strpool pool = { 0 };
    size_t len = 100000;
    char *text = malloc(len);
    assert_non_null(text);
    for (size_t i = 0; i < len; i++)
        text[i] = (char)('a' + i % 26);
    char *small = strpool_copy(&pool, "r0", 2);
    char *big = strpool_copy(&pool, text, len);
    assert_non_null(big);
    assert_int_equal(strlen(big), len);
    assert_memory_equal(big, text, len);
    assert_string_equal(small, "r0");
    assert_true(strpool_owns(&pool, big + len));   /* its NUL */
    free(text);
    strpool_free(&pool);
}

static void test_owns_only_its_own_strings(void **state)
{
    (void)state;
    struct strpool a = { 0 }, b = { 0 };
    char *in_a = strpool_copy(&a, "x", 1);
    char *in_b = strpool_copy(&b, "y", 1);
    char *alone = malloc(4);
    char local[4] = "z";
    assert_non_null(alone);
    assert_true(strpool_owns(&a, in_a));
    assert_false(strpool_owns(&a, in_b));
    assert_false(strpool_owns(&b, in_a));
    assert_false(strpool_owns(&a, alone));
    assert_false(strpool_owns(&a, local));
    assert_false(strpool_owns(&a, NULL));
    assert_false(strpool_owns(&a, in_a + 2));   /* past the bytes handed out */
    free(alone);
    strpool_free(&a);
    strpool_free(&b);
}

static void test_free_empties_the_pool(void **state)
{
    (void)state;
    struct strpool pool = { 0 };
    char *old = strpool_copy(&pool, "before", 6);
    assert_true(strpool_owns(&pool, old));
    strpool_free(&pool);
    assert_null(pool.blocks);
    assert_false(strpool_owns(&pool, old));
    char *again = strpool_copy(&pool, "after", 5);
    assert_string_equal(again, "after");
    strpool_free(&pool);
    strpool_free(&pool);   /* an empty pool frees to nothing */
    assert_null(pool.blocks);
}

/* Arrays and strings mixed: each array aligned for any type, apart from
 * every other array and string (its bytes keep what was written), owned
 * by the pool; a big one gets a block of its own size. */
static void test_arrays_aligned_and_apart(void **state)
{
    (void)state;
    enum { N = 300 };
    struct strpool pool = { 0 };
    unsigned char *arrays[N];
    char *names[N];
    for (int i = 0; i < N; i++) {
        names[i] = strpool_copy(&pool, "abc", (size_t)(i % 4));   /* odd offsets between arrays */
        size_t size = (size_t)(1 + i % 37) * 8;
        arrays[i] = strpool_alloc(&pool, size);
        assert_non_null(arrays[i]);
        assert_int_equal((uintptr_t)arrays[i] % _Alignof(max_align_t), 0);
        memset(arrays[i], i & 0xff, size);
        assert_true(strpool_owns(&pool, (const char *)arrays[i]));
        assert_true(strpool_owns(&pool, (const char *)arrays[i] + size - 1));
    }
    size_t big_size = 100000;
    unsigned char *big = strpool_alloc(&pool, big_size);
    assert_non_null(big);
    memset(big, 0x5a, big_size);
    for (int i = 0; i < N; i++) {
        size_t size = (size_t)(1 + i % 37) * 8;
        for (size_t k = 0; k < size; k++)
            assert_int_equal(arrays[i][k], i & 0xff);
        assert_int_equal(strlen(names[i]), i % 4);
        assert_memory_equal(names[i], "abc", (size_t)(i % 4));
    }
    assert_true(strpool_owns(&pool, (const char *)big + big_size - 1));
    strpool_free(&pool);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copies_hold_exactly_len_bytes),
        cmocka_unit_test(test_copies_stay_put_across_blocks),
        cmocka_unit_test(test_long_string_gets_room),
        cmocka_unit_test(test_owns_only_its_own_strings),
        cmocka_unit_test(test_free_empties_the_pool),
        cmocka_unit_test(test_arrays_aligned_and_apart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
