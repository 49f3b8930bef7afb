/* Appending strings and writing integers. */
#include "bmc/concrete/text.h"

#include <string.h>

void text_append(char *buf, size_t len, size_t *used, const char *const *parts, int n)
{
    size_t at = *used;   /* a local: buf's stores cannot change it */
    for (int i = 0; i < n && at + 1 < len; i++) {
        const char *s = parts[i];
        if (!s[0])   /* "", "P", ", ", a digit or two: no calls */
            continue;
        if (!s[1] || (!s[2] && at + 2 < len)) {
            buf[at++] = s[0];
            if (s[1])
                buf[at++] = s[1];
            continue;
        }
        size_t k = strlen(s);
        if (k > len - 1 - at)
            k = len - 1 - at;
        memcpy(buf + at, s, k);
        at += k;
    }
    buf[at] = '\0';
    *used = at;
}

const char *text_int(int v, char *digits)
{
    if (v >= 0 && v < 10) {   /* most: thread and scope ids */
        digits[0] = (char)('0' + v);
        digits[1] = '\0';
        return digits;
    }
    char rev[12];
    int k = 0, at = 0;
    unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
    do
        rev[k++] = (char)('0' + u % 10);
    while ((u /= 10) > 0);
    if (v < 0)
        digits[at++] = '-';
    while (k > 0)
        digits[at++] = rev[--k];
    digits[at] = '\0';
    return digits;
}

void text_copy(char *buf, size_t len, const char *s)
{
    if (len == 0)
        return;
    size_t n = strlen(s);
    n = n < len ? n : len - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
}
