/* result_pack and result_unpack: a result comes back with every field and
 * text as it went (a text that fills its whole field included, and the
 * progress results sent), packed in fewer bytes than the result, and
 * bytes cut short, left over, or with a text longer than its field are
 * refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "bmc/driver/result_pack.h"

static unsigned char packed[RESULT_PACK_MAX];
static struct check_result sent, got;

/* A result with every field set and nprogress progress results, the last
 * one's reason filling its field. */
static void fill(struct check_result *r, int nprogress)
{
    memset(r, 0, sizeof *r);
    r->verdict = V_FAIL;
    snprintf(r->engine, sizeof r->engine, "sat");
    snprintf(r->model, sizeof r->model, "ptx-v6.0");
    snprintf(r->reason, sizeof r->reason, "an execution reaches the condition");
    r->ms = 12.5;
    r->nvars = 1234;
    r->nclauses = 5678;
    r->npairs = 91;
    snprintf(r->symmetry_key, sizeof r->symmetry_key, "first");
    r->reachable = r->has_reachable = true;
    r->nprogress = nprogress;
    for (int i = 0; i < nprogress; i++) {
        struct progress_result *p = &r->progress[i];
        p->model = (enum progress_model)i;
        p->verdict = V_PASS;
        snprintf(p->engine, sizeof p->engine, "states");
        snprintf(p->brief, sizeof p->brief, "P%d spins", i);
        snprintf(p->reason, sizeof p->reason, "progress %d", i);
        p->vacuous = i % 2;
    }
    if (nprogress > 0)
        memset(r->progress[nprogress - 1].reason, 'x', sizeof r->progress[0].reason);
}

/* Clears the bytes of text (size bytes) past its NUL. */
static void clear_past_end(char *text, size_t size)
{
    size_t len = strnlen(text, size);
    memset(text + len, 0, size - len);
}

/* Asserts that got's head and first n progress results equal sent's, but
 * for the bytes past each text's NUL (zero in sent, left as they were in
 * got, which was all 0xff). */
static void assert_same(int n)
{
    clear_past_end(got.reason, sizeof got.reason);
    for (int i = 0; i < n; i++) {
        clear_past_end(got.progress[i].brief, sizeof got.progress[i].brief);
        clear_past_end(got.progress[i].reason, sizeof got.progress[i].reason);
    }
    assert_memory_equal(&got, &sent, offsetof(struct check_result, progress));
    for (int i = 0; i < n; i++)
        assert_memory_equal(&got.progress[i], &sent.progress[i], sizeof sent.progress[i]);
}

static void test_round_trip(void **state)
{
    (void)state;
    for (int n = 0; n <= CHECK_PROGRESS_MODELS; n++) {
        fill(&sent, n);
        size_t len = result_pack(&sent, n, packed);
        assert_true(len < offsetof(struct check_result, progress) + (size_t)n * sizeof sent.progress[0]);
        memset(&got, 0xff, sizeof got);
        assert_true(result_unpack(packed, len, n, &got));
        assert_same(n);
    }
}

static void test_text_filling_its_field(void **state)
{
    (void)state;
    fill(&sent, 0);
    memset(sent.reason, 'r', sizeof sent.reason);   /* no NUL at all */
    size_t len = result_pack(&sent, 0, packed);
    memset(&got, 0xff, sizeof got);
    assert_true(result_unpack(packed, len, 0, &got));
    assert_same(0);
}

static void test_malformed(void **state)
{
    (void)state;
    int n = 2;
    fill(&sent, n);
    size_t len = result_pack(&sent, n, packed);
    for (size_t cut = 0; cut < len; cut += 7)   /* cut short */
        assert_false(result_unpack(packed, cut, n, &got));
    assert_false(result_unpack(packed, len, n - 1, &got));   /* bytes left over */
    assert_false(result_unpack(packed, len, -1, &got));
    assert_false(result_unpack(packed, len, CHECK_PROGRESS_MODELS + 1, &got));
}

static void test_text_longer_than_its_field(void **state)
{
    (void)state;
    fill(&sent, 0);
    memset(sent.reason, 'r', sizeof sent.reason);
    size_t len = result_pack(&sent, 0, packed);
    /* the same bytes with one more byte of reason, and its length one more */
    static unsigned char longer[RESULT_PACK_MAX + 1];
    size_t at = offsetof(struct check_result, reason), text = at + sizeof(uint16_t);
    uint16_t too_long = (uint16_t)sizeof sent.reason + 1;
    memcpy(longer, packed, text);
    memcpy(longer + at, &too_long, sizeof too_long);
    longer[text] = 'r';
    memcpy(longer + text + 1, packed + text, len - text);
    assert_false(result_unpack(longer, len + 1, 0, &got));
    assert_true(result_unpack(packed, len, 0, &got));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_text_filling_its_field),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_text_longer_than_its_field),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
