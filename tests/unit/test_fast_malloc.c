/* The malloc family of util/fast_malloc.c: a freed block comes back for
 * the next request of its size class (16-byte steps to 1 KiB, four
 * classes per doubling above) and of no other, calloc clears a block
 * that was used before, realloc keeps the contents as it grows and
 * shrinks (in place within the class, through a mapping of its own past
 * 128 KiB), aligned requests are aligned, and the C library's own callers
 * (strdup, fopen) free what they got, and threads (once there are any)
 * allocate side by side.  (The sanitizer build keeps the
 * library's allocator: no classes to see there.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <malloc.h>
#include <pthread.h>

#if defined(__SANITIZE_ADDRESS__)
#define SKIP_UNDER_SANITIZER() skip()
#else
#define SKIP_UNDER_SANITIZER() ((void)0)
#endif

/* Each byte of p[0..n) is v. */
static int all_bytes(const unsigned char *p, size_t n, unsigned char v)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != v)
            return 0;
    return 1;
}

static void test_reuse_by_class(void **state)
{
    (void)state;
    SKIP_UNDER_SANITIZER();
    void *a = malloc(17);                   /* the 32-byte class */
    uintptr_t a_at = (uintptr_t)a;
    assert_int_equal(malloc_usable_size(a), 32);
    free(a);
    void *other = malloc(33);               /* the 48-byte class: not a */
    assert_int_not_equal((uintptr_t)other, a_at);
    void *again = malloc(32);               /* the same class: a again */
    assert_int_equal((uintptr_t)again, a_at);
    free(again);
    free(other);
    void *big = malloc(100000);             /* the class of 114688 bytes */
    uintptr_t big_at = (uintptr_t)big;
    void *guard = malloc(100);
    assert_int_equal(malloc_usable_size(big), 114688);
    free(big);
    void *bigger = malloc(114688);
    assert_int_equal((uintptr_t)bigger, big_at);
    free(bigger);
    free(guard);
}

static void test_sizes_and_alignment(void **state)
{
    (void)state;
    void *held[400];
    for (size_t i = 0; i < 400; i++) {
        size_t n = i * i * 37;              /* 0 to about 5.9 MB */
        held[i] = malloc(n);
        assert_non_null(held[i]);
        assert_int_equal((uintptr_t)held[i] % 16, 0);
        assert_true(malloc_usable_size(held[i]) >= n);
        memset(held[i], (int)(i & 0xff), n);
    }
    for (size_t i = 0; i < 400; i++) {
        assert_true(all_bytes(held[i], i * i * 37, (unsigned char)(i & 0xff)));
        free(held[i]);
    }
}

static void test_calloc_clears_used_blocks(void **state)
{
    (void)state;
    for (size_t n = 1; n < 3000; n = n * 3 + 1) {
        unsigned char *p = malloc(n);
        memset(p, 0xee, malloc_usable_size(p));
        free(p);
        unsigned char *q = calloc(n, 1);
        assert_true(all_bytes(q, n, 0));
        free(q);
    }
#if !defined(__SANITIZE_ADDRESS__)   /* the sanitizer's calloc stops the process */
    volatile size_t half = SIZE_MAX / 2;
    assert_null(calloc(half, 3));           /* the product overflows */
#endif
}

/* calloc's reused block of each size up to 300 bytes is zero, and the
 * block carved after it (its neighbour, head and bytes) is untouched. */
static void test_calloc_clears_only_its_block(void **state)
{
    (void)state;
    for (size_t n = 0; n <= 300; n++) {
        unsigned char *a = malloc(n), *b = malloc(n);
        size_t b_size = malloc_usable_size(b);
        memset(a, 0xee, malloc_usable_size(a));
        memset(b, 0x77, b_size);
        free(a);
        unsigned char *q = calloc(n, 1);
        assert_true(all_bytes(q, n, 0));
        assert_int_equal(malloc_usable_size(b), b_size);
        assert_true(all_bytes(b, b_size, 0x77));
        free(q);
        free(b);
    }
}

