/* CaDiCaL's operator new and delete (encoders/solver_alloc.c): a freed
 * block of up to 1016 bytes comes back for the next request of its size
 * class and of no other (by the size a sized delete names, with no look
 * at the chunk), every block holds what was asked and is 16-byte
 * aligned, and a solver still answers after thousands of blocks went
 * round.  (The sanitizer build keeps the C++ library's own functions:
 * no reuse to see there.)  And its toupper: the "C" locale's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <ccadical.h>
#include <cmocka.h>
#include <malloc.h>

void *_Znwm(size_t n);
void _ZdlPv(void *p);
void _ZdlPvm(void *p, size_t n);
void _ZdaPvm(void *p, size_t n);
int toupper(int ch);

static void test_reuse_by_class(void **state)
{
    (void)state;
#if defined(__SANITIZE_ADDRESS__)
    skip();   /* the sanitizer build keeps the C++ library's own functions */
#endif
    void *a = _Znwm(40);   /* class 3: 40 bytes need a 48-byte chunk */
    memset(a, 1, 40);
    _ZdlPv(a);
    void *other = _Znwm(100);   /* another class: not a */
    assert_ptr_not_equal(other, a);
    void *same = _Znwm(33);     /* the same class: a again */
    assert_ptr_equal(same, a);
    _ZdlPv(other);
    _ZdaPvm(same, 33);
    void *big = _Znwm(5000);    /* past the kept classes: glibc's own */
    assert_true(malloc_usable_size(big) >= 5000);
    _ZdlPv(big);
}

/* A sized delete keeps the block by the size it names: a request of the
 * same class takes it back, one of another class does not. */
static void test_sized_delete_by_size(void **state)
{
    (void)state;
#if defined(__SANITIZE_ADDRESS__)
    skip();
#endif
    void *a = _Znwm(200);   /* class 13: a 208-byte chunk */
    _ZdlPvm(a, 200);
    void *other = _Znwm(300);
    assert_ptr_not_equal(other, a);
    void *same = _Znwm(190);
    assert_ptr_equal(same, a);
    _ZdlPvm(other, 300);
    _ZdlPvm(same, 190);
}

static void test_sizes_and_alignment(void **state)
{
    (void)state;
    void *held[300];
    for (size_t n = 0; n < 300; n++) {
        held[n] = _Znwm(n * 5);
        assert_int_equal((uintptr_t)held[n] % 16, 0);
        assert_true(malloc_usable_size(held[n]) >= n * 5);
        memset(held[n], 0xab, n * 5);
    }
    for (size_t n = 0; n < 300; n++)
        _ZdlPv(held[n]);
    for (size_t n = 0; n < 300; n++) {   /* taken back: still big enough */
        held[n] = _Znwm(n * 5);
        assert_true(malloc_usable_size(held[n]) >= n * 5);
    }
    for (size_t n = 0; n < 300; n++)
        _ZdlPv(held[n]);
}

static void test_solvers_in_turn(void **state)
{
    (void)state;
    for (int round = 0; round < 50; round++) {   /* pigeons: n + 1 in n holes, UNSAT */
        int n = 3 + round % 4;
        CCaDiCaL *s = ccadical_init();
        for (int p = 0; p <= n; p++) {
            for (int h = 0; h < n; h++)
                ccadical_add(s, p * n + h + 1);
            ccadical_add(s, 0);
        }
        for (int h = 0; h < n; h++)
            for (int p = 0; p <= n; p++)
                for (int q = p + 1; q <= n; q++) {
                    ccadical_add(s, -(p * n + h + 1));
                    ccadical_add(s, -(q * n + h + 1));
                    ccadical_add(s, 0);
                }
        assert_int_equal(ccadical_solve(s), 20);
        ccadical_release(s);
    }
}

/* toupper changes 'a' to 'z' and nothing else, EOF included. */
static void test_toupper(void **state)
{
    (void)state;
    for (int ch = -1; ch < 256; ch++)
        assert_int_equal(toupper(ch), ch >= 'a' && ch <= 'z' ? ch - 32 : ch);
    assert_int_equal(toupper('q'), 'Q');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reuse_by_class),
        cmocka_unit_test(test_sized_delete_by_size),
        cmocka_unit_test(test_sizes_and_alignment),
        cmocka_unit_test(test_solvers_in_turn),
        cmocka_unit_test(test_toupper),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
