/* Sets of the relation layer (rel_arena.c), which carry their members as
 * bits and are consed by them: over random events some of which never
 * execute, with none, one, two and several words of bits, every set made
 * by set_of, set_of_bits, set_union, set_inter and set_diff holds exactly
 * the events of its definition that can execute, in members (sorted), m
 * (exec_i or LIT_FALSE) and bits alike; a set with the members of one
 * made before is that object (in the arena, or in its parent for a child
 * arena), and a set of no member or of every event that can execute is
 * the arena's empty or every-event set. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "encoders/cnf.h"
#include "encoders/rel.h"

enum { MAXN = 300, ROUNDS = 12 };

/* The next number of a fixed-seed 64-bit LCG (high half). */
static uint32_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 32);
}

/* Asserts that s, over n events with literals exec, holds exactly the
 * events i with want[i] that can execute. */
static void assert_set_is(const struct set *s, int n, const lit *exec, const bool *want)
{
    int size = 0;
    assert_int_equal(s->n, n);
    for (int i = 0; i < n; i++) {
        bool in = want[i] && exec[i] != LIT_FALSE;
        assert_int_equal(set_has(s, i), in);
        assert_int_equal(s->m[i], in ? exec[i] : LIT_FALSE);
        assert_int_equal(s->bits[i / 64] >> (i % 64) & 1, in);
        if (in) {
            assert_true(size < s->size);
            assert_int_equal(s->members[size], i);
            size++;
        }
    }
    assert_int_equal(s->size, size);
    for (int i = n; i < (n + 63) / 64 * 64; i++)   /* no bit past the last event */
        assert_int_equal(s->bits[i / 64] >> (i % 64) & 1, 0);
}

/* The bits of flags (every event's, those that never execute too). */
static void bits_of_flags(const bool *flags, int n, unsigned long long *bits)
{
    for (int k = 0; k < (n + 63) / 64; k++)
        bits[k] = 0;
    for (int i = 0; i < n; i++)
        if (flags[i])
            bits[i / 64] |= 1ull << (i % 64);
}

/* One round over n events of a cnf with a solver: some events never
 * execute, the others under a variable or always. */
static void one_round(uint64_t *seed, int n)
{
    struct cnf *c = cnf_new(true);
    lit exec[MAXN + 1];
    bool x[MAXN + 1], y[MAXN + 1], u[MAXN + 1], in[MAXN + 1], d[MAXN + 1], all[MAXN + 1], none[MAXN + 1];
    unsigned long long bits[(MAXN + 63) / 64 + 1];
    for (int i = 0; i < n; i++) {
        unsigned r = lcg(seed) % 4;
        exec[i] = r == 0 ? LIT_FALSE : r == 1 ? LIT_TRUE : cnf_var(c);
        x[i] = lcg(seed) % 3 == 0;
        y[i] = lcg(seed) % 2 == 0;
        u[i] = x[i] || y[i];
        in[i] = x[i] && y[i];
        d[i] = x[i] && !y[i];
        all[i] = true;
        none[i] = false;
    }
    struct rels *A = rels_new(c, n, exec);
    const struct set *sx = set_of(A, x), *sy = set_of(A, y);
    assert_set_is(sx, n, exec, x);
    assert_set_is(sy, n, exec, y);
    assert_set_is(set_all(A), n, exec, all);
    const struct set *su = set_union(A, sx, sy), *si = set_inter(A, sx, sy), *sd = set_diff(A, sx, sy);
    assert_set_is(su, n, exec, u);
    assert_set_is(si, n, exec, in);
    assert_set_is(sd, n, exec, d);
    /* one object per content: made again, or by another way */
    assert_ptr_equal(set_union(A, sy, sx), su);
    assert_ptr_equal(set_of(A, u), su);
    assert_ptr_equal(set_of(A, in), si);
    assert_ptr_equal(set_of(A, d), sd);
    assert_ptr_equal(set_of(A, all), set_all(A));
    assert_ptr_equal(set_union(A, sx, set_all(A)), set_all(A));
    assert_ptr_equal(set_diff(A, sx, sx), set_of(A, none));
    assert_ptr_equal(set_inter(A, sd, sy), set_of(A, none));
    assert_set_is(set_of(A, none), n, exec, none);
    bits_of_flags(x, n, bits);   /* events that never execute among them */
    assert_ptr_equal(set_of_bits(A, bits), sx);
    bits_of_flags(all, n, bits);
    assert_ptr_equal(set_of_bits(A, bits), set_all(A));
    /* a child arena finds its parent's sets, and makes its own beside */
    struct rels *B = rels_new_child(A);
    assert_ptr_equal(set_all(B), set_all(A));
    assert_ptr_equal(set_of(B, u), su);
    bits_of_flags(d, n, bits);
    assert_ptr_equal(set_of_bits(B, bits), sd);
    bool odd[MAXN + 1];
    for (int i = 0; i < n; i++)
        odd[i] = i % 2 == 1 && x[i];
    const struct set *so = set_of(B, odd);
    assert_set_is(so, n, exec, odd);
    assert_ptr_equal(set_inter(B, sx, so), so);
    rels_free(B);
    rels_free(A);
    cnf_free(c);
}

static void test_sets(void **state)
{
    (void)state;
    static const int sizes[] = { 0, 1, 5, 63, 64, 65, 130, 256, MAXN };
    uint64_t seed = 20261127;
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++)
        for (int round = 0; round < ROUNDS; round++)
            one_round(&seed, sizes[k]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
