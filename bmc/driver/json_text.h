/* A JSON object written straight into a growing text, byte for byte as
 * cJSON_PrintUnformatted would print the same object built as a tree: a
 * result line printed without building, printing and freeing a tree. */
#ifndef GPUBMC_JSON_TEXT_H
#define GPUBMC_JSON_TEXT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

/* The text so far (s NUL-terminated once anything is written). */
struct json_text {
    char *s;
    size_t len, cap;
};

/* Empties t (keeping its memory) and opens the outermost object. */
void json_text_begin(struct json_text *t);
/* Closes the innermost open object. */
void json_text_close(struct json_text *t);
/* Adds "key":{ and opens that object. */
void json_text_object(struct json_text *t, const char *key);
/* Adds "key":"value" (a NULL value as ""). */
void json_text_string(struct json_text *t, const char *key, const char *value);
/* Adds "key":n, printed as cJSON prints the number (double)n. */
void json_text_long(struct json_text *t, const char *key, long n);
/* Adds "key":k/1000, printed as cJSON prints the number (double)k / 1000. */
void json_text_thousandths(struct json_text *t, const char *key, long k);
/* Adds "key":true or "key":false. */
void json_text_bool(struct json_text *t, const char *key, bool value);
/* Adds "key":null. */
void json_text_null(struct json_text *t, const char *key);
/* Adds "key": and item, as cJSON_PrintUnformatted prints it (null when
 * cJSON runs out of memory). */
void json_text_item(struct json_text *t, const char *key, const cJSON *item);
/* Frees t's memory. */
void json_text_free(struct json_text *t);

#endif
