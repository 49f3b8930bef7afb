/* A JSON object written straight into a growing text, byte for byte as
 * cJSON_PrintUnformatted would print the same object built as a tree: a
 * result line printed without building, printing and freeing a tree. */
#ifndef GPUBMC_JSON_TEXT_H
#define GPUBMC_JSON_TEXT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* The text so far (s NUL-terminated once anything is written). */
struct json_text {
    char *s;
    size_t len, cap;
};

/* Empties t (keeping its memory) and opens the outermost object. */
void json_text_begin(struct json_text *t);
/* Opens an outermost object after what t holds (a line after lines). */
void json_text_open(struct json_text *t);
/* Closes the innermost open object. */
void json_text_close(struct json_text *t);
/* Frees t's memory. */
void json_text_free(struct json_text *t);

/* Appends the comma before a member (none after an opening brace) and
 * its key, the nkey bytes at key, quoted (and escaped unless plain says
 * that none of them needs it) and followed by a colon. */
void json_text_put_key(struct json_text *t, const char *key, size_t nkey, bool plain);
/* Appends s as a quoted, escaped JSON string (NULL as ""). */
void json_text_put_string(struct json_text *t, const char *s);
/* Appends n as cJSON prints the number (double)n. */
void json_text_put_long(struct json_text *t, long n);
/* Appends k/1000 as cJSON prints the number (double)k / 1000. */
void json_text_put_thousandths(struct json_text *t, long k);
/* Appends the len bytes at p as they are (a literal, a number). */
void json_text_put_raw(struct json_text *t, const char *p, size_t len);
/* Appends item as cJSON_PrintUnformatted prints it (null when cJSON runs
 * out of memory). */
void json_text_put_item(struct json_text *t, const cJSON *item);

/* Whether none of the n bytes at s needs a JSON escape (below 32, a
 * quote, a backslash).  Inline, like the member functions below: for a
 * literal key the compiler knows the answer and the length. */
static inline bool json_text_plain(const char *s, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if ((unsigned char)s[k] < 32 || s[k] == '"' || s[k] == '\\')
            return false;
    return true;
}

/* Appends the comma before member key and the key: a plain key that
 * fits is copied here, where a literal's bytes are constants. */
static inline void json_text_key(struct json_text *t, const char *key)
{
    size_t n = strlen(key);
    if (!json_text_plain(key, n) || t->len == 0 || t->len + n + 5 > t->cap) {
        json_text_put_key(t, key, n, json_text_plain(key, n));
        return;
    }
    char *out = t->s + t->len;
    if (out[-1] != '{')
        *out++ = ',';
    *out++ = '"';
    memcpy(out, key, n);
    out += n;
    *out++ = '"';
    *out++ = ':';
    *out = '\0';
    t->len = (size_t)(out - t->s);
}

/* Adds "key":{ and opens that object. */
static inline void json_text_object(struct json_text *t, const char *key)
{
    json_text_key(t, key);
    json_text_put_raw(t, "{", 1);
}

/* Adds "key":"value" (a NULL value as ""). */
static inline void json_text_string(struct json_text *t, const char *key, const char *value)
{
    json_text_key(t, key);
    json_text_put_string(t, value);
}

/* Adds "key":n, printed as cJSON prints the number (double)n. */
static inline void json_text_long(struct json_text *t, const char *key, long n)
{
    json_text_key(t, key);
    json_text_put_long(t, n);
}

/* Adds "key":k/1000, printed as cJSON prints the number (double)k / 1000. */
static inline void json_text_thousandths(struct json_text *t, const char *key, long k)
{
    json_text_key(t, key);
    json_text_put_thousandths(t, k);
}

/* Adds "key":true or "key":false. */
static inline void json_text_bool(struct json_text *t, const char *key, bool value)
{
    json_text_key(t, key);
    json_text_put_raw(t, value ? "true" : "false", value ? 4 : 5);
}

/* Adds "key":null. */
static inline void json_text_null(struct json_text *t, const char *key)
{
    json_text_key(t, key);
    json_text_put_raw(t, "null", 4);
}

/* Adds "key": and item, as cJSON_PrintUnformatted prints it (null when
 * cJSON runs out of memory). */
static inline void json_text_item(struct json_text *t, const char *key, const cJSON *item)
{
    json_text_key(t, key);
    json_text_put_item(t, item);
}

#endif
