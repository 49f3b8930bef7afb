/* JSON objects written as text, as cJSON 1.7 prints them unformatted:
 * strings with ", \, \b, \f, \n, \r, \t escaped and other bytes below 32
 * as \u00xx, numbers as print_number does (an integer in int range with
 * %d, else %1.15g when that reads back, else %1.17g). */
#include "bmc/driver/json_text.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Makes room for more bytes and the NUL after them. */
static void reserve(struct json_text *t, size_t more)
{
    if (t->len + more + 1 > t->cap) {
        t->cap = 2 * (t->len + more + 1) + 256;
        t->s = xrealloc(t->s, t->cap);
    }
}

/* Appends the len bytes at p. */
static void put(struct json_text *t, const char *p, size_t len)
{
    reserve(t, len);
    memcpy(t->s + t->len, p, len);
    t->len += len;
    t->s[t->len] = '\0';
}

/* A word of 8 copies of byte b. */
#define BYTES(b) (0x0101010101010101ULL * (b))

/* Nonzero in some byte's top bit when one of the 8 bytes of w is below
 * 32, a quote or a backslash (a byte is zero in w - BYTES(1) & ~w &
 * BYTES(0x80) exactly when w has a zero byte; likewise below 32 with
 * BYTES(32)); the caller keeps the top bits alone. */
static uint64_t word_escape_bits(uint64_t w)
{
    uint64_t quote = w ^ BYTES('"'), backslash = w ^ BYTES('\\');
    return ((w - BYTES(32)) & ~w) | ((quote - BYTES(1)) & ~quote) | ((backslash - BYTES(1)) & ~backslash);
}

#ifdef __SSE2__
/* Copies the sixteen bytes at p to out; nonzero in each byte that needs
 * an escape (a byte below 32 is one that saturating subtraction of 31
 * makes zero). */
static __m128i copy_block(char *out, const unsigned char *p)
{
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    _mm_storeu_si128((__m128i *)out, v);
    __m128i low = _mm_cmpeq_epi8(_mm_subs_epu8(v, _mm_set1_epi8(31)), _mm_setzero_si128());
    __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"')), backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
    return _mm_or_si128(low, _mm_or_si128(quote, backslash));
}
#endif

/* Copies the n bytes at p to out, sixteen at a time where SSE2 is there,
 * else eight (the last sixteen or eight overlapping those before when n
 * is no multiple; from 4 to 7 bytes as the first four and the last
 * four); true when one of them needs an escape. */
static bool copy_needs_escape(char *out, const unsigned char *p, size_t n)
{
    uint64_t w, bits = 0;
    if (n < 8) {
        uint32_t first, last;
        if (n >= 4) {
            memcpy(&first, p, 4), memcpy(&last, p + n - 4, 4);
            memcpy(out, &first, 4), memcpy(out + n - 4, &last, 4);
            return word_escape_bits((uint64_t)first | (uint64_t)last << 32) & BYTES(0x80);
        }
        for (size_t k = 0; k < n; k++) {
            out[k] = (char)p[k];
            if (p[k] < 32 || p[k] == '"' || p[k] == '\\')
                return true;
        }
        return false;
    }
#ifdef __SSE2__
    if (n >= 16) {   /* the last sixteen overlapping those before */
        __m128i any = _mm_setzero_si128();
        for (size_t k = 0;; k = k + 32 <= n ? k + 16 : n - 16) {
            any = _mm_or_si128(any, copy_block(out + k, p + k));
            if (k == n - 16)
                return _mm_movemask_epi8(any) != 0;
        }
    }
#endif
    for (size_t k = 0; k + 8 <= n; k += 8) {
        memcpy(&w, p + k, 8), memcpy(out + k, &w, 8);
        bits |= word_escape_bits(w);
    }
    memcpy(&w, p + n - 8, 8), memcpy(out + n - 8, &w, 8);
    return (bits | word_escape_bits(w)) & BYTES(0x80);
}

/* Writes the n bytes at p escaped at out (room for 6 * n), byte by
 * byte; returns the end. Out of line, so that the usual case, a copy,
 * saves no registers. */
static __attribute__((noinline)) char *escape_bytes(char *out, const unsigned char *p, size_t n)
{
    for (const unsigned char *end = p + n; p < end; p++) {
        unsigned char c = *p;
        if (c > 31 && c != '"' && c != '\\') {
            *out++ = (char)c;
            continue;
        }
        *out++ = '\\';
        switch (c) {
        case '"': *out++ = '"'; break;
        case '\\': *out++ = '\\'; break;
        case '\b': *out++ = 'b'; break;
        case '\f': *out++ = 'f'; break;
        case '\n': *out++ = 'n'; break;
        case '\r': *out++ = 'r'; break;
        case '\t': *out++ = 't'; break;
        default:
            *out++ = 'u';
            *out++ = '0';
            *out++ = '0';
            *out++ = "0123456789abcdef"[c >> 4];
            *out++ = "0123456789abcdef"[c & 15];
        }
    }
    return out;
}

