/* json_text writes an object byte for byte as cJSON_PrintUnformatted
 * prints the same object built as a tree: strings with every escape,
 * integers in and out of int range, thousandths that %1.15g prints
 * exactly and ones too large for it, nested objects and items. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bmc/driver/json_text.h"

/* Asserts that t holds what cJSON prints for tree, then deletes tree. */
static void assert_prints_as(const struct json_text *t, cJSON *tree)
{
    char *want = cJSON_PrintUnformatted(tree);
    assert_non_null(want);
    assert_string_equal(t->s, want);
    assert_int_equal(t->len, strlen(want));
    free(want);
    cJSON_Delete(tree);
}

static void test_strings(void **state)
{
    (void)state;
    const char *values[] = { "", "plain", "a \"quoted\" \\ back", "\b\f\n\r\t", "\x01\x1f\x7f end",
                             "caf\xc3\xa9 \xff", "/slash/" };
    struct json_text t = { 0 };
    json_text_begin(&t);
    cJSON *tree = cJSON_CreateObject();
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        char key[16];
        snprintf(key, sizeof key, "k\t%zu", i);
        json_text_string(&t, key, values[i]);
        cJSON_AddStringToObject(tree, key, values[i]);
    }
    json_text_string(&t, "none", NULL);
    cJSON_AddStringToObject(tree, "none", "");
    json_text_close(&t);
    assert_prints_as(&t, tree);
    json_text_free(&t);
}

static void test_escapes_anywhere(void **state)
{
    (void)state;
    const char specials[] = { '"', '\\', '\n', '\x01', '\x1f', ' ', '\x7f', '!', '#', '[', ']' };
    struct json_text t = { 0 };
    json_text_begin(&t);
    cJSON *tree = cJSON_CreateObject();
    for (size_t k = 0; k < sizeof specials; k++)
        for (int at = 0; at < 24; at++) {   /* in every byte of the first words and in the tail */
            char value[26];
            memset(value, 'a' + at, 25);
            value[25] = '\0';
            value[at] = specials[k];
            json_text_string(&t, value, value + at / 2);
            cJSON_AddStringToObject(tree, value, value + at / 2);
        }
    json_text_close(&t);
    assert_prints_as(&t, tree);
    json_text_free(&t);
}

/* Short strings (keys, most of them), a special byte at each place of
 * each length up to nine. */
static void test_short_escapes(void **state)
{
    (void)state;
    const char specials[] = { '"', '\\', '\n', '\x01', '\x1f', ' ', '\x7f', '!' };
    struct json_text t = { 0 };
    json_text_begin(&t);
    cJSON *tree = cJSON_CreateObject();
    for (size_t k = 0; k < sizeof specials; k++)
        for (int len = 1; len <= 9; len++)
            for (int at = 0; at < len; at++) {
                char key[12];
                memset(key, 'a' + len, (size_t)len);
                key[len] = '\0';
                key[at] = specials[k];
                json_text_string(&t, key, key);
                cJSON_AddStringToObject(tree, key, key);
            }
    json_text_close(&t);
    assert_prints_as(&t, tree);
    json_text_free(&t);
}

/* Strings of 8 to 40 bytes (the word and sixteen-byte blocks, the last
 * one overlapping those before), a special byte at each place, the last
 * included; a byte over 127 (UTF-8) is copied as it is. */
static void test_long_escapes(void **state)
{
    (void)state;
    const char specials[] = { '"', '\\', '\n', '\x01', '\x1f', ' ', '\x7f', '\xc3' };
    struct json_text t = { 0 };
    json_text_begin(&t);
    cJSON *tree = cJSON_CreateObject();
    for (size_t k = 0; k < sizeof specials; k++)
        for (int len = 8; len <= 40; len++)
            for (int at = 0; at < len; at++) {
                char key[48];
                memset(key, 'a' + len % 26, (size_t)len);
                key[len] = '\0';
                key[at] = specials[k];
                json_text_string(&t, key, key + at / 3);
                cJSON_AddStringToObject(tree, key, key + at / 3);
            }
    json_text_close(&t);
    assert_prints_as(&t, tree);
    json_text_free(&t);
}

static void test_integers(void **state)
{
    (void)state;
    const long values[] = { 0, 1, -1, 42, 123456789, INT_MAX, INT_MIN, (long)INT_MAX + 1, (long)INT_MIN - 1,
                            5000000000L, -98765432109L, 123456789012345678L, LONG_MAX };
    struct json_text t = { 0 };
    json_text_begin(&t);
    cJSON *tree = cJSON_CreateObject();
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        json_text_long(&t, "n", values[i]);
        cJSON_AddNumberToObject(tree, "n", (double)values[i]);
    }
    json_text_close(&t);
    assert_prints_as(&t, tree);
    json_text_free(&t);
}

static void test_thousandths(void **state)
{
    (void)state;
    const long values[] = { 0, 1, 10, 100, 999, 1000, 1001, 1010, 1100, 2180, 142, -1, -500, -1500, -1000,
                            2147483647000L, 2147483648123L, 999999999999999L, -999999999999999L,
                            1000000000000000L, 1000000000000001L, 123456789012345678L, -123456789012345678L };
    struct json_text t = { 0 };
    json_text_begin(&t);
    cJSON *tree = cJSON_CreateObject();
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        json_text_thousandths(&t, "ms", values[i]);
        cJSON_AddNumberToObject(tree, "ms", (double)values[i] / 1000);
    }
    for (long k = 0; k < 200000; k += 7) {   /* every last digit, many integer parts */
        json_text_thousandths(&t, "ms", k);
        cJSON_AddNumberToObject(tree, "ms", (double)k / 1000);
    }
    json_text_close(&t);
    assert_prints_as(&t, tree);
    json_text_free(&t);
}

static void test_nesting(void **state)
{
    (void)state;
    struct json_text t = { 0 };
    cJSON *item = cJSON_Parse("{\"a\":[1,2.5,\"x\\ny\",null,true],\"b\":{}}");
    assert_non_null(item);
    for (int round = 0; round < 2; round++) {   /* the second reuses the memory of the first */
        json_text_begin(&t);
        json_text_object(&t, "empty");
        json_text_close(&t);
        json_text_object(&t, "scopes");
        json_text_string(&t, "DV", "fair");
        json_text_bool(&t, "on", false);
        json_text_close(&t);
        json_text_null(&t, "model");
        json_text_item(&t, "outcomes", item);
        json_text_bool(&t, "match", true);
        json_text_close(&t);
        cJSON *tree = cJSON_CreateObject();
        cJSON_AddObjectToObject(tree, "empty");
        cJSON *scopes = cJSON_AddObjectToObject(tree, "scopes");
        cJSON_AddStringToObject(scopes, "DV", "fair");
        cJSON_AddBoolToObject(scopes, "on", false);
        cJSON_AddNullToObject(tree, "model");
        cJSON_AddItemReferenceToObject(tree, "outcomes", item);
        cJSON_AddBoolToObject(tree, "match", true);
        assert_prints_as(&t, tree);
    }
    cJSON_Delete(item);
    json_text_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_escapes_anywhere),
        cmocka_unit_test(test_short_escapes),
        cmocka_unit_test(test_long_escapes),
        cmocka_unit_test(test_integers),
        cmocka_unit_test(test_thousandths),
        cmocka_unit_test(test_nesting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