static void test_realloc_keeps_contents(void **state)
{
    (void)state;
    unsigned char *p = NULL;
    size_t n = 0;
    for (size_t next = 1; next <= ((size_t)12 << 20); next = next * 2 + 3) {
        p = realloc(p, next);
        assert_non_null(p);
        assert_true(all_bytes(p, n, 0x5a));
        memset(p + n, 0x5a, next - n);
        n = next;
    }
    while (n > 1) {                         /* shrinking through every kind of block */
        n /= 3;
        p = realloc(p, n);
        assert_true(all_bytes(p, n, 0x5a));
    }
    free(p);
    assert_null(realloc(malloc(10), 0));    /* frees */
}

static void test_realloc_in_place_within_class(void **state)
{
    (void)state;
    SKIP_UNDER_SANITIZER();
    char *p = malloc(20);                   /* the 32-byte class */
    uintptr_t p_at = (uintptr_t)p;
    char *guard = malloc(20);
    p = realloc(p, 32);
    assert_int_equal((uintptr_t)p, p_at);
    free(guard);
    free(p);
}

static void test_aligned(void **state)
{
    (void)state;
    for (size_t align = 8; align <= 65536; align *= 2) {
        void *p = aligned_alloc(align, 2 * align);   /* C11: a multiple of the alignment */
        assert_int_equal((uintptr_t)p % align, 0);
        memset(p, 1, 2 * align);
        free(p);
        void *q = NULL;
        assert_int_equal(posix_memalign(&q, align, 5000), 0);
        assert_int_equal((uintptr_t)q % align, 0);
        assert_true(malloc_usable_size(q) >= 5000);
        memset(q, 2, 5000);
        q = realloc(q, 20000);
        assert_true(all_bytes(q, 5000, 2));
        free(q);
    }
    void *page = valloc(10);
    assert_int_equal((uintptr_t)page % 4096, 0);
    free(page);
}

static void test_library_callers(void **state)
{
    (void)state;
    char *s = strdup("a string the C library copies");
    assert_string_equal(s, "a string the C library copies");
    free(s);
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_true(fputs("through stdio's buffer\n", f) >= 0);
    assert_int_equal(fclose(f), 0);
}

/* Allocates, fills, checks and frees blocks of many sizes, marked with
 * the byte arg points to. */
static void *churn(void *arg)
{
    unsigned char mark = *(unsigned char *)arg;
    unsigned char *held[64] = { 0 };
    for (unsigned i = 0; i < 50000; i++) {
        unsigned slot = (i * 2654435761u) % 64;
        size_t n = 1 + (i * 40503u) % 3000;
        if (held[slot]) {
            if (held[slot][0] != mark || held[slot][malloc_usable_size(held[slot]) - 1] != mark)
                return "a block changed under its thread";
            free(held[slot]);
        }
        held[slot] = malloc(n);
        memset(held[slot], mark, malloc_usable_size(held[slot]));
    }
    for (unsigned slot = 0; slot < 64; slot++)
        free(held[slot]);
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    pthread_t t[4];
    unsigned char marks[4] = { 1, 2, 3, 4 };
    for (int k = 0; k < 4; k++)
        assert_int_equal(pthread_create(&t[k], NULL, churn, &marks[k]), 0);
    for (int k = 0; k < 4; k++) {
        void *why = NULL;
        assert_int_equal(pthread_join(t[k], &why), 0);
        assert_null(why);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reuse_by_class),
        cmocka_unit_test(test_sizes_and_alignment),
        cmocka_unit_test(test_calloc_clears_used_blocks),
        cmocka_unit_test(test_calloc_clears_only_its_block),
        cmocka_unit_test(test_realloc_keeps_contents),
        cmocka_unit_test(test_realloc_in_place_within_class),
        cmocka_unit_test(test_aligned),
        cmocka_unit_test(test_library_callers),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