/* Writes the n bytes at p escaped at out (room for 6 * n); returns the
 * end. */
static char *escape_into(char *out, const unsigned char *p, size_t n)
{
    if (!copy_needs_escape(out, p, n))   /* the usual case: a copy */
        return out + n;
    return escape_bytes(out, p, n);
}

void json_text_put_key(struct json_text *t, const char *key, size_t nkey, bool plain)
{
    reserve(t, 6 * nkey + 4);
    char *out = t->s + t->len;
    if (t->len > 0 && out[-1] != '{')
        *out++ = ',';
    *out++ = '"';
    if (plain) {
        memcpy(out, key, nkey);
        out += nkey;
    } else {
        out = escape_bytes(out, (const unsigned char *)key, nkey);
    }
    *out++ = '"';
    *out++ = ':';
    t->len = (size_t)(out - t->s);
    t->s[t->len] = '\0';
}

void json_text_put_string(struct json_text *t, const char *s)
{
    if (!s)
        s = "";
    size_t n = strlen(s);
    reserve(t, 6 * n + 2);
    char *out = t->s + t->len;
    *out++ = '"';
    out = escape_into(out, (const unsigned char *)s, n);
    *out++ = '"';
    t->len = (size_t)(out - t->s);
    t->s[t->len] = '\0';
}

/* Writes the decimal digits of u at out, straight into place; returns
 * the end. */
static char *digits_at(char *out, unsigned long u)
{
    size_t n = 1;
    for (unsigned long rest = u; rest >= 10; rest /= 10)
        n++;
    for (char *at = out + n; at > out; u /= 10)
        *--at = (char)('0' + u % 10);
    return out + n;
}

/* Appends the decimal digits of v, with a minus sign when negative. */
static void put_decimal(struct json_text *t, long v)
{
    reserve(t, 21);
    char *out = t->s + t->len;
    if (v < 0)
        *out++ = '-';
    out = digits_at(out, v < 0 ? 0UL - (unsigned long)v : (unsigned long)v);
    *out = '\0';
    t->len = (size_t)(out - t->s);
}

/* Appends d as cJSON's print_number does. */
static void put_double(struct json_text *t, double d)
{
    char buf[32];
    int valueint = d >= INT_MAX ? INT_MAX : d <= (double)INT_MIN ? INT_MIN : (int)d;
    if (isnan(d) || isinf(d)) {
        put(t, "null", 4);
        return;
    }
    if (d == (double)valueint) {
        put_decimal(t, valueint);
        return;
    }
    int len = snprintf(buf, sizeof buf, "%1.15g", d);
    double back = strtod(buf, NULL);
    double larger = fabs(back) > fabs(d) ? fabs(back) : fabs(d);
    if (!(fabs(back - d) <= larger * DBL_EPSILON))
        len = snprintf(buf, sizeof buf, "%1.17g", d);
    put(t, buf, (size_t)len);
}

void json_text_begin(struct json_text *t)
{
    t->len = 0;
    json_text_open(t);
}

void json_text_open(struct json_text *t)
{
    put(t, "{", 1);
}

void json_text_close(struct json_text *t)
{
    put(t, "}", 1);
}

void json_text_put_raw(struct json_text *t, const char *p, size_t len)
{
    put(t, p, len);
}

void json_text_put_long(struct json_text *t, long n)
{
    if (n >= INT_MIN && n <= INT_MAX)
        put_decimal(t, n);
    else
        put_double(t, (double)n);
}

/* Below this many thousandths, k / 1000 has at most 15 significant
 * digits: %1.15g of the double nearest to it prints it exactly (without
 * trailing zeros), and that reads back to the same double. */
#define EXACT_THOUSANDTHS 1000000000000000L

void json_text_put_thousandths(struct json_text *t, long k)
{
    if (k <= -EXACT_THOUSANDTHS || k >= EXACT_THOUSANDTHS) {
        put_double(t, (double)k / 1000);
        return;
    }
    reserve(t, 24);
    char *out = t->s + t->len;
    if (k < 0)   /* "-0" too: the integer part alone would lose the sign */
        *out++ = '-';
    unsigned long u = k < 0 ? 0UL - (unsigned long)k : (unsigned long)k, frac = u % 1000;
    out = digits_at(out, u / 1000);
    if (frac != 0) {
        *out++ = '.';
        *out++ = (char)('0' + frac / 100);
        *out++ = (char)('0' + frac / 10 % 10);
        *out++ = (char)('0' + frac % 10);
        while (out[-1] == '0')
            out--;
    }
    *out = '\0';
    t->len = (size_t)(out - t->s);
}

void json_text_put_item(struct json_text *t, const cJSON *item)
{
    char *text = cJSON_PrintUnformatted(item);
    if (text)
        put(t, text, strlen(text));
    else
        put(t, "null", 4);   /* cJSON ran out of memory */
    free(text);
}

void json_text_free(struct json_text *t)
{
    free(t->s);
    t->s = NULL;
    t->len = t->cap = 0;
}
