/* xblock_take lays several arrays out in one allocation: measuring gives
 * NULL arrays and the size; placing gives arrays at the same offsets,
 * each aligned for any type, none overlapping, all inside the size. */
#include <setjmp.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/xalloc.h"

/* Three arrays of awkward sizes: 3 chars, 5 doubles, 0 ints, 7 shorts. */
struct three {
    char *c;
    double *d;
    int *none;
    short *s;
};

static size_t three_layout(struct three *t, char *block)
{
    struct xblock b = { block, 0 };
    t->c = xblock_take(&b, 3, sizeof *t->c);
    t->d = xblock_take(&b, 5, sizeof *t->d);
    t->none = xblock_take(&b, 0, sizeof *t->none);
    t->s = xblock_take(&b, 7, sizeof *t->s);
    return b.size;
}

static void test_measure_gives_null_and_size(void **state)
{
    (void)state;
    struct three t;
    size_t size = three_layout(&t, NULL);
    assert_null(t.c);
    assert_null(t.d);
    assert_null(t.s);
    /* 3 chars, padded to the alignment, 5 doubles, padded, 7 shorts */
    size_t a = alignof(max_align_t);
    size_t d_at = (3 + a - 1) / a * a, s_at = (d_at + 5 * sizeof(double) + a - 1) / a * a;
    assert_int_equal(size, s_at + 7 * sizeof(short));
}

static void test_place_aligned_disjoint_inside(void **state)
{
    (void)state;
    struct three t;
    size_t size = three_layout(&t, NULL);
    char *block = xcalloc(1, size);
    assert_int_equal(three_layout(&t, block), size);
    assert_ptr_equal(t.c, block);   /* the first array is the allocation */
    uintptr_t at[] = { (uintptr_t)t.c, (uintptr_t)t.d, (uintptr_t)t.none, (uintptr_t)t.s };
    size_t len[] = { 3, 5 * sizeof(double), 0, 7 * sizeof(short) };
    for (int i = 0; i < 4; i++) {
        assert_int_equal(at[i] % alignof(max_align_t), 0);
        assert_true(at[i] + len[i] <= (uintptr_t)block + size);
        if (i > 0)
            assert_true(at[i - 1] + len[i - 1] <= at[i]);
    }
    memset(t.c, 'x', 3);   /* writing each array whole leaves the others alone */
    for (int i = 0; i < 5; i++)
        t.d[i] = i + 0.5;
    for (int i = 0; i < 7; i++)
        t.s[i] = (short)(100 + i);
    assert_memory_equal(t.c, "xxx", 3);
    for (int i = 0; i < 5; i++)
        assert_true(t.d[i] == i + 0.5);
    for (int i = 0; i < 7; i++)
        assert_int_equal(t.s[i], 100 + i);
    free(block);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_measure_gives_null_and_size),
        cmocka_unit_test(test_place_aligned_disjoint_inside),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
